"""The top card of a pile when its outline runs into the card below (light on light): outlines
that gave way to a loose box, and paper that no card found covers, are searched again."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from vision import tracker
from vision.bench import BenchFrame, generate_frames
from vision.deck import Deck
from vision.find import CardFinder, FoundCard, Image, contains
from vision.match import DeckMatcher
from vision.simtable import Conditions, Pose, SimulatedTable
from vision.tracker import CardWatcher, recognise

DemoDecks = Callable[[str], Deck]
DATA = Path(__file__).parent / "data"


def _bench_frame(deck: Deck, index: int, seed: int = 1000) -> BenchFrame:
    """Frame ``index`` of the bench's tuning run (seed 1000), where this used to fail."""
    (frame,) = generate_frames(deck, index + 1, seed, start=index)
    return frame


def _found(deck: Deck, frame: BenchFrame, card_id: str) -> bool:
    """Is ``card_id`` (fully in view in ``frame``) recognised, at its true place?"""
    truth = next(t for t in frame.truth if t.card_id == card_id and t.whole)
    finder = CardFinder(deck.size)
    matcher = DeckMatcher.from_deck(deck)
    side = float(np.linalg.norm(truth.corners[1] - truth.corners[0]))
    for card, m in recognise(finder, matcher, frame.image):
        off = min(float(np.abs(np.roll(truth.corners, -r, axis=0) - card.corners).max())
                  for r in range(4))
        if m.card_id == card_id and off < 0.1 * side:
            return True
    return False


def test_an_outline_that_gave_way_to_a_loose_box_is_tried_again(
        demo_decks: DemoDecks) -> None:
    # A scene card on another: the outline around both is the largest and best supported
    # one there, so it is what the finder reports; it is no card. The top card's own outline
    # (one that gave way to it, in FoundCard.others) is.
    deck = demo_decks("something-missing-scenes")
    frame = _bench_frame(deck, 9)
    finder = CardFinder(deck.size)
    assert any(len(c.others) for c in finder.find(frame.image))
    assert _found(deck, frame, "s05")


class _Blind(CardFinder):
    """A finder that finds no outline of the card at ``hide`` (frame px): its paper is left
    unexplained, as it is when the top card of a pile runs light on light into the one below."""

    def __init__(self, size: tuple[int, int], hide: npt.NDArray[np.float32]) -> None:
        super().__init__(size)
        self.hide = hide

    def _candidates(self, small: Image, *, levels: tuple[float, float] | None = None,
                    area: tuple[float, float] | None = None
                    ) -> list[tuple[npt.NDArray[np.float32], float]]:
        scale = self.params.work_width / 640  # (the frames here are 640 px wide)
        return [(q, s) for q, s in super()._candidates(small, levels=levels, area=area)
                if not _on(q / scale, self.hide)]


def _on(corners: npt.NDArray[np.float32], truth: npt.NDArray[np.float32]) -> bool:
    """Are ``corners`` those of the card at ``truth`` (each within a tenth of its side)?"""
    side = float(np.linalg.norm(truth[1] - truth[0]))
    return min(float(np.abs(np.roll(truth, -r, axis=0) - corners).max())
               for r in range(4)) < 0.1 * side


_PILES: dict[str, tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32]]] = {}


def _pile_63(deck: Deck) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32]]:
    """(Drawn once per deck.) The pile of the bench's frame 63 (seed 1000: item i38 on i33,
    a dark table, its light, noise and JPEG), drawn 120 px lower: wholly in the frame."""
    if deck.id in _PILES:
        return _PILES[deck.id]
    seed = 1038339562  # (that frame's seed in the bench's run)
    table = SimulatedTable(deck, seed=seed, conditions=Conditions.random(random.Random(seed)))
    table.place("i33", Pose(538.9, 192.2, angle=334.2, width=96.9))
    table.place("i38", Pose(512.7, 216.0, angle=89.0, width=92.7))
    truth = next(t.corners for t in table.truth() if t.card_id == "i38")
    _PILES[deck.id] = table.capture().image, truth
    return _PILES[deck.id]


