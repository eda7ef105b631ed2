"""Player markers and card faces on a grid of cards, by colour (眨眨眼 Wink's 6x6 grid).

The card recogniser (:mod:`vision.tracker`) names face-up cards; this module tells, per grid
cell (a calibrated :class:`vision.config.Zone`, ``vision calibrate --layout grid:6x6``):

- the cell's **face**: ``up`` (a card's face: paper), ``down`` (a card's back), ``empty`` (the
  table shows);
- the **marker** on it: one of the calibrated colours, ``unknown`` (a marker-sized solid blob
  of no calibrated colour), or none;
- whether the cell is **covered** (a hand or an arm over it: a blob far larger than a
  marker): then it says nothing about the cell.

Colours are compared in CIE Lab *after a per-frame white balance* on the cards' paper (the
brightest pixels of the grid are paper: they are made neutral and of one brightness), so a
warm lamp, a cool window or an old tube shifts every colour alike and is taken out. The
palette (one Lab colour per marker, the card back, the marker's size) is **calibrated once per
table** (:func:`calibrate`: the host lays each marker on a card of a known cell), like the
zones, and kept in the config (:meth:`MarkerPalette.to_dict`); uncalibrated, the nominal
colours of :data:`MARKER_BGR` are used.

A marker is a solid blob: pixels near one palette colour, opened by a kernel of a third of a
marker's side (the thin print of a card -- digits, outlines, small icons -- falls away), of at
least :attr:`MarkerPalette.min_area` of a marker's area (a marker half off its card still
shows half of itself in the cell) and at most :attr:`MarkerPalette.max_area` (larger: a hand).
Where a cell's picture without a marker is known (:class:`GridWatcher` keeps one per cell when
it reads it as a face-up card with no marker), only pixels that changed from it count, so the
card's own colours (a white-ish pastel under a white marker, a purple hat) never read as one.

:class:`GridReader` reads one frame; :class:`GridWatcher` reports a cell's reading once it has
been the same for ``stable_frames`` frames (a hand passing changes nothing), as
:class:`CellChange` values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

import cv2
import numpy as np
import numpy.typing as npt

from ground.files import SETTINGS_BYTES, read_regular
from vision.zone import Zone

FloatArray = npt.NDArray[np.float32]
Image = npt.NDArray[np.uint8]

#: The coloured markers the box knows, nominal BGR (the simulated table draws them so; an
#: uncalibrated palette expects them so): Wink's eight (紅黃藍綠棕紫黑白, :data:`MARKER_COLOURS`)
#: and 什麼不見啦's square tokens (紅黃藍綠橘棕紫, :data:`vision.ring.TOKEN_COLOURS`).
MARKER_BGR: Mapping[str, tuple[int, int, int]] = {
    "orange": (25, 115, 235),
    "red": (40, 40, 200),
    "yellow": (40, 210, 235),
    "blue": (190, 95, 25),
    "green": (60, 150, 40),
    "brown": (35, 70, 120),
    "purple": (150, 45, 125),
    "black": (30, 30, 30),
    "white": (238, 238, 238),
}
#: Wink's eight markers, in the order of its box (and of ``vision calibrate-markers``).
MARKER_COLOURS: tuple[str, ...] = ("red", "yellow", "blue", "green", "brown", "purple", "black",
                                   "white")
UNKNOWN = "unknown"
#: The demo cards' back (vision.demo_decks.card_back style 0), nominal BGR of its field.
BACK_BGR = (120, 50, 30)
#: On a cell with no card, a marker must show at least this fraction of a marker's area.
EMPTY_MIN_AREA = 0.55
#: The light is measured again every this many still frames.
LIGHT_FRAMES = 5
#: A cell of which more than this fraction changed into neither paper, back nor table is
#: covered (a hand).
COVERED = 0.3
#: Each cell is read afresh at least once in this many frames.
REFRESH_FRAMES = 30
#: A cell whose 8x12 thumbnail moved by less than this (grey levels) is read as before.
STILL_LEVELS = 8
#: A colour this achromatic (Lab chroma) is black, grey or white.
NEUTRAL_CHROMA = 12.0
#: The light is read from the face-up cards without a marker while at least this many are
#: left; with fewer (the end of a game), from the table around the grid.
LIGHT_CELLS = 8


def lab_of_bgr(bgr: Sequence[float]) -> tuple[float, float, float]:
    """Lab (L 0-100) of one BGR colour (0-255)."""
    px = np.array([[bgr]], np.float32) / 255.0
    lab = cv2.cvtColor(px, cv2.COLOR_BGR2Lab)[0, 0]
    return float(lab[0]), float(lab[1]), float(lab[2])


@dataclass(frozen=True)
class MarkerPalette:
    """One table's marker colours (Lab, white-balanced), card back and marker size."""

    colours: Mapping[str, tuple[float, float, float]]
    back: tuple[float, float, float] | None = None
    #: the calibration frame's grid median (BGR): later frames are taken back to its light
    grey: tuple[float, float, float] | None = None
    #: a marker's side as a fraction of a cell's shorter side
    marker_size: float = 0.2
    #: largest Lab distance (L weighted by ``l_weight`` for chromatic colours) of a marker pixel
    max_distance: float = 24.0
    l_weight: float = 0.75
    min_area: float = 0.3  # of a marker's area: less is print or noise
    max_area: float = 3.5  # of a marker's area: more is a hand

    def __post_init__(self) -> None:
        if not self.colours:
            raise ValueError("markers: a palette needs at least one colour")
        if not 0.02 <= self.marker_size <= 0.9:
            raise ValueError(f"markers.marker_size: {self.marker_size} is not in 0.02..0.9")
        if not 0 < self.min_area < 1 < self.max_area:
            raise ValueError("markers: min_area < 1 < max_area must hold")

    @classmethod
    def nominal(cls, colours: Sequence[str] = MARKER_COLOURS) -> Self:
        """The nominal palette (before calibration)."""
        return cls({c: lab_of_bgr(MARKER_BGR[c]) for c in colours}, back=lab_of_bgr(BACK_BGR))

    def to_dict(self) -> dict[str, Any]:
        """For the config's ``[vision.markers]`` (TOML-ready)."""
        out: dict[str, Any] = {
            "colours": {k: [round(x, 2) for x in v] for k, v in self.colours.items()},
            "marker_size": round(self.marker_size, 4), "max_distance": self.max_distance}
        if self.back is not None:
            out["back"] = [round(x, 2) for x in self.back]
        if self.grey is not None:
            out["grey"] = [round(x, 2) for x in self.grey]
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self:
        try:
            colours = {str(k): _lab3(v, f"markers.colours.{k}")
                       for k, v in dict(d["colours"]).items()}
        except KeyError:
            raise ValueError("markers.colours: missing") from None
        back = d.get("back")
        grey = d.get("grey")
        return cls(colours, back=None if back is None else _lab3(back, "markers.back"),
                   grey=None if grey is None else _lab3(grey, "markers.grey"),
                   marker_size=float(d.get("marker_size", 0.2)),
                   max_distance=float(d.get("max_distance", 24.0)))


