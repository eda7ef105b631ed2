"""A simulated table: cards from a deck lying on a table, as a camera above it would see them.

:class:`SimulatedTable` is a camera source (``configure / start / capture / close``) whose
frames are rendered: a procedural table surface (wood, cloth, dark or light), cards placed with
any rotation and a range of sizes, a mild perspective shared by the whole table (the camera is
not perfectly square to it), drop shadows, piles where the upper card fully covers the lower
one, a hand and arm passing over, uneven light and colour casts, defocus blur, sensor noise and
JPEG artefacts. It is scriptable::

    table = SimulatedTable(deck, seed=1)
    h = table.place("n68", "centre")          # a zone name, a Pose or an (x, y) centre
    table.place("n70", "centre")              # on top of 68, covering it where they overlap
    table.place_foreign("north")              # a card from no deck (false-accept tests)
    table.hand_pass(frames=6)                 # the next 6 frames show a hand reaching in
    frame = table.capture()
    table.truth()                             # what is really there, with corners in frame px

All randomness comes from one seed (``random.Random`` for choices, a numpy ``Generator`` for
pixels); timestamps come from an injected clock (default: a frame period per capture).
Coordinates: "table px" are frame px before the table's perspective; a :class:`TruthCard`'s
``corners`` are in frame px, printed top-left corner first, then clockwise.
"""

from __future__ import annotations

import math
import random
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.deck import Deck
from vision.demo_decks import card_back, random_card
from vision.frame import DEFAULT_SIZE, CameraError, Frame, Image

FloatArray = npt.NDArray[np.float32]
HalfArray = npt.NDArray[np.float16]

#: Rows of the frame rendered at a time (blur, noise, rounding to uint8): the frame-sized
#: float32 intermediates this replaces were most of the demo's peak memory.
BAND_ROWS = 64

#: The sensor-noise fields are kept in int8 steps of this fraction of a standard deviation
#: (a quarter of the memory of float32): steps of at most 0.2 grey levels at the strongest
#: noise, and tails cut at 3.97 sigma (1 value in 14,000).
NOISE_STEP = 1 / 32

SURFACES = ("wood", "cloth", "dark", "light")

#: Zone name -> normalised (x, y) centre on the table.
ZONES: dict[str, tuple[float, float]] = {
    "centre": (0.5, 0.5),
    "north": (0.5, 0.2), "south": (0.5, 0.8), "west": (0.17, 0.5), "east": (0.83, 0.5),
    "north-west": (0.17, 0.2), "north-east": (0.83, 0.2),
    "south-west": (0.17, 0.8), "south-east": (0.83, 0.8),
}

CASTS: dict[str, tuple[float, float, float]] = {  # BGR gains
    "neutral": (1.0, 1.0, 1.0),
    "warm": (0.82, 0.97, 1.1),  # tungsten
    "cool": (1.1, 1.0, 0.9),  # daylight through a window, LED
    "green": (0.95, 1.07, 0.93),  # old fluorescent tube
}

SKIN: tuple[tuple[int, int, int], ...] = (
    (150, 180, 225), (120, 155, 210), (95, 130, 185), (70, 100, 150), (50, 70, 110))


@dataclass(frozen=True)
class Pose:
    """Where a card lies: centre (table px), rotation (degrees, clockwise), width (table px)."""

    x: float
    y: float
    angle: float = 0.0
    width: float = 100.0


@dataclass(frozen=True)
class Conditions:
    """The look of one table and camera; :meth:`random` draws one, :meth:`clean` is ideal."""

    surface: str = "cloth"
    exposure: float = 1.0  # overall brightness factor
    gradient: float = 0.0  # light falls off by this fraction across the frame
    gradient_angle: float = 0.0  # direction of the fall-off, degrees
    vignette: float = 0.0  # corners darker by this fraction
    cast: str = "neutral"  # a key of CASTS
    keystone: float = 0.0  # perspective: frame corners move up to this fraction of the size
    #: a camera not straight above the table: degrees from straight down, leaning back over
    #: the table's near edge (the frame's bottom). The table is seen as a pinhole camera a
    #: table-width away would see it, its near edge filling the frame's width: the far cards
    #: smaller and foreshortened (:func:`tilt_view`). 0: straight above.
    tilt: float = 0.0
    shadow: float = 0.3  # darkness of the cards' drop shadows
    blur_sigma: float = 0.0  # defocus, px
    noise_sigma: float = 0.0  # sensor noise, grey levels
    jpeg_quality: int | None = None  # None: no JPEG round trip
    flicker: float = 0.0  # frame-to-frame brightness variation (fraction)
    glare: float = 0.0  # a lamp's reflection on the (glossy) cards: peak brightening 0..1
    glare_at: tuple[float, float] = (0.35, 0.3)  # where, as fractions of width and height
    glare_size: float = 0.12  # its spread, as a fraction of the frame width

    def __post_init__(self) -> None:
        if self.surface not in SURFACES:
            raise ValueError(f"surface {self.surface!r} is not one of {', '.join(SURFACES)}")
        if self.cast not in CASTS:
            raise ValueError(f"cast {self.cast!r} is not one of {', '.join(CASTS)}")
        if self.jpeg_quality is not None and not 1 <= self.jpeg_quality <= 100:
            raise ValueError(f"jpeg_quality {self.jpeg_quality} is not in 1-100")
        if not 0 <= self.tilt <= 70:
            raise ValueError(f"tilt {self.tilt} is not in 0..70 degrees")
        if not 0 <= self.glare <= 1 or self.glare_size <= 0:
            raise ValueError(f"glare {self.glare} must be 0..1 with a positive glare_size")

    @classmethod
    def clean(cls, surface: str = "cloth") -> Conditions:
        """Flat light, no blur, noise or JPEG: for unit tests of finding and matching."""
        return cls(surface=surface)

    @classmethod
    def random(cls, rng: random.Random, surface: str | None = None) -> Conditions:
        """A plausible room: uneven light, a colour cast, some blur, noise and JPEG."""
        return cls(
            surface=surface or rng.choice(SURFACES),
            exposure=rng.uniform(0.85, 1.08),
            gradient=rng.uniform(0.1, 0.35),
            gradient_angle=rng.uniform(0, 360),
            vignette=rng.uniform(0.05, 0.25),
            cast=rng.choice(list(CASTS)),
            keystone=rng.uniform(0.0, 0.04),
            shadow=rng.uniform(0.2, 0.45),
            blur_sigma=rng.uniform(0.3, 1.1),
            noise_sigma=rng.uniform(1.5, 4.5),
            jpeg_quality=rng.randint(60, 92),
            flicker=rng.uniform(0.0, 0.02),
        )


