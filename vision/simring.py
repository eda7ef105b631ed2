"""什麼不見啦's ring on the simulated table: scene cards (back / face up), memory cards with
their six slots, and the players' square tokens landing in them.

Everything is laid through :class:`vision.simtable.SimulatedTable`'s public API (the memory
cards, scene faces and tokens as foreign cards), so it gets the table's light, colour cast,
shadows, blur, noise and the passing hand like any card::

    ring = SimRing.lay(table, 5, scenes=(3, 7, 1, 12, 9))
    ring.put_token("red", position=2)          # into the next empty slot of memory card 3
    ring.turn_up(2); ring.turn_down(2)
    ring.zones()                                # the zones `vision calibrate --layout ring:5`
                                                # would give, from the laid cards' corners
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.camera import Image
from vision.config import Zone
from vision.markers import MARKER_BGR
from vision.ring import SLOTS, ring_zones_from_cards, slot_box
from vision.simmarkers import marker_image
from vision.simtable import Pose, SimulatedTable

#: A memory card's picture (px) and paper.
MEMORY_PX = (180, 120)
MEMORY_PAPER = (214, 232, 240)  # cream
#: The slot labels of the box: 0/+1, -1, -1, -2, -3, -3.
SLOT_LABELS = ("0/+1", "-1", "-1", "-2", "-3", "-3")
#: A token's side as a fraction of a slot's width.
TOKEN_OF_SLOT = 0.72


def memory_card_image() -> Image:
    """A memory card: cream paper, six slots (thin frames, their labels in a corner)."""
    w, h = MEMORY_PX
    img = np.empty((h, w, 3), np.uint8)
    img[...] = MEMORY_PAPER
    cv2.rectangle(img, (2, 2), (w - 3, h - 3), (120, 150, 170), 2)
    for slot in range(1, SLOTS + 1):
        u0, v0, u1, v1 = slot_box(slot)
        p0 = (round(u0 * w), round(v0 * h))
        p1 = (round(u1 * w), round(v1 * h))
        cv2.rectangle(img, p0, p1, (150, 175, 190), 1)
        cv2.putText(img, SLOT_LABELS[slot - 1], (p0[0] + 3, p0[1] + 11),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.3, (110, 130, 150), 1, cv2.LINE_AA)
    return img


@dataclass
class SimRing:
    """The ring laid on a simulated table: handles and poses per position."""

    table: SimulatedTable
    scene_poses: list[Pose]
    memory_poses: list[Pose]
    scenes: list[int]  # the scene card (1..15 of the demo scene deck) at each position
    scene_handles: list[int] = field(default_factory=list)
    faces: list[str] = field(default_factory=list)  # "down" / "up" per position
    memory_handles: list[int] = field(default_factory=list)
    #: per position: the tokens in slot order, (colour, handle)
    tokens: list[list[tuple[str, int]]] = field(default_factory=list)

    @classmethod
    def lay(cls, table: SimulatedTable, n: int, scenes: tuple[int, ...] | None = None, *,
            jitter: float = 3.0, seed: int = 0) -> SimRing:
        """Lay ``n`` scenes face down and their memory cards round the centre."""
        rng = random.Random(seed)
        w, h = table.size
        # (sized so that no memory card touches its scene, its neighbours or the centre pile
        # at 4:3, whatever N: the calibration finds each card apart)
        scene_w = 0.075 * w
        memory_w = 0.13 * w
        s_poses, m_poses = [], []
        for p in range(n):
            a = -math.pi / 2 + 2 * math.pi * p / n
            s_poses.append(Pose(x=w / 2 + math.cos(a) * 0.40 * w,
                                y=h / 2 + math.sin(a) * 0.40 * h,
                                angle=rng.uniform(-jitter, jitter), width=scene_w))
            m_poses.append(Pose(x=w / 2 + math.cos(a) * 0.25 * w,
                                y=h / 2 + math.sin(a) * 0.215 * h,
                                angle=rng.uniform(-jitter, jitter), width=memory_w))
        ring = cls(table, s_poses, m_poses, list(scenes or range(1, n + 1)))
        memory = memory_card_image()
        for p in range(n):
            ring.memory_handles.append(table.place_foreign(m_poses[p], image=memory,
                                                           label=f"memory{p + 1}"))
            ring.scene_handles.append(table.place_back(s_poses[p]))
            ring.faces.append("down")
            ring.tokens.append([])
        return ring

    @property
    def n(self) -> int:
        return len(self.scene_poses)

    def zones(self) -> tuple[Zone, ...]:
        """The ring's zones as ``vision calibrate --layout ring:N`` finds them (from the laid
        cards' corners; tokens are ignored)."""
        mine = set(self.scene_handles) | set(self.memory_handles)
        quads = [[(float(x), float(y)) for x, y in t.corners] for t in self.table.truth()
                 if t.handle in mine]
        return ring_zones_from_cards(quads, self.n)

    # --- scenes ------------------------------------------------------------------------------

    def turn_up(self, position: int) -> None:
        if self.faces[position] == "up":
            return
        from vision.demo_decks import scene_card

        self.table.remove(self.scene_handles[position])
        self.scene_handles[position] = self.table.place_foreign(
            self.scene_poses[position], image=scene_card(self.scenes[position]),
            label=f"scene-s{self.scenes[position]:02d}")
        self.faces[position] = "up"

    def turn_down(self, position: int) -> None:
        if self.faces[position] == "down":
            return
        self.table.remove(self.scene_handles[position])
        self.scene_handles[position] = self.table.place_back(self.scene_poses[position])
        self.faces[position] = "down"

    def swap(self, a: int, b: int) -> None:
        """Two scene cards change places (the reset's swap): their cards go with them."""
        self.scenes[a], self.scenes[b] = self.scenes[b], self.scenes[a]
        for p in (a, b):
            if self.faces[p] == "up":
                self.turn_down(p)

    def replace(self, position: int, scene: int) -> None:
        self.scenes[position] = scene

    # --- tokens ------------------------------------------------------------------------------

    def slot_pose(self, position: int, slot: int, off: tuple[float, float] = (0.0, 0.0),
                  angle: float = 0.0) -> Pose:
        """Where a token lies in ``slot`` (1..6): the slot's centre, moved by ``off``
        (fractions of the slot's width, along the card's axes)."""
        m = self.memory_poses[position]
        mw, mh = MEMORY_PX
        card_h = m.width * mh / mw
        u0, v0, u1, v1 = slot_box(slot)
        side = (u1 - u0) * m.width
        lx = ((u0 + u1) / 2 - 0.5) * m.width + off[0] * side
        ly = ((v0 + v1) / 2 - 0.5) * card_h + off[1] * side
        a = math.radians(m.angle)
        return Pose(x=m.x + lx * math.cos(a) - ly * math.sin(a),
                    y=m.y + lx * math.sin(a) + ly * math.cos(a),
                    angle=m.angle + angle, width=side * TOKEN_OF_SLOT)

    def put_token(self, colour: str | tuple[int, int, int], position: int, *,
                  slot: int | None = None, off: tuple[float, float] = (0.0, 0.0),
                  angle: float = 0.0) -> int:
        """A player's square token into the next empty slot of the memory card at
        ``position`` (``slot``: into that one instead). Returns the slot."""
        chosen = slot if slot is not None else len(self.tokens[position]) + 1
        if not 1 <= chosen <= SLOTS:
            raise ValueError(f"memory card {position + 1} has no slot {chosen}")
        bgr = MARKER_BGR[colour] if isinstance(colour, str) else colour
        name = colour if isinstance(colour, str) else "odd"
        handle = self.table.place_foreign(self.slot_pose(position, chosen, off, angle),
                                          image=marker_image(bgr), label=f"token-{name}")
        self.tokens[position].append((name, handle))
        return chosen

    def take_tokens(self) -> None:
        """Every token goes back to its player (the round is over)."""
        for pos in range(self.n):
            for _c, h in self.tokens[pos]:
                self.table.remove(h)
            self.tokens[pos] = []
