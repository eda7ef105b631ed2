"""The simulated table's part in the set-up steps of zones and markers (issue 28).

``demo --from-scratch`` and the tests act on what a step wants without knowing the step:
:func:`lay_zone_cards` lays cards where a layout's zones are -- where the demo's simulated
players then play (The Game's four piles of :func:`tablekeeper.games.the_game.simdriver.
row_pose`, Wink's 6x6 grid of :meth:`vision.simtable.SimulatedTable.grid_pose`,
Eselsbrücke's row of tiles, 什麼不見啦's centre pile), so the zones the step finds are the
ones the game is then read in; :func:`lay_markers` lays marker colours on their cells.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from tablekeeper.tablesetup.step import Want
from vision.simtable import Pose

#: Eselsbrücke's tiles: the middle row of a 3x5 grid (its simulated storyteller's places).
AREA_GRID = (1, 3, 5)
#: The same want asked this many times more (ticks): the cards are laid again, nudged.
NUDGE_AFTER = 90


def zone_poses(table: Any, layout: str) -> list[Pose]:
    """Where the cards of ``layout`` lie on the simulated ``table`` (see the module
    docstring). ValueError for a layout it does not lay."""
    w, h = table.size
    kind, _, arg = layout.partition(":")
    if kind == "pile":
        return [Pose(x=w * 0.5, y=h * 0.5, angle=4.0, width=w * 0.08)]
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


def lay_zone_cards(table: Any, layout: str, card_ids: Sequence[str],
                   nudge: random.Random | None = None) -> list[int]:
    """Lay a card (``card_ids`` in turn) on each place of ``layout``; their handles.
    ``nudge``: each a little off its place (a host laying them again)."""
    poses = zone_poses(table, layout)
    if nudge is not None:
        w = table.size[0]
        poses = [Pose(p.x + nudge.gauss(0, 0.01 * w), p.y + nudge.gauss(0, 0.01 * w),
                      p.angle + nudge.uniform(-8, 8), p.width) for p in poses]
    return [table.place(card_ids[i % len(card_ids)], pose) for i, pose in enumerate(poses)]


def lay_markers(table: Any, cells: Mapping[str, Pose], placed: Mapping[str, str]) -> list[int]:
    """Lay each marker colour of ``placed`` (colour -> cell) on the card of its cell."""
    from vision.simmarkers import place_marker

    return [place_marker(table, colour, cells[cell]) for colour, cell in placed.items()]


class SimZones:
    """The simulated table's hands in the zones and markers steps: :meth:`act` does what a
    :class:`~tablekeeper.tablesetup.step.Want` of kind ``cards_in_zones`` or ``marker``
    asks, on the simulated ``table``, knowing the game only by its kit's ``zone_layout``: the
    layout's cards (a want naming no zone), or a card on each named cell of the grid.
    ``card_ids``: the cards it lays (the game's deck)."""

    def __init__(self, table: Any, layout: str, card_ids: Sequence[str]) -> None:
        self.table = table
        self.layout = layout
        self.card_ids = list(card_ids)
        self.cells: dict[str, Pose] = {}
        self.laid: Want | None = None
        self.ring: Any = None
        self._waited = 0
        self.nudges = 0  # times the cards were laid again, the step not seeing them
        self.cards_laid = 0
        self.markers_laid = 0

    def act(self, want: Want) -> bool:
        """Do ``want`` at the table; False if it is not the table's to do (or done)."""
        if want.kind == "cards_in_zones":
            if want == self.laid:
                # the step still does not see them: now and then the host straightens the
                # cards (a little elsewhere, turned a little) and tries again
                self._waited += 1
                if self._waited % NUDGE_AFTER:
                    return False
                self.nudges += 1
            else:
                self._waited = 0
            self.laid = want
            self.table.clear()
            if self.layout.startswith("pile+ring:"):  # the zones' cards, or the ring again
                self.cards_laid += self._lay_ring(int(self.layout.partition(":")[2]))
                return True
            grid = self.layout.startswith("grid:")
            if grid and want.zones:  # a card on each cell (the markers' first frame)
                rows, cols = (int(v) for v in self.layout.partition(":")[2].split("x"))
                for i, name in enumerate(want.zones):
                    pose = self.table.grid_pose(i // cols, i % cols, rows, cols)
                    self.cells[name] = pose
                    self.table.place(self.card_ids[i % len(self.card_ids)], pose)
                self.cards_laid += len(want.zones)
            else:
                self.cards_laid += len(lay_zone_cards(
                    self.table, self.layout, self.card_ids,
                    random.Random(self.nudges) if self.nudges else None))
            return True
        if want.kind == "marker" and want.colour is not None and want.where is not None:
            pose = self._pose_at(want.where)
            if want.colour == "back":
                self.table.place_back(Pose(pose.x, pose.y, pose.angle, pose.width))
            else:
                from vision.simmarkers import place_marker

                place_marker(self.table, want.colour, pose)
            self.markers_laid += 1
            return True
        return False

    def _lay_ring(self, n: int) -> int:
        """A card where the pile goes and 什麼不見啦's ring round it
        (:class:`vision.simring.SimRing`, as the game's demo lays it)."""
        from vision.simring import SimRing

        self.table.place(self.card_ids[0], zone_poses(self.table, "pile")[0])
        self.ring = SimRing.lay(self.table, n, jitter=3.0 + 3 * self.nudges, seed=self.nudges)
        return 2 * n + 1

    def _pose_at(self, box: tuple[float, float, float, float]) -> Pose:
        """The card lying in ``box`` (normalised), or a card-sized pose at its centre."""
        w, h = self.table.size
        cx, cy = (box[0] + box[2] / 2) * w, (box[1] + box[3] / 2) * h
        near = [p for p in self.cells.values()
                if abs(p.x - cx) < box[2] * w / 2 and abs(p.y - cy) < box[3] * h / 2]
        return near[0] if near else Pose(cx, cy, 0.0, min(box[2] * w, box[3] * h) * 0.8)


# -- the simulated host's hands (tablekeeper.tablesetup.simhost.HANDS) -------------------------

_hands: dict[int, tuple[Any, SimZones]] = {}


def _hands_for(table: Any, want: Want) -> SimZones | None:
    """The table's hands for the layout the want names (``hint_params`` ``layout``)."""
    layout = str(dict(want.hint_params).get("layout", ""))
    kept = _hands.get(id(table))
    if kept is not None and kept[0] is table and (not layout or kept[1].layout == layout):
        return kept[1]
    if not layout:
        return None
    hands = SimZones(table, layout, list(table.deck.ids))
    _hands[id(table)] = (table, hands)
    return hands


def lay_zones(table: Any, want: Want, rng: Any = None) -> bool:
    """``cards_in_zones``: lay the layout's cards (or a card on each named cell); True if
    the table changed."""
    hands = _hands_for(table, want)
    return hands.act(want) if hands is not None else False


def lay_marker(table: Any, want: Want, rng: Any = None) -> bool:
    """``marker``: lay the colour at its place (``back``: a card face down there)."""
    hands = _hands_for(table, want)
    if hands is None:
        hands = SimZones(table, "", list(table.deck.ids))
        _hands[id(table)] = (table, hands)
    return hands.act(want)
