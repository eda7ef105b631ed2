"""Player markers on the simulated table (眨眨眼 Wink), drawn through its public API.

A marker is a small solid token in a player's colour. It is laid with
:meth:`vision.simtable.SimulatedTable.place_foreign` (a "card" of no deck whose picture is the
token), so it gets the table's light, colour cast, drop shadow, blur, noise and the passing
hand like any card -- :mod:`vision.simtable` itself is not changed::

    table = SimulatedTable(deck, seed=1)
    h = place_marker(table, "red", table.grid_pose(2, 3))        # on the card of r3c4
    place_marker(table, "white", pose, off=(0.5, 0.0))           # half off its card
    table.remove(h)

The truth of a marker is a :class:`vision.simtable.TruthCard` labelled ``marker-<colour>``.
"""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any

import cv2
import numpy as np

from vision.camera import Image
from vision.markers import MARKER_BGR
from vision.simtable import Conditions, Pose, SimulatedTable

#: Markers are this fraction of the width of the card they lie on.
MARKER_SIZE = 0.42
#: An unknown token's colour (no player's): the tests' "unknown marker".
ODD_BGR = (200, 200, 40)  # a cyan token


def marker_image(colour: str | tuple[int, int, int], px: int = 64) -> Image:
    """A square token picture: the colour, a slightly darker rim (painted wood)."""
    bgr = MARKER_BGR[colour] if isinstance(colour, str) else colour
    img = np.empty((px, px, 3), np.uint8)
    img[...] = bgr
    rim = tuple(round(c * 0.7) for c in bgr)
    cv2.rectangle(img, (0, 0), (px - 1, px - 1), rim, max(2, px // 16))
    return img


def marker_label(colour: str) -> str:
    return f"marker-{colour}"


def place_marker(table: SimulatedTable, colour: str | tuple[int, int, int], on: Pose, *,
                 off: tuple[float, float] = (0.0, 0.0), size: float = MARKER_SIZE,
                 label: str | None = None) -> int:
    """Lay a marker on the card lying at ``on``: at its centre, moved by ``off`` (fractions
    of the card's width, along the card's own axes: (0.5, 0) is half a card to the right,
    so a marker of the default size lies half off the card). Returns its handle."""
    a = math.radians(on.angle)
    dx, dy = off[0] * on.width, off[1] * on.width
    pose = Pose(x=on.x + dx * math.cos(a) - dy * math.sin(a),
                y=on.y + dx * math.sin(a) + dy * math.cos(a),
                angle=on.angle + 7.0, width=on.width * size)
    name = label or (marker_label(colour) if isinstance(colour, str) else "marker-odd")
    return table.place_foreign(pose, image=marker_image(colour), label=name)


def sim_table(deck: Any, camera: Any, cast: str | None = None) -> SimulatedTable:
    """A simulated table as ``[camera] source = "sim"`` opens it (``camera``: a
    :class:`vision.camera.CameraConfig`: its seed, size, surface); ``cast``: its light's
    colour cast instead of the one the seed draws."""
    surface = None if camera.sim_surface == "random" else camera.sim_surface
    conditions = None
    if cast is not None:
        conditions = dataclasses.replace(
            Conditions.random(random.Random(camera.sim_seed), surface), cast=cast)
    return SimulatedTable(deck, seed=camera.sim_seed, size=camera.size, surface=surface,
                          conditions=conditions)


def sim_grid_zones(deck: Any, camera: Any) -> tuple[Any, ...]:
    """The 36 cells of the grid on the simulated camera of ``camera`` (the poses of
    :meth:`vision.simtable.SimulatedTable.grid_pose`, laid in row order), as ``vision
    calibrate --layout grid:6x6`` would find them."""
    from vision.config import zones_from_cards

    table = sim_table(deck, camera)
    for i in range(36):
        table.place(deck.ids[i % len(deck.ids)], table.grid_pose(i // 6, i % 6))
    quads = [[(float(x), float(y)) for x, y in t.corners] for t in table.truth()]
    return tuple(zones_from_cards(quads, "grid:6x6"))
