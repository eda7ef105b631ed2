"""Camera sources behind one small interface shaped like picamera2's.

Every source has ``configure(size=...)``, ``start()``, ``capture() -> Frame`` and
``close()``. A :class:`Frame` carries the BGR image for matching, a greyscale image for finding
(the Pi's lores Y plane, or a conversion), a CLOCK_MONOTONIC timestamp in ns (the same basis as
lgpio's GPIO edge ticks, so a card's appearance and a buzzer press can be ordered) and a
sequence number.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]

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

    def configure(self, size: tuple[int, int] = DEFAULT_SIZE) -> None: ...

    def start(self) -> None: ...

    def capture(self) -> Frame: ...

    def close(self) -> None: ...


class CameraError(RuntimeError):
    """A camera could not be opened or a frame could not be captured."""
