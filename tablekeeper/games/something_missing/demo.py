"""什麼不見啦's demo: a simulated table of players through the real code paths.

:func:`build_demo` wires the simulated players (:mod:`.simplayers`, :mod:`.simdriver`), the
simulated camera, gpiozero's mock pins, the real arbiter, the engine and the journal into a
:class:`tablekeeper.app.Loop`; :func:`text_demo` is ``tablekeeper demo --text``.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from engine import something_missing as sm
from engine.core import Rejection
from engine.something_missing import Variant, outcome
from firmware.box import Firmware
from tablekeeper.app import CardSource, Loop, Screen
from tablekeeper.clock import Clock
from tablekeeper.demo import DemoParts, demo_firmware
from tablekeeper.games.something_missing.simdriver import DemoTable, card_id
from tablekeeper.games.something_missing.simplayers import SimTable
from tablekeeper.journal import JournaledGame
from tablekeeper.referee import Referee


def scene_truth(n_scenes: int) -> tuple[frozenset[int], ...]:
    """Which items each demo scene card shows (from the demo scene deck), so the simulated
    players remember what the scene pictures on screen really show."""
    from vision.demo_decks import scene_contents

    # the demo decks number scenes 1-15 and items 1-66; the engine counts from 0
    return tuple(frozenset(i - 1 for i in scene_contents(s + 1)) for s in range(n_scenes))


def build_demo(out: Path, *, seed: int, players: int, variant: str, clock: Clock,
               firmware: Firmware | None = None,
               camera: bool = True, cards: CardSource | None = None,
               screen: Screen | None = None, journal_name: str = "game.jsonl",
               deck: Any | None = None, threaded: bool = False,
               recognise: Any | None = None) -> DemoParts:
    """``recognise``: the deck the items are recognised with (default: ``deck``; the one
    ``demo --from-scratch`` enrolled). ``deck``: the item deck the simulated camera shows
    (default: the demo deck); the demo
    passes the one its screen holds, so the templates are in memory once. ``threaded``: the
    camera is read by a background thread (real clocks: the windowed demo); otherwise inline,
    so a game on a simulated clock is the same every time."""
    rng = random.Random(seed)
    sim = SimTable.generate(rng, players, Variant(variant))
    sim = dataclasses.replace(sim, items_in_scene=scene_truth(len(sim.items_in_scene)))
    firmware, seat_pins = demo_firmware(firmware, clock, seed)
    out.mkdir(parents=True, exist_ok=True)
    journal_path = out / journal_name
    if journal_path.exists():
        game = JournaledGame.open(journal_path)
    else:
        game = JournaledGame.create(journal_path)
    referee = Referee(game, firmware, clock.now_ns(),
                      card_ids={card_id(i): i for i in range(66)}, game_id=f"demo-{seed}")
    sim_camera = None
    ring = None
    if camera and cards is None:
        sim_camera, cards, ring = ring_camera_pipeline(
            clock, seed, deck, sm.Rules().scenes_for(Variant(variant)), threaded=threaded,
            recognise=recognise)
        referee.table.ring = True  # type: ignore[attr-defined]
    table = DemoTable(sim, referee, rng, camera=sim_camera, seat_pins=seat_pins, ring=ring)
    loop = Loop(referee, clock, cards=cards, screen=screen, table=table)
    return DemoParts(loop, table, sim, firmware, journal_path, sim_camera)


def calibrate_ring(table: Any, ring: Any) -> Any:
    """The host's token calibration on the simulated table, as ``vision calibrate-markers
    --ring`` does it: the ring laid, then the seven tokens in the first slots (memory card 1,
    then 2), measured by :func:`vision.markers.calibrate` (the one mechanism for coloured
    markers); then taken back."""
    from vision.markers import calibrate
    from vision.ring import TOKEN_COLOURS, ring_of, slot_zones

    pairs = ring_of(ring.zones())
    slots = [z for p, (_s, m) in enumerate(pairs) for z in slot_zones(m, p)]
    before = table.capture().image
    placed = {}
    for i, colour in enumerate(TOKEN_COLOURS):
        pos, slot = divmod(i, 6)
        ring.put_token(colour, pos)
        placed[colour] = f"memory{pos + 1}.{slot + 1}"
    palette = calibrate(before, table.capture().image, slots, placed)
    ring.take_tokens()
    return palette


def ring_camera_pipeline(clock: Clock, seed: int, deck: Any | None, scenes: int, *,
                         threaded: bool = False,
                         recognise: Any | None = None) -> tuple[Any, Any, Any]:
    """The demo's camera over the whole table: the centre pile and the ring of ``scenes``
    scenes with their memory cards (:class:`vision.simring.SimRing`), calibrated (zones as
    ``vision calibrate --layout ring:N`` finds them, token colours as ``calibrate-markers``
    measures them), read by :class:`.camera.RingSight`. Returns the simulated table (for the
    players to lay cards on), the card source and the ring."""
    from tablekeeper.games.something_missing.camera import RingSight
    from tablekeeper.vision_link import (
        CameraThread,
        LockedCamera,
        WatchedCamera,
        _check_threaded,
        _one_vision_thread,
        load_items_deck,
    )
    from vision.ring import ring_of
    from vision.simring import SimRing
    from vision.simtable import SimulatedTable

    _check_threaded(threaded, clock)
    if deck is None:
        deck = load_items_deck(None)
    _one_vision_thread()
    table = SimulatedTable(deck, seed=seed, clock=clock.now_ns, card_width=(0.12, 0.14))
    ring = SimRing.lay(table, scenes, seed=seed)
    palette = calibrate_ring(table, ring)
    sight = RingSight(recognise if recognise is not None else deck, ring_of(ring.zones()),
                      palette=palette, size=table.size)
    if threaded:
        shared = LockedCamera(table)
        ring.table = shared  # type: ignore[assignment]  # the same table, behind its lock
        return shared, CameraThread(shared, sight), ring
    return table, WatchedCamera(table, sight), ring


def scoreboard(parts: DemoParts) -> str:
    return scoreboard_text(parts.loop.referee.state)


def scoreboard_text(state: sm.State) -> str:
    """The final (or current) scores, for the terminal."""
    lines = [f"什麼不見啦 Something Is Missing — {state.variant.value}, round {state.round}"]
    result = outcome(state)
    winners = set(result.winners) if result else set()
    for seat, player in sorted(enumerate(state.players), key=lambda sp: -sp[1].score):
        crown = "  ★ 贏家 winner" if seat in winners else ""
        lines.append(f"  {player.name:<18} {player.colour:<7} {player.score:>3} 分 points"
                     f"{crown}")
    if result:
        lines.append(f"結束 Game over: {result.reason.value}")
    return "\n".join(lines)




def demo_summary(parts: DemoParts) -> dict[str, Any]:
    """The figures of a finished demo: cards revealed, laid and laid again, presses."""
    out: dict[str, Any] = {
        "cards_revealed": len(parts.loop.referee.state.pile),
        "cards_laid": parts.table.placed, "cards_relaid": parts.table.relaid,
        "presses": parts.table.presses, "early_presses": parts.table.early_presses}
    out.update(ring_figures(parts.journal_path))
    notes = getattr(parts.loop.referee.table, "notes", [])
    out["ring_conflicts"] = dict(Counter(n.code for n in notes))
    out["tokens_laid"] = getattr(parts.table, "tokens_laid", 0)
    sight: Any = getattr(parts.loop.cards, "watcher", None)
    if hasattr(sight, "cards_seen"):
        out["cards_recognised"] = sight.cards_seen  # (the centre pile's; not the ring's)
        out["ring_reports"] = sight.ring_reports
    return out


def ring_figures(journal: Path) -> dict[str, Any]:
    """Bets and checks, and by whom, from the journal: ``bets`` (by camera: ``bets_by_camera``),
    ``checks`` (scenes checked; started by the camera seeing the scene turned up:
    ``checks_by_camera``), ``host_entries`` (every event the host entered), and the host's
    presses per round now and as they were before the camera read the ring (every bet, pass
    and check start entered by the host)."""
    from engine.core import Source
    from tablekeeper.journal import read

    events = [r.event for r in read(journal).active() if r.event is not None]
    bets = sum(isinstance(e, sm.Bet) for e in events)
    by_camera = sum(isinstance(e, sm.BetSeen) for e in events)
    passes_pressed = sum(isinstance(e, sm.PassPressed) for e in events)
    checks = sum(isinstance(e, sm.CheckResult | sm.CheckTimeUp) for e in events)
    checks_by_camera = sum(isinstance(e, sm.SceneTurnedUp) for e in events)
    host = sum(e.source is Source.HOST for e in events)
    rounds = max(1, sum(isinstance(e, sm.BuzzWon) for e in events))
    in_play = sum(e.source is Source.HOST and not isinstance(e, sm.NewGame | sm.ViewingStarted)
                  for e in events)
    before = in_play + by_camera + passes_pressed + checks_by_camera
    return {"bets": bets, "bets_by_camera": by_camera, "passes_by_seat_button": passes_pressed,
            "checks": checks, "checks_by_camera": checks_by_camera, "host_entries": host,
            "rounds_bet": rounds,
            "host_presses_per_round": round(in_play / rounds, 2),
            "host_presses_per_round_before": round(before / rounds, 2)}


def text_demo(args: argparse.Namespace) -> int:
    """Play a whole simulated game in text: play-by-play lines and the scoreboard."""
    from tablekeeper.games.something_missing.simplayers import SimTable, describe
    from tablekeeper.journal import JournaledGame

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
