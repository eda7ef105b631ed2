"""Clocks for the app loop.

Every timestamp in tablekeeper is an ``int`` of nanoseconds on the CLOCK_MONOTONIC basis: the
basis of lgpio's edge ticks and of the camera's frame timestamps. The engine never reads a
clock; the app converts to the game clock (milliseconds since the game started) and passes
time in as data.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now_ns(self) -> int: ...


class MonotonicClock:
    """The real clock (CLOCK_MONOTONIC, the same basis as lgpio ticks)."""

    def now_ns(self) -> int:
        return time.monotonic_ns()


class FakeClock:
    """A clock that only moves when told to: tests and the fast headless demo."""

    def __init__(self, start_ns: int = 1_000_000_000) -> None:
        self._now = start_ns

    def now_ns(self) -> int:
        return self._now

    def advance(self, ns: int) -> int:
        if ns < 0:
            raise ValueError("a clock cannot go backwards")
        self._now += ns
        return self._now

    def advance_ms(self, ms: float) -> int:
        return self.advance(round(ms * 1_000_000))