_MATCHERS: dict[str, DeckMatcher] = {}


def _recognised_at(deck: Deck, finder: CardFinder, image: npt.NDArray[np.uint8],
                   truth: npt.NDArray[np.float32], card_id: str) -> bool:
    if deck.id not in _MATCHERS:
        _MATCHERS[deck.id] = DeckMatcher.from_deck(deck)
    matcher = _MATCHERS[deck.id]
    return any(m.card_id == card_id and _on(card.corners, truth)
               for card, m in recognise(finder, matcher, image))


def _shaken(image: npt.NDArray[np.uint8], k: int) -> npt.NDArray[np.uint8]:
    """``image`` shifted by -3..3 grey levels, with 0..3 levels of noise per pixel (``k``: which
    of those; 0 is the image as drawn)."""
    offset, spread = ((k % 7) - 3 if k else 0), k % 4
    noise = np.random.default_rng(k).integers(-spread, spread + 1, size=image.shape)
    out: npt.NDArray[np.uint8] = np.clip(image.astype(np.int16) + offset + noise, 0,
                                         255).astype(np.uint8)
    return out


#: Frames of the pile shaken by up to 3 grey levels (``_shaken``), and how many of them may
#: lose the top card. A real table shows a new frame every 33 ms, and a card the watcher missed
#: is searched again in the next frames; so what must hold is that nearly every frame finds
#: it, not one frame's last bit of rounding. Measured, 100 such frames: OpenCV 5.0 lost none
#: (either finder below); the Pi's OpenCV 4.11 lost 5 with the finder, 7 with the top card's
#: outline withheld. (Bench frame 63 itself, whose pile the top of the frame cuts, lost it in
#: 26 of 200 frames shaken by +-3 levels: on arm64, one rounding lost it: see docs/arm64.md.)
_SHAKEN = 30
_MAY_LOSE = 6


def test_paper_no_card_covers_is_searched_again(demo_decks: DemoDecks) -> None:
    # An item card on another, where no outline of the top card is found at all: its paper,
    # which no card found covers, is searched again (``CardFinder.find_near``, keypoints).
    # Whatever a CPU's rounding (arm64 draws the frame 1-3 grey levels apart here and there).
    deck = demo_decks("something-missing-items")
    image, truth = _pile_63(deck)
    blind = _Blind(deck.size, truth)
    assert not any(_on(c.corners, truth) for c in blind.find(image))
    assert any(contains(box, truth) for box in blind.unexplained)
    lost = [k for k in range(_SHAKEN) if not _recognised_at(
        deck, _Blind(deck.size, truth), _shaken(image, k), truth, "i38")]
    assert len(lost) <= _MAY_LOSE, lost


def test_the_top_card_of_the_pile_is_found_whatever_the_rounding(
        demo_decks: DemoDecks) -> None:
    # The same frames with the finder as it is (outline found or not, as the noise falls).
    deck = demo_decks("something-missing-items")
    image, truth = _pile_63(deck)
    lost = [k for k in range(_SHAKEN) if not _recognised_at(
        deck, CardFinder(deck.size), _shaken(image, k), truth, "i38")]
    assert len(lost) <= _MAY_LOSE, lost


def _table(*rects: tuple[int, int, int, int]) -> npt.NDArray[np.uint8]:
    img = np.full((480, 640), 60, dtype=np.uint8)
    for x, y, w, h in rects:
        cv2.rectangle(img, (x, y), (x + w, y + h), 230, -1)
    return img


