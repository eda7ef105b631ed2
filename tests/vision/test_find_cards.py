"""Card finding on synthetic tables: several cards, any rotation, light and dark tables."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import numpy.typing as npt
import pytest
from synth_core import card_corners, make_card, paste, table

from vision.deck import Deck
from vision.find import CardFinder, FindParams, FoundCard, FrameError, order_corners, warp_card
from vision.simtable import Conditions, Pose, SimulatedTable

SIZE = (200, 300)


def _matches(found: list[FoundCard], truth: npt.NDArray[np.float32], tol: float) -> bool:
    """Is there a found card whose corners equal ``truth`` (TL first, or turned 180°)?"""
    for f in found:
        for roll in (0, 2):
            if float(np.abs(np.roll(truth, -roll, axis=0) - f.corners).max()) <= tol:
                return True
    return False


@pytest.mark.parametrize("light", [False, True])
def test_finds_every_card_at_any_rotation(light: bool) -> None:
    rng = np.random.default_rng(7)
    frame = table(light=light, seed=3)
    truths = []
    for k, (cx, cy) in enumerate([(110, 110), (270, 120), (430, 110), (560, 250),
                                  (120, 340), (300, 350), (450, 370)]):
        c = card_corners((cx, cy), (72, 108), float(rng.uniform(0, 360)))
        paste(frame, make_card(k, SIZE), c)
        truths.append(c)
    found = CardFinder(SIZE).find(frame)
    assert len(found) == len(truths)
    for t in truths:
        # Within 2.5 px on a dark table; on a light one the card's edge is faint next to its
        # printed frame: within 7 % of the short side (matching tolerates that, see test_match).
        assert _matches(found, t, tol=5.0 if light else 2.5), t


@pytest.mark.parametrize("angle", [0, 17, 45, 90, 133, 180, 270, 301])
def test_corner_order_is_consistent(angle: float) -> None:
    frame = table(seed=1)
    c = card_corners((320, 240), (100, 150), angle)
    paste(frame, make_card(3, SIZE), c)
    (found,) = CardFinder(SIZE).find(frame)
    assert _matches([found], c, tol=2.0)
    e = np.linalg.norm(np.roll(found.corners, -1, axis=0) - found.corners, axis=1)
    assert e[0] < e[1]  # first edge is a short edge
    x, y = found.corners[:, 0], found.corners[:, 1]
    assert 0.5 * float(x @ np.roll(y, -1) - y @ np.roll(x, -1)) > 0  # clockwise on screen


def test_cards_close_together_are_separate() -> None:
    frame = table(seed=2)
    truths = [card_corners((200 + i * 86, 240), (80, 120), 0.0) for i in range(3)]
    for k, c in enumerate(truths):
        paste(frame, make_card(10 + k, SIZE), c, shadow=False)
    found = CardFinder(SIZE).find(frame)
    assert len(found) == 3
    for t in truths:
        assert _matches(found, t, tol=2.5)


def test_top_card_of_a_pile_is_found() -> None:
    frame = table(seed=4)
    paste(frame, make_card(20, SIZE), card_corners((300, 240), (100, 150), 10.0))
    top = card_corners((340, 250), (100, 150), 35.0)
    paste(frame, make_card(21, SIZE), top)
    found = CardFinder(SIZE).find(frame)
    assert len(found) == 1  # the card below is not a whole quadrilateral
    assert _matches(found, top, tol=8.0)


def test_empty_and_noisy_tables_have_no_cards() -> None:
    finder = CardFinder(SIZE)
    assert finder.find(table(seed=5)) == []
    assert finder.find(table(light=True, seed=6)) == []
    blobs = table(seed=7)
    rng = np.random.default_rng(0)
    for _ in range(30):  # crumbs, coins, a pen: not card-shaped
        x, y = (int(v) for v in rng.integers(20, 460, 2))
        cv2.circle(blobs, (x, y), int(rng.integers(3, 30)), (230, 230, 230), -1)
    cv2.line(blobs, (30, 400), (300, 330), (240, 240, 240), 9)
    assert finder.find(blobs) == []


def test_square_tiles() -> None:
    frame = table(seed=8)
    c = card_corners((320, 240), (110, 110), 30.0)
    paste(frame, make_card(5, (200, 200)), c)
    (found,) = CardFinder((200, 200)).find(frame)
    best = min(float(np.abs(np.roll(c, -r, axis=0) - found.corners).max()) for r in range(4))
    assert best <= 2.0


def test_warp_recovers_the_card() -> None:
    frame = table(seed=9)
    card = make_card(30, SIZE)
    c = card_corners((300, 230), (120, 180), 0.0)
    paste(frame, card, c)
    (found,) = CardFinder(SIZE).find(frame)
    warped = warp_card(frame, found.corners, SIZE)
    assert warped.shape == (300, 200, 3)
    small_w = cv2.resize(warped, (50, 75), interpolation=cv2.INTER_AREA)
    small_c = cv2.resize(card, (50, 75), interpolation=cv2.INTER_AREA)
    a = small_w.astype(np.float32).ravel() - small_w.mean()
    b = small_c.astype(np.float32).ravel() - small_c.mean()
    assert float(a @ b / np.linalg.norm(a) / np.linalg.norm(b)) > 0.9


def test_order_corners_ignores_input_order() -> None:
    c = card_corners((100, 100), (40, 60), 20.0)
    expected = order_corners(c)
    for perm in ([1, 2, 3, 0], [3, 2, 1, 0], [2, 1, 0, 3]):
        np.testing.assert_allclose(order_corners(c[perm]), expected)


def test_grey_and_high_resolution_frames() -> None:
    frame = table((1280, 960), seed=10)
    c = card_corners((600, 500), (200, 300), 12.0)
    paste(frame, make_card(2, SIZE), c)
    grey = frame.mean(axis=2).astype(np.uint8)
    for f in (frame, grey):
        (found,) = CardFinder(SIZE).find(f)
        assert _matches([found], c, tol=3.0)


@pytest.mark.parametrize(
    ("frame", "message"),
    [
        (np.zeros((480, 640), np.float32), "dtype uint8"),
        (np.zeros((480, 640, 4), np.uint8), "shape"),
        (np.zeros((480,), np.uint8), "shape"),
        (np.zeros((4, 4), np.uint8), "too small"),
        ("frame.png", "numpy array"),
    ],
)
def test_bad_frames_are_a_clear_error(frame: object, message: str) -> None:
    with pytest.raises(FrameError, match=message):
        CardFinder(SIZE).find(frame)


def test_bad_params() -> None:
    with pytest.raises(ValueError, match="work_width"):
        FindParams(work_width=10)
    with pytest.raises(ValueError, match="size"):
        CardFinder((0, 10))


def test_top_card_of_a_pile_of_white_cards_is_found_from_its_straight_edges(
    demo_decks: Callable[[str], Deck],
) -> None:
    # White item cards on white item cards (the flagship game's centre pile): the top card's
    # outline runs into the cards below, so it is no closed contour of its own.
    deck = demo_decks("something-missing-items")
    table = SimulatedTable(deck, seed=2, conditions=Conditions.clean("dark"))
    table.place(deck.ids[0], "centre")
    table.place(deck.ids[1], "centre")
    image = table.capture().image
    top = table.truth()[-1].corners
    found = CardFinder(deck.size).find(image)
    assert _matches_any_turn(found, top, tol=3.0)
    assert not _matches_any_turn(CardFinder(deck.size, FindParams(line_quads=False)).find(image),
                                 top, tol=3.0)


def test_straight_lines_of_the_table_are_no_card(demo_decks: Callable[[str], Deck]) -> None:
    # Wood grain and plank seams make boxes of straight edges; without paper inside they are
    # not cards (and must not swallow the one card there is).
    deck = demo_decks("wink")
    table = SimulatedTable(deck, seed=2, conditions=Conditions.clean("wood"))
    table.place("w01", Pose(300, 250, angle=27, width=150))
    image = cv2.imdecode(cv2.imencode(".jpg", table.capture().image)[1], cv2.IMREAD_COLOR)
    found = CardFinder(deck.size, FindParams(min_area_frac=0.01, max_area_frac=0.98)).find(
        np.asarray(image, dtype=np.uint8))
    assert found and _matches_any_turn(found[:1], table.truth()[0].corners, tol=3.0)
    assert all(f.area < 0.6 * found[0].area for f in found[1:])  # enrolment takes this card


def _matches_any_turn(found: list[FoundCard], truth: npt.NDArray[np.float32],
                      tol: float) -> bool:
    return any(float(np.abs(np.roll(truth, -r, axis=0) - f.corners).max()) <= tol
               for f in found for r in range(4))
