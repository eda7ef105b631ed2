"""The layout check (display/layout.py): no text cut off, no text over other text, no text
across the edge of a panel it does not lie on. It runs over every sample screen, both sizes and
both languages, in test_display_screens.py's ``test_every_screen_fits``; here, that it finds
each kind of fault.

This is what would have caught Eselsbrücke's "Time's up!" running into the first seat's tile
and The Game's end-chart labels on each other after an early stop.
"""

from __future__ import annotations

import pygame

from display.layout import problems
from display.paint import TextRecord


def _rec(text: str, rect: tuple[int, int, int, int],
         box: tuple[int, int, int, int] | None = None) -> TextRecord:
    return TextRecord(text, pygame.Rect(rect), pygame.Rect(box or rect))


def test_the_check_finds_each_kind_of_fault() -> None:
    size = (800, 480)
    # cut off: out of its box, off the screen
    assert [p.kind for p in problems([_rec("a", (0, 0, 50, 20), (0, 0, 40, 20))], size)] == [
        "cut"]
    assert [p.kind for p in problems([_rec("a", (790, 0, 50, 20), (790, 0, 60, 20))], size)] \
        == ["cut"]
    # two texts sharing pixels
    two = [_rec("a", (0, 0, 50, 20)), _rec("b", (40, 10, 50, 20))]
    assert [p.kind for p in problems(two, size)] == ["overlap"]
    assert problems([_rec("a", (0, 0, 50, 20)), _rec("b", (50, 0, 50, 20))], size) == []
    # a panel drawn over part of a text; over all of it (a dialog), it is hidden and fine
    assert [p.kind for p in problems(two[:1], size, fills=[(1, pygame.Rect(30, 0, 50, 50))])] \
        == ["covered"]
    assert problems(two, size, fills=[(1, pygame.Rect(0, 0, 800, 480))]) == []
    # a text across the edge of a tile drawn before it ("Time's up!" on the first seat)
    assert [p.kind for p in problems(two[:1], size, fills=[(0, pygame.Rect(0, 10, 100, 50))])] \
        == ["straddles"]
    # a badge may sit on a quarter of a number, not more; its own mark is allowed
    badge = [(1, pygame.Rect(40, 0, 10, 10))]
    mark = _rec("?", (41, 1, 8, 8))
    assert problems([two[0], mark], size, badges=badge) == []
    assert [p.kind for p in problems([two[0]], size, badges=[(1, pygame.Rect(0, 0, 30, 20))])] \
        == ["covered"]


def test_the_check_finds_a_text_filling_its_tile_or_running_into_one() -> None:
    """Issue 41: 「100」 filled The Game's card tile edge to edge, and 「下降 100→2」 ran
    into the tile beside it; both sample screens now pass, with a margin and a gap."""
    size = (800, 480)
    tile = pygame.Rect(113, 238, 63, 70)
    # the number drawn across the whole tile (1 px either side): tight
    assert [p.kind for p in problems([_rec("100", (113, 259, 62, 28))], size,
                                     fills=[(0, tile)])] == ["tight"]
    # with a margin: fine
    assert problems([_rec("100", (119, 259, 50, 28))], size, fills=[(0, tile)]) == []
    # the row's words ending 5 px before the tile (drawn after them): touches
    words = _rec("下降 100→2", (20, 287, 88, 16))
    assert [p.kind for p in problems([words], size, fills=[(1, tile)])] == ["touches"]
    # 12 px away (more than 1.2 % of the screen's height): fine
    moved = _rec("下降 100→2", (13, 287, 88, 16))
    assert problems([moved], size, fills=[(1, tile)]) == []
    # a tile under a dialog's veil is not beside the dialog's text
    veil = pygame.Rect(0, 0, 800, 480)
    assert problems([words], size, fills=[(0, tile), (0, veil)]) == []


def test_the_check_finds_player_shapes_on_each_other() -> None:
    """Issue 41, round three: the names at the end of a chart's lines piled on one point (the
    lines of players who all ended on the same score, The Game's rows ending together):
    two player shapes sharing pixels are an overlap; apart, or under a dialog, fine."""
    size = (800, 480)
    a, b = pygame.Rect(700, 350, 14, 14), pygame.Rect(700, 356, 14, 14)
    assert [p.kind for p in problems([], size, marks=[(0, a), (0, b)])] == ["overlap"]
    assert problems([], size, marks=[(0, a), (0, b.move(0, 8))]) == []
    assert problems([], size, fills=[(1, pygame.Rect(0, 0, 800, 480))],
                    marks=[(0, a), (0, b)]) == []
