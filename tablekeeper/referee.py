"""The referee: the one place where the table's inputs become engine events.

Everything that happens at the table arrives here, in the app loop's thread, and goes through
:meth:`Referee.submit` -- the engine judges it, the journal records it (fsynced) before it is
acknowledged, the log names it. Inputs:

- a card the camera saw (:meth:`card_seen`): ``CardRevealed``; when the engine accepts it, the
  buzzer arbiter is armed at the *frame's* timestamp (the instant the card became visible);
- a card the camera did not recognise, or while it is not working, which the host says is up
  (:meth:`reveal_by_hand`): ``CardTurnedByHand``, armed from the host's press; a card the
  camera sees after that may be this one or the next: it is :attr:`Referee.held` until the
  host says (:meth:`take_held`, :meth:`drop_held`);
- the arbiter's decision (polled in :meth:`tick`): ``BuzzWon`` with the margin to the
  runner-up;
- the running timer's deadline (checked in :meth:`tick`): ``ViewingTimeUp`` / ``CheckTimeUp``;
- the host's decisions (touch, keyboard or the three host buttons), already turned into engine
  events by the screen (:meth:`submit`), and ``undo``.

Time: every timestamp here is CLOCK_MONOTONIC ns (lgpio edges, camera frames, the app clock);
the engine's game clock is milliseconds since the game started, carried on from the journal
when a game is resumed (the clock "stops" while the box is off, so a running 30 s hourglass
resumes with the time it had left).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from engine.core import Event, Rejection
from engine.something_missing import (
    BuzzWon,
    CardRevealed,
    CardTurnedByHand,
    CheckTimeUp,
    Phase,
    State,
    ViewingTimeUp,
    next_deadline,
)
from firmware.arbiter import Decision
from firmware.box import Firmware
from tablekeeper.journal import JournaledGame

log = logging.getLogger("tablekeeper.referee")

NS_PER_MS = 1_000_000


@dataclass(frozen=True)
class CardSeen:
    """A card the camera saw settle on the centre pile (from the vision tracker)."""

    card_id: str  # the deck's id, e.g. "i07"
    t_ns: int  # the frame's timestamp: when the card was first seen
    score: float = 1.0
    margin: float = 1.0
    #: First seen in the first frames after the camera started or came back: it may have lain
    #: there already (the camera cannot tell), e.g. the card the host turned over by hand
    #: while the camera was missing.
    lying: bool = False


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


class Referee:
    """Owns the game (engine state + journal) and the arbiter's arming."""

    def __init__(self, game: JournaledGame, firmware: Firmware, now_ns: int, *,
                 card_ids: Mapping[str, int], game_id: str = "",
                 on_change: Callable[[State, Event | None], None] | None = None) -> None:
        self.game = game
        self.firmware = firmware
        self.card_ids = dict(card_ids)
        self.deck_ids = {v: k for k, v in self.card_ids.items()}
        self.game_id = game_id
        self.on_change = on_change
        #: the game clock's zero on the monotonic clock; a resumed game carries on from the
        #: time of its last event.
        self.epoch_ns = now_ns - self.state.now_ms * NS_PER_MS
        self.last_buzz: BuzzInfo | None = None
        self.last_rejection: Rejection | None = None
        self._armed_for: int | None = None  # len(pile) the arbiter is armed for
        # len(pile) when the host last turned a card by hand (also as resumed, mid-buzz)
        pile = self.state.pile
        self._by_hand: int | None = (len(pile) if self.state.phase is Phase.BUZZ and pile
                                     and pile[-1] is None else None)
        #: A card the camera saw that may be the one the host turned over by hand, or the
        #: next one: the host says which (:meth:`card_seen`). Gone when the pile or the phase
        #: changes.
        self.held: CardSeen | None = None
        self._sync_arbiter(now_ns)

    @property
    def state(self) -> State:
        state: State = self.game.state
        return state

    def at_ms(self, t_ns: int) -> int:
        """A monotonic timestamp on the game clock (never before the last event)."""
        return max(self.state.now_ms, (t_ns - self.epoch_ns) // NS_PER_MS)

    def ns_at(self, at_ms: int) -> int:
        return self.epoch_ns + at_ms * NS_PER_MS

    # --- inputs ----------------------------------------------------------------------------

    def submit(self, event: Event) -> State | Rejection:
        """Apply ``event``: journalled (fsynced) if accepted; a Rejection is logged, not
        raised."""
        before = self.state
        result: State | Rejection = self.game.submit(event)
        fields = {"GAME_ID": self.game_id, "EVENT": event.type_name}
        seat = getattr(event, "seat", None)
        if seat is not None:
            fields["SEAT"] = str(seat)
        if isinstance(result, Rejection):
            self.last_rejection = result
            log.info("rejected %s: %s", event.type_name, result.reason, extra=fields)
            return result
        self.last_rejection = None
        log.info("%s", event.type_name, extra=fields)
        if before.phase is not result.phase or before.pile != result.pile:
            self.held = None
            self._sync_arbiter_state(result, event)
        if self.on_change is not None:
            self.on_change(result, event)
        return result

    def card_seen(self, seen: CardSeen) -> State | Rejection:
        """The camera saw a new card on the centre pile."""
        card = self.card_ids.get(seen.card_id)
        if card is None:
            rejection = Rejection("unknown_card",
                                  f"card {seen.card_id!r} is not an item card of this game")
            self.last_rejection = rejection
            log.warning("%s", rejection.reason)
            return rejection
        state = self.state
        late = state.phase is Phase.BUZZ and self._by_hand == len(state.pile)
        if late or (seen.lying and state.pile and state.pile[-1] is None):
            # The top of the pile was turned over by hand. The card the camera sees may be
            # that one, recognised late (while it is buzzed for) or coming into view (the
            # camera has just come back, or the box has just started); or it may be the next
            # card, laid on it. The camera reports a card once, and it cannot tell: the host
            # says (:meth:`take_held`, :meth:`drop_held`).
            self.held = seen
            rejection = Rejection("held_for_host", f"card {seen.card_id!r} may be the card "
                                                   "turned over by hand: the host says")
            self.last_rejection = rejection
            log.info("%s", rejection.reason)
            return rejection
        return self._reveal_seen(seen, card)

    def take_held(self) -> State | Rejection:
        """The host says the held card (:attr:`held`) is a new one: it is revealed as the
        camera saw it (armed at its frame, if that is recent enough)."""
        seen, self.held = self.held, None
        if seen is None:
            return Rejection("nothing_held", "no card from the camera waits for the host")
        return self._reveal_seen(seen, self.card_ids[seen.card_id])

    def drop_held(self) -> None:
        """The host says the held card is the one turned over by hand: it is forgotten."""
        if self.held is not None:
            log.info("card %r was the card turned over by hand", self.held.card_id)
        self.held = None

    def _reveal_seen(self, seen: CardSeen, card: int) -> State | Rejection:
        state = self.state
        seat = None
        if state.phase is Phase.REVEAL:
            seat = state.to_act
        result = self._submit_card(
            CardRevealed(at_ms=self.at_ms(seen.t_ns), card=card, seat=seat), seen.t_ns)
        if not isinstance(result, Rejection):
            self._by_hand = None
        return result

    def reveal_by_hand(self, now_ns: int) -> State | Rejection:
        """The host says the card just turned over is up, unnamed: the camera did not
        recognise it (or is not working). It plays as any card; the buzzers are armed from
        now."""
        state = self.state
        seat = state.to_act if state.phase is Phase.REVEAL else None
        result = self._submit_card(CardTurnedByHand(at_ms=self.at_ms(now_ns), seat=seat), now_ns)
        if not isinstance(result, Rejection):
            self._by_hand = len(result.pile)
        return result

    def _submit_card(self, event: CardRevealed | CardTurnedByHand,
                     frame_ns: int) -> State | Rejection:
        result = self.submit(event)
        if not isinstance(result, Rejection) and result.phase is Phase.BUZZ:
            # Arm at the frame's own timestamp: presses after the card became visible count,
            # even those made before this (later) moment of processing.
            self.firmware.arbiter.disarm()
            try:
                self.firmware.arbiter.arm(frame_ns)
            except ValueError:  # a frame from long ago (a stalled camera): arm from now
                log.warning("the card's frame is too old to arm at; arming the buzzers now")
                self.firmware.arbiter.arm()
            self._armed_for = len(result.pile)
            self.last_buzz = None
        return result

    def undo(self) -> State | Rejection:
        result: State | Rejection = self.game.undo()
        if isinstance(result, Rejection):
            self.last_rejection = result
            return result
        log.info("undo", extra={"GAME_ID": self.game_id, "EVENT": "undo"})
        self._by_hand = None
        self.held = None
        self._sync_arbiter_state(result, None)
        self.last_buzz = None
        if self.on_change is not None:
            self.on_change(result, None)
        return result

    def note_press(self, seat: int, t_ns: int) -> None:
        """A seat button went down (seat 1..8): the runner-up of the last buzz, if it is one."""
        buzz = self.last_buzz
        if buzz is None or buzz.runner_up is not None or seat == buzz.decision.winner:
            return
        gap = t_ns - buzz.decision.t_ns
        if 0 <= gap <= 5_000 * NS_PER_MS:
            self.last_buzz = dataclasses.replace(buzz, later_runner_up=seat,
                                                 later_margin_us=gap // 1_000)

    def tick(self, now_ns: int) -> None:
        """Once per loop iteration: the arbiter's verdict and the running timer."""
        decision = self.firmware.update(now_ns)
        if decision is not None and self.state.phase is Phase.BUZZ \
                and self._armed_for == len(self.state.pile):
            at = self.at_ms(decision.t_ns)
            result = self.submit(BuzzWon(at_ms=at, seat=decision.winner - 1,
                                         margin_us=int(decision.margin_us or 0),
                                         tie=decision.tie))
            if not isinstance(result, Rejection):
                self.last_buzz = BuzzInfo(decision, at)
        deadline = next_deadline(self.state)
        if deadline is not None and (now_ns - self.epoch_ns) // NS_PER_MS >= deadline:
            phase = self.state.phase
            if phase in (Phase.VIEWING, Phase.VIEW_REPLACEMENT):
                self.submit(ViewingTimeUp(at_ms=deadline))
            elif phase is Phase.CHECK:
                self.submit(CheckTimeUp(at_ms=deadline))

    # --- the arbiter follows the state -------------------------------------------------------

    def _sync_arbiter(self, now_ns: int) -> None:
        if self.state.phase is Phase.BUZZ:
            # Resumed mid-buzz: the card is already out; presses from now on count.
            self.firmware.arbiter.arm(now_ns)
            self._armed_for = len(self.state.pile)
        else:
            self.firmware.arbiter.disarm()
            self._armed_for = None

    def _sync_arbiter_state(self, state: State, event: Event | None) -> None:
        if state.phase is not Phase.BUZZ or (
                self._armed_for is not None and self._armed_for != len(state.pile)
                and not isinstance(event, CardRevealed | CardTurnedByHand)):
            self.firmware.arbiter.disarm()
            self._armed_for = None