def _lab3(v: Any, where: str) -> tuple[float, float, float]:
    try:
        a, b, c = (float(x) for x in v)
    except (TypeError, ValueError):
        raise ValueError(f"{where}: expected [L, a, b], got {v!r}") from None
    return a, b, c


@dataclass(frozen=True)
class CellReading:
    """What one cell shows in one frame."""

    zone: str
    face: str  # "up", "down", "empty"
    marker: str | None = None  # a palette colour, UNKNOWN, or None
    covered: bool = False  # a hand over it: face and marker mean nothing
    #: the marker blob's area / a marker's area (0 without one)
    marker_area: float = 0.0


@dataclass
class _Cell:
    zone: str
    x0: int
    y0: int
    mask: npt.NDArray[np.bool_]  # inside the zone, within its bounding box
    short: float  # the zone's shorter side, px


def grid_grey(image: Image, mask: npt.NDArray[np.bool_] | None = None) -> FloatArray:
    """The per-channel median of the grid's pixels (BGR): scaled exactly by a colour cast."""
    px = image[mask] if mask is not None else image.reshape(-1, 3)
    if len(px) == 0:
        return np.full(3, 128.0, np.float32)
    grey: FloatArray = np.maximum(np.median(px, axis=0), 1.0).astype(np.float32)
    return grey


def white_gains(image: Image, mask: npt.NDArray[np.bool_] | None = None,
                reference: Sequence[float] | None = None) -> FloatArray:
    """Per-channel gains that take this frame back to the light of the calibration frame
    whose grid median was ``reference`` (BGR): a colour cast or an exposure change since
    scales every channel of the grid alike, its median with it (the cards are the same).
    Without a reference: no correction."""
    if reference is None:
        return np.ones(3, np.float32)
    gains: FloatArray = (np.asarray(reference, np.float32) / grid_grey(image, mask)).astype(
        np.float32)
    return np.clip(gains, 0.4, 3.0).astype(np.float32)


def balanced_lab(image: Image, gains: FloatArray) -> FloatArray:
    """The image white-balanced by ``gains``, in Lab (L 0-100; a, b about -127..127)."""
    f = np.clip(image.astype(np.float32) * gains / 255.0, 0.0, 1.0)
    lab: FloatArray = cv2.cvtColor(f, cv2.COLOR_BGR2Lab)
    return lab


