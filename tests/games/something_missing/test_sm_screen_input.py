"""Host input on the screen: touch/keys name a choice; three GPIO buttons move and take a
highlight; back undoes. Rendered headless with SDL's dummy driver."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display.input import HostAction
from engine.something_missing import Phase
from firmware.devices import GpioButtons, HostButton
from tablekeeper.app import Loop
from tablekeeper.clock import FakeClock
from tablekeeper.games.something_missing.demo import build_demo
from tablekeeper.games.something_missing.table import table_of
from tablekeeper.screen import PygameScreen


@pytest.fixture
def loop(tmp_path: Path) -> Iterator[Loop]:
    screen = PygameScreen(size=(800, 480), png_dir=tmp_path, rng=random.Random(1))
    parts = build_demo(tmp_path, seed=4, players=4, variant="standard", clock=FakeClock(),
                       camera=False, screen=screen)
    # the simulated players stop once the host has something to decide
    parts.loop.run_simulated(until=lambda lp: lp.referee.state.phase is Phase.BET)
    parts.loop.table = None
    yield parts.loop
    parts.firmware.close()
    screen.close()


def _screen(loop: Loop) -> PygameScreen:
    assert isinstance(loop.screen, PygameScreen)
    return loop.screen


def test_touch_bet_goes_to_the_player_whose_decision_it_is(loop: Loop) -> None:
    state = loop.referee.state
    seat = state.to_act
    _screen(loop).host_action(loop, HostAction("bet", 1), loop.clock.now_ns())
    bet = loop.referee.state.bet_of(seat) if seat is not None else None
    assert bet is not None and bet.position == 1


def test_three_buttons_next_moves_confirm_takes_back_undoes(loop: Loop) -> None:
    screen = _screen(loop)
    screen.render(loop, loop.clock.now_ns())
    assert screen.renderer.screen == "buzz"  # the winner's colour fills the screen a while:
    assert not screen._choices()  # nothing to choose on it
    assert isinstance(loop.clock, FakeClock)
    loop.clock.advance_ms(3_000)
    screen.render(loop, loop.clock.now_ns())
    assert screen.renderer.screen == "betting"
    before = loop.referee.state
    seat = before.to_act
    assert seat is not None
    # the highlight starts on scene A; next moves it to B; confirm bets there
    screen.gpio_button(loop, HostButton.NEXT, loop.clock.now_ns())
    screen.gpio_button(loop, HostButton.CONFIRM, loop.clock.now_ns())
    bet = loop.referee.state.bet_of(seat)
    assert bet is not None and bet.position == 1
    screen.gpio_button(loop, HostButton.BACK, loop.clock.now_ns())
    assert loop.referee.state == before


def test_an_impossible_choice_is_shown_not_raised(loop: Loop) -> None:
    screen = _screen(loop)
    state = loop.referee.state
    if state.buzz is not None and state.to_act == state.buzz.seat:
        # the hourglass taker must bet: "pass" is refused with a reason on screen
        screen.host_action(loop, HostAction("pass"), loop.clock.now_ns())
        assert screen.notice is not None and screen.notice.key == "reject.must_bet"
        assert loop.referee.state == state
    snap = screen.snapshot(loop, loop.clock.now_ns())
    assert snap.state is state


def test_language_switch(loop: Loop) -> None:
    screen = _screen(loop)
    lang = screen.lang
    screen.host_action(loop, HostAction("lang"), loop.clock.now_ns())
    assert screen.lang != lang
    assert screen.snapshot(loop, loop.clock.now_ns()).lang == screen.lang


def test_a_seat_button_on_the_setup_screen_picks_the_start_player(tmp_path: Path) -> None:
    screen = PygameScreen(size=(800, 480), rng=random.Random(2))
    parts = build_demo(tmp_path, seed=5, players=3, variant="easy", clock=FakeClock(),
                       camera=False, screen=screen)
    loop = parts.loop
    loop.table = None  # the host sets up by hand
    buttons = parts.firmware.buttons
    assert isinstance(buttons, GpioButtons)
    pins = [buttons.pin_factory.pin(p) for p in parts.firmware.config.pins.seats]
    pins[2].press(loop.clock.now_ns())  # seat 3's player is the youngest
    loop.step()
    assert screen.setup is not None and screen.setup.start == 2
    screen.host_action(loop, HostAction("confirm"), loop.clock.now_ns())
    state = loop.referee.state
    assert state.phase is Phase.VIEWING and state.start_seat == 2
    parts.firmware.close()
    screen.close()


@pytest.fixture
def at_reveal(tmp_path: Path) -> Iterator[tuple[PygameScreen, Loop]]:
    """A demo game waiting for its first card, whose simulated players lay none."""
    screen = PygameScreen(size=(800, 480), png_dir=tmp_path, rng=random.Random(1))
    parts = build_demo(tmp_path, seed=4, players=4, variant="standard", clock=FakeClock(),
                       camera=False, screen=screen)
    loop = parts.loop
    try:
        # the simulated table sets up and says "ready"; the viewing then runs on its own
        loop.run_simulated(until=lambda lp: lp.referee.state.deadline_ms is not None)
        loop.table = None
        loop.run_simulated(until=lambda lp: lp.referee.state.phase is Phase.REVEAL)
        yield screen, loop
    finally:
        parts.firmware.close()
        screen.close()


def test_the_next_card_after_one_turned_by_hand_is_taken_when_the_host_says(
        at_reveal: tuple[PygameScreen, Loop]) -> None:
    # A card turned over by hand; nobody buzzes and the next player turns over a card that
    # the camera names. It may be the card turned by hand, recognised late: the screen asks.
    from tablekeeper.referee import CardSeen

    screen, loop = at_reveal
    clock = loop.clock
    assert isinstance(clock, FakeClock)
    screen.host_action(loop, HostAction("by_hand"), clock.now_ns())
    by_hand = loop.referee.state
    clock.advance_ms(4_000)
    frame_ns = clock.now_ns()
    clock.advance_ms(100)
    loop.referee.card_seen(CardSeen("i12", frame_ns))
    assert loop.referee.state == by_hand  # held
    screen.render(loop, clock.now_ns())
    assert screen.renderer.screen == "reveal"
    screen.host_action(loop, HostAction("held_new"), clock.now_ns())  # key N
    state = loop.referee.state
    assert state.phase is Phase.BUZZ and table_of(loop.referee).held is None
    assert state.pile == (*by_hand.pile, table_of(loop.referee).card_ids["i12"])
    # armed at the frame the card was seen in: presses since then count
    assert loop.referee.firmware.arbiter.armed_ns == frame_ns
    shot = screen.snapshot(loop, clock.now_ns())
    assert shot.held_card is None and shot.last_card is not None
    assert shot.last_card.card_id == "i12"


def test_a_card_the_camera_missed_is_turned_over_by_hand(
        at_reveal: tuple[PygameScreen, Loop]) -> None:
    # The camera does not recognise the card just turned over (or is not working): the host
    # says it is up. It plays unnamed; the buzzers are armed from then.
    from tablekeeper.referee import CardSeen

    screen, loop = at_reveal
    screen.render(loop, loop.clock.now_ns())
    assert screen.renderer.screen == "reveal"
    assert [c.name for c in screen._choices()] == ["by_hand", "menu"]  # the only choice here
    before = loop.referee.state
    seat = before.to_act
    assert seat is not None
    now = loop.clock.now_ns()
    screen.gpio_button(loop, HostButton.CONFIRM, now)  # the highlight's on it: take it
    state = loop.referee.state
    assert state.phase is Phase.BUZZ and state.pile == (*before.pile, None)
    assert state.revealer == seat and loop.referee.firmware.arbiter.armed_ns == now
    shot = screen.snapshot(loop, now)
    assert shot.last_card is not None and shot.last_card.is_unnamed
    # A card the camera names while that card is buzzed for may be it, recognised late,
    # or the next card (nobody buzzed): it is not taken until the host says which.
    assert isinstance(loop.clock, FakeClock)
    loop.clock.advance_ms(500)
    loop.referee.card_seen(CardSeen("i07", loop.clock.now_ns()))
    assert loop.referee.state == state
    assert loop.referee.last_rejection is not None
    assert loop.referee.last_rejection.code == "held_for_host"
    screen.render(loop, loop.clock.now_ns())
    assert [c.name for c in screen._choices()] == ["held_new", "held_same", "menu"]
    shot = screen.snapshot(loop, loop.clock.now_ns())
    assert shot.held_card is not None and shot.held_card.card_id == "i07"
    screen.gpio_button(loop, HostButton.NEXT, loop.clock.now_ns())
    screen.gpio_button(loop, HostButton.CONFIRM, loop.clock.now_ns())  # the same card
    assert table_of(loop.referee).held is None and loop.referee.state == state
    screen.render(loop, loop.clock.now_ns())
    assert [c.name for c in screen._choices()] == ["next", "menu"]  # (nobody buzzed)
    # The host undoes it (back): the turn is as it was.
    screen.gpio_button(loop, HostButton.BACK, loop.clock.now_ns())
    assert loop.referee.state == before
    # Once the card is out of the way (nobody buzzed), the camera names cards again.
    screen.host_action(loop, HostAction("by_hand"), loop.clock.now_ns())
    screen.host_action(loop, HostAction("next"), loop.clock.now_ns())  # nobody buzzed
    assert loop.referee.state.phase is Phase.REVEAL
    loop.referee.card_seen(CardSeen("i07", loop.clock.now_ns()))
    named = loop.referee.state
    assert named.phase is Phase.BUZZ and named.top_card == table_of(loop.referee).card_ids["i07"]
    assert named.pile[-2:] == (None, named.top_card)


def test_demo_text_names_scenes_by_letter_and_items_by_name() -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "tablekeeper", "demo", "--text", "--lines", "40"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    assert "scenes A " in out and "bets on 場景 " in out
    assert "reveals item #" not in out and "bets on scene " not in out
    from vision.demo_decks import ITEMS

    assert any(f"reveals {zh} {en}" in out for zh, en in ITEMS)


def test_the_held_cards_question_pauses_the_game(at_reveal: tuple[PygameScreen, Loop]) -> None:
    """Issue 41: while the screen asks which card it is, the game's clocks wait (the
    question is the game's: its screen part's ``asking``); the answer resumes them."""
    from tablekeeper.journal import read
    from tablekeeper.referee import CardSeen

    screen, loop = at_reveal
    clock = loop.clock
    assert isinstance(clock, FakeClock)
    screen.host_action(loop, HostAction("by_hand"), clock.now_ns())
    clock.advance_ms(4_000)
    loop.referee.card_seen(CardSeen("i12", clock.now_ns()))
    assert table_of(loop.referee).held is not None
    loop.step()
    assert loop.referee.paused and loop.referee.paused_why == "question"
    clock.advance_ms(30_000)
    loop.step()
    screen.host_action(loop, HostAction("held_new"), clock.now_ns())
    loop.step()
    assert not loop.referee.paused
    notes = [r.note for r in read(loop.referee.game.journal.path).notes() if r.note]
    resume = [n for n in notes if n.kind == "resume"][-1]
    assert resume.fields["why"] == "question" and resume.fields["paused_ms"] >= 30_000
