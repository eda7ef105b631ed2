"""write_atomic: the old file or the new one, never half of either."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tablekeeper import atomic
from tablekeeper.atomic import write_atomic


def _leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_writes_new_file_bytes_and_str(tmp_path: Path) -> None:
    write_atomic(tmp_path / "a.bin", b"\x00\x01\xff")
    write_atomic(tmp_path / "b.toml", "players = [\"阿明\"]\n")
    assert (tmp_path / "a.bin").read_bytes() == b"\x00\x01\xff"
    assert (tmp_path / "b.toml").read_text(encoding="utf-8") == "players = [\"阿明\"]\n"
    assert _leftovers(tmp_path) == []


def test_replaces_existing_file_and_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "config.toml"
    target.write_text("old\n")
    target.chmod(0o640)
    write_atomic(target, "new\n")
    assert target.read_text() == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_explicit_mode(tmp_path: Path) -> None:
    target = tmp_path / "secret"
    write_atomic(target, b"x", mode=0o600)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_new_file_follows_umask(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        write_atomic(tmp_path / "f", b"x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "f").stat().st_mode) == 0o600


def test_crash_mid_write_leaves_old_file_intact(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "deck.json"
    target.write_text('{"cards": 66}')
    real_fsync = os.fsync

    def dying_fsync(fd: int) -> None:
        # the temp file has been written (not yet renamed) when the "power" goes
        raise OSError(5, "simulated I/O error mid-write")

    monkeypatch.setattr(os, "fsync", dying_fsync)
    with pytest.raises(OSError, match="simulated"):
        write_atomic(target, '{"cards": 0, "half": ')
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert target.read_text() == '{"cards": 66}'
    assert _leftovers(tmp_path) == []


def test_crash_at_rename_leaves_old_file_intact(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "deck.json"
    target.write_text("old")

    def no_replace(src: str, dst: str) -> None:
        raise KeyboardInterrupt  # even a BaseException cleans up

    monkeypatch.setattr(os, "replace", no_replace)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, "new")
    assert target.read_text() == "old"
    assert _leftovers(tmp_path) == []


def test_killed_process_leaves_old_or_new_never_partial(tmp_path: Path) -> None:
    """A real SIGKILL in the middle of writing: the target still holds the complete old data."""
    target = tmp_path / "big.bin"
    old = b"A" * 1000
    target.write_bytes(old)
    script = (
        "import os, signal\n"
        "from tablekeeper import atomic\n"
        "def fsync(fd):  # the new data is written, not yet durable nor renamed\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "atomic.os.fsync = fsync\n"
        f"atomic.write_atomic({str(target)!r}, b'B' * 5_000_000)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True)
    assert proc.returncode == -9, proc.stderr
    assert target.read_bytes() == old
    # the killed writer may leave its temp file behind; it is never mistaken for the target
    leftovers = _leftovers(tmp_path)
    assert all(name.startswith(".big.bin.") for name in leftovers)
    write_atomic(target, b"C")
    assert target.read_bytes() == b"C"


def test_bad_input_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="bytes or str"):
        write_atomic(tmp_path / "x", 42)  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError):
        write_atomic(tmp_path / "no" / "such" / "dir" / "x", b"")
    (tmp_path / "d").mkdir()
    with pytest.raises(IsADirectoryError, match="is a directory"):
        write_atomic(tmp_path / "d", b"")
    assert not (tmp_path / "x").exists()


def test_directory_is_fsynced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[str] = []
    real = atomic.fsync_directory

    def spy(directory: str | os.PathLike[str]) -> None:
        synced.append(os.fspath(directory))
        real(directory)

    monkeypatch.setattr(atomic, "fsync_directory", spy)
    write_atomic(tmp_path / "f", b"x")
    assert synced == [os.fspath(tmp_path)]