def test_unexplained_paper_is_the_paper_no_card_found_covers() -> None:
    finder = CardFinder((100, 140))
    # A card (100x140) and a white shape of no card's proportions (250x60).
    img = _table((80, 100, 100, 140), (330, 300, 250, 60))
    (card,) = finder.find(img)
    assert abs(card.centre[0] - 130) < 3
    (box,) = finder.unexplained
    assert box[:, 0].min() <= 331 and box[:, 0].max() >= 579
    assert box[:, 1].min() <= 301 and box[:, 1].max() >= 359
    # Only the card: nothing left over.
    finder.find(_table((80, 100, 100, 140)))
    assert finder.unexplained == []
    # Specks of paper smaller than a card are nothing either.
    finder.find(_table((80, 100, 100, 140), (400, 300, 20, 20)))
    assert finder.unexplained == []


def test_a_part_of_the_frame_with_known_cards_cut_by_its_border() -> None:
    finder = CardFinder((100, 140))
    img = _table((80, 100, 100, 140), (400, 300, 100, 140))
    card = np.array([[80, 100], [180, 100], [180, 240], [80, 240]], dtype=np.float32)
    # The part searched cuts the first card: it is not reported (not wholly inside) ...
    assert finder.find(img, (0, 0, 150, 480)) == []
    # ... and its paper there is unexplained, unless the card is known to lie there.
    assert len(finder.unexplained) == 1
    assert finder.find(img, (0, 0, 150, 480), known=[card]) == []
    assert finder.unexplained == []
    # The second card, wholly inside the part searched, is found in frame coordinates.
    (found,) = finder.find(img, (300, 200, 640, 480), known=[card])
    assert abs(found.centre[0] - 450) < 3 and abs(found.centre[1] - 370) < 3
    assert finder.unexplained == []


def test_paper_left_over_beside_well_found_cards_is_unexplained() -> None:
    # Three cards with big dark pictures, found whole, and paper of no card's shape beside
    # them: less paper in all than the three cards' areas, for they are paper only in part.
    # (As in frame 52 of the Eselsbruecke tuning frames, a pile beside three cards; OpenCV
    # versions differ on what they find in that frame, so it is drawn here.)
    img = _table((40, 40, 100, 140), (200, 40, 100, 140), (360, 40, 100, 140),
                 (100, 300, 200, 80))
    for x in (40, 200, 360):
        cv2.rectangle(img, (x + 10, 55), (x + 90, 165), 60, -1)
    finder = CardFinder((100, 140))
    assert len(finder.find(img)) == 3
    (box,) = finder.unexplained
    assert box[:, 0].min() <= 101 and box[:, 0].max() >= 299


def _at(cards: list[FoundCard], centre: tuple[float, float]) -> FoundCard | None:
    """The card of ``cards`` centred within 3 px of ``centre``, if any."""
    return next((c for c in cards if abs(c.centre[0] - centre[0]) < 3
                 and abs(c.centre[1] - centre[1]) < 3), None)


def test_straight_edges_are_searched_for_a_pile_beside_cards_of_little_paper() -> None:
    # Three cards with big dark pictures (paper only in part) and a pile: the top card's
    # outline runs into the card below, so often only its straight edges give it. The paper
    # the three cards leave over is the pile, though the three cards' areas add up to more
    # than all the paper in the frame: the straight edges must still be searched.
    # Over shaken frames (``_shaken``): which path gives the top card is a knife edge (as drawn,
    # the straight edges on amd64, neither on arm64's OpenCV 4.11; shaken, the outline about
    # half the time), so the test holds the outcome in nearly every frame, and the straight
    # edges giving it in some.
    img = _table((40, 40, 100, 140), (200, 40, 100, 140), (360, 40, 100, 140))
    for x in (40, 200, 360):
        cv2.rectangle(img, (x + 10, 55), (x + 90, 165), 60, -1)
    cv2.rectangle(img, (470, 280), (570, 420), 215, -1)  # the card below
    top = cv2.boxPoints(((500.0, 340.0), (100.0, 140.0), 25.0))
    cv2.fillPoly(img, [np.rint(top).astype(np.int32)], 245)
    cv2.circle(img, (500, 340), 28, 90, -1)  # its picture
    found = straight = 0
    for k in range(_SHAKEN):
        frame = _shaken(img, k)
        finder = CardFinder((100, 140))
        cards = finder.find(frame)
        assert sum(c.centre[1] < 250 for c in cards) == 3  # the three cards, every time
        card = _at(cards, (500, 340))
        # what the tracker does where ``find`` leaves paper unexplained: the straight edges
        # around it (``find_near``; on arm64's OpenCV 4.11 the top card came that way in
        # about half the shaken frames)
        for box in ([] if card is not None else finder.unexplained):
            card = card or _at(finder.find_near(frame, box), (500, 340))
        if card is not None:
            found += 1
            straight += card.straight or not any(card is c for c in cards)
    assert found >= _SHAKEN - _MAY_LOSE, f"the pile's top card found in {found} of {_SHAKEN}"
    assert straight >= 3, f"the straight edges gave it in {straight} of {found}"


