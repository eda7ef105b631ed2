"""Fine alignment of a found card to one template (``cv2.findTransformECC``).

A card's outline gives its corners to a pixel or two; on a pile (white card on white cards)
or on a pale table one side can be a few pixels off. Template matching at the canonical size
is sensitive to that: one per cent of the short side outward costs some decks two per cent of
their accuracy, two per cent costs a fifth (measured with the bench's true corners). So a card
whose verdict is uncertain is aligned to a candidate template by what is *printed* on it
(frame lines, digits, pictures), which is sharp where the outline may not be:

* the frame around the card's corners is warped to the template's size at ``long_side`` px,
  with a margin of ``margin`` of the long side all round (room for the card to move);
* ``cv2.findTransformECC`` (enhanced correlation coefficient maximisation, Evangelidis &
  Psarakis 2008) finds the homography that best maps the template onto that patch, starting
  from "the corners are right";
* the template's corners, mapped through that homography back into the frame, are the card's
  corners as the template sees them.

An alignment that does not converge, or that moves a corner by more than ``max_move`` of the
card's short side, is refused (None): the candidate does not fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.find import FloatArray, Image, to_grey

F32 = npt.NDArray[np.float32]


@dataclass(frozen=True)
class AlignParams:
    long_side: int = 64  # px: the template's long side while aligning
    margin: float = 0.08  # of the long side, all round the card
    iterations: int = 15
    epsilon: float = 1e-4
    smoothing: int = 3  # Gaussian filter size ECC applies to both images (odd)
    max_move: float = 0.15  # of the short side: the largest corner move accepted

    def __post_init__(self) -> None:
        if not 16 <= self.long_side <= 512:
            raise ValueError(f"long_side: {self.long_side} is not in 16..512")
        if not 0 <= self.margin <= 0.5:
            raise ValueError(f"margin: {self.margin} is not in 0..0.5")
        if not 1 <= self.iterations <= 1000:
            raise ValueError(f"iterations: {self.iterations} is not in 1..1000")
        if self.smoothing < 1 or self.smoothing % 2 == 0:
            raise ValueError(f"smoothing: {self.smoothing} is not an odd number >= 1")
        if not 0 < self.max_move <= 1:
            raise ValueError(f"max_move: {self.max_move} is not in (0, 1]")


class Aligner:
    """Aligns found cards to the templates of one deck (grey, at ``params.long_side``)."""

    def __init__(self, templates: Sequence[Any], size: tuple[int, int],
                 params: AlignParams | None = None) -> None:
        self.params = params or AlignParams()
        w, h = size
        s = self.params.long_side / max(w, h)
        self.size = (max(8, round(w * s)), max(8, round(h * s)))
        self._templates = [
            np.asarray(cv2.resize(to_grey(np.asarray(t, dtype=np.uint8)), self.size,
                                  interpolation=cv2.INTER_AREA), dtype=np.float32)
            for t in templates
        ]

    @property
    def templates(self) -> Sequence[npt.NDArray[np.float32]]:
        """The deck's templates as this aligner keeps them: grey, float32, at :attr:`size`
        (the only copy a matcher keeps; ``vision.keypoints`` describes them)."""
        return tuple(self._templates)

    def align(self, grey: Image, corners: FloatArray, index: int,
              rotation: int = 0) -> FloatArray | None:
        """``corners`` (clockwise, first edge short, as ``vision.find`` orders them) of a card
        in the grey frame ``grey``, moved so that template ``index`` turned ``rotation``
        quarter turns clockwise fits the card best; None if it cannot be made to fit."""
        p = self.params
        t = self._templates[index]
        if rotation % 4:
            t = np.ascontiguousarray(np.rot90(t, k=-(rotation % 4)))
        th, tw = t.shape
        # The card's corners are the outer corners of the template's corner pixels (pixel
        # centres are whole numbers: the first pixel spans -0.5..0.5).
        tc = np.array([[-0.5, -0.5], [tw - 0.5, -0.5], [tw - 0.5, th - 0.5], [-0.5, th - 0.5]],
                      dtype=np.float32)
        m = max(3, round(p.margin * p.long_side))
        q = np.asarray(corners, dtype=np.float32).reshape(4, 2)
        to_patch = cv2.getPerspectiveTransform(q, tc + np.float32(m))
        patch = np.asarray(
            cv2.warpPerspective(grey, to_patch, (tw + 2 * m, th + 2 * m),
                                flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE),
            dtype=np.float32,
        )
        # Only pixels that come from the frame count (not the border filled in around it).
        valid = np.asarray(
            cv2.warpPerspective(np.full(grey.shape[:2], 255, np.uint8), to_patch,
                                (tw + 2 * m, th + 2 * m), flags=cv2.INTER_NEAREST,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=0),
            dtype=np.uint8,
        )
        warp = np.array([[1, 0, m], [0, 1, m], [0, 0, 1]], dtype=np.float32)
        criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, p.iterations, p.epsilon)
        try:
            _, found = cv2.findTransformECC(t, patch, warp, cv2.MOTION_HOMOGRAPHY, criteria,
                                            valid, p.smoothing)
        except cv2.error:  # did not converge (a flat patch, a card that does not fit)
            return None
        in_patch = cv2.perspectiveTransform(tc.reshape(-1, 1, 2), np.asarray(found, np.float64))
        out = np.asarray(
            cv2.perspectiveTransform(in_patch, np.linalg.inv(to_patch)).reshape(4, 2),
            dtype=np.float32,
        )
        if not np.isfinite(out).all():
            return None
        e = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
        if float(np.abs(out - q).max()) > p.max_move * float(e.min()) + 1.0:
            return None
        return out
