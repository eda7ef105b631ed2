"""A zone: a named region of the table in frame pixels (:class:`Zone`), and :data:`Point`.

On its own because the config that reads the zones (:mod:`vision.config`) and the readers that
watch them (:mod:`vision.ring`, :mod:`vision.markers`) all use it, and the config makes a ring's
zones with :mod:`vision.ring` (issue 42: no import circles). :mod:`vision.config` re-exports
both names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Point = tuple[float, float]


@dataclass(frozen=True)
class Zone:
    """A named region of the table in frame pixels (a polygon, clockwise or not)."""

    name: str
    polygon: tuple[Point, ...]

    def __post_init__(self) -> None:
        if not self.name or not isinstance(self.name, str):
            raise ValueError("zone name must be a non-empty string")
        if len(self.polygon) < 3:
            raise ValueError(f"zone {self.name!r}: a polygon needs at least 3 points")

    def contains(self, x: float, y: float) -> bool:
        """Is (x, y) inside the polygon (ray casting; points on an edge may go either way)?"""
        inside = False
        pts = self.polygon
        j = len(pts) - 1
        for i in range(len(pts)):
            xi, yi = pts[i]
            xj, yj = pts[j]
            if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
                inside = not inside
            j = i
        return inside

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "polygon": [[round(x, 2), round(y, 2)] for x, y in self.polygon]}
