"""sd_notify over a real AF_UNIX datagram socket, as systemd would listen."""

from __future__ import annotations

import itertools
import os
import socket
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablekeeper.sdnotify import Notifier, notify_socket_address, watchdog_interval


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[str, socket.socket]]:
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    yield path, sock
    sock.close()


def _pending(sock: socket.socket) -> list[str]:
    out = []
    sock.setblocking(False)
    try:
        while True:
            out.append(sock.recv(4096).decode())
    except BlockingIOError:
        pass
    finally:
        sock.settimeout(2)
    return out


def test_unset_socket_is_a_noop() -> None:
    n = Notifier.from_environ({}, os.getpid())
    assert not n.enabled
    assert n.ready("up") is False
    assert n.ping() is False
    assert n.tick(0.0) is False
    assert n.stopping() is False
    assert n.watchdog is None


def test_messages_arrive(listener: tuple[str, socket.socket]) -> None:
    path, sock = listener
    n = Notifier.from_environ({"NOTIFY_SOCKET": path}, os.getpid(), prefer_libsystemd=False)
    assert n.ready("seats 4, camera ok")
    assert sock.recv(4096) == b"READY=1\nSTATUS=seats 4, camera ok"
    assert n.status("round 3\nscores 5/3")
    assert sock.recv(4096) == b"STATUS=round 3 scores 5/3"
    assert n.ping()
    assert sock.recv(4096) == b"WATCHDOG=1"
    assert n.stopping()
    assert sock.recv(4096) == b"STOPPING=1"
    n.close()


def test_abstract_namespace(tmp_path: Path) -> None:
    name = f"tablekeeper-test-{os.getpid()}-{tmp_path.name}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(b"\0" + name.encode())
    sock.settimeout(2)
    try:
        assert notify_socket_address("@" + name) == b"\0" + name.encode()
        n = Notifier.from_environ({"NOTIFY_SOCKET": "@" + name}, 1, prefer_libsystemd=False)
        assert n.ping()
        assert sock.recv(100) == b"WATCHDOG=1"
    finally:
        sock.close()


def test_watchdog_interval() -> None:
    assert watchdog_interval({}, 10) is None
    assert watchdog_interval({"WATCHDOG_USEC": "10000000"}, 10) == 10.0
    assert watchdog_interval({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "10"}, 10) == 10.0
    # meant for another process (the parent): not ours to answer
    assert watchdog_interval({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "11"}, 10) is None


@pytest.mark.parametrize("env", [
    {"WATCHDOG_USEC": "ten"},
    {"WATCHDOG_USEC": "0"},
    {"WATCHDOG_USEC": "-5"},
    {"WATCHDOG_USEC": "1000", "WATCHDOG_PID": "x"},
])
def test_malformed_watchdog_means_none(env: dict[str, str]) -> None:
    assert watchdog_interval(env, 1) is None


def test_tick_pings_at_half_the_timeout(listener: tuple[str, socket.socket]) -> None:
    path, sock = listener
    env = {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "4000000"}
    n = Notifier.from_environ(env, os.getpid(), prefer_libsystemd=False)
    assert n.watchdog == 4.0
    frames = [i / 60 for i in range(0, 60 * 9)]  # 9 s of a 60 fps render loop, fake clock
    sent = [t for t in frames if n.tick(t)]
    assert sent[0] == 0.0
    assert len(sent) == 5  # 0, 2, 4, 6, 8 s
    gaps = [b - a for a, b in itertools.pairwise(sent)]
    assert all(2.0 <= g < 2.0 + 1 / 30 for g in gaps)
    assert _pending(sock) == ["WATCHDOG=1"] * 5


def test_no_watchdog_no_ping(listener: tuple[str, socket.socket]) -> None:
    path, sock = listener
    n = Notifier.from_environ({"NOTIFY_SOCKET": path}, os.getpid(), prefer_libsystemd=False)
    assert not any(n.tick(t) for t in range(100))
    assert _pending(sock) == []


def test_vanished_socket_does_not_crash(tmp_path: Path) -> None:
    n = Notifier.from_environ({"NOTIFY_SOCKET": str(tmp_path / "gone")}, 1,
                              prefer_libsystemd=False)
    assert n.ping() is False


def test_unsupported_address_is_ignored_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    n = Notifier.from_environ({"NOTIFY_SOCKET": "vsock:2:1234"}, 1)
    assert not n.enabled
    assert "vsock:2:1234" in caplog.text
    with pytest.raises(ValueError, match="only a path"):
        notify_socket_address("relative/path")


def test_bad_field_is_rejected(listener: tuple[str, socket.socket]) -> None:
    path, sock = listener
    n = Notifier(address=path)
    for bad in ("READY", "=1", "STATUS=a\nWATCHDOG=1"):
        with pytest.raises(ValueError, match="KEY=value"):
            n.notify(bad)
    assert _pending(sock) == []


def test_uses_python3_systemd_when_importable(monkeypatch: pytest.MonkeyPatch,
                                              listener: tuple[str, socket.socket]) -> None:
    """With python3-systemd present, its ``systemd.daemon.notify`` does the sending."""
    path, sock = listener
    calls: list[str] = []
    daemon = types.ModuleType("systemd.daemon")

    def notify(status: str, unset_environment: bool = False) -> bool:
        calls.append(status)
        return True

    daemon.notify = notify  # type: ignore[attr-defined]
    package = types.ModuleType("systemd")
    package.daemon = daemon  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "systemd", package)
    monkeypatch.setitem(sys.modules, "systemd.daemon", daemon)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    n = Notifier.from_environ(os.environ, os.getpid())
    assert n.ready()
    assert calls == ["READY=1"]
    # an environment other than the process's own: python3-systemd would read the wrong one
    monkeypatch.delenv("NOTIFY_SOCKET")
    other = Notifier.from_environ({"NOTIFY_SOCKET": path}, os.getpid())
    assert other.ready()
    assert calls == ["READY=1"]
    assert sock.recv(100) == b"READY=1"
