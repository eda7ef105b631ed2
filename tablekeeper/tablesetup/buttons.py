"""The set-up step "Buttons and lamps": every seat button pressed once, its lamp lit; then the
buzzer's tie window measured and saved.

**Seats** (phase ``seats``): the screen shows every seat of the box (``[firmware] seats``);
each press lights that seat's lamp (the box's lamps follow :attr:`ButtonsStep.lit` through
the ``light`` seam: :attr:`firmware.box.Firmware.lamp_test`) and ticks its seat off. A seat
that has not answered :data:`QUIET_S` seconds after the last press is named on the screen
(a loose wire, a lamp on the wrong pin); *done* with seats missing names them again
(phase ``missing``) and the host chooses to wait for them or to go on without them.

**Tie window** (phases ``tie_ready`` -> ``tie_measuring`` -> ``tie_result``): two presses
closer than the window are a tie, drawn by lot (hardware.md section 4). What matters is how
far apart the Pi stamps two edges that happen at the same instant -- no pair of hands
presses within a tenth of a millisecond, so players pressing "together" would measure their
hands, not the Pi. So the step measures what ``tablekeeper buzzer calibrate`` measures, with
the same code (:class:`firmware.calibrate.TieMeter`): the test jumper from the calibration
output (GPIO 7) to two seat inputs, the output pressed :data:`TIE_TOGGLES` times (the
``toggle`` seam), the seats' edges arriving through the box's own buttons with their kernel
timestamps (:meth:`ButtonsStep.seat`); the window proposed
(:func:`firmware.calibrate.suggest_tie_window_us`) is saved to ``[firmware.arbiter]
tie_window_us`` (:func:`tablekeeper.tablesetup.configedit.save_tie_window`) on *confirm*.
A box without the output (keyboard buttons) skips it, saying so.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from display.input import HostAction
from display.tablesetup.buttons import ButtonsView
from firmware.calibrate import TieMeter, suggest_tie_window_us
from tablekeeper.tablesetup.configedit import ConfigEditError, fresh_section, save_tie_window
from tablekeeper.tablesetup.step import NOTHING, StepContext, StepStatus, Want

#: A seat not pressed this long after the step started or the last press is named.
QUIET_S = 20.0
#: Presses of the calibration output (each drives both seats' inputs low at one instant,
#: then releases them; only the presses are measured: the screen hears of presses, and the
#: spread is the same either way).
TIE_TOGGLES = 100
#: A toggle whose two edges have not both come this long after it is missed.
TIE_TIMEOUT_NS = 100_000_000
#: The pause between toggles.
TIE_PAUSE_NS = 2_000_000
#: The seats the jumper joins (hardware.md section 4).
TIE_SEATS = (1, 2)

_log = logging.getLogger(__name__)


class ButtonsStep:
    """The controller of "Buttons and lamps" (see the module docstring). ``seats``: the
    box's seats; ``light(seats)``: the lamps to light (None: put them back under the
    arbiter); ``toggle(level)``: drive the calibration output (None: the box has none);
    ``current_us``: the tie window the config has now; ``save``: the writer."""

    key = "buttons"

    def __init__(self, seats: int, config_path: Path, *, start_ns: int = 0,
                 light: Callable[[frozenset[int] | None], None] = lambda seats: None,
                 toggle: Callable[[bool], None] | None = None, current_us: float = 100.0,
                 save: Callable[[Path, float], object] = save_tie_window) -> None:
        self.seats = seats
        self.config_path = config_path
        self._light = light
        self._toggle = toggle
        self.current_us = current_us
        self._save = save
        self.phase = "seats"
        self.done = False
        self.left = False
        self.answered: set[int] = set()
        self.count: dict[int, int] = {}
        self.last: int | None = None
        self.silent: tuple[int, ...] = ()
        self._quiet_from = start_ns
        self.meter: TieMeter | None = None
        self._toggled_ns = 0
        self._low = False
        self._next_ns: int | None = None
        self.figures: tuple[float, float, float] | None = None
        self.problem: str | None = None
        self.params: dict[str, Any] = {}
        self.host_presses = 0
        self._light(frozenset())

    @property
    def lit(self) -> frozenset[int]:
        return frozenset(self.answered) if self.phase in ("seats", "missing") else frozenset()

    # -- the protocol ---------------------------------------------------------------------
    def seat(self, seat: int, pressed: bool, t_ns: int) -> None:
        """A seat button's edge (1-based seat, kernel time)."""
        if self.phase == "tie_measuring" and self.meter is not None:
            self.meter.edge(seat, pressed, t_ns)
            return
        if not pressed or not 1 <= seat <= self.seats or self.phase not in ("seats", "missing"):
            return
        self.count[seat] = self.count.get(seat, 0) + 1
        self.last = seat
        self.answered.add(seat)
        self._quiet_from = t_ns
        self.silent = tuple(s for s in self.silent if s not in self.answered)
        if self.phase == "missing" and not self.silent:
            self.phase = "seats"
        if not self.silent and self.problem == "setup.buttons.silent":
            self.problem, self.params = None, {}
        self._light(self.lit)

    def act(self, action: HostAction, now_ns: int) -> None:
        name = action.name
        self.host_presses += 1
        if name == "tick":
            self.tick(now_ns)
            return
        if self.phase == "seats":
            if name == "confirm":
                missing = self._missing()
                if missing:
                    self.silent = missing
                    self.phase = "missing"
                    self.problem = "setup.buttons.silent"
                    self.params = {"seats": ", ".join(map(str, missing)),
                                   "count": len(missing)}
                else:
                    self._to_tie()
            elif name == "back":
                self._leave()
        elif self.phase == "missing":
            if name in ("back", "buttons.wait"):
                self.phase = "seats"
            elif name in ("confirm", "buttons.without"):
                self._to_tie()
        elif self.phase == "tie_ready":
            if name == "confirm":
                if self._toggle is None:
                    self._finish()
                else:
                    self._start_measuring(now_ns)
            elif name == "buttons.skip":
                self._finish()
            elif name == "back":
                self.phase = "seats"
                self._light(self.lit)
        elif self.phase == "tie_result":
            if name == "confirm" and self.figures is not None:
                try:
                    self._save(self.config_path, self.figures[2])
                except ConfigEditError as exc:
                    _log.warning("set-up %s: not saved: %s", self.key, exc.detail)
                    self.problem = f"setup.config.{exc.kind}"
                    self.params = {"detail": exc.detail}
                    return
                self.current_us = self.figures[2]
                self._finish()
            elif name == "buttons.again":
                self._start_measuring(now_ns)
            elif name in ("buttons.skip", "back"):
                self._finish()

    def frame(self, image: Any, t_ns: int) -> None:
        """Camera frames mean nothing here."""

    def wants(self) -> Want:
        if self.phase == "seats":
            missing = self._missing()
            if missing:
                return Want("seat", seat=missing[0], hint="setup.buttons.press")
            return Want("confirm", action="confirm", hint="setup.buttons.all")
        if self.phase == "missing":
            return Want("confirm", action="buttons.without", hint="setup.buttons.silent")
        if self.phase in ("tie_ready", "tie_result") and self.problem is None:
            return Want("confirm", action="confirm", hint=f"setup.buttons.{self.phase}")
        return NOTHING

    def next_time(self) -> int | None:
        if self.phase == "tie_measuring":
            return self._next_ns
        if self.phase == "seats" and self._missing() and not self.silent:
            return self._quiet_from + round(QUIET_S * 1e9)
        return None

    def tick(self, now_ns: int) -> None:
        """Time passes: a seat silent too long is named; the measurement goes on."""
        if self.phase == "seats" and not self.silent and self._missing() \
                and now_ns - self._quiet_from >= QUIET_S * 1e9:
            self.silent = self._missing()
            self.problem = "setup.buttons.silent"
            self.params = {"seats": ", ".join(map(str, self.silent)), "count": len(self.silent)}
        if self.phase != "tie_measuring" or self.meter is None or self._toggle is None:
            return
        meter = self.meter
        if meter.waiting:
            if now_ns - self._toggled_ns < TIE_TIMEOUT_NS:
                self._next_ns = self._toggled_ns + TIE_TIMEOUT_NS
                return
            meter.missed_one()
        if self._low:  # the press measured (or missed): release both, pause
            self._low = False
            self._toggle(True)
            self._next_ns = now_ns + TIE_PAUSE_NS
            return
        if meter.toggles >= TIE_TOGGLES:
            self._measured()
            return
        meter.toggled(True)  # both seats' inputs driven low: pressed at the same instant
        self._low = True
        self._toggled_ns = now_ns
        self._next_ns = now_ns + TIE_PAUSE_NS
        self._toggle(False)

    def view(self) -> ButtonsView:
        meter = self.meter
        return ButtonsView(
            self.phase, self.seats, frozenset(self.answered), self.silent, dict(self.count),
            self.last, self._toggle is not None,
            (meter.toggles if meter else 0, TIE_TOGGLES), self.figures,
            len(meter.diffs_ns) if meter else 0, meter.missed if meter else 0,
            self.current_us, self.problem, dict(self.params))

    # -- inside -----------------------------------------------------------------------------
    def _missing(self) -> tuple[int, ...]:
        return tuple(s for s in range(1, self.seats + 1) if s not in self.answered)

    def _to_tie(self) -> None:
        self.phase = "tie_ready"
        self.problem, self.params = None, {}
        self._light(None)

    def _start_measuring(self, now_ns: int) -> None:
        self.meter = TieMeter(TIE_SEATS)
        self._low = False
        self.phase = "tie_measuring"
        self.figures = None
        self.problem, self.params = None, {}
        self._next_ns = now_ns
        self.tick(now_ns)

    def _measured(self) -> None:
        assert self.meter is not None
        self._next_ns = None
        if self._toggle is not None:
            self._toggle(True)  # released: the output back at rest
            close = getattr(self._toggle, "close", None)
            if close is not None:
                close()
        diffs = self.meter.diffs_ns
        if not diffs:
            self.phase = "tie_ready"
            self.problem = "setup.buttons.no_edges"
            self.params = {"seats": " + ".join(map(str, TIE_SEATS))}
            return
        report = self.meter.report((0, 0), 0)
        self.figures = (round(report.percentile_us(99.9), 1), round(report.max_us, 1),
                        suggest_tie_window_us(diffs))
        self.phase = "tie_result"

    def _finish(self) -> None:
        if self._toggle is not None:
            close = getattr(self._toggle, "close", None)
            if close is not None:
                close()
        self.phase = "done"
        self.done = True
        self._light(None)

    def _leave(self) -> None:
        self.left = True
        self._light(None)


