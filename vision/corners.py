"""Naming a card by its corner index, where the rest of it is out of sight (issue 37 item 3).

Playing cards and number cards print their index in a corner (and again, upside down, in the
opposite one): in The Game's piles, a fanned hand or a card half under another, that corner is
often all that shows. :class:`CornerIndex` holds each card's index patch (the deck's
templates' top-left corner, :attr:`CornerParams.box`) and searches a place of the frame for
it: at the card's size in the frame (known from the cards found around it), at the angles of
the straight edges there (a card's sides; :func:`edge_angles`) and their quarter turns, with
the cards found around it masked out (their own index must not name it). The search gives
each card its best correlation; the best card is named only where it scores
:attr:`CornerParams.min_score` and leads every other card by
:attr:`CornerParams.min_margin` -- thresholds chosen on a tuning seed so that at most 1 % of
what they name is wrong, foreign cards included; else the place stays unknown with the best
three as candidates (the host's one press), never a guess.

A search costs 0.3-1.5 s of CPU on a shared 2-core machine (``bench vision --overlap``), so
it runs only for regions (paper no card found explains), once per search; not for cards
found whole but unknown (a number not enrolled would be taken for its neighbour by its
index).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.find import Image

FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True)
class CornerParams:
    """Where the index lies on a card (x0, y0, x1, y1 as fractions of its width and height,
    the card upright), and the decision's thresholds."""

    box: tuple[float, float, float, float] = (0.0, 0.0, 0.34, 0.21)
    #: (chosen on the simulated overlap tables' tuning seed, ``bench vision --overlap``)
    min_score: float = 0.84
    min_margin: float = 0.01
    #: The angles tried around each edge angle found (degrees).
    spread: tuple[float, ...] = (-3.0, 0.0, 3.0)
    #: The card widths tried, as fractions of the width seen around (cards differ a little).
    scales: tuple[float, ...] = (0.94, 1.0, 1.06)
    #: How many of the best cards of the first pass are searched again more finely.
    refine: int = 6

    def __post_init__(self) -> None:
        x0, y0, x1, y1 = self.box
        if not (0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1):
            raise ValueError(f"corner box {self.box} must lie within the card")


#: The decks whose cards are searched by their corner index by default: The Game's numbers
#: (index top left, and upside down bottom right).
CORNER_DECKS: dict[str, CornerParams] = {"demo-the-game": CornerParams()}


@dataclass(frozen=True)
class CornerVerdict:
    """What the corner search made of a place: the card named (or None), the best card, its
    score, its lead over the next card, and the best three ``(id, score)``."""

    card_id: str | None
    best_id: str
    score: float
    margin: float
    candidates: tuple[tuple[str, float], ...]


def _grey(img: object) -> Image:
    a = np.asarray(img)
    g = cv2.cvtColor(a, cv2.COLOR_BGR2GRAY) if a.ndim == 3 else a
    return np.asarray(g, np.uint8)


def _ink(grey: Image) -> FloatArray:
    """Dark print on light paper, the paper's local brightness divided out."""
    g = grey.astype(np.float32)
    paper = cv2.dilate(g, np.ones((9, 9), np.uint8))
    return np.asarray(1.0 - g / np.maximum(paper, 1.0), np.float32)


def edge_angles(grey: Image, mask: Image | None = None, k: int = 2) -> list[float]:
    """The ``k`` strongest directions of straight edges in ``grey`` (degrees, modulo 90),
    from a histogram of gradient directions weighted by their strength."""
    gx = cv2.Sobel(grey.astype(np.float32), cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey.astype(np.float32), cv2.CV_32F, 0, 1, ksize=3)
    mag = cv2.magnitude(gx, gy)
    if mask is not None:
        mag = mag * (mask > 0)
    ang = (np.degrees(np.arctan2(gy, gx)) % 90.0).ravel()
    w = mag.ravel()
    keep = w > np.percentile(w, 90)
    hist, _ = np.histogram(ang[keep], bins=90, range=(0, 90), weights=w[keep])
    smooth = np.convolve(np.concatenate([hist[-2:], hist, hist[:2]]), np.ones(5), "valid")
    out: list[float] = []
    for _ in range(k):
        i = int(np.argmax(smooth))
        if smooth[i] <= 0:
            break
        # The peak's angle: the mean of the bins around it, weighted by their strength.
        near = np.arange(i - 5, i + 6)
        wt = hist[near % 90]
        out.append(float((np.sum(wt * (near + 0.5)) / max(float(wt.sum()), 1e-9)) % 90.0))
        for d in range(-6, 7):
            smooth[(i + d) % 90] = 0
    return out


