"""Undo after the next card: the camera reports a card once, so an undo that takes back its
reveal would leave the game waiting for a card that lies on the pile. After any undo the card
source offers what it sees again (issue 20, item 2). The real pieces on a simulated clock: the
demo item deck on a simulated table, ``CardWatcher``, ``WatchedCamera``, the referee and the
app loop; and the threaded ``CameraThread`` with a scripted watcher."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from test_sm_camera_outage import by_hand_then_next_reveal, to_next_reveal
from test_sm_referee import start

from engine.something_missing import CardRevealed, CheckResult, Phase, State
from firmware.box import Firmware
from tablekeeper.app import Loop
from tablekeeper.clock import FakeClock
from tablekeeper.games.something_missing.simdriver import card_id
from tablekeeper.games.something_missing.table import table_of
from tablekeeper.journal import JournaledGame
from tablekeeper.referee import Referee
from tablekeeper.vision_link import CameraThread, WatchedCamera, load_items_deck
from vision.simtable import Conditions, SimulatedTable
from vision.tracker import CardWatcher

FRAME_NS = 33_333_333


@pytest.fixture
def referee(tmp_path: Path, firmware: Firmware, clock: FakeClock) -> Referee:
    ref = Referee(JournaledGame.create(tmp_path / "g.jsonl"), firmware, clock.now_ns(),
                  card_ids={card_id(i): i for i in range(66)}, game_id="undo")
    start(ref, clock)
    return ref


def steps(loop: Loop, clock: FakeClock, frames: int) -> None:
    for _ in range(frames):
        clock.advance(FRAME_NS)
        loop.step()


def camera_on(clock: FakeClock, seed: int = 5) -> tuple[SimulatedTable, WatchedCamera]:
    deck = load_items_deck(None)
    table = SimulatedTable(deck, seed=seed, conditions=Conditions.clean("cloth"),
                           clock=clock.now_ns)
    return table, WatchedCamera(table, CardWatcher(deck), frame_ns=FRAME_NS)


def test_a_card_whose_reveal_is_undone_is_offered_again(
        referee: Referee, clock: FakeClock) -> None:
    table, camera = camera_on(clock)
    loop = Loop(referee, clock, cards=camera)
    ids = table_of(referee).card_ids
    table.place("i05", "centre")
    steps(loop, clock, 5)
    assert referee.state.pile == (ids["i05"],)
    to_next_reveal(referee)  # buzz, bet, the check and its result
    table.place("i06", "centre")
    steps(loop, clock, 5)
    assert referee.state.pile == (ids["i05"], ids["i06"])
    assert isinstance(referee.undo(), State)  # U, just after the card was revealed
    # The check's result and the camera's reveal are taken back; the card stays on the pile.
    assert referee.state.phase is Phase.CHECK and referee.state.pile == (ids["i05"],)
    undone_at = clock.now_ns()
    steps(loop, clock, 40)  # the host thinks it over
    to_next_reveal(referee)  # and enters the check's result again
    steps(loop, clock, 5)  # the card is still on the pile: offered again, it counts
    state = referee.state
    assert state.pile == (ids["i05"], ids["i06"]) and state.phase is Phase.BUZZ
    assert state.now_ms >= referee.at_ms(undone_at)  # seen again after the undo
    assert referee.last_rejection is None


def test_the_top_card_offered_again_is_passed_over_quietly(
        referee: Referee, clock: FakeClock) -> None:
    table, camera = camera_on(clock, seed=6)
    loop = Loop(referee, clock, cards=camera)
    table.place("i05", "centre")
    steps(loop, clock, 5)
    pile = referee.state.pile
    to_next_reveal(referee)
    assert isinstance(referee.undo(), State)
    steps(loop, clock, 10)
    to_next_reveal(referee)
    steps(loop, clock, 10)  # the card offered again is the one already on the pile
    assert referee.state.pile == pile and referee.state.phase is Phase.REVEAL
    assert referee.last_rejection is None


def test_a_card_offered_again_on_one_turned_by_hand_is_not_held(
        referee: Referee, clock: FakeClock) -> None:
    by_hand_then_next_reveal(referee, clock)
    table, camera = camera_on(clock, seed=7)
    loop = Loop(referee, clock, cards=camera)
    steps(loop, clock, 8)  # (the camera starts: its first frames are "lying")
    table.place("i06", "centre")
    steps(loop, clock, 5)
    ids = table_of(referee).card_ids
    assert referee.state.pile == (None, ids["i06"])
    assert isinstance(referee.undo(), State)
    assert referee.state.pile == (None,)
    to_next_reveal(referee)
    steps(loop, clock, 5)
    assert referee.state.pile == (None, ids["i06"]) and table_of(referee).held is None


class OnceWatcher:
    """Reports card "i05" in the first frame after it started or forgot (as CardWatcher
    reports a card once), recording which thread touched it."""

    def __init__(self) -> None:
        self.fresh = True
        self.threads: set[str] = set()

    def process(self, frame: Any) -> list[Any]:
        self.threads.add(threading.current_thread().name)
        if not self.fresh:
            return []
        self.fresh = False
        return [type("E", (), {"card_id": "i05", "first_seen_ns": frame.t_ns, "score": 1.0,
                               "margin": 1.0, "zone": None})()]

    def forget(self) -> None:
        self.threads.add(threading.current_thread().name)
        self.fresh = True


class Frames:
    def __init__(self) -> None:
        self.seq = 0

    def start(self) -> None:
        pass

    def capture(self) -> Any:
        self.seq += 1
        return type("F", (), {"t_ns": time.monotonic_ns(), "seq": self.seq, "image": None})()

    def close(self) -> None:
        pass


def test_the_camera_thread_reoffers_from_its_own_thread() -> None:
    watcher = OnceWatcher()
    source = CameraThread(Frames(), watcher, frame_ns=1_000_000, idle_after_ns=10**12)
    try:
        source.poll(0)
        assert source.wait_for_cards(5.0)
        first = source.poll(0)
        assert [s.card_id for s in first] == ["i05"]
        source.reoffer()
        assert source.wait_for_cards(5.0)
        again = source.poll(0)
        assert [s.card_id for s in again] == ["i05"] and again[0].t_ns > first[0].t_ns
        assert watcher.threads == {"tablekeeper-camera"}
    finally:
        source.close()


def test_the_demo_table_plays_on_after_an_undo_of_the_next_card(tmp_path: Path) -> None:
    # The windowed demo's repro on a simulated clock: U just after a card revealed after a
    # check's result. The host enters the result again; the card on the pile counts again
    # (the simulated table shows nothing moving then: the camera is read anyway).
    from tablekeeper.games.something_missing.demo import build_demo

    clock = FakeClock()
    parts = build_demo(tmp_path, seed=2, players=4, variant="standard", clock=clock)
    loop, referee = parts.loop, parts.loop.referee
    try:
        def after_a_check(lp: Loop) -> bool:
            events = [r.event for r in lp.referee.game.journal.active() if r.event is not None]
            return (len(events) >= 2 and isinstance(events[-1], CardRevealed)
                    and isinstance(events[-2], CheckResult))

        loop.run_simulated(until=after_a_check)
        pile = referee.state.pile
        assert isinstance(referee.undo(), State)
        assert referee.state.phase is Phase.CHECK and referee.state.pile == pile[:-1]
        undone_at = clock.now_ns()
        # The simulated host enters the check's result again; nobody lays another card.
        loop.run_simulated(max_ticks=loop.ticks + 400,
                           until=lambda lp: len(lp.referee.state.pile) == len(pile))
        assert referee.state.pile == pile  # the same card, offered again
        assert clock.now_ns() - undone_at < 5_000_000_000  # at once, not after a minute
    finally:
        if loop.cards is not None:
            loop.cards.close()
        parts.firmware.close()


def test_a_card_laid_while_a_replacement_is_due_waits_and_then_plays(
        tmp_path: Path, firmware: Firmware, clock: FakeClock) -> None:
    """Advanced: the last card of Ann's pile is buzzed for by nobody, and the next card is laid
    at once: it says nobody buzzed, waits for the replacement decision, then plays."""
    from engine.something_missing import DeclineReplacement, NewGame, Rules, ViewingStarted

    rules = Rules(max_deal_spread=66)  # Ann holds one card: her pile runs out at once
    ref = Referee(JournaledGame.create(tmp_path / "g.jsonl", rules), firmware, clock.now_ns(),
                  card_ids={card_id(i): i for i in range(66)}, game_id="replace")
    result = ref.submit(NewGame(at_ms=0, names=("A", "B", "C"), colours=("red", "yellow",
                                "blue"), variant="advanced", start_seat=0,
                                scenes=(0, 1, 2, 3, 4, 5), hand_sizes=(1, 33, 32)))
    assert isinstance(result, State)
    ref.submit(ViewingStarted(at_ms=ref.at_ms(clock.now_ns())))
    while ref.state.phase is Phase.VIEWING:
        clock.advance_ms(1_000)
        ref.tick(clock.now_ns())
    table, camera = camera_on(clock, seed=8)
    loop = Loop(ref, clock, cards=camera)
    ids = table_of(ref).card_ids
    table.place("i05", "centre")  # Ann's last card
    steps(loop, clock, 5)
    assert ref.state.phase is Phase.BUZZ and ref.state.replacements_due == 1
    table.place("i06", "centre")  # Ben lays the next card: nobody buzzed for i05
    steps(loop, clock, 5)
    after: State = ref.state
    assert after.phase is Phase.REPLACE and after.pile == (ids["i05"],)
    assert ref.last_rejection is not None and ref.last_rejection.code == "waits_for_replacement"
    assert table_of(ref).deferred is not None
    steps(loop, clock, 30)  # the chooser thinks it over; the card lies there
    seat = ref.state.to_act
    assert seat is not None
    assert isinstance(ref.submit(DeclineReplacement(at_ms=ref.at_ms(clock.now_ns()),
                                                    seat=seat)), State)
    resumed_at = clock.now_ns()
    steps(loop, clock, 5)  # offered again: it plays now
    state = ref.state
    assert state.pile == (ids["i05"], ids["i06"]) and state.phase is Phase.BUZZ
    assert state.now_ms >= ref.at_ms(resumed_at)  # the buzzers count from when play resumed
    assert firmware.arbiter.phase.name == "ARMED"
