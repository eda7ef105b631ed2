"""The host's commands in 致命遊戲 The Game, whatever they came from (touch, keys, the three
host buttons), and the by-hand entry of a play when the camera is down.

The by-hand entry is a small form (:class:`Entry`): the row, then the card, picked on a
line of the cards that row can take (:class:`Line`) or typed on the digit pad; the card taken
becomes a ``CardEntered`` (through the table adapter, so a refused entry is flagged like a
refused camera play).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from display.games.the_game.picker import Line, Pick, line_of
from engine.the_game import Direction, NewGame, State

#: The setup form's variant names -> the engine's ("standard" is 什麼不見啦's label key).
VARIANTS = {"normal": "standard", "standard": "standard", "expert": "expert"}


#: the card numbers (the row cards 1 and 100 are never played)
LOWEST, HIGHEST = 2, 99


@dataclass(frozen=True)
class Choices:
    """What a row can take now, as the picker lays it: the cards going away from the top
    (likeliest first) and the exact 10-back (None: not possible)."""

    ahead: tuple[int, ...]
    backward: int | None

    def line(self) -> Line:
        return line_of(self.ahead, likely=2, backward=self.backward)

    @property
    def cards(self) -> frozenset[int]:
        return frozenset(self.ahead) | ({self.backward} if self.backward is not None
                                        else set())


def choices(state: State, row: int) -> Choices:
    """The cards row ``row`` can take in ``state``: playable there (on in its direction, or
    exactly the 10-back), not played yet, and in the acting player's hand where the box
    dealt the hands."""
    rules = state.rules
    pile = state.rows[row]
    pool = set(rules.cards) - state.played
    if state.hands is not None and state.to_act is not None:
        pool &= set(state.hands[state.to_act])
    up = pile.direction is Direction.UP
    ahead = sorted((c for c in pool if (c > pile.top if up else c < pile.top)), reverse=not up)
    back = pile.top - rules.backward_step if up else pile.top + rules.backward_step
    return Choices(tuple(ahead), back if back in pool else None)


@dataclass(frozen=True)
class Entry:
    """The host's by-hand play while the entry panel is open: the row, then the card: on the
    picker's lines (the ranges opened so far, ``opened``) with the host buttons, or typed on
    the digit pad by touch (``digits``, then OK)."""

    row: int | None = None
    opened: tuple[Pick, ...] = ()
    digits: str = ""

    def apply(self, name: str, arg: object) -> Entry:
        if name == "tg.entry.row" and isinstance(arg, int) and 0 <= arg < 4:
            return replace(self, row=arg, opened=())
        if name == "tg.entry.open" and isinstance(arg, tuple) and self.row is not None:
            return self  # (the screen part opens it: it knows the line's cards)
        if name == "tg.entry.up":
            if self.opened:
                return replace(self, opened=self.opened[:-1])
            return replace(self, row=None)
        if name == "tg.entry.digit" and isinstance(arg, int) and 0 <= arg <= 9:
            digits = (self.digits + str(arg))[-2:]
            return replace(self, digits=digits.lstrip("0"))
        if name == "tg.entry.del":
            return replace(self, digits=self.digits[:-1])
        return self

    def line(self, state: State) -> Line | None:
        """The line on screen: the row's, or the range opened last (its cards that the row
        can still take: the table may have moved on while the panel was open)."""
        if self.row is None or not 0 <= self.row < len(state.rows):
            return None
        now = choices(state, self.row)
        for pick in reversed(self.opened):
            still = [c for c in pick.cards if c in now.cards]
            if len(still) > 1:
                return line_of(still, dense=pick.dense)
        return now.line()

    def open(self, state: State, span: tuple[int, int]) -> Entry:
        """The range ``span`` (its first and last card) of the line on screen opened."""
        line = self.line(state)
        if line is None:
            return self
        for pick in line.picks:
            if pick.span == span and pick.card is None:
                return replace(self, opened=(*self.opened, pick))
        return self

    @property
    def card(self) -> int | None:
        return int(self.digits) if self.digits else None


def new_game(names: Sequence[str], colours: Sequence[str], variant: str, start_seat: int,
             at_ms: int) -> NewGame:
    """A game the table deals itself (the box knows the counts, not the hands)."""
    engine_variant = VARIANTS.get(variant)
    if engine_variant is None:
        raise ValueError(f"unknown variant {variant!r} (normal, expert)")
    return NewGame(at_ms=at_ms, names=tuple(names), colours=tuple(colours),
                   variant=engine_variant, start_seat=start_seat)
