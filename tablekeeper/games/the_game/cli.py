"""``tablekeeper bench the-game``: how often the bots win, beside the published simulations.

Plays ``--games`` fast games (:func:`tablekeeper.games.the_game.simplayers.play_fast`: the
same bot as the demo, on plain lists; the tests check it agrees with the engine) for each
player count 1-5 and prints the share that ended with fewer than 10 cards left and with 0,
beside RULES.md section 2's published figures for the best play without communication
(RobertWeinmeister/TheGameSimulation: 31 / 65 / 49 / 63 / 63 %) and thegameanalyzer's.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any


def register(commands: Any, benches: Any) -> None:
    b = benches.add_parser("the-game", help="致命遊戲 The Game: the bots' wins per player "
                                            "count, beside the published simulations")
    b.add_argument("--games", type=int, default=10_000, help="games per player count (10000)")
    b.add_argument("--seed", type=int, default=1, help="the shuffles' seed (1)")
    b.add_argument("--expert", action="store_true", help="the expert rule (3 cards a turn)")
    b.add_argument("--extra-gap", type=int, default=None,
                   help="the bot's largest gap for a card beyond the minimum (default 3)")
    b.add_argument("--json", action="store_true", help="print the figures as JSON")
    b.set_defaults(func=_bench)


def _bench(args: argparse.Namespace) -> int:
    from tablekeeper.games.the_game.simplayers import (
        PUBLISHED_ANALYZER,
        PUBLISHED_BEST_NO_TALK,
        Policy,
        bench,
    )

    if args.games < 1:
        print("tablekeeper bench the-game: --games must be at least 1")
        return 2
    policy = Policy() if args.extra_gap is None else Policy(extra_gap=args.extra_gap)
    t0 = time.perf_counter()
    rows = bench(args.games, args.seed, expert=args.expert, policy=policy)
    secs = time.perf_counter() - t0
    if args.json:
        print(json.dumps({"games": args.games, "seed": args.seed, "expert": args.expert,
                          "extra_gap": policy.extra_gap, "seconds": round(secs, 1),
                          "rows": [{"players": r.players, "below_10_pct": round(r.below_10_pct, 1),
                                    "zero_pct": round(r.zero_pct, 1),
                                    "published_pct": PUBLISHED_BEST_NO_TALK[r.players - 1]}
                                   for r in rows]}))
        return 0
    rule = "expert (3 a turn)" if args.expert else "standard (2 a turn)"
    print(f"致命遊戲 The Game — {args.games} games per player count, {rule}, seed {args.seed}, "
          f"bot extra_gap {policy.extra_gap}")
    print("players   <10 left   0 left   published <10 (best, no talk)   thegameanalyzer <10")
    for r in rows:
        print(f"{r.players:>7}   {r.below_10_pct:>7.1f} %  {r.zero_pct:>5.1f} %   "
              f"{PUBLISHED_BEST_NO_TALK[r.players - 1]:>14} %"
              f"{PUBLISHED_ANALYZER[r.players - 1]:>25} %")
    print(f"({secs:.1f} s)")
    return 0