class GridReader:
    """Reads every cell of a calibrated grid in one frame (see the module docstring)."""

    def __init__(self, zones: Sequence[Zone], palette: MarkerPalette | None = None,
                 size: tuple[int, int] = (640, 480)) -> None:
        if not zones:
            raise ValueError("markers: no grid zones (calibrate with --layout grid:6x6)")
        self.palette = palette if palette is not None else MarkerPalette.nominal()
        self.size = size
        w, h = size
        self.cells: list[_Cell] = []
        union = np.zeros((h, w), np.uint8)
        for z in zones:
            poly = np.array(z.polygon, np.float32)
            x0, y0 = max(0, int(poly[:, 0].min())), max(0, int(poly[:, 1].min()))
            x1, y1 = min(w, int(np.ceil(poly[:, 0].max())) + 1), min(
                h, int(np.ceil(poly[:, 1].max())) + 1)
            if x1 <= x0 or y1 <= y0:
                raise ValueError(f"markers: zone {z.name!r} lies outside the frame")
            m = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.fillPoly(m, [np.round(poly - (x0, y0)).astype(np.int32)], 1)
            cv2.fillPoly(union, [np.round(poly).astype(np.int32)], 1)
            sides = [float(np.hypot(*(poly[(i + 1) % len(poly)] - poly[i])))
                     for i in range(len(poly))]
            self.cells.append(_Cell(z.name, x0, y0, m.astype(bool), min(sides)))
        self.grid = union.astype(bool)
        self._grid_sample = np.zeros_like(self.grid)
        self._grid_sample[::3, ::3] = self.grid[::3, ::3]
        short = float(np.median([c.short for c in self.cells]))
        ring = cv2.dilate(union, np.ones((3, 3), np.uint8), iterations=max(2, int(short * 0.4)))
        self.surround = ring.astype(bool) & ~self.grid
        names = list(self.palette.colours)
        self._names = names
        self._labs = np.array([self.palette.colours[n] for n in names], np.float32)
        chroma = np.hypot(self._labs[:, 1], self._labs[:, 2])
        neutral = chroma < NEUTRAL_CHROMA
        # per swatch: weights of L and of (a, b) in the distance -- a chromatic marker is told
        # by its hue (its lightness varies with the light), black and white by lightness,
        # with little chroma allowed (a pastel card is not a white marker)
        self._lw = np.where(neutral, 1.0, self.palette.l_weight).astype(np.float32)
        self._abw = np.where(neutral, 2.0, 1.0).astype(np.float32)
        #: per cell: its picture (Lab) with no marker on it, when known
        self.references: dict[str, FloatArray] = {}
        self.last_mask: npt.NDArray[np.bool_] = np.zeros((1, 1), bool)
        self._last: dict[str, tuple[npt.NDArray[np.int16], CellReading]] = {}
        self._prev: dict[str, npt.NDArray[np.int16]] = {}
        self._frame = 0
        self._gains: FloatArray | None = None
        self._surface: FloatArray | None = None
        #: the references' pictures (BGR) in the light of ``_ref_gains``
        self._raw: dict[str, FloatArray] = {}
        #: the table around the grid (every 3rd pixel of :attr:`surround`, BGR) in that light
        self._raw_surround: FloatArray | None = None
        self._ref_gains: FloatArray | None = None
        #: cells that look different from the frame before (a hand moving, a marker being put
        #: down): their readings do not count yet
        self.moving: set[str] = set()

    def marker_px(self, cell: _Cell) -> float:
        return (self.palette.marker_size * cell.short) ** 2

    def read(self, image: Image) -> dict[str, CellReading]:
        """Every cell's reading in ``image`` (BGR, the calibrated frame size)."""
        if image.shape[1::-1] != self.size:
            raise ValueError(f"markers: frame {image.shape[1::-1]} is not the calibrated "
                             f"{self.size}")
        self._frame += 1
        thumbs = []
        for cell in self.cells:
            h, w = cell.mask.shape
            patch = image[cell.y0:cell.y0 + h, cell.x0:cell.x0 + w]
            thumb = cv2.resize(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY), (8, 12),
                               interpolation=cv2.INTER_AREA).astype(np.int16)
            thumbs.append(thumb)
            prev = self._prev.get(cell.zone)
            self._prev[cell.zone] = thumb
            if prev is None or int(np.abs(thumb - prev).max()) >= STILL_LEVELS:
                self.moving.add(cell.zone)
            else:
                self.moving.discard(cell.zone)
        quiet = [c for c in self.cells if c.zone not in self.moving
                 and not (c.zone in self._last and self._last[c.zone][1].covered)]
        if self._gains is None or (len(quiet) == len(self.cells)
                                   and self._frame % LIGHT_FRAMES == 0):
            # the light is measured while nothing moves over the grid (a hand would tint it),
            # on every 9th of its pixels
            self._gains = self._light(image)
        if self._surface is None or (len(quiet) == len(self.cells)
                                     and self._frame % LIGHT_FRAMES == 0):
            self._surface = self.surface(image, self._gains)
        gains, surface = self._gains, self._surface
        out = {}
        for cell_no, (cell, thumb) in enumerate(zip(self.cells, thumbs, strict=True)):
            # a cell that looks as it did when last read is read the same (most cells, most
            # frames: reading all 36 every frame would cost the Pi 10x more)
            last = self._last.get(cell.zone)
            fresh = (self._frame + cell_no) % REFRESH_FRAMES == 0  # now and then, afresh
            if (last is not None and not fresh
                    and int(np.abs(thumb - last[0]).max()) < STILL_LEVELS):
                out[cell.zone] = last[1]
                continue
            h, w = cell.mask.shape
            lab = balanced_lab(image[cell.y0:cell.y0 + h, cell.x0:cell.x0 + w], gains)
            reading = self._read_cell(cell, lab, surface)
            self._last[cell.zone] = (thumb, reading)
            out[cell.zone] = reading
        return out

    def forget(self, zones: Sequence[str] | None = None) -> None:
        """Read every cell (``zones``: these) afresh next frame (a reference changed)."""
        if zones is None:
            self._last.clear()
        for zone in zones or ():
            self._last.pop(zone, None)

    def surface(self, image: Image, gains: FloatArray) -> FloatArray | None:
        """The table's colour (Lab median of the ring around the grid)."""
        if not self.surround.any():
            return None
        sl = balanced_lab(image[::3, ::3][self.surround[::3, ::3]][None], gains)[0]
        median: FloatArray = np.median(sl, axis=0).astype(np.float32)
        return median

    def _light(self, image: Image) -> FloatArray:
        """This frame's gains. Once cells have pictures kept (:attr:`references`), from the
        face-up cells without a marker: their pixels now against then, channel by channel
        (the cards are the same, so any change is the light's -- however many cards were
        turned down or taken since, which would move a median of the whole grid). With fewer
        than :data:`LIGHT_CELLS` such cards left (the end of a game), from the table around
        the grid against its picture kept with theirs (the table stays; the grid's median
        does not: backs and bare table made it far darker, every gain went to its ceiling
        and every marker read white). Before any picture is kept: the grid's median against
        the calibration's."""
        if self._ref_gains is None:
            return white_gains(image, self._grid_sample, self.palette.grey)
        cells = [c for c in self.cells if c.zone in self._raw
                 and c.zone in self._last and not self._last[c.zone][1].covered
                 and self._last[c.zone][1].face == "up" and self._last[c.zone][1].marker is None]
        if len(cells) >= LIGHT_CELLS:
            now = np.concatenate([image[c.y0:c.y0 + c.mask.shape[0]:2,
                                        c.x0:c.x0 + c.mask.shape[1]:2][c.mask[::2, ::2]]
                                  for c in cells]).astype(np.float32)
            then = np.concatenate([self._raw[c.zone][::2, ::2][c.mask[::2, ::2]]
                                   for c in cells])
        elif self._raw_surround is not None and len(self._raw_surround):
            now = image[::3, ::3][self.surround[::3, ::3]].astype(np.float32)
            then = self._raw_surround
        else:  # nothing to measure it against: the light as last measured
            return self._gains if self._gains is not None else self._ref_gains
        ratio = np.median(then, axis=0) / np.maximum(np.median(now, axis=0), 1.0)
        gains: FloatArray = np.clip(self._ref_gains * ratio, 0.4, 3.0).astype(np.float32)
        return gains

    def keep_reference(self, image: Image, zone: str) -> None:
        """Keep ``zone``'s picture in ``image`` as its look without a marker."""
        cell = next(c for c in self.cells if c.zone == zone)
        h, w = cell.mask.shape
        if self._ref_gains is None:
            self._ref_gains = self._gains if self._gains is not None else white_gains(
                image, self._grid_sample, self.palette.grey)
        patch = image[cell.y0:cell.y0 + h, cell.x0:cell.x0 + w]
        # in the light the references were kept in
        scale = self._ref_gains / (self._gains if self._gains is not None else self._ref_gains)
        self._raw[zone] = (patch.astype(np.float32) * scale).astype(np.float32)
        if self._raw_surround is None:
            self.keep_surround(image, scale)
        self.references[zone] = balanced_lab(patch, self._gains if self._gains is not None
                                             else self._ref_gains)

    def keep_surround(self, image: Image, scale: FloatArray | None = None) -> None:
        """Keep the table around the grid in ``image`` (the light at the end of a game is
        read from it: :meth:`_light`); ``scale`` takes it to the references' light."""
        px = image[::3, ::3][self.surround[::3, ::3]].astype(np.float32)
        self._raw_surround = (px * (scale if scale is not None else 1.0)).astype(np.float32)

    def lab_of(self, image: Image, zone: str) -> FloatArray:
        cell = next(c for c in self.cells if c.zone == zone)
        h, w = cell.mask.shape
        gains = self._gains if self._gains is not None else white_gains(
            image, self.grid, self.palette.grey)
        return balanced_lab(image[cell.y0:cell.y0 + h, cell.x0:cell.x0 + w], gains)

    def _read_cell(self, cell: _Cell, lab: FloatArray,
                   surface: FloatArray | None) -> CellReading:
        pal = self.palette
        inside = cell.mask
        chroma = np.hypot(lab[..., 1], lab[..., 2])
        paper = (lab[..., 0] > 68) & (chroma < 40)
        changed = np.ones_like(inside)
        ref = self.references.get(cell.zone)
        if ref is not None and ref.shape == lab.shape:
            delta = np.sqrt(((lab - ref) ** 2).sum(axis=-1))
            changed = delta > 10.0
        # the distance to each palette colour, where it matters (what changed, in the zone)
        where = inside & changed
        near_d = np.full(inside.shape, np.inf, np.float32)
        nearest = np.full(inside.shape, -1, np.int64)
        if where.any():
            diff = lab[where][:, None, :] - self._labs  # (n, k, 3)
            diff[..., 0] *= self._lw
            diff[..., 1:] *= self._abw[:, None]
            dist = np.sqrt((diff ** 2).sum(axis=-1))  # (n, k)
            nearest[where] = dist.argmin(axis=-1)
            near_d[where] = dist.min(axis=-1)
        candidate = inside & changed & (near_d < pal.max_distance)
        backish = np.zeros_like(inside)
        if pal.back is not None:  # a card's back is no marker (markers lie on faces only)
            backish = np.sqrt(((lab - np.array(pal.back, np.float32)) ** 2).sum(axis=-1)) <= 14
            candidate &= ~backish
        if ref is not None:
            # a hand or an arm: much of the cell changed into something that is neither paper,
            # a card's back nor the table (a marker changes a tenth of it)
            foreign = inside & changed & ~paper & ~backish
            if surface is not None:
                foreign &= np.sqrt(((lab - surface) ** 2).sum(axis=-1)) > 16
            # (a marker that fills much of its cell -- 什麼不見啦's token in its slot -- is
            # no hand: a hand covers well beyond it)
            expected_px = (pal.marker_size * cell.short) ** 2
            covered_at = max(COVERED, min(0.95, 2.2 * expected_px / max(1, int(inside.sum()))))
            if foreign.sum() > covered_at * inside.sum():
                self.last_mask = np.zeros_like(inside)
                return CellReading(cell.zone, "up", covered=True)
        if surface is not None:
            # the table itself is no marker (a brown table, a dark one): off the card, pixels
            # of the table's colour do not count (on the card they do: a black marker on a
            # dark table)
            table_like = np.sqrt(((lab - surface) ** 2).sum(axis=-1)) <= 16
            candidate &= ~table_like | _card_region(inside & ~table_like)
        side = pal.marker_size * cell.short
        expected = side * side
        k = max(3, round(side / 3))
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        best: tuple[float, str] | None = None
        covered = False
        marker_mask = np.zeros_like(inside)
        for i, name in enumerate(self._names):
            m = candidate & (nearest == i)
            if m.sum() < pal.min_area * expected:
                continue
            opened = cv2.morphologyEx(m.astype(np.uint8), cv2.MORPH_OPEN, kernel)
            n, labels, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
            if n <= 1:
                continue
            j = 1 + int(stats[1:, cv2.CC_STAT_AREA].argmax())
            area = float(stats[j, cv2.CC_STAT_AREA])
            if area > pal.max_area * expected:
                covered = True
                continue
            if area >= pal.min_area * expected and (best is None or area > best[0]):
                best = (area, name)
                marker_mask = labels == j
        # an unknown marker: a solid, saturated blob far from every colour, the paper and the
        # table (a marker of another set, a coin)
        if best is None and not covered:
            far = inside & changed & (near_d >= pal.max_distance * 1.6) & (chroma > 30)
            if surface is not None:
                far &= np.sqrt(((lab - surface) ** 2).sum(axis=-1)) > 30
            if far.sum() >= pal.min_area * expected:
                opened = cv2.morphologyEx(far.astype(np.uint8), cv2.MORPH_OPEN, kernel)
                n, labels, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
                if n > 1:
                    j = 1 + int(stats[1:, cv2.CC_STAT_AREA].argmax())
                    area = float(stats[j, cv2.CC_STAT_AREA])
                    if area > pal.max_area * expected:
                        covered = True
                    elif area >= pal.min_area * expected:
                        best = (area, UNKNOWN)
                        marker_mask = labels == j
        self.last_mask = marker_mask
        if covered:
            return CellReading(cell.zone, "up", covered=True)
        rest = inside & ~marker_mask
        total = max(1, int(rest.sum()))
        paper_frac = float((paper & rest).sum()) / total
        back_frac = 0.0
        sd = None
        if surface is not None:
            # paper-like pixels that are just the table (a light table) do not make a card
            sd = np.sqrt(((lab - surface) ** 2).sum(axis=-1))
            paper_frac = float((paper & rest & (sd > 12)).sum()) / total
        if pal.back is not None:
            bd = np.sqrt(((lab - np.array(pal.back, np.float32)) ** 2).sum(axis=-1))
            backish = (bd < 22) & rest
            if sd is not None:  # nearer the table than the back: the table
                backish &= bd < sd
            back_frac = float(backish.sum()) / total
        same = float((rest & ~changed).sum()) / total if ref is not None else 0.0
        if same >= 0.6:
            face = "up"  # mostly as it was when read face up with no marker
        elif back_frac >= 0.18 and back_frac > paper_frac * 0.6:
            face = "down"
        elif paper_frac >= 0.15:
            face = "up"
        else:
            face = "empty"
        if best is not None and (face == "down" or (face == "empty"
                                                    and best[0] < EMPTY_MIN_AREA * expected)):
            # no marker lies on a face-down card (it goes back to its player: a back's white
            # emblem is no white marker); on bare table only a whole marker counts (a caught
            # seeker's, left where its card was)
            best = None
        return CellReading(cell.zone, face, best[1] if best else None,
                           marker_area=0.0 if best is None else best[0] / expected)


