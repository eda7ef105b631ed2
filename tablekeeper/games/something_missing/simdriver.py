"""The demo's simulated table: players who flip cards under the camera and slam the buzzers.

:class:`tablekeeper.games.something_missing.simplayers.SimTable` decides *what* happens
(which card is on top of whose pile, who remembers the item, who bets where, whether the item
is found); this module makes it happen *through the hardware seams*, so the demo exercises the
real code paths:

- a revealed card is laid on the simulated camera's centre pile (:class:`vision.simtable.
  SimulatedTable`); the vision pipeline has to recognise it (or, without a camera, the card is
  reported as seen directly);
- buzzer presses are edges on gpiozero mock pins (``firmware.mock.StampedMockPin``) stamped with
  human reaction times after the frame in which the card appeared -- and sometimes a little
  *before* it (an eager player, locked out for a moment by the arbiter);
- the host's decisions (bets, passes, found / not found, swaps) are submitted as the events the
  touch screen would produce.

Every decision draws from one injected ``random.Random``, so a seed replays the same game.
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core import Event
from engine.something_missing import (
    Bet,
    CheckResult,
    CheckTimeUp,
    HourglassTurned,
    NoBuzz,
    Pass,
    Phase,
    State,
    SwapScenes,
    ViewingTimeUp,
    next_revealer,
)
from tablekeeper.games.something_missing.simplayers import SimTable
from tablekeeper.referee import CardSeen, Referee

NS_PER_MS = 1_000_000


def card_id(card: int) -> str:
    """The demo item deck's id of engine item card ``card``: the demo deck numbers its items
    1-66 (``i01`` ... ``i66``), the engine 0-65."""
    return f"i{card + 1:02d}"


@dataclass(order=True)
class _Action:
    t_ns: int
    order: int
    run: Callable[[], None] = field(compare=False)
    kind: str = field(compare=False, default="")


class DemoTable:
    """Plays the table for the demo, one scheduled action at a time.

    ``PILE_KEPT``: how many of the newest centre-pile cards stay on the simulated table.

    ``camera`` is a :class:`vision.simtable.SimulatedTable` (or None: cards are reported to the
    referee as seen, without recognition); ``seat_pins`` are the seat buttons' mock pins (seat 1
    first; None: the arbiter is bypassed and the engine is told the winner directly).
    """

    PILE_KEPT = 4

    def __init__(self, sim: SimTable, referee: Referee, rng: random.Random, *,
                 camera: Any | None = None, seat_pins: list[Any] | None = None,
                 early_press_rate: float = 0.08, hand_pass_rate: float = 0.15,
                 ring: Any | None = None) -> None:
        self.sim = sim
        #: the ring on the simulated table (:class:`vision.simring.SimRing`): bets are tokens
        #: laid, checks scenes turned up, passes seat buttons (None: the host enters them)
        self.ring = ring
        self.tokens_laid = 0
        self.scenes_turned = 0
        self.passes_pressed = 0
        self._round_laid: int | None = None
        #: the camera is watched until then, or until the token laid is a bet (the bets'
        #: count then) or the scene turned up has started its check (-1)
        self._ring_until: tuple[int, int] | None = None
        self.referee = referee
        self.rng = rng
        self.camera = camera
        self.seat_pins = seat_pins
        self.early_press_rate = early_press_rate
        self.hand_pass_rate = hand_pass_rate
        self._queue: list[_Action] = []
        self._order = itertools.count()
        self._planned: tuple[Any, ...] | None = None
        self._card_out: int | None = None  # len(pile) after the card being laid lands
        #: the simulated camera is worth watching until then (a card laid, a hand passing)
        self._busy_until = 0
        self._awaiting: int | None = None  # the pile size once the laid card is accepted
        self._pile: list[int] = []  # simulated-table handles of the centre pile, oldest first
        self.placed = 0
        self.relaid = 0
        self.presses = 0
        self.early_presses = 0

    # --- scheduling --------------------------------------------------------------------------

    def _at(self, t_ns: int, run: Callable[[], None], kind: str) -> None:
        heapq.heappush(self._queue, _Action(t_ns, next(self._order), run, kind))

    def next_time(self) -> int | None:
        return self._queue[0].t_ns if self._queue else None

    def run_due(self, now_ns: int) -> None:
        while self._queue and self._queue[0].t_ns <= now_ns:
            heapq.heappop(self._queue).run()

    def wants_frames(self, now_ns: int) -> bool:
        """Only while something on the table can look different: a hand passing, or a card
        laid that the engine has not accepted yet (then the camera is watched until it is,
        or until the player lays it again)."""
        if self._awaiting is not None:
            if len(self.referee.state.pile) < self._awaiting:
                return True
            self._awaiting = None
        if self._ring_until is not None:
            until, bets = self._ring_until
            state = self.referee.state
            if now_ns <= until and (
                    len(state.bets) < bets if bets >= 0 else
                    state.check is not None and state.check.deadline_ms is None):
                return True
            self._ring_until = None
        return now_ns <= self._busy_until

    def _busy(self, t_ns: int, ms: int) -> None:
        self._busy_until = max(self._busy_until, t_ns + ms * NS_PER_MS)

    def _drop(self, kind: str) -> None:
        self._queue = [a for a in self._queue if a.kind != kind]
        heapq.heapify(self._queue)

    # --- planning ----------------------------------------------------------------------------

    def _key(self, state: State) -> tuple[Any, ...]:
        check = (state.check.position, state.check.deadline_ms) if state.check else None
        return (state.phase, state.round, len(state.pile), state.to_act, len(state.bets), check,
                state.replacement, state.swaps_made, state.deadline_ms is None)

    def plan(self, now_ns: int) -> None:
        """Look at the state; if it moved on since the last plan, schedule what happens next."""
        state = self.referee.state
        key = self._key(state)
        if key == self._planned:
            return
        self._planned = key
        self._drop("host")
        phase = state.phase
        if phase is Phase.SETUP:
            self._host(now_ns, self.sim.new_game(self.referee.at_ms(now_ns)))
        elif phase is Phase.REVEAL:
            self._plan_reveal(state, now_ns)
        elif phase is Phase.BUZZ:
            self._plan_buzz(state, now_ns)
        elif phase in (Phase.VIEWING, Phase.VIEW_REPLACEMENT, Phase.OVER) and not (
                phase is Phase.VIEWING and state.deadline_ms is None):
            return  # the referee's timer moves these on (or nothing does)
        else:
            event = self.sim.propose(state)
            if isinstance(event, CheckTimeUp | ViewingTimeUp):
                return  # the hourglass runs out: the referee's own timer sends it
            if self.ring is not None and self._on_ring(state, event, now_ns):
                return
            self._host(max(now_ns, self.referee.ns_at(event.at_ms)), event)

    # --- the ring: tokens laid, seat buttons pressed, scenes turned ----------------------------

    def _on_ring(self, state: State, event: Event, now_ns: int) -> bool:
        """Play ``event`` on the table itself where the camera (or a seat button) reads it;
        True if so. A token the camera has not read after 4 s is entered by the host."""
        ring = self.ring
        assert ring is not None
        t = max(now_ns, self.referee.ns_at(event.at_ms))
        if isinstance(event, Bet):
            def lay() -> None:
                if self.referee.state.to_act != event.seat:
                    return
                colour = state.players[event.seat].colour
                half = self.rng.random() < 0.15
                off = (0.0, self.rng.choice((-0.45, 0.45))) if half else (
                    self.rng.uniform(-0.08, 0.08), self.rng.uniform(-0.08, 0.08))
                if self.camera is not None and self.rng.random() < self.hand_pass_rate:
                    m = ring.memory_poses[event.position]
                    self.camera.hand_pass(6, target=(m.x, m.y))  # the player's hand
                ring.put_token(colour, event.position, off=off,
                               angle=self.rng.uniform(-8, 8))
                self.tokens_laid += 1
                # watched until the bet is read (or the host enters it)
                self._ring_until = (t + 4_000 * NS_PER_MS, len(self.referee.state.bets) + 1)

            self._at(t, lay, "host")
            self._host(t + 4_000 * NS_PER_MS, event)  # the camera missed it: the host enters it
            return True
        if isinstance(event, Pass):
            self.passes_pressed += 1
            self._press(event.seat, t)
            return True
        if isinstance(event, HourglassTurned | CheckResult) and state.check is not None:
            pos = state.check.position
            if ring.faces[pos] == "up":
                return False  # turned up and read: the host says found / not found
            def turn() -> None:
                ring.turn_up(pos)
                self.scenes_turned += 1
                self._ring_until = (t + 4_000 * NS_PER_MS, -1)  # until its check starts

            self._at(t, turn, "host")
            self._host(t + 4_000 * NS_PER_MS, HourglassTurned(at_ms=0))
            return True
        if isinstance(event, SwapScenes):
            ring.swap(event.a, event.b)
        return False

    def _reset_ring(self, state: State) -> None:
        """A new round's reveals: the tokens went back to their players, the scenes down."""
        ring = self.ring
        if ring is None or self._round_laid == state.round:
            return
        self._round_laid = state.round
        ring.take_tokens()
        for pos in range(ring.n):
            ring.turn_down(pos)
        if list(ring.scenes) != [s + 1 for s in state.scenes]:
            ring.scenes[:] = [s + 1 for s in state.scenes]

    def _host(self, t_ns: int, event: Event) -> None:
        self._at(t_ns, lambda: self._submit(event, t_ns), "host")

    def _submit(self, event: Event, t_ns: int) -> None:
        # Host entries are stamped when they happen on the demo's clock.
        stamped = type(event)(**{**event.__dict__, "at_ms": self.referee.at_ms(t_ns)})
        self.referee.submit(stamped)

    def _plan_reveal(self, state: State, now_ns: int, eager: bool = True) -> None:
        self._reset_ring(state)
        if self._card_out == len(state.pile) + 1:
            return  # already laid, waiting for the camera
        _seat, card = self.sim.next_card(state)
        delay = self.rng.randint(900, 2_200) * NS_PER_MS
        t = now_ns + delay
        camera = self.camera
        if camera is not None and self.rng.random() < self.hand_pass_rate:
            def hand() -> None:
                camera.hand_pass(8)
                self._busy(t - 400 * NS_PER_MS, 600)

            self._at(t - 400 * NS_PER_MS, hand, "table")
        if eager and self.seat_pins is not None and self.rng.random() < self.early_press_rate:
            seat = self.rng.randrange(state.n_players)
            early = self.rng.randint(40, 220) * NS_PER_MS
            self._press(seat, t - early, early=True)
        self._card_out = len(state.pile) + 1
        self._at(t, lambda: self._lay(card, t, len(state.pile) + 1), "table")

    def _lay(self, card: int, t_ns: int, pile_after: int) -> None:
        state = self.referee.state
        if state.phase not in (Phase.REVEAL, Phase.BUZZ) or len(state.pile) + 1 != pile_after:
            # The table moved on before this card was laid (someone buzzed after all): the
            # card stays in the player's hand; plan again from the new state.
            self._card_out = None
            self._planned = None
            return
        self.placed += 1
        self._awaiting = pile_after
        camera = self.camera
        if camera is None:
            self.referee.card_seen(CardSeen(card_id(card), t_ns))
            return
        handle = camera.place(card_id(card), "centre")
        self._pile.append(handle)
        while len(self._pile) > self.PILE_KEPT:
            # Deep in a real pile the old cards are hidden under the new ones: the simulated
            # table forgets them (each costs a frame-sized layer).
            camera.remove(self._pile.pop(0))
        retry = t_ns + 3_000 * NS_PER_MS

        def straighten() -> None:
            # Nobody's screen showed the card after 3 s: the player lays it again, straighter
            # (what people do when the box has not seen their card).
            if len(self.referee.state.pile) >= pile_after:
                return
            self.relaid += 1
            if handle in self._pile:
                self._pile.remove(handle)
                camera.remove(handle)
            self._lay(card, retry, pile_after)

        self._at(retry, straighten, "table")

    def _plan_buzz(self, state: State, now_ns: int) -> None:
        presses = self.sim.buzz_presses(state)
        shown_ns = self.referee.firmware.arbiter.armed_ns or now_ns
        if presses and self.seat_pins is not None:
            for seat, us in presses:
                self._press(seat, shown_ns + us * 1_000)
        elif presses:
            from tablekeeper.games.something_missing.simplayers import arbitrate

            event = arbitrate(presses, self.referee.at_ms(shown_ns), self.rng)
            self._host(self.referee.ns_at(event.at_ms), event)
        else:
            # Nobody remembers the item: after a moment the host presses "next" -- or, half of
            # the time, the next player simply reveals (the engine takes that as no buzz).
            # (when the table must first settle -- a replacement, the end -- nobody reveals)
            if self.rng.random() < 0.5 or next_revealer(state) is None:
                wait = self.rng.randint(2_000, 3_500) * NS_PER_MS
                self._host(now_ns + wait, NoBuzz(at_ms=0))
            else:
                # (no eager presses here: the current card is still live, a press would win it)
                self._plan_reveal(state, now_ns + self.rng.randint(1_500, 2_500) * NS_PER_MS,
                                  eager=False)

    def _press(self, seat: int, t_ns: int, early: bool = False) -> None:
        assert self.seat_pins is not None
        pin = self.seat_pins[seat]
        hold = self.rng.randint(90, 250) * NS_PER_MS

        def down() -> None:
            self.presses += 1
            self.early_presses += int(early)
            pin.press(t_ns)

        self._at(t_ns, down, "press")
        self._at(t_ns + hold, lambda: pin.release(t_ns + hold), "press")
