"""A headless simulated game that resumes from its journal: the process the power-cut test kills.

    python powercut_driver.py JOURNAL --seed N [--players P]

Plays 什麼不見啦 on the simulated table
(``tablekeeper.games.something_missing.simplayers.SimTable``, seeded) through the
real journal (``tablekeeper.journal.JournaledGame``). If JOURNAL exists it resumes: the journal
is opened (a torn last line is cut off), and the simulated table is fast-forwarded through the
journaled events - each one must be exactly what the table proposes again, else the journal
and the simulation have diverged (exit 3). Then play goes on.

Output, one line each, flushed:
``START <events already in the journal>``, ``ACK <seq> <event JSON>`` after ``submit``
returned (the event is fsynced: acknowledged), ``DONE <summary JSON>`` at the end.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from engine import something_missing as sm
from engine.core import Rejection
from tablekeeper.games.something_missing.simplayers import SimTable
from tablekeeper.journal import JournaledGame


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("journal", type=Path)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args(argv)

    table = SimTable.generate(random.Random(args.seed), args.players, sm.Variant.STANDARD)
    game = (JournaledGame.open(args.journal) if args.journal.exists()
            else JournaledGame.create(args.journal))
    state = sm.initial_state(game.journal.rules)
    done = game.journal.active()
    for record in done:
        assert record.event is not None
        again = table.propose(state)
        if again.to_dict() != record.event.to_dict():
            print(f"DIVERGED at seq {record.seq}: journal {record.event.to_dict()} "
                  f"!= simulation {again.to_dict()}", file=sys.stderr)
            return 3
        result = sm.apply(state, record.event)
        assert not isinstance(result, Rejection)
        state = result
    print(f"START {len(done)}", flush=True)
    while not sm.is_over(state):
        event = table.propose(state)
        result = game.submit(event)
        if isinstance(result, Rejection):
            print(f"REJECTED {event!r}: {result}", file=sys.stderr)
            return 4
        state = result
        seq = game.journal.active()[-1].seq
        print(f"ACK {seq} {json.dumps(event.to_dict(), sort_keys=True)}", flush=True)
    print(f"DONE {json.dumps(sm.summary(state), sort_keys=True, ensure_ascii=False)}",
          flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
