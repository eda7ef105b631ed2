"""Fault suite, two kiosks on one games folder: a real second process holds the folder's lock
(``tablekeeper.folderlock``); the kiosk started second says who holds it, exits 78 (the unit
does not restart it) and writes nothing; killed with SIGKILL (a power cut's equivalent for the
lock) the holder leaves no stale lock; reading tools still work while it runs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tablekeeper.cli import main
from tablekeeper.folderlock import LOCK_NAME, FolderLock, FolderLocked
from tablekeeper.kiosk import EXIT_CONFIG

ROOT = Path(__file__).resolve().parents[2]


def _config(tmp_path: Path, state: Path) -> Path:
    config = tmp_path / "c.toml"
    config.write_text(f'[table]\nstate_dir = "{state}"\n', encoding="utf-8")
    return config


def _kiosk_args(config: Path, run_for: str) -> list[str]:
    return ["kiosk", "--config", str(config), "--keyboard", "--simulate-camera", "--window",
            "--run-for", run_for]


@pytest.fixture
def first_kiosk(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    """A kiosk in its own process on ``tmp_path/state``, up once its lock file names it."""
    state = tmp_path / "state"
    config = _config(tmp_path, state)
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONPATH=str(ROOT))
    # Its log goes to a file, not a pipe: a pipe nobody reads fills and wedges the kiosk (the
    # StopGuard's case), and then the lock is never checked again.
    log = tmp_path / "first-kiosk.log"
    with log.open("wb") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tablekeeper", *_kiosk_args(config, "120")],
            env=env, stdout=subprocess.DEVNULL, stderr=err)
    lock = state / "games" / LOCK_NAME
    journal = state / "games" / "current.jsonl"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            why = log.read_text(encoding="utf-8", errors="replace")
            pytest.fail(f"the first kiosk ended: {why}")
        try:
            if json.loads(lock.read_text(encoding="utf-8") or "{}").get("pid") == proc.pid \
                    and journal.exists():
                break
        except (OSError, ValueError):
            pass
        time.sleep(0.1)
    else:
        proc.kill()
        pytest.fail("the first kiosk did not take its lock within 90 s")
    yield proc, config
    if proc.poll() is None:
        proc.kill()
    proc.wait(10)


def test_a_second_kiosk_says_who_holds_the_folder_and_writes_nothing(
        first_kiosk: tuple[subprocess.Popen[bytes], Path], tmp_path: Path) -> None:
    proc, config = first_kiosk
    games = tmp_path / "state" / "games"
    before = {p.name: p.read_bytes() for p in games.iterdir() if p.name != LOCK_NAME}
    second = subprocess.run([sys.executable, "-m", "tablekeeper", *_kiosk_args(config, "0.3")],
                            capture_output=True, text=True, timeout=120,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert second.returncode == EXIT_CONFIG, second.stderr
    err = second.stderr
    assert len(err.splitlines()) == 1, err  # one line: the unit's log says it all in it
    assert f"pid {proc.pid}" in err and "since" in err and "kiosk" in err, err
    after = {p.name: p.read_bytes() for p in games.iterdir() if p.name != LOCK_NAME}
    assert after == before  # nothing written, nothing cut
    # the reading tools take no lock
    done = subprocess.run([sys.executable, "-m", "tablekeeper", "replay",
                           str(games / "current.jsonl")], capture_output=True, text=True,
                          timeout=60, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr
    assert proc.poll() is None  # the first one runs on


def test_a_killed_kiosk_leaves_no_stale_lock(
        first_kiosk: tuple[subprocess.Popen[bytes], Path], tmp_path: Path) -> None:
    proc, config = first_kiosk
    os.kill(proc.pid, signal.SIGKILL)  # no clean-up runs: what a power cut leaves of the lock
    proc.wait(10)
    assert (tmp_path / "state" / "games" / LOCK_NAME).exists()  # the file stays ...
    assert main(_kiosk_args(config, "0.3")) == 0  # ... the lock does not


@pytest.mark.parametrize("kind", ["fifo", "directory", "dangling link", "link to /dev/zero"])
def test_an_odd_file_in_the_lock_files_place_is_moved_aside(tmp_path: Path, kind: str) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    path = folder / LOCK_NAME
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
        (path / "keep").write_text("the host's", encoding="utf-8")
    elif kind == "dangling link":
        path.symlink_to(folder / "gone")
    else:
        path.symlink_to("/dev/zero")
    lock = FolderLock.acquire(folder)
    try:
        assert lock.held and lock.problem and "moved aside" in lock.problem
        odd = folder / f"{LOCK_NAME}.odd-1"
        assert os.path.lexists(odd)  # kept, never deleted
        if kind == "directory":
            assert (odd / "keep").read_text(encoding="utf-8") == "the host's"
        # flock locks belong to an open file description: a second acquire is refused here too
        with pytest.raises(FolderLocked, match=f"pid {os.getpid()}"):
            FolderLock.acquire(folder)
    finally:
        lock.release()



# --- a lock that cannot be fooled (issue 40) -----------------------------------------------

@pytest.mark.parametrize("swap", ["removed", "a directory in its place"])
def test_the_lock_file_swapped_while_the_kiosk_runs_fools_no_second_kiosk(
        first_kiosk: tuple[subprocess.Popen[bytes], Path], tmp_path: Path,
        capsys: pytest.CaptureFixture[str], swap: str,
        record_property: Callable[[str, object], None]) -> None:
    """The lock is on the games folder itself: the lock file only says who holds it, so
    removing it, or putting a directory in its place, lets no second kiosk in."""
    record_property("faults", 1)
    proc, config = first_kiosk
    games = tmp_path / "state" / "games"
    (games / LOCK_NAME).unlink()
    if swap == "a directory in its place":
        (games / LOCK_NAME).mkdir()
    before = {p.name: p.read_bytes() for p in games.iterdir() if p.is_file()
              and not p.name.startswith(LOCK_NAME)}
    assert main(_kiosk_args(config, "0.3")) == EXIT_CONFIG
    err = capsys.readouterr().err
    assert f"pid {proc.pid}" in err and "kiosk" in err, err
    assert all("not started" in line for line in err.strip().splitlines()), err  # one message
    after = {p.name: p.read_bytes() for p in games.iterdir() if p.is_file()
             and not p.name.startswith(LOCK_NAME)}
    assert after == before  # the second one wrote nothing
    assert proc.poll() is None  # the first one runs on, and says again who it is
    assert _until(lambda: _names(games / LOCK_NAME, proc.pid), 10)


def test_a_kiosk_that_started_without_a_lock_takes_it_when_it_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        record_property: Callable[[str, object], None]) -> None:
    """Its games folder could not be made at start (no lock could be taken: the game waits,
    paused); once it can, the kiosk takes the lock before it writes, so a kiosk started by hand
    beside it is refused (78, naming it)."""
    record_property("faults", 1)
    state = tmp_path / "state"
    state.write_text("not a folder")  # the games folder cannot be made (ENOTDIR, root too)
    config = _config(tmp_path, state)
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "tablekeeper", *_kiosk_args(config, "120")],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    said: list[str] = []
    threading.Thread(target=lambda: said.extend(proc.stderr or []), daemon=True).start()
    try:
        assert _until(lambda: any("paused" in line for line in said), 90), said
        assert not _names(state / "games" / LOCK_NAME, proc.pid)
        state.unlink()  # space is back: the folder can be made now
        games = state / "games"
        assert _until(lambda: (games / "current.jsonl").is_file()
                      and _names(games / LOCK_NAME, proc.pid), 30), said
        assert main(_kiosk_args(config, "0.3")) == EXIT_CONFIG
        err = capsys.readouterr().err
        assert f"pid {proc.pid}" in err, err
        assert proc.poll() is None
    finally:
        proc.kill()
        proc.wait(10)


def test_a_games_folder_replaced_while_the_kiosk_runs_is_locked_again(
        first_kiosk: tuple[subprocess.Popen[bytes], Path], tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
        record_property: Callable[[str, object], None]) -> None:
    """The games folder renamed away and made anew under its name: the kiosk notices within a
    second or two and locks the new one, so a second kiosk is still refused."""
    record_property("faults", 1)
    proc, config = first_kiosk
    games = tmp_path / "state" / "games"
    games.rename(tmp_path / "state" / "games.moved")
    games.mkdir()
    # Checked every second by the kiosk; 60 s leaves room for a loaded 2-core CI machine.
    assert _until(lambda: _names(games / LOCK_NAME, proc.pid), 60)
    assert main(_kiosk_args(config, "0.3")) == EXIT_CONFIG
    assert f"pid {proc.pid}" in capsys.readouterr().err


def _names(path: Path, pid: int) -> bool:
    try:
        return bool(json.loads(path.read_text(encoding="utf-8") or "{}").get("pid") == pid)
    except (OSError, ValueError):
        return False


def _until(predicate: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def test_a_folder_taken_by_another_while_swapped_pauses_the_game_saying_who(
        tmp_path: Path) -> None:
    """The games folder replaced and the new one locked by another kiosk first: the game
    pauses (nothing written into a folder another kiosk writes), saying who holds it, and goes
    on once that one has let go."""
    from tablekeeper.kiosk import GuardedGame, open_game

    folder = tmp_path / "games"
    folder.mkdir()
    mine = FolderLock.acquire(folder)
    game, _ = open_game(folder)
    assert isinstance(game, GuardedGame)
    game.RETRY_S = 0.0
    game.lock = mine
    folder.rename(tmp_path / "games.moved")
    folder.mkdir()
    other = FolderLock.acquire(folder)  # (another open file description: another holder)
    try:
        game.watch_lock()
        assert game.paused is not None and f"pid {os.getpid()}" in game.paused
        assert game.banner is not None and "another tablekeeper" in game.banner
    finally:
        other.release()
    game.probe()
    assert game.paused is None and mine.held
    mine.release()
