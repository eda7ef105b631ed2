"""Helpers for the 什麼不見啦 engine tests: build tables and apply events tersely."""

from __future__ import annotations

from engine.core import Event, Rejection
from engine.something_missing import (
    COLOURS,
    NewGame,
    Phase,
    Rules,
    State,
    ViewingStarted,
    ViewingTimeUp,
    apply,
    initial_state,
)

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")


def new_game(n: int = 4, variant: str = "standard", start_seat: int = 0,
             scenes: tuple[int, ...] | None = None, at_ms: int = 0,
             hand_sizes: tuple[int, ...] | None = None) -> NewGame:
    k = {"easy": 4, "standard": 5, "advanced": 6}[variant]
    return NewGame(at_ms=at_ms, names=NAMES[:n], colours=tuple(COLOURS)[:n], variant=variant,
                   start_seat=start_seat, scenes=scenes if scenes is not None else
                   tuple(range(15 - k, 15)), hand_sizes=hand_sizes)


def ok(state: State, *events: Event) -> State:
    """Apply events that must be accepted."""
    for ev in events:
        result = apply(state, ev)
        assert not isinstance(result, Rejection), f"{ev!r} rejected: {result}"
        state = result
    return state


def rejected(state: State, event: Event, code: str) -> Rejection:
    result = apply(state, event)
    assert isinstance(result, Rejection), f"{event!r} was accepted"
    assert result.code == code, result
    assert result.reason
    return result


def started(n: int = 4, variant: str = "standard", start_seat: int = 0,
            rules: Rules | None = None, hand_sizes: tuple[int, ...] | None = None) -> State:
    """A game past its viewing phase (every pass timed out exactly at its deadline)."""
    state = ok(initial_state(rules), new_game(n, variant, start_seat, hand_sizes=hand_sizes))
    if state.deadline_ms is None:  # the host says the table is ready
        state = ok(state, ViewingStarted(at_ms=state.now_ms))
    while state.phase is Phase.VIEWING:
        assert state.deadline_ms is not None
        state = ok(state, ViewingTimeUp(at_ms=state.deadline_ms))
    assert state.phase is Phase.REVEAL
    return state
