"""Whole-file writes that survive a power cut: the old file or the new one, never half of either.

The kiosk's power switch is the wall socket, so every file the box rewrites (the config, an
enrolled deck) goes through :func:`write_atomic`:

1. write the new content to a temporary file *in the same directory* (``os.replace`` is atomic
   only within one file system),
2. flush and ``fsync`` it, so its blocks are on the card before its name is,
3. ``os.replace`` it over the target (one atomic rename on POSIX),
4. ``fsync`` the directory, so the rename itself is durable.

A failure at any point before step 3 leaves the old file untouched and removes the temporary
file; a power cut before step 3 leaves at most a stray ``.NAME.*.tmp`` beside it, which
:func:`write_atomic` never reads and the next successful write does not depend on.

Append-only files (the game journal) need no rename: each line is written, flushed and fsynced,
and a torn last line is dropped on replay.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

__all__ = ["fsync_directory", "write_atomic"]


def fsync_directory(directory: str | os.PathLike[str]) -> None:
    """Make the directory's entries (a rename, a new file) durable."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: str | os.PathLike[str], data: bytes | str, *,
                 mode: int | None = None, encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``data`` atomically and durably.

    ``str`` data is encoded with ``encoding``. The new file gets ``mode`` if given, else the
    mode of the file it replaces, else ``0o666`` less the process umask (like ``open``). Run as
    root it keeps the owner of the file it replaces, and a new file gets its folder's owner
    when that is not root's (``vision.deck.kiosk_owner``: a config written with sudo into the
    service's folder stays the service's). Missing parent directories are an error
    (``FileNotFoundError``), not created silently: a wrong path should be noticed, not grow a
    new tree. A symbolic link is followed: its target is replaced (atomically, in the target's
    folder) and the link stays a link.
    """
    target = Path(path)
    if target.is_symlink():  # a config kept elsewhere and linked here: write the real file
        target = Path(os.path.realpath(target))
    if isinstance(data, str):
        payload = data.encode(encoding)
    elif isinstance(data, bytes | bytearray | memoryview):
        payload = bytes(data)
    else:
        raise TypeError(f"write_atomic: data must be bytes or str, not {type(data).__name__}")
    if target.is_dir():
        raise IsADirectoryError(f"write_atomic: {target} is a directory")
    directory = target.parent
    owner: tuple[int, int] | None = None
    try:
        old = target.stat()
        if mode is None:
            mode = old.st_mode & 0o7777
        if os.geteuid() == 0:
            owner = (old.st_uid, old.st_gid)  # (root rewriting the service's file keeps it)
    except FileNotFoundError:
        from vision.deck import kiosk_owner

        owner = kiosk_owner(directory)  # under sudo: the folder's owner, as the kiosk needs
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), mode)
            if owner is not None:
                os.fchown(fh.fileno(), *owner)
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp_name, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise
    fsync_directory(directory)
