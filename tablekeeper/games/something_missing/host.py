"""The host's commands in 什麼不見啦, whatever they came from, as engine events.

The host acts through three equal channels: the touch screen (or a mouse), the keyboard, and
the three GPIO host buttons (confirm / back / next). The screen turns touches and keys into
:class:`display.input.HostAction` values; the GPIO buttons arrive as
:class:`firmware.devices.HostPress`. Both end here:

- a touch or a shortcut names its choice directly (``bet`` on scene B, ``found``, ``swap``...);
- with only three buttons, ``next`` moves a highlight over the choices the screen offers and
  ``confirm`` takes the highlighted one; ``back`` undoes the last host action (the same as
  Ctrl+Z / U on the keyboard and the undo button on the screen).

Where a choice needs the table's randomness (the scene cards drawn at setup, a replacement
scene in the advanced variant), the injected ``random.Random`` decides -- never the engine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.core import Event
from engine.something_missing import (
    Bet,
    CheckResult,
    DeclineReplacement,
    DeclineSwap,
    HourglassTurned,
    NewGame,
    NoBuzz,
    Pass,
    Phase,
    ReplaceScene,
    State,
    SwapScenes,
    ViewingStarted,
)

#: The setup form's variant names -> the engine's.
VARIANTS = {"easy": "easy", "normal": "standard", "standard": "standard", "advanced": "advanced"}


def event_for(state: State, name: str, arg: Any, at_ms: int,
              rng: random.Random) -> Event | None:
    """The engine event a host choice means in ``state`` (None: it means nothing here)."""
    phase = state.phase
    seat = state.to_act
    if phase is Phase.VIEWING and name == "start_timer" and state.deadline_ms is None:
        return ViewingStarted(at_ms=at_ms)  # the scenes are laid; everyone is ready
    if phase is Phase.BUZZ and name == "next":
        return NoBuzz(at_ms=at_ms)
    if phase is Phase.BET and seat is not None:
        if name == "bet" and isinstance(arg, int):
            return Bet(at_ms=at_ms, seat=seat, position=arg)
        if name == "pass":
            return Pass(at_ms=at_ms, seat=seat)
    if phase is Phase.CHECK and state.check is not None and name in ("found", "not_found"):
        return CheckResult(at_ms=at_ms, position=state.check.position, found=name == "found")
    if (phase is Phase.CHECK and state.check is not None and name == "start_timer"
            and state.check.deadline_ms is None):
        return HourglassTurned(at_ms=at_ms)  # a player not betting turns the hourglass
    if phase is Phase.SWAP and seat is not None:
        if name == "swap" and isinstance(arg, tuple) and len(arg) == 2:
            return SwapScenes(at_ms=at_ms, seat=seat, a=int(arg[0]), b=int(arg[1]))
        if name == "keep":
            return DeclineSwap(at_ms=at_ms, seat=seat)
    if phase is Phase.REPLACE and seat is not None:
        if name == "replace" and isinstance(arg, int):
            free = [s for s in range(state.rules.scene_cards) if s not in state.used_scenes]
            if not free:
                return None
            return ReplaceScene(at_ms=at_ms, seat=seat, position=arg, scene=rng.choice(free))
        if name == "no_replace":
            return DeclineReplacement(at_ms=at_ms, seat=seat)
    return None


def new_game(names: Sequence[str], colours: Sequence[str], variant: str, start_seat: int,
             at_ms: int, rng: random.Random, scene_cards: int = 15,
             scenes_in_play: int | None = None) -> NewGame:
    """Start a game: the box shuffles the scene cards for the table and says which to lay out.

    The scene *identities* only matter for bookkeeping (which cards are still free for an
    advanced-variant replacement); the rules play on ring positions.
    """
    engine_variant = VARIANTS.get(variant)
    if engine_variant is None:
        raise ValueError(f"unknown variant {variant!r}")
    count = scenes_in_play or {"easy": 4, "standard": 5, "advanced": 6}[engine_variant]
    scenes = tuple(rng.sample(range(scene_cards), count))
    return NewGame(at_ms=at_ms, names=tuple(names), colours=tuple(colours),
                   variant=engine_variant, start_seat=start_seat, scenes=scenes)

