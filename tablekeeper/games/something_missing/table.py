"""什麼不見啦 at the table: how camera cards, buzzer decisions and the host's by-hand card become
the engine's events, and when the buzzers are armed.

Owned by the generic :class:`tablekeeper.referee.Referee` (``referee.table``); gone with it.

- a card the camera saw on the centre pile (:meth:`card_seen`): ``CardRevealed``; when the
  engine accepts it, the buzzer arbiter is armed at the *frame's* timestamp (the instant the
  card became visible);
- a card the camera did not recognise, or while it is not working, which the host says is up
  (:meth:`reveal_by_hand`): ``CardTurnedByHand``, armed from the host's press; a card the
  camera sees after that may be this one or the next: it is :attr:`held` until the host says
  (:meth:`take_held`, :meth:`drop_held`);
- a card laid while a scene replacement must first be decided (advanced: the last card of a
  pile was buzzed for nobody): ``NoBuzz`` (the new card says nobody buzzed), and the card
  waits (:attr:`deferred`); when play resumes the camera reports it again (``Referee.reoffer``)
  and it is revealed then, armed from that moment;
- the arbiter's decision (:meth:`decision`): ``BuzzWon`` with the margin to the runner-up.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.core import Event, Rejection
from engine.something_missing import (
    BuzzWon,
    CardRevealed,
    CardTurnedByHand,
    NoBuzz,
    Phase,
    State,
)
from firmware.arbiter import ArbiterPhase, Decision
from tablekeeper.referee import BuzzInfo, CardSeen

if TYPE_CHECKING:
    from tablekeeper.referee import Referee

log = logging.getLogger("tablekeeper.referee")

#: The phases in which cards are being laid on the centre pile: the camera is watched.
WATCHED = (Phase.REVEAL, Phase.BUZZ)


def default_card_ids() -> dict[str, int]:
    """The demo item deck's ids (``i01`` ... ``i66``) -> the engine's item numbers 0..65."""
    return {f"i{i + 1:02d}": i for i in range(66)}


class Table:
    """The referee's 什麼不見啦 side: the centre pile, the by-hand card, the buzzers' arming."""

    def __init__(self, referee: Referee, now_ns: int, *,
                 card_ids: Mapping[str, int] | None = None) -> None:
        self.referee = referee
        self.card_ids = dict(card_ids if card_ids is not None else default_card_ids())
        self.deck_ids = {v: k for k, v in self.card_ids.items()}
        self._armed_for: int | None = None  # len(pile) the arbiter is armed for
        # len(pile) when the host last turned a card by hand (also as resumed, mid-buzz)
        pile = self.state.pile
        self._by_hand: int | None = (len(pile) if self.state.phase is Phase.BUZZ and pile
                                     and pile[-1] is None else None)
        #: A card the camera saw that may be the one the host turned over by hand, or the
        #: next one: the host says which (:meth:`card_seen`). Gone when the pile or the phase
        #: changes.
        self.held: CardSeen | None = None
        #: A card laid while a scene replacement had to be decided first: it is revealed
        #: when play resumes (:meth:`changed`).
        self.deferred: CardSeen | None = None
        self._sync_arbiter(now_ns)

    @property
    def state(self) -> State:
        state: State = self.referee.state
        return state

    def watching(self, state: State) -> bool:
        return state.phase in WATCHED

    # --- inputs ----------------------------------------------------------------------------

    def card_seen(self, seen: CardSeen) -> State | Rejection:
        """The camera saw a new card on the centre pile."""
        card = self.card_ids.get(seen.card_id)
        if card is None:
            rejection = Rejection("unknown_card",
                                  f"card {seen.card_id!r} is not an item card of this game")
            self.referee.last_rejection = rejection
            log.warning("%s", rejection.reason)
            return rejection
        state = self.state
        if card in state.pile:
            # The card on top, offered again after an undo (the camera reports every card it
            # sees again then): already played, nothing to say on the screen.
            log.info("card %r is already on the pile", seen.card_id)
            return Rejection("card_already_revealed",
                             f"item card {seen.card_id!r} is already on the pile")
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
            self.referee.last_rejection = rejection
            log.info("%s", rejection.reason)
            self.referee.note("mismatch", self.referee.at_ms(seen.t_ns), camera=seen.card_id,
                              host="a card turned over by hand",
                              question="a new card, or the one turned by hand?")
            return rejection
        if (state.phase is Phase.BUZZ and state.replacements_due > 0
                and state.rules.interpretations.reveal_implies_no_buzz):
            # The last card of a pile was buzzed for by nobody, and a replacement must be
            # decided before the next card plays: the new card says nobody buzzed, and
            # waits (the camera reports it again when play resumes).
            result: State | Rejection = self.referee.submit(
                NoBuzz(at_ms=self.referee.at_ms(seen.t_ns)))
            if not isinstance(result, Rejection) and result.phase is not Phase.REVEAL:
                self.deferred = seen
                rejection = Rejection("waits_for_replacement",
                                      f"card {seen.card_id!r} is played once the scene "
                                      "replacement is decided")
                self.referee.last_rejection = rejection
                log.info("%s", rejection.reason)
                return rejection
            if isinstance(result, Rejection) or result.phase is not Phase.REVEAL:
                return result
        return self._reveal_seen(seen, card)

    def take_held(self) -> State | Rejection:
        """The host says the held card (:attr:`held`) is a new one: it is revealed as the
        camera saw it (armed at its frame, if that is recent enough)."""
        seen, self.held = self.held, None
        if seen is None:
            return Rejection("nothing_held", "no card from the camera waits for the host")
        self.referee.note("host_decision", self.referee.state.now_ms, camera=seen.card_id,
                          decision="a new card")
        return self._reveal_seen(seen, self.card_ids[seen.card_id])

    def drop_held(self) -> None:
        """The host says the held card is the one turned over by hand: it is forgotten."""
        if self.held is not None:
            log.info("card %r was the card turned over by hand", self.held.card_id)
            self.referee.note("host_decision", self.referee.state.now_ms,
                              camera=self.held.card_id, decision="the card turned by hand")
        self.held = None

    def _reveal_seen(self, seen: CardSeen, card: int) -> State | Rejection:
        state = self.state
        seat = None
        if state.phase is Phase.REVEAL:
            seat = state.to_act
        result = self._submit_card(
            CardRevealed(at_ms=self.referee.at_ms(seen.t_ns), card=card, seat=seat),
            seen.t_ns)
        if not isinstance(result, Rejection):
            self._by_hand = None
        return result

    def reveal_by_hand(self, now_ns: int) -> State | Rejection:
        """The host says the card just turned over is up, unnamed: the camera did not
        recognise it (or is not working). It plays as any card; the buzzers are armed from
        now."""
        state = self.state
        seat = state.to_act if state.phase is Phase.REVEAL else None
        result = self._submit_card(CardTurnedByHand(at_ms=self.referee.at_ms(now_ns),
                                                    seat=seat), now_ns)
        if not isinstance(result, Rejection):
            self._by_hand = len(result.pile)
        return result

    def _submit_card(self, event: CardRevealed | CardTurnedByHand,
                     frame_ns: int) -> State | Rejection:
        result: State | Rejection = self.referee.submit(event)
        if not isinstance(result, Rejection) and result.phase is Phase.BUZZ:
            # Arm at the frame's own timestamp: presses after the card became visible count,
            # even those made before this (later) moment of processing.
            arbiter = self.referee.firmware.arbiter
            arbiter.disarm()
            try:
                arbiter.arm(frame_ns)
            except ValueError:  # a frame from long ago (a stalled camera): arm from now
                log.warning("the card's frame is too old to arm at; arming the buzzers now")
                arbiter.arm()
            self._armed_for = len(result.pile)
            self.referee.last_buzz = None
        return result

    def decision(self, decision: Decision) -> None:
        """The arbiter's verdict on a buzz for the card it was armed for."""
        referee = self.referee
        if decision.locked_out:  # pressed before the buzzers were armed: the table's history
            referee.note("early_press", referee.at_ms(decision.t_ns),
                         seats=[s - 1 for s in decision.locked_out])
        if self.state.phase is Phase.BUZZ and self._armed_for == len(self.state.pile):
            at = referee.at_ms(decision.t_ns)
            result = referee.submit(BuzzWon(at_ms=at, seat=decision.winner - 1,
                                            margin_us=int(decision.margin_us or 0),
                                            tie=decision.tie))
            if not isinstance(result, Rejection):
                referee.last_buzz = BuzzInfo(decision, at)

    # --- the arbiter follows the state -------------------------------------------------------

    def changed(self, before: State, after: State, event: Event | None) -> None:
        if event is None:  # undone
            # The loop has the camera offer the card on the pile again, seen anew (not
            # ``lying``): it is the card whose reveal was undone, laid on any card turned by
            # hand, not a late sighting of that one (:meth:`card_seen`).
            self._by_hand = None
            self.held = None
            self.deferred = None
            self._sync_arbiter_state(after, None)
        elif before.phase is not after.phase or before.pile != after.pile:
            self.held = None
            self._sync_arbiter_state(after, event)
            if self.deferred is not None and after.phase is Phase.REVEAL:
                log.info("play resumes: card %r, laid during the replacement, is offered "
                         "again", self.deferred.card_id)
                self.deferred = None
                self.referee.reoffer()

    def resync(self, now_ns: int) -> None:
        """After a pause (the journal could not be written): a buzz decided meanwhile was
        refused, so the buzzers are armed again, from now, while the card is buzzed for."""
        arbiter = self.referee.firmware.arbiter
        if self.state.phase is Phase.BUZZ and arbiter.phase is not ArbiterPhase.ARMED:
            arbiter.arm(now_ns)
            self._armed_for = len(self.state.pile)

    def _sync_arbiter(self, now_ns: int) -> None:
        arbiter = self.referee.firmware.arbiter
        if self.state.phase is Phase.BUZZ:
            # Resumed mid-buzz: the card is already out; presses from now on count.
            arbiter.arm(now_ns)
            self._armed_for = len(self.state.pile)
        else:
            arbiter.disarm()
            self._armed_for = None

    def _sync_arbiter_state(self, state: State, event: Event | None) -> None:
        if state.phase is not Phase.BUZZ or (
                self._armed_for is not None and self._armed_for != len(state.pile)
                and not isinstance(event, CardRevealed | CardTurnedByHand)):
            self.referee.firmware.arbiter.disarm()
            self._armed_for = None


def table_of(referee: Referee) -> Table:
    """The 什麼不見啦 table adapter of a referee keeping that game."""
    table = referee.table
    if not isinstance(table, Table):
        raise TypeError(f"the referee keeps {referee.kit.name}, not 什麼不見啦")
    return table
