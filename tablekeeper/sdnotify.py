"""Tell systemd how the kiosk is doing: ``READY=1``, ``WATCHDOG=1``, ``STATUS=...``, ``STOPPING=1``.

The kiosk unit is ``Type=notify`` with ``WatchdogSec=``: systemd waits for ``READY=1`` before it
calls the service started, and restarts it when ``WATCHDOG=1`` stops arriving. The watchdog is
pinged **from the render loop itself** (:meth:`Notifier.tick` once per frame), never from a
side thread, so a hung loop, a deadlocked camera read or a stuck GPIO call is noticed: a thread
that only proves the interpreter is alive would keep a frozen screen running forever.

Outside systemd (``$NOTIFY_SOCKET`` unset: a laptop, the tests, ``./tk demo``) every call is a
no-op that returns ``False``.

The protocol (``sd_notify(3)``): one datagram of ``KEY=value`` lines to the ``AF_UNIX`` socket
named by ``$NOTIFY_SOCKET``; a leading ``@`` names a socket in the abstract namespace. When
python3-systemd (``systemd.daemon``) is importable it does the sending; otherwise a small
socket implementation here does, with the same result.

Library code takes the environment as a parameter: build the notifier once, in the CLI, with
``Notifier.from_environ(os.environ, os.getpid())``.
"""

from __future__ import annotations

import importlib
import logging
import os
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

__all__ = ["Notifier", "notify_socket_address", "watchdog_interval"]

log = logging.getLogger(__name__)


def notify_socket_address(value: str | None) -> str | bytes | None:
    """The address to ``sendto`` for a ``$NOTIFY_SOCKET`` value, or None if there is none.

    ``/run/systemd/notify`` is a path; ``@name`` is ``b"\\0name"`` (Linux abstract namespace).
    Raises ``ValueError`` for an address this implementation cannot use (e.g. ``vsock:``,
    which systemd >= 254 offers to virtual machines), naming the value.
    """
    if not value:
        return None
    if value.startswith("@"):
        return b"\0" + value[1:].encode()
    if value.startswith("/"):
        return value
    raise ValueError(f"NOTIFY_SOCKET={value!r}: only a path or an @abstract AF_UNIX "
                     "address is supported")


def watchdog_interval(environ: Mapping[str, str], pid: int) -> float | None:
    """The watchdog timeout in seconds that systemd expects of process ``pid``, or None.

    ``$WATCHDOG_USEC`` is the timeout (``WatchdogSec=``); ``$WATCHDOG_PID``, when set, names
    the one process it is meant for (a child that inherited the environment must not answer
    for its parent). Malformed values mean "no watchdog", as in ``sd_watchdog_enabled(3)``.
    """
    raw = environ.get("WATCHDOG_USEC")
    if not raw:
        return None
    try:
        usec = int(raw)
    except ValueError:
        log.warning("WATCHDOG_USEC=%r is not a number; watchdog disabled", raw)
        return None
    if usec <= 0:
        return None
    owner = environ.get("WATCHDOG_PID")
    if owner:
        try:
            if int(owner) != pid:
                return None
        except ValueError:
            log.warning("WATCHDOG_PID=%r is not a number; watchdog disabled", owner)
            return None
    return usec / 1_000_000


def _libsystemd_notify() -> Callable[[str], bool] | None:
    """``systemd.daemon.notify`` from python3-systemd, if it is installed."""
    try:
        daemon = importlib.import_module("systemd.daemon")
    except ImportError:
        return None
    func = getattr(daemon, "notify", None)
    if not callable(func):
        return None

    def send(state: str) -> bool:
        return bool(func(state))

    return send


@dataclass
class Notifier:
    """Sends sd_notify messages; every method is a harmless no-op without a socket.

    ``address``: the parsed ``$NOTIFY_SOCKET`` (see :func:`notify_socket_address`), or None.
    ``watchdog``: the watchdog timeout in seconds, or None when systemd watches nothing.
    ``send``: how a message is delivered; by default the built-in socket sender.
    """

    address: str | bytes | None = None
    watchdog: float | None = None
    send: Callable[[str], bool] | None = None
    _sock: socket.socket | None = field(default=None, init=False, repr=False)
    _last_ping: float | None = field(default=None, init=False, repr=False)

    @classmethod
    def from_environ(cls, environ: Mapping[str, str], pid: int, *,
                     prefer_libsystemd: bool = True) -> Notifier:
        """The notifier for this process, as systemd started it (or a no-op one).

        python3-systemd reads ``os.environ`` itself, so it is only used when ``environ`` holds
        the same ``NOTIFY_SOCKET`` as the process environment (pass ``os.environ``).
        """
        try:
            address = notify_socket_address(environ.get("NOTIFY_SOCKET"))
        except ValueError as exc:
            log.warning("%s; not notifying systemd", exc)
            address = None
        interval = watchdog_interval(environ, pid) if address is not None else None
        sender = None
        if (address is not None and prefer_libsystemd
                and os.environ.get("NOTIFY_SOCKET") == environ.get("NOTIFY_SOCKET")):
            sender = _libsystemd_notify()
        return cls(address=address, watchdog=interval, send=sender)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def notify(self, *fields: str) -> bool:
        """Send ``KEY=value`` fields in one datagram; True if it was delivered."""
        if self.address is None:
            return False
        for f in fields:
            key, sep, _ = f.partition("=")
            if not sep or not key or "\n" in f:
                raise ValueError(f"sd_notify field {f!r} must be one KEY=value line")
        state = "\n".join(fields)
        if self.send is not None:
            return self.send(state)
        return self._send_socket(state)

    def _send_socket(self, state: str) -> bool:
        assert self.address is not None
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX,
                                           socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto(state.encode(), self.address)
        except OSError as exc:
            # systemd restarting, a socket gone: never crash the kiosk over a notification
            log.warning("sd_notify %r failed: %s", state.split("\n", 1)[0], exc)
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """The kiosk is up (screen open, hardware found): systemd calls the unit started."""
        fields = ["READY=1"]
        if status is not None:
            fields.append("STATUS=" + _one_line(status))
        return self.notify(*fields)

    def status(self, text: str) -> bool:
        """A one-line status for ``systemctl status`` (newlines become spaces)."""
        return self.notify("STATUS=" + _one_line(text))

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")

    def ping(self) -> bool:
        """``WATCHDOG=1`` now."""
        return self.notify("WATCHDOG=1")

    def tick(self, now: float) -> bool:
        """Call once per frame of the render loop with a monotonic ``now`` (seconds).

        Pings the watchdog when half its timeout has passed since the last ping (the spacing
        ``sd_watchdog_enabled(3)`` recommends), so a 60 fps loop costs one datagram per few
        seconds. Returns True when it sent a ping.
        """
        if self.watchdog is None or self.address is None:
            return False
        if self._last_ping is not None and now - self._last_ping < self.watchdog / 2:
            return False
        self._last_ping = now
        return self.ping()

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


def _one_line(text: str) -> str:
    return " ".join(text.split("\n")).replace("\r", " ")