def tilt_view(w: int, h: int, degrees: float) -> FloatArray:
    """Where the corners of a ``w`` x ``h`` table (top-left first, clockwise; its near edge
    at the bottom) are seen by a pinhole camera ``degrees`` from straight down, aimed at the
    table's centre from a table-width away (as the mount table's cameras are), scaled so the
    near edge fills the frame's width at its bottom."""
    t = math.radians(degrees)
    d = float(max(w, h))
    cam = np.array([w / 2, h / 2 + d * math.sin(t), d * math.cos(t)])
    fwd = np.array([w / 2, h / 2, 0.0]) - cam
    fwd /= np.linalg.norm(fwd)
    right = np.array([1.0, 0.0, 0.0])
    down = np.cross(right, fwd)
    pts = []
    for x, y in ((0, 0), (w, 0), (w, h), (0, h)):
        v = np.array([x, y, 0.0]) - cam
        z = float(v @ fwd)
        pts.append((float(v @ right) / z, float(v @ down) / z))
    q = np.array(pts)
    scale = w / (q[2, 0] - q[3, 0])
    q = (q - q[3]) * scale + np.array([0.0, h])
    return _f32(q)


@dataclass(frozen=True, eq=False)
class TruthCard:
    """A card really on the table in a frame."""

    handle: int  # as returned by place()
    card_id: str  # the deck's id, or the label of a foreign card
    in_deck: bool  # False for a card from no deck (place_foreign)
    corners: FloatArray  # (4, 2) frame px: printed top-left first, then clockwise
    visible: float  # fraction of the card's area seen (not covered, not outside the frame)
    covered_by_hand: bool  # a hand or arm is over part of it in this frame


@dataclass
class _Placed:
    handle: int
    card_id: str
    in_deck: bool
    face: Image
    pose: Pose
    corners: FloatArray = field(default_factory=lambda: np.zeros((4, 2), np.float32))


@dataclass
class _Hand:
    frames: int
    done: int
    entry: tuple[float, float]
    target: tuple[float, float]
    skin: tuple[int, int, int]
    width: float


@dataclass
class _Layer:
    """A rendered card: its alpha and colour in a region of interest of the frame."""

    x0: int
    y0: int
    alpha: FloatArray  # (h, w) 0..1
    colour: Image  # (h, w, 3) BGR uint8, as the warp makes it


@dataclass
class _HandMask:
    """Where a hand covers the frame (0..1), in a region of interest of it."""

    x0: int
    y0: int
    alpha: FloatArray  # (h, w)

    def covers(self, x0: int, y0: int, h: int, w: int) -> npt.NDArray[np.bool_]:
        """Where the hand covers more than half of a pixel of the frame region at (x0, y0)
        of size (h, w)."""
        out = np.zeros((h, w), np.bool_)
        mh, mw = self.alpha.shape
        ix0, iy0 = max(x0, self.x0), max(y0, self.y0)
        ix1, iy1 = min(x0 + w, self.x0 + mw), min(y0 + h, self.y0 + mh)
        if ix1 > ix0 and iy1 > iy0:
            out[iy0 - y0:iy1 - y0, ix0 - x0:ix1 - x0] = \
                self.alpha[iy0 - self.y0:iy1 - self.y0, ix0 - self.x0:ix1 - self.x0] > 0.5
        return out


@dataclass
class _HandPaint:
    """A hand as painted over a region of interest of the frame: what the frame's pixels
    there are multiplied by (its shadow, then where it covers them), and what is added."""

    x0: int
    y0: int
    shade: FloatArray  # (h, w) 1 - the hand's shadow
    alpha: FloatArray  # (h, w) how much the hand covers
    premul: FloatArray  # (h, w, 3) the hand's colour times alpha


