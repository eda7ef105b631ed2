"""Frames like photos of real tables, for the finder's tests (``test_find_real_tables.py``).

Each condition of issue 16 item 2 is drawn with cv2 on purpose, so that the thing the finder
must cope with is there at a realistic size: a card filling most of a close-up photo, a card
touching the frame's edge, rounded corners (radius 4-6 % of the card's width, like a poker
card's 3 mm on 63 mm), a white-bordered card on a white or light-wood table (contrast of a
dozen grey levels at the card's edge, a soft shadow on two sides), a glare spot on a glossy
card, a card in a sleeve (a clear rim 2-3 % wider than the card, a light haze over it).

The card's face is any image: a demo deck's template, or one of the real SET photos of
``../shared/data/set-crops`` (real card pixels pasted into a synthetic frame: the frame is
drawn, the card is not).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float32]

def _shared_data(name: str) -> Path:
    """``../shared/data/<name>`` beside the checkout (for a git worktree, beside its main
    checkout too)."""
    root = Path(__file__).resolve().parents[2]
    tops = [root]
    git = root / ".git"
    if git.is_file():  # a worktree: "gitdir: <main>/.git/worktrees/<name>"
        line = git.read_text(encoding="utf-8").strip()
        if line.startswith("gitdir:"):
            tops.append(Path(line[7:].strip()).resolve().parents[2])
    for top in tops:
        if (top.parent / "shared" / "data" / name).is_dir():
            return top.parent / "shared" / "data" / name
    return root.parent / "shared" / "data" / name


#: The real SET photos (Apache-2.0, tomwhite/set-game; read SOURCE.md there):
#: ``$TABLEKEEPER_SET_CROPS``, or ``../shared/data/set-crops`` beside the checkout.
SET_CROPS = Path(os.environ.get("TABLEKEEPER_SET_CROPS") or _shared_data("set-crops"))


@dataclass(frozen=True)
class Look:
    """How a photo of one card on a table looks."""

    table: str = "dark"  # dark | white | wood | cloth
    radius: float = 0.05  # corner radius, of the card's width
    shadow: float = 0.0  # darkening of the table beside the card (0..1), down-right
    glare: float = 0.0  # brightness added at the glare spot's centre (grey levels)
    sleeve: bool = False
    light: float = 1.0  # overall light (multiplies everything)
    blur: float = 0.8  # Gaussian sigma, px
    noise: float = 2.5  # grey levels
    jpeg: int = 90


def _table(kind: str, w: int, h: int, rng: np.random.Generator) -> FloatArray:
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    grad = 1.0 + 0.06 * (x / w - 0.5) - 0.05 * (y / h - 0.5)
    if kind == "dark":
        base = np.array([38, 36, 34], np.float32)
        tex = cv2.resize(rng.normal(0, 4, (h // 6 + 1, w // 6 + 1)).astype(np.float32),
                         (w, h))
        img = base[None, None, :] + tex[:, :, None]
    elif kind == "cloth":
        base = np.array([60, 110, 40], np.float32)
        tex = rng.normal(0, 6, (h, w)).astype(np.float32)
        img = base[None, None, :] + cv2.GaussianBlur(tex, (0, 0), 0.7)[:, :, None]
    elif kind == "white":  # a white table top: a dozen levels below white card paper
        base = np.array([222, 226, 228], np.float32)
        tex = cv2.resize(rng.normal(0, 2, (h // 10 + 1, w // 10 + 1)).astype(np.float32),
                         (w, h))
        img = base[None, None, :] + tex[:, :, None]
    elif kind == "wood":  # light wood (birch, maple): grain along x
        base = np.array([168, 196, 222], np.float32)
        grain = cv2.resize(rng.normal(0, 1, (h // 3 + 1, 4)).astype(np.float32), (w, h))
        fine = cv2.resize(rng.normal(0, 1, (h, max(2, w // 40))).astype(np.float32), (w, h))
        img = base[None, None, :] + (6 * grain + 3 * fine)[:, :, None] * np.array(
            [0.8, 1.0, 1.0], np.float32)
    else:
        raise ValueError(f"table: {kind!r}")
    return np.asarray(img * grad[:, :, None], dtype=np.float32)


def rounded_mask(w: int, h: int, radius: float, sub: int = 4) -> FloatArray:
    """A card's mask (1 inside) at w x h px with corners rounded by ``radius`` px
    (antialiased)."""
    W, H, r = w * sub, h * sub, max(0, round(radius * sub))
    m = np.zeros((H, W), np.uint8)
    if r:
        cv2.rectangle(m, (r, 0), (W - 1 - r, H - 1), 255, -1)
        cv2.rectangle(m, (0, r), (W - 1, H - 1 - r), 255, -1)
        for cx, cy in ((r, r), (W - 1 - r, r), (W - 1 - r, H - 1 - r), (r, H - 1 - r)):
            cv2.circle(m, (cx, cy), r, 255, -1)
    else:
        m[:] = 255
    return np.asarray(cv2.resize(m, (w, h), interpolation=cv2.INTER_AREA) / 255, np.float32)


def card_corners(centre: tuple[float, float], width: float, height: float,
                 angle_deg: float) -> FloatArray:
    """The corners (TL, TR, BR, BL of the upright card) of a card at ``centre``."""
    a = np.radians(angle_deg)
    u = np.array([np.cos(a), np.sin(a)], np.float32)
    v = np.array([-np.sin(a), np.cos(a)], np.float32)
    c = np.array(centre, np.float32)
    hw, hh = width / 2, height / 2
    return np.stack([c - hw * u - hh * v, c + hw * u - hh * v, c + hw * u + hh * v,
                     c - hw * u + hh * v]).astype(np.float32)


def photo(face: Image, size: tuple[int, int], corners: FloatArray, look: Look,
          seed: int = 0) -> Image:
    """A photo (BGR, ``size`` = (w, h)) of the card ``face`` lying at ``corners`` (TL, TR,
    BR, BL of its face, frame px) on a table, as ``look`` says."""
    rng = np.random.default_rng(seed)
    W, H = size
    fh, fw = face.shape[:2]
    img = _table(look.table, W, H, rng)
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    m = cv2.getPerspectiveTransform(src, np.asarray(corners, np.float32))
    mask = rounded_mask(fw, fh, look.radius * fw)
    warped_mask = cv2.warpPerspective(mask, m, (W, H), flags=cv2.INTER_LINEAR)
    if look.shadow > 0:
        side = float(np.linalg.norm(corners[1] - corners[0]))
        off = max(2, round(0.03 * side))
        sh = cv2.warpAffine(warped_mask, np.array([[1, 0, off], [0, 1, off]], np.float32), (W, H))
        sh = cv2.GaussianBlur(sh, (0, 0), max(1.5, 0.02 * side))
        img *= (1 - look.shadow * sh)[:, :, None]
    card = face.astype(np.float32)
    if look.glare > 0:
        yy, xx = np.mgrid[0:fh, 0:fw].astype(np.float32)
        gx, gy = rng.uniform(0.3, 0.7) * fw, rng.uniform(0.25, 0.6) * fh
        spot = np.exp(-(((xx - gx) / (0.16 * fw)) ** 2 + ((yy - gy) / (0.1 * fh)) ** 2))
        card = card + look.glare * spot[:, :, None]
    warped = cv2.warpPerspective(card, m, (W, H), flags=cv2.INTER_LINEAR)
    a = warped_mask[:, :, None]
    img = img * (1 - a) + warped * a
    if look.sleeve:
        # A clear sleeve: 2.5 % wider and 2 % longer than the card, square corners rounded a
        # little; the plastic lifts everything under it a little and its rim catches light.
        c = np.asarray(corners, np.float32).mean(axis=0)
        grow = np.array([1.025, 1.02], np.float32)
        u = (corners[1] - corners[0]) / 2
        v = (corners[3] - corners[0]) / 2
        sc = np.stack([c - grow[0] * u - grow[1] * v, c + grow[0] * u - grow[1] * v,
                       c + grow[0] * u + grow[1] * v, c - grow[0] * u + grow[1] * v])
        ms = cv2.getPerspectiveTransform(src, sc.astype(np.float32))
        smask = cv2.warpPerspective(rounded_mask(fw, fh, 0.03 * fw), ms, (W, H))
        img = img * (1 - 0.08 * smask[:, :, None]) + 0.08 * 235 * smask[:, :, None]
        rim = cv2.morphologyEx(smask, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
        img = img + 35 * rim[:, :, None]
    img *= look.light
    if look.blur > 0:
        img = np.asarray(cv2.GaussianBlur(img, (0, 0), look.blur), np.float32)
    img = img + rng.normal(0, look.noise, img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if look.jpeg < 100:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, look.jpeg])
        assert ok
        out = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)
    return out


def set_crops(n: int | None = None) -> list[tuple[str, Path]]:
    """(card id, path) of the real SET photos, in labels.csv's order (``n``: the first n)."""
    rows = (SET_CROPS / "labels.csv").read_text(encoding="utf-8").splitlines()[1:]
    out = [(card, SET_CROPS / file) for file, card in (r.split(",") for r in rows if r)]
    return out[:n] if n is not None else out


def corner_error(found: FloatArray, truth: FloatArray) -> float:
    """The largest distance (px) from a true corner to the nearest found corner."""
    d = np.linalg.norm(np.asarray(found)[None, :, :] - np.asarray(truth)[:, None, :], axis=2)
    return float(d.min(axis=1).max())
