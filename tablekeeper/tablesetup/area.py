"""The set-up area: per game, the steps it needs and whether each is done; the step shown.

:data:`STEPS` names every step's module by key (imported when used, the way
:data:`tablekeeper.games.KITS` names kits): a key whose module is not installed in this box
is listed as "not available yet" (:attr:`StepStatus.UNAVAILABLE`). Which steps a game needs is
its kit's (``Kit.setup_steps``; by default: the cards and the zones for a game that uses the
camera, the buttons for one that uses seat buttons or buzzers).

:class:`SetupArea` is what the screen shows while the host is in the set-up area: the hub
(the games, the chosen game's steps) or one step (its controller, :mod:`.step`). It is fed
the host's actions, the seat buttons and the camera's frames, and says what it wants at the
table (:meth:`SetupArea.wants`) for the simulated host.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Sequence
from types import ModuleType

from display.input import HostAction
from display.tablesetup.hub import AreaView, GameSteps
from tablekeeper.games import Kit
from tablekeeper.tablesetup.step import (
    NOTHING,
    STEP_KEYS,
    Image,
    Step,
    StepContext,
    StepStatus,
    Want,
)

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


class SetupArea:
    """The set-up area's controller (see the module docstring). ``context_for(kit)`` makes a
    step's context; ``on_done(game, key)`` is told when a step finished and saved (the
    kiosk re-reads the config and the deck)."""

    def __init__(self, kits: Sequence[Kit], context_for: Callable[[Kit], StepContext], *,
                 game: str | None = None, step: str | None = None,
                 on_done: Callable[[str, str], None] | None = None) -> None:
        if not kits:
            raise ValueError("no games to set up")
        self.kits = tuple(kits)
        self.context_for = context_for
        self.on_done = on_done
        self.chosen = next((i for i, k in enumerate(self.kits) if k.name == game), 0)
        self.closed = False
        self.step: Step | None = None
        self._games: list[GameSteps] = [self._steps_of(k) for k in self.kits]
        if step is not None:
            self.open(step)

    @property
    def kit(self) -> Kit:
        return self.kits[self.chosen]

    def _steps_of(self, kit: Kit) -> GameSteps:
        from tablekeeper.tablesetup.readiness import readiness  # (it imports this module)

        ctx = self.context_for(kit)
        return GameSteps(kit.name, kit.title_in("zh-TW"), kit.title_in("en"),
                         tuple((key, step_status(key, ctx).value) for key in steps_for(kit)),
                         stands_in=readiness(kit, ctx).ready)

    def refresh(self) -> None:
        self._games[self.chosen] = self._steps_of(self.kit)

    def open(self, key: str) -> bool:
        """Show step ``key`` of the chosen game (False: not available in this box)."""
        module = step_module(key)
        if module is None or key not in steps_for(self.kit):
            return False
        step = module.make(self.context_for(self.kit))
        assert isinstance(step, Step)
        self.step = step
        return True

    # --- input ------------------------------------------------------------------------------
    def act(self, action: HostAction, now_ns: int) -> None:
        step = self.step
        if step is not None:
            step.act(action, now_ns)
            self._after_step()
            return
        name, arg = action.name, action.arg
        game = self._games[self.chosen]
        if name in ("back", "undo", "area.close", "home"):
            self.closed = True
        elif name == "confirm":
            missing = game.first_missing()
            if missing is None:
                self.closed = True
            else:
                self.open(missing)
        elif name == "area.step" and isinstance(arg, str):
            self.open(arg)
        elif name == "area.game":
            self.chosen = (arg if isinstance(arg, int) and 0 <= arg < len(self.kits)
                           else (self.chosen + 1) % len(self.kits))
            self.refresh()

    def seat(self, seat: int, pressed: bool, t_ns: int) -> None:
        if self.step is not None:
            self.step.seat(seat, pressed, t_ns)
            self._after_step()

    def frame(self, image: Image | None, t_ns: int) -> None:
        if self.step is not None:
            self.step.frame(image, t_ns)
            self._after_step()

    def tick(self, now_ns: int) -> None:
        if self.step is not None:
            self.step.tick(now_ns)
            self._after_step()

    def _after_step(self) -> None:
        step = self.step
        if step is None or not (step.done or step.left):
            return
        self.step = None
        self.refresh()
        if step.done and self.on_done is not None:
            self.on_done(self.kit.name, step.key)

    # --- output -----------------------------------------------------------------------------
    def wants_frames(self) -> bool:
        """A step is shown: it reads the camera (every step may show the live picture)."""
        return self.step is not None

    def wants(self) -> Want:
        """What the area waits for at the table: the step's want, or on the hub the host
        opening the first missing step (``confirm``), or leaving when all is done."""
        if self.step is not None:
            return self.step.wants()
        if self.closed:
            return NOTHING
        return Want("confirm", action="confirm", hint="tablesetup.hub_hint")

    def next_time(self) -> int | None:
        return self.step.next_time() if self.step is not None else None

    def view(self) -> AreaView:
        step = self.step
        return AreaView(tuple(self._games), self.chosen, step.key if step else None,
                        step.view() if step else None)
