"""The host's commands in 眨眨眼, whatever they came from (touch, keys, the three buttons), as
engine events.

Host choices (``name``, ``arg``) the screens offer:

- LAYOUT: ``grid`` (arg: the 36 numbers row-major) -- the camera is not working;
- PLACE: ``place`` (arg: (row, col)) for the active player; ``no_place``;
- NAME: ``name_right`` / ``name_wrong`` (arg: the seat the active player pointed at);
- NAME or PLACE: ``accuse`` (arg: the seat who shouted 「我要抓！」 first, the buttons not
  working);
- ACCUSATION: ``accused_right`` / ``accused_wrong`` (arg: (seat, number)); ``withdraw``;
  ``pick_number`` (arg: a number) and ``pick_seat`` only move the screen's selection.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
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
