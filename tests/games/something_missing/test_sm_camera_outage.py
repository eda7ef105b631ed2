"""A camera that goes missing mid-game and comes back: the real pieces on a simulated clock
(the demo item deck on a simulated table behind a ``ResilientCamera``, ``CardWatcher``,
``WatchedCamera``, the referee).

While the camera is missing the host turns the players' cards over by hand. When it comes
back it sees the card on top of the pile for the first time: that card was turned over by
hand already, or it is the next one, laid on it meanwhile. The camera cannot tell: the card
waits for the host to say, and is not taken for the next one until then."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_sm_referee import start

from engine.core import Rejection
from engine.something_missing import (
    CardRevealed,
    CardTurnedByHand,
    Phase,
    State,
    legal_actions,
)
from firmware.box import Firmware
from tablekeeper.clock import FakeClock
from tablekeeper.games.something_missing.simdriver import card_id
from tablekeeper.games.something_missing.table import table_of
from tablekeeper.journal import JournaledGame
from tablekeeper.referee import CardSeen, Referee
from tablekeeper.vision_link import LYING_FRAMES, Restarts, WatchedCamera, load_items_deck
from vision.camera import ResilientCamera
from vision.simtable import Conditions, SimulatedTable
from vision.tracker import CardWatcher

FRAME_NS = 33_333_333


class Cable:
    """The simulated table's camera on a cable that can be pulled out."""

    def __init__(self, table: SimulatedTable) -> None:
        self.table = table
        self.plugged = True

    def open(self) -> Any:
        if not self.plugged:
            raise OSError("no camera on the bus")
        return self

    def configure(self, size: Any = None) -> None:
        pass

    def start(self) -> None:
        pass

    def capture(self) -> Any:
        if not self.plugged:
            raise OSError("camera unplugged")
        return self.table.capture()

    def close(self) -> None:
        pass


@pytest.fixture
def referee(tmp_path: Path, firmware: Firmware, clock: FakeClock) -> Referee:
    """A game journalled to ``tmp_path / "g.jsonl"``, waiting for its first card."""
    ref = Referee(JournaledGame.create(tmp_path / "g.jsonl"), firmware, clock.now_ns(),
                  card_ids={card_id(i): i for i in range(66)}, game_id="outage")
    start(ref, clock)
    return ref


def watch(camera: WatchedCamera, clock: FakeClock, frames: int) -> list[CardSeen]:
    seen: list[CardSeen] = []
    for _ in range(frames):
        clock.advance(FRAME_NS)
        seen += camera.poll(clock.now_ns())
    return seen


def to_next_reveal(referee: Referee) -> None:
    """Nobody else's card: someone buzzes, bets and checks, until the next card is due."""
    while referee.state.phase is not Phase.REVEAL:
        moves = [a for a in legal_actions(referee.state)
                 if not isinstance(a, CardRevealed | CardTurnedByHand)]
        assert isinstance(referee.submit(moves[0]), State)


def by_hand_then_next_reveal(referee: Referee, clock: FakeClock) -> None:
    """The host turns the first card over by hand; the round is played out on it."""
    assert isinstance(table_of(referee).reveal_by_hand(clock.now_ns()), State)
    to_next_reveal(referee)
    assert referee.state.pile == (None,)


