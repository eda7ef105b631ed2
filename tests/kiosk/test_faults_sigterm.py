"""Fault suite, SIGTERM: ``systemctl stop`` (or a shutdown) ends the kiosk within the unit's
``TimeoutStopSec``, whenever it comes -- before READY=1, with the screen up, and while the
kiosk is stuck in a blocking write -- and the game's journal is intact after it.

SDL swallows SIGTERM for real: a plain pygame program (the control below) with SDL's dummy or
X11 video driver started takes SIGTERM as a quit event and runs on. The kiosk answers SIGTERM
itself, before pygame starts and after (``SDL_NO_SIGNAL_HANDLERS``, and its handler installed
before SDL's start, so SDL leaves it alone): every ``finally`` runs (the camera, the screen,
the buttons, the folder's lock) and it exits 0. Where the clean stop cannot run or cannot end
-- the log stream nobody reads (journald wedged: every write blocks, the handler's own line
too) -- the kiosk's stop guard ends it after ``STOP_GRACE_S`` (tablekeeper/kiosk.py,
``StopGuard``), below ``TimeoutStopSec``. Real processes, real signals, a real notify socket;
the X11 driver where a display is given (``DISPLAY``, e.g. Xvfb)."""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tablekeeper.kiosk import STOP_GRACE_S

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "tablekeeper-kiosk.service"


def _timeout_stop_s() -> float:
    found = re.search(r"^TimeoutStopSec=(\d+)\s*$", UNIT.read_text(encoding="utf-8"), re.M)
    assert found, "the unit names its TimeoutStopSec"
    return float(found.group(1))


def _drivers() -> list[object]:
    x11 = pytest.param("x11", marks=pytest.mark.skipif(
        not os.environ.get("DISPLAY"), reason="no X display (DISPLAY unset): the X11 driver "
                                              "is tried under Xvfb"))
    return ["dummy", x11]


def _env(driver: str, **more: str) -> dict[str, str]:
    env = dict(os.environ, SDL_VIDEODRIVER=driver, SDL_AUDIODRIVER="dummy",
               PYTHONPATH=str(ROOT), PYGAME_HIDE_SUPPORT_PROMPT="1", **more)
    for key in ("SDL_NO_SIGNAL_HANDLERS", "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID",
                "STATE_DIRECTORY", "TABLEKEEPER_STATE_DIR"):
        if key not in more:
            env.pop(key, None)
    return env


def test_the_stop_guard_is_below_the_units_timeout() -> None:
    assert _timeout_stop_s() >= STOP_GRACE_S + 3


CONTROL = """\
import sys, time, pygame
pygame.display.init()
pygame.display.set_mode((160, 90))
print("up", flush=True)
begin = time.monotonic()
while time.monotonic() - begin < 8:
    time.sleep(0.1)
print("ran on;", *sorted({pygame.event.event_name(e.type) for e in pygame.event.get()}),
      flush=True)
"""


