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
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core import Event, Rejection
from engine.something_missing import (
    BetSeen,
    BuzzWon,
    CardRevealed,
    CardTurnedByHand,
    NoBuzz,
    PassPressed,
    Phase,
    SceneTurnedUp,
    State,
)
from firmware.arbiter import ArbiterPhase, Decision
from tablekeeper.games.something_missing.camera import RingReport
from tablekeeper.referee import BuzzInfo, CardSeen

if TYPE_CHECKING:
    from tablekeeper.referee import Referee

log = logging.getLogger("tablekeeper.referee")

#: The phases in which cards are being laid on the centre pile, tokens on the memory cards
#: and scenes turned up: the camera is watched.
WATCHED = (Phase.REVEAL, Phase.BUZZ)
#: ... and where the camera reads the ring, also while bets are placed and scenes checked.
WATCHED_RING = (*WATCHED, Phase.BET, Phase.CHECK)


@dataclass(frozen=True)
class RingNote:
    """A camera reading of the ring that was not played (a conflict for the host to settle),
    or a scene turned up out of order: what the screen says, in both languages."""

    code: str
    zh: str
    en: str


def default_card_ids() -> dict[str, int]:
    """The demo item deck's ids (``i01`` ... ``i66``) -> the engine's item numbers 0..65."""
    return {f"i{i + 1:02d}": i for i in range(66)}


