"""Fault suite, every path is just a path: what the kiosk finds where a journal, its folder,
its lock or its config should be may be any kind of file -- made here for real: a FIFO
(``os.mkfifo``), a bound Unix socket, a device (a link to ``/dev/zero``, a stream that never
ends), a directory, a symbolic link to any of these, a dangling link, a link loop -- and a
name may hold any character. Each gets one clear line, never blocks (every case runs under a
time bound in a thread or a child process), never reads without a bound, never crash-loops
(the next start is clean), and nothing of the host's is deleted.

Property tests (hypothesis) added here:

- ``test_any_odd_thing_in_the_journals_place_is_set_aside_and_a_game_starts``: the kind of
  ``games/current.jsonl`` x a games folder named with any characters;
- ``test_any_odd_thing_in_the_configs_place_is_one_line_and_no_game``: the kind of the
  ``--config`` file;
- ``test_state_dir_with_any_characters_is_a_folder_or_one_line``: ``[table] state_dir`` any
  text (through the TOML file, escaped as TOML needs);
- ``test_any_odd_thing_where_the_games_folder_should_be_pauses_with_its_reason``: the kind
  of the games folder itself (or of a folder above it).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from system_needs import skip_for_system

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from ground.files import NotAFile, TooLarge, kind_of, read_regular
from tablekeeper.kiosk import GuardedGame, games_dir, open_game, read_config

ROOT = Path(__file__).resolve().parents[2]

#: the kinds of file made for real by :func:`make`
KINDS = ["fifo", "socket", "directory", "device link", "fifo link", "directory link",
         "dangling link", "link loop", "junk file"]

BOUND_S = 20.0  # "never blocks": each case must end within this (a block would be forever)


@contextlib.contextmanager
def scratch() -> Iterator[Path]:
    """A short temporary folder (a Unix socket's path must be under 108 bytes)."""
    folder = Path(tempfile.mkdtemp(prefix="tk-", dir="/tmp"))
    try:
        yield folder
    finally:
        while _SOCKETS:
            _SOCKETS.pop().close()
        shutil.rmtree(folder, ignore_errors=True)


_SOCKETS: list[socket.socket] = []


def make(path: Path, kind: str) -> None:
    """Put a real ``kind`` at ``path``."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(str(path))
        s.listen(1)
        _SOCKETS.append(s)  # kept open: a live socket
    elif kind == "directory":
        path.mkdir()
        (path / "host-data.txt").write_text("the host's", encoding="utf-8")
    elif kind == "device link":
        path.symlink_to("/dev/zero")
    elif kind == "fifo link":
        os.mkfifo(path.with_name(path.name + ".target"))
        path.symlink_to(path.with_name(path.name + ".target"))
    elif kind == "directory link":
        path.with_name(path.name + ".target").mkdir()
        path.symlink_to(path.with_name(path.name + ".target"))
    elif kind == "dangling link":
        path.symlink_to(path.with_name("gone"))
    elif kind == "link loop":
        path.symlink_to(path)
    elif kind == "junk file":
        path.write_bytes(os.urandom(300))
    else:  # pragma: no cover
        raise AssertionError(kind)


def bounded(call: Callable[[], Any], what: str) -> Any:
    """``call()`` in a thread that must end within :data:`BOUND_S` (else: it blocked)."""
    out: list[Any] = []
    err: list[BaseException] = []

    def run() -> None:
        try:
            out.append(call())
        except BaseException as exc:  # re-raised below, in the test's thread
            err.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(BOUND_S)
    assert not thread.is_alive(), f"{what}: blocked for more than {BOUND_S} s"
    if err:
        raise err[0]
    return out[0]


def _name_chars() -> st.SearchStrategy[str]:
    """A file name's characters: anything but '/' and NUL (and no lone surrogate)."""
    return st.characters(exclude_categories=["Cs"], exclude_characters="/\0")


#: a folder name of up to 40 characters, and at most 60 bytes encoded: a live Unix socket made
#: inside it (the "socket" kind) must keep its whole path under the kernel's 108 bytes
#: (``/tmp/tk-XXXXXXXX/`` + the name + ``/games/current.jsonl``); four-byte characters would
#: otherwise take a 40-character name to 160 bytes ("AF_UNIX path too long": the test's limit,
#: not the kiosk's)
NAMES = st.text(_name_chars(), min_size=1, max_size=40).filter(
    lambda n: n not in (".", "..") and len(os.fsencode(n)) <= 60)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(KINDS), name=NAMES)
