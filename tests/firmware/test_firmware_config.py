"""The [firmware] config section: defaults, round trip, and a clear error for each bad value."""

from __future__ import annotations

from typing import Any

import pytest

from firmware.config import (
    DEFAULT_LAMP_PINS,
    DEFAULT_SEAT_PINS,
    ArbiterConfig,
    FirmwareConfig,
    PinConfig,
    SoundConfig,
)


def test_empty_section_is_the_default_wiring() -> None:
    cfg = FirmwareConfig.from_dict({})
    assert cfg == FirmwareConfig()
    assert cfg.seats == 8 and cfg.pins.seats == DEFAULT_SEAT_PINS
    assert cfg.pins.lamps == DEFAULT_LAMP_PINS
    assert cfg.arbiter.lockout_ns == 250_000_000 and cfg.arbiter.tie_window_ns == 100_000
    assert cfg.sound.kind == "pygame" and cfg.backend == "gpio"


def test_round_trip() -> None:
    cfg = FirmwareConfig.from_dict({
        "backend": "keyboard", "seats": 4,
        "pins": {"lamps": [], "piezo": None, "lamps_active_high": False},
        "arbiter": {"settle_ms": 8, "tie_window_us": 20},
        "sound": {"kind": "piezo", "frequency_hz": 1000},
    })
    assert cfg.seats == 4 and cfg.pins.seats == DEFAULT_SEAT_PINS[:4] and cfg.pins.lamps == ()
    assert cfg.pins.piezo is None and cfg.arbiter.settle_ns == 8_000_000
    assert FirmwareConfig.from_dict(cfg.to_dict()) == cfg
    assert FirmwareConfig.from_dict(FirmwareConfig().to_dict()) == FirmwareConfig()


def test_seat_count_follows_the_pin_list() -> None:
    cfg = FirmwareConfig.from_dict({"pins": {"seats": [4, 17, 27], "lamps": [23, 24, 25]}})
    assert cfg.seats == 3


@pytest.mark.parametrize(("section", "message"), [
    ({"pins": {"seats": [4, 17, 27, 99]}}, r"pins\.seats\[3\]: 99 is not a BCM GPIO number"),
    ({"pins": {"seats": [4, -1]}}, r"pins\.seats\[1\]: -1 is not a BCM GPIO number"),
    ({"pins": {"seats": [4, "17"]}}, r"pins\.seats\[1\]: '17' is not a BCM GPIO number"),
    ({"pins": {"seats": [4, True]}}, r"pins\.seats\[1\]: True is not a BCM GPIO number"),
    ({"pins": {"seats": "4,17"}}, r"pins\.seats: expected a list"),
    ({"pins": {"seats": []}}, r"pins\.seats: 0 seat pins given, expected 1-8"),
    ({"pins": {"seats": list(range(2, 11))}}, r"pins\.seats: 9 seat pins given"),
    ({"seats": 0}, r"seats: 0 is not a seat count \(1-8\)"),
    ({"seats": 9}, r"seats: 9 is not a seat count"),
    ({"seats": 3, "pins": {"seats": [4, 17]}}, r"pins\.seats: 2 pins given for 3 seats"),
    ({"pins": {"seats": [4, 17], "lamps": [23]}}, r"pins\.lamps: 1 lamp pins for 2 seats"),
    ({"pins": {"seats": [4, 17], "lamps": [23, 4]}},
     r"pins\.lamps\[1\]: GPIO 4 is already used by pins\.seats\[0\]"),
    ({"pins": {"confirm": 17}}, r"pins\.confirm: GPIO 17 is already used by pins\.seats\[1\]"),
    ({"pins": {"piezo": 18}}, r"pins\.piezo: GPIO 18 is already used by pins\.lamps\[0\]"),
    ({"pins": {"next": 28}}, r"pins\.next: 28 is not a BCM GPIO number \(0-27\)"),
    ({"pins": {"lamps_active_high": "yes"}}, r"pins\.lamps_active_high: expected true or false"),
    ({"pins": {"seat": [4]}}, r"pins\.seat: unknown key"),
    ({"sets": 3}, r"sets: unknown key"),
    ({"backend": "serial"}, r"backend: 'serial' is not one of gpio, keyboard"),
    ({"arbiter": {"settle_ms": "10"}}, r"arbiter\.settle_ms: expected a number"),
    ({"arbiter": {"lockout_ms": -5}}, r"arbiter\.lockout_ms: -5.0 is out of range"),
    ({"arbiter": {"stuck_s": 0}}, r"arbiter\.stuck_s: 0.0 is out of range"),
    ({"arbiter": {"tie_us": 3}}, r"arbiter\.tie_us: unknown key"),
    ({"sound": {"kind": "mp3"}}, r"sound\.kind: 'mp3' is not one of pygame, piezo, none"),
    ({"sound": {"volume": 2}}, r"sound\.volume: 2.0 is out of range"),
    ({"sound": {"frequency_hz": 5}}, r"sound\.frequency_hz: 5.0 is out of range"),
    ({"pins": 5}, r"pins: expected a table"),
])
def test_bad_config_names_the_key(section: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        FirmwareConfig.from_dict(section)


def test_dataclasses_built_in_code_are_checked_too() -> None:
    with pytest.raises(ValueError, match=r"pins\.seats\[0\]: 30"):
        PinConfig(seats=(30,), lamps=())
    with pytest.raises(ValueError, match=r"arbiter\.settle_ms"):
        ArbiterConfig(settle_ms=-1)
    with pytest.raises(ValueError, match=r"sound\.kind"):
        SoundConfig(kind="beep")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"backend"):
        FirmwareConfig(backend="x")  # type: ignore[arg-type]