class Table:
    """The referee's 什麼不見啦 side: the centre pile, the by-hand card, the buzzers' arming."""

    def __init__(self, referee: Referee, now_ns: int, *,
                 card_ids: Mapping[str, int] | None = None, ring: bool = False) -> None:
        self.referee = referee
        #: the camera reads the ring (bets and checks); set too by the first ring report
        self.ring = ring
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
        #: the ring as the camera last settled it: (position, slot) -> token colour
        self.tokens: dict[tuple[int, int], str] = {}
        #: tokens seen this poll, played (or named a conflict) at the next tick
        self._fresh: list[RingReport] = []
        #: tokens out of turn, by seat: played when it is that seat's turn (if still there)
        self.waiting: dict[int, RingReport] = {}
        #: the last conflict on the ring, for the screen (None: none)
        self.note: RingNote | None = None
        #: every ring reading not played, for the log and the demo's figures
        self.notes: list[RingNote] = []
        self._undone = False
        self._sync_arbiter(now_ns)

    @property
    def state(self) -> State:
        state: State = self.referee.state
        return state

    def watching(self, state: State) -> bool:
        return state.phase in (WATCHED_RING if self.ring else WATCHED)

    # --- inputs ----------------------------------------------------------------------------

    def card_seen(self, seen: CardSeen) -> State | Rejection | None:
        """The camera saw a new card on the centre pile, or a change on the ring."""
        if isinstance(seen, RingReport):
            self.ring = True
            return self.ring_seen(seen)
        if self.state.phase not in WATCHED:
            # a centre card while bets are placed or scenes checked (the ring is read then):
            # it is offered again when cards are revealed
            self.deferred = seen
            return Rejection("waits_for_reveal", f"card {seen.card_id!r} is played when cards "
                                                 "are revealed again")
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

    # --- the ring: bets and checks by camera --------------------------------------------------

    def ring_seen(self, report: RingReport) -> State | Rejection | None:
        """A settled change on the ring: a scene turned up starts its check; a new token is
        played at the next tick (two at once are a conflict)."""
        if report.slot == 0:
            if report.face == "up":
                return self._scene_up(report)
            return None
        key = (report.position, report.slot)
        if report.marker is None:
            self.tokens.pop(key, None)
            return None
        if self.tokens.get(key) == report.marker:
            return None
        self.tokens[key] = report.marker
        if self.state.phase is Phase.BET:
            self._fresh.append(report)
        return None

    def _scene_up(self, report: RingReport) -> State | Rejection | None:
        state = self.state
        if state.phase is not Phase.CHECK or state.check is None:
            return None
        if state.check.deadline_ms is not None:
            return None  # the hourglass already runs (turned by hand)
        result: State | Rejection = self.referee.submit(
            SceneTurnedUp(at_ms=self.referee.at_ms(report.t_ns), position=report.position))
        if isinstance(result, Rejection) and result.code == "out_of_order":
            up, now = _letter(report.position), _letter(state.check.position)
            self._conflict("out_of_order", f"場景 {up} 翻錯順序：先檢視場景 {now}",
                           f"scene {up} turned out of order: check {now} now")
        return result

    def tick(self, now_ns: int) -> None:
        """The tokens seen since the last tick become bets (or conflicts)."""
        fresh, self._fresh = self._fresh, []
        if self.state.phase is not Phase.BET or not fresh:
            return
        if self._undone:
            # after an undo the camera reports every token again, at once: those that lie
            # as the turn order and the slots say are the bets again, in that order
            self._undone = False
            while fresh:
                state = self.state
                turn = state.players[state.to_act].colour if state.to_act is not None else None
                mine = next((r for r in fresh if r.marker == turn), None)
                if mine is None or state.phase is not Phase.BET:
                    break
                fresh.remove(mine)
                self._token(mine)
            for r in fresh:
                if self.state.phase is Phase.BET:
                    self._token(r)
            return
        if len(fresh) > 1:
            where = ", ".join(f"{r.marker} @ {_letter(r.position)}{r.slot}" for r in fresh)
            self._conflict("two_at_once", f"同時出現兩個以上代表物（{where}）：請主持人輸入",
                           f"{len(fresh)} tokens at once ({where}): the host enters them")
            return
        self._token(fresh[0])

    def _token(self, r: RingReport) -> None:
        state = self.state
        pos, slot, colour = r.position, r.slot, r.marker
        colours = [p.colour for p in state.players]
        if colour not in colours:
            self._conflict("unknown_token",
                           f"場景 {_letter(pos)} 的回憶卡上有無法辨識的代表物：請主持人輸入",
                           f"a token the camera cannot name on scene {_letter(pos)}'s memory "
                           "card: the "
                           "host enters the bet")
            return
        seat = colours.index(colour)
        name = state.players[seat].name
        if pos >= len(state.scenes):
            self._conflict("no_scene", f"{name} 的代表物在未使用的回憶卡 {pos + 1} 上",
                           f"{name}'s token is on memory card {pos + 1}, not in play")
            return
        placed = state.bet_of(seat)
        if placed is not None:
            if placed.position != pos:
                self._conflict("already_bet", f"{name} 已投注場景 {_letter(placed.position)}",
                               f"{name} already bet on scene {_letter(placed.position)}: the host "
                               "corrects it")
            return  # (the bet the host entered, now seen: nothing to do)
        if seat != state.to_act:
            if seat in state.bet_order:
                self.waiting[seat] = r
                who = state.players[state.to_act].name if state.to_act is not None else "?"
                self._conflict("out_of_turn", f"{name} 的代表物未輪到：等 {who} 決定",
                               f"{name}'s token is out of turn: {who} decides first")
            else:
                self._conflict("passed", f"{name} 已放棄投注", f"{name} passed this round")
            return
        expected = state.tokens_on(pos) + 1
        if slot != expected:
            self._conflict("wrong_slot", f"{name} 的代表物在第 {slot} 格，應在第 {expected} 格",
                           f"{name}'s token is in slot {slot}; the rules give slot {expected}")
            return
        result = self.referee.submit(BetSeen(at_ms=self.referee.at_ms(r.t_ns), seat=seat,
                                             position=pos))
        if not isinstance(result, Rejection):
            self.note = None

    def _conflict(self, code: str, zh: str, en: str) -> None:
        note = RingNote(code, zh, en)
        self.note = note
        self.notes.append(note)
        log.warning("ring: %s", en, extra={"EVENT": f"ring_{code}"})

    def seat_edge(self, seat: int, pressed: bool, t_ns: int) -> None:
        """A seat button (1-based): while it is that player's turn to bet, they pass."""
        state = self.state
        if (pressed and state.phase is Phase.BET and state.to_act == seat - 1
                and (state.buzz is None or state.buzz.seat != seat - 1)):
            self.referee.submit(PassPressed(at_ms=self.referee.at_ms(t_ns), seat=seat - 1))

    # --- the arbiter follows the state -------------------------------------------------------

    def changed(self, before: State, after: State, event: Event | None) -> None:
        if after.phase is not Phase.BET:
            self.waiting.clear()
        if before.phase is not after.phase and after.phase in (Phase.BET, Phase.REVEAL):
            self.note = None
        if (after.phase is Phase.BET and after.to_act is not None
                and after.to_act in self.waiting and event is not None):
            waiting = self.waiting.pop(after.to_act)
            if self.tokens.get((waiting.position, waiting.slot)) == waiting.marker:
                self._fresh.append(waiting)  # still there: played at the next tick
        if event is None:  # undone: the ring is reported again (Loop's reoffer)
            self.tokens.clear()
            self._undone = True
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


def _letter(position: int) -> str:
    """A scene position as the screens name it (A, B, C ...)."""
    return chr(ord("A") + position) if 0 <= position < 26 else str(position + 1)


def table_of(referee: Referee) -> Table:
    """The 什麼不見啦 table adapter of a referee keeping that game."""
    table = referee.table
    if not isinstance(table, Table):
        raise TypeError(f"the referee keeps {referee.kit.name}, not 什麼不見啦")
    return table
