"""Seat lamps follow the buzzer's state.

armed: every lamp steady on; the winner: that lamp blinks, the others are off; a locked-out seat:
fast blink (also while idle, right after an early press); otherwise off. The app computes a
``LampState`` (``LampState.from_status(arbiter.status(now))``) and calls ``Lamps.show(state)``
each frame; a lamp's output is only touched when its mode changes, and blinking runs in
gpiozero's own background thread, so a slow frame never stalls a blink.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from gpiozero import LED

from firmware.arbiter import ArbiterPhase, ArbiterStatus
from firmware.config import FirmwareConfig
from firmware.devices import resolve_pin_factory

#: Blink timings in seconds (on, off).
BLINK = (0.25, 0.25)
FAST_BLINK = (0.06, 0.06)


class LampMode(Enum):
    OFF = "off"
    ON = "on"
    BLINK = "blink"
    FAST_BLINK = "fast_blink"


@dataclass(frozen=True)
class LampState:
    """What the lamps should say. Seats are 1..8."""

    armed: bool = False
    winner: int | None = None
    locked_out: frozenset[int] = field(default_factory=frozenset)
    #: the set-up's lamp test (issue 28): these seats' lamps steady on, every other off,
    #: whatever the arbiter says (None: no test)
    test: frozenset[int] | None = None

    @classmethod
    def from_status(cls, status: ArbiterStatus) -> LampState:
        winner = status.decision.winner if (
            status.phase is ArbiterPhase.DECIDED and status.decision is not None) else None
        return cls(armed=status.phase is ArbiterPhase.ARMED, winner=winner,
                   locked_out=status.locked_out)


def lamp_modes(state: LampState, seats: int) -> tuple[LampMode, ...]:
    """The mode of each seat's lamp (index 0 = seat 1)."""
    modes = []
    for seat in range(1, seats + 1):
        if state.test is not None:
            mode = LampMode.ON if seat in state.test else LampMode.OFF
        elif state.winner is not None:
            mode = LampMode.BLINK if seat == state.winner else LampMode.OFF
        elif seat in state.locked_out:
            mode = LampMode.FAST_BLINK
        elif state.armed:
            mode = LampMode.ON
        else:
            mode = LampMode.OFF
        modes.append(mode)
    return tuple(modes)


class Lamps:
    """The seat lamps on gpiozero ``LED``s; with no lamp pins (or ``virtual=True``) it only
    keeps ``modes``, for the screen to draw."""

    def __init__(self, config: FirmwareConfig, pin_factory: Any | None = None, *,
                 virtual: bool = False) -> None:
        self.seats = config.seats
        self.modes: tuple[LampMode, ...] = (LampMode.OFF,) * self.seats
        self.leds: list[Any] = []
        if virtual or not config.pins.lamps:
            return
        factory = resolve_pin_factory(pin_factory)
        try:
            for pin in config.pins.lamps:
                self.leds.append(LED(pin, active_high=config.pins.lamps_active_high,
                                     initial_value=False, pin_factory=factory))
        except Exception:
            self.close()
            raise

    def show(self, state: LampState) -> tuple[LampMode, ...]:
        """Set every lamp to follow ``state``; return the modes."""
        modes = lamp_modes(state, self.seats)
        for led, old, new in zip(self.leds, self.modes, modes, strict=False):
            if old is not new:
                self._apply(led, new)
        self.modes = modes
        return modes

    @staticmethod
    def _apply(led: Any, mode: LampMode) -> None:
        if mode is LampMode.ON:
            led.on()
        elif mode is LampMode.BLINK:
            led.blink(*BLINK)
        elif mode is LampMode.FAST_BLINK:
            led.blink(*FAST_BLINK)
        else:
            led.off()

    def close(self) -> None:
        for led in self.leds:
            led.close()
        self.leds = []

    def __enter__(self) -> Lamps:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