# -- the step module's protocol (tablekeeper.tablesetup.step) --------------------------------


def _sim_jumper(factory: Any, seat_pins: tuple[int, ...], out_pin: int) -> None:
    """The simulated table's test jumper: on gpiozero's mock pins, the calibration output
    drives the inputs of seats :data:`TIE_SEATS` (as hardware.md section 4 wires it)."""
    from firmware.mock import JumperMockPin

    inputs = [factory.pin(seat_pins[s - 1]) for s in TIE_SEATS]
    with contextlib.suppress(ValueError):  # wired already (the step shown again)
        factory.pin(out_pin, pin_class=JumperMockPin, inputs=inputs)


def make(ctx: StepContext) -> ButtonsStep:
    from firmware.calibrate import DEFAULT_OUT_PIN, JumperOutput
    from firmware.config import FirmwareConfig

    fw = ctx.firmware
    config = fw.config if fw is not None else FirmwareConfig.from_dict(
        fresh_section(ctx.config_path, ctx.config, "firmware"))
    toggle: Callable[[bool], None] | None = None
    if fw is not None and config.backend == "gpio" and config.seats >= max(TIE_SEATS):
        factory = fw.buttons.pin_factory
        if ctx.simulated and type(factory).__name__ == "MockFactory":
            _sim_jumper(factory, config.pins.seats, DEFAULT_OUT_PIN)
        toggle = JumperOutput(factory, DEFAULT_OUT_PIN)

    def light(seats: frozenset[int] | None) -> None:
        if fw is not None:
            fw.lamp_test = seats

    return ButtonsStep(config.seats, ctx.config_path or Path("config.toml"), light=light,
                       toggle=toggle, current_us=config.arbiter.tie_window_us,
                       save=_saver(ctx))


def _saver(ctx: StepContext) -> Callable[[Path, float], None]:
    if ctx.config_path is not None:
        from firmware.config import FirmwareConfig

        fw = ctx.firmware
        base = [fw.config.arbiter.tie_window_us if fw is not None else FirmwareConfig.from_dict(
            fresh_section(ctx.config_path, ctx.config, "firmware")).arbiter.tie_window_us]

        def save(path: Path, us: float) -> None:
            clashes = save_tie_window(path, us, base[0])
            for clash in clashes:
                _log.warning("set-up buttons: %s: %s", path, clash)
            if clashes:
                ctx.tell("setup.config.clash")
            base[0] = us

        return save

    def nowhere(path: Path, us: float) -> None:
        raise ConfigEditError("none", "the box runs without a config file")

    return nowhere


def status(ctx: StepContext) -> StepStatus:
    """DONE once a tie window is in the config (measured here or by ``buzzer calibrate``);
    OPTIONAL otherwise: the box plays with the default window."""
    arbiter = fresh_section(ctx.config_path, ctx.config, "firmware").get("arbiter", {})
    return (StepStatus.DONE if isinstance(arbiter, dict) and "tie_window_us" in arbiter
            else StepStatus.OPTIONAL)
