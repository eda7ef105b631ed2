"""The demo's simulated table of 致命遊戲 The Game: players who lay number cards on four rows
under the camera and press their seat buttons.

:class:`tablekeeper.games.the_game.simplayers.SimTable` decides *what* happens (the bots'
plays); this module makes it happen *through the hardware seams*:

- a card played is laid on its row of the simulated camera's table
  (:class:`vision.simtable.SimulatedTable`; the rows are four piles across the table, where
  the row cards lie), and the real recogniser and tracker must read it; now and then a hand
  passes over a row first;
- once in a game a player lays a card where it may not go (:attr:`DemoTable.illegal_turn`):
  the screen refuses it, the player takes it back (the camera sees the row's previous top
  again) and the host presses "taken back"; once, a player presses "done" a card too early
  (refused: below the minimum);
- "my turn is done" is a short press of the player's seat button (a gpiozero mock pin);
  "I cannot play" a 2.4 s hold, which the host confirms on the screen.

Every decision draws from one injected ``random.Random``: a seed replays the same game.
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core import Event
from engine.the_game import CannotPlay, CardPlayed, Phase, State, TurnEnded
from tablekeeper.games.the_game.simplayers import SimTable
from tablekeeper.games.the_game.table import ZONE_ROWS, table_of
from tablekeeper.referee import CardSeen, Referee

NS_PER_MS = 1_000_000
ROW_ZONES = tuple(ZONE_ROWS)  # row1 .. row4
#: the row cards of the demo deck, rows 1-4
ROW_CARDS = ("row-up", "row-up", "row-down", "row-down")


def card_id(card: int) -> str:
    """The demo deck's id of number card ``card``."""
    return f"n{card:02d}"


def row_pose(camera: Any, row: int, rng: random.Random) -> Any:
    """Where row ``row``'s pile lies: four piles across the table, left to right."""
    from vision.simtable import Pose

    w, h = camera.size
    return Pose(x=w * (0.14 + 0.24 * row) + rng.gauss(0, w * 0.004),
                y=h * 0.5 + rng.gauss(0, h * 0.006), angle=rng.uniform(-5, 5),
                width=w * 0.15)


@dataclass(order=True)
class _Action:
    t_ns: int
    order: int
    run: Callable[[], None] = field(compare=False)
    kind: str = field(compare=False, default="")


