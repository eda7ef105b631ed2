"""One writer per games folder: an OS lock (``flock``) on the games folder itself.

The kiosk takes it before it writes anything in its games folder (before it resumes, sets
aside or creates a journal). A second kiosk (started by hand while the service runs, or the
service started while a hand-started kiosk runs) finds it held, says who holds it -- the pid
(from the kernel's own table of locks, ``/proc/locks``), since when and the command line (which
the holder writes into ``.tablekeeper.lock`` beside its journals) -- and exits with the
configuration status (78: systemd does not restart it, ``RestartPreventExitStatus=``).

The lock is on the folder's own directory, opened once: removing ``.tablekeeper.lock`` or
putting a directory in its place changes nothing (that file only says who holds the lock; it is
written again). A games folder renamed away and made anew under its name is noticed by
:meth:`FolderLock.ensure` (the folder at the path is no longer the one locked), which the kiosk
calls every second and before a paused game goes on: it locks the new folder, or says who
holds it. A kiosk that could take no lock at start (its games folder could not be made on a
full card) takes it there too, before it writes anything.

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
import fcntl
import functools
import json
import logging
import os
import stat
import sys
import time
from pathlib import Path

from ground.files import kind_of, printable, read_regular

LOCK_NAME = ".tablekeeper.lock"

log = logging.getLogger("tablekeeper.kiosk")


class FolderLocked(RuntimeError):
    """The folder's lock is held by another process; the message says who."""

    def __init__(self, folder: Path, holder: str) -> None:
        super().__init__(f"{printable(folder)} is in use by another tablekeeper ({holder}); "
                         "stop that one first (systemctl stop tablekeeper-kiosk, or close "
                         "the kiosk started by hand) / 遊戲資料夾已被另一個 tablekeeper 使用")
        self.holder = holder


def holder_of(path: Path, pid: int | None = None) -> str:
    """Who holds the lock: ``pid`` (from the kernel) with what the holder wrote into the lock
    file at ``path`` (when that file names the same process)."""
    try:
        info = json.loads(read_regular(path, 4096).decode("utf-8", "replace") or "{}")
    except (OSError, ValueError):
        info = {}
    if not isinstance(info, dict):
        info = {}
    if pid is not None and info.get("pid") != pid:
        info = {"pid": pid, "command": _command_of(pid)}
    if "pid" not in info:
        return "a process that has not said who it is yet"
    command = printable(str(info.get("command", "?")))[:200]
    since = f", since {info['since']}" if "since" in info else ""
    return f"pid {info.get('pid')}{since}, command: {command}"


def _command_of(pid: int) -> str:
    try:
        raw = read_regular(f"/proc/{pid}/cmdline", 8192)
    except OSError:
        return "?"
    return raw.rstrip(b"\0").replace(b"\0", b" ").decode("utf-8", "replace") or "?"


def lock_holder(st: os.stat_result) -> int | None:
    """The pid holding a ``flock`` on the file or folder ``st`` describes, from the kernel's
    table (``/proc/locks``: ``1: FLOCK  ADVISORY  WRITE 1234 08:02:5678 0 EOF``)."""
    try:
        table = read_regular("/proc/locks", 1 << 22).decode("ascii", "replace")
    except OSError:
        return None
    want = (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
    for line in table.splitlines():
        fields = line.split()
        if len(fields) < 6 or "->" in fields or fields[1] != "FLOCK":
            continue
        try:
            major, minor, ino = fields[5].split(":")
            if (int(major, 16), int(minor, 16), int(ino)) == want:
                return int(fields[4])
        except ValueError:
            continue
    return None


class FolderLock:
    """The lock on ``folder`` (held from :meth:`acquire` until :meth:`release` or the
    process's end). ``problem``: a line for the log when the lock file had to be moved aside
    or no lock could be taken."""

    def __init__(self, folder: Path, fd: int | None, problem: str | None = None) -> None:
        self.folder = folder
        self.path = folder / LOCK_NAME
        self._fd = fd
        self.problem = problem

    @property
    def held(self) -> bool:
        return self._fd is not None

    @classmethod
    def acquire(cls, folder: Path) -> FolderLock:
        """Take the lock (never waits): :class:`FolderLocked` if another process holds it.
        A folder that does not exist (it could not be made) gives an unheld lock: nothing can
        be written there either (the kiosk pauses its game and calls :meth:`ensure`)."""
        if "\0" in str(folder):  # no folder can be there (the config refuses such a name)
            return cls(folder, None, f"no lock taken in {printable(folder)}: a NUL in its name")
        try:
            fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC | os.O_NONBLOCK)
        except OSError as exc:
            return cls(folder, None, f"no lock taken in {printable(folder)}: "
                                     f"{exc.strerror or exc}")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = lock_holder(os.fstat(fd))
            os.close(fd)
            raise FolderLocked(folder, holder_of(folder / LOCK_NAME, pid)) from None
        except BaseException:
            os.close(fd)
            raise
        lock = cls(folder, fd)
        lock.problem = lock._say_who()
        return lock

    def _say_who(self) -> str | None:
        """Write who holds the lock into the lock file (moving aside what is in its place that
        is not a file); the line for the log when something had to be moved."""
        path = self.path
        problem = None
        kind = kind_of(path)
        if kind is not None or os.path.islink(path):
            problem = _move_aside(path, kind or "a symbolic link")
        info = {"pid": os.getpid(), "since": self.since,
                "command": " ".join(sys.argv)}
        flags = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY | os.O_WRONLY
        with contextlib.suppress(OSError):  # read-only, full: the lock holds, who is not said
            fd = os.open(path, flags | os.O_CREAT, 0o644)
            try:
                if stat.S_ISREG(os.fstat(fd).st_mode):
                    os.ftruncate(fd, 0)
                    os.pwrite(fd, json.dumps(info, ensure_ascii=False).encode("utf-8",
                                                                              "replace"), 0)
            finally:
                os.close(fd)
        return problem

    @functools.cached_property
    def since(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M:%S %z")

    def ensure(self) -> str | None:
        """Still hold the lock on the folder at this path (take it if it was never taken,
        or if the folder was replaced; write the lock file again if it was removed or
        replaced). None when held; else why not (another process holds the folder, or it
        cannot be opened)."""
        if self._fd is not None:
            try:
                now, held = os.stat(self.folder), os.fstat(self._fd)
                same = (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)
            except OSError:  # the folder is gone
                same = False
            if same:
                if not _names(self.path, os.getpid()):
                    self._say_who()
                return None
            log.warning("the games folder %s is not the one locked any more (renamed or "
                        "replaced): locking it again", printable(self.folder))
            self.release()
        try:
            fresh = FolderLock.acquire(self.folder)
        except FolderLocked as exc:
            return str(exc)
        if not fresh.held:
            return fresh.problem
        self._fd, fresh._fd = fresh._fd, None
        if fresh.problem:
            log.warning("%s", fresh.problem)
        log.info("the games folder %s is locked", printable(self.folder))
        return None

    def release(self) -> None:
        if self._fd is not None:
            if _names(self.path, os.getpid()):
                with contextlib.suppress(OSError):
                    os.truncate(self.path, 0)
            os.close(self._fd)  # closing the last descriptor releases the flock
            self._fd = None


def _names(path: Path, pid: int) -> bool:
    """Does the lock file at ``path`` name process ``pid``?"""
    try:
        info = json.loads(read_regular(path, 4096).decode("utf-8", "replace") or "{}")
    except (OSError, ValueError):
        return False
    return isinstance(info, dict) and info.get("pid") == pid


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
