"""Cards found but not named (issue 37): each carries its best candidates, and one that lies
still becomes one :class:`UnsureCard` for the host to answer -- once, with its picture."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from vision.config import VisionConfig
from vision.deck import Deck
from vision.simtable import Conditions, Pose, SimulatedTable
from vision.tracker import UNSURE_FRAMES, CardWatcher, UnsureCard

DemoDecks = Callable[[str], Deck]


def _strict(deck_id: str) -> VisionConfig:
    """A config whose thresholds no card reaches: every card found is unsure, as a card is
    under another evening's light (the right card still ranks first)."""
    base = VisionConfig()
    strict = replace(base.thresholds(deck_id), min_score=0.999)
    return replace(base, deck_thresholds={**base.deck_thresholds, deck_id: strict})


def test_an_unnamed_card_lying_still_is_asked_about_once(demo_decks: DemoDecks) -> None:
    wink = demo_decks("wink")
    table = SimulatedTable(wink, seed=3, conditions=Conditions.clean("wood"))
    watcher = CardWatcher(wink, _strict(wink.id))
    for _ in range(3):
        assert watcher.process(table.capture()) == []
    table.place("w17", Pose(320, 240, angle=20, width=120))
    asked: list[list[UnsureCard]] = []
    for _ in range(UNSURE_FRAMES + 20):
        assert watcher.process(table.capture()) == []  # never named
        asked.append(watcher.take_unsure())
    flat = [u for a in asked for u in a]
    assert len(flat) == 1, "asked once, not every frame"
    first = next(i for i, a in enumerate(asked) if a)
    assert first + 1 == UNSURE_FRAMES  # when it has lain still that long, not before
    u = flat[0]
    ids = [c for c, _ in u.candidates]
    scores = [s for _, s in u.candidates]
    assert ids[0] == "w17" and len(ids) == 6 and scores == sorted(scores, reverse=True)
    assert u.crop.ndim == 3 and u.crop.dtype == np.uint8 and max(u.crop.shape[:2]) >= 300
    assert abs(u.centre[0] - 320) < 6 and abs(u.centre[1] - 240) < 6
    assert u.gate is not None and u.first_seen_ns < u.t_ns


def test_a_hand_over_it_or_an_undo(demo_decks: DemoDecks) -> None:
    """A hand passing over an asked card does not ask again; ``forget`` (an undo) does, and
    a card taken away and laid again is a new question."""
    wink = demo_decks("wink")
    table = SimulatedTable(wink, seed=4, conditions=Conditions.clean("cloth"))
    watcher = CardWatcher(wink, _strict(wink.id))
    n = table.place("w05", Pose(250, 240, angle=10, width=110))

    def run(frames: int) -> list[UnsureCard]:
        out: list[UnsureCard] = []
        for _ in range(frames):
            watcher.process(table.capture())
            out += watcher.take_unsure()
        return out

    assert len(run(UNSURE_FRAMES + 2)) == 1
    table.hand_pass(frames=8, target=(250.0, 240.0))
    assert run(12) == []
    watcher.forget()
    assert [u.candidates[0][0] for u in run(UNSURE_FRAMES + 2)] == ["w05"]
    table.remove(n)
    assert run(watcher.config.forget_frames + 2) == []
    table.place("w05", Pose(400, 240, angle=-15, width=110))
    again = run(UNSURE_FRAMES + 2)
    assert len(again) == 1 and again[0].key > 0


def test_named_cards_carry_their_candidates_and_are_never_asked(
        demo_decks: DemoDecks) -> None:
    wink = demo_decks("wink")
    table = SimulatedTable(wink, seed=5, conditions=Conditions.clean("dark"))
    watcher = CardWatcher(wink)
    table.place("w11", Pose(320, 240, angle=5, width=120))
    events = []
    for _ in range(UNSURE_FRAMES + 4):
        events += watcher.process(table.capture())
        assert watcher.take_unsure() == []
    (e,) = events
    assert e.card_id == "w11" and e.candidates[0][0] == "w11" and len(e.candidates) == 3


def test_asking_can_be_switched_off(demo_decks: DemoDecks) -> None:
    wink = demo_decks("wink")
    table = SimulatedTable(wink, seed=3, conditions=Conditions.clean("wood"))
    watcher = CardWatcher(wink, _strict(wink.id))
    watcher.unsure_frames = 0
    table.place("w17", Pose(320, 240, angle=20, width=120))
    for _ in range(UNSURE_FRAMES + 4):
        watcher.process(table.capture())
        assert watcher.take_unsure() == []