def test_any_odd_thing_in_the_journals_place_is_set_aside_and_a_game_starts(
        kind: str, name: str, record_property: Callable[[str, object], None]) -> None:
    record_property("faults", 1)
    with scratch() as base:
        folder = base / name / "games"
        folder.mkdir(parents=True)
        path = folder / "current.jsonl"
        make(path, kind)
        before = os.lstat(path)
        game, problem = bounded(lambda: open_game(folder), f"open_game with a {kind}")
        assert isinstance(game, GuardedGame)
        if kind == "junk file":  # a regular file that is not a journal: the damaged path
            assert problem and "damaged-" in problem
        else:
            assert game.paused is None, game.paused
            assert problem and "not a journal" in problem and "kept as damaged-" in problem
            assert "\n" not in problem
            aside = [p for p in folder.iterdir() if p.name.startswith("damaged-")]
            assert len(aside) == 1 and os.lstat(aside[0]).st_ino == before.st_ino  # kept
            if kind == "directory":
                assert (aside[0] / "host-data.txt").read_text(encoding="utf-8") == "the host's"
        assert kind_of(path) is None and path.is_file()  # a new journal in its place
        again, problem2 = bounded(lambda: open_game(folder), "the next start")
        assert problem2 is None and not again.journal.active()  # no crash loop


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from([k for k in KINDS if k != "junk file"]))
def test_any_odd_thing_in_the_configs_place_is_one_line_and_no_game(kind: str,
        record_property: Callable[[str, object], None]) -> None:
    record_property("faults", 1)
    with scratch() as base:
        config = base / "config.toml"
        make(config, kind)
        report = bounded(lambda: read_config(config, explicit=True), f"a config that is a {kind}")
        assert report.fatal is not None and "\n" not in report.fatal
        assert "cannot be read as a config file" in report.fatal
        assert "games folder" in report.fatal


def _toml_string(text: str) -> str:
    """``text`` as a TOML basic string (control characters, quotes, backslashes escaped)."""
    out = []
    for ch in text:
        if ch in '"\\' or ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(st.characters(exclude_categories=["Cs"], exclude_characters="/"),
                    min_size=1, max_size=300).filter(lambda n: n not in (".", "..")))
def test_state_dir_with_any_characters_is_a_folder_or_one_line(name: str,
        record_property: Callable[[str, object], None]) -> None:
    record_property("faults", 1)
    with scratch() as base:
        config = base / "c.toml"
        config.write_text(f"[table]\nstate_dir = {_toml_string(str(base / name))}\n",
                          encoding="utf-8")
        report = read_config(config, explicit=True)
        if "\0" in name:
            assert report.fatal is not None and "\n" not in report.fatal
            assert any("NUL" in p for p in report.problems)
            return
        assert report.fatal is None, report.fatal
        assert report.config.table.state_dir == str(base / name)
        game, problem = bounded(lambda: open_game(games_dir(report.config)), "open_game")
        if len(os.fsencode(name)) > 255:  # a name too long for the file system: paused, said
            assert game.paused is not None and "File name too long" in game.paused
        else:
            assert game.paused is None and problem is None
            assert (base / name / "games" / "current.jsonl").is_file()


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(["fifo", "socket", "device link", "dangling link", "link loop",
                             "junk file"]),
       above=st.booleans())
def test_any_odd_thing_where_the_games_folder_should_be_pauses_with_its_reason(
        kind: str, above: bool, record_property: Callable[[str, object], None]) -> None:
    record_property("faults", 1)
    with scratch() as base:
        odd = base / "state"
        make(odd, kind)
        folder = (odd / "games") if above else odd
        game, problem = bounded(lambda: open_game(folder), "open_game")
        assert game.paused is not None  # nothing can be written: paused, retried each second
        assert problem and "cannot be made" in problem and "not a folder" in problem
        assert os.path.lexists(odd)  # left alone


