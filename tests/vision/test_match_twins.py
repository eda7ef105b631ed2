"""Near-twins told apart where their templates differ (``DeckMatcher``'s twin step)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.find import Image
from vision.match import DeckMatcher, MatchParams
from vision.styles import STYLES, build_style_deck


def _camera(img: Image, seed: int) -> Image:
    """``img`` as a camera might give it: shifted a pixel or two, blurred, darker or
    brighter, with noise."""
    rng = np.random.default_rng(seed)
    h, w = img.shape[:2]
    m = np.array([[1, 0, rng.uniform(-2, 2)], [0, 1, rng.uniform(-2, 2)]], dtype=np.float32)
    x = cv2.warpAffine(img, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
    x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.6, 1.4))
    x = x.astype(np.float32) * rng.uniform(0.75, 1.15) + rng.normal(0, 4, x.shape)
    return np.asarray(np.clip(x, 0, 255), dtype=np.uint8)


@pytest.mark.parametrize("style", ["corner-number", "suits", "shading-only", "colour-only"])
def test_a_style_deck_recognised_where_the_one_product_cannot_tell(style: str) -> None:
    deck = build_style_deck(style)
    on = DeckMatcher.from_deck(deck, MatchParams(min_score=0.3))
    off = DeckMatcher.from_deck(deck, MatchParams(min_score=0.3, twin_trigger=0.0))
    right = unknown_before = 0
    ids = deck.ids[:: max(1, len(deck.ids) // 12)]
    for k, cid in enumerate(ids):
        img = _camera(deck.template(cid), k)
        r = on.match(img)
        assert r.card_id in (cid, None), (cid, r)  # never a wrong card
        right += r.card_id == cid
        unknown_before += off.match(img).card_id is None
    assert right >= len(ids) - 1
    if style in ("corner-number", "suits"):  # small print: the one product alone cannot
        assert unknown_before >= 2
        assert right > len(ids) - unknown_before


def test_the_twin_step_runs_only_when_the_margin_is_small() -> None:
    deck = build_style_deck("big-number")  # numbers alone: mostly clear margins
    m = DeckMatcher.from_deck(deck)
    r = m.match(deck.template("b47"))
    assert r.card_id == "b47"
    if r.margin >= m.params.twin_trigger and r.rel_margin >= m.params.min_rel_margin:
        assert math.isnan(r.twin_margin)
    m2 = DeckMatcher.from_deck(build_style_deck("corner-number"))
    before = m2.twin_runs
    r2 = m2.match(_camera(build_style_deck("corner-number").template("n17"), 3))
    assert r2.card_id == "n17" and not math.isnan(r2.twin_margin)
    assert m2.twin_runs == before + 1


def test_the_same_face_twice_is_never_told_apart() -> None:
    deck = build_style_deck("colour-only")
    t = deck.template("c-red")
    m = DeckMatcher(["a", "b"], [t, t.copy()], deck.size, use_colour=True)
    r = m.match(t)
    assert r.card_id is None


def test_twin_params_are_checked() -> None:
    with pytest.raises(ValueError, match="twin_side"):
        MatchParams(twin_side=8)
    with pytest.raises(ValueError, match="twin_candidates"):
        MatchParams(twin_candidates=1)
    with pytest.raises(ValueError, match="min_twin_margin"):
        MatchParams(min_twin_margin=-0.1)


def test_every_style_draws_distinct_faces_at_the_card_size() -> None:
    for name in STYLES:
        deck = build_style_deck(name)
        assert len(set(deck.ids)) == len(deck.ids) >= 9
        faces = {deck.template(c).tobytes() for c in deck.ids}
        assert len(faces) == len(deck.ids)
        assert all(deck.template(c).shape == (300, 200, 3) for c in deck.ids)
    with pytest.raises(ValueError, match="unknown card style"):
        build_style_deck("tarot")
