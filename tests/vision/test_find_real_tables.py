"""Finding cards on real tables (issue 16 item 2), one test per condition.

Frames are drawn by ``table_photos`` with each condition at a realistic size (close-ups,
rounded corners, a card touching the frame's edge, white borders on white and light-wood
tables with a soft shadow, glare, sleeves). Card faces are the demo decks' (drawn, with a
white border and a printed frame: the hard case on a light table) and, where
``../shared/data/set-crops`` is present, real photos of SET cards (real card pixels pasted
into a drawn frame; Apache-2.0, never copied into the repository). The finder is the one the
tracker uses (``FindParams()``'s defaults).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import cv2
import numpy as np
import pytest
from table_photos import SET_CROPS, Look, card_corners, corner_error, photo, set_crops

from vision.deck import Deck
from vision.find import CardFinder, FoundCard
from vision.match import DeckMatcher
from vision.tracker import recognise

DemoDecks = Callable[[str], Deck]
Case = tuple[str, np.ndarray, tuple[int, int], np.ndarray, Look]

needs_set_crops = pytest.mark.skipif(
    not (SET_CROPS / "labels.csv").is_file(),
    reason=f"the real SET photos are not at {SET_CROPS} (set TABLEKEEPER_SET_CROPS, or put "
           "../shared/data/set-crops beside the checkout: see its SOURCE.md)")


def _faces(deck: Deck, n: int) -> list[tuple[str, np.ndarray]]:
    ids = list(deck.ids)
    return [(ids[k * 7 % len(ids)], deck.template(ids[k * 7 % len(ids)])) for k in range(n)]


def _set_faces(n: int) -> list[tuple[str, np.ndarray]]:
    """Real SET photos, their paper brought to about 240 grey (as white card paper under the
    table's light: the photos were taken in dim light)."""
    crops = set_crops()
    out = []
    for k in range(n):
        cid, path = crops[k * 131 % len(crops)]
        face = np.asarray(cv2.imread(str(path)), np.float32)
        out.append((cid, np.clip(face * (240 / np.percentile(face, 95)), 0, 255).astype(
            np.uint8)))
    return out


def _found(finder: CardFinder, image: np.ndarray) -> list[FoundCard]:
    return finder.find(image)


def _errors(finder: CardFinder, cases: Iterator[Case]) -> list[float]:
    """Per case, the largest corner error (px) of the one card found (inf: none, or more)."""
    out = []
    for k, (_, face, size, corners, look) in enumerate(cases):
        found = _found(finder, photo(face, size, corners, look, seed=k))
        out.append(corner_error(found[0].corners, corners) if len(found) == 1 else np.inf)
    return out


def _close_ups(faces: list[tuple[str, np.ndarray]], width: float) -> Iterator[Case]:
    rng = random.Random(1)
    for cid, face in faces:
        # About 440x630 px in a 640x640 photo, a few px from its top and bottom edges.
        c = card_corners((320 + rng.uniform(-40, 40), 320), width, 630, rng.uniform(-0.3, 0.3))
        yield cid, face, (640, 640), c, Look("dark", radius=0.05)


def test_a_card_filling_most_of_a_close_up(demo_decks: DemoDecks) -> None:
    for name in ("the-game", "wink", "something-missing-items"):
        deck = demo_decks(name)
        finder = CardFinder(deck.size)
        errors = _errors(finder, _close_ups(_faces(deck, 6), 440))
        assert max(errors) <= 3.0, (name, errors)  # (3 px: 0.7 % of the card's width)


def test_a_close_up_is_recognised(demo_decks: DemoDecks) -> None:
    deck = demo_decks("wink")
    finder, matcher = CardFinder(deck.size), DeckMatcher.from_deck(deck)
    for cid, face, size, corners, look in _close_ups(_faces(deck, 6), 440):
        seen = recognise(finder, matcher, photo(face, size, corners, look))
        assert [m.card_id for _, m in seen] == [cid]


@needs_set_crops
def test_a_real_card_filling_most_of_a_close_up() -> None:
    errors = _errors(CardFinder((200, 300)), _close_ups(_set_faces(12), 410))
    assert max(errors) <= 3.0, errors


def _touching(faces: list[tuple[str, np.ndarray]], width: float, height: float
              ) -> Iterator[Case]:
    for k, (cid, face) in enumerate(faces):
        # The card's left (or top) edge 0-1 px from the frame's edge.
        if k % 2:
            c = card_corners((width / 2 + 0.5 * (k % 3), 240), width, height, 0)
        else:
            c = card_corners((320, height / 2 + 0.5 * (k % 3)), width, height, 0)
        yield cid, face, (640, 480), c, Look("cloth" if k % 3 else "dark")


def test_a_card_touching_the_frames_edge(demo_decks: DemoDecks) -> None:
    deck = demo_decks("the-game")
    errors = _errors(CardFinder(deck.size), _touching(_faces(deck, 8), 120, 180))
    assert max(errors) <= 2.0, errors


@needs_set_crops
def test_a_real_card_touching_the_frames_edge() -> None:
    errors = _errors(CardFinder((200, 300)), _touching(_set_faces(8), 120, 187))
    # (One may be taken for a card cut by the frame: SET's proportions are 4 % off the
    # deck's 2:3, and a card at the border must be within 6 % of them.)
    assert sum(e <= 2.5 for e in errors) >= 7, errors


def test_a_card_cut_by_the_frame_is_still_not_reported(demo_decks: DemoDecks) -> None:
    deck = demo_decks("the-game")
    finder = CardFinder(deck.size)
    for k, (_, face) in enumerate(_faces(deck, 6)):
        cut = 0.15 + 0.05 * k  # of the card's width beyond the frame's left edge
        c = card_corners((60 - cut * 120, 240), 120, 180, 0)
        found = finder.find(photo(face, (640, 480), c, Look("cloth"), seed=k))
        # (A picture on it may come out as a small card-shaped thing, as before: that is
        # what the tracker's size check and matching are for.)
        assert all(f.area < 0.3 * 120 * 180 for f in found), (k, found)


def _light_tables(faces: list[tuple[str, np.ndarray]], table: str, width: float,
                  height: float) -> Iterator[Case]:
    rng = random.Random(3)
    for cid, face in faces:
        c = card_corners((320 + rng.uniform(-100, 100), 240 + rng.uniform(-50, 50)), width,
                         height, rng.uniform(0, 360))
        yield cid, face, (640, 480), c, Look(table, shadow=0.12)


@pytest.mark.parametrize("table", ["white", "wood"])
def test_a_white_bordered_card_on_a_light_table_is_found_by_its_edge(
        demo_decks: DemoDecks, table: str) -> None:
    """The card's paper a dozen grey levels above the table, a soft shadow on two sides:
    the outline is the card's edge, not its printed frame (5-8 px inside it here)."""
    for name in ("the-game", "wink"):
        deck = demo_decks(name)
        errors = _errors(CardFinder(deck.size), _light_tables(_faces(deck, 12), table, 120,
                                                               180))
        good = sum(e <= 2.5 for e in errors)
        assert good >= 9, (name, table, errors)  # (before this finder: 0 of 12 on white)


def test_on_a_light_table_the_card_is_recognised(demo_decks: DemoDecks) -> None:
    deck = demo_decks("the-game")
    finder, matcher = CardFinder(deck.size), DeckMatcher.from_deck(deck)
    named = 0
    for k, (cid, face, size, corners, look) in enumerate(
            _light_tables(_faces(deck, 12), "white", 120, 180)):
        seen = recognise(finder, matcher, photo(face, size, corners, look, seed=k))
        assert all(m.card_id in (None, cid) for _, m in seen)  # never another card
        named += [m.card_id for _, m in seen] == [cid]
    assert named >= 11


@needs_set_crops
@pytest.mark.parametrize("table", ["white", "wood"])
def test_a_real_card_on_a_light_table(table: str) -> None:
    """Real SET cards (no printed frame; paper ~240 against a table at ~225): the floor
    measured, not a target met (some are not found at all: docs/vision.md)."""
    errors = _errors(CardFinder((200, 300)), _light_tables(_set_faces(12), table, 120, 187))
    # found: by its edge, or a few px off where the edge against the table is faint (OpenCV
    # 4.11 finds one 6 px off that 5.0 does not find at all)
    assert all(e <= 8.0 or e == np.inf for e in errors), errors
    assert sum(e <= 5.0 for e in errors) >= (9 if table == "white" else 11), errors


def test_a_glossy_card_with_a_glare_spot(demo_decks: DemoDecks) -> None:
    deck = demo_decks("wink")
    rng = random.Random(4)
    cases = ((cid, face, (640, 480),
              card_corners((320, 240), 130, 195, rng.uniform(0, 360)),
              Look("cloth" if k % 2 else "dark", glare=110)) for k, (cid, face) in
             enumerate(_faces(deck, 10)))
    errors = _errors(CardFinder(deck.size), cases)
    assert max(errors) <= 1.5, errors


def test_a_card_in_a_sleeve(demo_decks: DemoDecks) -> None:
    """A clear sleeve 2-2.5 % bigger than the card, its rim catching light: the outline is
    the sleeve's (its edge is the strong one), and the card in it is recognised (the matcher
    aligns a loose outline by what is printed)."""
    deck = demo_decks("the-game")
    finder, matcher = CardFinder(deck.size), DeckMatcher.from_deck(deck)
    rng = random.Random(5)
    named = 0
    for k, (cid, face) in enumerate(_faces(deck, 12)):
        corners = card_corners((320, 240), 130, 195, rng.uniform(0, 360))
        image = photo(face, (640, 480), corners,
                      Look("cloth" if k % 2 else "wood", sleeve=True), seed=k)
        found = finder.find(image)
        assert len(found) == 1 and corner_error(found[0].corners, corners) <= 7.0
        seen = recognise(finder, matcher, image)
        assert all(m.card_id in (None, cid) for _, m in seen)
        named += [m.card_id for _, m in seen] == [cid]
    assert named >= 11
