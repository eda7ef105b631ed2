"""The referee: the one place where the table's inputs become engine events, for any game.

Everything that happens at the table arrives here, in the app loop's thread, and goes through
:meth:`Referee.submit` -- the engine judges it, the journal records it (fsynced) before it is
acknowledged, the log names it. The game's own reading of the table is its kit's *table
adapter* (:attr:`Referee.table`, see :mod:`tablekeeper.games`): what a camera card means,
when the buzzers are armed and what a buzzer decision becomes. Inputs:

- a card the camera saw settle in a zone (:meth:`card_seen`): to the table adapter;
- the arbiter's decision (polled in :meth:`tick`): to the table adapter;
- the running timer's deadline (checked in :meth:`tick`): the engine's time-up event
  (:meth:`engine.core.Engine.deadline`);
- the host's decisions (touch, keyboard or the three host buttons), already turned into engine
  events by the screen (:meth:`submit`), and ``undo``.

Time: every timestamp here is CLOCK_MONOTONIC ns (lgpio edges, camera frames, the app clock);
the engine's game clock is milliseconds since the game started, carried on from the journal
when a game is resumed (the clock "stops" while the box is off, so a running 30 s hourglass
resumes with the time it had left).

Pausing (:meth:`Referee.pause`, :meth:`Referee.resume`): while the host menu, a question or a
confirmation is open, and after a restart until the host goes on, the game clock stands
still -- every engine deadline and every timer on the screen waits. The engine knows nothing
of it: the game clock's zero (``epoch_ns``) moves on by the time paused, so the events after
it carry game times without the pause, and replay gives the same times. The pause and the
resume are journalled as history notes (``pause`` with why, ``resume`` with ``paused_ms``).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.core import Event, Rejection
from firmware.arbiter import Decision
from firmware.box import Firmware
from tablekeeper.journal import JournaledGame
from tablekeeper.seen import CardSeen as CardSeen  # (its home is tablekeeper.seen)

if TYPE_CHECKING:
    from tablekeeper.games import Kit, TableAdapter

log = logging.getLogger("tablekeeper.referee")

NS_PER_MS = 1_000_000


@dataclass(frozen=True)
class BuzzInfo:
    """The last decision of the arbiter, for the screen and the log.

    The arbiter decides a few milliseconds after the first edge, so the runner-up it names is
    only one who pressed within that window. A slower second press comes later: the screen
    still wants to show "by 212 ms", so :meth:`Referee.note_press` fills in ``later_runner_up``
    and ``later_margin_us`` from the next press that arrives (display only; the journal keeps
    what the arbiter knew when it decided).
    """

    decision: Decision
    at_ms: int
    later_runner_up: int | None = None
    later_margin_us: int | None = None

    @property
    def runner_up(self) -> int | None:
        return self.decision.runner_up or self.later_runner_up

    @property
    def margin_us(self) -> int | None:
        if self.decision.margin_us is not None:
            return int(self.decision.margin_us)
        return self.later_margin_us


#: Rejections that are not the table's history: the journal could not be written (the pause
#: says so), or an undo with nothing to take back.
#: A ``bad_name`` event (a control or bidi-override character in a name) cannot be noted either:
#: the note would carry the same text.
UNRECORDED = frozenset({"journal_unwritable", "nothing_to_undo", "bad_name"})


class Referee:
    """Owns the game (engine state + journal), the game clock and the game's table adapter.

    ``kit``: the game's kit (default: the one the journal's header names); ``table_options``
    go to the kit's table adapter (什麼不見啦: ``card_ids``, the deck's ids of its item cards).
    """

    def __init__(self, game: JournaledGame, firmware: Firmware, now_ns: int, *,
                 kit: Kit | None = None, game_id: str = "",
                 on_change: Callable[[Any, Event | None], None] | None = None,
                 **table_options: Any) -> None:
        from tablekeeper.games import kit_for

        self.game = game
        self.firmware = firmware
        self.kit = kit if kit is not None else kit_for(game.journal.header.game)
        self.engine = self.kit.engine
        self.game_id = game_id
        self.on_change = on_change
        #: the game clock's zero on the monotonic clock; a resumed game carries on from the
        #: time of its last event.
        self.epoch_ns: int = now_ns - self.state.now_ms * NS_PER_MS
        #: when the game clock was paused (monotonic ns; None: it runs) and why
        self.paused_since: int | None = None
        self.paused_why: str = ""
        self.last_buzz: BuzzInfo | None = None
        self.last_rejection: Rejection | None = None
        #: Moves undone so far: the loop asks the camera to offer its cards again after one
        #: (:meth:`tablekeeper.app.Loop.step`), as an undo may take back a card's reveal.
        self.undos = 0
        #: Times the table adapter asked the same (:meth:`reoffer`): a card it could not play
        #: yet is still on the table, to be reported again once it can be.
        self.reoffers = 0
        self.table: TableAdapter = self.kit.table(self, now_ns, **table_options)

    @property
    def state(self) -> Any:
        return self.game.state

    @property
    def over(self) -> bool:
        return self.engine.is_over(self.state)

    def game_ms(self, t_ns: int) -> int:
        """The game clock at the monotonic time ``t_ns``: standing still while paused."""
        if self.paused_since is not None:
            t_ns = min(t_ns, self.paused_since)
        return (t_ns - self.epoch_ns) // NS_PER_MS

    def at_ms(self, t_ns: int) -> int:
        """A monotonic timestamp on the game clock (never before the last event)."""
        now_ms: int = self.state.now_ms
        return max(now_ms, self.game_ms(t_ns))

    # --- pausing ---------------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        return self.paused_since is not None

    @property
    def host_away(self) -> bool:
        """Paused by the host menu or a restart (not by a question the table answers): the
        simulated players wait too."""
        return self.paused and self.paused_why in ("menu", "restart")

    def pause(self, now_ns: int, why: str) -> bool:
        """Stop the game clock at ``now_ns`` (``why``: ``menu``, ``question``, ``restart``,
        ``back``: the host holding *back*, which may open the menu ...), journalled. Only a game
        under way pauses; True if it paused now. Paused while *back* was held, the pause goes
        on under the name of what followed (the menu): one pause, from the press."""
        if self.paused_since is not None:
            if self.paused_why == "back" and why != "back":
                self.paused_why = why
            return False
        if not self.engine.started(self.state) or self.over:
            return False
        self.paused_since = now_ns
        self.paused_why = why
        at = self.at_ms(now_ns)
        log.info("the game clock pauses at %d ms (%s)", at, why,
                 extra={"GAME_ID": self.game_id, "EVENT": "pause"})
        self.note("pause", at, why=why)
        return True

    def resume(self, now_ns: int) -> bool:
        """Let the game clock run again from where it stood: every deadline moves on by the
        time paused. Journalled with ``paused_ms``. True if it was paused."""
        since = self.paused_since
        if since is None:
            return False
        paused_ns = max(0, now_ns - since)
        at = self.at_ms(since)
        self.paused_since = None
        self.epoch_ns += paused_ns
        log.info("the game clock goes on at %d ms after %.1f s (%s)", at, paused_ns / 1e9,
                 self.paused_why, extra={"GAME_ID": self.game_id, "EVENT": "resume"})
        self.note("resume", at, why=self.paused_why, paused_ms=paused_ns // NS_PER_MS)
        self.paused_why = ""
        return True

    def ns_at(self, at_ms: int) -> int:
        return self.epoch_ns + at_ms * NS_PER_MS

    # --- inputs ----------------------------------------------------------------------------

    def submit(self, event: Event) -> Any:
        """Apply ``event``: journalled (fsynced) if accepted; a Rejection is logged, not
        raised."""
        before = self.state
        result = self.game.submit(event)
        fields = {"GAME_ID": self.game_id, "EVENT": event.type_name}
        seat = getattr(event, "seat", None)
        if seat is not None:
            fields["SEAT"] = str(seat)
        if isinstance(result, Rejection):
            self.last_rejection = result
            log.info("rejected %s: %s", event.type_name, result.reason, extra=fields)
            if result.code not in UNRECORDED:
                self.note("refused", getattr(event, "at_ms", None), event=event.to_dict(),
                          code=result.code, reason=result.reason)
            return result
        self.last_rejection = None
        log.info("%s", event.type_name, extra=fields)
        self.table.changed(before, result, event)
        if self.on_change is not None:
            self.on_change(result, event)
        return result

    def note(self, kind: str, at_ms: int | None = None, **fields: Any) -> None:
        """Journal a history record (``Journal.note``: refused plays, early presses, a
        camera/host mismatch ...): replay shows it and never applies it. A note that cannot
        be written is logged and dropped -- it never pauses the game nor reaches the loop."""
        try:
            self.game.note(kind, at_ms, **fields)
        except (OSError, TypeError, ValueError) as exc:
            log.warning("history note %s not journalled: %s", kind, exc)

    def card_seen(self, seen: CardSeen) -> Any:
        """The camera saw a new card settle in a zone: the game's table adapter says what it
        means."""
        return self.table.card_seen(seen)

    def undo(self) -> Any:
        before = self.state
        result = self.game.undo()
        if isinstance(result, Rejection):
            self.last_rejection = result
            return result
        log.info("undo", extra={"GAME_ID": self.game_id, "EVENT": "undo"})
        self.undos += 1
        self.table.changed(before, result, None)
        self.last_buzz = None
        if self.on_change is not None:
            self.on_change(result, None)
        return result

    def reoffer(self) -> None:
        """Have the camera report again the cards it sees (the loop does it at its next step):
        a card that could not be played when it settled is to be played now."""
        self.reoffers += 1

    def note_press(self, seat: int, t_ns: int) -> None:
        """A seat button went down (seat 1..8): the runner-up of the last buzz, if it is one."""
        buzz = self.last_buzz
        if buzz is None or buzz.runner_up is not None or seat == buzz.decision.winner:
            return
        gap = t_ns - buzz.decision.t_ns
        if 0 <= gap <= 5_000 * NS_PER_MS:
            self.last_buzz = dataclasses.replace(buzz, later_runner_up=seat,
                                                 later_margin_us=gap // 1_000)

    def seat_edge(self, seat: int, pressed: bool, t_ns: int) -> None:
        """A seat button (1..8) went down or up at ``t_ns`` (the edge's own time): to the
        table adapter, if it reads the buttons itself (The Game: a short press ends the
        turn, a long one says "I cannot play"). Optional for an adapter (``seat_edge``)."""
        handler = getattr(self.table, "seat_edge", None)
        if handler is not None:
            handler(seat, pressed, t_ns)

    def tick(self, now_ns: int) -> None:
        """Once per loop iteration: the arbiter's verdict, the table adapter's own timing (an
        optional ``tick(now_ns)``: a button held long enough) and the running timer."""
        decision = self.firmware.update(now_ns)
        if decision is not None:
            self.table.decision(decision)
        table_tick = getattr(self.table, "tick", None)
        if table_tick is not None:
            table_tick(now_ns)
        deadline = self.engine.deadline(self.state)
        if deadline is not None and self.game_ms(now_ns) >= deadline.at_ms:
            self.submit(deadline.event)

    def next_deadline_ns(self) -> int | None:
        """When the running timer ends, or the table adapter next wants a tick (an optional
        ``next_wake_ns()``: a held button's 2 s), on the monotonic clock (None: neither).
        While the game clock is paused its deadline is not due."""
        deadline = None if self.paused else self.engine.deadline(self.state)
        wakes = [] if deadline is None else [self.ns_at(deadline.at_ms)]
        table_wake = getattr(self.table, "next_wake_ns", None)
        if table_wake is not None and (t := table_wake()) is not None:
            wakes.append(t)
        return min(wakes) if wakes else None
