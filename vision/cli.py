"""``tablekeeper vision ...``: the vision sub-commands.

``register`` creates the ``vision`` parser and its sub-parser collection ``VISION``; each
vision module adds its own sub-commands through a ``add_cli(vision_commands)`` hook called here.
Heavy imports (cv2) happen inside the command functions.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

Subcommands = "argparse._SubParsersAction[argparse.ArgumentParser]"


def register(commands: Any, benches: Any) -> None:
    vision = commands.add_parser("vision", help="camera, decks and card recognition")
    sub = vision.add_subparsers(dest="vision_command", required=True, metavar="COMMAND")
    add_deck_commands(sub)


def add_deck_commands(sub: Any) -> None:
    p = sub.add_parser("make-demo-decks",
                       help="write the synthetic demo decks of all four games to a folder")
    p.add_argument("out", type=Path, metavar="OUT", help="folder to write the decks into")
    p.add_argument("--deck", action="append", default=None, metavar="NAME",
                   help="only this demo deck (repeatable); default all")
    p.set_defaults(func=_make_demo_decks)


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
