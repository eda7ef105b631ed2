"""The short sound on a buzzer win: a generated tone on pygame's mixer, or a GPIO piezo.

No sound files: the tone is a sine wave with a short fade in and out, made with numpy.
If the mixer cannot start (no audio device), that is logged once and the sound stays silent;
the game goes on.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Protocol

import numpy as np

from firmware.config import FirmwareConfig, SoundConfig
from firmware.devices import resolve_pin_factory

log = logging.getLogger(__name__)

SAMPLE_RATE = 44_100


class WinSound(Protocol):
    #: the host's volume, 0 (muted) .. 1 (the configured volume)
    gain: float

    def prepare(self) -> None: ...

    def play(self) -> None: ...

    def close(self) -> None: ...


class Silent:
    """No sound (``sound.kind = "none"``)."""

    gain = 1.0
    failed = False

    def prepare(self) -> None:
        pass

    def play(self) -> None:
        pass

    def close(self) -> None:
        pass


def tone_samples(frequency_hz: float, duration_ms: float, volume: float,
                 sample_rate: int = SAMPLE_RATE) -> np.ndarray[Any, np.dtype[np.int16]]:
    """A mono int16 sine tone with 5 ms linear fades (no clicks)."""
    n = max(1, round(sample_rate * duration_ms / 1000))
    t = np.arange(n) / sample_rate
    wave = np.sin(2 * np.pi * frequency_hz * t)
    fade = min(n // 2, round(sample_rate * 0.005))
    if fade:
        ramp = np.linspace(0.0, 1.0, fade)
        wave[:fade] *= ramp
        wave[n - fade:] *= ramp[::-1]
    return (wave * volume * 32767).astype(np.int16)


def output_names() -> list[str]:
    """The audio outputs SDL sees (``pygame._sdl2.audio``), once the mixer runs (SDL lists
    them only then); [] before, or without audio."""
    import pygame
    from pygame._sdl2 import audio

    try:
        return [str(n) for n in audio.get_audio_device_names(False)]
    except pygame.error:
        return []


#: How the mixer was opened by :func:`open_mixer` (for the log and the self-test).
opened: list[str] = []


def open_mixer(device: str, channels: int) -> str:
    """Start pygame's mixer on ``device`` ([firmware.sound] device). "" = the default
    output. A name is first tried as an SDL output (``pygame.mixer.init(devicename=...)``,
    the names :func:`output_names` lists); if SDL knows no such output, it is taken as an
    ALSA device (``plughw:CARD=Device,DEV=0``, as ``aplay -L`` lists them) and given to SDL's
    ALSA driver as ``AUDIODEV`` on the default output. Returns how it was opened."""
    import os

    import pygame

    if not device:
        pygame.mixer.init(frequency=SAMPLE_RATE, size=-16, channels=channels)
        how = "the default output"
    else:
        try:
            pygame.mixer.init(frequency=SAMPLE_RATE, size=-16, channels=channels,
                              devicename=device)
            how = f"output {device!r}"
        except pygame.error:
            os.environ["AUDIODEV"] = device
            pygame.mixer.init(frequency=SAMPLE_RATE, size=-16, channels=channels)
            how = f"ALSA device {device!r} (AUDIODEV)"
    opened[:] = [how]
    log.info("sound: the mixer plays on %s", how)
    return how


class PygameTone:
    """A tone on pygame's mixer. The mixer starts on the first ``play()``."""

    def __init__(self, config: SoundConfig) -> None:
        self.config = config
        #: the host's volume (0: muted .. 1: the configured volume)
        self.gain = 1.0
        self._sound: Any = None
        self._failed = False
        self._lock = threading.Lock()

    def _load(self) -> Any:
        import pygame

        if pygame.mixer.get_init() is None:
            open_mixer(self.config.device, channels=1)
        init = pygame.mixer.get_init()
        if init is None:
            raise RuntimeError("pygame.mixer did not initialise")
        freq, _fmt, channels = init
        cfg = self.config
        samples = tone_samples(cfg.frequency_hz, cfg.duration_ms, cfg.volume, freq)
        if channels > 1:
            samples = np.repeat(samples[:, None], channels, axis=1)
        return pygame.sndarray.make_sound(np.ascontiguousarray(samples))

    def prepare(self) -> None:
        """Start the mixer and make the tone now, so the first win plays without delay."""
        with self._lock:
            self._prepare()

    def _prepare(self) -> bool:
        if self._failed:
            return False
        if self._sound is None:
            try:
                self._sound = self._load()
            except Exception as exc:  # pygame.error, no device, ...
                self._failed = True
                log.warning("no sound: the audio mixer did not start (%s); "
                            "the buzzer stays silent", exc)
                return False
        return True

    @property
    def failed(self) -> bool:
        """The mixer could not start (no audio device): the buzzer is silent."""
        return self._failed

    def play(self) -> None:
        with self._lock:
            if self.gain > 0 and self._prepare():
                self._sound.set_volume(self.gain)
                self._sound.play()

    def close(self) -> None:
        self._sound = None


class PiezoTone:
    """A tone on a piezo buzzer (gpiozero ``TonalBuzzer``), stopped after the duration."""

    def __init__(self, config: FirmwareConfig, pin_factory: Any | None = None) -> None:
        from gpiozero import TonalBuzzer
        from gpiozero.tones import Tone

        if config.pins.piezo is None:
            raise ValueError('sound.kind: "piezo" needs pins.piezo')
        self.config = config.sound
        self.gain = 1.0  # (a piezo has one loudness: 0 mutes it)
        self.failed = False
        self._tone = Tone(frequency=config.sound.frequency_hz)
        self.buzzer: Any = TonalBuzzer(config.pins.piezo, mid_tone=self._tone, octaves=1,
                                       pin_factory=resolve_pin_factory(pin_factory))
        self._timer: threading.Timer | None = None

    def prepare(self) -> None:
        pass

    def play(self) -> None:
        if self.gain <= 0:
            return
        if self._timer is not None:
            self._timer.cancel()
        self.buzzer.play(self._tone)
        self._timer = threading.Timer(self.config.duration_ms / 1000, self.stop)
        self._timer.daemon = True
        self._timer.start()

    def stop(self) -> None:
        self.buzzer.stop()

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self.buzzer.close()


def make_sound(config: FirmwareConfig, pin_factory: Any | None = None) -> WinSound:
    """The win sound the config asks for."""
    if config.sound.kind == "piezo":
        return PiezoTone(config, pin_factory)
    if config.sound.kind == "pygame":
        return PygameTone(config.sound)
    return Silent()
