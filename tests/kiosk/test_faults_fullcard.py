"""Fault suite, a truly full SD card: the games folder, ``/tmp`` and ``/var/tmp`` all full.

On Pi OS ``/tmp`` and ``/var/tmp`` are on the card. Each program runs in its own mount
namespace (``unshare -m``) where ``/tmp`` is a real, small tmpfs, ``/var/tmp`` the same one
(bound), filled to the last byte, ``TMPDIR`` pointing into it and the current folder in it:
no temporary folder anywhere can be written (``tempfile.gettempdir`` finds none). The kiosk
and the café publisher start, say they are paused and why, and go on by themselves once the
test frees space (from outside, through ``/proc/<pid>/root``).

Needs root (mount namespaces, mount); without it the tests skip and say why.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tablekeeper.journal import read

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "something_missing_3p_easy.jsonl"

#: fills the namespace's /tmp to the last byte (a kilobyte at a time, then a byte at a time)
FILL = """
dd if=/dev/zero of=/tmp/filler bs=1k 2>/dev/null || true
dd if=/dev/zero of=/tmp/filler.tail bs=1 2>/dev/null || true
"""


def _why_not() -> str | None:
    if os.geteuid() != 0:
        return "a mount namespace and a tmpfs need root (tests run unprivileged here)"
    if shutil.which("unshare") is None:
        return "no unshare(1) here"
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "true"],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return f"no mount namespace here: {done.stderr.strip()}"
    return None


needs_namespace = pytest.mark.skipif(_why_not() is not None, reason=str(_why_not()))


def _fontconfig(env: dict[str, str]) -> str:
    """The tests' empty fontconfig configuration (tests/conftest.py), copied into the
    namespace's /tmp, which hides the test's own."""
    return Path(env["FONTCONFIG_FILE"]).read_text(encoding="utf-8")


class FullCard:
    """A program started in a mount namespace whose /tmp and /var/tmp are one full tmpfs."""

    def __init__(self, setup: str, argv: list[str], env: dict[str, str]) -> None:
        script = "\n".join([
            "set -e",
            "mount -t tmpfs -o size=512k tmpfs /tmp",
            "mount --bind /tmp /var/tmp",
            "mkdir -p /tmp/fc",
            'printf "%s" "$FONTS_XML" > /tmp/fc/fonts.conf',
            setup,
            FILL,
            "test \"$(stat -f -c %a /tmp)\" = 0",  # not one block left
            "cd /tmp",
            'exec "$@"',
        ])
        env = {k: v for k, v in env.items() if k != "XDG_RUNTIME_DIR"}
        env.update(FONTS_XML=_fontconfig(env), FONTCONFIG_FILE="/tmp/fc/fonts.conf",
                   TMPDIR="/tmp", PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1",
                   SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        self.proc = subprocess.Popen(
            ["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", *argv],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.put(line)

    def wait_for(self, text: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                if self.proc.poll() is not None and self.lines.empty():
                    break
                continue
            self.seen.append(line)
            if text in line:
                return line
        raise AssertionError(f"{text!r} never said; the program said:\n{''.join(self.seen)}")

    def root(self) -> Path:
        """The namespace's /tmp, seen from outside."""
        return Path(f"/proc/{self.proc.pid}/root/tmp")

    def free_space(self) -> None:
        for name in ("filler", "filler.tail"):
            (self.root() / name).unlink()

    def finish(self, timeout: float = 60.0) -> tuple[int, str]:
        code = self.proc.wait(timeout)
        time.sleep(0.2)
        while not self.lines.empty():
            self.seen.append(self.lines.get())
        return code, "".join(self.seen)

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        self.proc.wait(10)


@contextlib.contextmanager
def full_card(setup: str, argv: list[str],
              extra: dict[str, str] | None = None) -> Iterator[FullCard]:
    card = FullCard(setup, argv, {**os.environ, **(extra or {})})
    try:
        yield card
    finally:
        if card.proc.poll() is None:
            card.kill()


def _until(predicate: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


@needs_namespace
def test_the_kiosk_starts_on_a_full_card_tmp_included_and_goes_on_when_space_is_back(
        record_property: Callable[[str, object], None]) -> None:
    record_property("faults", 1)
    setup = "\n".join([
        "mkdir -p /tmp/state",
        "printf '[table]\\nstate_dir = \"/tmp/state\"\\n' > /tmp/c.toml",
    ])
    argv = [sys.executable, "-m", "tablekeeper", "kiosk", "--config", "/tmp/c.toml",
            "--keyboard", "--simulate-camera", "--window", "--run-for", "12"]
    with full_card(setup, argv) as card:
        paused = card.wait_for("paused")
        assert "disk is full" in paused
        card.free_space()
        card.wait_for("can be written again")
        games = card.root() / "state" / "games"
        assert _until(lambda: (games / "current.jsonl").is_file(), 10)
        assert read(games / "current.jsonl").records == ()  # a new game, ready to play
        code, said = card.finish()
    assert code == 0, said
    assert "Traceback" not in said, said


@needs_namespace
def test_the_publisher_starts_on_a_full_card_tmp_included_and_records_when_space_is_back(
        tmp_path: Path, record_property: Callable[[str, object], None]) -> None:
    from tablekeeper.cafe.broker import BrokerUnavailable, LocalBroker

    record_property("faults", 1)
    try:
        broker = LocalBroker(tmp_path / "broker", ["t1"], port=4047)
        broker.start()
    except BrokerUnavailable as exc:
        pytest.skip(f"no mosquitto here: {exc}")
    try:
        settings = broker.settings_for("t1")
        # the namespace's /tmp hides the test's: the CA, the password and the game go in it
        ca = Path(settings.ca_file or "").read_text(encoding="utf-8")
        password = Path(settings.password_file or "").read_text(encoding="utf-8")
        toml = "\n".join([
            "[publisher]", 'table = "t1"', 'journals = "/tmp/games"',
            'state_file = "/tmp/publisher/state.json"', "poll_s = 0.1",
            "[broker]", f'host = "{settings.host}"', f"port = {settings.port}",
            'ca_file = "/tmp/ca.pem"', 'username = "t1"', 'password_file = "/tmp/t1.password"',
        ])
        setup = "\n".join([
            "mkdir -p /tmp/games",
            f"cp {DATA} /tmp/games/game-001.jsonl",
            'printf "%s" "$CA" > /tmp/ca.pem',
            'printf "%s" "$PASSWORD" > /tmp/t1.password',
            'printf "%s\\n" "$SETTINGS" > /tmp/publisher.toml',
        ])
        argv = [sys.executable, "-m", "tablekeeper", "cafe", "publish", "--settings",
                "/tmp/publisher.toml", "--run-for", "15"]
        with full_card(setup, argv, {"CA": ca, "PASSWORD": password,
                                     "SETTINGS": toml}) as card:
            card.wait_for("paused: the state file")
            card.free_space()
            card.wait_for("can be written again")
            state = card.root() / "publisher" / "state.json"
            assert _until(state.is_file, 10)
            assert '"result": true' in state.read_text(encoding="utf-8")
            code, said = card.finish()
    finally:
        broker.stop()
    assert code == 0, said
    assert "Traceback" not in said, said
