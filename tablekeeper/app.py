"""The app loop: one thread, one queue of inputs, the engine in the middle.

Each iteration (:meth:`Loop.step`):

1. host inputs (touch, keyboard, the three host buttons) and seat edges queued by the firmware
   are drained; seat edges already reached the arbiter from the GPIO callback thread with their
   kernel timestamps, so the queue only carries what the *app* must act on;
2. while cards are being laid (the game's table adapter says when), the cards the camera saw
   are collected (at the table a
   background thread captures and recognises the frames, so the loop never waits on them; on
   a simulated clock a frame is recognised inline when one is due); a card that settles in a zone
   goes to the game's table adapter (什麼不見啦: ``CardRevealed``, arming the arbiter at the
   frame's timestamp);
3. the referee polls the arbiter (``BuzzWon``) and the running timer (time-ups);
4. the screen renders a snapshot of the state -- only when something changed or a timer or
   animation is running -- and only then is the systemd watchdog pinged, so a frozen screen is
   a dead service.

Time comes from an injected :class:`tablekeeper.clock.Clock`: the real monotonic clock at the
table, a :class:`~tablekeeper.clock.FakeClock` in tests and in the fast headless demo, where
:meth:`Loop.run` jumps straight to the next thing that will happen.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from firmware.arbiter import ArbiterPhase
from firmware.devices import SeatEdge
from tablekeeper.ask import Asks, question_of
from tablekeeper.clock import Clock, FakeClock
from tablekeeper.referee import CardSeen, Referee

log = logging.getLogger("tablekeeper.app")

NS_PER_MS = 1_000_000
FRAME_NS = 33_333_333  # 30 frames a second


class CardSource(Protocol):
    """The vision side as the loop sees it: frames in, settled cards out."""

    def poll(self, now_ns: int) -> list[CardSeen]: ...

    @property
    def status(self) -> str | None: ...

    def close(self) -> None: ...


def reoffer(cards: CardSource) -> None:
    """Ask ``cards`` to report again the cards it sees (after an undo). A camera reports a
    card once, when it settles; an undo may take back that card's reveal while the card
    stays on the pile, and the game would wait for it for ever. A source without
    ``reoffer()`` (a test's scripted cards) is left alone."""
    again = getattr(cards, "reoffer", None)
    if callable(again):
        again()


#: How long the camera is read after an undo even when the (simulated) table says nothing
#: moves: long enough for the card on the pile to settle again.
REOFFER_NS = 1_000_000_000


class Screen(Protocol):
    """The display side as the loop sees it."""

    def handle_events(self, loop: Loop) -> None: ...

    def seat_pressed(self, loop: Loop, seat: int, t_ns: int) -> None: ...

    def render(self, loop: Loop, now_ns: int) -> bool: ...

    def close(self) -> None: ...


class Table(Protocol):
    """Something that acts at the table on its own: the demo's simulated players."""

    def plan(self, now_ns: int) -> None: ...

    def run_due(self, now_ns: int) -> None: ...

    def next_time(self) -> int | None: ...

    def wants_frames(self, now_ns: int) -> bool:
        """Whether anything on the (simulated) table can look different now: a card being
        laid or a hand passing. A real camera is always watched while cards are revealed."""
        ...


@dataclass
class Loop:
    referee: Referee
    clock: Clock
    cards: CardSource | None = None
    screen: Screen | None = None
    table: Table | None = None
    watchdog: Callable[[], None] | None = None
    frame_ns: int = FRAME_NS
    stopped: bool = False
    ticks: int = 0
    host_inputs: list[Any] = field(default_factory=list)
    #: When the game last entered the phases in which cards are revealed (None outside them):
    #: no card counts as seen before that (:meth:`_in_spell`).
    watched_since: int | None = field(default=None, init=False)
    #: The questions about cards the camera found but could not name (issue 37; None: not
    #: asked, such cards are ignored as before): the screen puts them to the host.
    asks: Asks | None = None
    #: The deck the camera watches, growing the cards the host names (issue 37:
    #: ``vision.learnt.LearningDeck``; None: nothing is learnt).
    learning: Any = None
    #: The referee's undo count last seen, and until when the camera is read after one.
    _undos: int = field(default=0, init=False)
    _reoffer_until: int | None = field(default=None, init=False)

    def step(self) -> None:
        now = self.clock.now_ns()
        self.ticks += 1
        # (the simulated players wait while the host is in the menu, as a table does; a
        # question of the game is theirs to answer)
        if self.table is not None and not self.referee.host_away:
            self.table.plan(now)
            self.table.run_due(now)
        if self.screen is not None:
            self.screen.handle_events(self)
        for item in self.referee.firmware.hub.drain():
            if isinstance(item, SeatEdge):
                self.referee.seat_edge(item.seat, item.pressed, item.t_ns)
                if item.pressed and self.screen is not None:
                    self.screen.seat_pressed(self, item.seat, item.t_ns)
                elif item.pressed:
                    self.referee.note_press(item.seat, item.t_ns)
            else:
                self.host_inputs.append(item)
        self._after_undo(now)
        if not self.referee.table.watching(self.referee.state):
            self.watched_since = None
        elif self.watched_since is None:
            self.watched_since = now
        if self.cards is not None and self.watching(now):
            for seen in self.cards.poll(now):
                if self.asks is not None:
                    self.asks.named(seen.zone, seen.centre)
                self.card_seen(seen)
            self._take_questions()
        self.referee.tick(now)
        self._after_undo(now)  # (an undo by a host button, polled in tick)
        if self.table is not None:
            self.table.plan(now)
        if self.screen is not None:
            self.screen.render(self, now)
        if self.watchdog is not None:
            self.watchdog()

    def card_seen(self, seen: CardSeen) -> Any:
        """A card settled in a zone (the camera's, or the host's answer to a question about
        one): to the referee, as seen no earlier than this spell of cards."""
        return self.referee.card_seen(self._in_spell(seen))

    def _take_questions(self) -> None:
        """The cards the camera found but could not name, as questions for the host, while
        the game asks about them (its table adapter's ``asks(state)``; default: while it
        watches the cards)."""
        take = getattr(self.cards, "questions", None)
        if not callable(take):
            return
        unsure = take()
        if not unsure or self.asks is None:
            return
        wanted = getattr(self.referee.table, "asks", None)
        if callable(wanted) and not wanted(self.referee.state):
            return
        for u in unsure:
            self.asks.add(question_of(u, self.asks.next_serial()))

    def _after_undo(self, now_ns: int) -> None:
        """After an undo (or when the table adapter asks: :meth:`Referee.reoffer`), the camera
        offers the cards it sees again (:func:`reoffer`), and
        is read for :data:`REOFFER_NS` from when cards are revealed again, whatever the
        simulated table says. Generic: any game's
        undo may take back a card the camera reported once."""
        undos = self.referee.undos + self.referee.reoffers
        if undos == self._undos:
            return
        self._undos = undos
        if self.cards is not None:
            log.info("a move was undone, or a card can be played now: the camera offers the "
                     "cards it sees again")
            reoffer(self.cards)
            self._reoffer_until = -1  # from when cards are revealed again (:meth:`watching`)

    def _in_spell(self, seen: CardSeen) -> CardSeen:
        """``seen`` as seen no earlier than the cards began to be revealed. At the table the
        camera thread may recognise a card in the last frames it took as the game left the
        revealing phases; it reaches the loop at the next poll, when cards are revealed
        again, stamped with that older frame's time. Arming the buzzers then would count
        presses made before this spell began (while a bet was placed, say), so its time
        becomes the spell's start, as if seen in its first frame."""
        since = self.watched_since
        if since is None or seen.t_ns >= since:
            return seen
        log.info("card %s was seen %.3f s before cards were revealed again; counted as seen "
                 "when they were", seen.card_id, (since - seen.t_ns) / 1e9)
        return replace(seen, t_ns=since)

    def watching(self, now_ns: int) -> bool:
        """Whether the camera is read now: cards are being revealed (and, in the demo, the
        simulated table can look different)."""
        if not self.referee.table.watching(self.referee.state):
            return False
        if self._reoffer_until is not None:
            if self._reoffer_until < 0:
                self._reoffer_until = now_ns + REOFFER_NS
            if now_ns <= self._reoffer_until:
                return True
            self._reoffer_until = None
        return self.table is None or self.table.wants_frames(now_ns)

    def stop(self) -> None:
        self.stopped = True

    @property
    def over(self) -> bool:
        return self.referee.over

    def next_wake(self, now_ns: int) -> int:
        """When something can next happen: the fast-forward target of a simulated clock."""
        wake: list[int] = []
        if (self.table is not None and not self.referee.host_away
                and (t := self.table.next_time()) is not None):
            wake.append(t)
        deadline = self.referee.next_deadline_ns()
        if deadline is not None:
            wake.append(deadline)
        if (self.cards is not None and self.watching(now_ns)) or (
                self.referee.firmware.arbiter.phase is ArbiterPhase.ARMED):
            wake.append(now_ns + self.frame_ns)
        if not wake:
            return now_ns + self.frame_ns
        return max(now_ns + NS_PER_MS, min(wake))

    def run_simulated(self, max_ticks: int = 300_000,
                      until: Callable[[Loop], bool] | None = None) -> None:
        """Run on a :class:`FakeClock`, jumping to the next moment anything happens."""
        clock = self.clock
        assert isinstance(clock, FakeClock), "run_simulated needs a FakeClock"
        done = until or (lambda loop: loop.over)
        while not self.stopped and not done(self) and self.ticks < max_ticks:
            self.step()
            now = clock.now_ns()
            clock.advance(self.next_wake(now) - now)
        if not self.stopped and not done(self):
            raise RuntimeError(f"the simulated game did not finish in {max_ticks} ticks")
        self.step()  # render the final state
