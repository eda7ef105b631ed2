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


def test_the_refined_fine_score_survives_corners_a_few_pixels_off(
        demo_decks: DemoDecks) -> None:
    # The card's outline grown by 4 % all round (a pale table, a bowed card): aligned again
    # at the fine size on its ink, the right card fits better than aligned at 64 px only.
    from vision.find import to_grey
    from vision.tracker import expand_quad

    deck = demo_decks("wink")
    table = SimulatedTable(deck, seed=9, conditions=Conditions.clean("wood"))
    table.place(deck.ids[11], Pose(320, 240, angle=14, width=150))
    image = table.capture().image
    (truth,) = table.truth()
    quad = expand_quad(np.asarray(truth.corners, np.float32), 0.04)
    grey = to_grey(image)
    card = deck.ids.index(deck.ids[11])
    new = DeckMatcher.from_deck(deck, replace(MatchParams(), fine=True))
    old = DeckMatcher.from_deck(deck, replace(MatchParams(), fine=True, fine_refine=False))
    s_new, q_new = new.fine_score(image, grey, quad, card, 0)
    s_old, _ = old.fine_score(image, grey, quad, card, 0)
    assert s_new > s_old and s_new > 0.9
    # ... and its corners are the card's again (within a pixel or two of the truth).
    assert float(np.abs(q_new - truth.corners).max()) < 3.0


def test_the_fine_candidates_come_from_every_template_of_a_big_deck(
        demo_decks: DemoDecks) -> None:
    # A big deck shortlists at 16 px before scoring (``_coarse``); the fine decision's
    # candidates do not: they are the best of the full coarse scores.
    deck = demo_decks("eselsbruecke")
    m = DeckMatcher.from_deck(deck, replace(MatchParams(), fine=True))
    assert m._coarse is not None
    table = SimulatedTable(deck, seed=3, conditions=Conditions.clean("wood"))
    table.place(deck.ids[5], Pose(320, 240, angle=0, width=150))
    image = table.capture().image
    (truth,) = table.truth()
    q = np.asarray(truth.corners, np.float32)
    full = m.candidates_in(image, q, 2.0, 40, full=True)
    f = m._unit_features(m.warp(image, q))
    per = (m.matrix @ f).reshape(m.template_count, -1).max(axis=1)
    expect = [int(i) for i in np.argsort(-per)[:40]]
    assert [i for i, _ in full] == expect
    assert full[0][0] == deck.ids.index(deck.ids[5])
