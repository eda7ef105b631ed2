"""Foreign cards stay foreign in decks of numbers (issue 30 item 5; ``MatchParams.max_fit``,
``DeckMatcher.fit``, ``bench vision --foreign-numbers``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from vision import bench
from vision.config import VisionConfig
from vision.deck import Deck
from vision.simtable import Conditions, Pose, SimulatedTable
from vision.tracker import CardWatcher

DemoDecks = Callable[[str], Deck]


def _table(deck: Deck, left: str, right: str) -> SimulatedTable:
    table = SimulatedTable(deck, seed=11, conditions=Conditions.clean("wood"))
    table.place(left, Pose(180, 240, angle=10, width=150))
    table.place(right, Pose(460, 240, angle=-6, width=150))
    return table


def _truth(deck: Deck, left: str, right: str) -> list[np.ndarray]:
    return [np.asarray(t.corners, np.float32) for t in _table(deck, left, right).truth()]


def test_a_number_not_enrolled_is_not_taken_for_its_neighbour(demo_decks: DemoDecks) -> None:
    deck = demo_decks("the-game")
    half = bench.enrolled_half(deck)
    assert set(half.ids) < set(deck.ids) and len(half.ids) == (len(deck.ids) + 1) // 2
    config = VisionConfig()
    fit = config.match_params(deck.id).max_fit
    assert fit > 0
    # Without the check (max_fit 0: as before) some numbers between two enrolled ones are
    # taken for one of them; with it, none is, and the enrolled card beside them still is.
    off = replace(config, deck_thresholds={deck.id: replace(
        config.thresholds(deck.id), max_fit=0.0)})
    on_watcher, off_watcher = (CardWatcher(half, c, half.id) for c in (config, off))
    taken = 0
    for k in range(8, 16):
        enrolled, foreign = half.ids[k], deck.ids[2 * k + 1]
        assert foreign not in half.ids
        image = _table(deck, enrolled, foreign).capture().image
        before = sorted(off_watcher.observe(image), key=lambda o: o.centre[0])
        now = sorted(on_watcher.observe(image), key=lambda o: o.centre[0])
        assert [o.card_id for o in now] == [enrolled, None]
        assert now[0].match.fit <= fit
        assert before[1].card_id != foreign
        if before[1].card_id is not None:
            taken += 1
            assert now[1].match.gate == "fit" and now[1].match.fit > 2 * fit
        # The measure itself, whatever the coarse verdict: the foreign number named as the
        # enrolled card it looks most like fits it far worse than the enrolled card fits its own.
        (t_enrolled, t_foreign) = sorted(_truth(deck, enrolled, foreign),
                                         key=lambda c: float(c[:, 0].mean()))
        m = on_watcher.matcher
        own, other = m.match_quads(image, [t_enrolled, t_foreign])
        assert own.best_id == enrolled and other.best_id in half.ids
        assert m.fit(image, t_enrolled, replace(own, card_id=own.best_id)) <= fit
        assert m.fit(image, t_foreign, replace(other, card_id=other.best_id)) > 2 * fit
    print(f"taken for a neighbour without the check: {taken} of 8")


def test_the_bench_marks_the_cards_left_out_foreign() -> None:
    deck = bench.number_deck("big-number")
    half = bench.enrolled_half(deck)
    frames = list(bench.foreign_frames(deck, half, 3, 5))
    seen = [t.card_id for f in frames for t in f.truth]
    assert seen and all(c is None or c in half.ids for c in seen)
