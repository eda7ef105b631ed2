"""The three host buttons in the name field: they are buttons there too (issue 41, item 3).

The keyboard stand-in (``--keyboard``: Space *next*, Enter *confirm*, Backspace *back*) is fed
real SDL key and text events through the real ``PygameScreen.handle_events``; the GPIO host
buttons are gpiozero ``MockFactory`` pins pressed as a finger does. Both must move the
highlight over the on-screen keyboard, never type a space or blank the name.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from display.input import HostAction
from firmware.box import Firmware, build
from firmware.config import FirmwareConfig
from firmware.mock import mock_factory
from tablekeeper.app import Loop
from tablekeeper.clock import FakeClock
from tablekeeper.journal import JournaledGame
from tablekeeper.referee import Referee
from tablekeeper.screen import PygameScreen

MS = 1_000_000


def _loop(tmp_path: Path, backend: str) -> tuple[Loop, PygameScreen, Firmware, object]:
    clock = FakeClock()
    factory = mock_factory()
    config = FirmwareConfig.from_dict({"backend": backend, "sound": {"kind": "none"}})
    firmware = build(config, factory, rng=random.Random(5), clock=clock.now_ns)
    referee = Referee(JournaledGame.create(tmp_path / "game.jsonl"), firmware, clock.now_ns(),
                      game_id="test")
    screen = PygameScreen(size=(800, 480), rng=random.Random(1))
    return Loop(referee, clock, screen=screen), screen, firmware, factory


@pytest.fixture
def keyboard(tmp_path: Path) -> Iterator[tuple[Loop, PygameScreen]]:
    loop, screen, firmware, _ = _loop(tmp_path, "keyboard")
    yield loop, screen
    screen.close()
    firmware.close()


def _naming(loop: Loop, screen: PygameScreen, name: str) -> None:
    now = loop.clock.now_ns()
    screen.host_action(loop, HostAction("setup.focus", 0), now)
    screen.host_action(loop, HostAction("setup.keyboard"), now)  # (Latin, if 注音 was first)
    for ch in name:
        screen.host_action(loop, HostAction("setup.key", ch), now)
    screen.render(loop, now)
    assert screen.renderer.text_focus


def _key(key: int, text: str | None = None) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=text or "",
                                         scancode=0))
    if text is not None:  # SDL sends the typed text after the key
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="",
                                         scancode=0))


def _step(loop: Loop) -> None:
    """Two ticks: the keys are read in the first, the host press they make in the next."""
    clock = loop.clock
    assert isinstance(clock, FakeClock)
    for _ in range(2):
        clock.advance(40 * MS)
        loop.step()


def _focused(screen: PygameScreen) -> HostAction | None:
    button = screen.renderer.focused
    return button.action if button is not None else None


def test_space_is_next_in_the_name_field(keyboard: tuple[Loop, PygameScreen]) -> None:
    loop, screen = keyboard
    _naming(loop, screen, "ANN")
    pygame.event.clear()
    before = _focused(screen)
    _key(pygame.K_SPACE, " ")
    _step(loop)
    assert screen.setup is not None
    assert screen.setup.players[0].name == "ANN"  # no space typed, nothing blanked
    assert _focused(screen) != before  # the highlight moved on
    # Enter presses the highlighted key; Backspace is *back*: one erase, the name stays
    _key(pygame.K_BACKSPACE)
    _step(loop)
    assert screen.setup.players[0].name == "AN"
    # letters still type
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="a"))
    _step(loop)
    assert screen.setup.players[0].name == "ANa"


def test_enter_in_the_name_field_presses_the_highlighted_key(
        keyboard: tuple[Loop, PygameScreen]) -> None:
    loop, screen = keyboard
    _naming(loop, screen, "BO")
    pygame.event.clear()
    # the highlight starts on "done": Enter finishes the name
    screen.focus = next(i for i, c in enumerate(screen._choices()) if c.name == "setup.done")
    screen.renderer.invalidate()
    _step(loop)
    _key(pygame.K_RETURN, None)
    _step(loop)
    assert screen.setup is not None
    assert screen.setup.focus is None and screen.setup.players[0].name == "BO"


def test_gpio_next_in_the_name_field_moves_the_highlight(tmp_path: Path) -> None:
    loop, screen, firmware, factory = _loop(tmp_path, "gpio")
    try:
        _naming(loop, screen, "ANN")
        before = _focused(screen)
        config = FirmwareConfig.from_dict({"backend": "gpio", "sound": {"kind": "none"}})
        pin = factory.pin(config.pins.next)  # type: ignore[attr-defined]
        pin.press(loop.clock.now_ns())
        _step(loop)
        pin.release(loop.clock.now_ns())
        _step(loop)
        assert screen.setup is not None and screen.setup.players[0].name == "ANN"
        assert _focused(screen) != before
        # a real keyboard on a GPIO box still types its space: it is not a host button there
        pygame.event.clear()
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=" "))
        _step(loop)
        assert screen.setup.players[0].name == "ANN "
    finally:
        screen.close()
        firmware.close()
