"""驢橋 on the real screen: the setup form starts it, host choices in play become events, the
snapshot shows the story's tiles and never a recalled one; a judgement made before the
guesser's button stops their clock first, so its undo does not run out the 15 s."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display.input import HostAction
from engine import eselsbruecke as eb
from firmware.box import Firmware
from tablekeeper.app import Loop
from tablekeeper.clock import FakeClock
from tablekeeper.games import load
from tablekeeper.journal import JournaledGame
from tablekeeper.referee import CardSeen, Referee
from tablekeeper.screen import CardInfo, PygameScreen


class Quiet:
    def hourglass_end(self) -> bool:
        return False


CARDS = {f"k{i:03d}": CardInfo(f"詞{i}", f"word{i}") for i in range(1, 181)}


@pytest.fixture
def loop(tmp_path: Path, firmware: Firmware, clock: FakeClock) -> Iterator[Loop]:
    game = JournaledGame.create(tmp_path / "game.jsonl", game=eb.GAME_NAME)
    referee = Referee(game, firmware, clock.now_ns(), kit=load("eselsbruecke"),
                      sounds=Quiet())
    screen = PygameScreen(size=(800, 480), png_dir=tmp_path, rng=random.Random(1),
                          cards=CARDS)
    yield Loop(referee, clock, screen=screen)
    screen.close()


def _screen(loop: Loop) -> PygameScreen:
    assert isinstance(loop.screen, PygameScreen)
    return loop.screen


def press(loop: Loop, clock: FakeClock, name: str, arg: int | str | None = None) -> None:
    clock.advance_ms(1_000)
    _screen(loop).host_action(loop, HostAction(name, arg), clock.now_ns())


def test_a_game_from_the_setup_form_to_the_first_recall(loop: Loop, clock: FakeClock) -> None:
    screen = _screen(loop)
    screen.render(loop, clock.now_ns())
    assert screen.renderer.screen == "setup"
    screen.host_action(loop, HostAction("setup.add"), clock.now_ns())
    screen.host_action(loop, HostAction("setup.variant", "advanced"), clock.now_ns())
    form = screen.setup
    assert form is not None and form.ready
    screen.host_action(loop, HostAction("confirm"), clock.now_ns())
    state: eb.State = loop.referee.state
    assert state.phase is eb.Phase.STORY and state.side is eb.Side.ADVANCED
    assert state.rounds == 7 and state.n_players == len(form.players)


def _to_recall(loop: Loop, clock: FakeClock) -> eb.State:
    referee = loop.referee
    referee.submit(eb.NewGame(at_ms=0, names=("A", "B", "C", "D"),
                              colours=("red", "yellow", "blue", "green"), side="standard",
                              start_seat=0))
    k = 1
    for rnd in range(3):
        for _turn in range(4 if rnd < 2 else 1):
            n = referee.state.to_draw
            for _ in range(n):
                clock.advance_ms(500)
                referee.card_seen(CardSeen(f"k{k:03d}", clock.now_ns()))
                k += 1
            snap = _screen(loop).snapshot(loop, clock.now_ns())
            assert snap.last_card is not None and snap.last_card.name_en == f"word{k - 1}"
            press(loop, clock, "story_told")
        if rnd < 2:
            press(loop, clock, "next_round")
    press(loop, clock, "dealt")
    state: eb.State = referee.state
    assert state.phase is eb.Phase.GUESS
    return state


def test_the_recall_screen_holds_no_recalled_tile(loop: Loop, clock: FakeClock) -> None:
    state = _to_recall(loop, clock)
    screen = _screen(loop)
    snap = screen.snapshot(loop, clock.now_ns())
    assert snap.last_card is None
    screen.render(loop, clock.now_ns())
    drawn = " ".join(t.text for t in screen.renderer.texts)
    for tile in state.recall_tiles:
        assert CARDS[tile].name_en not in drawn and CARDS[tile].name_zh not in drawn


def test_undoing_a_judgement_made_before_the_button_keeps_the_clock_stopped(
        loop: Loop, clock: FakeClock) -> None:
    state = _to_recall(loop, clock)
    guesser = state.to_act
    assert guesser is not None and not state.answered
    press(loop, clock, "wrong")
    assert loop.referee.state.seats[guesser].out
    clock.advance_ms(30_000)  # long after the guesser's 15 s
    loop.referee.undo()
    back: eb.State = loop.referee.state
    assert back.to_act == guesser and back.answered and back.deadline_ms is None
    loop.referee.tick(clock.now_ns())
    assert not loop.referee.state.seats[guesser].out  # no time-up
    holder = next(i for i, s in enumerate(back.seats) if s.held and i != guesser)
    press(loop, clock, "right", holder)
    assert loop.referee.state.seats[guesser].face_up == (eb.UNKNOWN,)
