"""The host's commands in 驢橋, whatever they came from, as engine events.

The screen offers, by phase (touch, keys, or the three host buttons walking the highlight):

- STORY: ``tile_entered`` (a tile laid that the camera did not read; ``arg`` its id, or None
  unnamed), ``withdraw`` (``arg``: a tile the camera misread: it is not in the story), and
  ``story_told`` once every tile is laid and the story is told;
- DEAL: ``dealt`` (the recalled slot's tiles are dealt: the first answer clock starts);
- GUESS: ``answered`` (the guesser's "I have answered", if their seat button is not to hand),
  ``right`` (``arg``: the seat that held the tile named), ``wrong``;
- ROUND_OVER: ``next_round`` (the donkey moves on).

Nothing here is random: the tiles drawn are what the camera (or the host) saw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import Event
from engine.eselsbruecke import (
    AnswerGiven,
    GuessRight,
    GuessWrong,
    NewGame,
    NextRound,
    Phase,
    State,
    StoryTold,
    TileEntered,
    TilesDealt,
    TileWithdrawn,
)

#: The setup form's variant names -> the engine's sides of the boards.
VARIANTS = {"standard": "standard", "normal": "standard", "advanced": "advanced"}


def event_for(state: State, name: str, arg: Any, at_ms: int) -> Event | None:
    """The engine event a host choice means in ``state`` (None: it means nothing here)."""
    phase = state.phase
    if phase is Phase.STORY:
        if name == "tile_entered":
            return TileEntered(at_ms=at_ms, tile=arg if isinstance(arg, str) and arg else None)
        if name == "withdraw" and isinstance(arg, str):
            return TileWithdrawn(at_ms=at_ms, tile=arg)
        if name == "story_told":
            return StoryTold(at_ms=at_ms)
    if phase is Phase.DEAL and name == "dealt":
        return TilesDealt(at_ms=at_ms)
    seat = state.to_act
    if phase is Phase.GUESS and seat is not None:
        if name == "answered":
            return AnswerGiven(at_ms=at_ms, seat=seat)
        if name == "right" and isinstance(arg, int) and not isinstance(arg, bool):
            return GuessRight(at_ms=at_ms, seat=seat, holder=arg)
        if name == "wrong":
            return GuessWrong(at_ms=at_ms, seat=seat)
    if phase is Phase.ROUND_OVER and name in ("next_round", "next"):
        return NextRound(at_ms=at_ms)
    return None


def new_game(names: Sequence[str], colours: Sequence[str], variant: str, start_seat: int,
             at_ms: int) -> NewGame:
    """Start a game on the side of the boards the setup form chose."""
    side = VARIANTS.get(variant)
    if side is None:
        raise ValueError(f"unknown variant {variant!r} (standard, advanced)")
    return NewGame(at_ms=at_ms, names=tuple(names), colours=tuple(colours), side=side,
                   start_seat=start_seat)
