"""``tablekeeper demo``: a complete simulated game of 什麼不見啦 through the real code paths.

Simulated players (:mod:`tablekeeper.simplayers`, :mod:`tablekeeper.simdriver`) lay item cards
under a simulated camera (:class:`vision.simtable.SimulatedTable`), the real vision pipeline
recognises them, the players press gpiozero mock buttons with human reaction times (and
sometimes too early), the real arbiter picks the first edge, the engine referees, the journal
records every event, and the screen shows it all.

With a display it opens a window and plays in real time (``--speed`` to hurry it); with
``--headless``, or where no display exists, it runs on SDL's dummy driver on a simulated clock
as fast as the machine allows, writing a PNG of every screen it passes through and the journal
into ``--out`` (default: a new folder it names).
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import resource
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.something_missing import Variant, outcome
from firmware.box import Firmware, build
from firmware.config import FirmwareConfig
from firmware.mock import mock_factory
from tablekeeper.app import CardSource, Loop, Screen
from tablekeeper.clock import Clock, FakeClock, MonotonicClock
from tablekeeper.journal import JournaledGame
from tablekeeper.referee import Referee
from tablekeeper.simdriver import DemoTable, card_id
from tablekeeper.simplayers import SimTable


def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


@dataclass
class DemoParts:
    loop: Loop
    table: DemoTable
    sim: SimTable
    firmware: Firmware
    journal_path: Path
    camera: Any | None


def scene_truth(n_scenes: int) -> tuple[frozenset[int], ...]:
    """Which items each demo scene card shows (from the demo scene deck), so the simulated
    players remember what the scene pictures on screen really show."""
    from vision.demo_decks import scene_contents

    # the demo decks number scenes 1-15 and items 1-66; the engine counts from 0
    return tuple(frozenset(i - 1 for i in scene_contents(s + 1)) for s in range(n_scenes))


def build_demo(out: Path, *, seed: int, players: int, variant: str, clock: Clock,
               camera: bool = True, cards: CardSource | None = None,
               screen: Screen | None = None, journal_name: str = "game.jsonl",
               deck: Any | None = None, threaded: bool = False) -> DemoParts:
    """``deck``: the item deck the simulated camera shows (default: the demo deck); the demo
    passes the one its screen holds, so the templates are in memory once. ``threaded``: the
    camera is read by a background thread (real clocks: the windowed demo); otherwise inline,
    so a game on a simulated clock is the same every time."""
    rng = random.Random(seed)
    sim = SimTable.generate(rng, players, Variant(variant))
    sim = dataclasses.replace(sim, items_in_scene=scene_truth(len(sim.items_in_scene)))
    factory = mock_factory()
    config = FirmwareConfig.from_dict({"backend": "gpio", "sound": {"kind": "none"}})
    firmware = build(config, factory, rng=random.Random(seed + 1), clock=clock.now_ns)
    seat_pins = [factory.pin(p) for p in config.pins.seats]
    out.mkdir(parents=True, exist_ok=True)
    journal_path = out / journal_name
    if journal_path.exists():
        game = JournaledGame.open(journal_path)
    else:
        game = JournaledGame.create(journal_path)
    referee = Referee(game, firmware, clock.now_ns(),
                      card_ids={card_id(i): i for i in range(66)}, game_id=f"demo-{seed}")
    sim_camera = None
    if camera and cards is None:
        from tablekeeper.vision_link import simulated_camera_pipeline

        sim_camera, cards = simulated_camera_pipeline(clock, seed, deck, threaded=threaded)
    table = DemoTable(sim, referee, rng, camera=sim_camera, seat_pins=seat_pins)
    loop = Loop(referee, clock, cards=cards, screen=screen, table=table)
    return DemoParts(loop, table, sim, firmware, journal_path, sim_camera)


def scoreboard(parts: DemoParts) -> str:
    state = parts.loop.referee.state
    lines = [f"什麼不見啦 Something Is Missing — {state.variant.value}, round {state.round}"]
    result = outcome(state)
    winners = set(result.winners) if result else set()
    for seat, player in sorted(enumerate(state.players), key=lambda sp: -sp[1].score):
        crown = "  ★ 贏家 winner" if seat in winners else ""
        lines.append(f"  {player.name:<18} {player.colour:<7} {player.score:>3} 分 points"
                     f"{crown}")
    if result:
        lines.append(f"結束 Game over: {result.reason.value}")
    return "\n".join(lines)


def run_demo(args: Any) -> int:
    headless = bool(args.headless) or not has_display()
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="tablekeeper-demo-"))
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    clock: Clock
    if headless:
        clock = FakeClock()
    else:
        from tablekeeper.screen import ScaledClock

        clock = ScaledClock(MonotonicClock(), args.speed)
    from tablekeeper.screen import PygameScreen
    from tablekeeper.vision_link import item_cards, load_items_deck

    deck = load_items_deck(None)  # one copy, shared by the screen and the simulated camera
    screen = PygameScreen(size=tuple(args.size), fullscreen=False, lang=args.lang,
                          png_dir=out if headless else None, title="tablekeeper demo",
                          cards=item_cards(deck))
    parts = build_demo(out, seed=args.seed, players=args.players, variant=args.variant,
                       clock=clock, camera=not args.no_camera, screen=screen, deck=deck,
                       threaded=not headless)
    print(f"tablekeeper demo: {args.players} players, {args.variant}, seed {args.seed}"
          f"{' (headless)' if headless else ''}; writing to {out}", file=sys.stderr)
    try:
        if headless:
            parts.loop.run_simulated()
        else:
            from tablekeeper.screen import run_realtime

            run_realtime(parts.loop)
    finally:
        if parts.loop.cards is not None:
            parts.loop.cards.close()
        screen.close()
        parts.firmware.close()
    print(scoreboard(parts))
    cards = parts.loop.cards
    summary = {"journal": str(parts.journal_path), "out": str(out),
               "cards_revealed": len(parts.loop.referee.state.pile),
               "cards_laid": parts.table.placed, "cards_relaid": parts.table.relaid,
               "cards_recognised": getattr(cards, "events", len(parts.loop.referee.state.pile)),
               "camera_frames": getattr(cards, "frames", 0),
               "presses": parts.table.presses, "early_presses": parts.table.early_presses,
               "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}
    summary["screens"] = len(screen.saved)
    print(json.dumps(summary, ensure_ascii=False))
    return 0
