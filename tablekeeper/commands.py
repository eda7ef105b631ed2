"""Top-level commands of the composition root."""

from __future__ import annotations

import argparse
from typing import Any


def register(commands: Any, benches: Any) -> None:
    demo = commands.add_parser("demo", help="play a complete simulated game")
    demo.set_defaults(func=_demo)


def _demo(args: argparse.Namespace) -> int:
    print("tablekeeper: the simulated game arrives with the 什麼不見啦 engine (issue 2).")
    return 0