class SimulatedTable:
    """A camera over a table of cards, rendered; see the module docstring."""

    def __init__(self, deck: Deck, *, seed: int = 0, size: tuple[int, int] = DEFAULT_SIZE,
                 conditions: Conditions | None = None, surface: str | None = None,
                 card_width: tuple[float, float] = (0.14, 0.19),
                 rotation: tuple[float, float] = (0.0, 360.0),
                 clock: Callable[[], int] | None = None,
                 frame_period_ns: int = 33_333_333,
                 lores: tuple[int, int] | None = None) -> None:
        if surface is not None and surface not in SURFACES:
            raise ValueError(f"surface {surface!r} is not one of {', '.join(SURFACES)}")
        if not 0 < card_width[0] <= card_width[1] < 1:
            raise ValueError(f"card_width {card_width} must be fractions of the frame width")
        self.deck = deck
        self.seed = seed
        self._rng = random.Random(seed)
        self._np = np.random.default_rng(seed)
        if conditions is None:
            conditions = Conditions.random(self._rng, surface)
        elif surface is not None:
            conditions = replace(conditions, surface=surface)
        self.conditions = conditions
        self.card_width = card_width
        self.rotation = rotation
        self._clock = clock
        self._period = frame_period_ns
        self.lores = lores
        self._cards: list[_Placed] = []
        self._next_handle = 1
        self._hand: _Hand | None = None
        self._seq = 0
        self._closed = False
        self._started = False
        self.size = size
        self._layers: dict[int, _Layer | None] = {}
        self._noise: list[npt.NDArray[np.int8]] = []
        self._base: HalfArray | None = None  # table and cards before the light, cached
        self._cover: FloatArray | None = None  # where cards are (for glare)
        self._glare_cover: FloatArray | None = None  # the glare on the cards, cached
        self._base_handles: tuple[int, ...] = ()
        self._stale = True
        self._setup_view()
        self._changed()

    # ---------------------------------------------------------------- camera interface

    def configure(self, size: tuple[int, int] | None = None) -> None:
        """Set the frame size (re-draws the table surface; placed cards keep their poses)."""
        if size is not None and size != self.size:
            self.size = size
            self._setup_view()
            self._layers.clear()
            self._base = None
            for p in self._cards:
                p.corners = self._corners(p.pose, p.face)
            self._changed()

    def set_light(self, *, exposure: float | None = None, cast: str | None = None) -> None:
        """The room's light changes (the evening: a lamp turned on, the daylight going):
        the next frames are lit so; the cards stay where they are."""
        c = self.conditions
        self.conditions = replace(c, exposure=c.exposure if exposure is None else exposure,
                                  cast=c.cast if cast is None else cast)
        self._setup_view()
        self._changed()

    def start(self) -> None:
        if self._closed:
            raise CameraError("simulated camera is closed")
        self._started = True

    def capture(self) -> Frame:
        """Render the next frame (works without start(); not after close())."""
        if self._closed:
            raise CameraError("simulated camera is closed")
        hand = self._hand_mask()
        image = self._render(hand)
        t_ns = self._clock() if self._clock is not None else self._seq * self._period
        grey = _u8(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
        if self.lores is not None and self.lores != self.size:  # like the Pi's lores stream
            grey = _u8(cv2.resize(grey, self.lores, interpolation=cv2.INTER_AREA))
        frame = Frame(image=image, grey=grey, t_ns=t_ns, seq=self._seq)
        self._last_truth = self._truth(hand)
        self._truth_valid = True
        self._seq += 1
        if self._hand is not None:
            self._hand.done += 1
            if self._hand.done >= self._hand.frames:
                self._hand = None
        return frame

    def close(self) -> None:
        self._closed = True

    # ---------------------------------------------------------------- scripting

    def place(self, card_id: str, where: str | Pose | tuple[float, float] = "centre") -> int:
        """Lay deck card ``card_id`` on top of everything at ``where``; return its handle."""
        face = self.deck.template(card_id)  # KeyError names an unknown card
        return self._add(card_id, True, face, where)

    def place_foreign(self, where: str | Pose | tuple[float, float] = "centre", *,
                      image: Image | None = None, label: str | None = None) -> int:
        """Lay a card that is not in the deck: ``image`` (e.g. another deck's template) or,
        by default, a random generated face of the deck's size."""
        n = self._next_handle
        if image is None:
            image = random_card(f"{self.seed}-{n}", self.deck.size)
        if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise ValueError("a foreign card image must be BGR uint8 (h, w, 3)")
        return self._add(label or f"foreign-{n}", False, image, where)

    def place_back(self, where: str | Pose | tuple[float, float] = "centre", *,
                   style: int = 0) -> int:
        """Lay a card face down (its back shows; not a card of the deck)."""
        return self.place_foreign(where, image=card_back(self.deck.size, style), label="back")

    def remove(self, which: int | str) -> None:
        """Take away a card: by handle, or the topmost card with that id."""
        for i in range(len(self._cards) - 1, -1, -1):
            p = self._cards[i]
            if (isinstance(which, int) and p.handle == which) or p.card_id == which:
                del self._cards[i]
                self._changed()
                return
        raise KeyError(f"no card {which!r} on the table")

    def clear(self) -> None:
        self._cards.clear()
        self._changed()

    def hand_pass(self, frames: int = 8, target: str | tuple[float, float] = "centre",
                  side: str | None = None) -> None:
        """Over the next ``frames`` captures a hand reaches from an edge towards ``target``
        (a zone or table px) and withdraws. ``side``: north, south, east, west or random."""
        if frames < 1:
            raise ValueError("a hand pass lasts at least one frame")
        w, h = self.size
        tx, ty = self._zone_xy(target) if isinstance(target, str) else target
        side = side or self._rng.choice(("north", "south", "east", "west"))
        edge = {"north": (tx + self._rng.uniform(-0.2, 0.2) * w, -0.15 * h),
                "south": (tx + self._rng.uniform(-0.2, 0.2) * w, 1.15 * h),
                "west": (-0.15 * w, ty + self._rng.uniform(-0.2, 0.2) * h),
                "east": (1.15 * w, ty + self._rng.uniform(-0.2, 0.2) * h)}
        if side not in edge:
            raise ValueError(f"side {side!r} is not one of north, south, east, west")
        self._hand = _Hand(frames=frames, done=0, entry=edge[side], target=(tx, ty),
                           skin=self._rng.choice(SKIN),
                           width=min(w, h) * self._rng.uniform(0.12, 0.16))
        self._truth_valid = False

    @property
    def hand_active(self) -> bool:
        """True while a hand pass has frames left to show."""
        return self._hand is not None

    def truth(self, min_visible: float = 0.0) -> list[TruthCard]:
        """The cards in the last captured frame (before any capture, or after the layout
        changed since, the current layout without a hand), bottom to top. All of them by
        default (``visible`` says how much of each is seen); ``min_visible`` keeps those with
        at least that fraction visible."""
        if not getattr(self, "_truth_valid", False):
            self._last_truth = self._truth(None)
            self._truth_valid = True
        return [t for t in self._last_truth if t.visible >= min_visible]

    def pose_for(self, where: str | tuple[float, float]) -> Pose:
        """A random pose in a zone (or around a table-px centre), as place() would choose."""
        x, y = self._zone_xy(where) if isinstance(where, str) else where
        w = self.size[0]
        jitter = 0.02 * w
        return Pose(x=x + self._rng.gauss(0, jitter), y=y + self._rng.gauss(0, jitter),
                    angle=self._rng.uniform(*self.rotation),
                    width=self._rng.uniform(*self.card_width) * w)

    def grid_pose(self, row: int, col: int, rows: int = 6, cols: int = 6,
                  margin: float = 0.04, jitter: float = 3.0) -> Pose:
        """A card's pose in a face-up grid (Wink's 6x6), upright up to ``jitter`` degrees,
        sized so the grid fills the frame with ``margin`` (fraction) around it."""
        if not (0 <= row < rows and 0 <= col < cols):
            raise ValueError(f"cell ({row}, {col}) is outside a {rows}x{cols} grid")
        w, h = self.size
        fw, fh = self.deck.size
        cell_w = w * (1 - 2 * margin) / cols
        cell_h = h * (1 - 2 * margin) / rows
        width = min(cell_w * 0.9, cell_h * 0.9 * fw / fh)
        return Pose(x=w * margin + cell_w * (col + 0.5) + self._rng.gauss(0, width * 0.03),
                    y=h * margin + cell_h * (row + 0.5) + self._rng.gauss(0, width * 0.03),
                    angle=self._rng.uniform(-jitter, jitter), width=width)

    def seat_pose(self, seat: int, seats: int, reach: float = 0.33) -> Pose:
        """A card in front of seat ``seat`` (0-based) of ``seats`` round the table, turned
        to face the camera as that player would lay it (seat 0 at the bottom, clockwise)."""
        if not 0 <= seat < seats:
            raise ValueError(f"seat {seat} is not one of 0-{seats - 1}")
        w, h = self.size
        a = math.pi / 2 + 2 * math.pi * seat / seats  # seat 0 at the bottom (image y down)
        return Pose(x=w / 2 + math.cos(a) * reach * w, y=h / 2 + math.sin(a) * reach * h,
                    angle=math.degrees(a - math.pi / 2) + self._rng.uniform(-12, 12),
                    width=self._rng.uniform(*self.card_width) * w)

    # ---------------------------------------------------------------- internals

    def _zone_xy(self, zone: str) -> tuple[float, float]:
        try:
            nx, ny = ZONES[zone]
        except KeyError:
            raise ValueError(f"unknown zone {zone!r}; zones: {', '.join(ZONES)}") from None
        return nx * self.size[0], ny * self.size[1]

    def _add(self, card_id: str, in_deck: bool, face: Image,
             where: str | Pose | tuple[float, float]) -> int:
        pose = where if isinstance(where, Pose) else self.pose_for(where)
        handle = self._next_handle
        self._next_handle += 1
        self._cards.append(_Placed(handle, card_id, in_deck, face, pose,
                                   self._corners(pose, face)))
        self._changed()
        return handle

    def _changed(self) -> None:
        self._truth_valid = False
        self._stale = True

    def _setup_view(self) -> None:
        w, h = self.size
        c = self.conditions
        view_rng = np.random.default_rng([self.seed, w, h])
        # float16 is ample for a picture of 0..255 (steps of 1/8 at most) and halves it: it is
        # only read when the cached picture is redrawn
        self._background: HalfArray = _surface(c.surface, (w, h), view_rng).astype(np.float16)
        k = c.keystone
        src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        move = view_rng.uniform(-k, k, (4, 2)) * np.array([w, h])
        self._keystone = cv2.getPerspectiveTransform(src, (src + move).astype(np.float32))
        if c.tilt:
            self._keystone = cv2.getPerspectiveTransform(src, tilt_view(w, h, c.tilt)) @ (
                self._keystone)
        yy, xx = _grid(w, h)
        a = math.radians(c.gradient_angle)
        diag = math.hypot(w, h)
        ramp = ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / diag
        r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (diag / 2) ** 2
        light = c.exposure * (1 - c.gradient * (ramp + 0.5)) * (1 - c.vignette * r2)
        # the light's strength per pixel and its colour cast, applied one after the other
        # (not kept as a frame-sized BGR float array)
        self._light: FloatArray = _f32(light)
        self._cast: FloatArray = np.array(CASTS[c.cast], np.float32)

    def _corners(self, pose: Pose, face: Image) -> FloatArray:
        fh, fw = face.shape[:2]
        cw, ch = pose.width / 2, pose.width * fh / fw / 2
        a = math.radians(pose.angle)
        ca, sa = math.cos(a), math.sin(a)
        local = [(-cw, -ch), (cw, -ch), (cw, ch), (-cw, ch)]  # TL, TR, BR, BL
        table = np.array([[pose.x + x * ca - y * sa, pose.y + x * sa + y * ca]
                          for x, y in local], np.float32)
        return _f32(cv2.perspectiveTransform(table[None], self._keystone)[0])

    def _layer(self, p: _Placed) -> _Layer | None:
        if p.handle not in self._layers:
            self._layers[p.handle] = self._make_layer(p)
        return self._layers[p.handle]

    def _make_layer(self, p: _Placed) -> _Layer | None:
        w, h = self.size
        quad = p.corners
        x0 = max(0, math.floor(float(quad[:, 0].min())) - 2)
        y0 = max(0, math.floor(float(quad[:, 1].min())) - 2)
        x1 = min(w, math.ceil(float(quad[:, 0].max())) + 3)
        y1 = min(h, math.ceil(float(quad[:, 1].max())) + 3)
        if x1 <= x0 or y1 <= y0:
            return None
        face = p.face
        fh, fw = face.shape[:2]
        side = float(np.linalg.norm(quad[1] - quad[0]))
        if side < 0.8 * fw:  # shrink first (area filter) so the warp does not alias
            s = side * 1.25 / fw
            face = _u8(cv2.resize(face, (max(8, round(fw * s)), max(8, round(fh * s))),
                                  interpolation=cv2.INTER_AREA))
            fh, fw = face.shape[:2]
        src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
        dst = (quad - np.array([x0, y0], np.float32)).astype(np.float32)
        m = cv2.getPerspectiveTransform(src, dst)
        size = (x1 - x0, y1 - y0)
        colour = _u8(cv2.warpPerspective(face, m, size, flags=cv2.INTER_LINEAR,
                                         borderMode=cv2.BORDER_REPLICATE))
        alpha = cv2.warpPerspective(_card_mask(fw, fh), m, size, flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        return _Layer(x0, y0, alpha.astype(np.float32), colour)

    def _hand_geometry(self) -> tuple[tuple[float, float], tuple[float, float], float] | None:
        hand = self._hand
        if hand is None:
            return None
        t = (hand.done + 0.5) / hand.frames
        reach = math.sin(math.pi * t)  # in and out again
        ex, ey = hand.entry
        tx, ty = hand.target
        return (ex, ey), (ex + (tx - ex) * reach, ey + (ty - ey) * reach), hand.width

    def _hand_mask(self) -> _HandMask | None:
        """The hand's outline, drawn in a region of interest around it (not the whole frame),
        with room around it for the shadow and smear _hand_paint adds."""
        geo = self._hand_geometry()
        if geo is None:
            return None
        (ex, ey), (px, py), wd = geo
        w, h = self.size
        d = math.atan2(py - ey, px - ex)
        ux, uy = math.cos(d), math.sin(d)
        wrist = (px - ux * wd * 0.7, py - uy * wd * 0.7)
        strokes = [(_pt((ex, ey)), _pt(wrist), max(2, round(wd)))]
        palm = _pt((px - ux * wd * 0.1, py - uy * wd * 0.1))
        axes = (max(2, round(wd * 0.75)), max(2, round(wd * 0.6)))
        for k in range(4):  # fingers fan out ahead of the palm
            a = d + (k - 1.5) * 0.22
            base = (px + ux * wd * 0.3 + (k - 1.5) * wd * 0.28 * -uy,
                    py + uy * wd * 0.3 + (k - 1.5) * wd * 0.28 * ux)
            length = wd * (0.75 if k in (1, 2) else 0.6)
            tip = (base[0] + math.cos(a) * length, base[1] + math.sin(a) * length)
            strokes.append((_pt(base), _pt(tip), max(2, round(wd * 0.2))))
        thumb_a = d - 1.0
        tb = (px + wd * 0.45 * uy, py - wd * 0.45 * ux)
        strokes.append((_pt(tb), _pt((tb[0] + math.cos(thumb_a) * wd * 0.6,
                                      tb[1] + math.sin(thumb_a) * wd * 0.6)),
                        max(2, round(wd * 0.22))))
        # strokes and palm reach at most 2 wd from their points; then the blur, the shadow's
        # offset and the padding _hand_paint takes around the hand
        margin = math.ceil(2 * wd) + 8 + round(w / 20) + 2 * max(round(h / 25), round(w / 30))
        xs = [p[0] for s in strokes for p in s[:2]] + [palm[0]]
        ys = [p[1] for s in strokes for p in s[:2]] + [palm[1]]
        x0, y0 = max(0, min(xs) - margin), max(0, min(ys) - margin)
        x1, y1 = min(w, max(xs) + margin + 1), min(h, max(ys) + margin + 1)
        if x1 <= x0 or y1 <= y0:
            return None
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)

        def at(p: tuple[int, int]) -> tuple[int, int]:
            return p[0] - x0, p[1] - y0

        cv2.line(mask, at(strokes[0][0]), at(strokes[0][1]), 255, strokes[0][2], cv2.LINE_AA)
        cv2.ellipse(mask, at(palm), axes, math.degrees(d), 0, 360, 255, -1, cv2.LINE_AA)
        for p0, p1, thickness in strokes[1:]:
            cv2.line(mask, at(p0), at(p1), 255, thickness, cv2.LINE_AA)
        if not mask.any():
            return None
        return _HandMask(x0, y0,
                         _f32(cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), 1.2)))

    def _base_image(self) -> tuple[HalfArray, FloatArray | None]:
        """Table and cards before the room's light, and the glare on the cards (or None).
        Cached until the layout changes; cards laid on top of an unchanged layout are added
        to the cached picture, not redrawn."""
        if self._stale or self._base is None:
            handles = tuple(p.handle for p in self._cards)
            for handle in [k for k in self._layers if k not in handles]:
                del self._layers[handle]
            glare = bool(self.conditions.glare)
            if self._base is None or handles[:len(self._base_handles)] != self._base_handles:
                self._base = self._background.copy()
                self._cover = np.zeros(self._base.shape[:2], np.float32) if glare else None
                self._base_handles = ()
            img, cover = self._base, self._cover
            w = self.size[0]
            for p in self._cards[len(self._base_handles):]:
                layer = self._layer(p)
                if layer is None:
                    continue
                self._shadow(img, layer, self.conditions.shadow, offset=max(2, round(w / 160)),
                             blur=w / 200)
                _composite(img, layer)
                if cover is not None:
                    hh, ww = layer.alpha.shape
                    roi = cover[layer.y0:layer.y0 + hh, layer.x0:layer.x0 + ww]
                    np.maximum(roi, layer.alpha, out=roi)
            self._base_handles = handles
            self._glare_cover = self._glare() * cover if cover is not None else None
            self._stale = False
        return self._base, self._glare_cover

    def _lit(self, y0: int, y1: int) -> FloatArray:
        """Rows y0:y1 of the table and cards under the room's light (float32 BGR)."""
        base, glare = self._base_image()
        band = base[y0:y1].astype(np.float32)
        if glare is not None:
            band += glare[y0:y1, :, None]
        band *= self._light[y0:y1, :, None]
        band *= self._cast
        return band

    def _glare(self) -> FloatArray:
        """The reflection of a lamp: a soft bright blob (added to card pixels only)."""
        c = self.conditions
        w, h = self.size
        yy, xx = _grid(w, h)
        gx, gy = c.glare_at[0] * w, c.glare_at[1] * h
        sigma = c.glare_size * w
        blob = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2 * 1.6) / (2 * sigma**2))
        return _f32(255.0 * c.glare * blob)

    def _render(self, hand: _HandMask | None) -> Image:
        """The frame, rendered BAND_ROWS rows at a time: light, hand, flicker, defocus, sensor
        noise and rounding to uint8 (then the JPEG round trip). Each band is blurred with
        enough rows around it that the result is the same as blurring the whole frame, and
        the noise field is rolled the same way for every band, so banding never shows; only
        band-sized float32 arrays exist at a time."""
        c = self.conditions
        w, h = self.size
        paint = None
        if hand is not None and self._hand is not None:
            paint = self._hand_paint(hand, self._hand)
        gain = 1 + self._np.uniform(-c.flicker, c.flicker) if c.flicker else None
        noise: npt.NDArray[np.int8] | None = None
        dy = dx = 0
        if c.noise_sigma > 0:
            bank = self._noise_bank()
            noise = bank[int(self._np.integers(len(bank)))]
            dy, dx = int(self._np.integers(h)), int(self._np.integers(w))
        pad = math.ceil(4 * c.blur_sigma) + 2 if c.blur_sigma > 0 else 0
        out = np.empty((h, w, 3), np.uint8)
        for y0 in range(0, h, BAND_ROWS):
            y1 = min(h, y0 + BAND_ROWS)
            a0, a1 = max(0, y0 - pad), min(h, y1 + pad)
            img = self._lit(a0, a1)
            if paint is not None:
                _paint_hand(img, a0, paint)
            if gain is not None:
                img *= gain
            if pad:
                img = _f32(cv2.GaussianBlur(img, (0, 0), c.blur_sigma))
            img = img[y0 - a0:y1 - a0]
            if noise is not None:
                rows = noise[(np.arange(y0, y1) - dy) % h]
                field_ = np.roll(rows, dx, axis=1)
                shot = cv2.sqrt(np.clip(img, 0, 255) * (1 / 255.0))
                img += field_ * ((0.5 * c.noise_sigma + c.noise_sigma * shot) * NOISE_STEP)
            out[y0:y1] = cv2.convertScaleAbs(img)  # rounds and saturates to uint8
        if c.jpeg_quality is not None:
            ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, c.jpeg_quality])
            decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
            if decoded is not None:
                out = _u8(decoded)
        return out

    def _noise_bank(self) -> list[npt.NDArray[np.int8]]:
        """Three frames of sensor noise, standard normal in steps of NOISE_STEP (int8), rolled
        by a random offset for each frame."""
        w, h = self.size
        if not self._noise or self._noise[0].shape[:2] != (h, w):
            self._noise = []
            for _ in range(3):
                unit = self._np.standard_normal((h, w, 3), np.float32)
                unit *= 1 / NOISE_STEP
                np.rint(unit, out=unit)
                np.clip(unit, -127, 127, out=unit)
                self._noise.append(unit.astype(np.int8))
        return self._noise

    def _hand_paint(self, hand: _HandMask, state: _Hand) -> _HandPaint:
        """The hand's shadow, then the hand (shaded darker at its edges), in its bounding box."""
        w, h = self.size
        inside = hand.alpha > 0.01
        rows, cols = np.flatnonzero(inside.any(axis=1)), np.flatnonzero(inside.any(axis=0))
        dy, dx = round(h / 25), round(w / 30)
        pad = round(w / 20) + max(dx, dy)
        x0, y0 = max(0, hand.x0 + int(cols[0]) - pad), max(0, hand.y0 + int(rows[0]) - pad)
        x1 = min(w, hand.x0 + int(cols[-1]) + pad + 1)
        y1 = min(h, hand.y0 + int(rows[-1]) + pad + 1)
        a = hand.alpha[y0 - hand.y0:y1 - hand.y0, x0 - hand.x0:x1 - hand.x0]
        assert a.shape == (y1 - y0, x1 - x0), "the hand's mask leaves room for its paint"
        shifted = np.zeros_like(a)
        shifted[dy:, dx:] = a[:a.shape[0] - dy, :a.shape[1] - dx]
        shadow = cv2.GaussianBlur(shifted, (0, 0), w / 60)
        core = cv2.distanceTransform((a > 0.5).astype(np.uint8), cv2.DIST_L2, 3)
        shade = 0.7 + 0.3 * np.minimum(core / (state.width * 0.3), 1.0)
        skin = np.array(state.skin, np.float32)
        tex = self._np.normal(0, 4, (*a.shape, 1)).astype(np.float32)
        premul = shade[..., None] * skin  # lit, then times alpha, in place
        premul += tex
        premul *= self._light[y0:y1, x0:x1, None]
        premul *= self._cast
        premul *= a[..., None]
        kernel = self._hand_motion_kernel(state)
        if kernel is not None:  # a moving hand is smeared along its path
            a = _f32(cv2.filter2D(a, -1, kernel, borderType=cv2.BORDER_CONSTANT))
            premul = _f32(cv2.filter2D(premul, -1, kernel, borderType=cv2.BORDER_CONSTANT))
        return _HandPaint(x0, y0, _f32(1 - 0.45 * shadow), _f32(a), _f32(premul))

    def _hand_motion_kernel(self, state: _Hand, exposure: float = 0.4) -> FloatArray | None:
        """A line kernel as long as the hand moves while the shutter is open."""
        t = (state.done + 0.5) / state.frames
        ex, ey = state.entry
        tx, ty = state.target
        distance = math.hypot(tx - ex, ty - ey)
        step = math.pi * abs(math.cos(math.pi * t)) * distance / state.frames
        length = round(step * exposure)
        if length < 2:
            return None
        n = length | 1
        k = np.zeros((n, n), np.float32)
        d = math.atan2(ty - ey, tx - ex)
        c = n // 2
        dx, dy = math.cos(d) * c, math.sin(d) * c
        cv2.line(k, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1)
        return _f32(k / k.sum())

    def _shadow(self, img: HalfArray, layer: _Layer, strength: float, offset: int,
                blur: float) -> None:
        if strength <= 0:
            return
        hh, ww = layer.alpha.shape
        pad = offset + math.ceil(3 * blur) + 1
        a = np.zeros((hh + 2 * pad, ww + 2 * pad), np.float32)
        a[pad + offset:pad + offset + hh, pad + offset:pad + offset + ww] = layer.alpha
        a = cv2.GaussianBlur(a, (0, 0), blur)
        H, W = img.shape[:2]
        x0, y0 = layer.x0 - pad, layer.y0 - pad
        sx0, sy0 = max(0, -x0), max(0, -y0)
        dx0, dy0 = max(0, x0), max(0, y0)
        dx1, dy1 = min(W, x0 + a.shape[1]), min(H, y0 + a.shape[0])
        if dx1 <= dx0 or dy1 <= dy0:
            return
        sub = a[sy0:sy0 + dy1 - dy0, sx0:sx0 + dx1 - dx0]
        img[dy0:dy1, dx0:dx1] *= (1 - strength * sub)[..., None]

    def _truth(self, hand: _HandMask | None) -> list[TruthCard]:
        layers = [self._layer(p) for p in self._cards]
        masks: list[tuple[int, int, npt.NDArray[np.bool_]] | None] = [
            None if ly is None else (ly.x0, ly.y0, ly.alpha > 0.5) for ly in layers]
        out: list[TruthCard] = []
        for i, p in enumerate(self._cards):
            fh, fw = p.face.shape[:2]
            area = _quad_area(p.corners) * (1 - (4 - math.pi) * _CORNER_R**2 * fw / fh)
            m = masks[i]
            visible = 0.0
            by_hand = False
            if m is not None and area > 0:
                x0, y0, own = m
                seen = own.copy()
                for above in masks[i + 1:]:
                    if above is not None:
                        _subtract(seen, x0, y0, above)
                if hand is not None:
                    region = hand.covers(x0, y0, *seen.shape)
                    by_hand = bool((seen & region).any())
                    seen &= ~region
                visible = min(1.0, float(seen.sum()) / area)
            out.append(TruthCard(handle=p.handle, card_id=p.card_id, in_deck=p.in_deck,
                                 corners=p.corners.copy(), visible=visible,
                                 covered_by_hand=by_hand))
        return out