def test_a_pile_top_card_beside_three_cards_is_found(demo_decks: DemoDecks) -> None:
    # The same in a bench frame: a tile on a tile at the top right, three tiles elsewhere.
    deck = demo_decks("eselsbruecke")
    assert _found(deck, _bench_frame(deck, 61), "k021")


def test_a_pile_alone_in_the_frame_is_searched_by_keypoints(demo_decks: DemoDecks) -> None:
    # No card of the frame is recognised, so no card's size says the loose box around the
    # pile is too big for one card; the card below sticking out of it does.
    deck = demo_decks("eselsbruecke")
    assert _found(deck, _bench_frame(deck, 142), "k028")


def test_a_card_aligned_to_a_wrong_candidate_keeps_its_other_outlines(
        demo_decks: DemoDecks) -> None:
    # A loose box around a pile is aligned to its best candidates, none of them the top
    # card; the best of those became the card. It keeps the outlines that gave way to it
    # (FoundCard.others), so it is still searched by keypoints, which place the top card.
    deck = demo_decks("wink")
    assert _found(deck, _bench_frame(deck, 54), "w35")


def test_a_box_a_few_pixels_off_is_aligned_to_the_card_its_keypoints_name(
        demo_decks: DemoDecks) -> None:
    # A lone tile light on a light table, its box 5 px off: the tile's id is not among the
    # candidates the matcher aligns it to, and the keypoints' homography there is too
    # skewed to count. The keypoints still name the tile; aligned from the box to that tile
    # it is recognised (frame 147 of a second tuning run, seed 1001).
    deck = demo_decks("eselsbruecke")
    assert _found(deck, _bench_frame(deck, 147, seed=1001), "k009")


def test_a_top_card_much_smaller_than_the_card_below_is_tried(demo_decks: DemoDecks) -> None:
    # A tile on a tile a fifth bigger (the bench draws each card's size on its own): the top
    # tile's outline has under half the area of the outline around both, yet it is the card
    # (frame 24 of a third tuning run, seed 1002).
    deck = demo_decks("eselsbruecke")
    assert _found(deck, _bench_frame(deck, 24, seed=1002), "k051")


def test_an_outline_recognised_too_weakly_is_aligned(demo_decks: DemoDecks) -> None:
    # The top tile's outline, a few pixels off, is recognised at 0.82: enough for the deck's
    # thresholds, too weak for an outline found near a loose box. Aligned to the tile it
    # scores 0.98 (frame 84 of seed 1002).
    deck = demo_decks("eselsbruecke")
    assert _found(deck, _bench_frame(deck, 84, seed=1002), "k123")


def test_a_loose_box_that_looks_like_no_card_still_tries_its_other_outlines(
        demo_decks: DemoDecks) -> None:
    # A scene card on another copy of itself: the loose box around both scores 0.14 (no card
    # at all), but one of the outlines that gave way to it is the top card, at 0.97 (frame 53
    # of a fourth tuning run, seed 1003).
    deck = demo_decks("something-missing-scenes")
    assert _found(deck, _bench_frame(deck, 53, seed=1003), "s13")


