"""Quiet, clear commands (issue 20, item 4): no library chatter before the program's own
output, ``buzzer test`` without a terminal says so, the windowed demo quits on Ctrl+Q, and
``vision recognize --deck`` takes a demo deck's name as ``selftest`` does."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from firmware.config import FirmwareConfig
from tablekeeper import cli
from tablekeeper.app import Loop
from tablekeeper.clock import FakeClock
from tablekeeper.games.something_missing.demo import build_demo
from tablekeeper.screen import PygameScreen

ROOT = Path(__file__).resolve().parents[2]


def test_the_cli_hides_the_pygame_banner() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    env["PYTHONPATH"] = str(ROOT)
    code = ("import sys\nfrom tablekeeper import cli\n"
            "sys.argv = ['tablekeeper', 'nothing']\ncli.quiet_environment()\nimport pygame\n"
            "print('own output')")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=60, check=True)
    assert done.stdout == "own output\n"
    assert "pygame-ce" not in done.stderr


def test_main_quiets_the_environment_before_any_command(monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[str] = []
    monkeypatch.setattr(cli, "quiet_environment", lambda: called.append("quiet"))
    def parser() -> Any:
        called.append("parser")
        raise _Stop

    monkeypatch.setattr(cli, "build_parser", parser)
    with pytest.raises(_Stop):
        cli.main(["replay"])
    assert called == ["quiet", "parser"]


class _Stop(Exception):
    pass


def test_quiet_environment_sets_what_is_unset_and_keeps_what_is_set(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch
                                                                     ) -> None:
    import tempfile

    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path))
    env: dict[str, str] = {"OPENCV_LOG_LEVEL": "DEBUG"}
    cli.quiet_environment(env)
    assert env["PYGAME_HIDE_SUPPORT_PROMPT"] == "1" and env["OPENCV_LOG_LEVEL"] == "DEBUG"
    runtime = Path(env["XDG_RUNTIME_DIR"])
    assert runtime.parent == tmp_path and runtime.stat().st_mode & 0o777 == 0o700
    kept = {"XDG_RUNTIME_DIR": "/run/user/1000"}
    cli.quiet_environment(kept)
    assert kept["XDG_RUNTIME_DIR"] == "/run/user/1000" and kept["OPENCV_LOG_LEVEL"] == "ERROR"
    runtime.chmod(0o755)  # not private: not used
    assert cli.private_runtime_dir(str(tmp_path)) is None


def test_opencv_is_quieted_on_4_and_5() -> None:
    from vision.camera import quiet_opencv

    four: list[int] = []
    five: list[int] = []
    cv4 = SimpleNamespace(setLogLevel=four.append)
    cv5 = SimpleNamespace(utils=SimpleNamespace(logging=SimpleNamespace(setLogLevel=five.append)))
    assert quiet_opencv("ERROR", cv4) and four == [2]
    assert quiet_opencv("ERROR", cv5) and five == [2]
    assert not quiet_opencv("ERROR", object())
    assert quiet_opencv()  # the cv2 installed here


def test_buzzer_test_without_a_terminal_says_so(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from firmware import cli as firmware_cli

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    monkeypatch.setattr(firmware_cli, "_load_config",
                        lambda path: FirmwareConfig(backend="keyboard"))
    code = cli.main(["buzzer", "test", "--seconds", "0.1"])
    err = capsys.readouterr().err
    assert code == 1
    assert "standard input is not" in err and "terminal" in err
    assert "Traceback" not in err and "termios" not in err


@pytest.fixture
def demo_loop(tmp_path: Path) -> Iterator[tuple[Loop, PygameScreen]]:
    screen = PygameScreen(size=(800, 480), png_dir=tmp_path, rng=random.Random(1),
                          quit_key=True)
    parts = build_demo(tmp_path, seed=4, players=4, variant="standard", clock=FakeClock(),
                       camera=False, screen=screen)
    yield parts.loop, screen
    parts.firmware.close()
    screen.close()


def test_the_windowed_demo_quits_on_ctrl_q(demo_loop: tuple[Loop, PygameScreen]) -> None:
    loop, screen = demo_loop
    pygame.event.clear()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=0,
                                         unicode="q", scancode=0))
    screen.handle_events(loop)
    assert not loop.stopped  # a plain Q is not a way out
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q,
                                         mod=pygame.KMOD_LCTRL, unicode="\x11", scancode=0))
    screen.handle_events(loop)
    assert loop.stopped and screen.quit_requested
    screen.quit_key = False  # the kiosk: no quit key
    loop.stopped = screen.quit_requested = False
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q,
                                         mod=pygame.KMOD_LCTRL, unicode="\x11", scancode=0))
    screen.handle_events(loop)
    assert not loop.stopped


def test_the_demo_names_its_quit_key(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["demo", "--help"])
    assert "Ctrl+Q" in capsys.readouterr().out
    assert "Ctrl+Q" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_recognize_takes_a_demo_decks_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    import cv2
    import numpy as np

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)  # (no folder named "wink" here)
    image = tmp_path / "empty.png"
    ok, buf = cv2.imencode(".png", np.full((480, 640, 3), 60, np.uint8))
    assert ok
    image.write_bytes(buf.tobytes())
    code = cli.main(["vision", "recognize", "--deck", "wink", str(image)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.strip() == '{"image": "' + str(image) + '", "cards": []}'