# ------------------------------------------------------------------------------ helpers

#: Radius of a card's rounded corners, as a fraction of its width.
_CORNER_R = 0.045


def _u8(a: object) -> Image:
    return np.asarray(a, dtype=np.uint8)


def _f32(a: object) -> FloatArray:
    return np.asarray(a, dtype=np.float32)


def _pt(p: Sequence[float]) -> tuple[int, int]:
    return round(p[0]), round(p[1])


def _grid(w: int, h: int) -> tuple[FloatArray, FloatArray]:
    """Pixel rows (h, 1) and columns (1, w) as float32, to broadcast (no frame-sized grids)."""
    return (np.arange(h, dtype=np.float32)[:, None], np.arange(w, dtype=np.float32)[None, :])


#: Card masks by (width, height), the most recently used last: faces are shrunk to the size
#: they are drawn at, so sizes vary and only the last few are worth keeping.
_MASKS: OrderedDict[tuple[int, int], FloatArray] = OrderedDict()
_MASKS_KEPT = 16


def _card_mask(w: int, h: int) -> FloatArray:
    """The card's shape (rounded corners), 1 inside, anti-aliased."""
    key = (w, h)
    if key in _MASKS:
        _MASKS.move_to_end(key)
    else:
        s = 4
        big = np.zeros((h * s, w * s), np.uint8)
        r = max(1, round(_CORNER_R * w * s))
        cv2.rectangle(big, (r, 0), (w * s - 1 - r, h * s - 1), 255, -1)
        cv2.rectangle(big, (0, r), (w * s - 1, h * s - 1 - r), 255, -1)
        for cx, cy in ((r, r), (w * s - 1 - r, r), (r, h * s - 1 - r), (w * s - 1 - r,
                                                                        h * s - 1 - r)):
            cv2.circle(big, (cx, cy), r, 255, -1)
        small = cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)
        _MASKS[key] = small.astype(np.float32) / 255.0
        while len(_MASKS) > _MASKS_KEPT:
            _MASKS.popitem(last=False)
    return _MASKS[key]


