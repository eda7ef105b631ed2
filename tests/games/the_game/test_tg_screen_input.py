"""The Game through the real screen (headless): the host's by-hand entry, a refused play
shown at once with its sound and kept as a house rule, the turn ended, "I cannot play"
confirmed with the three host buttons."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tg_testing import start, tg_referee

from display.input import HostAction
from engine import the_game as tg
from engine.core import Rejection
from firmware.box import Firmware
from firmware.devices import HostButton
from tablekeeper.app import Loop
from tablekeeper.clock import FakeClock
from tablekeeper.games.the_game.screen import TheGameScreen
from tablekeeper.referee import CardSeen
from tablekeeper.screen import PygameScreen


@pytest.fixture
def loop(tmp_path: Path, firmware: Firmware, clock: FakeClock) -> Iterator[Loop]:
    referee = tg_referee(tmp_path, firmware, clock)
    start(referee)
    screen = PygameScreen(size=(800, 480), png_dir=tmp_path, rng=random.Random(1))
    yield Loop(referee, clock, screen=screen)
    screen.close()


def _act(loop: Loop, name: str, arg: int | None = None) -> None:
    screen = loop.screen
    assert isinstance(screen, PygameScreen)
    screen.host_action(loop, HostAction(name, arg), loop.clock.now_ns())


def _texts(loop: Loop) -> list[str]:
    screen = loop.screen
    assert isinstance(screen, PygameScreen)
    screen.renderer.invalidate()
    screen.render(loop, loop.clock.now_ns())
    return [t.text for t in screen.renderer.texts]


def _state(loop: Loop) -> tg.State:
    state: tg.State = loop.referee.state
    return state


def test_the_host_enters_a_play_by_hand(loop: Loop) -> None:
    _act(loop, "tg.enter")
    assert "手動輸入一張牌" in _texts(loop)
    for name, arg in (("tg.entry.row", 3), ("tg.entry.digit", 9), ("tg.entry.digit", 5),
                      ("tg.entry.del", None), ("tg.entry.digit", 0), ("tg.entry.ok", None)):
        _act(loop, name, arg)
    assert _state(loop).rows[3].top == 90
    assert "手動輸入一張牌" not in _texts(loop)


def test_a_refused_entry_is_shown_at_once_with_a_sound_and_kept_as_a_house_rule(
        loop: Loop) -> None:
    screen = loop.screen
    assert isinstance(screen, PygameScreen)
    part = screen.part(loop)
    assert isinstance(part, TheGameScreen)
    loop.referee.table.enter_play(3, 90, loop.clock.now_ns())  # type: ignore[attr-defined]
    for name, arg in (("tg.enter", None), ("tg.entry.row", 3), ("tg.entry.digit", 9),
                      ("tg.entry.digit", 5), ("tg.entry.ok", None)):
        _act(loop, name, arg)
    texts = _texts(loop)
    assert "95 不能放在 ↓90" in texts and "照打（家規）" in texts
    assert part.sounds.played == ["refused"]
    _act(loop, "tg.house_rule")
    state = _state(loop)
    assert state.rows[3].top == 95 and state.plays[-1].house_rule
    assert "95 不能放在 ↓90" not in _texts(loop)


def test_the_host_ends_the_turn_and_confirms_cannot_play_with_the_host_buttons(
        loop: Loop) -> None:
    screen = loop.screen
    assert isinstance(screen, PygameScreen)
    table = loop.referee.table
    _act(loop, "tg.end_turn")  # below the minimum: refused, said on the banner
    assert _state(loop).turn == 1 and screen.notice is not None
    table.enter_play(0, 10, loop.clock.now_ns())  # type: ignore[attr-defined]
    table.enter_play(0, 20, loop.clock.now_ns())  # type: ignore[attr-defined]
    _act(loop, "tg.end_turn")
    assert _state(loop).turn == 2 and _state(loop).to_act == 1
    _act(loop, "tg.cannot")
    assert any("說：無法出牌" in t for t in _texts(loop))
    screen.gpio_button(loop, HostButton.CONFIRM, loop.clock.now_ns())  # the default: cancel
    assert _state(loop).phase is not tg.Phase.OVER  # one press of confirm never ends it
    _act(loop, "tg.cannot")
    screen.render(loop, loop.clock.now_ns())
    screen.gpio_button(loop, HostButton.NEXT, loop.clock.now_ns())  # to "yes, end the game"
    screen.gpio_button(loop, HostButton.CONFIRM, loop.clock.now_ns())
    state = _state(loop)
    assert state.phase is tg.Phase.OVER and state.outcome is not None
    assert state.outcome.reason is tg.EndReason.CANNOT_PLAY
    assert "遊戲結束" in _texts(loop)


def test_a_laptop_seat_key_is_a_seat_button_its_short_press_ends_the_turn(loop: Loop) -> None:
    """Keys 1-8 are the seat buttons on a laptop: they reach the table's ``seat_edge`` (not
    only the arbiter), so the acting player's short press ends the turn there too."""
    import pygame

    table = loop.referee.table
    table.enter_play(0, 10, loop.clock.now_ns())  # type: ignore[attr-defined]
    table.enter_play(0, 20, loop.clock.now_ns())  # type: ignore[attr-defined]
    acting = _state(loop).to_act
    assert acting == 0
    key = pygame.K_1 + acting  # the acting seat's key (seat 1 = "1")
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0))
    loop.step()
    clock = loop.clock
    assert isinstance(clock, FakeClock)
    clock.advance_ms(150)
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0))
    loop.step()
    assert _state(loop).turn == 2 and _state(loop).to_act == 1


def _banner(loop: Loop) -> str:
    screen = loop.screen
    assert isinstance(screen, PygameScreen)
    screen.renderer.invalidate()
    screen.render(loop, loop.clock.now_ns())
    return " ".join(t.text for t in screen.renderer.banner_texts)


def test_a_card_on_no_row_says_why_in_both_languages(loop: Loop) -> None:
    """Issue 41: the table refuses a card in no row's zone (the rows not calibrated); the
    banner says why and what to do, not only "not allowed"."""
    screen = loop.screen
    assert isinstance(screen, PygameScreen)
    now = loop.clock.now_ns()
    result = loop.referee.card_seen(CardSeen("n42", now, zone="floor"))
    assert isinstance(result, Rejection) and result.code == "no_row"
    screen.show_result(result, now)
    banner = _banner(loop)
    assert "這張牌不在任何一列上：請把牌放在列上，或按鈕手動輸入" in banner
    assert "這一步不行" not in banner
    screen.lang = "en"
    assert "That card lies on no row: put it on a row, or enter it by hand" in _banner(loop)


def test_a_code_with_no_words_still_says_not_allowed(loop: Loop) -> None:
    screen = loop.screen
    assert isinstance(screen, PygameScreen)
    screen.show_result(Rejection("clock_went_back", "event at 1 ms is before the last one"),
                       loop.clock.now_ns())
    assert _banner(loop) == "這一步不行，沒有記錄"
