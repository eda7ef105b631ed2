"""A simulated café table for the multi-table demo and the bench: one process per table.

It plays each of its games with the game's own simulated players (the kit's ``--text`` demo,
the real engine), then writes that game's events into ``<journals>/current.jsonl`` one by one
at ``pace_ms`` through the real :class:`tablekeeper.journal.Journal` (fsynced appends, as the
kiosk does), and archives it under another name when the game ends (as the kiosk does when
the next game starts). With ``--publisher FILE`` it also runs the publisher on that folder in
a thread of its own (the real unit is a separate process; the bench saves memory this way).

    python -m tablekeeper.cafe.simtable --table t1 --journals DIR --games something-missing:1
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from ground.files import read_head

#: games whose --text demo writes a journal, in the order the demo hands them to tables
DEMO_GAMES = ("something-missing", "eselsbruecke", "the-game")


def simulated_game(kit_name: str, seed: int) -> Path:
    """A whole simulated game's journal (in a temp folder)."""
    from tablekeeper import games

    kit = games.load(kit_name)
    if kit.text_demo is None:
        raise ValueError(f"{kit_name} has no simulated text game")
    options = games.demo_options(kit, players=None, variant=None)
    path = Path(tempfile.mkdtemp(prefix="tk-simgame-")) / "game.jsonl"
    args = argparse.Namespace(seed=seed, players=options["players"],
                              variant=options["variant"], journal=str(path), lines=0,
                              game=kit_name)
    with contextlib.redirect_stdout(io.StringIO()):
        code = kit.text_demo(args)
    if code != 0 or not path.exists():
        raise RuntimeError(f"the simulated {kit_name} game (seed {seed}) failed ({code})")
    return path


def play(source: Path, journals: Path, pace_s: float, name: str) -> int:
    """Write ``source``'s records into ``journals/current.jsonl`` at ``pace_s`` each, then
    archive it as ``name``; returns the number of records."""
    from datetime import UTC, datetime

    from tablekeeper.journal import Journal, read

    contents = read(source)
    current = journals / "current.jsonl"
    journal = Journal.create(current, contents.rules, game=contents.spec.name,
                             created=datetime.now(UTC).isoformat(timespec="milliseconds"))
    for rec in contents.records:
        time.sleep(pace_s)
        if rec.event is not None:
            journal.append(rec.event)
        elif rec.undo is not None:
            journal.append_undo(rec.undo)
        # any other record kind (a history note) changes no state: the café needs none
    os.replace(current, journals / name)
    return len(contents.records)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tablekeeper.cafe.simtable")
    parser.add_argument("--table", required=True)
    parser.add_argument("--journals", required=True, type=Path)
    parser.add_argument("--games", required=True,
                        help="comma-separated GAME:SEED, played one after another")
    parser.add_argument("--pace-ms", type=float, default=30.0)
    parser.add_argument("--publisher", type=Path, help="publisher settings: run it in-process")
    parser.add_argument("--drain-s", type=float, default=120.0,
                        help="after the last game, wait at most this long for the publisher")
    args = parser.parse_args(argv)
    args.journals.mkdir(parents=True, exist_ok=True)
    plan = []
    for item in args.games.split(","):
        kit, _, seed = item.partition(":")
        plan.append((kit, int(seed or 1)))
    sources = [simulated_game(kit, seed) for kit, seed in plan]

    publisher: Any = None
    stop = threading.Event()
    thread: threading.Thread | None = None
    if args.publisher is not None:
        from tablekeeper.cafe.publisher import Publisher
        from tablekeeper.cafe.settings import load_publisher

        publisher = Publisher(load_publisher(args.publisher))
        thread = threading.Thread(target=publisher.run, args=(stop,), daemon=True)
        thread.start()
    records = 0
    for i, source in enumerate(sources, start=1):
        records += play(source, args.journals, args.pace_ms / 1000, f"game-{i:03d}.jsonl")
    drained = True
    acked = 0
    if publisher is not None:
        deadline = time.monotonic() + args.drain_s
        drained = False
        while time.monotonic() < deadline:
            if all(publisher.state.result_done(gid) for gid in _game_ids(args)):
                drained = True
                break
            time.sleep(0.05)
        stop.set()
        assert thread is not None
        thread.join(15)
        acked = sum(publisher.state.result_done(gid) for gid in _game_ids(args))
    print(json.dumps({"table": args.table, "games_finished": len(sources), "records": records,
                      "messages_sent": publisher.sent if publisher else 0,
                      "results_acknowledged": acked,
                      "drained": drained}))
    return 0 if drained else 1


def _game_ids(args: argparse.Namespace) -> list[str]:
    from tablekeeper.cafe.messages import game_id_of

    out = []
    for path in sorted(args.journals.glob("game-*.jsonl")):
        out.append(game_id_of(args.table, read_head(path, 64 * 1024).split(b"\n")[0]
                              + b"\n"))
    return out


if __name__ == "__main__":
    sys.exit(main())
