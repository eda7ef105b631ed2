"""Buzzer calibration: how far apart does the Pi stamp two edges that happen at the same instant?

One output pin is jumpered to two seat inputs (hardware.md, "Buzzer calibration"). Each toggle of
the output makes both inputs change at the same physical instant; the difference of their kernel
timestamps is pure measurement spread (interrupt handling order and latency). Presses closer than
that spread cannot be told apart honestly, so the tie window must cover it: otherwise a "win" by
2 us would really go to whichever pin the kernel happens to handle first, every time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from firmware.config import FirmwareConfig, _pin
from firmware.devices import _StampedButton, resolve_pin_factory


@dataclass(frozen=True)
class CalibrationReport:
    seats: tuple[int, int]
    pins: tuple[int, int]
    out_pin: int
    diffs_ns: tuple[int, ...]  # t(second seat) - t(first seat), one per edge seen on both
    missed: int  # edges where a seat reported nothing within the timeout

    @property
    def abs_us(self) -> np.ndarray[Any, np.dtype[np.float64]]:
        return np.abs(np.asarray(self.diffs_ns, dtype=np.float64)) / 1000

    def percentile_us(self, q: float) -> float:
        return float(np.percentile(self.abs_us, q)) if self.diffs_ns else float("nan")

    @property
    def max_us(self) -> float:
        return float(self.abs_us.max()) if self.diffs_ns else float("nan")

    @property
    def suggested_tie_window_us(self) -> float:
        return suggest_tie_window_us(self.diffs_ns)

    def text(self) -> str:
        a, b = self.seats
        n = len(self.diffs_ns)
        lines = [f"calibration: GPIO {self.out_pin} -> seat {a} (GPIO {self.pins[0]}) and "
                 f"seat {b} (GPIO {self.pins[1]}): {n} edges measured, {self.missed} missed"]
        if n:
            signed = np.asarray(self.diffs_ns, dtype=np.float64) / 1000
            first_a = float(np.mean(signed > 0)) * 100
            lines.append(f"|t(seat {b}) - t(seat {a})| in us: " + ", ".join(
                f"p{q:g}={self.percentile_us(q):.1f}" for q in (50, 90, 99, 99.9))
                + f", max={self.max_us:.1f}")
            lines.append(f"mean signed difference {float(signed.mean()):+.1f} us; seat {a} "
                         f"stamped first in {first_a:.1f}% of edges")
            lines.append(f"suggested tie window: {self.suggested_tie_window_us:g} us "
                         f"(set [firmware.arbiter] tie_window_us)")
        return "\n".join(lines)


def suggest_tie_window_us(diffs_ns: tuple[int, ...] | list[int]) -> float:
    """Twice the 99.9th percentile or 1.25 x the max of the spread, whichever is larger,
    rounded up to 10 us, at least 10 us."""
    if not diffs_ns:
        raise ValueError("no measurements: is the jumper in place?")
    spread = np.abs(np.asarray(diffs_ns, dtype=np.float64)) / 1000
    wanted = max(2 * float(np.percentile(spread, 99.9)), 1.25 * float(spread.max()), 10.0)
    return float(np.ceil(wanted / 10) * 10)


#: The calibration's output pin by default (hardware.md section 4: header pin 26).
DEFAULT_OUT_PIN = 7


class TieMeter:
    """The measurement of :func:`run` and of the set-up screen's tie-window step (one
    implementation): after each toggle of the jumpered output (:meth:`toggled`), the first
    edge of each of the two seats in the direction the toggle drives them (:meth:`edge`,
    kernel timestamps); a toggle that does not reach both seats is :meth:`missed`. Not
    thread-safe: :func:`run` holds a lock round it."""

    def __init__(self, seats: tuple[int, int]) -> None:
        self.seats = seats
        self.diffs_ns: list[int] = []
        self.missed = 0
        self.toggles = 0
        self._pressed = True
        self._seen: dict[int, int] = {}
        self._open = False

    def toggled(self, pressed: bool) -> None:
        """The output was just driven: both seats should now go ``pressed`` (low) or up."""
        self._pressed = pressed
        self._seen = {}
        self._open = True
        self.toggles += 1

    def edge(self, seat: int, pressed: bool, t_ns: int) -> bool:
        """A seat's edge; True once both seats' edges of this toggle are in (measured)."""
        if not self._open or seat not in self.seats or pressed != self._pressed \
                or seat in self._seen:
            return False
        self._seen[seat] = t_ns
        if len(self._seen) < 2:
            return False
        a, b = self.seats
        self.diffs_ns.append(self._seen[b] - self._seen[a])
        self._open = False
        return True

    @property
    def waiting(self) -> bool:
        """The last toggle has not reached both seats yet."""
        return self._open

    def missed_one(self) -> None:
        """Give up on the last toggle (a seat's edge did not come in time)."""
        if self._open:
            self._open = False
            self.missed += 1

    def report(self, pins: tuple[int, int], out_pin: int) -> CalibrationReport:
        return CalibrationReport(self.seats, pins, out_pin, tuple(self.diffs_ns), self.missed)


class JumperOutput:
    """The calibration output as the set-up screen drives it, on the box's own pin factory:
    ``output(level)`` drives it (opened on first use: the pin is free otherwise), ``close()``
    lets it go. The seats' edges come back through the box's buttons."""

    def __init__(self, pin_factory: Any, out_pin: int = DEFAULT_OUT_PIN) -> None:
        _pin(out_pin, "out")
        self.pin_factory = pin_factory
        self.out_pin = out_pin
        self._device: Any = None

    def __call__(self, level: bool) -> None:
        if self._device is None:
            from gpiozero import DigitalOutputDevice

            self._device = DigitalOutputDevice(self.out_pin, initial_value=True,
                                               pin_factory=self.pin_factory)
        self._device.value = level

    def close(self) -> None:
        if self._device is not None:
            self._device.close()
            self._device = None


def run(config: FirmwareConfig, pin_factory: Any | None, *, out_pin: int,
        seats: tuple[int, int] = (1, 2), toggles: int = 2000, timeout_s: float = 0.1,
        pause_s: float = 0.002, sleep: Callable[[float], None] = time.sleep
        ) -> CalibrationReport:
    """Toggle ``out_pin`` ``toggles`` times (a press and a release each) and measure."""
    from gpiozero import DigitalOutputDevice

    a, b = seats
    for s in seats:
        if not 1 <= s <= config.seats:
            raise ValueError(f"seats: {s} is not a seat number (1-{config.seats})")
    if a == b:
        raise ValueError("seats: give two different seats")
    if toggles < 1:
        raise ValueError(f"toggles: {toggles} must be at least 1")
    pins = (config.pins.seats[a - 1], config.pins.seats[b - 1])
    _pin(out_pin, "out")
    if out_pin in pins:
        raise ValueError(f"out: GPIO {out_pin} is one of the two seat inputs")
    factory = resolve_pin_factory(pin_factory)

    lock = threading.Lock()
    both = threading.Event()
    meter = TieMeter((a, b))

    def handler(seat: int) -> Callable[[bool, int], None]:
        def on_edge(pressed: bool, t_ns: int) -> None:
            with lock:
                if meter.edge(seat, pressed, t_ns):
                    both.set()
        return on_edge

    devices: list[Any] = []
    try:
        devices.append(_StampedButton(pins[0], handler(a), factory))
        devices.append(_StampedButton(pins[1], handler(b), factory))
        out = DigitalOutputDevice(out_pin, initial_value=True, pin_factory=factory)
        devices.append(out)
        for _ in range(toggles):
            for level in (False, True):  # low = both "pressed", then high = released
                with lock:
                    both.clear()
                    meter.toggled(not level)
                out.value = level
                if not both.wait(timeout_s):
                    with lock:
                        meter.missed_one()
                if pause_s:
                    sleep(pause_s)
    finally:
        for device in devices:
            device.close()
    if not meter.diffs_ns:
        raise RuntimeError(f"no edge reached both seat inputs in {2 * toggles} toggles: "
                           f"is GPIO {out_pin} jumpered to GPIO {pins[0]} and GPIO {pins[1]}?")
    return meter.report(pins, out_pin)
