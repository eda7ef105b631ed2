"""``tablekeeper bench tilt`` (issue 37 item 3): cards in the far half of a table seen by a
camera that is not straight above it.

A 4 x 4 grid of cards of each demo deck (60 px wide at 640 px, a little turned) on the
simulated table under a room's light (``Conditions.random``), seen by a camera leaning back
``tilt`` degrees from straight down (``Conditions.tilt``, a pinhole view: the far rows smaller
and foreshortened). Each card wholly in view is judged in one frame (``CardWatcher.observe``,
the stream's own recognition): found (a card or a region there), named right, named wrong;
the far half (the two rows away from the camera) against the near half. Rows per finder
setting, all in one process: the defaults, then the settings a tilted camera can be given
(``[vision.find] aspect_tolerance``, and the frame searched at its full width,
``work_width``).
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

#: The decks the grids are laid from (the demo decks with a card shape).
DECKS = ("the-game", "wink", "something-missing-items")
#: Finder settings measured: (label, frame width, work_width, aspect_tolerance).
SETTINGS = (("default (640 px, aspect 0.22)", 640, 640, 0.22),
            ("aspect_tolerance 0.5", 640, 640, 0.5),
            ("1280 px searched whole, aspect 0.22", 1280, 1280, 0.22),
            ("1280 px searched whole, aspect_tolerance 0.5", 1280, 1280, 0.5))


@dataclass
class Half:
    cards: int = 0
    found: int = 0
    named: int = 0
    wrong: int = 0
    sides: list[float] = field(default_factory=list)

    def row(self) -> str:
        n = max(1, self.cards)
        side = statistics.median(self.sides) if self.sides else float("nan")
        return (f"{self.cards} cards, found {100 * self.found / n:.1f} %, named "
                f"{100 * self.named / n:.1f} %, wrong {self.wrong}, short side {side:.0f} px")


def measure(decks: dict[str, Any], tilt: float, size: tuple[int, int], work_width: int,
            aspect_tolerance: float, seeds: int = 2) -> dict[str, Half]:
    """Far and near halves' figures over ``seeds`` grids a deck."""
    from vision.config import VisionConfig
    from vision.find import FindParams
    from vision.simtable import Conditions, Pose, SimulatedTable
    from vision.tracker import CardWatcher

    out = {"far": Half(), "near": Half()}
    w, h = size
    config = VisionConfig(find=FindParams(work_width=work_width,
                                          aspect_tolerance=aspect_tolerance))
    for deck in decks.values():
        watcher = CardWatcher(deck, config)
        for seed in range(seeds):
            rng = random.Random(seed)
            cond = replace(Conditions.random(rng), keystone=0.0, tilt=tilt)
            table = SimulatedTable(deck, seed=seed, conditions=cond, size=size)
            half: dict[int, str] = {}
            for k, cid in enumerate(rng.sample(list(deck.ids), 16)):
                r, c = divmod(k, 4)
                pose = Pose(w * (0.125 + 0.25 * c) + rng.uniform(-6, 6),
                            h * (0.125 + 0.25 * r) + rng.uniform(-4, 4),
                            angle=rng.uniform(-15, 15), width=60 * w / 640)
                half[table.place(cid, pose)] = "far" if r < 2 else "near"
            obs = watcher.observe(table.capture().image)
            for t in table.truth():
                if t.visible < 0.99:
                    continue
                cx, cy = t.corners.mean(axis=0)
                e = np.linalg.norm(np.roll(t.corners, -1, axis=0) - t.corners, axis=1)
                side = float(e.min())
                f = out[half[t.handle]]
                f.cards += 1
                f.sides.append(side)
                here = [o for o in obs if np.hypot(o.centre[0] - cx, o.centre[1] - cy) < side / 2]
                f.found += bool(here)
                if any(o.card_id == t.card_id for o in here):
                    f.named += 1
                elif any(o.card_id is not None for o in here):
                    f.wrong += 1
    return out


def main(tilts: tuple[float, ...] = (0.0, 20.0, 35.0, 50.0), seeds: int = 2) -> int:
    from vision.deck import load_deck
    from vision.demo_decks import demo_deck

    with tempfile.TemporaryDirectory() as tmp:
        decks = {n: load_deck(demo_deck(n, Path(tmp))) for n in DECKS}
        print(f"bench tilt: {', '.join(DECKS)}, a 4x4 grid of cards 60 px wide (at 640 px) "
              f"x {seeds} seeds a deck; a camera leaning back from straight down; far half "
              "(the 2 rows away from it) / near half", flush=True)
        for label, width, work, aspect in SETTINGS:
            print(f"  {label}:", flush=True)
            for tilt in tilts:
                got = measure(decks, tilt, (width, width * 3 // 4), work, aspect, seeds)
                print(f"    tilt {tilt:.0f} deg: far {got['far'].row()}; near "
                      f"{got['near'].row()}", flush=True)
    sys.stdout.flush()
    return 0