@pytest.mark.parametrize("kind", ["fifo", "device link", "directory", "socket"])
def test_the_kiosk_starts_with_an_odd_journal_in_a_child_process(tmp_path: Path,
                                                                   kind: str) -> None:
    """The whole start-up path (``tablekeeper kiosk``) in its own process, with a time bound:
    the FIFO once blocked it before its first log line (systemd never got READY)."""
    with scratch() as base:
        games = base / "state" / "games"
        games.mkdir(parents=True)
        make(games / "current.jsonl", kind)
        config = base / "c.toml"
        config.write_text(f'[table]\nstate_dir = "{base / "state"}"\n', encoding="utf-8")
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                   PYTHONPATH=str(ROOT))
        args = [sys.executable, "-m", "tablekeeper", "kiosk", "--config", str(config),
                "--keyboard", "--simulate-camera", "--window", "--run-for", "0.3"]
        for start in ("first", "second"):
            done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, f"{start} start: {done.stderr[-2000:]}"
            if start == "first":
                assert "not a journal" in done.stderr and "Traceback" not in done.stderr
            else:
                assert "not a journal" not in done.stderr  # the next start is clean
        assert [p for p in games.iterdir() if p.name.startswith("damaged-")]


def test_a_crash_leftovers_name_on_something_else_is_left_alone(tmp_path: Path) -> None:
    from tablekeeper.kiosk import remove_stale_temporaries

    folder = tmp_path / "games"
    folder.mkdir()
    (folder / ".current.jsonl.99999999.new").mkdir()
    os.mkfifo(folder / ".current.jsonl.99999998.new")
    (folder / ".current.jsonl.99999997.new").write_bytes(b"{}")  # a real leftover
    removed = bounded(lambda: remove_stale_temporaries(folder), "remove_stale_temporaries")
    assert [p.name for p in removed] == [".current.jsonl.99999997.new"]
    assert (folder / ".current.jsonl.99999999.new").is_dir()
    assert kind_of(folder / ".current.jsonl.99999998.new") == "a FIFO (named pipe)"


@pytest.mark.parametrize("kind", ["fifo", "socket", "device link", "dangling link", "link loop"])
def test_enroll_from_images_with_odd_files_in_the_folder(kind: str) -> None:
    """``vision enroll --from-images DIR``: a FIFO in DIR once blocked it for ever."""
    photos = sorted((ROOT.parent / "shared" / "data" / "set-crops").rglob("*.jpg"))[:1]
    if not photos:
        pytest.skip("no real card photo to enrol: ../shared/data/set-crops is absent")
    with scratch() as base:
        src = base / "img"
        src.mkdir()
        for p in photos:
            shutil.copy(p, src / p.name)
        make(src / "odd.png", kind)
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        done = subprocess.run([sys.executable, "-m", "tablekeeper", "vision", "enroll",
                               "--deck", str(base / "deck"), "--game", "the-game",
                               "--from-images", str(src)], env=env, capture_output=True,
                              text=True, timeout=120)
        assert "Traceback" not in done.stderr, done.stderr
        lines = [line for line in done.stdout.splitlines() if "odd" in line]
        assert lines and all("ignored" in line for line in lines), done.stdout + done.stderr
        assert done.returncode == 0 and "enrolled 1" in done.stdout
        assert os.path.lexists(src / "odd.png")


def test_read_regular_bounds_what_it_reads(tmp_path: Path) -> None:
    big = tmp_path / "big"
    big.write_bytes(b"x" * 2000)
    with pytest.raises(TooLarge):
        read_regular(big, 1000)
    assert read_regular(big, 2000) == b"x" * 2000
    with pytest.raises(NotAFile, match="character device"):
        bounded(lambda: read_regular(Path("/dev/zero"), 1000), "/dev/zero")


UNREADABLE = """
import sys
from pathlib import Path
from tablekeeper.kiosk import open_game
game, problem = open_game(Path(sys.argv[1]))
print(problem)
print("paused" if game.paused else "playing")
"""


