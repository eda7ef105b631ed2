"""Foreign cards stay foreign in decks of numbers (issue 30 item 5; ``MatchParams.max_fit``,
``DeckMatcher.fit``, ``bench vision --foreign-numbers``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

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


def test_a_number_not_enrolled_is_not_taken_for_its_neighbour(demo_decks: DemoDecks) -> None:
    deck = demo_decks("the-game")
    half = bench.enrolled_half(deck)
    assert set(half.ids) < set(deck.ids) and len(half.ids) == (len(deck.ids) + 1) // 2
    enrolled, foreign = half.ids[10], deck.ids[2 * 10 + 1]  # (a number between two enrolled)
    assert foreign not in half.ids
    image = _table(deck, enrolled, foreign).capture().image
    config = VisionConfig()
    assert config.match_params(deck.id).max_fit > 0
    obs = sorted(CardWatcher(half, config, half.id).observe(image), key=lambda o: o.centre[0])
    assert [o.card_id for o in obs] == [enrolled, None]
    assert obs[0].match.fit <= config.match_params(deck.id).max_fit
    assert obs[1].match.gate == "fit" and obs[1].match.fit > 0.3
    # Without the check (max_fit 0: as before), the foreign number is named.
    off = replace(config, deck_thresholds={deck.id: replace(
        config.thresholds(deck.id), max_fit=0.0)})
    obs = sorted(CardWatcher(half, off, half.id).observe(image), key=lambda o: o.centre[0])
    assert obs[0].card_id == enrolled and obs[1].card_id is not None
    assert obs[1].card_id != foreign


def test_the_bench_marks_the_cards_left_out_foreign() -> None:
    deck = bench.number_deck("big-number")
    half = bench.enrolled_half(deck)
    frames = list(bench.foreign_frames(deck, half, 3, 5))
    seen = [t.card_id for f in frames for t in f.truth]
    assert seen and all(c is None or c in half.ids for c in seen)
