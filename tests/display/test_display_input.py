"""Keyboard, mouse and touch into neutral input events."""

from __future__ import annotations

import display_testing  # noqa: F401  (headless SDL first)
import pygame

from display.input import Button, HostAction, SeatInput, TextInput, hit_test, translate

BUTTONS = (
    Button((0, 0, 100, 50), HostAction("found"), "found", True, pygame.K_f),
    Button((100, 0, 100, 50), HostAction("pass"), "pass", False, pygame.K_p),
    Button((0, 0, 50, 50), HostAction("bet", 2), "C", True, pygame.K_c),
)


def key(k: int, down: bool = True, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN if down else pygame.KEYUP, key=k, mod=mod)


def test_number_keys_are_seats_down_and_up() -> None:
    assert translate(key(pygame.K_1)) == SeatInput(0, True)
    assert translate(key(pygame.K_8, down=False)) == SeatInput(7, False)
    assert translate(key(pygame.K_KP3)) == SeatInput(2, True)
    assert translate(key(pygame.K_9)) is None


def test_host_keys() -> None:
    assert translate(key(pygame.K_RETURN)) == HostAction("confirm")
    assert translate(key(pygame.K_ESCAPE)) == HostAction("back")
    assert translate(key(pygame.K_RIGHT)) == HostAction("next")
    assert translate(key(pygame.K_u)) == HostAction("undo")
    assert translate(key(pygame.K_z, mod=pygame.KMOD_LCTRL)) == HostAction("undo")
    assert translate(key(pygame.K_z)) is None
    assert translate(key(pygame.K_l)) == HostAction("lang")
    assert translate(key(pygame.K_RETURN, down=False)) is None


def test_button_shortcuts_only_when_enabled() -> None:
    assert translate(key(pygame.K_f), BUTTONS) == HostAction("found")
    assert translate(key(pygame.K_c), BUTTONS) == HostAction("bet", 2)
    assert translate(key(pygame.K_p), BUTTONS) is None
    assert translate(key(pygame.K_f)) is None


def test_clicks_and_touches_hit_the_topmost_enabled_button() -> None:
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(10, 10), touch=False)
    assert translate(click, BUTTONS) == HostAction("bet", 2)
    assert translate(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(60, 10),
                                        touch=False), BUTTONS) == HostAction("found")
    assert translate(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(150, 10),
                                        touch=False), BUTTONS) is None  # disabled
    assert translate(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=3, pos=(60, 10),
                                        touch=False), BUTTONS) is None  # right button
    # A touch arrives as a finger event (fractions) plus a synthetic mouse event: count once.
    finger = pygame.event.Event(pygame.FINGERDOWN, x=0.3, y=0.2, touch_id=1, finger_id=0)
    assert translate(finger, BUTTONS, size=(200, 100)) == HostAction("found")
    synthetic = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(60, 10), touch=True)
    assert translate(synthetic, BUTTONS) is None
    assert hit_test(BUTTONS, (500, 500)) is None


def test_typing_a_name_takes_the_keys() -> None:
    text = pygame.event.Event(pygame.TEXTINPUT, text="阿")
    assert translate(text, text_focus=True) == TextInput("阿")
    assert translate(text) is None
    assert translate(key(pygame.K_1), text_focus=True) is None  # digits come as TEXTINPUT
    assert translate(key(pygame.K_BACKSPACE), text_focus=True) == HostAction("erase")
    assert translate(key(pygame.K_ESCAPE), text_focus=True) == HostAction("setup.focus", None)
    # the host buttons' stand-ins walk the on-screen keyboard (Enter presses the highlight,
    # which starts on "done")
    assert translate(key(pygame.K_RETURN), text_focus=True) == HostAction("confirm")
    assert translate(key(pygame.K_TAB), text_focus=True) == HostAction("next")
    assert translate(key(pygame.K_z, mod=pygame.KMOD_CTRL), text_focus=True) == HostAction(
        "undo")


def test_other_events_mean_nothing() -> None:
    assert translate(pygame.event.Event(pygame.MOUSEMOTION, pos=(1, 1), rel=(0, 0),
                                        buttons=(0, 0, 0))) is None