class DemoTable:
    """Plays the table for the demo, one scheduled action at a time (see the module doc).

    ``PILE_KEPT``: how many of each row's newest cards stay on the simulated table."""

    PILE_KEPT = 3
    #: a laid card the screen has not shown after this long is laid again, straighter
    RETRY_MS = 8_000
    #: a player about to lay a card while a refused play is on the screen looks again after
    WAIT_MS = 1_000

    def __init__(self, sim: SimTable, referee: Referee, rng: random.Random, *,
                 camera: Any | None = None, seat_pins: list[Any] | None = None,
                 illegal_turn: int = 3, early_press_turn: int = 2,
                 hand_pass_rate: float = 0.15) -> None:
        self.sim = sim
        self.referee = referee
        self.rng = rng
        self.camera = camera
        self.seat_pins = seat_pins
        self.illegal_turn = illegal_turn
        self.early_press_turn = early_press_turn
        self.hand_pass_rate = hand_pass_rate
        self._queue: list[_Action] = []
        self._order = itertools.count()
        self._planned: tuple[Any, ...] | None = None
        self._awaiting: int | None = None  # len(plays) once the laid card is accepted
        self._busy_until = 0
        self._piles: list[list[int]] = [[] for _ in ROW_ZONES]
        self.placed = 0
        self.relaid = 0
        self.presses = 0
        self.long_presses = 0
        self.illegal_laid = 0
        self.taken_back = 0
        self.early_presses = 0
        if camera is not None:
            for row, cid in enumerate(ROW_CARDS):
                self._piles[row].append(camera.place(cid, row_pose(camera, row, rng)))

    # --- scheduling --------------------------------------------------------------------------

    def _at(self, t_ns: int, run: Callable[[], None], kind: str) -> None:
        heapq.heappush(self._queue, _Action(t_ns, next(self._order), run, kind))

    def next_time(self) -> int | None:
        return self._queue[0].t_ns if self._queue else None

    def run_due(self, now_ns: int) -> None:
        while self._queue and self._queue[0].t_ns <= now_ns:
            heapq.heappop(self._queue).run()

    def wants_frames(self, now_ns: int) -> bool:
        if self._awaiting is not None:
            if len(self.referee.state.plays) < self._awaiting and \
                    table_of(self.referee).refused is None:
                return True
            self._awaiting = None
        return now_ns <= self._busy_until

    def _busy(self, t_ns: int, ms: int) -> None:
        self._busy_until = max(self._busy_until, t_ns + ms * NS_PER_MS)

    # --- planning ----------------------------------------------------------------------------

    def _key(self, state: State) -> tuple[Any, ...]:
        table = table_of(self.referee)
        return (state.phase, len(state.plays), state.turn, state.to_act,
                table.refused is not None, table.claim is not None)

    def plan(self, now_ns: int) -> None:
        state = self.referee.state
        key = self._key(state)
        if key == self._planned:
            return
        self._planned = key
        self._queue = [a for a in self._queue if a.kind != "host"]
        heapq.heapify(self._queue)
        table = table_of(self.referee)
        if state.phase is Phase.SETUP:
            first = self.sim.new_game(self.referee.at_ms(now_ns))
            self._at(now_ns + 500 * NS_PER_MS, lambda: self._submit(first, now_ns), "host")
            return
        if state.phase is not Phase.PLAY:
            return
        if table.claim is not None:  # the host reads the question, then confirms
            t = now_ns + self.rng.randint(1_200, 2_000) * NS_PER_MS
            self._at(t, lambda: self._confirm(t), "host")
            return
        if table.refused is not None:
            return  # the player takes the card back (scheduled with it)
        if self._awaiting is not None and len(state.plays) < self._awaiting:
            return  # a card is on its way
        event = self.sim.propose(state)
        t = now_ns + self.rng.randint(1_000, 2_200) * NS_PER_MS
        seat = state.to_act
        assert seat is not None
        if isinstance(event, CardPlayed):
            if (state.turn == self.early_press_turn and state.played_this_turn == 1
                    and state.played_this_turn < state.min_to_play and not self.early_presses):
                self.early_presses += 1
                self._press(seat, t, 150)
                t += 1_500 * NS_PER_MS
            if state.turn >= self.illegal_turn and not self.illegal_laid and \
                    state.played_this_turn == 0 and self._illegal(state, t):
                return
            self._lay(event.row, event.card, t, len(state.plays) + 1)
        elif isinstance(event, TurnEnded):
            # (a player who sees a refused play on the screen waits for the host: the press
            # is not made then, and planned again once the refusal is over)
            self._press(seat, t, self.rng.randint(90, 250),
                        unless=lambda: table_of(self.referee).refused is not None)
        elif isinstance(event, CannotPlay):
            self.long_presses += 1
            self._press(seat, t, 2_400)

    def _confirm(self, t_ns: int) -> None:
        table_of(self.referee).confirm_claim(t_ns)

    def _submit(self, event: Event, t_ns: int) -> None:
        stamped = type(event)(**{**event.__dict__, "at_ms": self.referee.at_ms(t_ns)})
        self.referee.submit(stamped)

    def _illegal(self, state: State, t_ns: int) -> bool:
        """Lay a card of the hand where it may not go, then take it back."""
        assert state.hands is not None and state.to_act is not None
        hand = state.hands[state.to_act]
        step = state.rules.backward_step
        wrong = [(r, c) for r, row in enumerate(state.rows) for c in hand
                 if not row.accepts(c, step)]
        if not wrong:
            return False
        row, card = self.rng.choice(wrong)
        self.illegal_laid += 1
        laid = self._lay(row, card, t_ns, None)
        back = t_ns + self.rng.randint(2_500, 3_500) * NS_PER_MS

        def take_back() -> None:
            self.taken_back += 1
            handle = laid[0]
            if self.camera is not None and handle is not None:
                if handle in self._piles[row]:
                    self._piles[row].remove(handle)
                self.camera.remove(handle)
                self._busy(back, 1_500)

        self._at(back, take_back, "table")
        later = back + self.rng.randint(800, 1_400) * NS_PER_MS
        self._at(later, lambda: table_of(self.referee).dismiss(), "table")
        return True

    def _lay(self, row: int, card: int, t_ns: int,
             plays_after: int | None) -> list[int | None]:
        """Lay ``card`` on ``row`` at ``t_ns``; returns a box holding its simulated-table
        handle once laid (None without a camera)."""
        camera = self.camera
        box: list[int | None] = [None]
        if camera is not None and self.rng.random() < self.hand_pass_rate:
            def hand() -> None:
                pose = row_pose(camera, row, self.rng)
                camera.hand_pass(8, target=(pose.x, pose.y))
                self._busy(t_ns - 400 * NS_PER_MS, 700)

            self._at(t_ns - 400 * NS_PER_MS, hand, "table")

        def lay() -> None:
            if plays_after is not None and table_of(self.referee).refused is not None:
                # a refused play is on the screen (the host's entry by hand): the player
                # waits for the host before laying their card (it is on its way meanwhile)
                self._awaiting = plays_after
                self._lay(row, card, t_ns + self.WAIT_MS * NS_PER_MS, plays_after)
                return
            self.placed += 1
            self._awaiting = plays_after
            if camera is None:
                self.referee.card_seen(CardSeen(card_id(card), t_ns, zone=ROW_ZONES[row]))
                return
            handle = camera.place(card_id(card), row_pose(camera, row, self.rng))
            box[0] = handle
            pile = self._piles[row]
            pile.append(handle)
            while len(pile) > self.PILE_KEPT:
                camera.remove(pile.pop(0))
            self._busy(t_ns, 600)
            if plays_after is not None:
                retry = t_ns + self.RETRY_MS * NS_PER_MS

                def straighten() -> None:
                    # Nobody's screen showed the card: the player lays it again, straighter.
                    if len(self.referee.state.plays) >= plays_after or \
                            table_of(self.referee).refused is not None:
                        return
                    self.relaid += 1
                    if handle in pile:
                        pile.remove(handle)
                        camera.remove(handle)
                    self._lay(row, card, retry, plays_after)

                self._at(retry, straighten, "table")

        self._at(t_ns, lay, "table")
        return box

    def _press(self, seat: int, t_ns: int, hold_ms: int,
               unless: Callable[[], bool] = lambda: False) -> None:
        """Press seat ``seat``'s button at ``t_ns`` for ``hold_ms``; not at all if
        ``unless()`` holds when the press is due (its release then is not made either)."""
        pins = self.seat_pins
        up = t_ns + hold_ms * NS_PER_MS
        made = [False]

        def down() -> None:
            if unless():
                return
            made[0] = True
            if pins is None:  # no buttons: the edges go straight to the table adapter
                self.referee.seat_edge(seat + 1, True, t_ns)
                return
            self.presses += 1
            pins[seat].press(t_ns)

        def release() -> None:
            if not made[0]:
                return
            if pins is None:
                self.referee.seat_edge(seat + 1, False, up)
            else:
                pins[seat].release(up)

        self._at(t_ns, down, "press")
        self._at(up, release, "press")
