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
check compares, side by side, the outermost ``BORDER_OUT`` of the template with the strip
just inside it (``BORDER_IN``): a side whose outer strip is much darker or differs in colour
from its inner strip holds something that is not the card.

:func:`recut`: a template with such a border is cut again from the card found inside it
(the card's own edge, a few pixels in); None where no card is found there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.find import CardFinder, FindParams, Image, check_image, warp_card

FloatArray = npt.NDArray[np.float32]

#: The strips compared by :func:`border_problem`, as fractions of the template's short side.
BORDER_OUT = 0.025
BORDER_IN = (0.04, 0.08)
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
    params = replace(find or FindParams(), work_width=min(1280, small.shape[1]),
                     min_area_frac=0.2 / n, max_area_frac=min(0.9, 2.0 / n))
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


def _strip_stats(img: Image, lo: float, hi: float) -> list[tuple[FloatArray, FloatArray]]:
    """For each side (top, right, bottom, left): per position along it, the median grey and
    median colour (Lab) of the strip from ``lo`` to ``hi`` (fractions of the short side)
    in from the edge."""
    h, w = img.shape[:2]
    s = min(h, w)
    a, b = max(0, round(lo * s)), max(1, round(hi * s))
    b = max(b, a + 1)
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    grey = lab[:, :, 0]
    strips = [(grey[a:b, :], lab[a:b, :]), (grey[:, w - b:w - a].T, lab[:, w - b:w - a]
                                            .transpose(1, 0, 2)),
              (grey[h - b:h - a, :], lab[h - b:h - a, :]),
              (grey[:, a:b].T, lab[:, a:b].transpose(1, 0, 2))]
    return [(np.median(g, axis=0).astype(np.float32), np.median(c, axis=0).astype(np.float32))
            for g, c in strips]


def border_problem(template: Image) -> str | None:
    """What is wrong with the border of ``template`` (BGR), or None if it looks like a card's
    own edge all round (see the module docstring)."""
    img = check_image(template, "template")
    if img.ndim == 2:
        img = np.asarray(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    outer = _strip_stats(img, 0.0, BORDER_OUT)
    inner = _strip_stats(img, *BORDER_IN)
    sides = ("top", "right", "bottom", "left")
    bad: list[str] = []
    for name, (go, co), (gi, ci) in zip(sides, outer, inner, strict=True):
        n = len(go)
        ends = max(1, int(0.08 * n))  # (the rounded corners: their table is expected)
        darker = (gi - go)[ends:n - ends] > BORDER_DARKER
        colour = np.linalg.norm((co - ci)[ends:n - ends, 1:], axis=1) > BORDER_COLOUR
        share = float(np.mean(darker | colour)) if n > 2 * ends else 0.0
        if share > BORDER_SHARE:
            bad.append(f"{name} ({100 * share:.0f} %)")
    if not bad:
        return None
    return ("its border holds something that is not the card (table or another card) along "
            f"the {', '.join(bad)} side(s): the outline was cut too large")


def recut(template: Image, size: tuple[int, int], find: FindParams | None = None
          ) -> Image | None:
    """The card inside a template whose border holds table or another card (its own edge,
    found in the template padded with the table's colour), warped to ``size``; None where
    no such card is found or the re-cut one still fails :func:`border_problem`."""
    img = check_image(template, "template")
    if img.ndim == 2:
        img = np.asarray(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    h, w = img.shape[:2]
    pad = max(4, int(0.1 * min(h, w)))
    edge = np.concatenate([img[0], img[-1], img[:, 0], img[:, -1]]).reshape(-1, 3)
    dark = edge[np.argsort(edge.astype(np.int32).sum(axis=1))[: max(1, len(edge) // 4)]]
    fill = tuple(int(v) for v in np.median(dark, axis=0))
    padded = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=fill)
    params = replace(find or FindParams(), work_width=min(640, padded.shape[1]),
                     min_area_frac=0.3, max_area_frac=0.95)
    found = CardFinder(size, params).find(np.asarray(padded, np.uint8))
    if not found:
        return None
    out = warp_card(np.asarray(padded, np.uint8), found[0].corners, size)
    return None if border_problem(out) is not None else out
