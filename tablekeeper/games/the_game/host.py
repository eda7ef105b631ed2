"""The host's commands in 致命遊戲 The Game, whatever they came from (touch, keys, the three
host buttons), and the by-hand entry of a play when the camera is down.

The by-hand entry is a small form (:class:`Entry`): the row, then the card's digits; ``ok``
makes it a ``CardEntered`` (through the table adapter, so a refused entry is flagged like a
refused camera play).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.the_game import NewGame

#: The setup form's variant names -> the engine's ("standard" is 什麼不見啦's label key).
VARIANTS = {"normal": "standard", "standard": "standard", "expert": "expert"}


#: the card numbers (the row cards 1 and 100 are never played)
LOWEST, HIGHEST = 2, 99


def next_card(top: int, up: bool) -> int:
    """The card a row most likely takes next: one above its top (ascending), one below
    (descending); where the entry's digit wheels start."""
    return max(LOWEST, min(HIGHEST, top + 1 if up else top - 1))


@dataclass(frozen=True)
class Entry:
    """The host's by-hand play while the entry panel is open: the row, then the card, on two
    digit wheels (tens and units; the three host buttons turn them: *confirm* up, *back*
    down) or typed on the digit pad by touch."""

    row: int | None = None
    digits: str = ""

    def apply(self, name: str, arg: object) -> Entry:
        if name == "tg.entry.row" and isinstance(arg, int) and 0 <= arg < 4:
            return replace(self, row=arg)
        if name == "tg.entry.digit" and isinstance(arg, int) and 0 <= arg <= 9:
            digits = (self.digits + str(arg))[-2:]
            return replace(self, digits=digits.lstrip("0"))
        if name == "tg.entry.del":
            return replace(self, digits=self.digits[:-1])
        if name in ("tg.entry.tens", "tg.entry.units"):
            return self.turn(name, +1 if arg is None else int(str(arg)))
        return self

    def start_at(self, card: int) -> Entry:
        return replace(self, digits=str(card))

    def turn(self, wheel: str, step: int) -> Entry:
        """A digit wheel turned by ``step`` (±1), round from 9 to 0 and back."""
        value = self.card or 0
        tens, units = divmod(value, 10)
        if wheel == "tg.entry.tens":
            tens = (tens + step) % 10
        else:
            units = (units + step) % 10
        value = tens * 10 + units
        return replace(self, digits=str(value) if value else "")

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
