"""The layout check: no text cut off, no text drawn over other text.

:class:`display.paint.Painter` records every text blit (its rectangle and the box it had to fit
in). :func:`problems` reads those records of one frame: a text whose rectangle leaves its box
or the screen is cut off; two texts whose rectangles overlap are drawn over each other, unless
the pair is meant to (:data:`ALLOWED`). ``tests/display/test_layout.py`` runs it over every
sample screen (display/samples.py), both sizes and both languages, in the fast tier.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from display.paint import TextRecord

#: The allow-list. A badge (``Painter.fill(..., badge=True)``: Wink's "?"/"!" warning mark on a
#: grid cell) sits on the corner of what it marks, over part of the cell's number, as a phone's
#: notification badge does: allowed while it hides at most this share of the text's rectangle
#: (the number stays readable). The badge's own mark is a text on the badge, as on a button.
BADGE_SHARE = 0.25

#: overlaps of fewer pixels than this (in each direction) are anti-aliasing, not a collision
SLACK_PX = 1
#: a text keeps at least this many pixels from the sides of the tile it lies on, and from a
#: tile beside it
TIGHT_PX = 2
#: ... and a gap of at least this share of the screen's height from a tile beside it
BESIDE_GAP = 0.012


@dataclass(frozen=True)
class Problem:
    kind: str  # "cut" (leaves its box or the screen), "covered" (a later fill hides part of
    # it), "overlap" (two texts share pixels), "straddles" (across a panel's edge), "tight"
    # (to the side of the tile it lies on) or "touches" (against a tile beside it)
    texts: tuple[str, ...]
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {' / '.join(repr(t) for t in self.texts)} ({self.detail})"


def problems(texts: Sequence[TextRecord], size: tuple[int, int], screen: str = "",
             fills: Sequence[tuple[int, pygame.Rect]] = (),
             badges: Sequence[tuple[int, pygame.Rect]] = (),
             marks: Sequence[tuple[int, pygame.Rect]] = ()) -> list[Problem]:
    """What is wrong with one frame's text layout (empty: nothing). ``fills``: the filled
    rectangles drawn, each with how many texts came before it (``Renderer.fills``): a text
    covered by a later fill (a dialog's panel) is hidden and overlaps nothing. ``marks``: the
    player shapes drawn (``Renderer.marks``), which no text may share pixels with either."""
    out: list[Problem] = []
    whole = pygame.Rect((0, 0), size)
    for record in texts:
        if not record.box.contains(record.rect) or not whole.contains(record.rect):
            out.append(Problem("cut", (record.text,),
                               f"drawn {tuple(record.rect)} in box {tuple(record.box)}"))
    hidden = {i for i, record in enumerate(texts)
              if any(n > i and rect.contains(record.rect) for n, rect in fills)}
    for i, record in enumerate(texts):
        if i in hidden:
            continue  # under a dialog's veil or panel, whole: not to be read
        for j, (n, rect) in enumerate(fills):
            if n <= i and any(m <= i and r2.contains(rect) for m, r2 in fills[j + 1:]):
                continue  # a panel itself under a later one (a dialog's veil)
            if n <= i:
                # a panel drawn before the text: the text lies on it whole, or off it
                clip = rect.clip(record.rect)
                if (clip.width > SLACK_PX and clip.height > SLACK_PX
                        and not rect.contains(record.rect)):
                    out.append(Problem("straddles", (record.text,),
                                       f"drawn {tuple(record.rect)} across the edge of "
                                       f"{tuple(rect)}"))
                    break
                continue
            clip = rect.clip(record.rect)
            if clip.width > SLACK_PX and clip.height > SLACK_PX:
                out.append(Problem("covered", (record.text,),
                                   f"drawn {tuple(record.rect)}, then {tuple(rect)} over part"))
                break
    for i, record in enumerate(texts):
        area = record.rect.width * record.rect.height
        for n, rect in badges:
            clip = rect.clip(record.rect)
            if n > i and area and clip.width * clip.height > BADGE_SHARE * area:
                out.append(Problem("covered", (record.text,),
                                   f"a badge {tuple(rect)} hides more than "
                                   f"{BADGE_SHARE:.0%} of it {tuple(record.rect)}"))
    for n, mark in marks:
        if any(m > n and rect.contains(mark) for m, rect in fills):
            continue  # under a dialog
        for i, record in enumerate(texts):
            clip = mark.clip(record.rect)
            if i in hidden or clip.width <= SLACK_PX or clip.height <= SLACK_PX:
                continue
            out.append(Problem("overlap", (record.text, "(a player's shape)"),
                               f"{tuple(record.rect)} and {tuple(mark)} share {tuple(clip)}"))
    # two player shapes on each other (the names at the end of a chart's lines piled on one
    # point): neither can be told
    for k, (n, one) in enumerate(marks):
        for m, other in marks[k + 1:]:
            clip = one.clip(other)
            if clip.width > SLACK_PX and clip.height > SLACK_PX and not any(
                    f > min(n, m) and rect.contains(one.union(other)) for f, rect in fills):
                out.append(Problem("overlap", ("(a player's shape)", "(a player's shape)"),
                                   f"{tuple(one)} and {tuple(other)} share {tuple(clip)}"))
    # A text on a tile keeps a margin from the tile's sides (「100」 filled The Game's card
    # tile edge to edge); a text beside a tile does not run into it (「下降 100→2」 touched the
    # card's tile). The tile a text lies on is the smallest fill drawn before it that holds it.
    beside = max(TIGHT_PX, round(BESIDE_GAP * size[1]))
    for i, record in enumerate(texts):
        if i in hidden or not record.text.strip() or record.rect.width <= 0:
            continue
        under = [rect for j, (n, rect) in enumerate(fills)
                 if n <= i and rect.contains(record.rect)
                 and not any(m <= i and r2.contains(rect) for m, r2 in fills[j + 1:])]
        tile = min(under, key=lambda r: r.width * r.height) if under else None
        if tile is not None and tile.width < whole.width // 2 and min(
                record.rect.left - tile.left, tile.right - record.rect.right) < TIGHT_PX:
            out.append(Problem("tight", (record.text,),
                               f"drawn {tuple(record.rect)} to the side of its tile "
                               f"{tuple(tile)}"))
            continue
        for j, (n, rect) in enumerate(fills):
            if rect is tile or rect.contains(record.rect) or (
                    tile is not None and not tile.colliderect(rect)):
                continue
            if any(m <= max(i, n) and r2.contains(rect) for m, r2 in fills[j + 1:]):
                continue  # under a later panel (a dialog's veil): not beside the text
            if rect.width >= whole.width // 2:
                continue  # a band or a panel, not a tile
            clip = rect.clip(record.rect)
            if clip.width > SLACK_PX and clip.height > SLACK_PX:
                continue  # an overlap: "covered" or "straddles" says so
            vertical = min(record.rect.bottom, rect.bottom) - max(record.rect.top, rect.top)
            gap = max(rect.left - record.rect.right, record.rect.left - rect.right)
            if vertical > record.rect.height // 2 and -SLACK_PX <= gap < beside:
                out.append(Problem("touches", (record.text,),
                                   f"drawn {tuple(record.rect)} against the tile "
                                   f"{tuple(rect)}"))
                break
    shown = [(i, r) for i, r in enumerate(texts) if i not in hidden
             and r.text.strip() and r.rect.width > 0 and r.rect.height > 0]
    for k, (ia, a) in enumerate(shown):
        for ib, b in shown[k + 1:]:
            clip = a.rect.clip(b.rect)
            if clip.width <= SLACK_PX or clip.height <= SLACK_PX:
                continue
            if any(ia < n <= ib and rect.contains(clip) for n, rect in fills):
                continue  # the first is under a panel drawn before the second
            if any(r.contains(a.rect) or r.contains(b.rect) for _, r in badges):
                continue  # a badge's own mark over what it marks (the share is checked above)
            out.append(Problem("overlap", (a.text, b.text),
                               f"{tuple(a.rect)} and {tuple(b.rect)} share {tuple(clip)}"))
    return out