def _composite(img: HalfArray, layer: _Layer) -> None:
    hh, ww = layer.alpha.shape
    roi = img[layer.y0:layer.y0 + hh, layer.x0:layer.x0 + ww]
    a = layer.alpha[..., None]
    roi[...] = roi * (1 - a) + layer.colour * a  # in float32, stored as float16


def _paint_hand(band: FloatArray, band_y0: int, paint: _HandPaint) -> None:
    """Paint the part of a hand that falls in ``band`` (frame rows from ``band_y0``)."""
    hh, ww = paint.alpha.shape
    y0, y1 = max(band_y0, paint.y0), min(band_y0 + band.shape[0], paint.y0 + hh)
    if y1 <= y0:
        return
    roi = band[y0 - band_y0:y1 - band_y0, paint.x0:paint.x0 + ww]
    rows = slice(y0 - paint.y0, y1 - paint.y0)
    roi *= paint.shade[rows, :, None]
    roi *= 1 - paint.alpha[rows, :, None]
    roi += paint.premul[rows]


def _subtract(seen: npt.NDArray[np.bool_], x0: int, y0: int,
              above: tuple[int, int, npt.NDArray[np.bool_]]) -> None:
    ax0, ay0, am = above
    ix0, iy0 = max(x0, ax0), max(y0, ay0)
    ix1 = min(x0 + seen.shape[1], ax0 + am.shape[1])
    iy1 = min(y0 + seen.shape[0], ay0 + am.shape[0])
    if ix1 <= ix0 or iy1 <= iy0:
        return
    seen[iy0 - y0:iy1 - y0, ix0 - x0:ix1 - x0] &= ~am[iy0 - ay0:iy1 - ay0, ix0 - ax0:ix1 - ax0]


