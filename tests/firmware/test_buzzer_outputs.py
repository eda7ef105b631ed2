"""Lamps follow state; the win sound (pygame tone or piezo); the whole box built on MockFactory."""

from __future__ import annotations

import logging
import random
from typing import Any

import numpy as np
import pytest

from firmware.arbiter import Arbiter, ArbiterPhase
from firmware.box import build
from firmware.config import FirmwareConfig, SoundConfig
from firmware.devices import HostButton, HostPress, SeatEdge
from firmware.lamps import LampMode, Lamps, LampState, lamp_modes
from firmware.mock import mock_factory
from firmware.sound import PiezoTone, PygameTone, Silent, make_sound, tone_samples

MS = 1_000_000
T0 = 5_000_000 * MS
OFF, ON, BLINK, FAST = LampMode.OFF, LampMode.ON, LampMode.BLINK, LampMode.FAST_BLINK
QUIET = FirmwareConfig.from_dict({"sound": {"kind": "none"}})


class FakeClock:
    def __init__(self, now: int = T0) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


def test_lamp_modes_follow_the_state() -> None:
    assert lamp_modes(LampState(), 3) == (OFF, OFF, OFF)
    assert lamp_modes(LampState(armed=True), 3) == (ON, ON, ON)
    assert lamp_modes(LampState(armed=True, locked_out=frozenset({2})), 3) == (ON, FAST, ON)
    assert lamp_modes(LampState(armed=False, locked_out=frozenset({1})), 3) == (FAST, OFF, OFF)
    assert lamp_modes(LampState(winner=3, locked_out=frozenset({1})), 3) == (OFF, OFF, BLINK)


def test_lamp_state_from_the_arbiter_status() -> None:
    clock = FakeClock()
    arb = Arbiter(3, rng=random.Random(1), clock=clock)
    arb.edge(2, True, T0 - 50 * MS)
    arb.edge(2, False, T0 - 40 * MS)
    arb.arm(T0)
    assert LampState.from_status(arb.status(T0)) == LampState(True, None, frozenset({2}))
    arb.edge(1, True, T0 + 10 * MS)
    assert arb.poll(T0 + 30 * MS) is not None
    assert arb.status(T0 + 30 * MS).phase is ArbiterPhase.DECIDED
    assert LampState.from_status(arb.status(T0 + 30 * MS)) == LampState(False, 1, frozenset())


def _is_blinking(led: Any) -> bool:
    return getattr(led, "_blink_thread", None) is not None


def test_lamps_drive_gpiozero_leds() -> None:
    factory = mock_factory()
    with Lamps(FirmwareConfig(), factory) as lamps:
        assert [led.is_lit for led in lamps.leds] == [False] * 8
        lamps.show(LampState(armed=True, locked_out=frozenset({4})))
        assert [led.is_lit for i, led in enumerate(lamps.leds) if i != 3] == [True] * 7
        assert _is_blinking(lamps.leds[3]) and not _is_blinking(lamps.leds[0])
        modes = lamps.show(LampState(winner=6))
        assert modes == (OFF,) * 5 + (BLINK,) + (OFF,) * 2
        assert _is_blinking(lamps.leds[5]) and not _is_blinking(lamps.leds[3])
        assert not any(led.is_lit for i, led in enumerate(lamps.leds) if i != 5)
        lamps.show(LampState())
        assert not any(_is_blinking(led) or led.is_lit for led in lamps.leds)


def test_active_low_lamps_and_no_lamps() -> None:
    factory = mock_factory()
    cfg = FirmwareConfig.from_dict({"seats": 2, "pins": {"lamps_active_high": False}})
    with Lamps(cfg, factory) as lamps:
        lamps.show(LampState(armed=True))
        assert [factory.pin(p).state for p in cfg.pins.lamps] == [0, 0]  # low = lit
        lamps.show(LampState())
        assert [factory.pin(p).state for p in cfg.pins.lamps] == [1, 1]
    unlit = FirmwareConfig.from_dict({"seats": 2, "pins": {"lamps": []}})
    lamps = Lamps(unlit, factory)
    assert lamps.leds == [] and lamps.show(LampState(armed=True)) == (ON, ON)


def test_tone_samples() -> None:
    s = tone_samples(1000, 100, 0.5, 8000)
    assert s.dtype == np.int16 and len(s) == 800
    assert 0.45 * 32767 < np.abs(s).max() <= 0.5 * 32767 + 1
    assert abs(int(s[0])) < 50 and abs(int(s[-1])) < 500  # faded in and out: no click


