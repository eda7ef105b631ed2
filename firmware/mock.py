"""gpiozero mock pins for tests and simulations (subclasses of gpiozero's own ``MockPin``).

* ``StampedMockPin``: an input whose next edge can carry a given CLOCK_MONOTONIC timestamp, the way
  lgpio hands gpiozero the kernel's edge time, so a test can deliver callbacks in the opposite
  order to the edges: ``pin.press(t_ns)``, ``pin.release(t_ns)`` (plain ``pin.drive_low()`` works
  too and stamps "now").
* ``JumperMockPin``: an output wired to several inputs (the calibration jumper).

``mock_factory()`` gives a ``MockFactory`` whose pins are ``StampedMockPin`` (PWM-capable, so a
``TonalBuzzer`` works on it too).
"""

from __future__ import annotations

from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin


class StampedMockPin(MockPWMPin):  # type: ignore[misc]  # gpiozero is untyped
    """A mock pin whose next edge may carry an injected timestamp (ns)."""

    #: Physically held down: the pull-up cannot raise the input (a button held at start-up).
    held = False

    def __init__(self, factory: Any, info: Any) -> None:
        super().__init__(factory, info)
        self._stamp: float | None = None

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        if self.held:
            self._change_state(False)

    def press(self, t_ns: int | None = None) -> None:
        """Drive the input low (a button to GND is pressed), stamped ``t_ns`` if given."""
        self._edge(False, t_ns)

    def release(self, t_ns: int | None = None) -> None:
        """Drive the input high (the pull-up wins again), stamped ``t_ns`` if given."""
        self._edge(True, t_ns)

    def _edge(self, high: bool, t_ns: int | None) -> None:
        self._stamp = None if t_ns is None else t_ns / 1e9
        try:
            if high:
                self.drive_high()
            else:
                self.drive_low()
        finally:
            self._stamp = None

    def _call_when_changed(self) -> None:
        ticks = self._last_change if self._stamp is None else self._stamp
        # Skip MockPin's override (which always passes its own time) and call PiPin's.
        super(MockPin, self)._call_when_changed(ticks, self._state)


class JumperMockPin(StampedMockPin):
    """An output pin jumpered to ``inputs``: each change drives them all, in list order."""

    def __init__(self, factory: Any, info: Any, inputs: list[Any] | None = None) -> None:
        super().__init__(factory, info)
        self.inputs: list[Any] = list(inputs or [])

    def _set_function(self, value: Any) -> None:
        super()._set_function(value)
        if value == "input":  # let go of: nothing drives the jumper, the inputs' pull-ups win
            for pin in self.inputs:
                pin.drive_high()

    def _change_state(self, value: Any) -> bool:
        if self._function != "output":
            return bool(super()._change_state(value))
        for pin in self.inputs:
            if value:
                pin.drive_high()
            else:
                pin.drive_low()
        return bool(super()._change_state(value))


def mock_factory() -> Any:
    """A gpiozero ``MockFactory`` making ``StampedMockPin`` pins."""
    return MockFactory(pin_class=StampedMockPin)
