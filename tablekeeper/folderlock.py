"""One writer per games folder: an OS lock (``flock``) on ``<folder>/.tablekeeper.lock``.

The kiosk takes it before it writes anything in its games folder (before it resumes, sets
aside or creates a journal). A second kiosk (started by hand while the service runs, or the
service started while a hand-started kiosk runs) finds it held, says who holds it -- the pid,
since when, the command line, which the holder wrote into the lock file -- and exits with the
configuration status (78: systemd does not restart it, ``RestartPreventExitStatus=``).

The lock is the kernel's: it goes with the process (a crash, a kill -9, a power cut), so a
stale lock file never blocks a start -- the file stays, the lock does not. Reading tools
(``tablekeeper replay``, a publisher reading journals) take no lock: a journal is append-only
and every line is complete before it is acknowledged.

The lock file is opened without following a link (``O_NOFOLLOW``) and without blocking
(``O_NONBLOCK``); what is in its place that is not a regular file (a FIFO, a directory, a
link ...) is moved aside (renamed, never deleted) and a new lock file made.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import stat
import sys
import time
from pathlib import Path

from ground.files import kind_of, printable, read_regular

LOCK_NAME = ".tablekeeper.lock"


class FolderLocked(RuntimeError):
    """The folder's lock is held by another process; the message says who."""

    def __init__(self, folder: Path, holder: str) -> None:
        super().__init__(f"{printable(folder)} is in use by another tablekeeper ({holder}); "
                         "stop that one first (systemctl stop tablekeeper-kiosk, or close "
                         "the kiosk started by hand) / 遊戲資料夾已被另一個 tablekeeper 使用")
        self.holder = holder


def holder_of(path: Path) -> str:
    """Who holds the lock, from what the holder wrote into the lock file."""
    try:
        info = json.loads(read_regular(path, 4096).decode("utf-8", "replace") or "{}")
    except (OSError, ValueError):
        info = {}
    if not isinstance(info, dict) or "pid" not in info:
        return "a process that has not said who it is yet"
    command = printable(str(info.get("command", "?")))[:200]
    return f"pid {info.get('pid')}, since {info.get('since', '?')}, command: {command}"


class FolderLock:
    """The lock on ``folder`` (held from :meth:`acquire` until :meth:`release` or the
    process's end). ``problem``: a line for the log when the lock file had to be moved aside."""

    def __init__(self, path: Path, fd: int | None, problem: str | None = None) -> None:
        self.path = path
        self._fd = fd
        self.problem = problem

    @property
    def held(self) -> bool:
        return self._fd is not None

    @classmethod
    def acquire(cls, folder: Path) -> FolderLock:
        """Take the lock (never waits): :class:`FolderLocked` if another process holds it.
        A folder where no lock file can be made (it cannot be written) gives an unheld lock:
        nothing can be written there either (the kiosk pauses its game until it can)."""
        path = folder / LOCK_NAME
        if "\0" in str(path):  # no file can be there (the config refuses such a name)
            return cls(path, None, f"no lock taken in {printable(folder)}: a NUL in its name")
        problem = None
        kind = kind_of(path)
        if kind is not None or (os.path.islink(path)):
            problem = _move_aside(path, kind or "a symbolic link")
        flags = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY
        try:
            fd = os.open(path, flags | os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.EISDIR, errno.ENXIO):  # replaced meanwhile
                raise FolderLocked(folder, f"the lock file {printable(path)} is not a file "
                                           f"({exc.strerror})") from exc
            try:  # a folder that cannot be written: an existing lock file can still be locked
                fd = os.open(path, flags | os.O_RDONLY)
            except OSError:
                return cls(path, None, f"no lock taken in {printable(folder)}: "
                                       f"{exc.strerror or exc}")
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise FolderLocked(folder, f"the lock file {printable(path)} is not a file")
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise FolderLocked(folder, holder_of(path)) from None
        except BaseException:
            os.close(fd)
            raise
        info = {"pid": os.getpid(), "since": time.strftime("%Y-%m-%d %H:%M:%S %z"),
                "command": " ".join(sys.argv)}
        with contextlib.suppress(OSError):  # read-only: the lock holds, who is not said
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(info, ensure_ascii=False).encode("utf-8", "replace"), 0)
        return cls(path, fd, problem)

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, 0)
            os.close(self._fd)  # closing the last descriptor releases the flock
            self._fd = None


def _move_aside(path: Path, kind: str) -> str:
    """Rename what is in the lock file's place (never delete it); the line for the log."""
    n = 1
    while os.path.lexists(target := path.with_name(f"{LOCK_NAME}.odd-{n}")):
        n += 1
    try:
        os.rename(path, target)
    except OSError as exc:
        return f"{printable(path)} is {kind} and cannot be moved aside: {exc.strerror}"
    return f"{printable(path)} was {kind}; moved aside as {target.name}"
