"""``tablekeeper vision ...``: the vision sub-commands, and ``tablekeeper bench sim``.

``register`` creates the ``vision`` parser and its sub-parser collection, then adds each
group of sub-commands to it (``add_deck_commands`` here: decks and the simulated table).
Heavy imports (cv2, numpy) happen inside the command functions.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

Subcommands = "argparse._SubParsersAction[argparse.ArgumentParser]"


def register(commands: Any, benches: Any) -> None:
    vision = commands.add_parser("vision", help="camera, decks and card recognition")
    sub = vision.add_subparsers(dest="vision_command", required=True, metavar="COMMAND")
    add_deck_commands(sub)
    b = benches.add_parser("sim", help="simulated table: frames per second of rendering")
    b.add_argument("--frames", type=int, default=60, help="frames per measurement")
    b.add_argument("--seed", type=int, default=0)
    b.set_defaults(func=_bench_sim)


def add_deck_commands(sub: Any) -> None:
    p = sub.add_parser("make-demo-decks",
                       help="write the synthetic demo decks of all four games to a folder")
    p.add_argument("out", type=Path, metavar="OUT", help="folder to write the decks into")
    p.add_argument("--deck", action="append", default=None, metavar="NAME",
                   help="only this demo deck (repeatable); default all")
    p.set_defaults(func=_make_demo_decks)

    p = sub.add_parser("sim-frames",
                       help="render frames of a simulated table to PNG, with truth.json")
    p.add_argument("out", type=Path, metavar="OUT", help="folder for the frames")
    p.add_argument("--deck", default="the-game", metavar="NAME",
                   help="demo deck to deal from (default the-game)")
    p.add_argument("--frames", type=int, default=8, help="how many frames (default 8)")
    p.add_argument("--cards", type=int, default=6, help="cards on the table (default 6)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--surface", choices=("wood", "cloth", "dark", "light"), default=None,
                   help="table surface (default: drawn from the seed)")
    p.add_argument("--cache", type=Path, default=None,
                   help="demo deck cache folder (default ~/.cache/tablekeeper/decks)")
    p.set_defaults(func=_sim_frames)


def _make_demo_decks(args: argparse.Namespace) -> int:
    from vision import demo_decks

    names = args.deck or list(demo_decks.DEMO_DECKS)
    unknown = [n for n in names if n not in demo_decks.DEMO_DECKS]
    if unknown:
        print(f"unknown demo deck(s): {', '.join(unknown)}; known: "
              f"{', '.join(demo_decks.DEMO_DECKS)}", file=sys.stderr)
        return 2
    for name in names:
        deck = demo_decks.write_demo_deck(name, args.out / name)
        print(f"{deck.root}: {deck.title_en} / {deck.title_zh}: {len(deck.cards)} cards "
              f"{deck.size[0]}x{deck.size[1]}")
    return 0


def _sim_frames(args: argparse.Namespace) -> int:
    import json
    import random

    import cv2

    from vision import demo_decks
    from vision.deck import load_deck
    from vision.simtable import ZONES, SimulatedTable

    if args.deck not in demo_decks.DEMO_DECKS:
        print(f"unknown demo deck: {args.deck}; known: {', '.join(demo_decks.DEMO_DECKS)}",
              file=sys.stderr)
        return 2
    if not 1 <= args.frames <= 10_000 or not 0 <= args.cards <= 200:
        print("--frames must be 1-10000 and --cards 0-200", file=sys.stderr)
        return 2
    deck = load_deck(demo_decks.demo_deck(args.deck, args.cache))
    table = SimulatedTable(deck, seed=args.seed, surface=args.surface)
    rng = random.Random(args.seed)
    zones = list(ZONES)
    for _ in range(args.cards):
        table.place(rng.choice(deck.ids), rng.choice(zones))
    args.out.mkdir(parents=True, exist_ok=True)
    truth = []
    for i in range(args.frames):
        if i == args.frames // 2 and args.frames >= 4:
            table.hand_pass(max(2, args.frames // 4))
        frame = table.capture()
        name = f"frame-{i:04d}.png"
        cv2.imwrite(str(args.out / name), frame.image)
        truth.append({"file": name, "t_ns": frame.t_ns, "cards": [
            {"id": t.card_id, "in_deck": t.in_deck, "visible": round(t.visible, 3),
             "covered_by_hand": t.covered_by_hand,
             "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in t.corners]}
            for t in table.truth()]})
    (args.out / "truth.json").write_text(json.dumps(
        {"deck": deck.id, "seed": args.seed, "conditions": repr(table.conditions),
         "frames": truth}, indent=1), encoding="utf-8")
    print(f"{args.out}: {args.frames} frames of {args.cards} {deck.title_en} cards on "
          f"{table.conditions.surface} ({table.conditions.cast} light), truth.json")
    return 0


def _bench_sim(args: argparse.Namespace) -> int:
    import random
    import time

    from vision import demo_decks
    from vision.simtable import SimulatedTable

    if args.frames < 1:
        print("--frames must be at least 1", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    deck = demo_decks.build_demo_deck("the-game")
    print(f"draw the-game demo deck ({len(deck.cards)} faces): "
          f"{(time.perf_counter() - t0) * 1000:.0f} ms")
    rng = random.Random(args.seed)

    def measure(label: str, setup: Callable[[SimulatedTable], None]) -> None:
        table = SimulatedTable(deck, seed=args.seed)
        setup(table)
        table.capture()  # the first frame builds the cached table
        t = time.perf_counter()
        for _ in range(args.frames):
            table.capture()
        ms = (time.perf_counter() - t) * 1000 / args.frames
        print(f"{label}: {ms:.1f} ms/frame ({1000 / ms:.0f} fps), 640x480")

    def cards(n: int) -> Callable[[SimulatedTable], None]:
        def setup(table: SimulatedTable) -> None:
            for _ in range(n):
                table.place(rng.choice(deck.ids), rng.choice(["centre", "north", "south"]))
        return setup

    def hand(table: SimulatedTable) -> None:
        cards(8)(table)
        table.hand_pass(args.frames + 2)

    def changing(table: SimulatedTable) -> None:
        cards(8)(table)
        real = table.capture

        def capture() -> Any:
            table.place(rng.choice(deck.ids), "centre")  # a card is played every frame
            return real()

        table.capture = capture  # type: ignore[method-assign]

    measure("empty table", cards(0))
    measure("8 cards, static", cards(8))
    measure("8 cards, hand passing", hand)
    measure("a card played every frame", changing)
    return 0
