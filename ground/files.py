"""The one reader of the box's own files (the ground layer: every package may import it).

Every path is just a path: reading a file the host (or an accident) may have replaced by
anything -- a FIFO, a socket, a device, a directory, a symbolic link to any of these, a
dangling link, an unreadable file -- without blocking, without reading without a bound, and
with one clear line saying what was found.

- :func:`kind_of` says what a path is, in words ("a FIFO (named pipe)", "a symbolic link to
  a character device (/dev/zero)", "a dangling symbolic link (to gone.jsonl)"), or None for
  a regular file (reached through links or not) or nothing at all;
- :func:`read_regular` reads a regular file of at most ``limit`` bytes: it opens with
  ``O_NONBLOCK`` (a FIFO never blocks the open), checks ``fstat`` on what it opened (no race
  between a check and the open) and refuses what is not a regular file (:class:`NotAFile`)
  or is longer than the limit (:class:`TooLarge`); both are ``OSError``\\ s, so a caller that
  already handles "cannot be read" handles these too;
- :func:`read_text` is the same, decoded as UTF-8 (``UnicodeDecodeError``, a ``ValueError``,
  for bytes that are not); :func:`read_head` the first bytes of a file that may be longer (a
  journal's header line);
- :func:`printable` shows a name with any character (control characters, bytes that are not
  UTF-8) on one line.

Every read of a file in product code goes through here (``tests/test_reads.py`` lists the
reads and fails on a new plain ``open().read()``, ``Path.read_text()`` ...). The limits below
are the bounds of each kind of file.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path
from typing import Any

__all__ = ["SETTINGS_BYTES", "NotAFile", "TooLarge", "kind_of", "printable", "read_head",
           "read_json", "read_regular", "read_text"]

#: a settings file, a manifest, a state file (a config.toml is a few kB; a deck's manifest of
#: 110 cards with their regions about 100 kB)
SETTINGS_BYTES = 4 * 1024 * 1024


class NotAFile(OSError):
    """A path that is not a regular file (``kind``: what it is, in words)."""

    def __init__(self, path: str | os.PathLike[str], kind: str) -> None:
        super().__init__(errno.EINVAL, f"{kind}, not a regular file", os.fspath(path))
        self.kind = kind


class TooLarge(OSError):
    """A file longer than a reader's bound."""

    def __init__(self, path: str | os.PathLike[str], limit: int) -> None:
        super().__init__(errno.EFBIG, f"longer than {limit} bytes, not read",
                         os.fspath(path))
        self.limit = limit


def _mode_kind(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    return "not a regular file"


def printable(name: str | os.PathLike[str]) -> str:
    """A path on one line: control characters and undecodable bytes as escapes."""
    text = os.fspath(name)
    out = []
    for ch in text:
        if ch.isprintable() or ch == " ":
            out.append(ch)
        elif 0xDC80 <= ord(ch) <= 0xDCFF:  # a byte that is not UTF-8 (surrogateescape)
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        else:
            out.append(ch.encode("unicode_escape").decode("ascii"))
    return "".join(out)


def kind_of(path: str | os.PathLike[str]) -> str | None:
    """What ``path`` is, in words, when it is not a regular file; None when it is one (also
    through symbolic links) or when nothing is there."""
    try:
        lst = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"not reachable ({exc.strerror or exc})"
    except ValueError:  # an embedded NUL
        return "a name no file can have (a NUL character)"
    if not stat.S_ISLNK(lst.st_mode):
        return _mode_kind(lst.st_mode)
    try:
        target = os.readlink(path)
    except OSError:
        target = "?"
    shown = printable(target)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return f"a dangling symbolic link (to {shown})"
    except OSError as exc:
        return f"a symbolic link that cannot be followed (to {shown}: {exc.strerror or exc})"
    kind = _mode_kind(st.st_mode)
    return None if kind is None else f"a symbolic link to {kind} ({shown})"


def read_text(path: str | os.PathLike[str], limit: int = SETTINGS_BYTES) -> str:
    """:func:`read_regular`, decoded as UTF-8 (``UnicodeDecodeError`` when it is not)."""
    return read_regular(path, limit).decode("utf-8")


def read_json(path: str | os.PathLike[str], limit: int = SETTINGS_BYTES) -> Any:
    """The JSON value in the regular file at ``path`` (:func:`read_text`). Raises ``OSError``
    (:func:`read_regular`'s) or ``ValueError`` for anything wrong with the content: bytes that
    are not UTF-8, not JSON, nested too deep for the parser (a ``RecursionError`` inside)."""
    text = read_text(path, limit)
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply to read") from None


def read_head(path: str | os.PathLike[str], limit: int) -> bytes:
    """The first ``limit`` bytes of the regular file at ``path`` (fewer if it is shorter),
    with :func:`read_regular`'s checks; a longer file is not an error."""
    return read_regular(path, limit, whole=False)


def read_regular(path: str | os.PathLike[str], limit: int, *, whole: bool = True) -> bytes:
    """The bytes of the regular file at ``path`` (at most ``limit``): never blocks on a FIFO
    or a device, never reads more than ``limit + 1`` bytes. Raises ``FileNotFoundError``
    (nothing there, or a dangling link), :class:`NotAFile`, :class:`TooLarge` or the
    ``OSError`` of the open (an unreadable file: ``PermissionError``)."""
    p = Path(path)
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a socket (or a FIFO's other end): not a file
            raise NotAFile(p, kind_of(p) or "a socket") from exc
        raise
    except ValueError as exc:  # an embedded NUL
        raise NotAFile(p, "a name no file can have (a NUL character)") from exc
    try:
        st = os.fstat(fd)
        kind = _mode_kind(st.st_mode)
        if kind is not None:
            raise NotAFile(p, kind_of(p) or kind)
        if whole and st.st_size > limit:
            raise TooLarge(p, limit)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        data = b"".join(chunks)
        if size > limit:  # it grew while it was read (or only its head is wanted)
            if whole:
                raise TooLarge(p, limit)
            data = data[:limit]
        return data
    finally:
        os.close(fd)
