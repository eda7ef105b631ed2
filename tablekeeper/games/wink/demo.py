"""眨眨眼's demo: simulated players at a simulated table through the real code paths.

:func:`build_demo` calibrates the simulated table once (the 6x6 grid's zones from the laid
cards, as ``vision calibrate --layout grid:6x6`` does, and the marker colours from the eight
markers on known cells, :func:`vision.markers.calibrate`), then wires the simulated players
(:mod:`.simplayers`), the simulated camera and the real recogniser and cell reader
(:class:`.camera.GridCamera`), gpiozero's mock pins, the real arbiter, the engine and the
journal into a :class:`tablekeeper.app.Loop`.

The driver (:class:`DemoTable`) lays the grid, puts markers down on the simulated table (the
camera's ``MarkerPlaced``; if the camera has not seen one after 4 s, the host enters it),
keeps the table as the state says (a card named wrong turned face down, a card found or
caught taken away, a marker taken back), enters the host's answers, and presses the seat
buttons for 「我要抓！」 (sometimes two players within a millisecond of each other).
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import wink
from engine.core import Event, Rejection
from engine.wink import CellFace, Phase, State
from firmware.box import Firmware
from tablekeeper.app import Loop, Screen
from tablekeeper.clock import Clock
from tablekeeper.demo import DemoParts, demo_firmware
from tablekeeper.games.wink.simplayers import SimPlayers
from tablekeeper.games.wink.table import zone_name
from tablekeeper.journal import JournaledGame
from tablekeeper.referee import CardSeen, Referee

NS_PER_MS = 1_000_000
ZONES = tuple(f"r{r + 1}c{c + 1}" for r in range(6) for c in range(6))


@dataclass(order=True)
class _Action:
    t_ns: int
    order: int
    run: Callable[[], None] = field(compare=False)
    kind: str = field(compare=False, default="")


class SimGridTable:
    """The physical grid on the simulated table: cards and markers by cell."""

    def __init__(self, table: Any, poses: dict[str, Any]) -> None:
        self.table = table
        self.poses = poses
        self.cards: dict[str, int] = {}
        self.faces: dict[str, str] = {}
        self.markers: dict[str, tuple[str, int]] = {}  # colour -> (zone, handle)

    def lay(self, numbers: tuple[int, ...]) -> None:
        for zone, n in zip(ZONES, numbers, strict=True):
            self.cards[zone] = self.table.place(f"w{n:02d}", self.poses[zone])
            self.faces[zone] = "up"

    def put(self, colour: str, zone: str, off: tuple[float, float] = (0.0, 0.0)) -> None:
        from vision.simmarkers import place_marker

        self.lift(colour)
        self.markers[colour] = (zone, place_marker(self.table, colour, self.poses[zone],
                                                   off=off))

    def lift(self, colour: str) -> None:
        held = self.markers.pop(colour, None)
        if held is not None:
            self.table.remove(held[1])

    def turn_down(self, zone: str) -> None:
        if self.faces.get(zone) == "up":
            self.table.remove(self.cards[zone])
            self.cards[zone] = self.table.place_back(self.poses[zone])
            self.faces[zone] = "down"
            self._restack(zone)

    def take(self, zone: str) -> None:
        if zone in self.cards:
            self.table.remove(self.cards.pop(zone))
            self.faces[zone] = "empty"

    def _restack(self, zone: str) -> None:
        """A card put back lies over a marker on it: lay the marker on top again."""
        for colour, (z, _h) in list(self.markers.items()):
            if z == zone:
                self.put(colour, zone)


def calibrate_sim(table: Any, rng: random.Random) -> tuple[dict[str, Any], Any, Any]:
    """The host's calibration on the simulated table: the 36 cards laid (zones), then the
    eight markers on r1c1..r2c2 and one card turned down (colours, back); then cleared."""
    from vision.config import zones_from_cards
    from vision.markers import MARKER_COLOURS, calibrate
    from vision.simmarkers import place_marker

    poses = {z: table.grid_pose(i // 6, i % 6) for i, z in enumerate(ZONES)}
    order = rng.sample(range(1, 37), 36)
    handles = {z: table.place(f"w{n:02d}", poses[z]) for z, n in zip(ZONES, order, strict=True)}
    quads = [[(float(x), float(y)) for x, y in t.corners] for t in table.truth()]
    zones = zones_from_cards(quads, "grid:6x6")
    before = table.capture().image
    placed = {}
    for i, colour in enumerate(MARKER_COLOURS):
        place_marker(table, colour, poses[ZONES[i]])
        placed[colour] = ZONES[i]
    table.remove(handles["r6c6"])
    table.place_back(poses["r6c6"])
    palette = calibrate(before, table.capture().image, zones, placed, back_zone="r6c6")
    table.clear()
    return poses, zones, palette


class DemoTable:
    """Plays the table for the demo, one scheduled action at a time."""

    def __init__(self, sim: SimPlayers, referee: Referee, rng: random.Random, *,
                 grid: SimGridTable | None, seat_pins: list[Any] | None) -> None:
        self.sim = sim
        self.referee = referee
        self.rng = rng
        self.grid = grid
        self.seat_pins = seat_pins
        self._queue: list[_Action] = []
        self._order = itertools.count()
        self._planned: tuple[Any, ...] | None = None
        self._busy_until = 0
        self._placing: tuple[str, str] | None = None
        self.markers_laid = 0
        self.markers_by_hand = 0
        self.presses = 0
        self.races = 0
        self.double_races = 0

    # --- scheduling --------------------------------------------------------------------------

    def _at(self, t_ns: int, run: Callable[[], None], kind: str) -> None:
        heapq.heappush(self._queue, _Action(t_ns, next(self._order), run, kind))

    def next_time(self) -> int | None:
        return self._queue[0].t_ns if self._queue else None

    def run_due(self, now_ns: int) -> None:
        while self._queue and self._queue[0].t_ns <= now_ns:
            heapq.heappop(self._queue).run()

    def wants_frames(self, now_ns: int) -> bool:
        if self.referee.state.phase is Phase.LAYOUT:
            return True
        return now_ns <= self._busy_until or self._placing is not None

    def _busy(self, t_ns: int, ms: int = 800) -> None:
        self._busy_until = max(self._busy_until, t_ns + ms * NS_PER_MS)

    def _drop(self, *kinds: str) -> None:
        self._queue = [a for a in self._queue if a.kind not in kinds]
        heapq.heapify(self._queue)

    # --- planning ----------------------------------------------------------------------------

    def _key(self, state: State) -> tuple[Any, ...]:
        return (state.phase, state.turn, state.active, len(state.accusations),
                len(state.namings), len(state.placements), state.pending)

    def plan(self, now_ns: int) -> None:
        state = self.referee.state
        key = self._key(state)
        if key == self._planned:
            return
        self._planned = key
        self._drop("host", "press")
        self._keep_table(state, now_ns)
        phase = state.phase
        if phase is Phase.SETUP:
            self._host(now_ns, self.sim.new_game(0))
        elif phase is Phase.LAYOUT:
            self._plan_layout(now_ns)
        elif phase is Phase.PLACE:
            self._maybe_accuse(state, now_ns)
            self._plan_place(state, now_ns)
        elif phase is Phase.NAME:
            self._maybe_accuse(state, now_ns)
            wait = self.rng.randint(2_000, 4_000) * NS_PER_MS
            self._at(now_ns + wait, lambda: self._name(now_ns + wait), "host")
        elif phase is Phase.ACCUSATION:
            wait = self.rng.randint(1_500, 3_000) * NS_PER_MS
            self._at(now_ns + wait, lambda: self._accused(now_ns + wait), "host")

    def _host(self, t_ns: int, event: Event) -> None:
        self._at(t_ns, lambda: self._submit(event, t_ns), "host")

    def _submit(self, event: Event, t_ns: int) -> Any:
        stamped = type(event)(**{**event.__dict__, "at_ms": self.referee.at_ms(t_ns)})
        return self.referee.submit(stamped)

    def _plan_layout(self, now_ns: int) -> None:
        t = now_ns + 1_500 * NS_PER_MS
        if self.grid is not None:
            grid = self.grid

            def lay() -> None:
                if not grid.cards:
                    grid.lay(self.sim.grid)
                self._busy(t, 1_000)

            self._at(t, lay, "table")
            # the camera had 6 s: the host enters the grid
            self._host(t + 6_000 * NS_PER_MS, wink.GridEntered(at_ms=0, numbers=self.sim.grid))
        else:
            self._host(t, wink.GridSeen(at_ms=0, numbers=self.sim.grid))

    def _plan_place(self, state: State, now_ns: int) -> None:
        event = self.sim.placement(state)
        t = now_ns + self.rng.randint(1_500, 3_000) * NS_PER_MS
        if not isinstance(event, wink.MarkerPlacedByHand) or self.grid is None:
            self._host(t, event)
            return
        seat = event.seat
        colour = state.players[seat].colour
        zone = zone_name(event.row, event.col)
        half = self.rng.random() < 0.15
        off = (self.rng.choice((-0.5, 0.5)), 0.0) if half else (
            self.rng.uniform(-0.1, 0.1), self.rng.uniform(-0.15, 0.15))
        grid = self.grid

        def put() -> None:
            if self.referee.state.phase is not Phase.PLACE:
                return
            grid.put(colour, zone, off)
            self.markers_laid += 1
            self._placing = (colour, zone)
            self._busy(t, 1_000)

        self._at(t, put, "host")

        def by_hand() -> None:  # the camera did not see it: the host enters it
            if self._placing == (colour, zone):
                self.markers_by_hand += 1
                self._placing = None
                self._submit(event, t + 4_000 * NS_PER_MS)

        self._at(t + 4_000 * NS_PER_MS, by_hand, "host")

    def _name(self, t_ns: int) -> None:
        state = self.referee.state
        if state.phase is not Phase.NAME:
            return
        event = self.sim.naming(state)
        before = state
        if not isinstance(self._submit(event, t_ns), Rejection):
            self.sim.settle_named(before, event)
            self._busy(t_ns, 1_000)

    def _accused(self, t_ns: int) -> None:
        state = self.referee.state
        if state.phase is not Phase.ACCUSATION:
            return
        event = self.sim.accusation(state)
        if not isinstance(self._submit(event, t_ns), Rejection):
            self.sim.settle(event)
            self._busy(t_ns, 1_000)

    def _maybe_accuse(self, state: State, now_ns: int) -> None:
        presses = self.sim.accusers(state)
        if not presses:
            return
        t = now_ns + self.rng.randint(600, 1_400) * NS_PER_MS
        self.races += 1
        self.double_races += int(len(presses) > 1)
        for seat, us in presses:
            if self.seat_pins is not None:
                self._press(seat, t + us * 1_000)
            else:
                self._host(t, wink.AccusationByHand(at_ms=0, seat=seat))
                break

    def _press(self, seat: int, t_ns: int) -> None:
        assert self.seat_pins is not None
        pin = self.seat_pins[seat]
        hold = self.rng.randint(90, 250) * NS_PER_MS

        def down() -> None:
            self.presses += 1
            pin.press(t_ns)

        self._at(t_ns, down, "press")
        self._at(t_ns + hold, lambda: pin.release(t_ns + hold), "release")

    # --- the physical table follows the state ------------------------------------------------

    def _keep_table(self, state: State, now_ns: int) -> None:
        grid = self.grid
        if grid is None or not state.grid:
            return
        placing = self._placing
        if placing is not None:
            seat = state.seat_of_colour(placing[0])
            if seat is not None and state.players[seat].marker is not None:
                self._placing = None  # the box has it
        for i, cell in enumerate(state.grid):
            zone = ZONES[i]
            if cell.face is CellFace.DOWN and grid.faces.get(zone) == "up":
                grid.turn_down(zone)
                self._busy(now_ns)
            elif cell.face is CellFace.EMPTY and zone in grid.cards:
                grid.take(zone)
                self._busy(now_ns)
        for p in state.players:
            held = grid.markers.get(p.colour)
            if held is None or (self._placing is not None and self._placing[0] == p.colour):
                continue
            if p.marker is None:
                grid.lift(p.colour)
                self._busy(now_ns)


def build_demo(out: Path, *, seed: int, players: int, variant: str, clock: Clock,
               firmware: Firmware | None = None,
               camera: bool = True, screen: Screen | None = None,
               journal_name: str = "game.jsonl", deck: Any | None = None,
               threaded: bool = False, recognise: Any | None = None) -> DemoParts:
    """The whole simulated table (see the module docstring). ``threaded`` is not used: the
    grid camera is read inline (the demo's clock is simulated or scaled). ``recognise``: the
    deck the cells are recognised with (default: ``deck``; ``demo --from-scratch``'s)."""
    from tablekeeper.games.wink import card_numbers

    rng = random.Random(seed)
    sim = SimPlayers.deal(random.Random(seed + 7), players)
    firmware, seat_pins = demo_firmware(firmware, clock, seed)
    out.mkdir(parents=True, exist_ok=True)
    journal_path = out / journal_name
    game = (JournaledGame.open(journal_path) if journal_path.exists()
            else JournaledGame.create(journal_path, game=wink.GAME_NAME))
    source = None
    grid = None
    sim_table = None
    if camera:
        from tablekeeper.games.wink.camera import GridCamera
        from vision.simtable import Conditions, SimulatedTable

        if deck is None:
            from tablekeeper.games.wink import load_deck

            deck = load_deck(None)
        sim_table = SimulatedTable(deck, seed=seed, clock=clock.now_ns,
                                   conditions=Conditions(surface="cloth", cast="warm",
                                                         noise_sigma=1.5, gradient=0.1))
        poses, zones, palette = calibrate_sim(sim_table, random.Random(seed + 3))
        grid = SimGridTable(sim_table, poses)
        # 10 frames a second: a marker settles in 3 (the simulated table renders every one)
        source = GridCamera(sim_table, recognise if recognise is not None else deck, zones,
                            palette=palette,
                            numbers=card_numbers(deck), frame_ns=100 * NS_PER_MS)
    from tablekeeper.games.wink import KIT

    referee = Referee(game, firmware, clock.now_ns(), kit=KIT, game_id=f"demo-{seed}",
                      card_numbers=card_numbers(deck) if deck is not None else None)
    table = DemoTable(sim, referee, rng, grid=grid, seat_pins=seat_pins)
    loop = Loop(referee, clock, cards=source, screen=screen, table=table)
    return DemoParts(loop, table, sim, firmware, journal_path, sim_table)


def scoreboard_text(state: State) -> str:
    lines = [f"眨眨眼 Wink — turn {state.turn}"]
    result = state.outcome
    winners = set(result.winners) if result else set()
    for seat, p in sorted(enumerate(state.players), key=lambda sp: -sp[1].score):
        crown = "  ★ 贏家 winner" if seat in winners else ""
        lines.append(f"  {p.name:<18} {p.colour:<7} {p.score:>3} 分 points "
                     f"(指控卡 accusation cards {p.accusations}, 手牌 hand {p.hand}){crown}")
    if result:
        decided = state.tie_break.value if state.tie_break else "-"
        lines.append(f"結束 Game over: {result.reason.value}; decided by {decided}")
    return "\n".join(lines)


def demo_summary(parts: DemoParts) -> dict[str, Any]:
    t: DemoTable = parts.table
    state: State = parts.loop.referee.state
    return {"turns": state.turn, "markers_laid": t.markers_laid,
            "markers_by_hand": t.markers_by_hand,
            "marker_placements_by_camera": sum(
                1 for p in state.placements if p.kind is wink.PlacementKind.CAMERA),
            "races": t.races, "double_races": t.double_races, "presses": t.presses,
            "accusations": len(state.accusations), "mismatches": len(state.mismatches)}


def text_demo(args: argparse.Namespace) -> int:
    """A whole simulated game on the engine, in text."""
    from tablekeeper.games.wink.simplayers import play

    state = play(random.Random(args.seed), args.players or 5)
    print(scoreboard_text(state))
    if state.outcome is None:
        print("tablekeeper demo: the game did not end", file=sys.stderr)
        return 1
    return 0


__all__ = ["CardSeen", "DemoTable", "build_demo", "demo_summary", "scoreboard_text"]
