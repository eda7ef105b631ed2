"""The by-hand entry's card picker for the three host buttons: the cards a row can take, laid
on a line of choices (cards and ranges that open) so that every card is a few presses away.

The cards a row can take (playable there, not played yet, in the acting player's hand where
the box dealt it) are laid on a number line, going away from the row's top: the likeliest
first. One of them has the highlight; *next* walks on (away from the top), *back* walks the
other way (round from the first to the last); *confirm* takes a card, or opens a range of
cards, which is laid out the same way (its first card highlighted). The ranges are sized so
that every card is at most ``budget`` presses away, the *confirm* that takes it included: a
choice ``d`` steps from the highlight leaves ``budget - d`` presses, one to open it and the
rest inside (:func:`capacity`). On a row's own line the three likeliest cards are single
choices (1, 2 and 3 presses), the exact 10-back, where it can be played, is one *back* away,
and the farthest cards (round the line's end, on the *back* side) sit in the largest ranges.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

#: The entry panel's own choices that the walk passes after a line's (back out, cancel, and
#: the host menu's button, which the walk puts last): round the line's end, *next* from its
#: last choice passes them before the first.
AFTER = 3



@cache
def capacity(budget: int, dense: bool = False) -> int:
    """The most cards a line of choices can hold when each is at most ``budget`` presses
    away, taking a card one press. On each side, a choice ``d`` steps from the highlight
    holds :func:`capacity` ``(budget - d - 1)`` cards (a range), or one card where that is no
    more. The highlighted choice is the nearest card; ``dense``: a range too (more cards, the
    nearest of them a press further: for the unlikely cards, far from the row's top)."""
    if budget <= 1:
        return max(budget, 0)
    first = _slot(budget, dense) if dense else 1
    return first + 2 * sum(_slot(budget - d, dense) for d in range(1, budget))


def _slot(left: int, dense: bool = False) -> int:
    """The cards one choice can stand for when ``left`` presses remain once it is
    highlighted: one card (``left`` = 1), or a range opened with one of them."""
    return max(1, capacity(left - 1, dense))


@dataclass(frozen=True)
class Pick:
    """One choice on the line: a card (one card) or a range of cards (in the order away from
    the row's top) that opens; ``backward``: the row's exact 10-back; ``dense``: the range
    opens as a dense line (see :func:`capacity`)."""

    cards: tuple[int, ...]
    backward: bool = False
    dense: bool = False

    @property
    def card(self) -> int | None:
        return self.cards[0] if len(self.cards) == 1 else None

    @property
    def span(self) -> tuple[int, int]:
        return self.cards[0], self.cards[-1]


@dataclass(frozen=True)
class Line:
    """The choices of one line in the order *next* walks them, starting from the far end of
    the *back* side (so the highlighted one, ``focus``, has its *back* side before it); every
    card at most ``budget`` presses away."""

    picks: tuple[Pick, ...]
    focus: int
    budget: int

    def cost(self, card: int) -> int | None:
        """The fewest presses that take ``card`` from this line, the highlight on ``focus``
        (moves both ways round the line, one press per range opened, the final *confirm*)."""
        n = len(self.picks) + AFTER
        for i, pick in enumerate(self.picks):
            if card in pick.cards:
                d = min((i - self.focus) % n, (self.focus - i) % n)
                if pick.card is not None:
                    return d + 1
                inner = line_of(pick.cards, dense=pick.dense).cost(card)
                return None if inner is None else d + 1 + inner
        return None


def line_of(cards: Sequence[int], *, likely: int | None = None, backward: int | None = None,
            dense: bool = False) -> Line:
    """The choices for ``cards`` (ordered away from the row's top) in the fewest presses
    ``budget`` that reach every card. A range's own line (``likely`` None): its nearest card
    highlighted (``dense``: see :func:`capacity`). A row's line (``likely`` = k): its first
    ``1 + k`` cards single choices on the *next* side, ``backward`` (the 10-back) one *back*
    away, and its far cards in dense ranges on the *back* side."""
    total = len(cards) + (backward is not None)
    if total == 0:
        return Line((), 0, 0)
    budget = 1
    while sum(map(sum, _sizes(budget, likely, backward is not None, dense))) < total:
        budget += 1
    ahead_sizes, behind_sizes = _sizes(budget, likely, backward is not None, dense)
    far_dense = dense or likely is not None
    ahead: list[Pick] = []
    rest = list(cards)
    for size in ahead_sizes:  # the *next* side: the likeliest cards first
        if not rest:
            break
        ahead.append(Pick(tuple(rest[:size]), dense=dense))
        rest = rest[size:]
    behind: list[Pick] = []  # the *back* side, nearest first: the farthest cards
    if backward is not None:
        behind.append(Pick((backward,), backward=True))
        behind_sizes = behind_sizes[1:]
    for size in behind_sizes:
        if not rest:
            break
        behind.append(Pick(tuple(rest[-size:]), dense=far_dense))
        rest = rest[:-size]
    return Line(tuple(reversed(behind)) + tuple(ahead), len(behind), budget)


def _sizes(budget: int, likely: int | None, backward: bool,
           dense: bool) -> tuple[list[int], list[int]]:
    """The most cards each choice holds: the *next* side (from the highlight on), the *back*
    side (nearest first)."""
    if likely is None:
        ahead = [_slot(budget - d, dense) if (d or dense) else 1 for d in range(budget)]
        return ahead, [_slot(budget - d, dense) for d in range(1, budget)]
    ahead = [1 if d <= likely else _slot(budget - d) for d in range(budget)]
    behind = [1 if (d == 1 and backward) else _slot(budget - d, True) for d in range(1, budget)]
    return ahead, behind
