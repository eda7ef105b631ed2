"""The demo's simulated table for 驢橋: storytellers lay tiles under the camera, guessers press
their seat buttons.

:class:`tablekeeper.games.eselsbruecke.simplayers.SimTable` decides *what* happens (the bag's
order, who remembers which keyword, when they answer); this module makes it happen *through
the hardware seams*, so the demo exercises the real code paths:

- each drawn tile is laid face up in a row in the centre of the simulated camera's table
  (:class:`vision.simtable.SimulatedTable`); the vision pipeline has to recognise it (without a
  camera, it is reported as seen directly). A tile nobody's screen shows after 3 s is laid
  again, straighter; after two tries the host enters it by hand. Once the story is told the
  tiles leave the table (face down onto the storyteller's slot);
- "I have answered" is the guesser's seat button: an edge on a gpiozero mock pin, which the
  real arbiter (armed for that seat only) decides; a guesser who thinks past 15 s never
  presses, and the referee's clock sends the time-up;
- the host's entries (the story told, the tiles dealt, right / wrong, the next round) are
  submitted as the events the touch screen would produce.
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core import Event
from engine.eselsbruecke import (
    GuessRight,
    GuessWrong,
    NextRound,
    Phase,
    State,
    StoryTold,
    TileEntered,
    TilesDealt,
)
from tablekeeper.games.eselsbruecke.simplayers import SimTable
from tablekeeper.referee import CardSeen, Referee

NS_PER_MS = 1_000_000
#: the story row's cells: the tiles lie in a row of five across the middle of the table
ROW, ROWS, COLS = 1, 3, 5


@dataclass(order=True)
class _Action:
    t_ns: int
    order: int
    run: Callable[[], None] = field(compare=False)
    kind: str = field(compare=False, default="")


class DemoTable:
    """Plays the table for the demo, one scheduled action at a time (``camera``: a
    :class:`vision.simtable.SimulatedTable`, or None; ``seat_pins``: the seat buttons' mock
    pins, seat 1 first, or None: answers go to the engine directly)."""

    def __init__(self, sim: SimTable, referee: Referee, rng: random.Random, *,
                 camera: Any | None = None, seat_pins: list[Any] | None = None) -> None:
        self.sim = sim
        self.referee = referee
        self.rng = rng
        self.camera = camera
        self.seat_pins = seat_pins
        self._queue: list[_Action] = []
        self._order = itertools.count()
        self._planned: tuple[Any, ...] | None = None
        self._busy_until = 0
        self._awaiting: int | None = None  # len(laid) once the tile laid is accepted
        self._laying: int | None = None  # ... once the tile about to be laid is
        self._on_table: list[int] = []  # simulated-table handles of the story's tiles
        self._story: tuple[int, int] | None = None  # (round, turn) of the story being laid
        self.placed = 0
        self.relaid = 0
        self.by_hand = 0
        self.presses = 0
        self.time_outs = 0

    # --- scheduling --------------------------------------------------------------------------

    def _at(self, t_ns: int, run: Callable[[], None], kind: str) -> None:
        heapq.heappush(self._queue, _Action(t_ns, next(self._order), run, kind))

    def next_time(self) -> int | None:
        return self._queue[0].t_ns if self._queue else None

    def run_due(self, now_ns: int) -> None:
        while self._queue and self._queue[0].t_ns <= now_ns:
            heapq.heappop(self._queue).run()

    def wants_frames(self, now_ns: int) -> bool:
        """While a tile lies there that the engine has not taken yet."""
        if self._awaiting is not None:
            state = self.referee.state
            if state.phase is Phase.STORY and len(state.laid) < self._awaiting:
                return True
            self._awaiting = None
        return now_ns <= self._busy_until

    def _drop(self, kind: str) -> None:
        self._queue = [a for a in self._queue if a.kind != kind]
        heapq.heapify(self._queue)

    # --- planning ----------------------------------------------------------------------------

    def _key(self, state: State) -> tuple[Any, ...]:
        return (state.phase, state.round, state.turn, len(state.laid), len(state.guesses),
                state.to_act, state.answered)

    def plan(self, now_ns: int) -> None:
        """Look at the state; if it moved on since the last plan, schedule what happens next."""
        state: State = self.referee.state
        key = self._key(state)
        if key == self._planned:
            return
        self._planned = key
        self._drop("host")
        phase = state.phase
        ms = NS_PER_MS
        if phase is Phase.SETUP:
            self._host(now_ns, self.sim.new_game(self.referee.at_ms(now_ns)))
        elif phase is Phase.STORY:
            story = (state.round, state.turn)
            if story != self._story:
                # a new storyteller: the last story's tiles are face down on a slot
                self._story = story
                self._clear_story()
                self._awaiting = self._laying = None
            if len(state.laid) < state.to_draw:
                if self._laying is None or len(state.laid) >= self._laying:
                    t = now_ns + self.rng.randint(1_200, 3_000) * ms
                    tile = self.sim.next_tile(state)
                    self._laying = len(state.laid) + 1
                    self._at(t, lambda: self._lay(tile, t, len(state.laid) + 1, 0), "table")
            else:
                # the story is told over the laid tiles
                self._host(now_ns + self.rng.randint(15_000, 40_000) * ms, StoryTold(at_ms=0))
        elif phase is Phase.DEAL:
            self._clear_story()
            self._host(now_ns + self.rng.randint(3_000, 7_000) * ms, TilesDealt(at_ms=0))
        elif phase is Phase.GUESS:
            self._clear_story()
            self._plan_guess(state, now_ns)
        elif phase is Phase.ROUND_OVER:
            self._clear_story()
            self._host(now_ns + self.rng.randint(2_000, 5_000) * ms, NextRound(at_ms=0))

    def _plan_guess(self, state: State, now_ns: int) -> None:
        seat = state.to_act
        assert seat is not None
        ans = self.sim.answer(state)
        started = self.referee.ns_at(state.now_ms)
        if not state.answered:
            if not ans.pressed:
                self.time_outs += 1
                return  # thinking past the 15 s: the referee's clock sends the time-up
            t = max(now_ns, started + ans.after_ms * NS_PER_MS)
            if self.seat_pins is None:
                from engine.eselsbruecke import AnswerGiven

                self._host(t, AnswerGiven(at_ms=0, seat=seat))
            else:
                self._press(seat, t)
            return
        judged: Event
        if ans.holder is None:
            judged = GuessWrong(at_ms=0, seat=seat)
        else:
            judged = GuessRight(at_ms=0, seat=seat, holder=ans.holder)
        self._host(now_ns + ans.judge_ms * NS_PER_MS, judged)

    def _host(self, t_ns: int, event: Event) -> None:
        self._at(t_ns, lambda: self._submit(event, t_ns), "host")

    def _submit(self, event: Event, t_ns: int) -> None:
        # Host entries are stamped when they happen on the demo's clock.
        stamped = type(event)(**{**event.__dict__, "at_ms": self.referee.at_ms(t_ns)})
        self.referee.submit(stamped)

    # --- the tiles ---------------------------------------------------------------------------

    def _lay(self, tile: str, t_ns: int, laid_after: int, tries: int) -> None:
        state: State = self.referee.state
        if state.phase is not Phase.STORY or len(state.laid) + 1 != laid_after:
            self._awaiting = self._laying = None
            self._planned = None
            return
        self.placed += 1
        self._awaiting = laid_after
        camera = self.camera
        if camera is None:
            self.referee.card_seen(CardSeen(tile, t_ns))
            return
        pose = camera.grid_pose(ROW, (laid_after - 1) % COLS, rows=ROWS, cols=COLS)
        handle = camera.place(tile, pose)
        self._on_table.append(handle)
        retry = t_ns + 3_000 * NS_PER_MS

        def straighten() -> None:
            if len(self.referee.state.laid) >= laid_after:
                return
            if handle in self._on_table:
                self._on_table.remove(handle)
                camera.remove(handle)
            if tries >= 2:
                # Still not on the screen: the host enters it by hand (unnamed).
                self.by_hand += 1
                self._awaiting = self._laying = None
                self._submit(TileEntered(at_ms=0), retry)
                return
            self.relaid += 1
            self._lay(tile, retry, laid_after, tries + 1)

        self._at(retry, straighten, "table")

    def _clear_story(self) -> None:
        """The story is told: its tiles go face down onto the storyteller's slot."""
        if self.camera is not None:
            for handle in self._on_table:
                self.camera.remove(handle)
        self._on_table.clear()

    def _press(self, seat: int, t_ns: int) -> None:
        assert self.seat_pins is not None
        pin = self.seat_pins[seat]
        hold = self.rng.randint(90, 250) * NS_PER_MS

        def down() -> None:
            self.presses += 1
            pin.press(t_ns)

        self._at(t_ns, down, "press")
        self._at(t_ns + hold, lambda: pin.release(t_ns + hold), "press")
