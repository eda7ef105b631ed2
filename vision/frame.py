"""The camera's interface, on its own: a :class:`Frame`, a :class:`Camera` source, its errors.

Every source implements it: :mod:`vision.camera`'s (the Pi camera, OpenCV, a folder) and the
simulated table (:mod:`vision.simtable`), which :func:`vision.camera.open_camera` opens for
``source = "sim"``; so the simulated table imports this, not :mod:`vision.camera` (issue 42:
no import circles). :mod:`vision.camera` re-exports every name here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
Clock = Callable[[], int]  # -> ns

DEFAULT_SIZE = (640, 480)


@dataclass(frozen=True, eq=False)
class Frame:
    """One captured frame."""

    image: Image  # BGR uint8 (h, w, 3)
    grey: Image | None  # uint8 (h', w') greyscale for finding, maybe smaller; None if absent
    t_ns: int  # CLOCK_MONOTONIC ns when the frame was exposed (sensor timestamp if known)
    seq: int  # 0, 1, 2 ... per source


class Camera(Protocol):
    """What every camera source provides."""

    def configure(self, size: tuple[int, int] | None = None) -> None: ...

    def start(self) -> None: ...

    def capture(self) -> Frame: ...

    def close(self) -> None: ...


class CameraError(RuntimeError):
    """A camera could not be opened or a frame could not be captured."""


class EndOfFrames(CameraError):
    """A finite source (a folder without looping, a video file) has no more frames."""