#: root without the two capabilities that let it read any file: a mode-000 file is then as
#: unreadable to it as to the kiosk's user, while it still reaches this checkout and its
#: interpreter wherever root put them (``nobody`` cannot, from a checkout in a 0700 folder)
NO_DAC = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


def test_an_unreadable_journal_is_set_aside(tmp_path: Path) -> None:
    """A journal this user may not read (mode 000): as root the start runs in a child process
    that keeps root's uid but not its right to read any file (setpriv), since root reads any
    file; the child stays root, so it reaches a checkout in a private folder."""
    with scratch() as base:
        base.chmod(0o755)
        folder = base / "games"
        folder.mkdir()
        path = folder / "current.jsonl"
        path.write_bytes(b"the host's secret")
        path.chmod(0)
        if os.geteuid() != 0:
            game, problem = open_game(folder)
            paused = getattr(game, "paused", None)
            told = f"{problem}\n{'paused' if paused else 'playing'}"
        else:
            if shutil.which("setpriv") is None:
                skip_for_system("util-linux", "setpriv, to take root's right to read any file")
            env = dict(os.environ, PYTHONPATH=str(ROOT), HOME=str(base))
            probe = subprocess.run([*NO_DAC, sys.executable, "-c", "import tablekeeper.kiosk"],
                                   capture_output=True, text=True, timeout=120, env=env,
                                   cwd=base)
            if probe.returncode != 0:  # no CAP_SETPCAP, or a checkout root does not own
                pytest.skip("root without CAP_DAC_OVERRIDE cannot start this checkout's Python "
                            f"({sys.executable}): {probe.stderr.strip().splitlines()[-1:]}")
            done = subprocess.run([*NO_DAC, sys.executable, "-c", UNREADABLE, str(folder)],
                                  capture_output=True, text=True, timeout=120, env=env,
                                  cwd=base)
            assert done.returncode == 0, done.stderr
            told = done.stdout
        assert "Permission denied" in told and "kept as damaged-" in told, told
        assert told.strip().endswith("playing")
        aside = [p for p in folder.iterdir() if p.name.startswith("damaged-")]
        assert len(aside) == 1
        aside[0].chmod(0o600)
        assert aside[0].read_bytes() == b"the host's secret"  # kept


#: the kiosk's own files a FIFO once blocked before READY=1 (plain reads): where each is put
FIFO_PLACES = ["games/table.json", "deck manifest.json", "markers.json"]


@pytest.mark.parametrize("place", FIFO_PLACES)
def test_a_fifo_in_place_of_a_file_the_kiosk_reads_never_blocks_its_start(place: str) -> None:
    """A FIFO where the table's players (``games/table.json``), a deck's ``manifest.json`` or
    the marker calibration (``markers.json``) should be: the kiosk (its own process, wink: the
    game that reads markers) runs and ends, or exits 78 with one line; it never blocks."""
    with scratch() as base:
        games = base / "state" / "games"
        games.mkdir(parents=True)
        deck = base / "deck"
        deck.mkdir()
        (deck / "c1.png").write_bytes(b"")
        targets = {"games/table.json": games / "table.json",
                   "deck manifest.json": deck / "manifest.json",
                   "markers.json": base / "markers.json"}
        os.mkfifo(targets[place])
        config = base / "c.toml"
        decks = f'[table.decks]\nwink = "{deck}"\n' if place == "deck manifest.json" else ""
        config.write_text(f'[table]\nstate_dir = "{base / "state"}"\ngame = "wink"\n'
                          + decks, encoding="utf-8")
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                   PYTHONPATH=str(ROOT))
        args = [sys.executable, "-m", "tablekeeper", "kiosk", "--config", str(config),
                "--keyboard", "--simulate-camera", "--window", "--run-for", "0.5"]
        done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120,
                              stdin=subprocess.DEVNULL)
        assert "Traceback" not in done.stderr, done.stderr[-3000:]
        if done.returncode == 78:
            assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        else:
            assert done.returncode == 0, done.stderr[-3000:]
        assert "FIFO" in done.stderr, done.stderr[-3000:]  # said, not silently skipped
        assert stat.S_ISFIFO(os.lstat(targets[place]).st_mode)  # left where it was
