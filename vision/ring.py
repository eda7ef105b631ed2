"""什麼不見啦's ring: the scene positions, their memory cards and the slots on them.

The scenes lie face down in a ring round the central item pile, a memory card (回憶卡) beside
each. Each position ``p`` (0-based, clockwise from the top, the engine's ring positions) is two
zones of the config (``vision calibrate --layout ring:N``, N = 4/5/6 as the variant):

- ``scene<p+1>``: the scene card (face down: its back; turned up for a check: its picture);
- ``memory<p+1>``: the memory card, whose six slots are read as cells by the coloured-marker
  reader (:mod:`vision.markers`, the one mechanism for coloured markers): top row left to
  right, then the bottom row (the seed's 「上排最左邊的空格」 first), as the card lies upright
  to the camera (its long side across the frame).

Calibration (:func:`ring_zones_from_cards`): the host lays the N scene cards and the N memory
cards as for play; the N cards nearer the ring's centre are the memory cards (they lie between
their scene and the central pile), each paired with the scene nearest it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from vision.zone import Point, Zone

#: The seven player colours of 什麼不見啦 (the square tokens), in the order of the box.
TOKEN_COLOURS: tuple[str, ...] = ("red", "yellow", "blue", "green", "orange", "brown",
                                  "purple")
#: A memory card's slots: 2 rows of 3.
SLOT_ROWS, SLOT_COLS = 2, 3
SLOTS = SLOT_ROWS * SLOT_COLS
#: A slot's place on the card, as fractions of its width (u) and height (v): margins, gaps.
SLOT_MARGIN_U, SLOT_GAP_U = 0.06, 0.04
SLOT_MARGIN_V, SLOT_GAP_V = 0.08, 0.06
#: Ring sizes the rules know (easy, standard, advanced).
RING_SIZES = (4, 5, 6)


def scene_zone(position: int) -> str:
    return f"scene{position + 1}"


def memory_zone(position: int) -> str:
    return f"memory{position + 1}"


def slot_zone(position: int, slot: int) -> str:
    """The cell of ``slot`` (1..6) on the memory card of ``position`` (0-based)."""
    return f"memory{position + 1}.{slot}"


def parse_slot_zone(name: str) -> tuple[int, int] | None:
    """``memory3.2`` -> (2, 2): the position (0-based) and the slot (1..6); None otherwise."""
    if not name.startswith("memory") or "." not in name:
        return None
    pos, _, slot = name[6:].partition(".")
    if not (pos.isdigit() and slot.isdigit()):
        return None
    return int(pos) - 1, int(slot)


def slot_box(slot: int) -> tuple[float, float, float, float]:
    """Slot ``slot`` (1..6) as (u0, v0, u1, v1), fractions of the upright card."""
    if not 1 <= slot <= SLOTS:
        raise ValueError(f"slot {slot} is not one of 1-{SLOTS}")
    row, col = divmod(slot - 1, SLOT_COLS)
    w = (1 - 2 * SLOT_MARGIN_U - (SLOT_COLS - 1) * SLOT_GAP_U) / SLOT_COLS
    h = (1 - 2 * SLOT_MARGIN_V - (SLOT_ROWS - 1) * SLOT_GAP_V) / SLOT_ROWS
    u0 = SLOT_MARGIN_U + col * (w + SLOT_GAP_U)
    v0 = SLOT_MARGIN_V + row * (h + SLOT_GAP_V)
    return u0, v0, u0 + w, v0 + h


def upright(quad: Sequence[Point]) -> tuple[Point, ...]:
    """The card's corners from its top-left, clockwise, as it lies upright to the camera with
    its long side across: the first edge is a long one pointing right (a card turned by up to
    45 degrees keeps its reading)."""
    q = [(float(x), float(y)) for x, y in quad]
    if len(q) != 4:
        raise ValueError(f"a card has 4 corners, got {len(q)}")
    # clockwise in the image (y down): positive shoelace area
    area = sum(q[i][0] * q[(i + 1) % 4][1] - q[(i + 1) % 4][0] * q[i][1] for i in range(4))
    if area < 0:
        q.reverse()
    best: tuple[float, int] | None = None
    for i in range(4):
        a, b, c = q[i], q[(i + 1) % 4], q[(i + 2) % 4]
        long_first = math.dist(a, b) >= math.dist(b, c)
        dx = b[0] - a[0]
        score = (dx / max(math.dist(a, b), 1e-6)) + (1.0 if long_first else 0.0)
        if best is None or score > best[0]:
            best = (score, i)
    assert best is not None
    i = best[1]
    return tuple(q[(i + k) % 4] for k in range(4))


def _bilinear(q: Sequence[Point], u: float, v: float) -> Point:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = q
    top = (x0 + (x1 - x0) * u, y0 + (y1 - y0) * u)
    bottom = (x3 + (x2 - x3) * u, y3 + (y2 - y3) * u)
    return (top[0] + (bottom[0] - top[0]) * v, top[1] + (bottom[1] - top[1]) * v)


def slot_zones(memory: Zone, position: int) -> tuple[Zone, ...]:
    """The six slot cells of the memory card zone ``memory`` at ``position`` (0-based)."""
    q = upright(memory.polygon)
    out = []
    for slot in range(1, SLOTS + 1):
        u0, v0, u1, v1 = slot_box(slot)
        out.append(Zone(slot_zone(position, slot),
                        (_bilinear(q, u0, v0), _bilinear(q, u1, v0), _bilinear(q, u1, v1),
                         _bilinear(q, u0, v1))))
    return tuple(out)


def _centre(q: Sequence[Point]) -> Point:
    return (sum(p[0] for p in q) / len(q), sum(p[1] for p in q) / len(q))


def _grown(q: Sequence[Point], grow: float) -> tuple[Point, ...]:
    cx, cy = _centre(q)
    return tuple((cx + (x - cx) * grow, cy + (y - cy) * grow) for x, y in q)


def ring_zones_from_cards(quads: Sequence[Sequence[Point]], n: int) -> tuple[Zone, ...]:
    """``vision calibrate --layout ring:N``: zones scene1..sceneN (the scene cards, grown a
    little) and memory1..memoryN (the memory cards, as found: their slots are cut from them),
    numbered clockwise from the top. ValueError saying what was expected and found."""
    if n not in RING_SIZES:
        raise ValueError(f"layout ring:{n}: 什麼不見啦 plays with "
                         f"{'/'.join(map(str, RING_SIZES))} scenes")
    if len(quads) != 2 * n:
        raise ValueError(f"layout ring:{n}: lay the {n} scene cards and their {n} memory "
                         f"cards ({2 * n} cards); found {len(quads)}")
    qs = [tuple((float(x), float(y)) for x, y in q) for q in quads]
    cx = sum(_centre(q)[0] for q in qs) / len(qs)
    cy = sum(_centre(q)[1] for q in qs) / len(qs)
    by_distance = sorted(qs, key=lambda q: math.dist(_centre(q), (cx, cy)))
    memories, scenes = by_distance[:n], by_distance[n:]

    def clockwise(q: Sequence[Point]) -> float:
        x, y = _centre(q)
        # from the top (12 o'clock), clockwise on the image (y down); a card near the top
        # (half a position either side) is the first
        return (math.atan2(y - cy, x - cx) + math.pi / 2 + math.pi / n) % (2 * math.pi)

    scenes.sort(key=clockwise)
    pairs: list[tuple[Sequence[Point], Sequence[Point]]] = []
    free = list(memories)
    for sq in scenes:
        mq = min(free, key=lambda q: math.dist(_centre(q), _centre(sq)))
        free.remove(mq)
        pairs.append((sq, mq))
    out: list[Zone] = []
    for p, (scene, _m) in enumerate(pairs):
        out.append(Zone(scene_zone(p), _grown(scene, 1.1)))
    for p, (_s, memory) in enumerate(pairs):
        out.append(Zone(memory_zone(p), tuple(upright(memory))))
    return tuple(out)


def ring_of(zones: Sequence[Zone]) -> tuple[tuple[Zone, Zone], ...]:
    """The calibrated ring, (scene, memory) per position, from the config's zones: positions
    1, 2, ... as long as both zones exist (none: the ring is not calibrated)."""
    by_name = {z.name: z for z in zones}
    out = []
    p = 0
    while scene_zone(p) in by_name and memory_zone(p) in by_name:
        out.append((by_name[scene_zone(p)], by_name[memory_zone(p)]))
        p += 1
    return tuple(out)


def ring_slots(ring: Sequence[tuple[Zone, Zone]]) -> tuple[Zone, ...]:
    """Every slot of the ring's memory cards (:func:`slot_zones`), position by position."""
    return tuple(z for p, (_s, m) in enumerate(ring) for z in slot_zones(m, p))


