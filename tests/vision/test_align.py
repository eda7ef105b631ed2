"""Fine alignment of found cards to a template (vision.align) and what it does for matching."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from vision.align import Aligner, AlignParams
from vision.config import VisionConfig
from vision.deck import Deck
from vision.find import CardFinder, FoundCard, order_corners, to_grey, warp_card
from vision.match import DeckMatcher
from vision.simtable import Conditions, Pose, SimulatedTable
from vision.tracker import (
    ALIGNED_MIN_SCORE,
    STRAIGHT_MIN_SCORE,
    _aligned,
    _near,
    expand_quad,
    recognise,
)


def _table(deck: Deck, card: str, seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    table = SimulatedTable(deck, seed=seed, conditions=Conditions.clean("wood"))
    table.place(card, Pose(320, 240, angle=23, width=110))
    image = table.capture().image
    return image, order_corners(table.truth()[-1].corners)


def _err(a: np.ndarray, b: np.ndarray) -> float:
    return min(float(np.abs(np.roll(b, -r, axis=0) - a).max()) for r in range(4))


def test_a_misplaced_outline_is_aligned_onto_the_card(demo_decks: Callable[[str], Deck]) -> None:
    deck = demo_decks("the-game")
    image, truth = _table(deck, "n38")
    # One side 5 px out (a pale table, a pile), the others right.
    off = truth.copy()
    short_dir = (truth[1] - truth[0]) / np.linalg.norm(truth[1] - truth[0])
    off[1] += 5 * short_dir
    off[2] += 5 * short_dir
    aligner = Aligner([deck.template(i) for i in deck.ids], deck.size)
    index = deck.ids.index("n38")
    got = aligner.align(to_grey(image), off, index)
    assert got is not None
    assert _err(off, truth) > 4.5 and _err(got, truth) < 1.5


def test_near_twins_are_told_apart_once_aligned(demo_decks: Callable[[str], Deck]) -> None:
    # 38 and 58 differ in one digit: from an outline 3 % too big the match is unsure (or
    # wrong); aligned to each candidate in turn, the right one wins clearly.
    deck = demo_decks("the-game")
    image, truth = _table(deck, "n38")
    matcher = DeckMatcher.from_deck(deck, VisionConfig().match_params(deck.id))
    loose = expand_quad(truth, 0.03)
    before = matcher.match(warp_card(image, loose, matcher.size))
    assert before.card_id != "n38"
    card, after = _aligned(matcher, image, to_grey(image), FoundCard(loose), before)
    assert after.card_id == "n38" and after.score > before.score
    assert _err(card.corners, truth) < 1.5


def test_a_card_that_does_not_fit_is_refused(demo_decks: Callable[[str], Deck]) -> None:
    deck = demo_decks("the-game")
    aligner = Aligner([deck.template(i) for i in deck.ids], deck.size)
    flat = np.full((480, 640), 128, np.uint8)  # nothing to align to
    quad = np.array([[270, 160], [370, 160], [370, 310], [270, 310]], np.float32)
    assert aligner.align(flat, quad, 0) is None


@pytest.mark.parametrize(("field", "value"), [("long_side", 4), ("margin", 0.9),
                                              ("smoothing", 4), ("max_move", 0.0),
                                              ("iterations", 0)])
def test_bad_params(field: str, value: float) -> None:
    with pytest.raises(ValueError, match=field):
        AlignParams(**{field: value})  # type: ignore[arg-type]


def test_a_digit_on_a_card_cut_by_the_frame_is_no_card(demo_decks: Callable[[str], Deck]) -> None:
    # A card half outside the frame is not reported; the big dark digit printed on it is
    # card-shaped, but far smaller than the whole cards beside it: not a card either.
    deck = demo_decks("the-game")
    table = SimulatedTable(deck, seed=5, conditions=Conditions.clean("dark"))
    table.place("n28", Pose(330, 10, angle=0, width=120))
    table.place("n52", Pose(140, 300, angle=10, width=120))
    table.place("n71", Pose(480, 300, angle=-15, width=120))
    found = CardFinder(deck.size).find(table.capture().image)
    areas = sorted(c.area for c in found)
    assert len(found) == 2 and areas[0] > 0.8 * areas[1]


#: Frames of the pile shaken by up to 3 grey levels (as in test_pile_recovery), and how many of
#: them must give the top card from straight edges around the loose box. Which frames do is a
#: knife edge of the straight-edge search (find_near): measured over 60 such frames, OpenCV 5.0
#: 49, the Pi's 4.11 47, 5.1 34; the frame as drawn gives it on 5.0 and 4.11, not on 5.1. A
#: table shows a new frame every 33 ms, so what a user needs is that many frames give the top
#: card and none a wrong one; the rest are found by keypoints (test_pile_recovery).
_LOOSE_FRAMES, _LOOSE_MIN_FOUND = 30, 12


def test_a_loose_box_around_a_pile_gives_way_to_the_top_card(
    demo_decks: Callable[[str], Deck],
) -> None:
    # Two tiles, one half on the other: an outline around both is no card of the deck. Around
    # such a box the top tile is searched for from straight edges and recognised.
    deck = demo_decks("eselsbruecke")
    table = SimulatedTable(deck, seed=11, conditions=Conditions.clean("dark"))
    table.place("k107", Pose(300, 230, angle=12, width=110))
    table.place("k101", Pose(350, 260, angle=-8, width=110))
    drawn = table.capture().image
    both = np.concatenate([t.corners for t in table.truth()])
    loose = order_corners(cv2.boxPoints(cv2.minAreaRect(both)).astype(np.float32), True)
    top = order_corners(table.truth()[-1].corners, True)
    config = VisionConfig()
    finder = CardFinder(deck.size, config.find)
    matcher = DeckMatcher.from_deck(deck, config.match_params(deck.id))
    found, wrong, errors = 0, [], []
    for k in range(_LOOSE_FRAMES):
        image = _shaken(drawn, k)
        (before,) = matcher.match_quads(image, [loose])
        assert before.card_id is None, f"frame {k}: the loose box is no card"
        card, after = _near(finder, matcher, image, to_grey(image), FoundCard(loose), before)
        if after.card_id == "k101":
            found += 1
            errors.append(_err(card.corners, top))
        elif after.card_id is not None:
            wrong.append((k, after.card_id))
    assert not wrong, f"a wrong card is worse than none: {wrong}"
    assert found >= _LOOSE_MIN_FOUND, f"the top card in {found} of {_LOOSE_FRAMES} frames"
    # (up to 4.8 px off over 60 frames: the side over the card below)
    assert max(errors) < 6.0


def _shaken(image: npt.NDArray[np.uint8], k: int) -> npt.NDArray[np.uint8]:
    """``image`` shifted by -3..3 grey levels, with 0..3 levels of noise per pixel (``k``: which
    of those; 0 is the image as drawn)."""
    offset, spread = ((k % 7) - 3 if k else 0), k % 4
    noise = np.random.default_rng(k).integers(-spread, spread + 1, size=image.shape)
    out: npt.NDArray[np.uint8] = np.clip(image.astype(np.int16) + offset + noise, 0,
                                         255).astype(np.uint8)
    return out


def test_a_weak_box_from_straight_edges_is_aligned_not_dropped(
    demo_decks: Callable[[str], Deck],
) -> None:
    # The top card of a pile found from straight edges is often a few pixels off; as it is,
    # it scores under STRAIGHT_MIN_SCORE. Aligned, it is the card, with its true corners.
    deck = demo_decks("something-missing-items")
    image, truth = _table(deck, "i09")
    off = truth.copy()
    out = (truth[1] - truth[2]) / np.linalg.norm(truth[1] - truth[2])  # away from the card
    off[0] += 4 * out
    off[1] += 4 * out
    matcher = DeckMatcher.from_deck(deck, VisionConfig().match_params(deck.id))
    (as_is,) = matcher.match_quads(image, [off])
    # Known by the deck's thresholds, but too weak for a box from straight edges.
    assert as_is.card_id == "i09" and as_is.score < STRAIGHT_MIN_SCORE

    class Fixed:
        unexplained: tuple[object, ...] = ()  # no paper left over

        def find(self, img: object) -> list[FoundCard]:
            return [FoundCard(off, straight=True)]

    ((card, m),) = recognise(Fixed(), matcher, image)  # type: ignore[arg-type]
    assert m.card_id == "i09" and m.score >= ALIGNED_MIN_SCORE
    assert _err(card.corners, truth) < 2.5


def test_a_card_from_no_deck_is_aligned_to_one_candidate_only(
        demo_decks: Callable[[str], Deck], monkeypatch: pytest.MonkeyPatch) -> None:
    # Aligned to its best candidate, a card from no deck stays far from it: the next
    # candidates (worse fits to begin with) are not tried (each alignment costs ~2 ms).
    deck = demo_decks("something-missing-items")
    matcher = DeckMatcher.from_deck(deck, VisionConfig().match_params(deck.id))
    calls = []
    align = matcher.aligner.align

    def counted(*args: object) -> object:
        calls.append(args)
        return align(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(matcher.aligner, "align", counted)
    stopped = 0  # cards aligned to the first of several candidates only
    for seed in range(6):
        table = SimulatedTable(deck, seed=seed, conditions=Conditions.clean("wood"))
        table.place_foreign(Pose(320, 240, angle=17, width=120))
        image = table.capture().image
        (card,) = CardFinder(deck.size).find(image)
        (m,) = matcher.match_quads(image, [card.corners])
        candidates = matcher.candidates_in(image, card.corners, 0.1, 3)
        calls.clear()
        _, verdict = _aligned(matcher, image, to_grey(image), card, m)
        assert verdict.card_id is None
        assert 1 <= len(calls) <= len(candidates)
        stopped += len(calls) == 1 < len(candidates)
    assert stopped >= 3
