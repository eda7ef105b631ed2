"""The ``[firmware]`` section of the box's config: pins, arbiter timings, sound.

Every value has a default (documented in hardware.md, "Pin map (BCM numbers) and wiring"), so an
empty section is a complete config for the default wiring. ``FirmwareConfig.from_dict`` takes the
section as a mapping (the TOML table ``[firmware]`` with its sub-tables ``pins``, ``arbiter`` and
``sound``) and raises ``ValueError`` naming the offending key, relative to the section, e.g.
``pins.seats[3]: 99 is not a BCM GPIO number (0-27)``. ``to_dict`` gives back a mapping that
``from_dict`` reads to an equal config.

```toml
[firmware]
backend = "gpio"          # "gpio" (buttons on the Pi) or "keyboard" (laptop: keys 1-8, Enter ...)
seats = 8                 # 1-8 seat buttons

[firmware.pins]           # BCM numbers
seats = [4, 17, 27, 22, 5, 6, 13, 19]
lamps = [18, 23, 24, 25, 12, 16, 20, 21]   # [] = no lamps
confirm = 10
back = 9
next = 11
piezo = 26                # only used when sound.kind = "piezo"
lamps_active_high = true  # false if a lamp lights when its pin is low

[firmware.arbiter]
settle_ms = 10.0          # wait this long after the first press before deciding
tie_window_us = 100.0     # presses this close are a tie, broken by lot
lockout_ms = 250.0        # a press before the card is out locks that seat out this long
debounce_ms = 20.0        # a press this soon after a release of the same seat is contact bounce
stuck_s = 5.0             # a button held down this long is reported as stuck

[firmware.sound]
kind = "pygame"           # "pygame" (a generated tone), "piezo" (TonalBuzzer) or "none"
frequency_hz = 880.0
duration_ms = 180.0
volume = 0.5              # 0-1, pygame only
device = ""               # pygame only: the audio output; "" = the system's default. An
                          # output as `tablekeeper selftest --only sound` lists it (SDL's
                          # name, e.g. "USB Audio Device, USB Audio"), or an ALSA device
                          # (e.g. "plughw:CARD=Device,DEV=0", `aplay -L`), set as AUDIODEV
```
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Self, cast

#: BCM GPIO numbers on the 40-pin header.
BCM_MIN = 0
BCM_MAX = 27
MAX_SEATS = 8

DEFAULT_SEAT_PINS: tuple[int, ...] = (4, 17, 27, 22, 5, 6, 13, 19)
DEFAULT_LAMP_PINS: tuple[int, ...] = (18, 23, 24, 25, 12, 16, 20, 21)
DEFAULT_CONFIRM_PIN = 10
DEFAULT_BACK_PIN = 9
DEFAULT_NEXT_PIN = 11
DEFAULT_PIEZO_PIN = 26

Backend = Literal["gpio", "keyboard"]
SoundKind = Literal["pygame", "piezo", "none"]
BACKENDS: tuple[str, ...] = ("gpio", "keyboard")
SOUND_KINDS: tuple[str, ...] = ("pygame", "piezo", "none")


def _check_keys(d: Mapping[str, Any], allowed: Sequence[str], where: str) -> None:
    if not isinstance(d, Mapping):
        raise ValueError(f"{where or 'firmware'}: expected a table, got {type(d).__name__}")
    unknown = sorted(set(d) - set(allowed))
    if unknown:
        prefix = f"{where}." if where else ""
        raise ValueError(
            f"{prefix}{unknown[0]}: unknown key (known: {', '.join(sorted(allowed))})")


def _number(d: Mapping[str, Any], key: str, default: float, where: str,
            lo: float, hi: float) -> float:
    value = d.get(key, default)
    name = f"{where}.{key}"
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name}: expected a number, got {value!r}")
    if not lo <= value <= hi:
        raise ValueError(f"{name}: {value!r} is out of range ({lo:g}-{hi:g})")
    return float(value)


def _pin(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name}: {value!r} is not a BCM GPIO number ({BCM_MIN}-{BCM_MAX})")
    if not BCM_MIN <= value <= BCM_MAX:
        raise ValueError(f"{name}: {value} is not a BCM GPIO number ({BCM_MIN}-{BCM_MAX})")
    return value


def _pin_list(value: Any, name: str) -> tuple[int, ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise ValueError(f"{name}: expected a list of BCM GPIO numbers, got {value!r}")
    return tuple(_pin(v, f"{name}[{i}]") for i, v in enumerate(value))


@dataclass(frozen=True)
class ArbiterConfig:
    """Timings of the first-press arbiter (see ``firmware.arbiter``)."""

    settle_ms: float = 10.0
    tie_window_us: float = 100.0
    lockout_ms: float = 250.0
    debounce_ms: float = 20.0
    stuck_s: float = 5.0

    KEYS = ("settle_ms", "tie_window_us", "lockout_ms", "debounce_ms", "stuck_s")

    @property
    def settle_ns(self) -> int:
        return round(self.settle_ms * 1_000_000)

    @property
    def tie_window_ns(self) -> int:
        return round(self.tie_window_us * 1_000)

    @property
    def lockout_ns(self) -> int:
        return round(self.lockout_ms * 1_000_000)

    @property
    def debounce_ns(self) -> int:
        return round(self.debounce_ms * 1_000_000)

    @property
    def stuck_ns(self) -> int:
        return round(self.stuck_s * 1_000_000_000)

    def __post_init__(self) -> None:
        # The same checks as from_dict, so a config built in code is checked too.
        limits = {"settle_ms": (0.0, 1000.0), "tie_window_us": (0.0, 100_000.0),
                  "lockout_ms": (0.0, 10_000.0), "debounce_ms": (0.0, 1000.0),
                  "stuck_s": (0.1, 3600.0)}
        for key, (lo, hi) in limits.items():
            _number({key: getattr(self, key)}, key, 0.0, "arbiter", lo, hi)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], where: str = "arbiter") -> Self:
        _check_keys(d, cls.KEYS, where)
        defaults = cls()
        values = {key: d.get(key, getattr(defaults, key)) for key in cls.KEYS}
        for key, value in values.items():
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"{where}.{key}: expected a number, got {value!r}")
        return cls(**{k: float(v) for k, v in values.items()})

    def to_dict(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in self.KEYS}


@dataclass(frozen=True)
class SoundConfig:
    """The short sound played when a seat wins the buzzer."""

    kind: SoundKind = "pygame"
    frequency_hz: float = 880.0
    duration_ms: float = 180.0
    volume: float = 0.5
    device: str = ""

    KEYS = ("kind", "frequency_hz", "duration_ms", "volume", "device")

    def __post_init__(self) -> None:
        if self.kind not in SOUND_KINDS:
            raise ValueError(
                f"sound.kind: {self.kind!r} is not one of {', '.join(SOUND_KINDS)}")
        _number({"frequency_hz": self.frequency_hz}, "frequency_hz", 0, "sound", 20, 20_000)
        _number({"duration_ms": self.duration_ms}, "duration_ms", 0, "sound", 1, 5000)
        _number({"volume": self.volume}, "volume", 0, "sound", 0, 1)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], where: str = "sound") -> Self:
        _check_keys(d, cls.KEYS, where)
        kind = d.get("kind", "pygame")
        if kind not in SOUND_KINDS:
            raise ValueError(f"{where}.kind: {kind!r} is not one of {', '.join(SOUND_KINDS)}")
        defaults = cls()
        nums = {}
        for key in ("frequency_hz", "duration_ms", "volume"):
            value = d.get(key, getattr(defaults, key))
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"{where}.{key}: expected a number, got {value!r}")
            nums[key] = float(value)
        device = d.get("device", "")
        if not isinstance(device, str) or "\n" in device or len(device) > 200:
            raise ValueError(f"{where}.device: expected the name of an audio output (a "
                             f"string), got {device!r}")
        return cls(kind=cast(SoundKind, kind), device=device.strip(), **nums)

    def to_dict(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in self.KEYS}


@dataclass(frozen=True)
class PinConfig:
    """BCM pin numbers. ``seats[i]`` and ``lamps[i]`` belong to seat ``i + 1``."""

    seats: tuple[int, ...] = DEFAULT_SEAT_PINS
    lamps: tuple[int, ...] = DEFAULT_LAMP_PINS
    confirm: int = DEFAULT_CONFIRM_PIN
    back: int = DEFAULT_BACK_PIN
    next: int = DEFAULT_NEXT_PIN
    piezo: int | None = DEFAULT_PIEZO_PIN
    lamps_active_high: bool = True

    KEYS = ("seats", "lamps", "confirm", "back", "next", "piezo", "lamps_active_high")

    def __post_init__(self) -> None:
        self.check()

    def check(self, where: str = "pins") -> None:
        """Raise ValueError if a pin is not a BCM number or is used twice."""
        if not 1 <= len(self.seats) <= MAX_SEATS:
            raise ValueError(
                f"{where}.seats: {len(self.seats)} seat pins given, expected 1-{MAX_SEATS}")
        if self.lamps and len(self.lamps) != len(self.seats):
            raise ValueError(
                f"{where}.lamps: {len(self.lamps)} lamp pins for {len(self.seats)} seats "
                "(give one lamp per seat, or [] for none)")
        used: dict[int, str] = {}
        named: list[tuple[str, Any]] = [(f"{where}.seats[{i}]", p)
                                        for i, p in enumerate(self.seats)]
        named += [(f"{where}.lamps[{i}]", p) for i, p in enumerate(self.lamps)]
        named += [(f"{where}.{k}", getattr(self, k)) for k in ("confirm", "back", "next")]
        if self.piezo is not None:
            named.append((f"{where}.piezo", self.piezo))
        for name, pin in named:
            _pin(pin, name)
            if pin in used:
                raise ValueError(f"{name}: GPIO {pin} is already used by {used[pin]}")
            used[pin] = name
        if not isinstance(self.lamps_active_high, bool):
            raise ValueError(f"{where}.lamps_active_high: expected true or false, "
                             f"got {self.lamps_active_high!r}")

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], seats: int | None = None,
                  where: str = "pins") -> Self:
        """Read the ``pins`` table; ``seats`` (the seat count) trims the default pin lists."""
        _check_keys(d, cls.KEYS, where)
        if "seats" in d:
            seat_pins = _pin_list(d["seats"], f"{where}.seats")
            n = seats if seats is not None else len(seat_pins)
            if len(seat_pins) != n:
                raise ValueError(f"{where}.seats: {len(seat_pins)} pins given for {n} seats")
        else:
            n = seats if seats is not None else MAX_SEATS
            seat_pins = DEFAULT_SEAT_PINS[:n]
        lamp_pins = (_pin_list(d["lamps"], f"{where}.lamps") if "lamps" in d
                     else DEFAULT_LAMP_PINS[:n])
        singles: dict[str, int] = {}
        for key, default in (("confirm", DEFAULT_CONFIRM_PIN), ("back", DEFAULT_BACK_PIN),
                             ("next", DEFAULT_NEXT_PIN)):
            singles[key] = _pin(d.get(key, default), f"{where}.{key}")
        piezo_raw = d.get("piezo", DEFAULT_PIEZO_PIN)
        piezo = None if piezo_raw is None or piezo_raw == "none" else _pin(
            piezo_raw, f"{where}.piezo")
        active_high = d.get("lamps_active_high", True)
        if not isinstance(active_high, bool):
            raise ValueError(f"{where}.lamps_active_high: expected true or false, "
                             f"got {active_high!r}")
        return cls(seats=seat_pins, lamps=lamp_pins, piezo=piezo,
                   lamps_active_high=active_high, **singles)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "seats": list(self.seats), "lamps": list(self.lamps), "confirm": self.confirm,
            "back": self.back, "next": self.next, "lamps_active_high": self.lamps_active_high}
        # TOML has no null: "none" stands for "no piezo".
        d["piezo"] = self.piezo if self.piezo is not None else "none"
        return d


@dataclass(frozen=True)
class FirmwareConfig:
    """The whole ``[firmware]`` section."""

    backend: Backend = "gpio"
    pins: PinConfig = field(default_factory=PinConfig)
    arbiter: ArbiterConfig = field(default_factory=ArbiterConfig)
    sound: SoundConfig = field(default_factory=SoundConfig)

    KEYS = ("backend", "seats", "pins", "arbiter", "sound")

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise ValueError(f"backend: {self.backend!r} is not one of {', '.join(BACKENDS)}")

    @property
    def seats(self) -> int:
        """The number of seats (1-8); seat numbers are 1..seats."""
        return len(self.pins.seats)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self:
        _check_keys(d, cls.KEYS, "")
        backend = d.get("backend", "gpio")
        if backend not in BACKENDS:
            raise ValueError(f"backend: {backend!r} is not one of {', '.join(BACKENDS)}")
        seats = d.get("seats")
        if seats is not None and (isinstance(seats, bool) or not isinstance(seats, int)
                                  or not 1 <= seats <= MAX_SEATS):
            raise ValueError(f"seats: {seats!r} is not a seat count (1-{MAX_SEATS})")
        pins = PinConfig.from_dict(d.get("pins", {}), seats)
        return cls(backend=cast(Backend, backend), pins=pins,
                   arbiter=ArbiterConfig.from_dict(d.get("arbiter", {})),
                   sound=SoundConfig.from_dict(d.get("sound", {})))

    def to_dict(self) -> dict[str, Any]:
        return {"backend": self.backend, "seats": self.seats, "pins": self.pins.to_dict(),
                "arbiter": self.arbiter.to_dict(), "sound": self.sound.to_dict()}
