"""The host's commands in 眨眨眼, whatever they came from (touch, keys, the three buttons), as
engine events.

Host choices (``name``, ``arg``) the screens offer:

- LAYOUT: ``grid`` (arg: the 36 numbers row-major) -- the camera is not working;
- PLACE: ``place`` (arg: (row, col)) for the active player; ``no_place``;
- NAME: ``name_right`` / ``name_wrong`` (arg: the seat the active player pointed at);
- NAME or PLACE: ``accuse`` (arg: the seat who shouted 「我要抓！」 first, the buttons not
  working);
- ACCUSATION: ``accused_right`` / ``accused_wrong`` (arg: (seat, number)); ``withdraw``;
  ``pick_number`` (arg: a number) and ``pick_seat`` only move the screen's selection (see
  :class:`AccusationPick`; ``accused_right`` / ``accused_wrong`` without an arg take it).

The grid by hand is entered cell by cell (:class:`GridEntry`, kept by the screen part until it
is complete): ``grid.pick`` (a number for the lit cell), ``grid.cell`` (light another cell),
``grid.erase``, ``grid.camera`` (fill in what the camera read), then ``grid.done`` makes the
``grid`` choice; ``grid.in_order`` is the grid laid 1-36 row by row.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.core import Event
from engine.wink import (
    AccusationByHand,
    AccusationEntered,
    AccusationWithdrawn,
    GridEntered,
    MarkerPlacedByHand,
    NewGame,
    NoPlacement,
    PartnerNamed,
    Phase,
    State,
    accusation_targets,
)

#: The setup form's variant names: whether one extra card was dealt each (4-7 players).
VARIANTS = ("basic_deal", "extra_card")


def event_for(state: State, name: str, arg: Any, at_ms: int) -> Event | None:
    """The engine event a host choice means in ``state`` (None: it means nothing here)."""
    phase = state.phase
    seat = state.active
    if phase is Phase.LAYOUT and name == "grid" and isinstance(arg, tuple):
        return GridEntered(at_ms=at_ms, numbers=tuple(int(x) for x in arg))
    if phase is Phase.PLACE and seat is not None:
        if name == "place" and isinstance(arg, tuple) and len(arg) == 2:
            return MarkerPlacedByHand(at_ms=at_ms, seat=seat, row=int(arg[0]), col=int(arg[1]))
        if name == "no_place":
            return NoPlacement(at_ms=at_ms, seat=seat)
    if phase is Phase.NAME and name in ("name_right", "name_wrong") and isinstance(arg, int):
        return PartnerNamed(at_ms=at_ms, seat=arg, right=name == "name_right")
    if phase in (Phase.NAME, Phase.PLACE) and name == "accuse" and isinstance(arg, int):
        return AccusationByHand(at_ms=at_ms, seat=arg)
    if phase is Phase.ACCUSATION:
        if (name in ("accused_right", "accused_wrong") and isinstance(arg, tuple)
                and len(arg) == 2):
            return AccusationEntered(at_ms=at_ms, accused=int(arg[0]), number=int(arg[1]),
                                     right=name == "accused_right")
        if name == "withdraw":
            return AccusationWithdrawn(at_ms=at_ms)
    return None


def new_game(names: Sequence[str], colours: Sequence[str], variant: str, start_seat: int,
             at_ms: int, rng: random.Random | None = None) -> NewGame:
    """Start a game; ``extra_card``: one extra card each (4-7 players; else ignored)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    extra = variant == "extra_card" and 4 <= len(names) <= 7
    return NewGame(at_ms=at_ms, names=tuple(names), colours=tuple(colours),
                   start_seat=start_seat, extra_card=extra)


