"""The fine decision (``MatchParams.fine``, ``DeckMatcher.decide``; issue 30 item 3): the
coarse score shortlists, the card is decided on its aligned candidates at the fine size."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from vision.config import VisionConfig
from vision.deck import Deck
from vision.match import DeckMatcher, MatchParams
from vision.simtable import Conditions, Pose, SimulatedTable
from vision.tracker import CardWatcher

DemoDecks = Callable[[str], Deck]


def _table(deck: Deck) -> np.ndarray:
    table = SimulatedTable(deck, seed=5, conditions=Conditions.clean("wood"))
    table.place(deck.ids[7], Pose(190, 240, angle=20, width=140))
    table.place_foreign(Pose(450, 240, angle=-12, width=140))
    return table.capture().image


def test_the_fine_decision_names_the_card_and_not_the_foreign_one(
        demo_decks: DemoDecks) -> None:
    deck = demo_decks("wink")
    fine = replace(MatchParams(), fine=True)
    watcher = CardWatcher(deck, VisionConfig(match=fine, deck_thresholds={}), deck.id)
    obs = sorted(watcher.observe(_table(deck)), key=lambda o: o.centre[0])
    assert [o.card_id for o in obs] == [deck.ids[7], None]
    named, foreign = obs[0].match, obs[1].match
    assert named.fine >= fine.min_fine and named.fine_margin >= fine.min_fine_margin
    assert named.gate is None
    assert foreign.gate in ("fine", "fine_margin", "colour")


def test_the_fine_gate_rejects_below_its_threshold(demo_decks: DemoDecks) -> None:
    deck = demo_decks("wink")
    image = _table(deck)
    strict = replace(MatchParams(), fine=True, min_fine=0.999)
    watcher = CardWatcher(deck, VisionConfig(match=strict, deck_thresholds={}), deck.id)
    obs = sorted(watcher.observe(image), key=lambda o: o.centre[0])
    assert obs[0].card_id is None and obs[0].match.gate == "fine"
    assert obs[0].match.best_id == deck.ids[7]


def test_off_by_default(demo_decks: DemoDecks) -> None:
    deck = demo_decks("wink")
    assert not MatchParams().fine
    m = DeckMatcher.from_deck(deck)
    (v,) = m.match_many([deck.template(deck.ids[2])])
    assert v.fine != v.fine  # nan: not run
