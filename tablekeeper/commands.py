"""Top-level commands of the composition root: ``replay`` (the demo and kiosk commands are in
:mod:`tablekeeper.app_commands`)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any


def register(commands: Any, benches: Any) -> None:
    replay = commands.add_parser(
        "replay", help="replay a game journal and print the final state as JSON")
    replay.add_argument("file", metavar="FILE", help="a journal (.jsonl) written by tablekeeper")
    replay.add_argument("--history", action="store_true",
                        help="print the game as the table lived it, one line a record: "
                             "events, undos, refused plays, early presses ...")
    replay.set_defaults(func=_replay)


def players_arg(text: str) -> int:
    """A number of players (each game checks its own range)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of players") from None
    if not 1 <= n <= 12:
        raise argparse.ArgumentTypeError(f"no game here takes {n} players")
    return n


def _replay(args: argparse.Namespace) -> int:
    from tablekeeper.journal import JournalError, read, replay

    try:
        contents = read(args.file)
        state = replay(contents)
    except JournalError as exc:
        print(f"tablekeeper replay: {exc}", file=sys.stderr)
        return 1
    if args.history:
        from tablekeeper.history import history

        try:
            print("\n".join(history(contents)), flush=True)
        except BrokenPipeError:  # `| head`: the reader has what it wanted
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    out = contents.spec.summary(state)
    out["events"] = len(contents.active())
    out["torn_tail_line"] = contents.torn_tail.line if contents.torn_tail else None
    if contents.torn_tail is not None:
        print(f"tablekeeper replay: line {contents.torn_tail.line} was cut short "
              "(power cut mid-write?) and is skipped", file=sys.stderr)
    print(json.dumps(out, ensure_ascii=False))
    return 0