@dataclass(frozen=True)
class GridEntry:
    """The grid entered by hand, cell by cell: ``cells`` row-major (None: not entered yet),
    ``cursor`` the lit cell the next number goes to."""

    cells: tuple[int | None, ...]
    cursor: int = 0

    @classmethod
    def empty(cls, n: int = 36) -> GridEntry:
        return cls(cells=(None,) * n)

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def filled(self) -> int:
        return sum(1 for c in self.cells if c is not None)

    @property
    def complete(self) -> bool:
        return self.filled == self.size

    def unused(self) -> tuple[int, ...]:
        """The numbers 1..size not in the grid yet (the ones the pad offers)."""
        used = set(self.cells)
        return tuple(n for n in range(1, self.size + 1) if n not in used)

    def numbers(self) -> tuple[int, ...] | None:
        """The 36 numbers, once every cell has one."""
        if not self.complete:
            return None
        return tuple(c for c in self.cells if c is not None)

    def _next_empty(self, start: int) -> int:
        """The first empty cell from ``start`` on (wrapping); ``start`` if none is empty."""
        for k in range(self.size):
            i = (start + k) % self.size
            if self.cells[i] is None:
                return i
        return start

    def pick(self, number: int) -> GridEntry:
        """``number`` into the lit cell, replacing what was there (a number already in
        another cell is refused: unchanged); the light moves on to the next empty cell."""
        others = self.cells[:self.cursor] + self.cells[self.cursor + 1:]
        if not 1 <= number <= self.size or number in others:
            return self
        cells = list(self.cells)
        cells[self.cursor] = number
        out = replace(self, cells=tuple(cells))
        return replace(out, cursor=out._next_empty(self.cursor))

    def at(self, cell: int) -> GridEntry:
        """Light ``cell``: the next number picked goes there (replacing its number)."""
        if not 0 <= cell < self.size:
            return self
        return replace(self, cursor=cell)

    def erase(self) -> GridEntry:
        """Take back the number before the lit cell (a slip of the finger)."""
        cells = list(self.cells)
        if cells[self.cursor] is not None:
            cells[self.cursor] = None
            return replace(self, cells=tuple(cells))
        for k in range(1, self.size + 1):
            i = (self.cursor - k) % self.size
            if cells[i] is not None:
                cells[i] = None
                return replace(self, cells=tuple(cells), cursor=i)
        return self

    def prefill(self, seen: Mapping[int, int]) -> GridEntry:
        """Fill the empty cells with what the camera read there (cell -> number), leaving out
        any number read twice or already entered; the light goes to the first empty cell."""
        counts: dict[int, int] = {}
        for n in seen.values():
            counts[n] = counts.get(n, 0) + 1
        cells = list(self.cells)
        for i, n in sorted(seen.items()):
            if (0 <= i < self.size and cells[i] is None and 1 <= n <= self.size
                    and counts[n] == 1 and n not in cells):
                cells[i] = n
        out = replace(self, cells=tuple(cells))
        return replace(out, cursor=out._next_empty(0))


def in_order(n: int = 36) -> tuple[int, ...]:
    """The grid laid 1..n row by row (the host's shortcut when the camera is not working)."""
    return tuple(range(1, n + 1))


@dataclass(frozen=True)
class AccusationPick:
    """The accusation being entered: which number the accuser named, then whom they pointed
    at (None: not picked yet)."""

    number: int | None = None
    seat: int | None = None

    def numbers(self, state: State) -> tuple[int, ...]:
        """The numbers the accuser may name: those under a marker looking for a partner."""
        if state.pending is None:
            return ()
        out: list[int] = []
        for _accused, number in accusation_targets(state, state.pending.seat):
            if number not in out:
                out.append(number)
        return tuple(out)

    def seats(self, state: State, number: int | None = None) -> tuple[int, ...]:
        """The seats the accuser may point at for ``number`` (default: the picked one)."""
        number = self.number if number is None else number
        if state.pending is None or number is None:
            return ()
        return tuple(a for a, n in accusation_targets(state, state.pending.seat) if n == number)

    def valid(self, state: State) -> AccusationPick:
        """This pick, with what no longer makes sense dropped; the only number, if only one
        number is sought, picked at once."""
        numbers = self.numbers(state)
        number = self.number if self.number in numbers else None
        if number is None and len(numbers) == 1:
            number = numbers[0]
        seat = self.seat if number is not None and self.seat in self.seats(
            state, number) else None
        return AccusationPick(number, seat)

    def apply(self, state: State, name: str, arg: Any) -> AccusationPick:
        if name == "pick_number" and isinstance(arg, int):
            return AccusationPick(arg, None).valid(state)
        if name == "pick_seat" and isinstance(arg, int):
            return AccusationPick(self.number, arg).valid(state)
        return self.valid(state)

    def answer_arg(self) -> tuple[int, int] | None:
        """The ``accused_right`` / ``accused_wrong`` argument: (seat, number)."""
        if self.number is None or self.seat is None:
            return None
        return (self.seat, self.number)
