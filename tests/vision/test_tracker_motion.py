"""Motion gating (issue 16 item 4): a part of the table that keeps moving is not searched
while it moves; cards are still reported in time, and a table that never stops moving does
not starve the reports."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import cv2
import numpy as np
import pytest

from vision.camera import Frame
from vision.config import VisionConfig
from vision.deck import Deck
from vision.simtable import Conditions, Pose, SimulatedTable
from vision.tracker import MOTION_MAX_FRAMES, CardEvent, CardWatcher

DemoDecks = Callable[[str], Deck]


@pytest.fixture
def wink(demo_decks: DemoDecks) -> Deck:
    return demo_decks("wink")


class _Hand:
    """A skin-coloured blob painted over the simulated table's frames: a hand (its arm
    from the frame's border) that moves along ``path`` (one point per frame, table px)."""

    def __init__(self, table: SimulatedTable) -> None:
        self.table = table
        self.seq = 0

    def frame(self, at: tuple[float, float] | None) -> Frame:
        f = self.table.capture()
        img = f.image.copy()
        if at is not None:
            x, y = round(at[0]), round(at[1])
            cv2.ellipse(img, (x, y), (34, 26), 20, 0, 360, (120, 160, 215), -1)
            cv2.line(img, (x, y), (x + 400, y + 120), (110, 150, 205), 40)  # the arm
        grey = np.asarray(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
        self.seq += 1
        return Frame(image=img, grey=grey, t_ns=f.t_ns, seq=f.seq)


def _searches(w: CardWatcher) -> int:
    return w.searched + w.searched_part


def _to_and_fro(a: tuple[float, float], b: tuple[float, float], n: int
                ) -> Iterator[tuple[float, float]]:
    """Points from ``a`` to ``b`` and back, again and again, ``n`` frames a leg."""
    while True:
        for k in range(n):
            t = k / n
            yield a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])
        for k in range(n):
            t = k / n
            yield b[0] + t * (a[0] - b[0]), b[1] + t * (a[1] - b[1])


def test_a_hand_that_keeps_moving_is_not_searched_while_it_moves(wink: Deck) -> None:
    def run(motion_max: int) -> tuple[CardWatcher, list[CardEvent], int]:
        table = SimulatedTable(wink, seed=11, conditions=Conditions.clean("wood"))
        table.place("w05", Pose(200, 240, angle=10, width=110))
        hand = _Hand(table)
        watcher = CardWatcher(wink)
        watcher.motion_max = motion_max
        events = [e for _ in range(3) for e in watcher.process(hand.frame(None))]
        assert [e.card_id for e in events] == ["w05"]
        before = _searches(watcher)
        path = _to_and_fro((420.0, 120.0), (180.0, 260.0), 5)  # over the card and back
        events = [e for _ in range(6) for e in watcher.process(hand.frame(next(path)))]
        return watcher, events, _searches(watcher) - before

    gated, events, searches = run(MOTION_MAX_FRAMES)
    assert events == []
    assert gated.gated >= 5
    assert searches <= 1
    assert [c for c, _ in gated.on_table] == ["w05"]  # held under the hand, not forgotten
    ungated, events, searches = run(0)
    assert events == [] and ungated.gated == 0
    assert searches >= 5


def test_a_gated_part_is_searched_again_once_it_lies_still(wink: Deck) -> None:
    table = SimulatedTable(wink, seed=12, conditions=Conditions.clean("wood"))
    hand = _Hand(table)
    watcher = CardWatcher(wink)
    for _ in range(3):
        watcher.process(hand.frame(None))
    path = _to_and_fro((500.0, 100.0), (300.0, 240.0), 4)
    for _ in range(4):
        watcher.process(hand.frame(next(path)))
    assert watcher.gated >= 3
    before = _searches(watcher)
    # The hand comes to rest at (300, 240) (and a card lies beside it): searched once it has
    # lain still for a frame, with the card reported then.
    table.place("w11", Pose(160, 300, angle=0, width=110))
    events = []
    for _ in range(3):
        events += watcher.process(hand.frame((300.0, 240.0)))
    assert _searches(watcher) > before
    assert [e.card_id for e in events] == ["w11"]


def test_a_card_laid_while_a_hand_keeps_moving_nearby_is_reported_in_time(
        wink: Deck) -> None:
    table = SimulatedTable(wink, seed=13, conditions=Conditions.clean("wood"))
    hand = _Hand(table)
    watcher = CardWatcher(wink)
    path = _to_and_fro((560.0, 80.0), (450.0, 160.0), 3)  # a hand never still, top right
    for _ in range(5):
        assert watcher.process(hand.frame(next(path))) == []
    table.place("w20", Pose(180, 330, angle=-20, width=110))
    t_placed = None
    for k in range(1, 4):
        frame = hand.frame(next(path))
        t_placed = frame.t_ns if k == 1 else t_placed
        events = watcher.process(frame)
        if events:
            break
    assert [e.card_id for e in events] == ["w20"] and k <= 3
    assert events[0].first_seen_ns >= (t_placed or 0)


def test_a_card_appearing_next_to_a_moving_hand_counts_from_that_frame(wink: Deck) -> None:
    # Left for later in the frame it appears (it moved where a hand moves), searched in the
    # next: that frame showed it already, so its event comes then, as without gating.
    table = SimulatedTable(wink, seed=14, conditions=Conditions.clean("wood"))
    hand = _Hand(table)
    watcher = CardWatcher(wink, VisionConfig())
    path = _to_and_fro((420.0, 260.0), (380.0, 200.0), 2)
    for _ in range(3):  # (fewer than MOTION_MAX_FRAMES frames of motion)
        watcher.process(hand.frame(next(path)))
    table.place("w03", Pose(250, 260, angle=5, width=110))  # touching the hand's path
    first = hand.frame((420.0, 260.0))
    gated = watcher.gated
    assert watcher.process(first) == []
    assert watcher.gated == gated + 1  # the card and the hand: one moving part, left
    events = watcher.process(hand.frame((420.0, 260.0)))  # all still now
    assert [e.card_id for e in events] == ["w03"]
    assert events[0].first_seen_ns == first.t_ns


def test_a_table_that_never_stops_moving_still_gets_its_cards_reported(wink: Deck) -> None:
    # A hand wiping to and fro over the very place a card is laid: after MOTION_MAX_FRAMES
    # frames the part is searched as it is, and the card (uncovered at times) comes out.
    table = SimulatedTable(wink, seed=15, conditions=Conditions.clean("wood"))
    hand = _Hand(table)
    watcher = CardWatcher(wink)
    path = _to_and_fro((470.0, 150.0), (330.0, 230.0), 2)
    for _ in range(3):
        watcher.process(hand.frame(next(path)))
    table.place("w14", Pose(300, 330, angle=0, width=110))
    got: list[str] = []
    for _ in range(4 * (MOTION_MAX_FRAMES + 3)):
        got += [e.card_id for e in watcher.process(hand.frame(next(path)))]
        if got:
            break
    assert got == ["w14"]
    assert watcher.gated > 0