def _image(name: str) -> npt.NDArray[np.uint8]:
    image = cv2.imread(str(DATA / name))
    assert image is not None, f"{DATA / name} is missing or unreadable"
    return np.asarray(image, dtype=np.uint8)


def _recognised(deck: Deck, image: npt.NDArray[np.uint8],
                card_area: float = 0.0) -> list[tuple[str | None, float]]:
    finder, matcher = CardFinder(deck.size), DeckMatcher.from_deck(deck)
    return [(m.card_id, m.score) for _, m in recognise(finder, matcher, image,
                                                       card_area=card_area)]


# Two frames of the centre-pile trial (tuning seeds) as OpenCV 4.11 renders the simulated
# table (the Pi's OpenCV; 5.0 renders them a little otherwise), cut to the pile. Recognition
# is the same on both versions for the same image; these failed on both.


def test_the_matchers_guesses_are_tried_where_the_keypoints_vote_misses_the_top_card(
        demo_decks: DemoDecks, monkeypatch: pytest.MonkeyPatch) -> None:
    # Seed 1002, pile 6, the fifth card (i36): its outline is found a few pixels inside on
    # two sides (0.64, best i30) and its keypoints vote for three other cards. The matcher
    # ranks i36 4th for that outline; tried, the keypoints place it (17 inliers), 0.99.
    deck = demo_decks("something-missing-items")
    image = _image("pile-vote-misses-top-card.png")
    got = _recognised(deck, image)
    # named, and clearly (0.99 on OpenCV 5.0, 0.94 with 5.1's keypoints and the aligned
    # similarity start): the verdict is what is tested, not the last hundredth of its score
    # (on arm64, Trixie's numpy 2.2 + OpenCV 5.1, the finder also gives two outlines of the
    # cards below, left unknown: an unknown is never a wrong card; docs/arm64.md)
    named = [(c, s) for c, s in got if c is not None]
    assert [c for c, _ in named] == ["i36"] and named[0][1] >= 0.9
    # the vote alone: on OpenCV 5.0 it missed i36; with the aligned similarity start (5.1)
    # and the bowed-edge outline it may place it as well. Never another card.
    monkeypatch.setattr(tracker, "_KP_HINTS", 0)
    assert {c for c, _ in _recognised(deck, image) if c is not None} <= {"i36"}


def test_a_loose_box_around_a_pile_is_told_by_the_size_of_the_cards_seen_before(
        demo_decks: DemoDecks) -> None:
    # Seed 1003, pile 10, the fifth card (i59): only a loose box around the whole pile is
    # found (0.27), with table all round it and no other card recognised in the frame to
    # compare its size with. The cards seen before on this table were about 12000 px².
    deck = demo_decks("something-missing-items")
    image = _image("pile-loose-box-alone.png")
    assert [c for c, _ in _recognised(deck, image)] == [None]
    got = _recognised(deck, image, card_area=12000.0)
    assert [c for c, _ in got] == ["i59"] and got[0][1] >= 0.95


def test_the_watcher_remembers_the_size_of_the_cards_it_recognised(
        demo_decks: DemoDecks) -> None:
    deck = demo_decks("something-missing-items")
    table = SimulatedTable(deck, seed=3, conditions=Conditions.clean("wood"))
    watcher = CardWatcher(deck)
    watcher.process(table.capture())
    assert watcher.card_area == 0.0  # nothing recognised yet
    table.place("i10", Pose(200, 240, angle=20, width=100))
    table.place("i20", Pose(440, 240, angle=-10, width=110))
    watcher.process(table.capture())
    areas = [abs(cv2.contourArea(t.corners)) for t in table.truth()]
    assert min(areas) * 0.95 <= watcher.card_area <= max(areas) * 1.05
    table.clear()
    for _ in range(3):
        watcher.process(table.capture())
    assert watcher.card_area > 0.0  # (kept while no card is recognised)