@pytest.mark.parametrize("driver", _drivers())
def test_sdl_swallows_sigterm_in_a_plain_pygame_program(
        driver: str, record_property: Callable[[str, object], None]) -> None:
    """The control: the fault the kiosk must survive is real here (so the tests below could
    fail): SDL, once started, turns SIGTERM into a quit event and the program runs on."""
    record_property("faults", 1)
    proc = subprocess.Popen([sys.executable, "-c", CONTROL], env=_env(driver),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "up"
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert proc.returncode == 0 and "ran on;" in out and "Quit" in out, (out, err)


class Notify:
    """A notify socket as systemd's (``NOTIFY_SOCKET``): what the kiosk sends, in order."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="tk-n"))  # (a socket path must be short)
        self.path = self.folder / "notify"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(self.path))
        self.sock.setblocking(False)
        self.said: list[str] = []

    def read(self) -> list[str]:
        while True:
            try:
                self.said.extend(self.sock.recv(4096).decode().splitlines())
            except BlockingIOError:
                return self.said

    def ready(self) -> bool:
        return "READY=1" in self.read()

    def close(self) -> None:
        self.sock.close()
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture
def notify() -> Iterator[Notify]:
    n = Notify()
    yield n
    n.close()


def _full_pipe() -> tuple[int, int]:
    """A pipe already full: what a log stream nobody reads is (journald wedged). The first
    line the kiosk writes to it blocks."""
    r, w = os.pipe()
    fcntl.fcntl(w, fcntl.F_SETFL, os.O_NONBLOCK)
    try:
        while True:
            os.write(w, b"x" * 4096)
    except BlockingIOError:
        pass
    fcntl.fcntl(w, fcntl.F_SETFL, 0)
    return r, w


def _blocked_in_a_write(pid: int) -> bool:
    try:
        chans = {Path(f"/proc/{pid}/task/{t}/wchan").read_text()
                 for t in os.listdir(f"/proc/{pid}/task")}
    except OSError:
        return False
    return any("pipe_write" in c for c in chans)


def _kiosk_args(config: Path, run_for: str) -> list[str]:
    return [sys.executable, "-m", "tablekeeper", "kiosk", "--config", str(config),
            "--keyboard", "--simulate-camera", "--window", "--run-for", run_for]


@pytest.mark.parametrize("driver", _drivers())
@pytest.mark.parametrize("when", ["before READY=1", "with the screen up",
                                  "stuck writing its log", "its log wedged in play"])
def test_sigterm_ends_the_kiosk_within_the_units_timeout_its_journal_intact(
        tmp_path: Path, notify: Notify, driver: str, when: str,
        record_property: Callable[[str, object], None]) -> None:
    record_property("faults", 1)
    config = tmp_path / "c.toml"
    state = tmp_path / "state"
    config.write_text(f'[table]\nstate_dir = "{state}"\n', encoding="utf-8")
    env = _env(driver, NOTIFY_SOCKET=str(notify.path))
    games = state / "games"
    stuck = when in ("stuck writing its log", "its log wedged in play")
    r, w = _full_pipe() if when == "stuck writing its log" else os.pipe() if stuck else (-1, -1)
    proc = subprocess.Popen(_kiosk_args(config, "300"), env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL,
                            stderr=w if stuck else subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 90
        if when == "before READY=1":
            # past its imports and holding the folder's lock; the journal, the camera and
            # the screen come next, READY=1 after them
            while not (games / ".tablekeeper.lock").exists() and time.monotonic() < deadline:
                time.sleep(0.005)
            assert not notify.ready(), "READY=1 came before the signal could be sent"
        elif when in ("with the screen up", "its log wedged in play"):
            while not notify.ready() and time.monotonic() < deadline:
                assert proc.poll() is None
                time.sleep(0.05)
            assert notify.ready()
            time.sleep(2)  # the loop runs
            if stuck:  # journald stops reading: the stream fills (the next line blocks)
                # (through a description of its own: O_NONBLOCK on the kiosk's would be shared)
                filler = os.open(f"/proc/self/fd/{w}", os.O_WRONLY | os.O_NONBLOCK)
                try:
                    while True:
                        os.write(filler, b"x" * 4096)
                except BlockingIOError:
                    pass
                finally:
                    os.close(filler)
        else:
            while not _blocked_in_a_write(proc.pid) and time.monotonic() < deadline:
                assert proc.poll() is None
                time.sleep(0.05)
            assert _blocked_in_a_write(proc.pid), "the kiosk never wrote to its log"
        assert proc.poll() is None
        sent = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(_timeout_stop_s())
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        if stuck:
            os.close(r)
            os.close(w)
    said = proc.stderr.read() if proc.stderr else ""
    print(f"SIGTERM {when}, SDL {driver}: exit {code} after {took:.2f} s")  # (with -s)
    assert code == 0, f"exit {code} after SIGTERM ({took:.1f} s):\n{said[-2000:]}"
    assert "Traceback" not in said, said
    if stuck:  # the clean stop could not write its lines: the guard ended it
        assert STOP_GRACE_S - 0.5 <= took < _timeout_stop_s(), took
    # the journal is intact: replay reads it, and the next start sets nothing aside
    journal = games / "current.jsonl"
    assert journal.exists() or when in ("before READY=1", "stuck writing its log")
    if journal.exists():
        done = subprocess.run([sys.executable, "-m", "tablekeeper", "replay", str(journal)],
                              env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
    again = subprocess.run(_kiosk_args(config, "0.2"), env=_env(driver), capture_output=True,
                           text=True, timeout=120)
    assert again.returncode == 0, again.stderr[-2000:]  # the lock went with the process
    assert not list(games.glob("damaged-*")), sorted(p.name for p in games.iterdir())
