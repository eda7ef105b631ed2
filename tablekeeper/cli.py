"""The ``tablekeeper`` command line.

Each subsystem contributes its own sub-commands through a module with a ``register`` function,
so the CLI stays one small table here and each command lives beside the code it drives:

    def register(commands: Subcommands, benches: Subcommands) -> None

``commands`` holds the top-level sub-commands (``demo``, ``replay``, ``vision`` ...),
``benches`` the targets of ``tablekeeper bench`` (``buzzer``, ``vision``, ``display``).
A command sets ``func=`` (``Callable[[argparse.Namespace], int]``) with ``set_defaults``.
Heavy imports (cv2, pygame) belong inside the command functions, so ``tablekeeper replay``
starts fast and works without a display or camera.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Callable, Sequence
from typing import Any

from tablekeeper import __version__

Subcommands = "argparse._SubParsersAction[argparse.ArgumentParser]"

#: Modules that may contribute commands; a module that does not exist yet is skipped.
PLUGINS: tuple[str, ...] = (
    "tablekeeper.commands",
    "tablekeeper.app_commands",
    "firmware.cli",
    "vision.cli",
    "display.cli",
    "tablekeeper.selftest",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tablekeeper",
        description="A Raspberry Pi referee for card games on a real table.",
    )
    parser.add_argument("--version", action="version", version=f"tablekeeper {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    bench = commands.add_parser("bench", help="run a benchmark and print its figures")
    benches = bench.add_subparsers(dest="bench", required=True, metavar="TARGET")
    for name in PLUGINS:
        if importlib.util.find_spec(name) is None:
            continue
        module: Any = importlib.import_module(name)
        module.register(commands, benches)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