def token_places(colours: Sequence[str]) -> dict[str, str]:
    """Where each of ``colours`` (the tokens, in the order they are laid) lies for the
    calibration (``vision calibrate-markers --ring``, the set-up screen): the slots of
    memory card 1, then of memory card 2. ValueError naming an unknown or repeated colour."""
    if (any(c not in TOKEN_COLOURS for c in colours) or not colours
            or len(set(colours)) != len(colours)):
        raise ValueError(f"colours {','.join(colours)!r}: name each of "
                         f"{', '.join(TOKEN_COLOURS)} at most once")
    return {c: slot_zone(i // SLOTS, i % SLOTS + 1) for i, c in enumerate(colours)}


# --- reading the ring: the coloured-marker reader over the slots and the scenes ------------


@dataclass(frozen=True)
class RingChange:
    """A settled change on the ring: a slot's token (``slot`` 1..6, ``marker`` a colour,
    ``"unknown"`` or None) or a scene's face (``slot`` 0, ``face`` "up"/"down"/"empty")."""

    position: int
    slot: int
    face: str
    marker: str | None
    t_ns: int

    @property
    def is_scene(self) -> bool:
        return self.slot == 0


class RingWatcher:
    """The ring's slots and scenes, frame by frame, through the one coloured-marker reader
    (:class:`vision.markers.GridReader` and :class:`~vision.markers.GridWatcher`: the white
    balance on the cards' paper, the hand over a cell, the stable frames): each slot of each
    memory card is a cell (its picture without a token kept at the first frame, so the printed
    slot labels never read as a token); each scene zone is a cell read for its face only (a
    back: down; a picture: up).

    ``palette``: the table's calibrated token colours (``vision calibrate-markers --ring``),
    or the nominal seven."""

    def __init__(self, ring: Sequence[tuple[Zone, Zone]], palette: Any = None,
                 size: tuple[int, int] = (640, 480), stable_frames: int = 3) -> None:
        from vision.markers import GridReader, GridWatcher, MarkerPalette

        if not ring:
            raise ValueError("ring: no scene positions (calibrate with --layout ring:N)")
        if palette is None:
            palette = dataclasses.replace(MarkerPalette.nominal(TOKEN_COLOURS),
                                          marker_size=TOKEN_SIDE)
        # a memory card is never turned face down: no colour is "a card's back" on its slots
        # (a blue token under a green cast read as the demo deck's blue back, and so as no
        # token)
        palette = dataclasses.replace(palette, back=None)
        self.palette = palette
        self.n = len(ring)
        self.slots = tuple(z for p, (_s, m) in enumerate(ring) for z in slot_zones(m, p))
        self.scene_names = tuple(s.name for s, _m in ring)
        self.watcher = GridWatcher(GridReader(self.slots, palette, size),
                                   stable_frames=stable_frames)
        self.stable_frames = stable_frames
        self._scenes = [_SceneCell.of(s, size) for s, _m in ring]
        self._references = False

    def process(self, image: Any, t_ns: int) -> list[RingChange]:
        if not self._references:
            # the ring as laid, no token on it yet, the scenes face down: each slot's own
            # picture, each scene's back (not before every memory card lies in view)
            if not self.laid(image):
                return []
            self.watcher.set_references(image, [z.name for z in self.slots])
            for cell in self._scenes:
                cell.keep(image)
            self._references = True
        out = []
        for p, cell in enumerate(self._scenes):
            face = cell.read(image, t_ns, self.stable_frames)
            if face is not None:
                out.append(RingChange(p, 0, face, None, t_ns))
        for change in self.watcher.process(image, t_ns):
            slot = parse_slot_zone(change.zone)
            if slot is not None:
                out.append(RingChange(slot[0], slot[1], change.face, change.marker,
                                      change.t_ns))
        return out

    def laid(self, image: Any) -> bool:
        """Whether every memory card lies in view: most of at least half its slots is pale
        paper (a bare table, a hand, a card on it are not; a token already lying on a slot
        when the camera starts -- a game resumed -- becomes part of that slot's picture)."""
        import cv2

        pale_slots = [0] * self.n
        for cell in self.watcher.reader.cells:
            h, w = cell.mask.shape
            patch = image[cell.y0:cell.y0 + h, cell.x0:cell.x0 + w]
            hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV)
            pale = (hsv[..., 1] < 90) & (hsv[..., 2] > 110) & cell.mask
            parsed = parse_slot_zone(cell.zone)
            if parsed is not None and pale.sum() >= 0.5 * cell.mask.sum():
                pale_slots[parsed[0]] += 1
        return all(count >= SLOTS // 2 for count in pale_slots)

    def forget(self) -> None:
        """Report every slot and scene again (after an undo)."""
        self.watcher.forget()
        for cell in self._scenes:
            cell.reported = None


#: A scene zone whose grey picture (normalised for the light) differs from its back by this
#: much on average is turned up; a hand moving over it is not read.
SCENE_UP = 0.35
#: ... and one that moved this much since the frame before is moving.
SCENE_MOVING = 0.12


@dataclass
class _SceneCell:
    """A scene's face from its grey picture against its back as laid: exposure and colour
    cast change the picture's mean and contrast, not its normalised pattern; a face is another
    pattern altogether."""

    x0: int
    y0: int
    x1: int
    y1: int
    back: Any = None
    prev: Any = None
    reading: str | None = None
    count: int = 0
    since_ns: int = 0
    reported: str | None = None

    @classmethod
    def of(cls, zone: Zone, size: tuple[int, int]) -> _SceneCell:
        xs = [p[0] for p in zone.polygon]
        ys = [p[1] for p in zone.polygon]
        w, h = size
        return cls(max(0, int(min(xs))), max(0, int(min(ys))), min(w, int(max(xs)) + 1),
                   min(h, int(max(ys)) + 1))

    def _thumb(self, image: Any) -> Any:
        import cv2
        import numpy as np

        patch = image[self.y0:self.y1, self.x0:self.x1]
        grey = cv2.resize(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY), (12, 16),
                          interpolation=cv2.INTER_AREA).astype(np.float32)
        return (grey - grey.mean()) / max(float(grey.std()), 4.0)

    def keep(self, image: Any) -> None:
        self.back = self._thumb(image)
        self.prev = self.back

    def read(self, image: Any, t_ns: int, stable: int) -> str | None:
        """The face once it held ``stable`` still frames and changed (None: nothing new)."""
        import numpy as np

        thumb = self._thumb(image)
        moved = float(np.abs(thumb - self.prev).mean()) if self.prev is not None else 0.0
        self.prev = thumb
        if moved > SCENE_MOVING:
            self.reading, self.count = None, 0
            return None
        face = "up" if float(np.abs(thumb - self.back).mean()) > SCENE_UP else "down"
        if face != self.reading:
            self.reading, self.count, self.since_ns = face, 1, t_ns
        else:
            self.count += 1
        if self.count >= stable and face != self.reported:
            self.reported = face
            return face
        return None


#: A token's side as a fraction of a slot's shorter side (the box's tokens nearly fill one).
TOKEN_SIDE = 0.7