def _quad_area(q: FloatArray) -> float:
    x, y = q[:, 0].astype(np.float64), q[:, 1].astype(np.float64)
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def _fbm(rng: np.random.Generator, size: tuple[int, int],
         octaves: Sequence[tuple[int, float]]) -> FloatArray:
    """Smooth noise: sum of upscaled random grids (cells across the width, weight)."""
    w, h = size
    out = np.zeros((h, w), np.float32)
    for cells, weight in octaves:
        gw, gh = max(2, cells), max(2, round(cells * h / w))
        grid = rng.standard_normal((gh, gw)).astype(np.float32)
        out += weight * cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
    return out


def _surface(kind: str, size: tuple[int, int], rng: np.random.Generator) -> FloatArray:
    """A procedural table top, float32 BGR 0..255."""
    w, h = size
    yy, xx = _grid(w, h)
    if kind == "wood":
        base = np.array([(55, 95, 145), (40, 70, 110), (105, 150, 195), (70, 110, 160)][
            rng.integers(4)], np.float32)
        vertical = bool(rng.integers(2))
        along, across = (yy, xx) if vertical else (xx, yy)
        extent = w if vertical else h
        plank = max(40.0, extent / rng.uniform(3.0, 5.5))
        index = np.floor(across / plank)
        tone = (rng.uniform(-0.1, 0.1, 64).astype(np.float32))[index.astype(int) % 64]
        warp = _fbm(rng, size, [(3, 14.0), (9, 4.0)])
        period = rng.uniform(5.0, 9.0)
        grain = np.sin((across + warp + 0.02 * along) * 2 * math.pi / period)
        fine = _fbm(rng, size, [(w // 3, 0.5)])
        shade = 1 + tone + 0.07 * grain + 0.04 * fine + 0.05 * _fbm(rng, size, [(4, 1.0)])
        img = shade[..., None] * base
        seam = (np.abs(across - (index + 1) * plank) < 1.2) | (np.abs(across - index * plank) < 0.6)
        img[np.broadcast_to(seam, (h, w))] *= 0.45
    elif kind == "cloth":
        base = np.array([(55, 110, 40), (110, 70, 35), (45, 45, 115), (80, 80, 80)][
            rng.integers(4)], np.float32)
        weave = 0.03 * (np.sin(xx * 2.1) * np.sin(yy * 2.1))
        fibre = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 0.7)
        shade = 1 + weave + 0.09 * fibre + 0.06 * _fbm(rng, size, [(3, 1.0), (12, 0.4)])
        img = shade[..., None] * base
    elif kind == "dark":
        base = np.array([(34, 34, 38), (28, 30, 36), (40, 38, 36)][rng.integers(3)], np.float32)
        speck = (rng.random((h, w)) < 0.004).astype(np.float32) * 0.8
        shade = 1 + 0.08 * _fbm(rng, size, [(4, 1.0), (20, 0.5)]) + speck
        img = shade[..., None] * base
    elif kind == "light":
        base = np.array([(205, 210, 212), (190, 200, 210), (215, 215, 205)][rng.integers(3)],
                        np.float32)
        shade = 1 + 0.025 * _fbm(rng, size, [(3, 1.0), (30, 0.3)])
        img = shade[..., None] * base
    else:
        raise ValueError(f"surface {kind!r} is not one of {', '.join(SURFACES)}")
    return _f32(np.clip(img, 0, 255, out=img))
