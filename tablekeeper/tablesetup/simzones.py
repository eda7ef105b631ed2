"""The simulated table's part in the set-up steps of zones and markers (issue 28).

``demo --from-scratch`` and the tests act on what a step wants without knowing the step:
:func:`lay_zone_cards` lays cards where a layout's zones are -- where the demo's simulated
players then play (The Game's four piles of :func:`tablekeeper.games.the_game.simdriver.
row_pose`, Wink's 6x6 grid of :meth:`vision.simtable.SimulatedTable.grid_pose`,
Eselsbrücke's row of tiles, 什麼不見啦's centre pile), so the zones the step finds are the
ones the game is then read in; :func:`lay_markers` lays marker colours on their cells.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from vision.simtable import Pose

#: Eselsbrücke's tiles: the middle row of a 3x5 grid (its simulated storyteller's places).
AREA_GRID = (1, 3, 5)


def zone_poses(table: Any, layout: str) -> list[Pose]:
    """Where the cards of ``layout`` lie on the simulated ``table`` (see the module
    docstring). ValueError for a layout it does not lay."""
    w, h = table.size
    kind, _, arg = layout.partition(":")
    if kind == "pile":
        return [Pose(x=w * 0.5, y=h * 0.5, angle=4.0, width=w * 0.15)]
    if kind == "rows":
        n = int(arg)
        step = 0.72 / max(1, n - 1)
        return [Pose(x=w * (0.14 + step * i), y=h * 0.5, angle=(-3.0, 2.0)[i % 2],
                     width=w * 0.15) for i in range(n)]
    if kind == "grid":
        rows, cols = (int(v) for v in arg.lower().split("x"))
        return [table.grid_pose(r, c, rows, cols, jitter=0.0)
                for r, c in ((0, 0), (0, cols - 1), (rows - 1, 0), (rows - 1, cols - 1))]
    if kind == "area":
        row, rows, cols = AREA_GRID
        return [table.grid_pose(row, c, rows=rows, cols=cols, jitter=0.0)
                for c in (0, cols - 1)]
    raise ValueError(f"the simulated table does not lay layout {layout!r}")


def lay_zone_cards(table: Any, layout: str, card_ids: Sequence[str]) -> list[int]:
    """Lay a card (``card_ids`` in turn) on each place of ``layout``; their handles."""
    poses = zone_poses(table, layout)
    return [table.place(card_ids[i % len(card_ids)], pose) for i, pose in enumerate(poses)]


def lay_markers(table: Any, cells: Mapping[str, Pose], placed: Mapping[str, str]) -> list[int]:
    """Lay each marker colour of ``placed`` (colour -> cell) on the card of its cell."""
    from vision.simmarkers import place_marker

    return [place_marker(table, colour, cells[cell]) for colour, cell in placed.items()]
