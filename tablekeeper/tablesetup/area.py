"""The set-up area: per game, the steps it needs and whether each is done; the step shown.

:data:`tablekeeper.tablesetup.readiness.STEPS` names every step's module by key (imported
when used, the way :data:`tablekeeper.games.KITS` names kits; it lives there, below this
module, with :func:`~tablekeeper.tablesetup.readiness.steps_for` and
:func:`~tablekeeper.tablesetup.readiness.step_status`, which stay importable from here): a
key whose module is not installed in this box is listed as "not available yet"
(:attr:`StepStatus.UNAVAILABLE`). Which steps a game needs is its kit's
(``Kit.setup_steps``; by default: the cards and the zones for a game that uses the camera,
the buttons for one that uses seat buttons or buzzers).

:class:`SetupArea` is what the screen shows while the host is in the set-up area: the hub
(the games, the chosen game's steps) or one step (its controller, :mod:`.step`). It is fed
the host's actions, the seat buttons and the camera's frames, and says what it wants at the
table (:meth:`SetupArea.wants`) for the simulated host.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from display.input import HostAction
from display.tablesetup.hub import AreaView, GameSteps
from tablekeeper.games import Kit
from tablekeeper.tablesetup.readiness import STEPS as STEPS
from tablekeeper.tablesetup.readiness import readiness
from tablekeeper.tablesetup.readiness import step_module as step_module
from tablekeeper.tablesetup.readiness import step_status as step_status
from tablekeeper.tablesetup.readiness import steps_for as steps_for
from tablekeeper.tablesetup.step import (
    NOTHING,
    Image,
    Step,
    StepContext,
    Want,
)

log = logging.getLogger("tablekeeper.tablesetup")


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