def _card_region(not_table: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """The card in a cell: the convex hull of the largest region unlike the table."""
    u8 = cv2.morphologyEx(not_table.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(u8, connectivity=8)
    out = np.zeros(not_table.shape, np.uint8)
    if n > 1:
        j = 1 + int(stats[1:, cv2.CC_STAT_AREA].argmax())
        pts = cv2.findNonZero((labels == j).astype(np.uint8))
        cv2.fillConvexPoly(out, cv2.convexHull(pts), 1)
    return out.astype(bool)


@dataclass(frozen=True)
class CellChange:
    """A cell's settled reading changed (or was read for the first time)."""

    zone: str
    face: str
    marker: str | None
    t_ns: int  # the frame in which the new reading first showed


@dataclass
class _Seen:
    reading: tuple[str, str | None] | None = None
    count: int = 0
    since_ns: int = 0
    reported: tuple[str, str | None] | None = None


@dataclass
class GridWatcher:
    """Cell readings over frames: a change is reported once it held ``stable_frames``
    frames in which the cell did not move (a hand passing moves; a marker put down lies
    still); a covered or moving frame starts the count again."""

    reader: GridReader
    stable_frames: int = 3
    _cells: dict[str, _Seen] = field(default_factory=dict)

    def process(self, image: Image, t_ns: int) -> list[CellChange]:
        readings = self.reader.read(image)
        out = []
        for zone, r in readings.items():
            s = self._cells.setdefault(zone, _Seen())
            if r.covered or zone in self.reader.moving:
                # a hand over it, or something moving: this frame says nothing yet
                s.reading, s.count = None, 0
                continue
            key = (r.face, r.marker)
            if key != s.reading:
                s.reading, s.count, s.since_ns = key, 1, t_ns
            else:
                s.count += 1
            if s.count >= self.stable_frames:
                if (key == ("up", None) and s.count == self.stable_frames
                        and zone not in self.reader.references):
                    # the card's own picture, for telling a marker from its print later
                    self.reader.keep_reference(image, zone)
                if key != s.reported:
                    s.reported = key
                    out.append(CellChange(zone, r.face, r.marker, s.since_ns))
        return out

    def set_references(self, image: Image, zones: Sequence[str] | None = None) -> None:
        """The grid in ``image`` was just laid, face up, with no marker: keep each cell's
        picture (``zones``: only these), so a card's own colours never read as a marker."""
        reader = self.reader
        # the light of this frame (the grid as laid), not of an earlier one (an empty table)
        reader._gains = white_gains(image, reader._grid_sample, reader.palette.grey)
        reader._ref_gains = reader._gains
        reader._surface = reader.surface(image, reader._gains)
        reader.keep_surround(image)
        for cell in reader.cells:
            if zones is None or cell.zone in zones:
                reader.keep_reference(image, cell.zone)
        reader.forget()

    def settled(self) -> dict[str, tuple[str, str | None]]:
        """Every cell's last reported (face, marker)."""
        return {z: s.reported for z, s in self._cells.items() if s.reported is not None}

    def forget(self, zones: Sequence[str] | None = None) -> None:
        """Report every cell (``zones``: these) again (after an undo, a picture kept)."""
        for zone, s in self._cells.items():
            if zones is None or zone in zones:
                s.reported = None


def calibrate(before: Image, after: Image, zones: Sequence[Zone], placed: Mapping[str, str],
              *, back_zone: str | None = None,
              base: MarkerPalette | None = None) -> MarkerPalette:
    """The table's palette, under its own light, from two frames: ``before`` the grid as laid
    (no marker), ``after`` with each marker of ``placed`` (colour -> zone) on the card of
    its cell and, if ``back_zone`` is given, that cell's card turned face down. Each marker
    is what changed in its cell (whatever its colour: no light is assumed); its colour is
    the median of those pixels, its size the median of the markers' sizes."""
    base = base if base is not None else MarkerPalette.nominal(tuple(placed) or MARKER_COLOURS)
    reader = GridReader(zones, base, after.shape[1::-1])
    if before.shape != after.shape:
        raise ValueError("markers calibrate: the two frames differ in size")
    ones = np.ones(3, np.float32)
    colours = dict(base.colours)
    sides = []
    missing = []
    for colour, zone in placed.items():
        cell = next((c for c in reader.cells if c.zone == zone), None)
        if cell is None:
            raise ValueError(f"markers calibrate: no zone {zone!r}")
        blob, lab = _changed_blob(cell, before, after, ones)
        if blob is None:
            missing.append(f"{colour} on {zone}")
            continue
        inner = cv2.erode(blob.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        px = lab[inner if inner.sum() >= 4 else blob]
        m = [float(x) for x in np.median(px, axis=0)]
        colours[colour] = (m[0], m[1], m[2])
        sides.append(float(np.sqrt(blob.sum())) / cell.short)
    if missing:
        raise MarkerNotFound(missing)
    back = base.back
    if back_zone is not None:
        cell = next((c for c in reader.cells if c.zone == back_zone), None)
        if cell is None:
            raise ValueError(f"markers calibrate: no zone {back_zone!r}")
        blob, lab = _changed_blob(cell, before, after, ones, largest=True)
        if blob is None:
            raise ValueError(f"markers calibrate: no card back found on {back_zone}")
        px = lab[blob]
        dark = px[px[:, 0] <= np.percentile(px[:, 0], 60)]
        b = [float(x) for x in np.median(dark, axis=0)]
        back = (b[0], b[1], b[2])
    g = grid_grey(after, reader.grid)
    size = float(np.median(sides)) if sides else base.marker_size
    return MarkerPalette(colours, back, (float(g[0]), float(g[1]), float(g[2])),
                         float(np.clip(size, 0.05, 0.8)), base.max_distance)


class MarkerNotFound(ValueError):
    """Markers :func:`calibrate` did not find where they were to lie (``"red on r1c1"``)."""

    def __init__(self, missing: Sequence[str]) -> None:
        self.missing = tuple(missing)
        super().__init__("markers calibrate: no marker found for " + ", ".join(missing))


def colour_distance(palette: MarkerPalette, a: str, b: str) -> float:
    """How far apart two of the palette's colours are, as the reader tells them apart (Lab;
    lightness weighted less for two chromatic colours, chroma more for black and white)."""
    la = np.array(palette.colours[a], np.float32)
    lb = np.array(palette.colours[b], np.float32)
    neutral = (float(np.hypot(la[1], la[2])) < NEUTRAL_CHROMA
               or float(np.hypot(lb[1], lb[2])) < NEUTRAL_CHROMA)
    lw = 1.0 if neutral else palette.l_weight
    abw = 2.0 if neutral else 1.0
    d = la - lb
    return float(np.sqrt((d[0] * lw) ** 2 + (d[1] * abw) ** 2 + (d[2] * abw) ** 2))


#: Two calibrated colours nearer than this (:func:`colour_distance`) cannot be told apart
#: reliably: a marker pixel is taken as the nearer colour within ``max_distance`` (24) of
#: it, and a marker's pixels spread several units about its colour under noise and shade.
MIN_SEPARATION = 20.0


def too_close(palette: MarkerPalette,
              least: float = MIN_SEPARATION) -> list[tuple[str, str, float]]:
    """The pairs of the palette's colours nearer than ``least``, nearest first."""
    names = list(palette.colours)
    pairs = [(a, b, colour_distance(palette, a, b))
             for i, a in enumerate(names) for b in names[i + 1:]]
    return sorted((p for p in pairs if p[2] < least), key=lambda p: p[2])


def nearest_other(palette: MarkerPalette, colour: str) -> tuple[str, float] | None:
    """The palette's colour nearest ``colour`` (another one) and its distance."""
    others = [(b, colour_distance(palette, colour, b)) for b in palette.colours if b != colour]
    return min(others, key=lambda p: p[1]) if others else None


class ColoursTooClose(ValueError):
    """Two (or more) measured colours too close to tell apart under this light (or the same
    colour laid twice): ``pairs`` as (colour, colour, distance), nearest first."""

    def __init__(self, pairs: Sequence[tuple[str, str, float]]) -> None:
        self.pairs = tuple(pairs)
        super().__init__("markers calibrate: too close to tell apart: " + "; ".join(
            f"{a} and {b}: {d:.1f}" for a, b, d in self.pairs))


def measure_palette(before: Image, after: Image, zones: Sequence[Zone],
                    placed: Mapping[str, str], *, back_zone: str | None = None,
                    size: tuple[int, int] | None = None) -> MarkerPalette:
    """:func:`calibrate`, then the checks every caller needs: the one implementation of
    ``vision calibrate-markers`` (Wink's grid, 什麼不見啦's ring with ``--ring``) and of
    the set-up screen's "Wink's markers". ``size``: the camera's frame size the frames must
    have. Raises :class:`MarkerNotFound` (a colour not seen where it was to lie),
    :class:`ColoursTooClose` (two colours the reader could not tell apart: under this light,
    or one colour laid twice) or ValueError (frames of another size, an unknown zone)."""
    if before.shape != after.shape:
        raise ValueError(f"the two frames differ in size ({before.shape[1]}x"
                         f"{before.shape[0]} and {after.shape[1]}x{after.shape[0]})")
    got = (int(after.shape[1]), int(after.shape[0]))
    if size is not None and got != tuple(size):
        raise ValueError(f"the frames are {got[0]}x{got[1]}, the camera ([camera] size) "
                         f"gives {size[0]}x{size[1]}: take them as the kiosk sees the table")
    palette = calibrate(before, after, zones, placed, back_zone=back_zone)
    close = too_close(palette, MIN_SEPARATION)
    if close:
        raise ColoursTooClose(close)
    return palette


def markers_seen(before: Image, after: Image, zones: Sequence[Zone],
                 placed: Mapping[str, str], *, back_zone: str | None = None) -> frozenset[str]:
    """Which markers of ``placed`` (colour -> zone) already lie on their cells in ``after``
    (something changed there since ``before``, as :func:`calibrate` looks for them), and
    ``"back"`` when ``back_zone``'s card has been turned (a change of at least 15% of the
    cell: a card, not a marker, about 5%): the set-up screen ticks them off
    while the host lays them."""
    if before.shape != after.shape:
        return frozenset()
    reader = GridReader(zones, MarkerPalette.nominal(tuple(placed) or MARKER_COLOURS),
                        after.shape[1::-1])
    cells = {c.zone: c for c in reader.cells}
    ones = np.ones(3, np.float32)
    seen = {colour for colour, zone in placed.items()
            if zone in cells and _changed_blob(cells[zone], before, after, ones)[0] is not None}
    if back_zone is not None and back_zone in cells:
        blob, _lab = _changed_blob(cells[back_zone], before, after, ones)
        if blob is not None and blob.sum() >= 0.15 * cells[back_zone].mask.sum():
            seen.add("back")
    return frozenset(seen)


def marker_places(colours: Sequence[str], back: str | None = "r6c6") -> dict[str, str]:
    """Where each of ``colours`` (Wink's markers, in the order they are laid) lies for the
    calibration: the grid's cells in reading order from r1c1; ValueError naming what is
    wrong (an unknown or repeated colour, a back cell that holds a marker)."""
    unknown = [c for c in colours if c not in MARKER_COLOURS]
    if unknown or not colours or len(set(colours)) != len(colours):
        raise ValueError(f"colours {','.join(colours)!r}: name each of "
                         f"{', '.join(MARKER_COLOURS)} at most once")
    placed = dict(zip(colours, GRID_ZONES, strict=False))
    if back is not None and (back not in GRID_ZONES or back in placed.values()):
        raise ValueError(f"back {back!r}: a cell r1c1..r6c6 with no marker on it")
    return placed


#: What a marker calibration file says it is (``vision calibrate-markers``).
MARKERS_KIND = "tablekeeper-markers"
MARKERS_VERSION = 1


#: The calibration's file name when the config (``[table] markers``) names none.
MARKERS_FILE = "markers.json"
#: The grid's cells, as ``vision calibrate --layout grid:6x6`` names them.
GRID_ZONES = tuple(f"r{r}c{c}" for r in range(1, 7) for c in range(1, 7))
#: The cell whose card is turned face down for the calibration (the back's colour).
BACK_CELL = "r6c6"


def grid_zones(zones: Sequence[Zone]) -> tuple[Zone, ...]:
    """The calibrated zones that are the grid's cells, r1c1 ... r6c6 (all of them or none)."""
    by_name = {z.name: z for z in zones}
    if all(n in by_name for n in GRID_ZONES):
        return tuple(by_name[n] for n in GRID_ZONES)
    return ()


def markers_path(markers: str, config_path: Path | None, state_dir: str) -> Path:
    """Where the marker calibration is: ``markers`` (``[table] markers``; "" for
    :data:`MARKERS_FILE`), ``~`` expanded; relative to the config file's folder (next to its
    ``[[vision.zones]]``), or to ``state_dir`` when there is no config file."""
    import os

    path = Path(os.path.expanduser(markers.strip() or MARKERS_FILE))
    if path.is_absolute():
        return path
    base = config_path.parent if config_path is not None else Path(os.path.expanduser(state_dir))
    return base / path


class MarkerFileError(ValueError):
    """A marker calibration file that cannot be used; the message names the file."""


def save_markers(path: Path, palette: MarkerPalette, size: tuple[int, int],
                 zones: Sequence[Zone] = ()) -> None:
    """Write the table's palette as JSON (a temporary file, fsynced, renamed: a power cut
    leaves the old file or the new one). ``size``: the frame size it was measured in;
    ``zones``: the grid's cells then (a grid calibrated again afterwards is noticed)."""
    import json

    from vision.deck import atomic_write, make_folder

    data = {"kind": MARKERS_KIND, "version": MARKERS_VERSION, "size": list(size),
            "grid": [z.name for z in zones],
            "grid_centres": [[round(float(np.mean([p[0] for p in z.polygon])), 1),
                              round(float(np.mean([p[1] for p in z.polygon])), 1)]
                             for z in zones],
            "palette": palette.to_dict()}
    make_folder(path.parent)
    atomic_write(path, (json.dumps(data, indent=1) + "\n").encode("utf-8"))


def load_markers(path: Path, size: tuple[int, int] | None = None) -> MarkerPalette:
    """The palette in ``path``; :class:`MarkerFileError` saying what is wrong (missing,
    unreadable, not JSON, not a marker calibration, a bad value, another frame size)."""
    import json

    try:
        raw = read_regular(path, SETTINGS_BYTES)
    except FileNotFoundError:
        raise MarkerFileError(f"{path}: no marker calibration yet (tablekeeper vision "
                              "calibrate-markers writes it)") from None
    except OSError as exc:
        raise MarkerFileError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise MarkerFileError(f"{path}: damaged (not JSON: {exc}); calibrate the markers "
                              "again") from None
    if not isinstance(data, dict) or data.get("kind") != MARKERS_KIND:
        raise MarkerFileError(f"{path}: not a marker calibration (no \"kind\": "
                              f"\"{MARKERS_KIND}\")")
    if data.get("version") != MARKERS_VERSION:
        raise MarkerFileError(f"{path}: version {data.get('version')!r}, this box reads "
                              f"{MARKERS_VERSION}")
    try:
        palette = MarkerPalette.from_dict(_mapping_of(data.get("palette"), "palette"))
        measured = data.get("size")
        if not (isinstance(measured, list) and len(measured) == 2
                and all(isinstance(v, int) for v in measured)):
            raise ValueError(f"size: expected [width, height], got {measured!r}")
    except (TypeError, ValueError) as exc:
        raise MarkerFileError(f"{path}: damaged ({exc}); calibrate the markers again") from None
    if size is not None and tuple(measured) != tuple(size):
        raise MarkerFileError(f"{path}: measured in {measured[0]}x{measured[1]} frames, the "
                              f"camera gives {size[0]}x{size[1]}; calibrate the markers again")
    return palette


def _mapping_of(v: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(v, Mapping):
        raise ValueError(f"{where}: expected a table, got {v!r}")
    return v


def _changed_blob(cell: _Cell, before: Image, after: Image, gains: FloatArray, *,
                  largest: bool = True) -> tuple[npt.NDArray[np.bool_] | None, FloatArray]:
    """The largest solid region of ``cell`` that differs between the two frames."""
    h, w = cell.mask.shape
    sl = (slice(cell.y0, cell.y0 + h), slice(cell.x0, cell.x0 + w))
    a = balanced_lab(before[sl], gains)
    b = balanced_lab(after[sl], gains)
    diff = (np.sqrt(((a - b) ** 2).sum(axis=-1)) > 12) & cell.mask
    k = max(3, round(cell.short * 0.06))
    opened = cv2.morphologyEx(diff.astype(np.uint8), cv2.MORPH_OPEN,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    opened = cv2.morphologyEx(opened, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
    if n <= 1:
        return None, b
    j = 1 + int(stats[1:, cv2.CC_STAT_AREA].argmax())
    if stats[j, cv2.CC_STAT_AREA] < (0.05 * cell.short) ** 2:
        return None, b
    blob: npt.NDArray[np.bool_] = labels == j
    return blob, b
