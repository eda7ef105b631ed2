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


@dataclass(frozen=True)
class Entry:
    """The host's by-hand play while the entry panel is open."""

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
