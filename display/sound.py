"""Generated sounds (no audio files): the hourglass running out, and a short buzz blip.

:class:`Sounds` builds its tones with numpy when first played and plays them through
``pygame.mixer`` if an audio device can be opened; without one (headless, CI) it logs once and
every call is a no-op, so the app can call :meth:`Sounds.hourglass_end` unconditionally.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

_log = logging.getLogger(__name__)

SAMPLE_RATE = 44_100


def tone(freqs: tuple[float, ...], ms: int, *, rate: int = SAMPLE_RATE, volume: float = 0.5,
         fade_ms: int = 15) -> np.ndarray:
    """A chord of sine waves, ``ms`` long, as 16-bit stereo samples (shape: n × 2)."""
    n = max(1, rate * ms // 1000)
    t = np.arange(n) / rate
    wave = np.zeros(n)
    for f in freqs:
        wave += np.sin(2 * np.pi * f * t)
    wave /= max(1, len(freqs))
    fade = min(n // 2, rate * fade_ms // 1000)
    if fade > 0:
        ramp = np.linspace(0.0, 1.0, fade)
        wave[:fade] *= ramp
        wave[-fade:] *= ramp[::-1]
    mono = (np.asarray(wave) * volume * 32767).astype(np.int16)
    return np.column_stack([mono, mono])


def hourglass_end_samples(rate: int = SAMPLE_RATE) -> np.ndarray:
    """Three falling beeps: time is up."""
    gap = np.zeros((rate * 80 // 1000, 2), np.int16)
    beeps = [tone((880.0, 1320.0), 180, rate=rate), gap, tone((740.0, 1110.0), 180, rate=rate),
             gap, tone((587.0, 880.0), 420, rate=rate)]
    return np.concatenate(beeps)


def buzz_samples(rate: int = SAMPLE_RATE) -> np.ndarray:
    """A short bright blip for a won buzz."""
    return tone((1046.5, 1568.0), 120, rate=rate, volume=0.4)


_gain = 1.0


def set_gain(gain: float) -> None:
    """The host's volume for every game's sounds: 0 (muted) .. 1."""
    global _gain
    _gain = max(0.0, min(1.0, gain))


class Sounds:
    """The app's sound hooks. Safe to call without an audio device."""

    def __init__(self) -> None:
        self._ready: bool | None = None
        self._sounds: dict[str, Any] = {}
        self.played: list[str] = []  # what was asked for (for the app's tests and logs)

    def _init(self) -> bool:
        if self._ready is None:
            import pygame

            try:
                if not pygame.mixer.get_init():
                    pygame.mixer.init(frequency=SAMPLE_RATE, size=-16, channels=2)
                self._ready = True
            except pygame.error as exc:
                _log.info("display: no audio device (%s); sounds are off", exc)
                self._ready = False
        return self._ready

    def available(self) -> bool:
        """Whether sounds can be heard here (an audio device opened)."""
        return self._init()

    def _play(self, name: str, make: Any) -> bool:
        self.played.append(name)
        if _gain <= 0 or not self._init():
            return False
        import pygame

        sound = self._sounds.get(name)
        if sound is None:
            freq, _, channels = pygame.mixer.get_init() or (SAMPLE_RATE, -16, 2)
            samples = make(freq)
            if channels == 1:
                samples = samples[:, 0].copy()
            sound = pygame.sndarray.make_sound(np.ascontiguousarray(samples))
            self._sounds[name] = sound
        sound.set_volume(_gain)
        sound.play()
        return True

    def hourglass_end(self) -> bool:
        """The hourglass ran out. Returns whether a sound was actually played."""
        return self._play("hourglass_end", hourglass_end_samples)

    def buzz(self) -> bool:
        """A buzz was won."""
        return self._play("buzz", buzz_samples)
