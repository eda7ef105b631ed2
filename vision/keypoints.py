"""Cards placed by what is printed on them (ORB keypoints), independent of their outline.

The top card of a pile (a card laid on another, light on light) often has no outline of its
own: its edge runs into the card below, so :mod:`vision.find` reports a loose box around both
cards, or nothing but paper it cannot explain. What is printed on the top card is still in
plain view, so it is found by keypoints, the standard way:

* every template of the deck gets ORB keypoints (``cv2.ORB.create``; built on first use and
  kept per matcher, :func:`index_for`). The templates are the matcher's own grey ones
  (``vision.align``'s, at 64 px), scaled to ``long_side``: slightly soft, as cards in a frame
  are, which matched better than the sharp originals in the tuning frames;
* the region to search (a loose box, padded by ``pad`` of its long side) gets keypoints too;
* *shortlist*: each keypoint of the region votes for the templates of its two nearest
  descriptors among the strongest ``vote_features`` of every template (one brute-force
  Hamming match against the whole deck); the ``shortlist`` templates with most votes are
  matched properly: all their keypoints, Lowe's ratio test (``ratio``), and a homography by
  RANSAC (``cv2.findHomography`` with ``cv2.USAC_FAST``: ten times faster than plain
  ``cv2.RANSAC`` here, and as good) with at least ``min_inliers`` inliers;
* the template's corners mapped through the homography are the card's corners.

A hypothesis is a *guess*: :func:`recover` keeps one only if it is card-shaped (convex, the
deck's aspect, about the size of the frame's other cards) and the correlation matcher
(:mod:`vision.match`) recognises the same card there, with score at least ``min_score`` (at the
corners found, or aligned to the template by :mod:`vision.align`: the better of the two). Where
the box searched is itself card-sized (a card found a few pixels off, its id not among the
matcher's candidates), it is also aligned from its own corners to each card the keypoints name.
A wrong card is worse than none. (Demo cards are flat shapes and labels that many cards share;
ORB's keypoints at their corners and letters told them apart in the tuning frames (seed 1000;
the right card first for 14 of 14 Eselsbrücke top cards missed before), SIFT's fewer ones less
well (8 of 14) at five to ten times the cost of detection. AKAZE and BRISK are not in OpenCV 5's
main modules.)
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.find import (
    FloatArray,
    FoundCard,
    Image,
    check_image,
    contains,
    order_corners,
    to_grey,
)
from vision.match import DeckMatcher, Match


@dataclass(frozen=True)
class KeypointParams:
    """How templates and regions are described and matched; see the module docstring."""

    long_side: int = 160  # px: templates are described at this long side
    features: int = 500  # keypoints per template
    region_features: int = 300  # keypoints of the region searched
    vote_features: int = 80  # the strongest keypoints of each template that vote
    region_votes: int = 150  # the strongest keypoints of the region that vote
    shortlist: int = 3  # templates matched properly, most votes first
    ratio: float = 0.75  # Lowe's ratio test
    min_inliers: int = 12  # RANSAC inliers a hypothesis needs
    ransac_px: float = 3.0  # RANSAC reprojection threshold (frame px)
    pad: float = 0.3  # the region searched: the box grown by this of its long side
    min_score: float = 0.9  # the matcher's score a hypothesis needs (tracker.ALIGNED_MIN_SCORE)
    aspect_tolerance: float = 0.15  # of the deck's short/long ratio
    area_range: tuple[float, float] = (0.6, 1.6)  # of the typical card's area

    def __post_init__(self) -> None:
        if not 32 <= self.long_side <= 1024:
            raise ValueError(f"long_side: {self.long_side} is not in 32..1024")
        if not 20 <= self.features <= 5000:
            raise ValueError(f"features: {self.features} is not in 20..5000")
        if not 20 <= self.region_features <= 5000:
            raise ValueError(f"region_features: {self.region_features} is not in 20..5000")
        if not 1 <= self.vote_features <= self.features:
            raise ValueError(f"vote_features: {self.vote_features} is not in 1..features")
        if not 1 <= self.region_votes <= self.region_features:
            raise ValueError(f"region_votes: {self.region_votes} is not in 1..region_features")
        if not 1 <= self.shortlist <= 100:
            raise ValueError(f"shortlist: {self.shortlist} is not in 1..100")
        if not 0 < self.ratio < 1:
            raise ValueError(f"ratio: {self.ratio} is not in (0, 1)")
        if not 4 <= self.min_inliers <= 1000:
            raise ValueError(f"min_inliers: {self.min_inliers} is not in 4..1000")
        if not 0 < self.ransac_px <= 50:
            raise ValueError(f"ransac_px: {self.ransac_px} is not in (0, 50]")
        if not 0 <= self.pad <= 2:
            raise ValueError(f"pad: {self.pad} is not in 0..2")
        if not -1 <= self.min_score <= 1:
            raise ValueError(f"min_score: {self.min_score} is not in -1..1")
        if not 0 <= self.aspect_tolerance < 1:
            raise ValueError(f"aspect_tolerance: {self.aspect_tolerance} is not in 0..1")
        lo, hi = self.area_range
        if not 0 < lo <= 1 <= hi:
            raise ValueError(f"area_range: {self.area_range} is not (lo <= 1 <= hi), lo > 0")


@dataclass(frozen=True)
class Hypothesis:
    """Template ``index`` (of the deck's ids) seen at ``corners`` (4x2 frame px, clockwise,
    the template's own top-left first), supported by ``inliers`` keypoint matches.
    ``rigid``: the same corners from a similarity (turn, scale, shift) fitted to those
    inliers by least squares; None if they do not give one."""

    index: int
    corners: FloatArray
    inliers: int
    rigid: FloatArray | None = None


def _orb(n: int) -> cv2.ORB:
    # Small patches: a card in a frame is only about 100 px across.
    return cv2.ORB.create(nfeatures=n, scaleFactor=1.2, nlevels=8, edgeThreshold=15,
                          patchSize=15, fastThreshold=10)


class KeypointIndex:
    """ORB keypoints of every template of a deck, and the search for them in a frame."""

    def __init__(self, templates: Sequence[npt.ArrayLike],
                 params: KeypointParams | None = None) -> None:
        if not templates:
            raise ValueError("a deck with no templates has no keypoints to find")
        self.params = p = params or KeypointParams()
        self._orb = _orb(p.features)
        self._region_orb = _orb(p.region_features)
        self._points: list[FloatArray] = []
        self._descriptors: list[Image] = []
        self.corners: list[FloatArray] = []
        votes: list[Image] = []
        labels: list[npt.NDArray[np.int32]] = []
        for i, t in enumerate(templates):
            img = to_grey(check_image(np.clip(np.asarray(t), 0, 255).astype(np.uint8),
                                      f"template {i}"))
            h, w = img.shape
            s = p.long_side / max(w, h)
            size = (max(8, round(w * s)), max(8, round(h * s)))
            scaled = cv2.resize(img, size, interpolation=cv2.INTER_CUBIC if s > 1
                                else cv2.INTER_AREA)
            kps, found = self._orb.detectAndCompute(scaled, None)
            des: Image = (np.zeros((0, 32), dtype=np.uint8) if found is None
                          else np.asarray(found, dtype=np.uint8))
            self._points.append(np.array([k.pt for k in kps], dtype=np.float32).reshape(-1, 2))
            self._descriptors.append(np.asarray(des, dtype=np.uint8))
            tw, th = size
            self.corners.append(np.array([[-0.5, -0.5], [tw - 0.5, -0.5],
                                          [tw - 0.5, th - 0.5], [-0.5, th - 0.5]],
                                         dtype=np.float32))
            strongest = np.argsort([-k.response for k in kps])[:p.vote_features]
            votes.append(np.asarray(des, dtype=np.uint8)[strongest])
            labels.append(np.full(len(strongest), i, dtype=np.int32))
        self._votes = np.ascontiguousarray(np.vstack(votes))
        self._labels = np.concatenate(labels)

    def __len__(self) -> int:
        return len(self._descriptors)

    def hypotheses(self, grey: Image, box: FloatArray,
                   candidates: Sequence[int] | None = None,
                   extra: Sequence[int] = ()) -> list[Hypothesis]:
        """Templates found in the region of ``grey`` (a grey frame) around ``box`` (4x2
        frame px), most inliers first: of ``candidates`` (template indexes), or of those
        the region's keypoints vote for and ``extra`` (template indexes named otherwise)."""
        p = self.params
        img, q = _grey_and_quad(grey, box, "box")
        H, W = img.shape
        e = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
        pad = p.pad * float(e.max())
        x0, y0 = (max(0, int(v)) for v in np.floor(q.min(axis=0) - pad))
        x1, y1 = (int(v) for v in np.ceil(q.max(axis=0) + pad))
        x1, y1 = min(W, x1), min(H, y1)
        if x1 - x0 < 32 or y1 - y0 < 32:
            return []
        kps, des = self._region_orb.detectAndCompute(np.ascontiguousarray(img[y0:y1, x0:x1]),
                                                     None)
        if des is None or len(kps) < p.min_inliers:
            return []
        pts = np.array([k.pt for k in kps], dtype=np.float32) + np.array([x0, y0], np.float32)
        if candidates is None:
            votes = np.zeros(len(self), dtype=np.int32)
            if len(self._votes) == 0:  # (no template has keypoints)
                return []
            strongest = np.argsort([-k.response for k in kps])[:p.region_votes]
            # Each keypoint votes once for each template among its two nearest descriptors.
            _, nearest = _two_nearest(des[strongest], self._votes)
            labels = self._labels[nearest]  # (keypoints, 2)
            np.add.at(votes, labels[:, 0], 1)
            second = labels[:, 1][(nearest[:, 1] >= 0) & (labels[:, 1] != labels[:, 0])]
            np.add.at(votes, second, 1)
            order = [int(i) for i in np.argsort(-votes, kind="stable")[:p.shortlist]
                     if votes[i] >= p.min_inliers]
            order += [int(i) for i in dict.fromkeys(extra) if int(i) not in order]
        else:
            order = [int(i) for i in candidates]
        out = []
        for i in order:
            if not 0 <= i < len(self):
                raise ValueError(f"candidates: {i} is not a template index (0..{len(self) - 1})")
            if len(self._descriptors[i]) < p.min_inliers:
                continue
            dist, nearest = _two_nearest(self._descriptors[i], des)
            good = np.nonzero((nearest[:, 1] >= 0) & (dist[:, 0] < p.ratio * dist[:, 1]))[0]
            if len(good) < p.min_inliers:
                continue
            src = self._points[i][good]
            dst = pts[nearest[good, 0]]
            homography, mask = cv2.findHomography(src, dst, cv2.USAC_FAST, p.ransac_px)
            if homography is None or mask is None or int(mask.sum()) < p.min_inliers:
                continue
            corners = cv2.perspectiveTransform(self.corners[i].reshape(-1, 1, 2),
                                               homography).reshape(4, 2)
            if np.isfinite(corners).all():
                inl = mask.ravel().astype(bool)
                out.append(Hypothesis(i, np.asarray(corners, dtype=np.float32),
                                      int(mask.sum()),
                                      _rigid(src[inl], dst[inl], self.corners[i])))
        out.sort(key=lambda h: -h.inliers)
        return out


def _rigid(src: FloatArray, dst: FloatArray, corners: FloatArray) -> FloatArray | None:
    """``corners`` mapped by the similarity (rotation, uniform scale, shift) that takes
    ``src`` nearest to ``dst`` (least squares, closed form: no random sampling). A card on
    the table seen from above is that, up to a little perspective. The homography's eight
    degrees of freedom fit its inliers' pixel noise too, and where those lie on a part of the
    card only (the rest under a hand or another card), they may carry the far corners 10-20
    px away: one keypoint more or less (ORB's of OpenCV 5.1 against 5.0's, on one test frame)
    moved a corner by 17 px. The four of a similarity move a pixel or two then."""
    if len(src) < 3:
        return None
    s, d = src.astype(np.float64), dst.astype(np.float64)
    sc, dc = s - s.mean(axis=0), d - d.mean(axis=0)
    norm = float((sc ** 2).sum())
    if norm < 1e-9:
        return None
    # (x, y) -> (a x - b y, b x + a y) + t: a, b by least squares over the centred points
    a = float((sc * dc).sum()) / norm
    b = float((sc[:, 0] * dc[:, 1] - sc[:, 1] * dc[:, 0]).sum()) / norm
    rot = np.array([[a, -b], [b, a]])
    out = (np.asarray(corners, np.float64) - s.mean(axis=0)) @ rot.T + d.mean(axis=0)
    return out.astype(np.float32) if np.isfinite(out).all() else None


def _two_nearest(query: cv2.typing.MatLike, train: cv2.typing.MatLike
                 ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """(Hamming distances, indexes into ``train``) of the two nearest descriptors of ``train``
    to each row of ``query``, nearest first (index -1: none). The brute force of
    ``cv2.BFMatcher.knnMatch`` (the same ``cv2.batchDistance``), without a ``DMatch`` object
    per match, which cost more than the matching itself for a template's 500 keypoints."""
    dist, nearest = cv2.batchDistance(query, train, cv2.CV_32S, normType=cv2.NORM_HAMMING, K=2)
    return np.asarray(dist, dtype=np.int32), np.asarray(nearest, dtype=np.int32)


_INDEXES: weakref.WeakKeyDictionary[DeckMatcher, KeypointIndex] = weakref.WeakKeyDictionary()


def index_for(matcher: DeckMatcher, params: KeypointParams | None = None) -> KeypointIndex:
    """The keypoints of ``matcher``'s templates: built on first use (a 181-card deck takes
    about half a second), then kept as long as the matcher lives."""
    index = _INDEXES.get(matcher)
    if index is None or (params is not None and index.params != params):
        # The matcher keeps its templates only as the aligner's grey ones.
        index = KeypointIndex(matcher.aligner.templates, params)
        _INDEXES[matcher] = index
    return index


def plausible(corners: FloatArray, aspect: float, typical_area: float,
              params: KeypointParams) -> bool:
    """Could ``corners`` be a card of the deck (short/long ``aspect``) in a frame whose cards
    are ``typical_area`` px² (0: unknown)? Convex, the deck's aspect, card-sized."""
    q = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    if not cv2.isContourConvex(q.reshape(-1, 1, 2)):
        return False
    e = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
    # Opposite sides about equal (no strong perspective), then the aspect of their means.
    a, b = 0.5 * (e[0] + e[2]), 0.5 * (e[1] + e[3])
    if min(e) < 8 or abs(e[0] - e[2]) > 0.2 * a or abs(e[1] - e[3]) > 0.2 * b:
        return False
    if abs(min(a, b) / max(a, b) - aspect) > params.aspect_tolerance * aspect:
        return False
    area = float(abs(cv2.contourArea(q)))
    lo, hi = params.area_range
    return typical_area <= 0 or lo * typical_area <= area <= hi * typical_area


def recover(matcher: DeckMatcher, image: Image, grey: Image, box: FloatArray,
            typical_area: float = 0.0, taken: Sequence[FloatArray] = (),
            params: KeypointParams | None = None,
            hints: Sequence[int] = ()) -> tuple[FoundCard, Match] | None:
    """The card of ``matcher``'s deck found by keypoints around ``box`` (4x2 frame px) of
    ``image`` (``grey``: its grey copy), recognised by the matcher as the same card with
    score at least ``min_score``; None if there is none. ``typical_area``: the frame's
    cards' area (0: unknown); ``taken``: corners of cards already recognised (a hypothesis
    whose centre lies on one is that card, or the pile below it); ``hints``: cards (indexes)
    to try besides those the keypoints vote for (the matcher's best guesses for an outline
    there: the keypoints' vote misses a top card now and then, and these often name it)."""
    index = index_for(matcher, params)
    p = index.params
    w, h = matcher.size
    aspect = min(w, h) / max(w, h)
    H, W = grey.shape[:2]
    tried: set[int] = set()
    # The box itself may be the card, a few pixels off (its id not among the candidates the
    # matcher aligned it to): then the keypoints tell which card it is, and the box where.
    box_card = plausible(box, aspect, typical_area, p)
    for hyp in index.hypotheses(grey, box, extra=hints):
        if hyp.index in tried:
            continue
        c = hyp.corners
        starts: list[FloatArray] = []
        if plausible(c, aspect, typical_area, p) and not (
                c.min() < 0 or c[:, 0].max() > W - 1 or c[:, 1].max() > H - 1):
            # (A card cut by the border of the frame is not reported, as in vision.find.)
            starts.append(c)
        r = hyp.rigid
        if r is not None and plausible(r, aspect, typical_area, p) and not (
                r.min() < 0 or r[:, 0].max() > W - 1 or r[:, 1].max() > H - 1):
            # (aligned only: the similarity's corners, a pixel or two off, are aligned)
            starts.append(r)
        if box_card:
            # The box's corners, the one nearest the template's first corner first.
            first = int(np.argmin(((box - c[0]) ** 2).sum(axis=1)))
            starts.append(np.roll(box, -first, axis=0).astype(np.float32))
        if not starts:
            continue
        tried.add(hyp.index)
        if any(contains(t, starts[0]) for t in taken):
            continue
        want = matcher.ids[hyp.index]
        # Keypoint corners may be a pixel or three off: aligned to the template (by what is
        # printed on it) they are better; the best verdict counts.
        quads = []
        for start in starts:
            if start is c:
                quads.append(order_corners(c, matcher.square))
            a = matcher.aligner.align(grey, start, hyp.index, 0)
            if a is not None:
                quads.append(order_corners(a, matcher.square))
        if not quads:
            continue
        verdicts = [(m, q) for m, q in zip(matcher.match_quads(image, quads), quads,
                                           strict=True)
                    if m.card_id == want and m.score >= p.min_score
                    and not any(contains(t, q) or contains(q, t) for t in taken)]
        if verdicts:
            m, q = max(verdicts, key=lambda v: v[0].score)
            return FoundCard(q), m
    return None


def paper_beyond(grey: Image, corners: FloatArray, table: float) -> float:
    """The fraction of a thin ring just outside the quadrilateral ``corners`` (4x2 frame px)
    of ``grey`` that looks like paper rather than table (``table``: the table's grey, e.g.
    the frame's median): nearer the grey of the quadrilateral's own rim than ``table``.
    A card alone on the table has table all round it; a box on a pile has the other card
    sticking out of it. 1.0 if the rim is no lighter than the table (no contrast to tell)."""
    img, q = _grey_and_quad(grey, corners, "corners")
    e = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
    short = float(e.min())
    c = q.mean(axis=0)

    def scaled(by: float) -> npt.NDArray[np.int32]:
        # Each corner moved along its diagonal by ``by`` short sides (out: > 0).
        d = q - c
        n = np.linalg.norm(d, axis=1, keepdims=True)
        return np.asarray(np.rint(q + by * short * d / np.maximum(n, 1e-6)), dtype=np.int32)

    H, W = img.shape
    x0, y0 = (max(0, int(v)) for v in np.floor(q.min(axis=0) - 0.2 * short))
    x1, y1 = (int(v) for v in np.ceil(q.max(axis=0) + 0.2 * short))
    x1, y1 = min(W, x1), min(H, y1)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return 1.0
    crop = img[y0:y1, x0:x1]
    off = np.array([x0, y0], dtype=np.int32)

    def band(inner: float, outer: float) -> npt.NDArray[np.uint8]:
        mask = np.zeros(crop.shape, dtype=np.uint8)
        cv2.fillPoly(mask, [scaled(outer) - off], 255)
        cv2.fillPoly(mask, [scaled(inner) - off], 0)
        return crop[mask > 0]

    rim, ring = band(-0.12, -0.03), band(0.04, 0.14)
    if rim.size == 0 or ring.size == 0:
        return 1.0
    paper = float(np.median(rim))
    if paper - table < 20:
        return 1.0
    return float(np.count_nonzero(ring > 0.5 * (paper + table))) / float(ring.size)


def _grey_and_quad(grey: object, corners: object, what: str) -> tuple[Image, FloatArray]:
    """``grey`` checked to be a grey frame and ``corners`` (named ``what`` in messages) four
    finite points, or ValueError (FrameError for the frame) with a clear message."""
    img = check_image(grey, "grey frame")
    if img.ndim != 2:
        raise ValueError(f"grey frame: expected a grey (HxW) image, got shape {img.shape}")
    q = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    if not np.isfinite(q).all():
        raise ValueError(f"{what}: must be four finite points")
    return img, q
