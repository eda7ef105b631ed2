"""Seat and host buttons on gpiozero (or the laptop keyboard), all sending events to one sink.

A seat edge is ``SeatEdge(seat, pressed, t_ns)``; a host button press is
``HostPress(action, t_ns)``. ``t_ns`` is the edge's own timestamp in CLOCK_MONOTONIC ns: on the
Pi, lgpio's kernel timestamp, which gpiozero passes to ``EventsMixin._fire_events(ticks, ...)``
(as ``ns / 1e9``) *before* any ``when_pressed`` handler runs; ``_StampedButton`` takes it from
there. It is never the time the callback ran: callbacks come late, from lgpio's thread.

Buttons are wired to GND and use the Pi's internal pull-ups; gpiozero's ``bounce_time`` is not
used because it moves the reported time of a press (the arbiter filters bounce itself).
"""

from __future__ import annotations

import logging
import queue
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from gpiozero import Device, DigitalInputDevice
from gpiozero.exc import PinFactoryFallback

from firmware.arbiter import Arbiter
from firmware.config import FirmwareConfig

log = logging.getLogger(__name__)

class HostButton(Enum):
    CONFIRM = "confirm"
    BACK = "back"
    NEXT = "next"


@dataclass(frozen=True)
class SeatEdge:
    """A seat button went down (``pressed``) or up, at ``t_ns``. Seats are 1..8."""

    seat: int
    pressed: bool
    t_ns: int


@dataclass(frozen=True)
class HostPress:
    """A host button (confirm / back / next) was pressed at ``t_ns``."""

    action: HostButton
    t_ns: int


InputEvent = SeatEdge | HostPress
EventSink = Callable[[InputEvent], None]


def ticks_to_ns(ticks: float) -> int:
    """gpiozero ticks (float seconds on CLOCK_MONOTONIC for lgpio and mock) to int ns."""
    return round(ticks * 1_000_000_000)


_HOUR_NS = 3_600 * 1_000_000_000
_MINUTE_NS = 60 * 1_000_000_000
_warned_realtime = False


def to_monotonic_ns(t_ns: int) -> int:
    """Guard: an edge stamped on CLOCK_REALTIME (a GPIO library asking the kernel for
    ``GPIO_V2_LINE_FLAG_EVENT_CLOCK_REALTIME``) is moved onto CLOCK_MONOTONIC, with one
    warning; a time already on CLOCK_MONOTONIC (the normal case) is returned as it is."""
    global _warned_realtime
    mono = time.monotonic_ns()
    if abs(t_ns - mono) < _HOUR_NS:
        return t_ns
    real = time.time_ns()
    if abs(t_ns - real) > _MINUTE_NS:
        return t_ns
    if not _warned_realtime:
        _warned_realtime = True
        log.warning("GPIO edge timestamps are on CLOCK_REALTIME, not CLOCK_MONOTONIC; "
                    "converting them (a clock step during a race would make it unfair)")
    return t_ns - (real - mono)


# -- pin factory -------------------------------------------------------------------------------

#: Pin factories that stamp edges on CLOCK_MONOTONIC: lgpio (kernel timestamps) and the mock.
GOOD_FACTORIES = ("LGPIOFactory", "MockFactory")


def check_pin_factory(factory: Any, tried: str = "") -> Any:
    """Return ``factory`` if it gives kernel edge timestamps (lgpio) or is gpiozero's mock.

    Raise RuntimeError otherwise: RPi.GPIO, pigpio and the native factory stamp edges with the
    callback time or on another clock, which would make the buzzer unfair. ``tried``: why
    gpiozero passed over the factories before it (said in the message).
    """
    names = {cls.__name__ for cls in type(factory).__mro__}
    if not names & set(GOOD_FACTORIES):
        raise RuntimeError(
            f"gpiozero's pin factory is {type(factory).__name__}"
            f"{f' ({tried})' if tried else ''}; tablekeeper needs lgpio "
            "(LGPIOFactory), whose edge timestamps come from the kernel. On Raspberry Pi OS: "
            "`sudo apt install python3-lgpio`, use a venv made with --system-site-packages, and "
            "unset GPIOZERO_PIN_FACTORY (or set it to lgpio).")
    return factory


