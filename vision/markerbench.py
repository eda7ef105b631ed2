"""Grid and marker recognition on the simulated table (眨眨眼 Wink), per colour.

``python -m vision.markerbench [--trials N] [--seed S]`` lays the 6x6 grid of the demo Wink
deck under each colour cast, calibrates the zones (``grid:6x6`` from the cards, as ``vision
calibrate`` does) and the marker palette (under a neutral light), then, per trial, lays the
grid (its cells' pictures kept, as at the start of a game), turns some cards face down, takes
some away, puts the eight markers on random cells (some half off their card), and reads every
cell with :class:`vision.markers.GridWatcher` and the card
recogniser. It prints the rates as JSON: face and number per cell, marker per colour, false
markers per unmarked cell. Then the same grid is taken to the end of a game (all but three
face-up cards without a marker and four with one left; the rest turned down or taken) and
read again: ``late_game``.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from vision.config import Zone, zones_from_cards
from vision.deck import Deck, load_deck
from vision.demo_decks import demo_deck
from vision.markers import MARKER_COLOURS, GridReader, GridWatcher, MarkerPalette, calibrate
from vision.simmarkers import place_marker
from vision.simtable import CASTS, Conditions, Pose, SimulatedTable


def wink_deck() -> Deck:
    return load_deck(demo_deck("wink"))


@dataclass
class SimGrid:
    """A simulated table with the Wink grid laid: handles and poses per cell."""

    table: SimulatedTable
    poses: dict[str, Pose] = field(default_factory=dict)
    cards: dict[str, int] = field(default_factory=dict)  # zone -> handle of its card
    numbers: dict[str, int] = field(default_factory=dict)
    markers: dict[str, int] = field(default_factory=dict)  # colour -> handle

    @classmethod
    def lay(cls, deck: Deck, *, seed: int, conditions: Conditions,
            numbers: list[int] | None = None, size: tuple[int, int] = (640, 480)) -> SimGrid:
        table = SimulatedTable(deck, seed=seed, conditions=conditions, size=size)
        order = numbers or random.Random(seed).sample(range(1, 37), 36)
        g = cls(table)
        for i, n in enumerate(order):
            zone = f"r{i // 6 + 1}c{i % 6 + 1}"
            pose = table.grid_pose(i // 6, i % 6)
            g.poses[zone] = pose
            g.cards[zone] = table.place(f"w{n:02d}", pose)
            g.numbers[zone] = n
        return g

    def zones(self) -> tuple[Zone, ...]:
        quads = [t.corners for t in self.table.truth() if t.card_id.startswith("w")]
        return zones_from_cards([[(float(x), float(y)) for x, y in q] for q in quads],
                                "grid:6x6")

    def put(self, colour: str, zone: str, off: tuple[float, float] = (0.0, 0.0)) -> None:
        self.lift(colour)
        self.markers[colour] = place_marker(self.table, colour, self.poses[zone], off=off)

    def lift(self, colour: str) -> None:
        h = self.markers.pop(colour, None)
        if h is not None:
            self.table.remove(h)

    def turn_down(self, zone: str) -> None:
        self.table.remove(self.cards[zone])
        self.cards[zone] = self.table.place_back(self.poses[zone])

    def take(self, zone: str) -> None:
        self.table.remove(self.cards.pop(zone))


def calibrated(deck: Deck, seed: int, conditions: Conditions) -> tuple[tuple[Zone, ...],
                                                                      MarkerPalette]:
    """Zones and palette as the host calibrates them: the grid laid, then each marker on a
    card of the first row and a half (r1c1..r2c2), one card turned down on r6c6."""
    g = SimGrid.lay(deck, seed=seed, conditions=conditions)
    zones = g.zones()
    before = g.table.capture().image
    placed = {}
    for i, colour in enumerate(MARKER_COLOURS):
        zone = f"r{i // 6 + 1}c{i % 6 + 1}"
        g.put(colour, zone)
        placed[colour] = zone
    g.turn_down("r6c6")
    frame = g.table.capture()
    return zones, calibrate(before, frame.image, zones, placed, back_zone="r6c6")


def run(trials: int = 6, seed: int = 1, casts: tuple[str, ...] = tuple(CASTS),
        surfaces: tuple[str, ...] = ("cloth", "wood", "dark")) -> dict[str, Any]:
    from vision.tracker import CardWatcher, zone_of

    deck = wink_deck()
    rng = random.Random(seed)
    marker_ok: Counter[str] = Counter()
    marker_n: Counter[str] = Counter()
    half_ok = half_n = 0
    faces_ok: Counter[str] = Counter()
    faces_n: Counter[str] = Counter()
    numbers_ok = numbers_n = 0
    false_markers = 0
    unmarked = 0
    late_ok: Counter[str] = Counter()
    late_n: Counter[str] = Counter()
    late_false = late_unmarked = 0
    late_what: Counter[str] = Counter()
    k = 0
    for surface in surfaces:
        zones, palette = calibrated(deck, seed, Conditions(surface=surface))
        for cast in casts:
            for _ in range(trials):
                k += 1
                cond = Conditions(surface=surface, cast=cast, noise_sigma=2.0, blur_sigma=0.6,
                                  exposure=rng.uniform(0.85, 1.1), gradient=0.15,
                                  gradient_angle=rng.uniform(0, 360))
                g = SimGrid.lay(deck, seed=seed * 1000 + k, conditions=cond)
                cells = list(g.poses)
                rng.shuffle(cells)
                down, gone = cells[:3], cells[3:6]
                up = list(cells[6:])
                reader = GridReader(zones, palette, g.table.size)
                watcher = GridWatcher(reader)
                cards = CardWatcher(deck)
                for _f in range(3):  # the grid as laid, no marker yet: its pictures kept
                    fr = g.table.capture()
                    if _f == 0:
                        watcher.set_references(fr.image)
                    watcher.process(fr.image, fr.t_ns)
                    cards.process(fr)
                for z in down:  # then play: cards named wrong, cards found or caught
                    g.turn_down(z)
                for z in gone:
                    g.take(z)
                where = {}
                halves = set()
                for i, colour in enumerate(MARKER_COLOURS):
                    z = up[i]
                    half = rng.random() < 0.25
                    off = (rng.choice((-0.5, 0.5)), 0.0) if half else (
                        rng.uniform(-0.15, 0.15), rng.uniform(-0.2, 0.2))
                    g.put(colour, z, off)
                    where[z] = colour
                    if half:
                        halves.add(z)
                for _f in range(4):
                    fr = g.table.capture()
                    watcher.process(fr.image, fr.t_ns)
                    cards.process(fr)
                settled = watcher.settled()
                seen_numbers = {}
                for cid, (x, y) in cards.on_table:
                    zn = zone_of(zones, x, y)
                    if zn is not None:
                        seen_numbers[zn] = int(cid[1:])
                for z in g.poses:
                    truth_face = "down" if z in down else "empty" if z in gone else "up"
                    face, marker = settled.get(z, ("?", None))
                    faces_n[truth_face] += 1
                    faces_ok[truth_face] += int(face == truth_face)
                    if truth_face == "up" and z not in where:
                        numbers_n += 1
                        numbers_ok += int(seen_numbers.get(z) == g.numbers[z])
                    if z in where:
                        c = where[z]
                        marker_n[c] += 1
                        marker_ok[c] += int(marker == c)
                        if z in halves:
                            half_n += 1
                            half_ok += int(marker == c)
                    else:
                        unmarked += 1
                        false_markers += int(marker is not None)
                # the end of the game: three unmarked face-up cards left, four markers on
                # theirs; the other four markers taken back with their cards (partners
                # found), every other card turned down or taken (the light is read from the
                # table around the grid then)
                plain = rng.sample([z for z in up if z not in where], 3)
                kept = dict(rng.sample(sorted(where.items()), 4))
                for z, c in [(z, c) for z, c in where.items() if z not in kept]:
                    g.lift(c)
                    g.take(z)
                for z in g.poses:
                    if z in kept or z in plain or z in down or z not in g.cards:
                        continue
                    if rng.random() < 0.3:
                        g.turn_down(z)
                    else:
                        g.take(z)
                for _f in range(12):
                    fr = g.table.capture()
                    watcher.process(fr.image, fr.t_ns)
                settled = watcher.settled()
                now = kept
                for z in g.poses:
                    marker = settled.get(z, ("?", None))[1]
                    if z in now:
                        late_n[now[z]] += 1
                        late_ok[now[z]] += int(marker == now[z])
                    else:
                        late_unmarked += 1
                        late_false += int(marker is not None)
                        if marker is not None:
                            face = settled.get(z, ("?", None))[0]
                            late_what[f"{face} {marker}"] += 1
    return {
        "grids": k, "conditions": {"casts": list(casts), "surfaces": list(surfaces)},
        "face": {f: f"{faces_ok[f]}/{faces_n[f]}" for f in faces_n},
        "number_unmarked_up": f"{numbers_ok}/{numbers_n}",
        "marker": {c: f"{marker_ok[c]}/{marker_n[c]}" for c in MARKER_COLOURS},
        "marker_half_off": f"{half_ok}/{half_n}",
        "false_markers": false_markers,
        "unmarked_cells": unmarked,
        "false_markers_per_unmarked_cell": round(false_markers / max(1, unmarked), 5),
        "late_game": {
            "marker": {c: f"{late_ok[c]}/{late_n[c]}" for c in MARKER_COLOURS},
            "false_markers": late_false, "unmarked_cells": late_unmarked,
            "false_read_as": dict(late_what),
            "false_markers_per_unmarked_cell": round(late_false / max(1, late_unmarked), 5)},
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.markerbench", description=__doc__)
    p.add_argument("--trials", type=int, default=4, help="grids per surface and cast")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args(argv)
    print(json.dumps(run(a.trials, a.seed), ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