def test_the_card_turned_by_hand_is_not_taken_for_the_next_when_the_camera_comes_back(
        referee: Referee, clock: FakeClock) -> None:
    deck = load_items_deck(None)
    table = SimulatedTable(deck, seed=3, conditions=Conditions.clean("cloth"), clock=clock.now_ns)
    cable = Cable(table)
    camera = WatchedCamera(ResilientCamera(cable.open, clock=clock.now_ns, first_retry_s=1.0),
                           CardWatcher(deck), frame_ns=FRAME_NS)
    assert watch(camera, clock, 5) == [] and camera.status is None

    cable.plugged = False  # the cable is pulled
    assert watch(camera, clock, 3) == [] and camera.status is not None
    assert camera.status.startswith("status.camera_retrying:")  # with its countdown
    table.place("i05", "centre")  # the first player turns a card over; the host says so
    by_hand_then_next_reveal(referee, clock)

    cable.plugged = True  # back, before the next player turns a card over
    seen = watch(camera, clock, 60)  # the reconnection waits for its back-off
    assert [s.card_id for s in seen] == ["i05"] and seen[0].lying
    result = referee.card_seen(seen[0])
    assert isinstance(result, Rejection) and result.code == "held_for_host"
    assert table_of(referee).held == seen[0]
    assert referee.state.phase is Phase.REVEAL and referee.state.pile == (None,)
    table_of(referee).drop_held()  # the host: it is the one turned by hand
    assert table_of(referee).held is None and referee.state.pile == (None,)
    # the dispute and the host's word are the table's history (journal notes, issue 29)
    notes = [(r.note.kind, dict(r.note.fields)) for r in referee.game.journal.contents().notes()
             if r.note is not None]
    assert ("mismatch", {"camera": "i05", "host": "a card turned over by hand",
                         "question": "a new card, or the one turned by hand?"}) in notes
    assert notes[-1] == ("host_decision", {"camera": "i05",
                                           "decision": "the card turned by hand"})

    table.place("i06", "centre")  # the next card, on top: seen laid, it counts
    seen = watch(camera, clock, 5)
    assert [s.card_id for s in seen] == ["i06"] and not seen[0].lying
    after = referee.card_seen(seen[0])
    assert isinstance(after, State) and after.phase is Phase.BUZZ
    assert after.pile == (None, table_of(referee).card_ids["i06"])


def test_after_a_power_cut_the_card_turned_by_hand_is_not_taken_for_the_next(
        tmp_path: Path, firmware: Firmware, clock: FakeClock, referee: Referee) -> None:
    # The box loses power after the host turned a card over by hand; back on, its camera
    # starts and sees that card on the pile for the first time.
    by_hand_then_next_reveal(referee, clock)
    later = FakeClock(start_ns=9_000_000_000)
    resumed = Referee(JournaledGame.open(tmp_path / "g.jsonl"), firmware, later.now_ns(),
                      card_ids=table_of(referee).card_ids)
    assert resumed.state == referee.state and resumed.state.pile == (None,)
    deck = load_items_deck(None)
    table = SimulatedTable(deck, seed=4, conditions=Conditions.clean("wood"), clock=later.now_ns)
    table.place("i05", "centre")
    camera = WatchedCamera(table, CardWatcher(deck), frame_ns=FRAME_NS)
    seen = watch(camera, later, 4)
    assert [s.card_id for s in seen] == ["i05"] and seen[0].lying
    result = resumed.card_seen(seen[0])
    assert isinstance(result, Rejection) and result.code == "held_for_host"
    # The host: it is a new card (laid just before the power cut), and it counts.
    taken = table_of(resumed).take_held()
    assert isinstance(taken, State) and taken.phase is Phase.BUZZ
    assert taken.pile == (None, table_of(referee).card_ids["i05"])
    assert table_of(resumed).held is None
    assert isinstance(table_of(resumed).take_held(), Rejection)  # (nothing held now)


def test_a_card_first_seen_as_the_camera_comes_back_counts_on_a_named_card(
        referee: Referee, clock: FakeClock) -> None:
    # A camera that drops out for a moment while a card is laid: on a pile whose top the
    # camera named, the card it sees on coming back is the new one.
    assert isinstance(referee.card_seen(CardSeen("i02", clock.now_ns())), State)
    to_next_reveal(referee)
    result = referee.card_seen(CardSeen("i03", clock.now_ns(), lying=True))
    ids = table_of(referee).card_ids
    assert isinstance(result, State) and result.pile == (ids["i02"], ids["i03"])


def test_a_card_seen_laid_after_one_turned_by_hand_counts(
        referee: Referee, clock: FakeClock) -> None:
    by_hand_then_next_reveal(referee, clock)
    result = referee.card_seen(CardSeen("i03", clock.now_ns()))
    assert isinstance(result, State) and result.pile == (None, table_of(referee).card_ids["i03"])


def test_only_the_first_frames_after_a_start_or_a_gap_are_lying() -> None:
    r = Restarts()
    times = [100 * (i + 1) for i in range(LYING_FRAMES + 2)]
    for t in times:
        r.delivered(t)
    assert [r.lying(t) for t in times] == [True] * LYING_FRAMES + [False, False]
    assert not r.lying(50)  # before the camera started
    r.missed()
    r.missed()  # (missing for a while)
    r.delivered(2_000)
    r.delivered(2_100)
    assert r.lying(2_000) and r.lying(2_100) and not r.lying(times[0])
    with pytest.raises(ValueError, match="at least 1"):
        Restarts(0)