def lgpio_work_dir(environ: Any = None) -> str | None:
    """Give lgpio a folder it can write its notification pipes in, before it is imported.

    lgpio makes them in ``$LG_WD``, else in the current folder; ``sudo -u tablekeeper
    tablekeeper ...`` run from an admin's home cannot write there, and lgpio's failure then
    reads like a missing python3-lgpio. When ``LG_WD`` is unset and the current folder is not
    writable, it is set to the service's runtime folder (``$RUNTIME_DIRECTORY``) or the
    system's temporary folder. Returns the folder it set (None: left alone)."""
    import os
    import tempfile

    env = os.environ if environ is None else environ
    if env.get("LG_WD"):
        return None
    try:
        if os.access(os.getcwd(), os.W_OK):
            return None
    except OSError:  # the current folder is gone, or cannot be looked up
        pass
    runtime = env.get("RUNTIME_DIRECTORY", "").split(":")[0]
    if runtime and os.access(runtime, os.W_OK):
        folder = runtime
    else:
        try:
            folder = tempfile.gettempdir()
        except OSError:  # a full card (tempfile writes a file to choose): lgpio's own default
            folder = env.get("TMPDIR") or "/tmp"
    env["LG_WD"] = folder
    log.info("LG_WD was unset and the current folder is not writable: lgpio uses %s", folder)
    return folder


def default_pin_factory() -> Any:
    """gpiozero's default pin factory (``Device.pin_factory``), checked to be lgpio or mock.

    gpiozero warns (``PinFactoryFallback``) for each factory it cannot load before the one it
    takes; those reasons go into the message when none will do (and into the debug log),
    instead of a screenful of warnings before it."""
    tried = ""
    if Device.pin_factory is None:
        lgpio_work_dir()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", PinFactoryFallback)
            try:
                Device.ensure_pin_factory()
                failed: Exception | None = None
            except Exception as exc:
                failed = exc
        fallbacks = []
        for w in caught:
            if issubclass(w.category, PinFactoryFallback):
                fallbacks.append(str(w.message).removeprefix("Falling back from "))
                log.debug("%s", w.message)
            else:
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        tried = "; ".join(fallbacks)
        if failed is not None:
            raise RuntimeError(
                f"no GPIO here ({failed}{f' Tried {tried}' if tried else ''}). On a Raspberry "
                "Pi install python3-lgpio; on a laptop use backend = \"keyboard\" in "
                "[firmware], or GPIOZERO_PIN_FACTORY=mock for simulated pins.") from failed
    return check_pin_factory(Device.pin_factory, tried)


def resolve_pin_factory(pin_factory: Any | None) -> Any:
    return default_pin_factory() if pin_factory is None else check_pin_factory(pin_factory)


