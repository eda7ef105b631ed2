"""Generated tones and the sound hooks."""

from __future__ import annotations

import display_testing  # noqa: F401  (headless SDL first)
import numpy as np

from display.sound import Sounds, hourglass_end_samples, tone


def test_tone_shape_and_level() -> None:
    samples = tone((440.0,), 100, rate=8000, volume=0.5)
    assert samples.shape == (800, 2) and samples.dtype == np.int16
    assert 15000 < int(np.abs(samples).max()) <= 16384
    assert abs(int(samples[0, 0])) < 200  # faded in: no click


def test_hourglass_end_is_about_a_second() -> None:
    samples = hourglass_end_samples(rate=8000)
    assert 0.8 < len(samples) / 8000 < 1.2


def test_hooks_never_raise() -> None:
    sounds = Sounds()
    sounds.hourglass_end()
    sounds.buzz()
    assert sounds.played == ["hourglass_end", "buzz"]
