"""Is each game ready to be played at this table? What is missing, and which step mends it.

A game is ready when none of the steps it needs (:func:`tablekeeper.tablesetup.area.steps_for`)
is :attr:`StepStatus.MISSING`. With the simulated camera (the demo, ``[camera] source =
"sim"``) a missing deck does not count: the game's demo deck stands in for the simulated
table; with a real camera it never does silently: the game is marked on the home screen and
choosing it leads to the step that is missing. A fresh box (no game ready) starts in the
set-up area.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tablekeeper.games import Kit
from tablekeeper.tablesetup.area import step_status, steps_for
from tablekeeper.tablesetup.step import StepContext, StepStatus


@dataclass(frozen=True)
class Readiness:
    """One game's readiness: the steps missing (in the area's order)."""

    game: str
    missing: tuple[str, ...] = ()

    @property
    def ready(self) -> bool:
        return not self.missing

    @property
    def first_missing(self) -> str | None:
        return self.missing[0] if self.missing else None


def readiness(kit: Kit, ctx: StepContext) -> Readiness:
    missing = []
    for key in steps_for(kit):
        if key == "cards" and ctx.simulated:
            continue  # the demo deck is what the simulated table shows
        if step_status(key, ctx) is StepStatus.MISSING:
            missing.append(key)
    return Readiness(kit.name, tuple(missing))


def all_readiness(kits: Sequence[Kit],
                  context_for: Callable[[Kit], StepContext]) -> dict[str, Readiness]:
    return {kit.name: readiness(kit, context_for(kit)) for kit in kits}


def fresh_box(ready: dict[str, Readiness]) -> bool:
    """Nothing is set up: no game is ready (the box starts in the set-up area)."""
    return bool(ready) and not any(r.ready for r in ready.values())


def home_choices(kits: Sequence[Kit], context_for: Callable[[Kit], StepContext],
                 ) -> tuple[Any, ...]:
    """The home screen's games (:func:`tablekeeper.games.home_choices`), each with the
    set-up steps it lacks at this table (``GameChoice.missing``: the tile is marked, and
    choosing it leads to the first)."""
    from dataclasses import replace

    from tablekeeper import games

    ready = all_readiness(kits, context_for)
    return tuple(replace(choice, missing=ready[choice.name].missing)
                 if choice.name in ready else choice for choice in games.home_choices())
