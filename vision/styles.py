"""Card styles other than the demo decks', drawn by code: tests of near-twin recognition.

The demo decks' cards each have their own picture; real decks often do not. Each style here is
a deck whose cards differ only in a small part of the face (``tablekeeper bench vision
--styles``, with its thresholds tuned on a tuning seed and reported on a held-out one):

* ``corner-number``: one shared artwork (a landscape of shapes and a frame) on every card, the
  cards told apart by a small number (1-40) in two corners, like a numbered deck over a
  common illustration;
* ``big-number``: a big centred number (1-60) in one ink on plain paper, no other picture;
* ``suits``: playing cards, A-K of four suits (hearts, diamonds, clubs, spades, drawn), a
  corner index and one big suit symbol under the rank: the suit is a small, same-coloured
  difference for hearts/diamonds and clubs/spades;
* ``colour-only``: the same shape in 9 colours (compared in colour);
* ``shading-only``: the same three shapes each solid, striped, empty, dotted, hatched or
  half filled, in one ink (18 cards).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import Path

import cv2
import numpy as np

from vision.deck import CardSpec, Deck, Image
from vision.demo_decks import CARD_SIZE, INK, PAPER, _blank, _frame, _shape, _text, draw_icon

BGR = tuple[int, int, int]
_LT = cv2.LINE_AA


def _rot180(img: Image) -> Image:
    return np.ascontiguousarray(img[::-1, ::-1])


def _artwork() -> Image:
    """The picture every ``corner-number`` card shares."""
    img = _blank(CARD_SIZE, (232, 240, 246))
    _frame(img, (90, 110, 60))
    cv2.rectangle(img, (24, 60), (175, 250), (200, 170, 120), -1)  # sky
    cv2.fillPoly(img, [np.array([[24, 200], [80, 120], [130, 190], [175, 140], [175, 250],
                                 [24, 250]], np.int32)], (70, 120, 80), _LT)  # hills
    cv2.circle(img, (140, 95), 18, (80, 200, 240), -1, _LT)  # sun
    draw_icon(img, 70, 205, 30, "style-artwork")
    cv2.rectangle(img, (24, 60), (175, 250), INK, 1, _LT)
    return img


def corner_number(value: int) -> Image:
    img = _artwork().copy()
    for _ in range(2):
        # A corner index the size of a playing card's (digits a tenth of the card's height).
        cv2.rectangle(img, (18, 16), (66, 56), PAPER, -1)
        _text(img, str(value), (42, 36), (44, 34), INK, weight=0.13, max_scale=1.4)
        img = _rot180(img)
    return img


def big_number(value: int) -> Image:
    img = _blank(CARD_SIZE)
    _frame(img, INK, thickness=2)
    _text(img, str(value), (100, 150), (150, 120), (40, 40, 150), weight=0.16)
    return img


SUITS = ("hearts", "diamonds", "clubs", "spades")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RED: BGR = (40, 30, 190)


def _suit(img: Image, suit: str, cx: float, cy: float, r: float, colour: BGR) -> None:
    c = (round(cx), round(cy))
    if suit == "diamonds":
        pts = np.array([[cx, cy - r], [cx + 0.7 * r, cy], [cx, cy + r], [cx - 0.7 * r, cy]])
        cv2.fillPoly(img, [pts.round().astype(np.int32)], colour, _LT)
    elif suit == "hearts":
        rr = round(0.5 * r)
        cv2.circle(img, (round(cx - 0.45 * r), round(cy - 0.3 * r)), rr, colour, -1, _LT)
        cv2.circle(img, (round(cx + 0.45 * r), round(cy - 0.3 * r)), rr, colour, -1, _LT)
        pts = np.array([[cx - 0.93 * r, cy - 0.15 * r], [cx + 0.93 * r, cy - 0.15 * r],
                        [cx, cy + r]])
        cv2.fillPoly(img, [pts.round().astype(np.int32)], colour, _LT)
    elif suit == "spades":
        rr = round(0.5 * r)
        cv2.circle(img, (round(cx - 0.45 * r), round(cy + 0.2 * r)), rr, colour, -1, _LT)
        cv2.circle(img, (round(cx + 0.45 * r), round(cy + 0.2 * r)), rr, colour, -1, _LT)
        pts = np.array([[cx - 0.93 * r, cy + 0.05 * r], [cx + 0.93 * r, cy + 0.05 * r],
                        [cx, cy - r]])
        cv2.fillPoly(img, [pts.round().astype(np.int32)], colour, _LT)
        stem = np.array([[cx, cy + 0.2 * r], [cx + 0.3 * r, cy + r], [cx - 0.3 * r, cy + r]])
        cv2.fillPoly(img, [stem.round().astype(np.int32)], colour, _LT)
    else:  # clubs
        rr = max(1, round(0.36 * r))
        for dx, dy in ((0.0, -0.45), (-0.45, 0.15), (0.45, 0.15)):
            cv2.circle(img, (round(cx + dx * r), round(cy + dy * r)), rr, colour, -1, _LT)
        stem = np.array([[cx, cy], [cx + 0.3 * r, cy + r], [cx - 0.3 * r, cy + r]])
        cv2.fillPoly(img, [stem.round().astype(np.int32)], colour, _LT)
        cv2.circle(img, c, max(1, round(0.2 * r)), colour, -1, _LT)


def playing_card(rank: str, suit: str) -> Image:
    img = _blank(CARD_SIZE)
    _frame(img, (60, 60, 60), thickness=1)
    colour = _RED if suit in ("hearts", "diamonds") else INK
    for _ in range(2):
        _text(img, rank, (32, 34), (30, 24), colour, weight=0.12, max_scale=1.0)
        _suit(img, suit, 32, 62, 9, colour)
        img = _rot180(img)
    _text(img, rank, (100, 110), (80, 60), colour, weight=0.14)
    _suit(img, suit, 100, 190, 34, colour)
    return img


COLOURS: tuple[tuple[str, BGR], ...] = (
    ("red", (40, 40, 200)), ("orange", (30, 130, 235)), ("yellow", (40, 200, 230)),
    ("green", (60, 160, 50)), ("teal", (150, 150, 30)), ("blue", (190, 90, 30)),
    ("purple", (150, 50, 120)), ("pink", (170, 110, 235)), ("brown", (40, 80, 130)),
)


def colour_card(colour: BGR) -> Image:
    img = _blank(CARD_SIZE)
    _frame(img, INK, thickness=2)
    _shape(img, "hexagon", 100, 150, 62, 0.0, colour, 2)
    return img


SHADINGS = ("solid", "striped", "empty", "dotted", "hatched", "half")
SHAPES = ("ellipse", "diamond", "square")


def _outline(kind: str) -> np.ndarray:
    cx, cy = 100, 150
    pts: np.ndarray
    if kind == "ellipse":
        pts = np.asarray(cv2.ellipse2Poly((cx, cy), (62, 36), 0, 0, 360, 6))
    elif kind == "diamond":
        pts = np.array([[cx, cy - 50], [cx + 70, cy], [cx, cy + 50], [cx - 70, cy]])
    else:
        pts = np.array([[cx - 55, cy - 45], [cx + 55, cy - 45], [cx + 55, cy + 45],
                        [cx - 55, cy + 45]])
    return np.asarray(pts, np.int32)


def shading_card(kind: str, shading: str) -> Image:
    img = _blank(CARD_SIZE)
    _frame(img, INK, thickness=2)
    pts = _outline(kind)
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(mask, [pts], 255, _LT)
    fill = _blank(CARD_SIZE)
    colour: BGR = (120, 60, 40)
    if shading == "solid":
        fill[:] = colour
    elif shading == "striped":
        for x in range(0, CARD_SIZE[0], 10):
            cv2.line(fill, (x, 0), (x, CARD_SIZE[1]), colour, 3, _LT)
    elif shading == "dotted":
        for y in range(0, CARD_SIZE[1], 12):
            for x in range((y // 12) % 2 * 6, CARD_SIZE[0], 12):
                cv2.circle(fill, (x, y), 2, colour, -1, _LT)
    elif shading == "hatched":
        for d in range(-CARD_SIZE[1], CARD_SIZE[0] + CARD_SIZE[1], 18):
            cv2.line(fill, (d, 0), (d + CARD_SIZE[1], CARD_SIZE[1]), colour, 2, _LT)
            cv2.line(fill, (d + CARD_SIZE[1], 0), (d, CARD_SIZE[1]), colour, 2, _LT)
    elif shading == "half":
        fill[:, : CARD_SIZE[0] // 2] = colour
    m = (mask.astype(np.float32) / 255.0)[:, :, None]
    img = np.asarray(img * (1 - m) + fill * m, dtype=np.uint8)
    cv2.polylines(img, [pts], True, colour, 3, _LT)
    return img


def _spec(card_id: str, en: str, value: int | None = None) -> CardSpec:
    return CardSpec(id=card_id, name_zh=en, name_en=en, kind="card", file=f"{card_id}.png",
                    value=value)


def _deck(deck_id: str, en: str, use_colour: bool,
          cards: list[tuple[CardSpec, Image]]) -> Deck:
    return Deck(root=Path(deck_id), id=deck_id, game="styles", title_zh=en, title_en=en,
                demo=True, shape="card", size=CARD_SIZE, use_colour=use_colour,
                cards=tuple(c for c, _ in cards), templates={c.id: img for c, img in cards})


def _corner_number() -> Deck:
    return _deck("style-corner-number", "numbers over shared artwork", True,
                 [(_spec(f"n{v}", str(v), v), corner_number(v)) for v in range(1, 41)])


def _big_number() -> Deck:
    return _deck("style-big-number", "big centred numbers", False,
                 [(_spec(f"b{v}", str(v), v), big_number(v)) for v in range(1, 61)])


def _suits() -> Deck:
    return _deck("style-suits", "playing cards", True,
                 [(_spec(f"{r}-{s}", f"{r} of {s}"), playing_card(r, s))
                  for s in SUITS for r in RANKS])


def _colour_only() -> Deck:
    return _deck("style-colour-only", "one shape, nine colours", True,
                 [(_spec(f"c-{name}", name), colour_card(c)) for name, c in COLOURS])


def _shading_only() -> Deck:
    return _deck("style-shading-only", "one ink, six shadings", False,
                 [(_spec(f"{k}-{s}", f"{s} {k}"), shading_card(k, s))
                  for k in SHAPES for s in SHADINGS])


STYLES: Mapping[str, Callable[[], Deck]] = {
    "corner-number": _corner_number,
    "big-number": _big_number,
    "suits": _suits,
    "colour-only": _colour_only,
    "shading-only": _shading_only,
}


def build_style_deck(name: str) -> Deck:
    try:
        return STYLES[name]()
    except KeyError:
        raise ValueError(f"unknown card style {name!r}; known: {', '.join(STYLES)}") from None


def contact_sheet(deck: Deck, columns: int = 10) -> Image:
    """All of a deck's faces side by side (to look at a style)."""
    w, h = deck.size
    rows = math.ceil(len(deck.ids) / columns)
    out = np.full((rows * h, columns * w, 3), 128, np.uint8)
    for i, cid in enumerate(deck.ids):
        r, c = divmod(i, columns)
        out[r * h:(r + 1) * h, c * w:(c + 1) * w] = deck.template(cid)
    return out
