"""How long the zones, markers and buttons steps take on the simulated table (issue 28's
closing note): per game, the host's presses (through the one focus: *next* and *confirm*
counted), the camera frames the step looked at, the table's actions, and the seconds of CPU
the step used; the frames are 0.3 s apart on the step's clock, so that clock's seconds are
what the host would wait at a real table with this camera rate.

    python -m tablekeeper.tablesetup.simbench [--seed N]

Figures only (nothing asserted): the simulated host presses *confirm* as soon as the step
wants it.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path
from typing import Any

FRAME_NS = 300_000_000


def _drive(step: Any, table: Any, hands: Any, limit: int = 200) -> dict[str, float]:
    """Feed frames, do the step's wants; the figures of the run."""
    from display.input import HostAction

    t = 0
    frames = confirms = table_acts = 0
    cpu = time.process_time()
    for _ in range(limit):
        if step.done:
            break
        t += FRAME_NS
        step.frame(table.capture().image, t)
        frames += 1
        want = step.wants()
        if want.kind == "confirm":
            step.act(HostAction(want.action), t)
            confirms += 1
        elif hands.act(want):
            table_acts += 1
    return {"done": float(step.done), "frames": frames, "confirms": confirms,
            "table_acts": table_acts, "clock_s": t / 1e9,
            "cpu_s": round(time.process_time() - cpu, 2)}


def run(seed: int = 1) -> list[dict[str, Any]]:
    from tablekeeper import games
    from tablekeeper.tablesetup.markers import MarkersStep
    from tablekeeper.tablesetup.simzones import SimZones
    from tablekeeper.tablesetup.zones import ZonePlan, ZonesStep
    from vision.camera import CameraConfig
    from vision.deck import load_deck
    from vision.demo_decks import demo_deck
    from vision.simmarkers import sim_table

    decks = {"something-missing": "something-missing-items", "the-game": "the-game",
             "wink": "wink", "eselsbruecke": "eselsbruecke"}
    out: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="tk-setup-bench-") as tmp:
        for name in games.names():
            kit = games.load(name)
            if kit.zone_layout is None:
                continue
            deck = load_deck(demo_deck(decks[name]))
            camera = CameraConfig.from_dict({"sim_seed": seed})
            table = sim_table(deck, camera)
            config = Path(tmp) / f"{name}.toml"
            step = ZonesStep(ZonePlan(kit.zone_layout, kit.zone_names), deck.size, config)
            hands = SimZones(table, kit.zone_layout, deck.ids)
            out.append({"game": name, "step": "zones", **_drive(step, table, hands)})
            if kit.markers:
                markers = MarkersStep(step.zones, Path(tmp) / f"{name}-markers.json",
                                      mode=kit.markers, camera_size=camera.size)
                out.append({"game": name, "step": "markers",
                            **_drive(markers, table, hands)})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    random.seed(args.seed)
    print(f"{'game':<18} {'step':<8} {'done':>4} {'frames':>6} {'confirms':>8} "
          f"{'table':>5} {'clock s':>7} {'cpu s':>6}")
    for row in run(args.seed):
        print(f"{row['game']:<18} {row['step']:<8} {int(row['done']):>4} {row['frames']:>6} "
              f"{row['confirms']:>8} {row['table_acts']:>5} {row['clock_s']:>7.1f} "
              f"{row['cpu_s']:>6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