def test_pygame_tone_plays_on_the_dummy_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import pygame

    sound = PygameTone(SoundConfig())
    try:
        sound.play()
        assert sound._sound is not None and not sound._failed
        assert sound._sound.get_length() == pytest.approx(0.18, abs=0.01)
    finally:
        sound.close()
        pygame.mixer.quit()


def test_no_audio_device_is_logged_once_and_silent(monkeypatch: pytest.MonkeyPatch,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    import pygame

    def no_device(*args: Any, **kwargs: Any) -> None:
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    sound = PygameTone(SoundConfig())
    with caplog.at_level(logging.WARNING, logger="firmware.sound"):
        sound.play()
        sound.play()
    assert [r.getMessage() for r in caplog.records] == [
        "no sound: the audio mixer did not start (No available audio device); "
        "the buzzer stays silent"]


def test_piezo_plays_the_tone_and_stops() -> None:
    factory = mock_factory()
    cfg = FirmwareConfig.from_dict({"sound": {"kind": "piezo", "frequency_hz": 1000}})
    sound = make_sound(cfg, factory)
    assert isinstance(sound, PiezoTone)
    pin = factory.pin(cfg.pins.piezo)
    try:
        sound.play()
        assert pin.frequency == pytest.approx(1000)
        sound.stop()
        assert not pin.frequency
    finally:
        sound.close()


def test_piezo_needs_a_pin() -> None:
    cfg = FirmwareConfig.from_dict({"pins": {"piezo": "none"}, "sound": {"kind": "piezo"}})
    with pytest.raises(ValueError, match=r"needs pins\.piezo"):
        make_sound(cfg, mock_factory())


def test_box_on_mock_pins_decides_lights_and_sounds() -> None:
    factory = mock_factory()
    clock = FakeClock()
    played: list[int] = []
    with build(QUIET, factory, rng=random.Random(2), clock=clock) as fw:
        assert isinstance(fw.sound, Silent)
        fw.sound = type("Counting", (), {"play": lambda self: played.append(1),
                                         "close": lambda self: None})()
        fw.arbiter.arm(T0)
        assert fw.update(T0) is None and fw.lamp_modes == (ON,) * 8
        factory.pin(QUIET.pins.seats[4]).press(T0 + 200 * MS)
        factory.pin(QUIET.pins.seats[1]).press(T0 + 201 * MS)
        factory.pin(QUIET.pins.confirm).press(T0 + 300 * MS)
        d = fw.update(T0 + 250 * MS)
        assert d is not None and (d.winner, d.runner_up, d.margin_us) == (5, 2, 1000.0)
        assert played == [1]
        assert fw.lamp_modes == (OFF,) * 4 + (BLINK,) + (OFF,) * 3
        assert fw.update(T0 + 260 * MS) is None and played == [1]
        assert fw.hub.drain() == [SeatEdge(5, True, T0 + 200 * MS),
                                  SeatEdge(2, True, T0 + 201 * MS),
                                  HostPress(HostButton.CONFIRM, T0 + 300 * MS)]
        assert fw.key_event("1", True, T0) is False  # GPIO backend: keys are not buttons


def test_box_on_the_keyboard_needs_no_pins() -> None:
    clock = FakeClock()
    cfg = FirmwareConfig.from_dict({"backend": "keyboard", "seats": 4,
                                    "sound": {"kind": "none"}})
    with build(cfg, rng=random.Random(2), clock=clock) as fw:
        fw.arbiter.arm(T0)
        assert fw.key_event("3", True, T0 + 5 * MS)
        assert fw.key_event("space", True, T0 + 6 * MS)
        d = fw.update(T0 + 50 * MS)
        assert d is not None and d.winner == 3
        assert fw.lamp_modes == (OFF, OFF, BLINK, OFF)
        assert [type(e).__name__ for e in fw.hub.drain()] == ["SeatEdge", "HostPress"]


def test_box_refuses_a_bad_pin_factory_cleanly() -> None:
    from gpiozero.pins import Factory

    class PiGPIOFactory(Factory):  # type: ignore[misc]
        pass

    with pytest.raises(RuntimeError, match="needs lgpio"):
        build(QUIET, PiGPIOFactory())
