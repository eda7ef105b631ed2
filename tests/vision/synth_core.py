"""Synthetic cards and tables for the finder/matcher tests (independent of the demo decks)."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]


def make_card(seed: int, size: tuple[int, int] = (100, 150), colour: bool = False) -> Image:
    """A white card with a margin, a printed frame and random shapes and digits inside."""
    rng = np.random.default_rng(seed)
    w, h = size
    img = np.full((h, w, 3), 245, np.uint8)
    m = max(6, w // 10)
    for _ in range(6):
        c = tuple(
            int(v) for v in (rng.integers(0, 200, 3) if colour else [rng.integers(0, 160)] * 3)
        )
        r = int(rng.integers(4, max(5, w // 6)))
        x, y = int(rng.integers(m + r, w - m - r)), int(rng.integers(m + r, h - m - r))
        if rng.random() < 0.5:
            cv2.circle(img, (x, y), r, c, -1)
        else:
            cv2.rectangle(img, (x - r, y - r // 2), (x + r, y + r), c, -1)
    cv2.putText(
        img, str(seed % 100), (w // 6, h // 2), cv2.FONT_HERSHEY_SIMPLEX, w / 60, (20, 20, 20), 2
    )
    cv2.rectangle(img, (m // 2, m // 2), (w - 1 - m // 2, h - 1 - m // 2), (60, 60, 60), 1)
    return img


def table(size: tuple[int, int] = (640, 480), light: bool = False, seed: int = 0) -> Image:
    rng = np.random.default_rng(seed)
    w, h = size
    base = 200 if light else 55
    img = np.full((h, w, 3), base, np.uint8)
    small = rng.normal(0, 6, (h // 8, w // 8, 3)).astype(np.float32)
    noise = np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC), np.float32)
    tint = np.array([0, 10, 25] if light else [20, 40, 10], np.float32)
    return np.asarray(np.clip(img + noise + tint, 0, 255), dtype=np.uint8)


def card_corners(
    centre: tuple[float, float], size: tuple[float, float], angle_deg: float
) -> npt.NDArray[np.float32]:
    """Corners TL, TR, BR, BL of a card of ``size`` (w, h) px turned ``angle_deg`` clockwise."""
    w, h = size
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]], np.float32)
    a = np.deg2rad(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    return (pts @ rot.T + np.array(centre, np.float32)).astype(np.float32)


def paste(dst: Image, card: Image, corners: npt.NDArray[np.float32], shadow: bool = True) -> None:
    """Draw ``card`` into ``dst`` (in place) with its corners TL, TR, BR, BL at ``corners``."""
    h, w = card.shape[:2]
    src = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    m = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    H, W = dst.shape[:2]
    if shadow:
        mask = np.zeros((H, W), np.float32)
        cv2.fillConvexPoly(mask, (corners + 1.5).astype(np.int32), 1.0)
        mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), 2), np.float32)
        dst[:] = (dst * (1 - 0.2 * mask[..., None])).astype(np.uint8)
    warped = cv2.warpPerspective(card, m, (W, H), flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, (W, H), flags=cv2.INTER_AREA)
    a = (alpha.astype(np.float32) / 255.0)[..., None]
    dst[:] = (dst * (1 - a) + warped * a).astype(np.uint8)