class CornerIndex:
    """Each card's index patch of a deck, searched for in a place of a frame."""

    def __init__(self, ids: Sequence[str], templates: Sequence[Image],
                 params: CornerParams | None = None) -> None:
        if len(ids) != len(templates) or not ids:
            raise ValueError("a corner index needs one template per card")
        self.ids = tuple(ids)
        self.params = params or CornerParams()
        self._inks: list[FloatArray] = []
        for t in templates:
            grey = _grey(t)
            h, w = grey.shape[:2]
            x0, y0, x1, y1 = self.params.box
            self._inks.append(_ink(grey)[round(y0 * h):round(y1 * h), round(x0 * w):round(x1 * w)])
        self._card_w = float(templates[0].shape[1])
        #: (a card whose corner is blank -- no index there -- cannot be told by it)
        self._live = [float(p.std()) > 0.02 for p in self._inks]
        self._cache: dict[int, list[FloatArray]] = {}

    def _patches(self, width: float) -> list[FloatArray]:
        key = max(8, round(width))
        if key not in self._cache:
            s = key / self._card_w
            self._cache = {key: [np.asarray(cv2.resize(p, (max(3, round(p.shape[1] * s)),
                                                            max(3, round(p.shape[0] * s))),
                                                       interpolation=cv2.INTER_AREA), np.float32)
                                 for p in self._inks]} | {
                k: v for k, v in list(self._cache.items())[-4:]}
        return self._cache[key]

    def scores(self, image: Image, place: FloatArray, card_width: float,
               others: Sequence[FloatArray] = ()) -> FloatArray:
        """Each card's best correlation of its index patch in ``place`` (a 4x2 box, frame px,
        grown by a third of a card all round), the cards at ``others`` masked out."""
        grey = _grey(image)
        h, w = grey.shape[:2]
        pad = card_width / 3
        x0 = max(0, int(place[:, 0].min() - pad))
        y0 = max(0, int(place[:, 1].min() - pad))
        x1 = min(w, int(place[:, 0].max() + pad) + 1)
        y1 = min(h, int(place[:, 1].max() + pad) + 1)
        crop = np.ascontiguousarray(grey[y0:y1, x0:x1])
        best = np.full(len(self.ids), -1.0, np.float32)
        if crop.size == 0:
            return best
        mask = np.full(crop.shape, 255, np.uint8)
        for q in others:
            cv2.fillPoly(mask, [np.rint(q - (x0, y0)).astype(np.int32)], 0)
        ink = _ink(crop) * (mask > 0)
        angles = edge_angles(crop, np.asarray(cv2.erode(mask, np.ones((5, 5), np.uint8)),
                                              np.uint8))
        ch, cw = ink.shape
        side = int(np.hypot(ch, cw)) + 2
        # (a faint fixed noise: OpenCV's normalised correlation gives +-1 on flat windows --
        # the masked-out cards, bare table, the corners a turn leaves empty -- and about 0
        # with it)
        noise = np.random.default_rng(0).normal(0.0, 0.01, (side, side)).astype(np.float32)

        def turned(a: float) -> FloatArray:
            m = cv2.getRotationMatrix2D((cw / 2, ch / 2), a, 1.0)
            m[:, 2] += ((side - cw) / 2, (side - ch) / 2)
            return np.asarray(cv2.warpAffine(ink, m, (side, side), flags=cv2.INTER_LINEAR)
                              + noise, np.float32)

        def corr(img: FloatArray, p: FloatArray) -> float:
            if p.shape[0] >= img.shape[0] or p.shape[1] >= img.shape[1]:
                return -1.0
            r = cv2.matchTemplate(img, p, cv2.TM_CCOEFF_NORMED)
            v = float(np.nan_to_num(r, nan=-1.0, posinf=-1.0, neginf=-1.0).max())
            return v

        # Pass 1: every card, at the edges' angles and their quarter turns, at the size seen.
        coarse = sorted({(a + 90 * q) % 360 for a in angles for q in range(4)})
        per_angle = np.full((len(coarse), len(self.ids)), -1.0, np.float32)
        patches = self._patches(card_width)
        for k, a in enumerate(coarse):
            img = turned(a)
            for i, p in enumerate(patches):
                if self._live[i]:
                    per_angle[k, i] = corr(img, p)
        best = per_angle.max(axis=0) if len(coarse) else best
        # Pass 2: the best few cards, at their best angle give or take, and sizes around.
        few = [int(i) for i in np.argsort(-best)[:self.params.refine]]
        for i in few:
            a0 = coarse[int(np.argmax(per_angle[:, i]))]
            if not self._live[i]:
                continue
            for d in self.params.spread:
                img = turned((a0 + d) % 360)
                for s in self.params.scales:
                    best[i] = max(best[i], corr(img, self._patches(card_width * s)[i]))
        return best

    def name(self, image: Image, place: FloatArray, card_width: float,
             others: Sequence[FloatArray] = ()) -> CornerVerdict:
        """The card whose index shows in ``place``, where it is clear
        (:attr:`CornerParams.min_score`, :attr:`CornerParams.min_margin`); else unknown,
        with the best three as candidates."""
        sc = self.scores(image, place, card_width, others)
        order = np.argsort(-sc)
        top = int(order[0])
        second = float(sc[order[1]]) if len(order) > 1 else -1.0
        score = float(sc[top])
        margin = score - second
        ok = score >= self.params.min_score and margin >= self.params.min_margin
        cands = tuple((self.ids[int(i)], round(float(sc[int(i)]), 4)) for i in order[:3])
        return CornerVerdict(self.ids[top] if ok else None, self.ids[top], score, margin, cands)
