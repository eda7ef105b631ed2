"""All the buzzer hardware of one box, built from its config: ``build(config, pin_factory)``."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from firmware.arbiter import Arbiter, ArbiterStatus, Decision
from firmware.config import FirmwareConfig
from firmware.devices import EventSink, GpioButtons, HostButton, InputHub, KeyboardButtons
from firmware.lamps import LampMode, Lamps, LampState
from firmware.sound import PygameTone, WinSound, make_sound


@dataclass
class Firmware:
    """Buttons (GPIO or keyboard), lamps, sound and the arbiter, wired together.

    Seat edges reach the arbiter directly from the button callbacks; every event is also queued
    in ``hub`` for the app's loop. Each frame the app calls ``update(now_ns)``: it polls the
    arbiter, plays the win sound on a decision, and sets the lamps.
    """

    config: FirmwareConfig
    arbiter: Arbiter
    hub: InputHub
    buttons: GpioButtons | KeyboardButtons
    lamps: Lamps
    sound: WinSound
    #: the set-up's lamp test (issue 28, "Buttons and lamps"): while not None, these seats'
    #: lamps are lit and the others dark, whatever the arbiter says
    lamp_test: frozenset[int] | None = None

    def key_event(self, key_name: str, pressed: bool, t_ns: int) -> bool:
        """Feed a pygame key (keyboard backend); False if not a buzzer key or GPIO backend."""
        if isinstance(self.buttons, KeyboardButtons):
            return self.buttons.key_event(key_name, pressed, t_ns)
        return False

    def seat_event(self, seat: int, pressed: bool, t_ns: int) -> bool:
        """Feed seat ``seat`` (1..seats) going down/up (keyboard backend); False otherwise."""
        if isinstance(self.buttons, KeyboardButtons):
            return self.buttons.seat_event(seat, pressed, t_ns)
        return False

    def host_held(self, action: HostButton) -> bool:
        """Whether the host button ``action`` is down now (a long press of *back* opens the
        host menu)."""
        return self.buttons.host_held(action)

    def set_gain(self, gain: float) -> None:
        """The buzzer's loudness, 0 (muted) .. 1 (its configured volume)."""
        self.sound.gain = max(0.0, min(1.0, gain))

    @property
    def silent(self) -> bool:
        """True if the buzzer was meant to sound but cannot (no audio device)."""
        return bool(getattr(self.sound, "failed", False))

    def update(self, now_ns: int | None = None) -> Decision | None:
        """Poll the arbiter; on a decision play the sound. Set the lamps. Return the decision
        (once, in the frame it is taken)."""
        decision = self.arbiter.poll(now_ns)
        if decision is not None:
            self.sound.play()
        state = LampState.from_status(self.arbiter.status(now_ns))
        if self.lamp_test is not None:
            state = LampState(test=self.lamp_test)
        self.lamps.show(state)
        return decision

    def status(self, now_ns: int | None = None) -> ArbiterStatus:
        return self.arbiter.status(now_ns)

    @property
    def lamp_modes(self) -> tuple[LampMode, ...]:
        return self.lamps.modes

    def close(self) -> None:
        self.buttons.close()
        self.lamps.close()
        self.sound.close()

    def __enter__(self) -> Firmware:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def build(config: FirmwareConfig, pin_factory: Any | None = None, *,
          rng: random.Random | None = None, clock: Callable[[], int] = time.monotonic_ns,
          also: EventSink | None = None) -> Firmware:
    """Build the box's buzzer hardware. ``pin_factory`` None = gpiozero's default (lgpio on the
    Pi; RuntimeError with a hint if it is another one). The keyboard backend uses no pins:
    its lamps are virtual (``lamp_modes`` for the screen). ``also`` receives every event too
    (in the callback's thread)."""
    arbiter = Arbiter(config.seats, config.arbiter, rng=rng, clock=clock)
    hub = InputHub(arbiter, also)
    buttons: GpioButtons | KeyboardButtons
    if config.backend == "keyboard":
        buttons = KeyboardButtons(config.seats, hub)
        lamps = Lamps(config, virtual=True)
        # A laptop has no piezo pin: a piezo config plays its tone on the mixer instead.
        sound = PygameTone(config.sound) if config.sound.kind == "piezo" else \
            make_sound(config)
    else:
        buttons = GpioButtons(config, hub, pin_factory)
        try:
            lamps = Lamps(config, buttons.pin_factory)
            sound = make_sound(config, buttons.pin_factory)
        except Exception:
            buttons.close()
            raise
    sound.prepare()
    return Firmware(config, arbiter, hub, buttons, lamps, sound)
