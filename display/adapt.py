"""Reading the engine's 什麼不見啦 state into the display's :class:`~display.model.GameView`."""

from __future__ import annotations

from typing import Any

from display.model import GameView


def game_view(state: Any) -> GameView | None:
    """The view of ``state``: a :class:`GameView` passes through; None stays None."""
    if state is None or isinstance(state, GameView):
        return state
    raise TypeError(f"display cannot read a {type(state).__name__} yet")
