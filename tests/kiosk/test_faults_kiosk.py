"""Fault suite, the whole kiosk: damaged journals and a full disk through the real start-up
path (``tablekeeper kiosk``). No crash, no crash loop (a second start is clean), the reason on
the screen, the damaged file kept."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from system_needs import skip_for_root

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tablekeeper import screen as screen_module
from tablekeeper.cli import main
from tablekeeper.journal import read

DAMAGE: dict[str, bytes] = {
    "5000-digit integer": b'{"seq":2,"event":{"type":"no_buzz","v":1,"at_ms":' + b"9" * 5000
                          + b"}}\n",
    "100000 nested [": b'{"seq":2,"event":' + b"[" * 100_000 + b"]" * 100_000 + b"}\n",
    "not UTF-8": b'{"seq":2,"event":{"type":"no_bu\xff\xfe"}}\n',
    "a changed value": b"CHANGED",
    "binary junk": bytes(range(256)) + b"\n",
}


@pytest.fixture
def screens(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every PygameScreen the kiosk opens (to read its problem banner afterwards)."""
    made: list[Any] = []
    real = screen_module.PygameScreen.__init__

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        real(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(screen_module.PygameScreen, "__init__", init)
    return made


def _run(config: Path) -> int:
    return main(["kiosk", "--config", str(config), "--keyboard", "--simulate-camera",
                 "--window", "--run-for", "0.3"])


def _config(tmp_path: Path, state: Path) -> Path:
    config = tmp_path / "c.toml"
    config.write_text(f'[table]\nstate_dir = "{state}"\n', encoding="utf-8")
    return config


@pytest.mark.parametrize("name", sorted(DAMAGE))
def test_a_damaged_journal_is_set_aside_shown_and_the_next_start_is_clean(
        tmp_path: Path, screens: list[Any], name: str) -> None:
    state = tmp_path / "state"
    config = _config(tmp_path, state)
    assert _run(config) == 0
    journal = state / "games" / "current.jsonl"
    data = journal.read_bytes()
    if DAMAGE[name] == b"CHANGED":
        data = data.replace(b'"check_ms":30000', b'"check_ms":30001')  # the header's rules
        assert b'"check_ms":30001' in data
    else:
        data += DAMAGE[name]
    journal.write_bytes(data)
    assert _run(config) == 0
    problems = screens[-1].problems
    assert any("damaged-" in p and "current.jsonl:" in p for p in problems), problems
    aside = sorted((state / "games").glob("damaged-*.jsonl"))
    assert len(aside) == 1 and aside[0].read_bytes() == data
    assert read(journal).records == ()
    assert _run(config) == 0  # no crash loop: the fresh game resumes, nothing set aside again
    assert not screens[-1].problems
    assert len(list((state / "games").glob("damaged-*.jsonl"))) == 1


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    if os.geteuid() != 0:
        skip_for_root("mounting a tmpfs, a disk that really fills up")
    mnt = tmp_path / "disk"
    mnt.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mnt)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        (mnt / "games").mkdir()
        fd = os.open(mnt / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            while True:
                os.write(fd, b"\0" * 512)
        except OSError:
            pass
        finally:
            os.close(fd)
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def test_the_pause_is_on_the_screen(tmp_path: Path, screens: list[Any],
                                    full_disk: Path) -> None:
    config = _config(tmp_path, full_disk)
    assert _run(config) == 0
    problems = screens[-1].problems
    assert any("暫停" in p and "disk is full" in p for p in problems), problems
    (full_disk / "filler").unlink()
    assert _run(config) == 0
    assert not screens[-1].problems
    assert read(full_disk / "games" / "current.jsonl").records == ()


def test_a_missing_enrolled_deck_is_said_and_the_demo_deck_watches(
        tmp_path: Path, screens: list[Any]) -> None:
    state = tmp_path / "state"
    config = tmp_path / "c.toml"
    config.write_text(f'[table]\nstate_dir = "{state}"\n[table.decks]\n'
                      f'something-missing = "{tmp_path / "no-such-deck"}"\n', encoding="utf-8")
    assert _run(config) == 0
    problems = screens[-1].problems
    assert any("no-such-deck" in p and "demo deck" in p for p in problems), problems
    assert screens[-1].cards  # the demo deck's cards, for the screen to show
