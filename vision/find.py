"""Card finding: every card-shaped quadrilateral in a frame, warped to the deck's canonical size.

Finding runs on a grey copy of the frame at most ``FindParams.work_width`` px wide (640: the
camera's 640x480 stream is searched at full resolution, because a card's white border is only a
few pixels wide there; a bigger frame is downscaled). Corners are refined on the full frame and
each card is warped from it.

Candidates are the contours of three masks, so cards are found on dark and on light tables,
close to each other and on top of a pile:

* edges (Canny on a 5x5-blurred copy, closed by a 3x3 dilation): the inner and the outer side
  of each card's outline;
* thin edges (Canny on a 3x3-blurred copy, undilated): they keep the narrow white margin
  between a card's outline and its printed frame, so the top card of a pile has a contour of
  its own even where it touches the cards below;
* paper: brighter than halfway between the table (the median grey) and the paper (the 98th
  percentile), when those differ enough (``dark_cards`` adds the reverse).

A contour is a candidate when its rotated bounding box has a plausible area and the deck's
aspect ratio, its convex hull simplifies to four corners (or fills its bounding rectangle, when a
picture clips a corner) with the deck's aspect ratio (either way round, with a tolerance for
perspective), and at least ``min_edge_support`` of the points along its sides lie on an edge (a
loose box around a card and its shadow, or around two cards, does not). Candidates are taken
largest first; one whose centre lies inside a card already taken is that card's printed frame
or a picture on it, and is dropped. A card cut by the border of the frame is not reported.

Each side is then moved onto the card's outline in the full-resolution frame
(:func:`refine_corners`): the outermost strong fall from paper to table across the side.

Corners are ordered clockwise in image coordinates (y down) and start at the corner that makes
the first edge a *short* edge of the card; of the two (four for square tiles) orders that remain,
the one whose first corner is nearest the image's top-left is taken. The warp therefore shows an
upright card upright; matching tries the other orientations anyway (``vision.match``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]
Image = npt.NDArray[np.uint8]


#: Cards found in one frame smaller than this fraction of the median card's area are dropped.
SAME_SIZE = 0.4
#: Paper outside every card found, from this share of a card's area, is "something is there"
#: (``CardFinder.regions``; issue 37: a card half under another is silence no more).
REGION_SHARE = 0.35

#: An outline inside a bigger one, from this fraction of its area, may be the top card of a
#: pile (FoundCard.others); smaller, it is a picture on the card.
OTHER_MIN = 0.4
#: A card whose bounding box covers this much of the part searched is a close-up: its
#: contour is filled in along long straight runs before its sides are fitted.
CLOSE_UP = 0.1
#: A candidate outline whose short side is this long (work px) or more is checked against
#: edges a pixel wider where it falls short of ``min_edge_support`` (``CardFinder._fitted``):
#: real cards bow (issue 30: 3 of 9 cards of a board photo missed for it).
BOWED_MIN_SIDE = 80.0
#: How fully the sides of a box from straight edges must lie on edges in ``find_near``.
NEAR_LINE_SUPPORT = 0.7


class FrameError(ValueError):
    """A frame or image that cannot be searched for cards (wrong type, shape or dtype)."""


@dataclass(frozen=True)
class FindParams:
    """How cards are searched for; see the module docstring."""

    work_width: int = 640
    min_area_frac: float = 0.002  # of the frame's area
    max_area_frac: float = 0.9  # (a close-up photo: the card fills most of it)
    aspect_tolerance: float = 0.22  # relative deviation of short/long side ratio allowed
    min_rectangularity: float = 0.86  # contour area / quadrilateral area
    canny_low: float = 20.0
    canny_high: float = 60.0
    dark_cards: bool = False  # also look for cards darker than the table
    min_paper_contrast: float = 25.0  # grey levels between table (median) and paper (98 %)
    min_edge_support: float = 0.75  # of a candidate's sides that must lie on an edge
    line_quads: bool = True  # also cards from pairs of parallel straight edges (piles)
    min_line_support: float = 0.9  # ... whose four sides must lie on edges this fully

    def __post_init__(self) -> None:
        if not 64 <= self.work_width <= 4096:
            raise ValueError(f"work_width: {self.work_width} is not in 64..4096")
        # each message names one key (the kiosk takes that key alone back to its default)
        if not 0 < self.min_area_frac < 1:
            raise ValueError(f"min_area_frac: {self.min_area_frac} is not in (0, 1)")
        if not 0 < self.max_area_frac <= 1:
            raise ValueError(f"max_area_frac: {self.max_area_frac} is not in (0, 1]")
        if self.min_area_frac >= self.max_area_frac:
            raise ValueError(f"max_area_frac: {self.max_area_frac} is not above min_area_frac "
                             f"({self.min_area_frac})")
        if not 0 < self.aspect_tolerance < 1:
            raise ValueError(f"aspect_tolerance: {self.aspect_tolerance} is not in (0, 1)")
        if not 0 < self.min_rectangularity <= 1:
            raise ValueError(f"min_rectangularity: {self.min_rectangularity} is not in (0, 1]")


class Masks(NamedTuple):
    """:meth:`CardFinder.masks`: the masks of one frame whose contours are candidate outlines."""

    edges: Image  # Canny on a 5x5-blurred copy, closed by a 3x3 dilation
    thin: Image  # Canny on a 3x3-blurred copy, undilated
    paper: Image | None  # brighter than halfway from table to paper (None: too little contrast)
    dark: Image | None  # darker than the table (``dark_cards``)
    levels: tuple[float, float]  # the (table, paper) grey levels they were cut at

    @property
    def all(self) -> list[Image]:
        return [m for m in (self.edges, self.thin, self.paper, self.dark) if m is not None]


@dataclass(frozen=True)
class FoundCard:
    """One card in a frame: ``corners`` (4x2 float32, frame px) in the order described above."""

    corners: FloatArray
    #: Found only from straight edges (:meth:`CardFinder._line_quads`), not as an outline:
    #: less certain, so matching asks more of it (``vision.tracker.recognise``).
    straight: bool = False
    #: Rough outlines (4x2, frame px) that gave way to this one in the same spot, card-sized:
    #: where the card is not recognised, the top card of a pile may be one of them
    #: (:meth:`CardFinder.settle` places one on the card's edges).
    others: tuple[FloatArray, ...] = field(default=(), compare=False, repr=False)

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])

    @property
    def area(self) -> float:
        return float(abs(_signed_area(self.corners)))


def check_image(image: object, what: str = "frame") -> Image:
    """Return ``image`` as a uint8 grey (HxW) or BGR (HxWx3) array or raise FrameError."""
    if not isinstance(image, np.ndarray):
        raise FrameError(f"{what}: expected a numpy array, got {type(image).__name__}")
    if image.dtype != np.uint8:
        raise FrameError(f"{what}: expected dtype uint8, got {image.dtype}")
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[:, :, 0]
    if not (image.ndim == 2 or (image.ndim == 3 and image.shape[2] == 3)):
        raise FrameError(
            f"{what}: expected shape HxW (grey) or HxWx3 (BGR), got {tuple(image.shape)}"
        )
    if image.shape[0] < 16 or image.shape[1] < 16:
        raise FrameError(f"{what}: {image.shape[1]}x{image.shape[0]} px is too small")
    return image


def to_grey(image: Image) -> Image:
    if image.ndim == 2:
        return image
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)


_NEXT = np.array([1, 2, 3, 0])
# Where along a side it is sampled (fractions of its length), made once: ``np.linspace`` costs
# more than the sampling it sets up (30 us, and the finder samples sides thousands of times).
_SUPPORT_TS = np.linspace(0.1, 0.9, 16, dtype=np.float32)  # edge support
_INSIDE_TS = np.linspace(0.15, 0.85, 8, dtype=np.float32)  # paper just inside
_REFINE_TS = np.linspace(0.12, 0.88, 12, dtype=np.float32)  # profiles across a side
for _ts in (_SUPPORT_TS, _INSIDE_TS, _REFINE_TS):
    _ts.setflags(write=False)


def _signed_area(pts: FloatArray) -> float:
    """Shoelace area of a quadrilateral; positive when clockwise on screen (y down). (In
    Python floats: for four points a numpy expression costs several times as much.)"""
    corners: list[list[float]] = np.asarray(pts, dtype=np.float64).tolist()
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = corners
    return 0.5 * ((x0 * y1 + x1 * y2 + x2 * y3 + x3 * y0) - (y0 * x1 + y1 * x2 + y2 * x3 + y3 * x0))


def _signed_areas(quads: FloatArray) -> npt.NDArray[np.float64]:
    """:func:`_signed_area` of each of ``quads`` (M x 4 x 2)."""
    x, y = quads[..., 0].astype(np.float64), quads[..., 1].astype(np.float64)
    return np.asarray(0.5 * ((x * y[:, _NEXT]).sum(axis=1) - (y * x[:, _NEXT]).sum(axis=1)),
                      dtype=np.float64)


def _edges(q: FloatArray) -> npt.NDArray[np.float32]:
    d = q[_NEXT] - q
    return np.asarray(np.sqrt((d * d).sum(axis=1)), dtype=np.float32)


def order_corners(pts: npt.ArrayLike, square: bool = False) -> FloatArray:
    """Order four corners clockwise (image coordinates), first edge short, first corner top-left.

    For square tiles every edge counts as short and the corner nearest the top-left is first.
    """
    p = np.asarray(pts, dtype=np.float32).reshape(4, 2)
    if _signed_area(p) < 0:  # counter-clockwise on screen (y down): reverse
        p = p[::-1].copy()
    starts: list[int]
    if square:
        starts = [0, 1, 2, 3]
    else:
        edges = _edges(p)
        first = 0 if edges[0] + edges[2] <= edges[1] + edges[3] else 1
        starts = [first, first + 2]
    best = min(starts, key=lambda s: float(p[s % 4, 0] + p[s % 4, 1]))
    return np.roll(p, -best, axis=0).astype(np.float32)


def order_corners_many(quads: FloatArray, square: bool = False) -> FloatArray:
    """:func:`order_corners` of each of ``quads`` (M x 4 x 2)."""
    q = np.asarray(quads, dtype=np.float32).reshape(-1, 4, 2)
    x, y = q[..., 0].astype(np.float64), q[..., 1].astype(np.float64)
    area = 0.5 * ((x * y[:, _NEXT]).sum(axis=1) - (y * x[:, _NEXT]).sum(axis=1))
    q = np.where((area < 0)[:, None, None], q[:, ::-1], q)  # clockwise on screen
    if square:
        starts = np.tile(np.arange(4), (len(q), 1))
    else:
        d = q[:, _NEXT] - q
        e = np.sqrt((d * d).sum(axis=2))
        first = np.where(e[:, 0] + e[:, 2] <= e[:, 1] + e[:, 3], 0, 1)
        starts = np.stack([first, first + 2], axis=1)
    rows = np.arange(len(q))[:, None]
    key = q[rows, starts, 0] + q[rows, starts, 1]  # (M, k): nearest the top-left first
    best = starts[np.arange(len(q)), key.argmin(axis=1)]
    idx = (best[:, None] + np.arange(4)[None, :]) % 4
    return np.asarray(q[rows, idx], dtype=np.float32)


def warp_card(image: Image, corners: npt.ArrayLike, size: tuple[int, int]) -> Image:
    """Warp the quadrilateral ``corners`` of ``image`` to a ``size`` = (w, h) upright image.

    ``corners`` are the card's top-left, top-right, bottom-right, bottom-left.
    """
    w, h = size
    src = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    # Downscaling by a lot aliases with INTER_LINEAR; warp at up to twice the size first.
    side = float(np.linalg.norm(src[1] - src[0]))
    if side > 2.5 * w:
        big = (2 * w, 2 * h)
        m2 = cv2.getPerspectiveTransform(
            src, dst * np.array([big[0] / w, big[1] / h], dtype=np.float32)
        )
        out = cv2.warpPerspective(image, m2, big, flags=cv2.INTER_AREA)
        return np.asarray(cv2.resize(out, (w, h), interpolation=cv2.INTER_AREA), dtype=np.uint8)
    return np.asarray(
        cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE),
        dtype=np.uint8,
    )


class CardFinder:
    """Finds cards of one shape (``size`` = canonical (w, h) of the deck) in frames."""

    def __init__(self, size: tuple[int, int], params: FindParams | None = None) -> None:
        w, h = size
        if w <= 0 or h <= 0:
            raise ValueError(f"size: {size} is not a positive (w, h)")
        self.size = (int(w), int(h))
        self.params = params or FindParams()
        self.square = abs(w - h) <= 0.02 * max(w, h)
        self.aspect = min(w, h) / max(w, h)
        self._straight: set[int] = set()
        self._last_levels: tuple[float, float] | None = None
        self._last_paper: Image | None = None
        self._known: list[FloatArray] = []  # cards known in the part searched (its px)
        self._area_min = 0.0
        #: After :meth:`find`: boxes (4x2 corners, frame px) around paper that no card found
        #: covers, a card's area or more (the top card of a pile whose outline runs into the
        #: card below, light on light). ``vision.tracker.recognise`` searches them again.
        self.unexplained: list[FloatArray] = []
        #: ... and around paper no card found covers from :data:`REGION_SHARE` of a card's
        #: area (a card half under another, a fanned hand): "something is there", reported
        #: by ``vision.tracker.recognise`` where nothing there is named.
        self.regions: list[FloatArray] = []

    # -- public ---------------------------------------------------------------------------
    def find(self, frame: object, region: tuple[int, int, int, int] | None = None,
             known: Sequence[FloatArray] = ()) -> list[FoundCard]:
        """All cards in ``frame`` (uint8 grey or BGR), largest first; with ``region`` =
        (x0, y0, x1, y1) frame px, only the cards lying wholly inside that part of it (the
        table's levels and the cards' size limits are still the whole frame's). ``known``:
        the outlines (frame px) of cards known to lie there already, not searched for again
        (those the region cuts): their paper needs no other explanation."""
        image = check_image(frame)
        grey = to_grey(image)
        H, W = grey.shape
        scale = min(1.0, self.params.work_width / W)
        small = np.asarray(grey if scale == 1.0 else cv2.resize(
            grey, (round(W * scale), round(H * scale)), interpolation=cv2.INTER_AREA
        ), dtype=np.uint8)
        origin = np.zeros(2, dtype=np.float32)
        self._known = []
        if region is None:
            quads = self._candidates(small)
        else:
            sh, sw = small.shape
            x0, y0, x1, y1 = (round(v * scale) for v in region)
            x0, y0, x1, y1 = max(0, x0), max(0, y0), min(sw, x1), min(sh, y1)
            if x1 - x0 < 16 or y1 - y0 < 16:
                raise ValueError(f"region: {region} leaves less than 16x16 px of the frame")
            # The table's levels: the whole frame's (not those of the last whole frame
            # searched: on a table that was empty then, the paper's level was no paper's).
            levels = _levels(np.asarray(cv2.GaussianBlur(small, (5, 5), 0), dtype=np.uint8))
            self._last_levels = levels
            self._known = [np.asarray(k, dtype=np.float32).reshape(4, 2) * scale
                           - np.array([x0, y0], dtype=np.float32) for k in known]
            p = self.params
            quads = self._candidates(
                np.ascontiguousarray(small[y0:y1, x0:x1]), levels=levels,
                area=(p.min_area_frac * sw * sh, p.max_area_frac * sw * sh))
            origin = np.array([x0, y0], dtype=np.float32)
            moved = [(q + origin, sp) for q, sp in quads]
            self._straight = {id(m) for (q, _), (m, _) in zip(quads, moved, strict=True)
                              if id(q) in self._straight}
            quads = moved
        others: dict[int, list[FloatArray]] = {}
        merged = self._merge(quads, others)
        if len(merged) > 1:
            # The cards of one deck are all the same size, and the table is flat: a shape much
            # smaller than the others is a picture or a digit on a card (one cut by the border
            # of the frame, which is not reported and so cannot hide it).
            areas = [abs(_signed_area(q)) for q in merged]
            typical = float(np.median(areas))
            merged = [q for q, a in zip(merged, areas, strict=True)
                      if a >= SAME_SIZE * typical]
        self.unexplained = self._uncovered(merged, scale, origin)
        self.regions = self._uncovered(merged, scale, origin, REGION_SHARE)
        # An outline from the paper mask may be a printed frame just inside the edge; one
        # from an edge band may be a pixel or two outside (dilation, shadow).
        # Twice: the first pass may stop at the frame when the rough outline is far inside.
        inward, outward = max(4.0, 3.5 / scale), max(3.0, 3.0 / scale)
        refined = np.zeros((0, 4, 2), dtype=np.float32)
        if merged:
            refined = refine_corners_many(grey, np.stack(merged) / scale, inward, outward)
            refined = refine_corners_many(grey, refined, inward, outward)
            # A card found by its printed frame: its edge (light on light, or a close-up).
            grown = expand_to_rim(grey, refined)
            fine = (_card_shaped_many(grown, self.aspect, self.params.aspect_tolerance)
                    & _within_frame(grown, W, H, self.aspect))
            refined = np.where(fine[:, None, None], grown, refined).astype(np.float32)
        # Refined, a side may have gone onto an edge beyond the frame's border: cut by it.
        whole = _within_frame(refined, W, H, self.aspect) if merged else np.zeros(0, bool)
        squares = order_corners_many(refined, self.square)
        out = []
        for q, ordered, keep in zip(merged, squares, whole, strict=True):
            if not keep:
                continue
            # Other outlines of the spot, distinct from this one (a pile's top card).
            alts: list[FloatArray] = []
            for o in others.get(id(q), []):
                if all(float(np.abs(o - a).max()) > 2.0 for a in [q, *alts]):
                    alts.append(o)
            out.append(FoundCard(ordered, straight=id(q) in self._straight,
                                 others=tuple(a / scale for a in alts)))
        return out

    def settle(self, frame: object, corners: FloatArray) -> FoundCard:
        """The card at the rough outline ``corners`` (frame px; one of
        :attr:`FoundCard.others`) with its sides moved onto the card's edges, as
        :meth:`find` does for the cards it reports."""
        grey = to_grey(check_image(frame))
        scale = min(1.0, self.params.work_width / grey.shape[1])
        inward, outward = max(4.0, 3.5 / scale), max(3.0, 3.0 / scale)
        r = refine_corners(grey, refine_corners(grey, corners, inward, outward), inward,
                           outward)
        return FoundCard(order_corners(r, self.square))

    def find_near(self, frame: object, corners: FloatArray) -> list[FoundCard]:
        """Cards from straight edges around ``corners`` (where a card was found but not
        recognised: perhaps a loose box around a pile, hiding the top card), whether or not
        the outlines found seem to explain the paper there, and with three sides on edges
        enough (the fourth may run light on light over the card below). Call it after
        :meth:`find` on the same frame (it uses that frame's table and paper levels)."""
        image = check_image(frame)
        grey = to_grey(image)
        H, W = grey.shape
        p = self.params
        q = np.asarray(corners, dtype=np.float32).reshape(4, 2)
        pad = 0.3 * float(_edges(q).max())
        x0, y0 = (int(v) for v in np.floor(q.min(axis=0) - pad))
        x1, y1 = (int(v) for v in np.ceil(q.max(axis=0) + pad))
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
        if x1 - x0 < 16 or y1 - y0 < 16 or p.work_width < W or not p.line_quads:
            return []
        table, paper = self._last_levels or _levels(
            np.asarray(cv2.GaussianBlur(grey, (5, 5), 0), dtype=np.uint8))
        if paper - table < p.min_paper_contrast:
            return []
        crop = np.ascontiguousarray(grey[y0:y1, x0:x1])
        blurred, edge_mask = self._edge_mask(crop)
        thin = self._thin_edges(crop)
        bright = _paper_mask(blurred, table, paper)
        lines = self._line_quads(thin, edge_mask, bright, p.min_area_frac * W * H,
                                 p.max_area_frac * W * H, NEAR_LINE_SUPPORT)
        quads = [cs for cs, inside in zip(lines, _paper_inside_many(bright, lines),
                                          strict=True) if inside >= 0.6]
        self._straight = {id(c) for c, _ in quads}
        merged = self._merge(quads)
        if not merged:
            return []
        r = np.stack(merged) + np.array([x0, y0], dtype=np.float32)
        r = refine_corners_many(grey, refine_corners_many(grey, r, 4.0, 3.0), 4.0, 3.0)
        return [FoundCard(c, straight=True) for c in order_corners_many(r, self.square)]

    def find_and_warp(
        self, frame: object
    ) -> list[tuple[FoundCard, Image]]:
        image = check_image(frame)
        return [(c, warp_card(image, c.corners, self.size)) for c in self.find(image)]

    # -- internals ------------------------------------------------------------------------
    def _candidates(self, small: Image, *, levels: tuple[float, float] | None = None,
                    area: tuple[float, float] | None = None) -> list[tuple[FloatArray, float]]:
        """Candidate outlines in ``small`` (a frame, or a part of one with the frame's
        ``levels`` and card ``area`` limits); straight edges are searched where outlines
        leave paper unexplained."""
        p = self.params
        h, w = small.shape
        area_min, area_max = area or (p.min_area_frac * w * h, p.max_area_frac * w * h)
        self._area_min = area_min
        cut = self.masks(small, levels)
        if levels is None:
            self._last_levels = cut.levels
        edge_mask, thin, bright = cut.edges, cut.thin, cut.paper
        self._last_paper = bright
        out: list[tuple[FloatArray, float]] = []
        self._straight = set()  # ids of the quads from straight edges
        rough: list[FloatArray] = []
        points: list[FloatArray] = []
        for mask in cut.all:
            contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
            for c in contours:
                _, _, bw, bh = cv2.boundingRect(c)
                if bw * bh < area_min:
                    continue
                r = self._rough_quad(np.asarray(c, dtype=np.int32), area_min, area_max)
                if r is not None:
                    rough.append(r)
                    # (CHAIN_APPROX_SIMPLE keeps only the ends of straight runs: along a
                    # side of a close-up that is nearly level, few points but those by the
                    # rounded corners, and the fitted side tilts. Smaller cards' runs are
                    # short: left as they were.)
                    pts = c.reshape(-1, 2).astype(np.float32)
                    if bw * bh >= CLOSE_UP * w * h:
                        pts = _densify(pts, 120)
                    if len(pts) > 240:
                        pts = pts[:: len(pts) // 120]
                    points.append(pts)
        out = self._fitted(rough, points, edge_mask, w, h)
        if p.line_quads and bright is not None and self._unexplained_paper(bright, out,
                                                                           area_min):
            # Second choice: cards from straight edges, where no outline was found.
            # A much smaller outline inside one is a picture on that card: no obstacle; a
            # card-sized one (from a tenth of its area) means the straight edges are a loose
            # box around a card (wood grain, neighbours): not a card.
            taken = [q for q, _ in out]
            tq = np.stack(taken) if taken else np.zeros((0, 4, 2), dtype=np.float32)
            ta = np.abs(_signed_areas(tq))
            lines = self._line_quads(thin, edge_mask, bright, area_min, area_max)
            for (q, support), inside in zip(lines, _paper_inside_many(bright, lines),
                                            strict=True):
                if inside < 0.6:
                    continue  # straight lines of the table (wood grain, planks): no paper
                qa = abs(_signed_area(q))
                # ... except the card's own printed frame: concentric, the same way round,
                # a little smaller. The straight edges are then the card's outline.
                insets = _insets(tq, ta, q, qa)
                q_in_t = _inside(tq, q.mean(axis=0)[None, :])  # (each taken has q's centre)
                t_in_q = _inside(q[None], tq.mean(axis=1))  # (q has each one's centre)
                blocks = ~insets & (((ta >= 0.6 * qa) & (q_in_t | t_in_q))
                                    | ((ta >= 0.1 * qa) & t_in_q))
                if not blocks.any():
                    if insets.any():
                        gone = {id(taken[i]) for i in np.nonzero(insets)[0]}
                        out = [(t, sp) for t, sp in out if id(t) not in gone]
                        keep = ~insets
                        taken = [t for t, k in zip(taken, keep, strict=True) if k]
                        tq, ta = tq[keep], ta[keep]
                    out.append((q, support))
                    self._straight.add(id(q))
        return out

    def masks(self, small: Image, levels: tuple[float, float] | None = None) -> Masks:
        """The masks whose contours are the candidate outlines of ``small`` (uint8 grey, at
        the work width), cut at the table's and the paper's grey ``levels`` (measured on
        ``small`` if not given: a part of a frame is cut at the whole frame's). This is the
        finder's fixed work per frame, whatever lies on the table (``tablekeeper bench
        vision`` times it)."""
        p = self.params
        blurred, edges = self._edge_mask(small)
        thin = self._thin_edges(small)
        bright: Image | None = None
        dim: Image | None = None
        table, paper = levels or _levels(blurred)
        if paper - table >= p.min_paper_contrast:
            bright = _paper_mask(blurred, table, paper)
        if p.dark_cards:
            hist = cv2.calcHist([blurred], [0], None, [256], [0, 256]).ravel().cumsum()
            dark = float(np.searchsorted(hist, 0.02 * hist[-1]))
            if table - dark >= p.min_paper_contrast:
                _, cut = cv2.threshold(blurred, (table + dark) / 2, 255, cv2.THRESH_BINARY_INV)
                dim = np.asarray(cut, dtype=np.uint8)
        return Masks(edges, thin, bright, dim, (table, paper))

    def _edge_mask(self, small: Image) -> tuple[Image, Image]:
        """(a 5x5-blurred copy of ``small``, its Canny edges closed by a 3x3 dilation)."""
        p = self.params
        blurred = np.asarray(cv2.GaussianBlur(small, (5, 5), 0), dtype=np.uint8)
        edges = cv2.dilate(cv2.Canny(blurred, p.canny_low, p.canny_high),
                           np.ones((3, 3), np.uint8))
        return blurred, np.asarray(edges, dtype=np.uint8)

    def _thin_edges(self, small: Image) -> Image:
        """Thin (undilated) edges of a less blurred copy: they keep the narrow white margin
        between a card's outline and its printed frame (the outline of the top card of a
        pile)."""
        p = self.params
        return np.asarray(cv2.Canny(cv2.GaussianBlur(small, (3, 3), 0), p.canny_low,
                                    p.canny_high), dtype=np.uint8)

    def _uncovered(self, cards: list[FloatArray], scale: float,
                   origin: FloatArray, share: float = 1.0) -> list[FloatArray]:
        """Boxes (frame px) around the paper of the last frame searched that none of
        ``cards`` (in its px) covers, where that is at least half the smallest card's area
        (times ``share``). ``origin``: where the part of the frame searched begins (its px)."""
        paper = self._last_paper
        if paper is None or not self.params.line_quads:
            return []
        return [(box + origin) / scale for box in self._leftover(
            paper, [q - origin for q in cards], self._area_min, step=2, share=share)]

    def _unexplained_paper(self, paper: Image, found: list[tuple[FloatArray, float]],
                           area_min: float) -> bool:
        """Is there paper that none of the cards found so far covers (a pile, cards
        touching)? Only then are straight edges searched (they cost more than the rest).
        At a quarter of the resolution: cheap, and a card-sized blob is still one."""
        return bool(self._leftover(paper, self._merge(found), area_min, step=4))

    def _leftover(self, paper: Image, cards: list[FloatArray], area_min: float,
                  step: int, share: float = 1.0) -> list[FloatArray]:
        """Boxes (``paper``'s px) around the blobs of ``paper`` outside ``cards`` and the
        known ones at least half the smallest card's area (``area_min`` if none is bigger):
        blobs, not a count, for a card's rim, a highlight on the table or a sliver between
        two cards is paper outside every card too. (:func:`_paper_blobs`, at 1/``step``.)"""
        least = share * max(area_min, min((abs(_signed_area(q)) for q in cards),
                                          default=0.0))
        if float(np.count_nonzero(paper)) < 0.5 * least:
            return []  # (cheap: too little paper for a card at all; the found cards' areas
            # say little, for they are paper only in part)
        return _paper_blobs(_without(paper, cards + self._known), least, step)

    def _line_quads(self, thin: Image, edge_mask: Image, paper: Image, area_min: float,
                    area_max: float, min_support: float | None = None
                    ) -> list[tuple[FloatArray, float]]:
        """Cards from pairs of parallel straight edges (the top card of a pile, whose outline
        runs into the cards below so that it is no closed contour of its own).

        Straight segments (``cv2.HoughLinesP`` on the thin edges) with paper on one side are
        kept. Two parallel ones facing each other at distance ``d`` are opposite sides of a
        card ``d`` wide (or ``d`` long); the card lies flush with either end of the segments'
        joint extent or centred on it (a side may stop short of a corner). Every such
        quadrilateral whose four sides lie on edges is a candidate (all scored at once).
        """
        p = self.params
        h, w = thin.shape
        short_min = float(np.sqrt(area_min * self.aspect))
        segs = cv2.HoughLinesP(thin, 1, np.pi / 180, threshold=max(12, round(0.4 * short_min)),
                               minLineLength=max(8, round(0.5 * short_min)), maxLineGap=3)
        if segs is None or len(segs) < 2:
            return []
        s = segs.reshape(-1, 4).astype(np.float32)
        a, b = s[:, :2], s[:, 2:]
        d = b - a
        length = np.sqrt((d * d).sum(axis=1))
        u = d / np.maximum(length, 1e-6)[:, None]
        n = np.stack([-u[:, 1], u[:, 0]], axis=1)
        # Paper on one side of the segment (3 px away, at a quarter, half, three quarters).
        ts = np.array([0.25, 0.5, 0.75], dtype=np.float32)
        along = a[:, None, :] + ts[None, :, None] * d[:, None, :]
        sides = []
        for sign in (-3.0, 3.0):
            pt = along + sign * n[:, None, :]
            xs = np.clip(np.rint(pt[..., 0]).astype(np.intp), 0, w - 1)
            ys = np.clip(np.rint(pt[..., 1]).astype(np.intp), 0, h - 1)
            sides.append((paper[ys, xs] > 0).sum(axis=1) >= 2)
        keep_seg = np.nonzero(sides[0] | sides[1])[0]
        keep_seg = keep_seg[np.argsort(-length[keep_seg])][:120]
        if len(keep_seg) < 2:
            return []
        a, b, u, length = a[keep_seg], b[keep_seg], u[keep_seg], length[keep_seg]
        # Pairs (i, j), i < j, parallel within 4 degrees.
        cos = np.abs(u @ u.T)
        i_idx, j_idx = np.nonzero(np.triu(cos > np.cos(np.radians(4.0)), 1))
        if len(i_idx) == 0:
            return []
        ui = u[i_idx]
        ni = np.stack([-ui[:, 1], ui[:, 0]], axis=1)
        mi = (a[i_idx] + b[i_idx]) / 2
        mj = (a[j_idx] + b[j_idx]) / 2
        dist = ((mj - mi) * ni).sum(axis=1)
        gap = np.abs(dist)
        ends = np.stack([((a[i_idx] - mi) * ui).sum(1), ((b[i_idx] - mi) * ui).sum(1),
                         ((a[j_idx] - mi) * ui).sum(1), ((b[j_idx] - mi) * ui).sum(1)], 1)
        lo, hi = ends.min(axis=1), ends.max(axis=1)
        # The two must overlap along their direction (they face each other).
        ov = (np.minimum(np.maximum(ends[:, 0], ends[:, 1]), np.maximum(ends[:, 2], ends[:, 3]))
              - np.maximum(np.minimum(ends[:, 0], ends[:, 1]), np.minimum(ends[:, 2], ends[:, 3])))
        ok = (gap >= short_min) & (ov > 0.3 * np.minimum(length[i_idx], length[j_idx]))
        quads, groups = [], []
        for along_f in (1.0 / self.aspect, self.aspect):
            ln = gap * along_f
            extent = hi - lo
            good = ok & (extent <= 1.15 * ln) & (extent >= 0.45 * ln) \
                & (ln * gap >= area_min) & (ln * gap <= area_max)
            k = np.nonzero(good)[0]
            for mid in ((lo + hi) / 2, lo + ln / 2, hi - ln / 2):
                centre = mi[k] + ui[k] * mid[k, None] + ni[k] * (dist[k, None] / 2)
                hu, hn = ui[k] * (ln[k, None] / 2), ni[k] * (gap[k, None] / 2)
                quads.append(np.stack([centre - hu - hn, centre + hu - hn, centre + hu + hn,
                                       centre - hu + hn], axis=1))
                groups.append(k * 2 + (0 if along_f > 1 else 1))
        if not quads:
            return []
        q_all = np.concatenate(quads).astype(np.float32)
        g_all = np.concatenate(groups)
        inside = ((q_all.min(axis=(1, 2)) >= 2) & (q_all[:, :, 0].max(axis=1) <= w - 3)
                  & (q_all[:, :, 1].max(axis=1) <= h - 3))
        support = np.where(inside, _edge_support_many(edge_mask, q_all), -1.0)
        # Per pair and reading, the best supported of the three placements.
        order = np.lexsort((-support, g_all))
        first = np.ones(len(order), dtype=bool)
        first[1:] = g_all[order][1:] != g_all[order][:-1]
        best = order[first]
        lo = max(p.min_edge_support, p.min_line_support) if min_support is None else min_support
        best = best[support[best] >= lo]
        ordered = order_corners_many(q_all[best], self.square)
        return [(ordered[k], float(support[i])) for k, i in enumerate(best)]

    def _rough_quad(self, contour: npt.NDArray[np.int32], area_min: float,
                    area_max: float) -> FloatArray | None:
        """The rough quadrilateral of a contour that may be a card, or None."""
        # Cheap rejection first: the rotated bounding box's area and aspect (of the convex
        # hull, which minAreaRect would take itself; the hull is needed below anyway).
        # (The contour itself may be a thin ring: the white margin between a card's outline
        # and its printed frame. Whether the sides lie on edges is checked later.)
        hull = cv2.convexHull(contour)
        rect = cv2.minAreaRect(hull)
        (_, _), (rw, rh), _ = rect
        if not area_min <= rw * rh <= area_max:
            return None
        if abs(min(rw, rh) / max(rw, rh) - self.aspect) > 1.5 * (
            self.params.aspect_tolerance * self.aspect
        ):
            return None
        hull_area = cv2.contourArea(hull)
        if hull_area <= 0:
            return None
        peri = cv2.arcLength(hull, True)
        q = None
        for eps in (0.02, 0.035):
            a = cv2.approxPolyDP(hull, eps * peri, True)
            if len(a) == 4:
                q = a.reshape(4, 2).astype(np.float32)
                break
            if len(a) < 4:
                break
        min_rect = self.params.min_rectangularity
        if q is None or hull_area / max(abs(_signed_area(q)), 1e-6) < min_rect:
            # A clipped corner (a picture touching the edge) or a notch: the hull's bounding
            # rectangle, if the hull fills it.
            q = cv2.boxPoints(rect).astype(np.float32)
        qa = abs(_signed_area(q))
        if qa <= 0 or hull_area / qa < self.params.min_rectangularity:
            return None
        return q  # (card-shaped or not, and in what order: checked for all at once)

    def _fitted(self, rough: list[FloatArray], points: list[FloatArray], edge_mask: Image,
                w: int, h: int) -> list[tuple[FloatArray, float]]:
        """(quad, edge support) of the candidates whose rough quads are ``rough`` and
        contour points ``points``, all at once: sides fitted to the contour (the polygon
        cuts the card's rounded corners), still card-shaped, inside the frame, and on
        edges for ``min_edge_support`` of their length."""
        if not rough:
            return []
        q = np.stack(rough)
        shaped = np.nonzero(_card_shaped_many(q, self.aspect, self.params.aspect_tolerance))[0]
        if len(shaped) == 0:
            return []
        q = fit_sides_many([points[i] for i in shaped], order_corners_many(q[shaped]))
        keep = _card_shaped_many(q, self.aspect, self.params.aspect_tolerance)
        q = order_corners_many(q[keep], self.square)
        # A card cut by the border of the frame cannot be warped whole; one that touches it
        # (a close-up: a corner at the border) can.
        inside = _within_frame(q, w, h, self.aspect)
        support = _edge_support_many(edge_mask, q)
        # A big card whose sides bow a few pixels (a bent card, a wide lens: real phone
        # photos) has straight fitted sides just off its edge for part of their length:
        # there, its edges are looked for a pixel further (at this size a pixel is under
        # 1.5 % of its short side). Small cards (the camera's stream) are not affected.
        d = q[:, _NEXT] - q
        short = np.sqrt((d * d).sum(axis=2)).min(axis=1)
        weak = (support < self.params.min_edge_support) & inside & (short >= BOWED_MIN_SIDE)
        if weak.any():
            wide = np.asarray(cv2.dilate(edge_mask, np.ones((3, 3), np.uint8)), np.uint8)
            support[weak] = _edge_support_many(wide, q[weak])
        ok = np.nonzero((support >= self.params.min_edge_support) & inside)[0]
        return [(q[i], float(support[i])) for i in ok]

    def _merge(self, quads: list[tuple[FloatArray, float]],
               others: dict[int, list[FloatArray]] | None = None) -> list[FloatArray]:
        """One quadrilateral per card, largest first. A candidate whose centre lies inside a
        kept one is a picture on that card (much smaller: dropped) or another outline of the
        same spot: then the one whose sides lie on edges more fully stays. That is how the top
        card of a pile wins over a loose outline around it and the card below.

        ``others``, if given, receives per kept quad (by ``id``) the card-sized outlines that
        gave way to it (the top card of a pile may be one of them)."""
        kept: list[tuple[FloatArray, float, float]] = []  # (quad, support, area)
        lost: list[list[FloatArray]] = []
        if not quads:
            return []
        stack = np.stack([q for q, _ in quads])
        areas = np.abs(_signed_areas(stack))
        centres = stack.mean(axis=1).tolist()
        for j in sorted(range(len(quads)), key=lambda j: -areas[j]):
            q, support = quads[j]
            area = float(areas[j])
            centre = (centres[j][0], centres[j][1])
            i = next((i for i, k in enumerate(kept)
                      if cv2.pointPolygonTest(k[0].reshape(-1, 1, 2), centre, False) >= 0), -1)
            if i < 0:
                kept.append((q, support, area))
                lost.append([])
            elif (area >= 0.7 * kept[i][2] and support > kept[i][1] + 0.05
                  and not (id(q) in self._straight and id(kept[i][0]) in self._straight)):
                # (Of two boxes from straight edges, both well supported, the larger one is
                # the card: the smaller stops short of a corner.)
                lost[i].append(kept[i][0])
                kept[i] = (q, support, area)
            elif area >= OTHER_MIN * kept[i][2]:
                lost[i].append(q)
        if others is not None:
            for (k, _, _), gone in zip(kept, lost, strict=True):
                others[id(k)] = gone
        return [k for k, _, _ in kept]


def _densify(pts: FloatArray, n: int) -> FloatArray:
    """The closed polyline ``pts`` (N x 2) with points added along its segments longer than
    4/``n`` of its length, one every 1/``n`` of it."""
    if len(pts) < 2:
        return pts
    seg = np.roll(pts, -1, axis=0) - pts
    length = np.sqrt((seg * seg).sum(axis=1))
    step = max(1.0, float(length.sum()) / n)
    # (Only long segments: the rest of the outline is dense already, and every point more
    # costs in the fit.)
    k = np.where(length > 4 * step, np.ceil(length / step), 1).astype(np.intp)
    idx = np.repeat(np.arange(len(pts)), k)
    frac = (np.arange(int(k.sum())) - np.repeat(np.cumsum(k) - k, k)) / np.repeat(k, k)
    return np.asarray(pts[idx] + frac[:, None].astype(np.float32) * seg[idx], dtype=np.float32)


def fit_sides_many(points: Sequence[FloatArray], quads: FloatArray) -> FloatArray:
    """Each of ``quads`` (M x 4 x 2, clockwise) with each side fitted to the contour
    ``points[i]`` along it, all at once.

    A polygon approximation of a card's outline cuts its rounded corners, so its sides are
    tilted by a few pixels against the card's. Each side is instead the least-squares line
    through the contour points near its middle 70 % (within a few pixels of the rough side),
    and the corners are where neighbouring sides meet. A side with too few points keeps its
    rough position.
    """
    q = np.asarray(quads, dtype=np.float32).reshape(-1, 4, 2)
    m = len(q)
    counts = np.array([len(p) for p in points], dtype=np.intp)
    n = max(1, int(counts.max(initial=0)))
    pts = np.zeros((m, n, 2), dtype=np.float32)
    for i, p in enumerate(points):
        pts[i, : len(p)] = p
    valid = np.arange(n)[None, :] < counts[:, None]  # (M, N)
    nxt = q[:, _NEXT]
    d = nxt - q
    length = np.sqrt((d * d).sum(axis=2))  # (M, 4)
    u = d / np.maximum(length, 1e-6)[:, :, None]
    ux, uy = u[:, :, 0:1], u[:, :, 1:2]  # (M, 4, 1); the side's normal is (uy, -ux)
    # x and y apart (M x 4 x N each): a third of the work of (M, 4, N, 2) arrays.
    px, py = pts[:, None, :, 0], pts[:, None, :, 1]  # (M, 1, N)
    rx = px - q[:, :, 0:1]
    ry = py - q[:, :, 1:2]
    t = (rx * ux + ry * uy) / np.maximum(length, 1e-6)[:, :, None]
    off = rx * uy - ry * ux
    near = (valid[:, None, :] & (t > 0.15) & (t < 0.85)
            & (np.abs(off) <= np.maximum(3.0, 0.05 * length)[:, :, None]))
    # Per side, the principal axis of its points (closed form for 2x2 moments).
    wgt = near.astype(np.float32)
    cnt = wgt.sum(axis=2)  # (M, 4)
    safe = np.maximum(cnt, 1.0)
    cx = (wgt * px).sum(axis=2) / safe  # (M, 4)
    cy = (wgt * py).sum(axis=2) / safe
    c = np.stack([cx, cy], axis=2)
    dx = px - cx[:, :, None]
    dy = py - cy[:, :, None]
    wdx, wdy = wgt * dx, wgt * dy
    sxx, syy = (wdx * dx).sum(2), (wdy * dy).sum(2)
    sxy = (wdx * dy).sum(2)
    theta = 0.5 * np.arctan2(2 * sxy, sxx - syy)
    axis = np.stack([np.cos(theta), np.sin(theta)], axis=2).astype(np.float32)
    axis *= np.where((axis * u).sum(axis=2) < 0, -1.0, 1.0).astype(np.float32)[:, :, None]
    # A side with too few points, or whose points run more than ~14 degrees off the rough
    # side (not this side), keeps its rough position.
    good = (cnt >= 4) & ((axis * u).sum(axis=2) >= 0.97)
    origin = np.where(good[:, :, None], c, q).astype(np.float32)
    direc = np.where(good[:, :, None], axis * length[:, :, None], d).astype(np.float32)
    out = _intersect_sides_many(origin, direc, q)
    # Too few points, or a degenerate rough side: the rough quadrilateral as it was.
    rough = (counts < 12) | (length.min(axis=1) < 8)
    return np.asarray(np.where(rough[:, None, None], q, out), dtype=np.float32)


def _intersect_sides_many(origin: FloatArray, direc: FloatArray,
                          fallback: FloatArray) -> FloatArray:
    """Corners (M x 4 x 2) of the quadrilaterals whose side i is the line ``origin[:, i] +
    s * direc[:, i]``: corner i is where side i-1 meets side i (``fallback`` where two
    neighbours are parallel, or where the corners moved implausibly far)."""
    p1, d1 = origin[:, [3, 0, 1, 2]], direc[:, [3, 0, 1, 2]]
    p2, d2 = origin, direc
    det = d1[..., 0] * (-d2[..., 1]) + d2[..., 0] * d1[..., 1]  # (M, 4)
    parallel = np.abs(det).min(axis=1) < 1e-6
    diff = p2 - p1
    s_ = (diff[..., 0] * (-d2[..., 1]) + d2[..., 0] * diff[..., 1]) / np.where(
        np.abs(det) < 1e-6, 1.0, det)
    out = np.asarray(p1 + s_[..., None] * d1, dtype=np.float32)
    scale = np.abs(fallback - fallback.mean(axis=1, keepdims=True)).max(axis=(1, 2))
    wrong = parallel | (np.abs(out - fallback).max(axis=(1, 2)) > 0.25 * scale)
    return np.asarray(np.where(wrong[:, None, None], fallback, out), dtype=np.float32)


#: A card at the frame's border may be cut by it: it is reported only if its proportions are
#: the deck's within this (relative; cut by less than that, if at all).
TOUCHING_ASPECT = 0.06


def _within_frame(q: FloatArray, w: int, h: int, aspect: float) -> npt.NDArray[np.bool_]:
    """Does each of ``q`` (M x 4 x 2) lie in a ``w`` x ``h`` frame, whole: every corner inside
    it or touching its border (up to 1.5 px beyond: the edge of the last pixel), and, if a
    corner or a side lies at the border (the card touches it, or goes on beyond it, cut), the
    deck's ``aspect`` within :data:`TOUCHING_ASPECT`? (Until this finder, 2 px inside.)"""
    x, y = q[..., 0], q[..., 1]
    inside = ((x >= -1.5) & (x <= w + 0.5) & (y >= -1.5) & (y <= h + 0.5)).all(axis=1)
    near = np.stack([x < 2, x > w - 3, y < 2, y > h - 3], axis=2)  # (M, 4, 4)
    touching = near.any(axis=(1, 2))  # (a corner or a side at the border)
    tight = _card_shaped_many(q, aspect, TOUCHING_ASPECT)
    return np.asarray(inside & (~touching | tight), dtype=np.bool_)


def _card_shaped_many(q: FloatArray, aspect: float, tolerance: float) -> npt.NDArray[np.bool_]:
    """Has each of ``q`` (M x 4 x 2) the deck's ``aspect`` ratio, with opposite edges of about
    equal length (a card seen from above)?"""
    d = q[:, _NEXT] - q
    e = np.sqrt((d * d).sum(axis=2))  # (M, 4)
    a_pair, b_pair = (e[:, 0] + e[:, 2]) / 2, (e[:, 1] + e[:, 3]) / 2
    short, long_ = np.minimum(a_pair, b_pair), np.maximum(a_pair, b_pair)
    ratio = short / np.maximum(long_, 1e-9)
    return np.asarray(
        (long_ > 0) & (np.abs(ratio - aspect) <= tolerance * aspect)
        & (np.minimum(e[:, 0], e[:, 2]) >= 0.6 * np.maximum(e[:, 0], e[:, 2]))
        & (np.minimum(e[:, 1], e[:, 3]) >= 0.6 * np.maximum(e[:, 1], e[:, 3])),
        dtype=np.bool_)


def _without(mask: Image, cards: Sequence[FloatArray]) -> Image:
    """A copy of ``mask`` cleared inside ``cards`` and a little beyond (3 px: a card's rim
    and shadow are not a card of their own)."""
    out = mask.copy()
    if cards:
        cv2.fillPoly(out, [np.rint(_grow(q, 3.0)).astype(np.int32) for q in cards], 0)
    return out


def _paper_blobs(paper: Image, least: float, step: int = 1) -> list[FloatArray]:
    """Boxes (``paper``'s px) around the blobs of ``paper`` at least half of ``least`` in
    area whose bounding boxes are at least ``least``; searched at 1/``step`` of the
    resolution (a pixel there is paper when a quarter of its ``step`` x ``step`` block is)."""
    if step > 1:
        h, w = paper.shape
        paper = np.asarray(cv2.resize(paper, (max(1, w // step), max(1, h // step)),
                                      interpolation=cv2.INTER_AREA) > 63, dtype=np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(paper, connectivity=8)
    s2 = float(step * step)
    out = []
    for x, y, bw, bh, area in stats[1:n]:
        if area * s2 >= 0.5 * least and bw * bh * s2 >= least:
            x0, y0, x1, y1 = x * step, y * step, (x + bw) * step, (y + bh) * step
            out.append(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float32))
    return out


def _grow(q: FloatArray, by: float) -> FloatArray:
    """``q`` with every corner moved ``by`` px away from its centre."""
    c = q.mean(axis=0)
    d = q - c
    n = np.sqrt((d * d).sum(axis=1, keepdims=True))
    return np.asarray(q + by * d / np.maximum(n, 1e-6), dtype=np.float32)


def _paper_mask(blurred: Image, table: float, paper: float) -> Image:
    """Brighter than halfway between the table and the paper levels."""
    _, mask = cv2.threshold(blurred, (table + paper) / 2, 255, cv2.THRESH_BINARY)
    return np.asarray(mask, dtype=np.uint8)


def _levels(blurred: Image) -> tuple[float, float]:
    """(table, paper) grey levels of a frame: the median (mostly table) and the 98th
    percentile (the brightest: card paper)."""
    hist = cv2.calcHist([blurred], [0], None, [256], [0, 256]).ravel().cumsum()
    return (float(np.searchsorted(hist, 0.5 * hist[-1])),
            float(np.searchsorted(hist, 0.98 * hist[-1])))


def _edge_support_many(edges: Image, quads: FloatArray) -> npt.NDArray[np.float64]:
    """Per quadrilateral of ``quads`` (M x 4 x 2): the fraction of points along its sides
    (corners excepted) that lie on an edge of ``edges``."""
    if len(quads) == 0:  # no candidates in this frame
        return np.zeros(0, dtype=np.float64)
    ts = _SUPPORT_TS
    nxt = quads[:, _NEXT, :]
    pts = quads[:, :, None, :] + ts[None, None, :, None] * (nxt - quads)[:, :, None, :]
    xs = np.clip(np.rint(pts[..., 0]).astype(np.intp), 0, edges.shape[1] - 1)
    ys = np.clip(np.rint(pts[..., 1]).astype(np.intp), 0, edges.shape[0] - 1)
    return np.asarray((edges[ys, xs] > 0).reshape(len(quads), -1).mean(axis=1),
                      dtype=np.float64)


def _paper_inside_many(paper: Image, quads: Sequence[tuple[FloatArray, float]]
                       ) -> npt.NDArray[np.float64]:
    """Per (quad, support) of ``quads``: the fraction of points on two rings just inside the
    quad's sides (3 % and 8 % of the way to the centre: a card's white margin) that are paper
    in the mask ``paper``."""
    if not quads:
        return np.zeros(0, dtype=np.float64)
    q = np.stack([c for c, _ in quads]).astype(np.float32)
    c = q.mean(axis=1, keepdims=True)
    ts = _INSIDE_TS
    vals = []
    for f in (0.03, 0.08):
        r = q + f * (c - q)
        pts = r[:, :, None, :] + ts[None, None, :, None] * (r[:, _NEXT] - r)[:, :, None, :]
        xs = np.clip(np.rint(pts[..., 0]).astype(np.intp), 0, paper.shape[1] - 1)
        ys = np.clip(np.rint(pts[..., 1]).astype(np.intp), 0, paper.shape[0] - 1)
        vals.append((paper[ys, xs] > 0).reshape(len(q), -1))
    return np.asarray(np.concatenate(vals, axis=1).mean(axis=1), dtype=np.float64)


def _insets(inner: FloatArray, inner_area: npt.NDArray[np.float64], outer: FloatArray,
            outer_area: float) -> npt.NDArray[np.bool_]:
    """Which of ``inner`` (K x 4 x 2, areas ``inner_area``) are a printed frame of the card
    ``outer`` (clockwise): 60-95 % of its area and inset evenly from all four of its sides
    (within 3 % of the short side of one another)?"""
    o = outer
    d = o[_NEXT] - o
    length = np.sqrt((d * d).sum(axis=1))
    inward = np.stack([-d[:, 1], d[:, 0]], axis=1) / np.maximum(length, 1e-6)[:, None]
    # Per inner quad and side of ``outer``: how far inside it the nearest corner lies.
    depth = ((inner[:, None, :, :] - o[None, :, None, :])
             * inward[None, :, None, :]).sum(axis=3).min(axis=2)  # (K, 4)
    short = float(length.min())
    return np.asarray((0.6 * outer_area <= inner_area) & (inner_area <= 0.95 * outer_area)
                      & (depth.min(axis=1) >= 0.01 * short)
                      & (depth.max(axis=1) - depth.min(axis=1) <= max(2.0, 0.03 * short)),
                      dtype=np.bool_)


def _inside(quads: FloatArray, points: FloatArray) -> npt.NDArray[np.bool_]:
    """Is ``points[i]`` inside (or on) the convex quadrilateral ``quads[i]`` (broadcast: one
    quad and many points, or many quads and one point)?"""
    q = np.asarray(quads, dtype=np.float64)
    p = np.asarray(points, dtype=np.float64)
    d = q[:, _NEXT] - q  # (M, 4, 2)
    rel = p[:, None, :] - q  # (M, 4, 2)
    cross = d[..., 0] * rel[..., 1] - d[..., 1] * rel[..., 0]
    return np.asarray((cross >= 0).all(axis=1) | (cross <= 0).all(axis=1), dtype=np.bool_)


def contains(outer: FloatArray, inner: FloatArray) -> bool:
    """Does the quadrilateral ``outer`` contain the centre of ``inner``?"""
    c = inner.mean(axis=0)
    return cv2.pointPolygonTest(outer.reshape(-1, 1, 2), (float(c[0]), float(c[1])), False) >= 0


def refine_corners(
    grey: Image, quad: FloatArray, inward: float = 6.0, outward: float = 4.0,
    bright: bool = True,
) -> FloatArray:
    """Move each side of a rough clockwise quadrilateral onto the card's outline in ``grey``.

    Along each side, at 12 points, the grey profile across the side is sampled from ``inward``
    px inside to ``outward`` px outside; the card's outline is the *outermost* strong step
    (at least 25 % of the profile's largest) from paper to table (a fall for ``bright`` cards),
    so a printed frame just inside the edge is passed over, a soft shadow outside is not taken
    and the near edge of a neighbouring card (a rise) is not either. Per side, the edge offsets
    are fitted as a linear function of the position along the side (with outliers dropped:
    pictures touching the edge), and the corners are the intersections of neighbouring sides.
    A side without enough agreeing steps keeps its rough position.
    """
    q = np.asarray(quad, dtype=np.float32).reshape(1, 4, 2)
    return np.asarray(refine_corners_many(grey, q, inward, outward, bright)[0], dtype=np.float32)


def refine_corners_many(
    grey: Image, quads: FloatArray, inward: float = 6.0, outward: float = 4.0,
    bright: bool = True,
) -> FloatArray:
    """:func:`refine_corners` of each of ``quads`` (M x 4 x 2) at once."""
    q = np.asarray(quads, dtype=np.float32).reshape(-1, 4, 2)
    m = len(q)
    if m == 0:
        return q
    nxt = q[:, _NEXT]
    d = nxt - q
    length = np.sqrt((d * d).sum(axis=2, keepdims=True))  # (M, 4, 1)
    tiny = length.min(axis=(1, 2)) < 4
    d = d / np.maximum(length, 1e-6)
    normal = np.stack([d[..., 1], -d[..., 0]], axis=2)  # outward for clockwise (y down)
    ts = _REFINE_TS
    offs = np.arange(-max(2, round(inward)), max(2, round(outward)) + 1, dtype=np.float32)
    base = q[:, :, None, :] + ts[None, None, :, None] * (nxt - q)[:, :, None, :]  # (M,4,12,2)
    pts = base[:, :, :, None, :] + offs[None, None, None, :, None] * normal[:, :, None, None, :]
    mapx = np.ascontiguousarray(pts[..., 0].reshape(m * 48, -1), dtype=np.float32)
    mapy = np.ascontiguousarray(pts[..., 1].reshape(m * 48, -1), dtype=np.float32)
    prof = cv2.remap(grey, mapx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    diff = np.diff(prof.astype(np.float32), axis=1)  # (M*48, n-1), going outward
    step = -diff if bright else diff  # paper -> table is a fall for bright cards
    strong = step >= np.maximum(8.0, 0.25 * np.abs(diff).max(axis=1, keepdims=True))
    n_steps = step.shape[1]
    best = n_steps - 1 - strong[:, ::-1].argmax(axis=1)  # the outermost strong step
    # A blurred edge spans a few samples: the outermost strong one is its tail. Climb to the
    # steepest sample of that transition (its centre), then place the edge between samples
    # by a parabola through the steepest one and its neighbours (sub-pixel).
    rows = np.arange(step.shape[0])
    for _ in range(4):
        inner = np.maximum(best - 1, 0)
        best = np.where(step[rows, inner] > step[rows, best], inner, best)
    d0 = step[rows, best]
    dm = np.where(best > 0, step[rows, np.maximum(best - 1, 0)], d0)
    dp = np.where(best < n_steps - 1, step[rows, np.minimum(best + 1, n_steps - 1)], d0)
    curv = dm - 2 * d0 + dp
    sub = np.where(curv < -1e-6, 0.5 * (dm - dp) / np.where(curv < -1e-6, curv, -1.0), 0.0)
    sub = np.clip(sub, -0.5, 0.5)
    strength = np.where(strong[rows, best], d0, 0.0).reshape(m * 4, 12)
    where = (offs[best] + 0.5 + sub).reshape(m * 4, 12)  # offset of the edge along the normal
    # Per side, the edge's offset is a linear function of the position along the side (the
    # rough side may be tilted against the true one): fit it, drop outliers (pictures touching
    # the edge, a shadow), fit again.
    wgt = (strength >= 8).astype(np.float32)
    tt = np.broadcast_to(ts[None, :], where.shape)
    a0 = b0 = np.zeros(m * 4, dtype=np.float32)
    for it in range(3):
        if it:
            resid = np.abs(where - (a0[:, None] + b0[:, None] * tt))
            wgt = wgt * (resid <= (3.0 if it == 1 else 1.5))
        sw = wgt.sum(axis=1)
        st = (wgt * tt).sum(axis=1)
        sy = (wgt * where).sum(axis=1)
        stt = (wgt * tt * tt).sum(axis=1)
        sty = (wgt * tt * where).sum(axis=1)
        den = sw * stt - st * st
        safe = np.where(np.abs(den) < 1e-6, 1.0, den)
        b0 = np.where(np.abs(den) < 1e-6, 0.0, (sw * sty - st * sy) / safe).astype(np.float32)
        a0 = np.where(sw > 0, (sy - b0 * st) / np.maximum(sw, 1e-6), 0.0).astype(np.float32)
    good = wgt.sum(axis=1) >= 4
    a_side = np.where(good, a0, 0.0).reshape(m, 4)
    b_side = np.where(good, b0, 0.0).reshape(m, 4)
    start = q + a_side[:, :, None] * normal
    end = nxt + (a_side + b_side)[:, :, None] * normal
    origin = start
    direc = end - start
    # Corner i is where side i-1 meets side i.
    p1, d1 = origin[:, [3, 0, 1, 2]], direc[:, [3, 0, 1, 2]]
    p2, d2 = origin, direc
    det = d1[..., 0] * (-d2[..., 1]) + d2[..., 0] * d1[..., 1]
    parallel = np.abs(det).min(axis=1) < 1e-6
    diff2 = p2 - p1
    s_ = (diff2[..., 0] * (-d2[..., 1]) + d2[..., 0] * diff2[..., 1]) / np.where(
        np.abs(det) < 1e-6, 1.0, det)
    out = np.asarray(p1 + s_[..., None] * d1, dtype=np.float32)
    # Gone wrong (moved further than it looked): keep the rough one.
    wrong = tiny | parallel | (np.abs(out - q).max(axis=(1, 2)) > 3 * max(inward, outward))
    return np.asarray(np.where(wrong[:, None, None], q, out), dtype=np.float32)


#: :func:`expand_to_rim`: how far outside a found outline a card's own edge is looked for (of
#: the outline's short side: a poker card's white border is 5 % of its width, a tarot's 8 %).
RIM_SEARCH = 0.15
#: ... the least rise (grey levels) from the print inside the outline to the white border
#: outside it, and the least step from that border to the table beyond.
RIM_PRINT_STEP = 15.0
RIM_TABLE_STEP = 4.0


def expand_to_rim(grey: Image, quads: FloatArray) -> FloatArray:
    """Each of ``quads`` (M x 4 x 2, clockwise, on ``grey``'s px) moved out onto the card's
    edge where it is the card's *printed frame*: a white-bordered card on a white or light
    table, whose edge against the table is a step of a few grey levels, is found by the
    strong edge of its print.

    Along each side, at 12 points, the grey profile across it is sampled from 4 px inside to
    :data:`RIM_SEARCH` of the short side outside. A side is the edge of a print when, at 7 of
    the 12 points or more, the inside is darker than just outside (by :data:`RIM_PRINT_STEP`),
    just outside is an even band of paper, and the band ends, further out, in a step down of
    :data:`RIM_TABLE_STEP` or more to something darker (the table, or its shadow), at the
    same distance from the side (within 1.5 px of their median). A quad is moved only when
    all four of its sides are such edges; each side then moves out by its median distance, to
    the middle of the step. A card whose outline was found is not moved: beyond it lies the
    table (no band of paper brighter than its inside), and a neighbour next to one side is
    not next to all four."""
    q = np.asarray(quads, dtype=np.float32).reshape(-1, 4, 2)
    m = len(q)
    if m == 0:
        return q
    nxt = q[:, _NEXT]
    d = nxt - q
    length = np.sqrt((d * d).sum(axis=2, keepdims=True))  # (M, 4, 1)
    u = d / np.maximum(length, 1e-6)
    normal = np.stack([u[..., 1], -u[..., 0]], axis=2)  # outward for clockwise (y down)
    short = length.min(axis=(1, 2))  # (M,)
    reach = int(np.ceil(max(6.0, RIM_SEARCH * float(short.max()))))
    offs = np.arange(-4, reach + 1, dtype=np.float32)  # (K,)
    ts = _REFINE_TS
    base = q[:, :, None, :] + ts[None, None, :, None] * d[:, :, None, :]  # (M, 4, 12, 2)
    pts = base[:, :, :, None, :] + offs[None, None, None, :, None] * normal[:, :, None, None, :]
    mapx = np.ascontiguousarray(pts[..., 0].reshape(m * 48, -1), dtype=np.float32)
    mapy = np.ascontiguousarray(pts[..., 1].reshape(m * 48, -1), dtype=np.float32)
    prof = cv2.remap(grey, mapx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                     borderValue=0).astype(np.float32)  # (M*48, K)
    zero = 4  # index of offset 0
    n_off = prof.shape[1]
    # Per sample: the table is the far end of the profile (flat there, or no verdict); the
    # card's edge is the outermost place (scanning in from the far end) where the profile
    # is brighter than the table: a shadow (darker) is passed over.
    table = np.median(prof[:, -5:], axis=1)
    flat = (prof[:, -5:].max(axis=1) - prof[:, -5:].min(axis=1)) <= 2.5 * RIM_TABLE_STEP
    own = (RIM_SEARCH * np.repeat(short, 48))[:, None]  # (M*48, 1): this quad's reach
    # "Brighter": by RIM_TABLE_STEP, and by 40 % of the way to the brightest paper there
    # (so that the table's own noise and grain is not taken for paper).
    span = (offs[None, :] <= own - 5) & (np.arange(len(offs)) >= zero - 3)[None, :]
    peak = np.where(span, prof, -1.0).max(axis=1)
    lift = np.maximum(RIM_TABLE_STEP, 0.4 * (peak - table))
    pair = span & (prof >= (table + lift)[:, None])
    has = pair.any(axis=1)
    edge = np.where(has, n_off - 1 - pair[:, ::-1].argmax(axis=1), zero)  # last bright
    rows = np.arange(len(prof))
    k = np.arange(n_off)[None, :]
    # The paper's level: the brightest of the 4 samples up to that edge; the edge itself is
    # the outermost place there where the profile is still above halfway from the paper to
    # the table (sub-pixel between it and the next sample).
    near = (k >= edge[:, None] - 3) & (k <= edge[:, None])
    paper = np.where(near, prof, -1.0).max(axis=1)
    half = (paper + table) / 2
    above = near & (prof >= half[:, None])
    cross = np.where(above.any(axis=1), n_off - 1 - above[:, ::-1].argmax(axis=1), edge)
    nxt_i = np.minimum(cross + 1, n_off - 1)
    p0, p1 = prof[rows, cross], prof[rows, nxt_i]
    frac = np.clip((p0 - half) / np.maximum(p0 - p1, 1e-6), 0.0, 1.0)
    where = offs[cross] + frac * (offs[nxt_i] - offs[cross])
    # A print inside that edge (something dark: at least RIM_PRINT_STEP below the paper),
    # and from the print out to the edge nothing but paper (brighter than the table): the
    # white border. (A card found by its own edge has the table right outside it: the
    # "border" would run over the table, and no table is brighter than itself.)
    dark = (k < cross[:, None]) & (prof <= (paper - RIM_PRINT_STEP)[:, None])
    ink = dark.any(axis=1)
    last_ink = np.where(ink, n_off - 1 - dark[:, ::-1].argmax(axis=1), 0)
    lit = (k > last_ink[:, None]) & (prof >= (table + lift / 2)[:, None])
    start = np.where(lit.any(axis=1), lit.argmax(axis=1), cross)  # the border's inner side
    band = (k >= start[:, None]) & (k <= cross[:, None])
    gap = (band & (prof < (table + RIM_TABLE_STEP / 2)[:, None])).any(axis=1)
    ok = has & flat & ink & ~gap & (cross > last_ink)
    ok = ok.reshape(m * 4, 12)
    where = where.reshape(m * 4, 12)
    # Per side, the edge's offset is a linear function of the position along it (the
    # outline found may run along the print at one end and the card's edge at the other):
    # the line through two of the samples that most others lie on (within 1.2 px), then
    # fitted to those.
    maybe = (ok.sum(axis=1) >= 5).reshape(m, 4).all(axis=1)  # (the usual: none)
    if not maybe.any():
        return q
    a_side, b_side, inliers = _robust_lines(ts, where, ok & np.repeat(maybe, 4)[:, None], 1.2)
    side_ok = (inliers >= 5).reshape(m, 4)
    a_side, b_side = a_side.reshape(m, 4), b_side.reshape(m, 4)
    ends = np.stack([a_side, a_side + b_side], axis=2)  # (M, 4, 2): offset at each end
    move = (side_ok.all(axis=1) & (ends.max(axis=(1, 2)) >= 1.0)
            & (ends.min(axis=(1, 2)) >= -3.0)
            & (np.abs(b_side) <= np.maximum(3.0, 0.12 * length[..., 0])).all(axis=1))
    if not move.any():
        return q
    a_side = np.where(move[:, None], a_side, 0.0).astype(np.float32)
    b_side = np.where(move[:, None], b_side, 0.0).astype(np.float32)
    start = q + a_side[:, :, None] * normal
    end = nxt + (a_side + b_side)[:, :, None] * normal
    out = _intersect_sides_many(start.astype(np.float32), (end - start).astype(np.float32), q)
    return np.asarray(np.where(move[:, None, None], out, q), dtype=np.float32)


_PAIRS = np.array([(i, j) for i in range(12) for j in range(i + 1, 12)], dtype=np.intp)


def _robust_lines(ts: FloatArray, where: FloatArray, ok: npt.NDArray[np.bool_], tol: float
                  ) -> tuple[FloatArray, FloatArray, npt.NDArray[np.intp]]:
    """Per row of ``where`` (S x 12 offsets at the positions ``ts`` along a side, usable where
    ``ok``): (a, b, inliers) of the line a + b t that the most samples lie on within ``tol``
    (every pair of samples tried), refitted to those by least squares."""
    i, j = _PAIRS[:, 0], _PAIRS[:, 1]
    ti, tj = ts[i], ts[j]  # (P,)
    wi, wj = where[:, i], where[:, j]  # (S, P)
    slope = (wj - wi) / (tj - ti)[None, :]
    pred = wi[:, :, None] + slope[:, :, None] * (ts[None, None, :] - ti[None, :, None])
    inl = ok[:, None, :] & (np.abs(where[:, None, :] - pred) <= tol)  # (S, P, 12)
    count = np.where(ok[:, i] & ok[:, j], inl.sum(axis=2), -1)
    best = count.argmax(axis=1)
    use = inl[np.arange(len(where)), best].astype(np.float32)  # (S, 12)
    tt = np.broadcast_to(ts[None, :], where.shape)
    sw = use.sum(axis=1)
    st, sy = (use * tt).sum(axis=1), (use * where).sum(axis=1)
    stt, sty = (use * tt * tt).sum(axis=1), (use * tt * where).sum(axis=1)
    den = sw * stt - st * st
    bad = np.abs(den) < 1e-6
    b = np.where(bad, 0.0, (sw * sty - st * sy) / np.where(bad, 1.0, den))
    a = np.where(sw > 0, (sy - b * st) / np.maximum(sw, 1e-6), 0.0)
    return (np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32),
            np.asarray(sw, dtype=np.intp))
