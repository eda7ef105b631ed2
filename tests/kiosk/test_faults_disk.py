"""Fault suite, storage: a full disk (a real 64 KiB tmpfs) and a games folder that cannot be
written or created. The game pauses with the reason (nothing acknowledged that was not
written, the journal keeps no half line), and resumes when writing works again.

The tmpfs needs root (``mount``); without it those tests skip and say why.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import random
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from system_needs import skip_for_root

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from engine.core import Rejection
from engine.something_missing import Phase, State, Variant, is_over
from tablekeeper.cli import main
from tablekeeper.games.something_missing.simplayers import SimTable
from tablekeeper.journal import read, replay
from tablekeeper.kiosk import (
    CURRENT,
    DeferredJournal,
    GuardedGame,
    next_game,
    open_game,
    show_pause,
)


@pytest.fixture
def tiny(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs: a disk that really fills up."""
    if os.geteuid() != 0:
        skip_for_root("mounting a tmpfs, a disk that really fills up")
    mnt = tmp_path / "disk"
    mnt.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mnt)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def _fill(folder: Path, leave: int = 0) -> Path:
    """Fill the file system but ``leave`` bytes (roughly: tmpfs counts pages)."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"\0" * 1024)
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"\0")
    finally:
        os.close(fd)
    assert os.statvfs(folder).f_bavail == 0
    if leave:
        os.truncate(filler, max(0, filler.stat().st_size - leave))
    return filler


def _fast(game: object) -> GuardedGame:
    assert isinstance(game, GuardedGame)
    game.RETRY_S = 0.0  # try at every call in the tests
    return game


def test_a_full_disk_pauses_the_game_and_nothing_unwritten_is_acknowledged(
        tiny: Path) -> None:
    folder = tiny / "games"
    game, problem = open_game(folder)
    assert problem is None and isinstance(game, GuardedGame)
    _fast(game)
    pauses: list[str | None] = []
    game.on_pause = pauses.append
    table = SimTable.generate(random.Random(8), 5, Variant.ADVANCED)
    filler = _fill(tiny, leave=6000)
    acknowledged = 0
    refused = 0
    while not is_over(game.state) and refused < 5:
        event = table.propose(game.state)
        result = game.submit(event)
        if isinstance(result, Rejection):
            assert result.code == "journal_unwritable", result
            refused += 1
            # what was acknowledged is exactly what the journal holds, with no half line
            contents = read(folder / CURRENT)
            assert contents.torn_tail is None
            assert replay(contents) == game.state
            assert len(contents.active()) == acknowledged
        else:
            acknowledged += 1
    assert refused == 5 and acknowledged > 0
    assert game.paused is not None and "disk is full" in game.paused
    assert pauses == [game.banner]  # said once, not once per refused event
    game.probe()
    assert game.paused is not None  # still full
    filler.unlink()  # the host frees space
    game.probe()
    assert game.paused is None and pauses[-1] is None
    while not is_over(game.state):  # and the game goes on to its end
        assert isinstance(game.submit(table.propose(game.state)), State)
    assert replay(folder / CURRENT) == game.state


def test_a_full_disk_at_start_gives_a_paused_game_that_starts_when_space_is_freed(
        tiny: Path) -> None:
    folder = tiny / "games"
    folder.mkdir()
    filler = _fill(tiny)
    game, _ = open_game(folder)
    assert isinstance(game, GuardedGame) and isinstance(game.journal, DeferredJournal)
    _fast(game)
    assert game.paused is not None and "disk is full" in game.paused
    assert game.state.phase is Phase.SETUP
    assert not (folder / CURRENT).exists()
    assert [p.name for p in folder.iterdir()] == []  # no temporary left either
    table = SimTable.generate(random.Random(2), 3, Variant.EASY)
    first = table.propose(game.state)
    refused = game.submit(first)
    assert isinstance(refused, Rejection) and refused.code == "journal_unwritable"
    filler.unlink()
    assert isinstance(game.submit(first), State) and game.paused is None
    assert replay(folder / CURRENT) == game.state


def test_a_new_game_on_a_full_disk_is_paused_and_the_finished_one_kept(tiny: Path) -> None:
    folder = tiny / "games"
    game, _ = open_game(folder)
    table = SimTable.generate(random.Random(2), 3, Variant.EASY)
    for _ in range(5):
        game.submit(table.propose(game.state))
    before = (folder / CURRENT).read_bytes()
    filler = _fill(tiny)
    said: list[str] = []
    fresh = next_game(folder, game, said.append)
    assert isinstance(fresh, GuardedGame) and fresh.paused is not None and not said
    kept = [p for p in folder.iterdir() if p.name.startswith("game-")]
    assert len(kept) == 1 and kept[0].read_bytes() == before
    filler.unlink()
    _fast(fresh).probe()
    assert fresh.paused is None and read(folder / CURRENT).records == ()


def test_a_read_only_disk_pauses_and_resumes(tiny: Path) -> None:
    folder = tiny / "games"
    game = _fast(open_game(folder)[0])
    table = SimTable.generate(random.Random(2), 3, Variant.EASY)
    assert isinstance(game.submit(table.propose(game.state)), State)
    subprocess.run(["mount", "-o", "remount,ro", str(tiny)], check=True)
    try:
        state = game.state
        refused = game.submit(table.propose(game.state))
        assert isinstance(refused, Rejection) and game.state == state
        assert game.paused is not None and "cannot be written" in game.paused
        game.probe()
        assert game.paused is not None
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(tiny)], check=True)
    game.probe()
    assert game.paused is None
    assert isinstance(game.submit(table.propose(game.state)), State)
    assert replay(folder / CURRENT) == game.state


def test_a_games_folder_that_cannot_be_created_pauses_and_resumes(tmp_path: Path) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("not a folder")  # ENOTDIR, for root too
    game, _ = open_game(blocker / "games")
    assert isinstance(game, GuardedGame) and game.paused is not None
    assert "cannot be written" in game.paused
    _fast(game)
    game.probe()
    assert game.paused is not None
    blocker.unlink()
    game.probe()
    assert game.paused is None and (blocker / "games" / CURRENT).exists()


def test_a_write_error_is_cut_back_to_the_last_line(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    game, _ = open_game(tmp_path)
    _fast(game)
    table = SimTable.generate(random.Random(2), 3, Variant.EASY)
    game.submit(table.propose(game.state))
    before = (tmp_path / CURRENT).read_bytes()
    real_write = os.write

    def half_then_eio(fd: int, data: bytes | memoryview) -> int:  # a dying card
        if len(data) > 10:
            return real_write(fd, bytes(data[:10]))
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "write", half_then_eio)
    state = game.state
    result = game.submit(table.propose(game.state))
    assert isinstance(result, Rejection) and game.state == state
    assert (tmp_path / CURRENT).read_bytes() == before  # the 10 bytes were cut off
    monkeypatch.undo()
    assert isinstance(game.submit(table.propose(game.state)), State)
    assert replay(tmp_path / CURRENT) == game.state


def test_the_pause_banner_comes_and_goes() -> None:
    problems = ["config problems: ..."]
    banner: list[str] = []
    show_pause(problems, banner, "paused: the disk is full")
    show_pause(problems, banner, "paused: the disk is full (again)")
    assert problems == ["paused: the disk is full (again)", "config problems: ..."]  # first
    show_pause(problems, banner, None)
    assert problems == ["config problems: ..."]


def test_the_kiosk_runs_on_a_full_disk_without_a_traceback(
        tiny: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    config = tmp_path / "c.toml"
    config.write_text(f'[table]\nstate_dir = "{tiny / "state"}"\n', encoding="utf-8")
    (tiny / "state").mkdir()
    _fill(tiny)
    with caplog.at_level(logging.ERROR):
        code = main(["kiosk", "--config", str(config), "--keyboard", "--simulate-camera",
                     "--window", "--run-for", "0.5"])
    assert code == 0
    assert any("disk is full" in r.getMessage() for r in caplog.records)


def test_a_paused_game_does_not_flood_the_log() -> None:
    import logging

    from tablekeeper.kiosk import PAUSED, PauseLogFilter

    keep = PauseLogFilter(every_s=3600)

    def record(*args: object) -> logging.LogRecord:
        return logging.LogRecord("tablekeeper.referee", logging.INFO, __file__, 1,
                                 "rejected %s: %s", args, None)

    kept = [keep.filter(record("viewing_time_up", f"{PAUSED}: the disk is full"))
            for _ in range(90)]
    assert kept.count(True) == 1
    assert keep.filter(record("bet", "not your turn"))  # other rejections are all kept


def test_a_finished_game_on_a_read_only_disk_stays_and_the_start_goes_on(tiny: Path) -> None:
    from engine.something_missing import EndGame

    folder = tiny / "games"
    game = _fast(open_game(folder)[0])
    table = SimTable.generate(random.Random(2), 3, Variant.EASY)
    assert isinstance(game.submit(table.propose(game.state)), State)
    assert isinstance(game.submit(EndGame(at_ms=game.state.now_ms + 1)), State)
    (folder / f".{CURRENT}.999999.new").write_bytes(b"{")  # a leftover it cannot remove
    subprocess.run(["mount", "-o", "remount,ro", str(tiny)], check=True)
    try:
        again, problem = open_game(folder)  # neither archiving nor cleaning up can be done
        assert problem is not None and "cannot be put away" in problem
        assert again.state == game.state and is_over(again.state)
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(tiny)], check=True)
    said: list[str] = []
    fresh = next_game(folder, again, said.append)  # the host's "new game", now it can
    assert fresh is not None and not said and read(folder / CURRENT).records == ()
    assert len(list(folder.glob("game-*.jsonl"))) == 1
