"""致命遊戲 The Game's demo: a simulated table of bots through the real code paths.

:func:`build_demo` wires the bots (:mod:`.simplayers`, :mod:`.simdriver`), the simulated
camera over four rows (zones ``row1``..``row4`` found from the row cards as
``tablekeeper vision calibrate --layout rows:4`` would), the real recogniser and tracker,
gpiozero's mock pins, the engine and the journal into a :class:`tablekeeper.app.Loop`;
:func:`text_demo` is ``tablekeeper demo --game the-game --text``.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

from engine import the_game as tg
from engine.core import Rejection
from firmware.box import Firmware
from tablekeeper.app import CardSource, Loop, Screen
from tablekeeper.clock import Clock
from tablekeeper.demo import DemoParts, demo_firmware
from tablekeeper.games.the_game import KIT, card_values, host
from tablekeeper.games.the_game.simdriver import ROW_CARDS, DemoTable
from tablekeeper.games.the_game.simplayers import SimTable, describe
from tablekeeper.journal import JournaledGame
from tablekeeper.referee import Referee


def row_zones(camera: Any) -> tuple[Any, ...]:
    """The four row zones from the row cards on the simulated table (the calibration's
    ``rows:4`` layout)."""
    from vision.config import zones_from_cards

    quads = [t.corners.tolist() for t in camera.truth() if t.card_id in ROW_CARDS]
    return zones_from_cards(quads, "rows:4")


def build_demo(out: Path, *, seed: int, players: int, variant: str, clock: Clock,
               firmware: Firmware | None = None,
               camera: bool = True, cards: CardSource | None = None,
               screen: Screen | None = None, journal_name: str = "game.jsonl",
               deck: Any | None = None, threaded: bool = False,
               recognise: Any | None = None) -> DemoParts:
    """``deck``: the number deck the simulated camera shows (default: the demo deck);
    ``threaded``: the camera is read by a background thread (real clocks only);
    ``recognise``: the deck the cards are recognised with (default: ``deck``; the deck
    ``tablekeeper demo --from-scratch`` enrolled at the simulated table)."""
    rng = random.Random(seed)
    sim = SimTable.generate(rng, players, host.VARIANTS.get(variant, variant))
    firmware, seat_pins = demo_firmware(firmware, clock, seed)
    out.mkdir(parents=True, exist_ok=True)
    journal_path = out / journal_name
    if journal_path.exists():
        game = JournaledGame.open(journal_path)
    else:
        game = JournaledGame.create(journal_path, game=tg.GAME_NAME)
    if deck is None and camera and cards is None:
        deck = KIT.deck(None)
    referee = Referee(game, firmware, clock.now_ns(), kit=KIT,
                      card_values=card_values(deck), game_id=f"demo-{seed}")
    sim_camera = None
    if camera and cards is None:
        from tablekeeper.vision_link import (
            CameraThread,
            LockedCamera,
            WatchedCamera,
            _check_threaded,
            _one_vision_thread,
        )
        from vision.config import VisionConfig
        from vision.simtable import SimulatedTable
        from vision.tracker import CardWatcher

        _check_threaded(threaded, clock)
        assert deck is not None
        _one_vision_thread()
        table_cam = SimulatedTable(deck, seed=seed, clock=clock.now_ns)
        sim_camera = LockedCamera(table_cam) if threaded else table_cam
        table = DemoTable(sim, referee, rng, camera=sim_camera, seat_pins=seat_pins)
        watcher = CardWatcher(recognise if recognise is not None else deck,
                              VisionConfig(zones=row_zones(table_cam)))
        cards = (CameraThread(sim_camera, watcher) if threaded
                 else WatchedCamera(table_cam, watcher))
    else:
        table = DemoTable(sim, referee, rng, camera=None, seat_pins=seat_pins)
    loop = Loop(referee, clock, cards=cards, screen=screen, table=table)
    return DemoParts(loop, table, sim, firmware, journal_path, sim_camera)


def scoreboard_text(state: tg.State) -> str:
    """The rows, the cards left and the verdict, for the terminal."""
    lines = [f"致命遊戲 The Game — {state.variant.value}, {state.n_players} players, "
             f"turn {state.turn}"]
    for i, r in enumerate(state.rows):
        lines.append(f"  row {i + 1} {r.direction.arrow} {r.start:>3} → {r.top:>3}  "
                     f"({len(r.cards)} cards)")
    for p in state.players:
        lines.append(f"  {p.name:<12} {p.colour:<7} {p.hand_count} in hand")
    lines.append(f"  draw pile {state.draw_count}; cards left {state.cards_left}")
    verdict = tg.verdict(state)
    if verdict is not None and state.outcome is not None:
        zh, en = tg.VERDICT_TEXT[verdict]
        lines.append(f"結束 Game over ({state.outcome.reason.value}): {zh} {en}")
    return "\n".join(lines)


def demo_summary(parts: DemoParts) -> dict[str, Any]:
    """The figures of a finished demo."""
    state: tg.State = parts.loop.referee.state
    table = parts.table
    return {"cards_played": len(state.plays), "cards_left": state.cards_left,
            "verdict": v.value if (v := tg.verdict(state)) is not None else None,
            "cards_laid": table.placed, "cards_relaid": table.relaid,
            "illegal_laid": table.illegal_laid, "taken_back": table.taken_back,
            "refused_plays": parts.loop.referee.table.refusals,  # type: ignore[attr-defined]
            "presses": table.presses, "long_presses": table.long_presses,
            "early_presses": table.early_presses, "turns": state.turn}


def text_demo(args: argparse.Namespace) -> int:
    """A whole simulated game in text: the play-by-play and the result."""
    rng = random.Random(args.seed)
    variant = host.VARIANTS.get(args.variant or "normal", "standard")
    table = SimTable.generate(rng, args.players or 3, variant)
    game: JournaledGame | None = None
    if args.journal:
        try:
            game = JournaledGame.create(args.journal, game=tg.GAME_NAME)
        except FileExistsError:
            print(f"tablekeeper demo: {args.journal} exists; give a new file", file=sys.stderr)
            return 1
    state = tg.initial_state()
    first = table.new_game(0)
    result = game.submit(first) if game is not None else tg.apply(state, first)
    assert not isinstance(result, Rejection), result
    state = result
    printed, skipped = 0, 0
    print(f"致命遊戲 The Game — simulated table, seed {args.seed}")
    while not tg.is_over(state):
        event = table.propose(state)
        event = type(event)(**{**event.__dict__, "at_ms": state.now_ms + 1_000})
        result = game.submit(event) if game is not None else tg.apply(state, event)
        if isinstance(result, Rejection):
            print(f"tablekeeper demo: the engine rejected {event!r}: {result}",
                  file=sys.stderr)
            return 1
        line = describe(state, event, result)
        state = result
        if line is not None:
            if args.lines < 0 or printed < args.lines:
                print(line)
                printed += 1
            else:
                skipped += 1
    if skipped:
        print(f"  … {skipped} more lines of play")
    print(scoreboard_text(state))
    if args.journal:
        print(f"journal: {args.journal} (tablekeeper replay {args.journal})")
    return 0
