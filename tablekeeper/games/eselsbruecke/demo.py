"""驢橋's demo: a simulated table of players through the real code paths.

:func:`build_demo` wires the simulated players (:mod:`.simplayers`, :mod:`.simdriver`), the
simulated camera showing the demo tiles, gpiozero's mock pins, the real arbiter, the engine
and the journal into a :class:`tablekeeper.app.Loop`; :func:`text_demo` is
``tablekeeper demo --game eselsbruecke --text``.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

from engine import eselsbruecke as eb
from engine.core import Rejection
from firmware.box import Firmware
from tablekeeper.app import CardSource, Loop, Screen
from tablekeeper.clock import Clock
from tablekeeper.demo import DemoParts, demo_firmware
from tablekeeper.games.eselsbruecke.simdriver import DemoTable
from tablekeeper.games.eselsbruecke.simplayers import SimTable
from tablekeeper.journal import JournaledGame
from tablekeeper.referee import Referee


def build_demo(out: Path, *, seed: int, players: int, variant: str, clock: Clock,
               firmware: Firmware | None = None,
               camera: bool = True, cards: CardSource | None = None,
               screen: Screen | None = None, journal_name: str = "game.jsonl",
               deck: Any | None = None, threaded: bool = False,
               recognise: Any | None = None) -> DemoParts:
    """``deck``: the tile deck the simulated camera shows (default: the demo deck);
    ``threaded``: the camera is read by a background thread (real clocks only)."""
    from tablekeeper.games import load
    from tablekeeper.games.eselsbruecke import keyword_ids

    kit = load("eselsbruecke")
    rng = random.Random(seed)
    if deck is None and camera and cards is None:
        deck = kit.deck(None)
    tiles = tuple(sorted(keyword_ids(deck)))
    sim = SimTable.generate(rng, players, variant, tiles=tiles)
    firmware, seat_pins = demo_firmware(firmware, clock, seed)
    out.mkdir(parents=True, exist_ok=True)
    journal_path = out / journal_name
    if journal_path.exists():
        game = JournaledGame.open(journal_path)
    else:
        game = JournaledGame.create(journal_path, game=eb.GAME_NAME)
    referee = Referee(game, firmware, clock.now_ns(), kit=kit, game_id=f"demo-{seed}",
                      tile_ids=keyword_ids(deck))
    sim_camera = None
    if camera and cards is None:
        from tablekeeper.vision_link import simulated_camera_pipeline

        sim_camera, cards = simulated_camera_pipeline(clock, seed, deck, threaded=threaded,
                                                      recognise=recognise)
    table = DemoTable(sim, referee, rng, camera=sim_camera, seat_pins=seat_pins)
    loop = Loop(referee, clock, cards=cards, screen=screen, table=table)
    return DemoParts(loop, table, sim, firmware, journal_path, sim_camera)


def scoreboard_text(state: eb.State) -> str:
    """The final (or current) score piles, for the terminal."""
    side = state.side.value if state.seats else "-"
    lines = [f"驢橋 Eselsbrücke — {side} side, round {state.round}/{state.rounds}"]
    result = eb.outcome(state)
    winners = set(result.winners) if result else set()
    for seat, s in sorted(enumerate(state.seats), key=lambda x: (-x[1].score, -x[1].stops)):
        crown = "  ★ 贏家 winner" if seat in winners else ""
        lines.append(f"  {s.name:<18} {s.colour:<7} {s.score:>3} 分 points "
                     f"({s.stops} 停止 stop){crown}")
    if result:
        lines.append(f"結束 Game over: {result.reason.value}")
    return "\n".join(lines)


def demo_figures(state: eb.State) -> dict[str, Any]:
    """What happened in a game: guesses by result, discards stopped, stop tiles earned."""
    stopped = stop_tiles = bridges = 0
    for r in state.recalls:
        stopped += sum(1 for p in r.penalties if p.stopped)
        stop_tiles += int(r.stop_tile)
        bridges += len(r.bridges)
    return {"stories": sum(len(s.slots) for s in state.seats),
            "tiles_in_stories": sum(len(t) for s in state.seats for t in s.slots),
            "recalls": len(state.recalls), "discards_stopped": stopped,
            "stop_tiles_earned": stop_tiles, "bridges": bridges}


def guess_counts(journal_path: Path, state: eb.State) -> dict[str, int]:
    """Turns of the recalls by how they went, from the journal's events and the final state
    (a state keeps only the recall in progress turn by turn): right, wrong, time up, and the
    last keyword scored without guessing (special case 2: keywords named beyond the right
    guesses)."""
    from collections import Counter

    from tablekeeper.journal import read

    counts: Counter[type] = Counter(type(rec.event) for rec in read(journal_path).active())
    right = counts[eb.GuessRight]
    named = sum(len(r.named) for r in state.recalls) + (
        len(state.named) if state.phase is eb.Phase.GUESS else 0)
    return {"right": right, "wrong": counts[eb.GuessWrong],
            "time_up": counts[eb.AnswerTimeUp], "last_keyword": named - right,
            "answered": counts[eb.AnswerGiven]}


def demo_summary(parts: DemoParts) -> dict[str, Any]:
    """The figures of a finished demo: tiles laid and read, answers, time-ups, stop tiles."""
    state = parts.loop.referee.state
    table = parts.table
    figures = demo_figures(state)
    figures.update(guess_counts(parts.journal_path, state))
    figures.update({"tiles_laid": table.placed, "tiles_relaid": table.relaid,
                    "tiles_by_hand": table.by_hand, "answer_presses": table.presses,
                    "time_ups": getattr(parts.loop.referee.table, "time_ups", 0),
                    "cards_revealed": figures["tiles_in_stories"]})
    return figures


def text_demo(args: argparse.Namespace) -> int:
    """Play a whole simulated game in text: play-by-play lines and the scoreboard."""
    from tablekeeper.games.eselsbruecke.simplayers import describe

    rng = random.Random(args.seed)
    players = args.players or 4
    table = SimTable.generate(rng, players, args.variant or "standard")
    game: JournaledGame | None = None
    if args.journal:
        try:
            game = JournaledGame.create(args.journal, game=eb.GAME_NAME)
        except FileExistsError:
            print(f"tablekeeper demo: {args.journal} exists; give a new file", file=sys.stderr)
            return 1
        except OSError as exc:
            print(f"tablekeeper demo: cannot write {args.journal}: {exc.strerror}",
                  file=sys.stderr)
            return 1
    state = eb.initial_state()
    printed, limit, skipped = 0, args.lines, 0
    print(f"驢橋 Eselsbrücke — simulated table, seed {args.seed}")
    while not eb.is_over(state):
        event = table.propose(state)
        result = game.submit(event) if game is not None else eb.apply(state, event)
        if isinstance(result, Rejection):  # a simulator bug: say so, do not loop
            print(f"tablekeeper demo: the engine rejected {event!r}: {result}",
                  file=sys.stderr)
            return 1
        line = describe(state, event, result)
        state = result
        if line is not None:
            for one in line.splitlines():
                if limit < 0 or printed < limit:
                    print(one)
                    printed += 1
                else:
                    skipped += 1
    if skipped:
        print(f"  … {skipped} more lines of play")
    print()
    print(scoreboard_text(state))
    if args.journal:
        print(f"journal: {args.journal} (tablekeeper replay {args.journal})")
    return 0
