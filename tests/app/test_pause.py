"""Pausing (issue 41): every game clock waits while the host menu, a question or a
confirmation is open, and after a restart until the host goes on. The pause and the resume
are journalled (notes), the engine never hears of them, and replay gives the same times."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display.hostmenu import MenuView
from display.input import HostAction
from engine import eselsbruecke as eb
from firmware.box import Firmware
from firmware.config import FirmwareConfig
from tablekeeper.app import Loop
from tablekeeper.clock import FakeClock
from tablekeeper.games import load
from tablekeeper.journal import JournaledGame, read, replay
from tablekeeper.referee import CardSeen, Referee
from tablekeeper.screen import CardInfo, PygameScreen

PINS = FirmwareConfig.from_dict({"backend": "gpio", "sound": {"kind": "none"}}).pins
CARDS = {f"k{i:03d}": CardInfo(f"詞{i}", f"word{i}") for i in range(1, 181)}


class Quiet:
    def hourglass_end(self) -> bool:
        return False


def _loop(path: Path, firmware: Firmware, clock: FakeClock, *, new: bool = True) -> Loop:
    game = (JournaledGame.create(path, game=eb.GAME_NAME) if new
            else JournaledGame.open(path))
    referee = Referee(game, firmware, clock.now_ns(), kit=load("eselsbruecke"),
                      sounds=Quiet())
    screen = PygameScreen(size=(800, 480), rng=random.Random(1), cards=CARDS)
    return Loop(referee, clock, screen=screen)


@pytest.fixture
def loop(tmp_path: Path, firmware: Firmware, clock: FakeClock) -> Iterator[Loop]:
    lp = _loop(tmp_path / "game.jsonl", firmware, clock)
    yield lp
    assert isinstance(lp.screen, PygameScreen)
    lp.screen.close()


def _screen(loop: Loop) -> PygameScreen:
    assert isinstance(loop.screen, PygameScreen)
    return loop.screen


def _press(loop: Loop, clock: FakeClock, name: str, arg: int | str | None = None) -> None:
    clock.advance_ms(1_000)
    _screen(loop).host_action(loop, HostAction(name, arg), clock.now_ns())
    loop.step()


def _to_recall(loop: Loop, clock: FakeClock) -> eb.State:
    referee = loop.referee
    referee.submit(eb.NewGame(at_ms=0, names=("A", "B", "C", "D"),
                              colours=("red", "yellow", "blue", "green"), side="standard",
                              start_seat=0))
    k = 1
    for rnd in range(3):
        for _turn in range(4 if rnd < 2 else 1):
            for _ in range(referee.state.to_draw):
                clock.advance_ms(500)
                referee.card_seen(CardSeen(f"k{k:03d}", clock.now_ns()))
                k += 1
            _press(loop, clock, "story_told")
        if rnd < 2:
            _press(loop, clock, "next_round")
    _press(loop, clock, "dealt")
    state: eb.State = referee.state
    assert state.phase is eb.Phase.GUESS and state.deadline_ms is not None
    return state


def _run(loop: Loop, clock: FakeClock, ms: int, step_ms: int = 250) -> None:
    for _ in range(ms // step_ms):
        clock.advance_ms(step_ms)
        loop.step()


def _left_ms(loop: Loop, clock: FakeClock) -> int:
    state: eb.State = loop.referee.state
    assert state.deadline_ms is not None
    return state.deadline_ms - loop.referee.game_ms(clock.now_ns())


def test_the_answer_clock_waits_while_the_host_menu_is_open(loop: Loop, clock: FakeClock,
                                                             tmp_path: Path,
                                                             factory: Any) -> None:
    state = _to_recall(loop, clock)
    guesser = state.to_act
    assert guesser is not None
    _run(loop, clock, 5_000)  # 5 of the 15 s pass
    left = _left_ms(loop, clock)
    assert 9_000 <= left <= 10_000
    screen = _screen(loop)
    # the host holds *back*: the menu opens, the clock stops
    back = factory.pin(PINS.back)
    back.press(clock.now_ns())
    _run(loop, clock, 1_000)
    assert screen.menu_open and loop.referee.paused
    snap = screen.snapshot(loop, clock.now_ns())
    assert isinstance(snap.menu, MenuView) and snap.menu.note == "menu.paused"
    shown = snap.now_ms
    _run(loop, clock, 120_000)  # the host reads the rules for two minutes
    assert not loop.referee.state.seats[guesser].out
    assert screen.snapshot(loop, clock.now_ns()).now_ms == shown  # the ring stands still
    back.release(clock.now_ns())
    screen.host_action(loop, HostAction("confirm"), clock.now_ns())  # back to the game
    loop.step()
    assert not screen.menu_open and not loop.referee.paused
    assert abs(_left_ms(loop, clock) - left) <= 1_500  # the seconds it had left
    _run(loop, clock, 16_000)
    assert loop.referee.state.seats[guesser].out  # and then it runs out as it should
    live = loop.referee.state
    contents = read(tmp_path / "game.jsonl")
    assert replay(contents) == live  # the same state, the same times
    kinds = [(r.note.kind, r.note.fields.get("why")) for r in contents.notes()
             if r.note is not None and r.note.kind in ("pause", "resume")]
    # (paused from the press of *back*: the menu it opened took the pause over)
    assert kinds == [("pause", "back"), ("resume", "menu")]
    resume = next(r.note for r in contents.notes()
                  if r.note is not None and r.note.kind == "resume")
    assert 120_000 <= resume.fields["paused_ms"] <= 125_000


def test_a_confirmation_in_the_menu_keeps_the_clock_paused(loop: Loop,
                                                           clock: FakeClock) -> None:
    state = _to_recall(loop, clock)
    screen = _screen(loop)
    screen.host_action(loop, HostAction("menu"), clock.now_ns())
    screen.host_action(loop, HostAction("menu.pick", "end"), clock.now_ns())
    assert screen.menu_page == "confirm"
    _run(loop, clock, 60_000)
    assert loop.referee.paused
    assert not loop.referee.state.seats[state.to_act].out
    screen.host_action(loop, HostAction("confirm"), clock.now_ns())  # "no, keep playing"
    screen.host_action(loop, HostAction("confirm"), clock.now_ns())  # back to the game
    loop.step()
    assert not loop.referee.paused and loop.referee.state.phase is eb.Phase.GUESS


def test_after_a_restart_the_game_waits_for_the_host(tmp_path: Path, firmware: Firmware,
                                                     clock: FakeClock) -> None:
    path = tmp_path / "game.jsonl"
    first = _loop(path, firmware, clock)
    state = _to_recall(first, clock)
    _run(first, clock, 5_000)
    left = _left_ms(first, clock)
    _screen(first).close()
    clock.advance_ms(300_000)  # the box is off for five minutes
    again = _loop(path, firmware, clock, new=False)
    screen = _screen(again)
    screen.hold_after_restart(again, clock.now_ns())
    assert again.referee.paused and screen.menu_open
    snap = screen.snapshot(again, clock.now_ns())
    assert isinstance(snap.menu, MenuView) and snap.menu.note == "menu.paused_restart"
    _run(again, clock, 60_000)  # nobody there yet
    assert again.referee.paused
    assert not again.referee.state.seats[state.to_act].out
    screen.host_action(again, HostAction("confirm"), clock.now_ns())  # back to the game
    again.step()
    assert not again.referee.paused
    # (the clock carries on from the last event, as it always did after a restart)
    assert _left_ms(again, clock) >= left
    kinds = [(r.note.kind, r.note.fields.get("why")) for r in read(path).notes()
             if r.note is not None]
    assert kinds[-2:] == [("pause", "restart"), ("resume", "restart")]
    screen.close()


def test_a_game_question_pauses_the_clock_too(loop: Loop, clock: FakeClock) -> None:
    """Any feature's question holds the clocks through the screen's one hook."""
    state = _to_recall(loop, clock)
    screen = _screen(loop)
    screen.holds.add("ask_card")
    _run(loop, clock, 60_000)
    assert loop.referee.paused and loop.referee.paused_why == "ask_card"
    assert not loop.referee.state.seats[state.to_act].out
    screen.holds.discard("ask_card")
    loop.step()
    assert not loop.referee.paused


def test_nothing_pauses_before_a_game_starts(loop: Loop, clock: FakeClock) -> None:
    screen = _screen(loop)
    screen.host_action(loop, HostAction("menu"), clock.now_ns())
    loop.step()
    assert screen.menu_open and not loop.referee.paused


def test_the_hold_of_back_is_no_players_time(loop: Loop, clock: FakeClock, tmp_path: Path,
                                             factory: Any) -> None:
    """The 0.8 s the host holds *back* before the menu opens: the clock stood still from
    the press (it ran until the menu opened: the guesser lost the hold's time), journalled
    from the press, so replay gives the same times."""
    _to_recall(loop, clock)
    _run(loop, clock, 5_000)
    left = _left_ms(loop, clock)
    pressed_at = loop.referee.game_ms(clock.now_ns())
    screen = _screen(loop)
    back = factory.pin(PINS.back)
    back.press(clock.now_ns())
    _run(loop, clock, 1_000)  # held: the menu opens after 0.8 s
    assert screen.menu_open and loop.referee.paused
    back.release(clock.now_ns())
    _run(loop, clock, 3_000)
    screen.host_action(loop, HostAction("confirm"), clock.now_ns())  # back to the game
    loop.step()
    assert not screen.menu_open and not loop.referee.paused
    assert _left_ms(loop, clock) == left  # not one ms of the hold was the guesser's
    live = loop.referee.state
    contents = read(tmp_path / "game.jsonl")
    assert replay(contents) == live
    notes = [r.note for r in contents.notes() if r.note is not None
             and r.note.kind in ("pause", "resume")]
    assert [n.at_ms for n in notes] == [pressed_at, pressed_at]
    assert notes[1].fields["paused_ms"] == 4_000


def test_a_short_back_resumes_the_clock_at_once(loop: Loop, clock: FakeClock,
                                                factory: Any) -> None:
    """A short press of *back* (an undo) holds the clock only while it is down."""
    _to_recall(loop, clock)
    _run(loop, clock, 2_000)
    back = factory.pin(PINS.back)
    back.press(clock.now_ns())
    _run(loop, clock, 500)
    assert loop.referee.paused
    back.release(clock.now_ns())
    _run(loop, clock, 500)
    assert not loop.referee.paused and not _screen(loop).menu_open
    assert loop.referee.state.phase is eb.Phase.DEAL  # (the *back*: the deal undone)


def test_a_second_quick_back_is_not_lost(loop: Loop, clock: FakeClock, factory: Any) -> None:
    """Two quick presses of *back*, the second down before the loop looked at the button
    again: each is a *back* (here: the rules page back to the menu, then the menu closed).
    The second press took the first one's place, and the first was lost."""
    _to_recall(loop, clock)
    screen = _screen(loop)
    screen.open_menu()
    screen.menu_page = "rules"
    loop.step()
    back = factory.pin(PINS.back)
    back.press(clock.now_ns())
    clock.advance_ms(20)
    loop.step()  # the first press seen, still down
    clock.advance_ms(60)
    back.release(clock.now_ns())
    clock.advance_ms(60)
    back.press(clock.now_ns())  # the second, before the loop looks again
    clock.advance_ms(20)
    loop.step()
    clock.advance_ms(60)
    back.release(clock.now_ns())
    _run(loop, clock, 500, step_ms=50)
    assert not screen.menu_open  # rules -> menu -> closed: both taken
