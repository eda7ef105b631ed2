"""Is each game ready to be played at this table? What is missing, and which step mends it.

The step registry is here too (:data:`STEPS`, :func:`steps_for`, :func:`step_status`; the
set-up area above uses it). A game is ready when none of the steps it needs is
:attr:`StepStatus.MISSING`. With the simulated camera (the demo, ``[camera] source =
"sim"``) a missing deck or zones do not count: the game's demo deck stands in for the
simulated table, whose demos find their zones on it; with a real camera it never does
silently: the game is marked on the home screen and choosing it leads to the step that is
missing. A fresh box (no game ready) starts in the set-up area.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from tablekeeper.games import Kit
from tablekeeper.tablesetup.step import STEP_KEYS, StepContext, StepStatus

log = logging.getLogger("tablekeeper.tablesetup")

#: step key -> its module (``make(ctx)``, ``status(ctx)``)
STEPS: dict[str, str] = {key: f"tablekeeper.tablesetup.{key}" for key in STEP_KEYS}

_modules: dict[str, ModuleType | None] = {}


def step_module(key: str) -> ModuleType | None:
    """The module of step ``key``; None: not installed in this box (or no such step)."""
    if key in _modules:
        return _modules[key]
    name = STEPS.get(key)
    module: ModuleType | None = None
    if name is not None:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            log.info("set-up: no step %r in this box (%s)", key, name)
    _modules[key] = module
    return module


def steps_for(kit: Kit) -> tuple[str, ...]:
    """The steps ``kit``'s game needs, in the area's order."""
    wanted = getattr(kit, "setup_steps", None)
    if wanted is None:
        wanted = []
        if "camera" in kit.uses:
            wanted += ["cards", "zones"]
        if {"seat buttons", "buzzers"} & set(kit.uses):
            wanted.append("buttons")
    return tuple(k for k in STEP_KEYS if k in wanted)


def step_status(key: str, ctx: StepContext) -> StepStatus:
    module = step_module(key)
    if module is None:
        return StepStatus.UNAVAILABLE
    try:
        status = module.status(ctx)
    except Exception:  # a step's check must never take the kiosk down
        log.exception("set-up: the status of %s for %s failed", key, ctx.game)
        return StepStatus.MISSING
    assert isinstance(status, StepStatus)
    return status




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
        if key in ("cards", "zones") and ctx.simulated:
            # the demo deck is what the simulated table shows, and the demos find their
            # zones on it (the set-up area still offers both: ``demo --from-scratch``)
            continue
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
