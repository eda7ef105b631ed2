"""Top-level commands of the composition root: ``replay``, and the text-mode demo that
``tablekeeper demo --text`` runs (the demo command itself is in :mod:`tablekeeper.app_commands`)."""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from engine import something_missing as sm
from engine.core import Rejection


def register(commands: Any, benches: Any) -> None:
    replay = commands.add_parser(
        "replay", help="replay a game journal and print the final state as JSON")
    replay.add_argument("file", metavar="FILE", help="a journal (.jsonl) written by tablekeeper")
    replay.set_defaults(func=_replay)


def players_arg(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of players") from None
    rules = sm.Rules()
    if not rules.min_players <= n <= rules.max_players:
        raise argparse.ArgumentTypeError(
            f"什麼不見啦 takes {rules.min_players}-{rules.max_players} players, not {n}")
    return n


def _replay(args: argparse.Namespace) -> int:
    from tablekeeper.journal import JournalError, read, replay

    try:
        contents = read(args.file)
        state = replay(contents)
    except JournalError as exc:
        print(f"tablekeeper replay: {exc}", file=sys.stderr)
        return 1
    out = sm.summary(state)
    out["events"] = len(contents.active())
    out["torn_tail_line"] = contents.torn_tail.line if contents.torn_tail else None
    if contents.torn_tail is not None:
        print(f"tablekeeper replay: line {contents.torn_tail.line} was cut short "
              "(power cut mid-write?) and is skipped", file=sys.stderr)
    print(json.dumps(out, ensure_ascii=False))
    return 0


def text_demo(args: argparse.Namespace) -> int:
    """Play a whole simulated game in text: play-by-play lines and the scoreboard."""
    from tablekeeper.journal import JournaledGame
    from tablekeeper.simplayers import SimTable, describe

    rng = random.Random(args.seed)
    table = SimTable.generate(rng, args.players, sm.Variant(args.variant))
    game: JournaledGame | None = None
    if args.journal:
        try:
            game = JournaledGame.create(args.journal)
        except FileExistsError:
            print(f"tablekeeper demo: {args.journal} exists; give a new file", file=sys.stderr)
            return 1
        except OSError as exc:
            print(f"tablekeeper demo: cannot write {args.journal}: {exc.strerror}",
                  file=sys.stderr)
            return 1
    state = sm.initial_state()
    printed, limit, skipped = 0, args.lines, 0
    print(f"什麼不見啦 Something Is Missing — simulated table, seed {args.seed}")
    while not sm.is_over(state):
        event = table.propose(state)
        result = game.submit(event) if game is not None else sm.apply(state, event)
        if isinstance(result, Rejection):  # a simulator bug: say so, do not loop
            print(f"tablekeeper demo: the engine rejected {event!r}: {result}",
                  file=sys.stderr)
            return 1
        line = describe(state, event, result)
        state = result
        if line is not None:
            if limit < 0 or printed < limit:
                print(line)
                printed += 1
            else:
                skipped += 1
    if skipped:
        print(f"  … {skipped} more lines of play")
    _print_scoreboard(state)
    if args.journal:
        print(f"journal: {args.journal} (tablekeeper replay {args.journal})")
    return 0


def _print_scoreboard(state: sm.State) -> None:
    assert state.outcome is not None
    reasons = {
        sm.EndReason.SCORE_REACHED: "有人達到目標分數 a player reached the target score",
        sm.EndReason.PILES_EMPTY: "手牌耗盡 enough piles ran out",
        sm.EndReason.HOST_ENDED: "主持人結束 the host ended the game",
    }
    print()
    print(f"遊戲結束 Game over after {state.round} rounds, {state.now_ms / 60000:.1f} min: "
          f"{reasons[state.outcome.reason]}")
    print("計分板 Scoreboard")
    top = max(max(state.scores), 1)
    ranked = sorted(range(state.n_players), key=lambda s: -state.players[s].score)
    for seat in ranked:
        p = state.players[seat]
        bar = "█" * round(20 * p.score / top)
        star = " ★" if seat in state.outcome.winners else ""
        print(f"  {p.name:<16} {sm.COLOURS[p.colour]} {p.colour:<7} {p.score:>3} "
              f"(cards left {p.cards_left:>2}) {bar}{star}")
    winners = " & ".join(state.players[s].name for s in state.outcome.winners)
    print(f"贏家 Winner{'s' if len(state.outcome.winners) > 1 else ''}: {winners}")