class _StampedButton(DigitalInputDevice):  # type: ignore[misc]  # gpiozero is untyped
    """A button to GND (internal pull-up) that reports each change with the edge's own ticks.

    gpiozero's ``Button`` is the same device plus a "held" thread that polls every 0.1 s;
    the buzzer needs no hold events, so ``DigitalInputDevice`` is used directly.
    """

    def __init__(self, pin: int, on_edge: Callable[[bool, int], None], pin_factory: Any) -> None:
        self._on_edge: Callable[[bool, int], None] | None = None
        super().__init__(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
        self._on_edge = on_edge

    def _fire_events(self, ticks: float, new_active: bool) -> None:
        old = self._last_active
        super()._fire_events(ticks, new_active)
        if self._on_edge is not None and old is not None and old != new_active:
            self._on_edge(bool(new_active), to_monotonic_ns(ticks_to_ns(ticks)))


class GpioButtons:
    """The seat buttons and the three host buttons on gpiozero.

    Every seat edge goes to ``sink`` as ``SeatEdge``; every host press as ``HostPress``.
    A seat already held down when this starts is reported as pressed "now" (so the arbiter
    treats it as held, not as a press). Use as a context manager or call ``close()``.
    """

    def __init__(self, config: FirmwareConfig, sink: EventSink,
                 pin_factory: Any | None = None) -> None:
        self.pin_factory = resolve_pin_factory(pin_factory)
        self._sink = sink
        self.seats: list[Any] = []
        self.host: dict[HostButton, Any] = {}
        try:
            for seat, pin in enumerate(config.pins.seats, start=1):
                self.seats.append(_StampedButton(pin, self._seat_handler(seat),
                                                 self.pin_factory))
            for action in HostButton:
                pin = getattr(config.pins, action.value)
                self.host[action] = _StampedButton(pin, self._host_handler(action),
                                                   self.pin_factory)
        except Exception:
            self.close()
            raise
        now = ticks_to_ns(self.pin_factory.ticks())
        for seat, button in enumerate(self.seats, start=1):
            if button.is_active:
                sink(SeatEdge(seat, True, now))

    def _seat_handler(self, seat: int) -> Callable[[bool, int], None]:
        def handler(pressed: bool, t_ns: int) -> None:
            self._sink(SeatEdge(seat, pressed, t_ns))
        return handler

    def _host_handler(self, action: HostButton) -> Callable[[bool, int], None]:
        def handler(pressed: bool, t_ns: int) -> None:
            if pressed:
                self._sink(HostPress(action, t_ns))
        return handler

    def pressed_seats(self) -> frozenset[int]:
        return frozenset(i for i, b in enumerate(self.seats, start=1) if b.is_active)

    def host_held(self, action: HostButton) -> bool:
        button = self.host.get(action)
        return bool(button is not None and button.is_active)

    def close(self) -> None:
        for button in [*self.seats, *self.host.values()]:
            button.close()
        self.seats = []
        self.host = {}

    def __enter__(self) -> GpioButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: pygame key names (``pygame.key.name``) of the host actions.
HOST_KEYS: dict[str, HostButton] = {
    "return": HostButton.CONFIRM, "enter": HostButton.CONFIRM,
    "keypad enter": HostButton.CONFIRM,
    "backspace": HostButton.BACK,
    "space": HostButton.NEXT,
}


class KeyboardButtons:
    """The laptop stand-in: keys 1-8 are seats, Enter / Backspace / Space are confirm / back /
    next. The app feeds it pygame's key events (``pygame.key.name(event.key)``, KEYDOWN or
    KEYUP, and the time it read them); it sends the same events as ``GpioButtons``.

    The time is when the app saw the key, not a hardware edge: fine for trying games out,
    not a fair buzzer.
    """

    def __init__(self, seats: int, sink: EventSink) -> None:
        self.seats = seats
        self._sink = sink
        self._down: set[str] = set()

    def key_event(self, key_name: str, pressed: bool, t_ns: int) -> bool:
        """Handle a key; return True if it is one of ours. Key repeat is ignored."""
        key = key_name.strip().lower()
        if key.startswith("[") and key.endswith("]"):
            key = key[1:-1]  # the number pad's "[1]"
        if key.isdigit() and 1 <= int(key) <= self.seats:
            seat: int | None = int(key)
        elif key in HOST_KEYS:
            seat = None
        else:
            return False
        if pressed == (key in self._down):
            return True  # a repeat, or a release we never saw pressed
        if pressed:
            self._down.add(key)
        else:
            self._down.discard(key)
        if seat is not None:
            self._sink(SeatEdge(seat, pressed, t_ns))
        elif pressed:
            self._sink(HostPress(HOST_KEYS[key], t_ns))
        return True

    def seat_event(self, seat: int, pressed: bool, t_ns: int) -> bool:
        """Handle seat ``seat`` (1..seats) going down or up; False if out of range.

        (display's ``SeatInput`` counts seats from 0: pass ``seat_input.seat + 1``.)
        """
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= self.seats:
            return False
        return self.key_event(str(seat), pressed, t_ns)

    def pressed_seats(self) -> frozenset[int]:
        return frozenset(int(k) for k in self._down if k.isdigit())

    def host_held(self, action: HostButton) -> bool:
        return any(HOST_KEYS.get(k) is action for k in self._down)

    def close(self) -> None:
        self._down.clear()

    def __enter__(self) -> KeyboardButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class InputHub:
    """One sink for all inputs: seat edges go to the arbiter at once (in the callback's own
    thread, so a slow app loop cannot delay them past the settle window), and every event
    is queued for the app's loop (``drain()``).
    """

    def __init__(self, arbiter: Arbiter | None = None,
                 also: EventSink | None = None) -> None:
        self.arbiter = arbiter
        self.also = also
        self.queue: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()

    def __call__(self, event: InputEvent) -> None:
        if self.arbiter is not None and isinstance(event, SeatEdge):
            self.arbiter.edge(event.seat, event.pressed, event.t_ns)
        self.queue.put(event)
        if self.also is not None:
            self.also(event)

    def drain(self) -> list[InputEvent]:
        """All events queued so far, oldest first, without blocking."""
        out: list[InputEvent] = []
        try:
            while True:
                out.append(self.queue.get_nowait())
        except queue.Empty:
            return out

    def get(self, timeout: float | None = None) -> InputEvent | None:
        """The next event, waiting up to ``timeout`` seconds; None if none came."""
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            return None


def monotonic_ns() -> int:
    """The clock every timestamp in tablekeeper is on."""
    return time.monotonic_ns()
