"""Templates from one photo of several cards laid in a known order, and checks that a
template is a card (issue 30's item 2; issue 28's set-up screens use both).

:func:`cards_in_layout`: a photo of ``rows`` x ``columns`` cards laid as a grid (or a row:
one row) -- each card's template, in reading order (row by row from the top left), so that
the caller names them from the order it asked the user to lay them in. The cards are found
by :class:`vision.find.CardFinder`; each is ordered into its row by where its centre lies,
and the layout must hold exactly as many cards as asked, else :class:`LayoutError` says what
was seen (too few, too many, a row too long).

:func:`border_problem`: what is wrong with a template's border, or None. A template cut from
a photo whose outline was a little too large holds a strip of table (or the edge of a
neighbouring card) along one side; then every card outlined a little too large matches it
better than its own template (issue 30 measured 123 wrong ids from three such templates). A
card's own border is even: its outermost strip looks like the strip just inside it. The
check compares, side by side, the outermost rows of the template with the strip
just inside it (``BORDER_IN``): a side whose outer strip is much darker or differs in colour
from its inner strip holds something that is not the card.

:func:`recut`: a template with a sliver of table along a side is cut again inside it;
one where it reaches deeper (another card, or no card) is refused (None).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.find import CardFinder, FindParams, Image, check_image, warp_card

FloatArray = npt.NDArray[np.float32]

#: The card's paper that :func:`border_depths` compares the border with (fractions of the
#: template's short side in from each edge), and the deepest strip :func:`recut` trims.
BORDER_IN = (0.04, 0.08)
BORDER_MAX = 0.06
#: A side whose border reaches no deeper than this (fraction of the short side; at least a
#: pixel) is clean: a warped outline on the card's edge mixes its outermost pixel with
#: the table.
BORDER_EDGE = 0.01
#: A side fails when its outer strip's median grey is this much below its inner strip's
#: (table or shadow), or its median colour this far from it (another card's print).
BORDER_DARKER = 40.0
BORDER_COLOUR = 45.0
#: ... in more than this share of the side's length (a short nick is a rounded corner).
BORDER_SHARE = 0.25


class LayoutError(ValueError):
    """The photo does not hold the layout asked for (what was seen is in the message)."""


@dataclass(frozen=True)
class LaidCard:
    """One card of a layout: its place (row, column), corners in the photo, template."""

    row: int
    column: int
    corners: FloatArray
    template: Image


def _rows(cards: Sequence[FloatArray]) -> list[list[int]]:
    """Indices of ``cards`` (4x2 corners) grouped into rows: sorted by their centres' y, a
    new row wherever the gap to the next centre is more than half a card's height; each row
    left to right."""
    centres = np.array([c.mean(axis=0) for c in cards], dtype=np.float32)
    heights = [float(c[:, 1].max() - c[:, 1].min()) for c in cards]
    h = float(np.median(heights)) if heights else 0.0
    order = [int(i) for i in np.argsort(centres[:, 1])]
    rows: list[list[int]] = []
    for i in order:
        if rows and centres[i, 1] - float(np.mean(centres[rows[-1], 1])) <= 0.5 * h:
            rows[-1].append(i)
        else:
            rows.append([i])
    return [sorted(r, key=lambda k: float(centres[k, 0])) for r in rows]


def cards_in_layout(image: Image, size: tuple[int, int], rows: int, columns: int,
                    find: FindParams | None = None) -> list[LaidCard]:
    """The ``rows`` x ``columns`` cards of ``image`` (BGR) in reading order, each warped to
    ``size`` (its template). LayoutError where the photo does not show that layout."""
    if rows < 1 or columns < 1:
        raise LayoutError(f"a layout of {rows}x{columns} cards holds no card")
    img = check_image(image, "photo")
    if img.ndim == 2:
        img = np.asarray(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    scale = min(1.0, 1600 / max(img.shape[:2]))
    small = img if scale == 1.0 else np.asarray(
        cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), np.uint8)
    n = rows * columns
    params = replace(find or FindParams(), min_area_frac=0.2 / n,
                     max_area_frac=min(0.9, 2.0 / n))
    found = CardFinder(size, params).find(small)
    quads = [np.asarray(c.corners / np.float32(scale), np.float32) for c in found]
    if len(quads) != n:
        raise LayoutError(f"{len(quads)} card(s) found in the photo, {rows}x{columns} = {n} "
                          "expected: lay the cards apart on a plain table, all in view")
    grouped = _rows(quads)
    if [len(r) for r in grouped] != [columns] * rows:
        raise LayoutError(f"the cards lie in {len(grouped)} row(s) of "
                          f"{', '.join(str(len(r)) for r in grouped)}, not {rows} of {columns}")
    return [LaidCard(r, c, quads[k], warp_card(img, quads[k], size))
            for r, row in enumerate(grouped) for c, k in enumerate(row)]


def border_depths(template: Image) -> list[int]:
    """How deep (px) something that is not the card reaches in from each side (top, right,
    bottom, left) of ``template`` (BGR): the outermost rows of a side, each with more than
    :data:`BORDER_SHARE` of its pixels (its ends, the rounded corners, left out) much darker
    than the card's paper just inside the four sides (:data:`BORDER_IN`, pooled) or far from
    its colour. Counted up
    to :data:`BORDER_MAX` of the short side and one row more (0: a clean side)."""
    img = check_image(template, "template")
    if img.ndim == 2:
        img = np.asarray(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = img.shape[:2]
    s = min(h, w)
    lo, hi = max(1, round(BORDER_IN[0] * s)), max(2, round(BORDER_IN[1] * s))
    deepest = max(1, round(BORDER_MAX * s)) + 1
    sides = [lab, np.ascontiguousarray(np.rot90(lab, 1)), lab[::-1],
             np.ascontiguousarray(np.rot90(lab, -1))]  # each with that side on top
    cores = [side[:, max(1, int(0.08 * side.shape[1])):side.shape[1]
                     - max(1, int(0.08 * side.shape[1]))] for side in sides]
    # The card's paper: the strips just inside all four sides together (a side cut far too
    # large has table there too; the others still have the card's paper).
    paper = np.median(np.concatenate([c[lo:hi].reshape(-1, 3) for c in cores]), axis=0)
    out: list[int] = []
    for core in cores:
        depth = 0
        for row in core[:deepest]:
            darker = paper[0] - row[:, 0] > BORDER_DARKER
            colour = np.linalg.norm(row[:, 1:] - paper[1:], axis=1) > BORDER_COLOUR
            if float(np.mean(darker | colour)) <= BORDER_SHARE:
                break
            depth += 1
        out.append(depth)
    return out


def border_problem(template: Image) -> str | None:
    """What is wrong with the border of ``template`` (BGR), or None if it looks like a card's
    own edge all round (see the module docstring)."""
    depths = border_depths(template)
    h, w = template.shape[:2]
    edge = max(1, round(BORDER_EDGE * min(h, w)))
    bad = [f"{name} ({d} px)" for name, d in zip(("top", "right", "bottom", "left"), depths,
                                                  strict=True) if d > edge]
    if not bad:
        return None
    return ("its border holds something that is not the card (table or another card) along "
            f"the {', '.join(bad)} side(s): the outline was cut too large")


def recut(template: Image, size: tuple[int, int]) -> Image | None:
    """A template whose border holds table or another card, cut again inside it: each side
    trimmed by how deep that reaches (:func:`border_depths`, and a pixel more) and the rest
    resized to ``size``; None where it reaches deeper than :data:`BORDER_MAX` of the short
    side (not a sliver of table: another card, or no card) or the re-cut one still fails."""
    img = check_image(template, "template")
    if img.ndim == 2:
        img = np.asarray(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    h, w = img.shape[:2]
    most = round(BORDER_MAX * min(h, w))
    t, r, b, left = border_depths(img)
    if max(t, r, b, left) > most:
        return None
    cut = img[t + (t > 0):h - b - (b > 0), left + (left > 0):w - r - (r > 0)]
    out = np.asarray(cv2.resize(cut, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)
    return out if border_problem(out) is None else None


def parse_layout(text: str) -> tuple[int, int]:
    """``grid:RxC`` or ``row:N`` -> (rows, columns); ValueError saying what is expected."""
    kind, _, rest = text.strip().lower().partition(":")
    try:
        if kind == "row":
            return 1, int(rest)
        if kind == "grid":
            r, c = rest.split("x")
            return int(r), int(c)
    except ValueError:
        pass
    raise ValueError(f"layout {text!r}: expected grid:RxC (rows x columns) or row:N")
