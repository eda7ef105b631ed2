"""致命遊戲 The Game at the table: how camera cards on the four rows, the seat buttons and the
host's entries become the engine's events.

Owned by the generic :class:`tablekeeper.referee.Referee` (``referee.table``); gone with it.

- **The rows.** The calibration (``tablekeeper vision calibrate --layout rows:4``) names the
  four row zones ``row1`` .. ``row4``; :data:`ZONE_ROWS` maps them to the engine's rows 0-3
  (row1 and row2 ascending, row3 and row4 descending, as the seed lays them). A number card
  that settles on a row (:meth:`Table.card_seen`; the tracker reports a card once it has been
  seen steadily, so a card seen for one frame or a hand over a row plays nothing) is a
  ``CardPlayed`` on that row, stamped with its frame. The row cards (1 and 100) play nothing.
- **A refused play** (against the rules, or a card not in the hand) is not applied: it is
  :attr:`Table.refused` ("37 cannot go on ↑45"), which the screen shows at once with a sound,
  until the table takes the card back (the camera sees the row's previous top again, or
  nothing new) and something else happens, or the host overrides it as a house rule
  (:meth:`Table.house_rule`, journalled as ``HouseRulePlay``) or dismisses it.
- **The seat buttons** (:meth:`Table.seat_edge`, every edge with its own timestamp, from the
  firmware's input hub): a press of the acting player's button released within
  :data:`HOLD_NS` ends the turn (``TurnEnded``; below the minimum it is refused and the reason
  shown); held for :data:`HOLD_NS` (gpiozero's ``hold_time``/``when_held``, timed here from
  the edges: :meth:`Table.tick`), it says "I cannot play": :attr:`Table.claim`, which ends
  the game once the host confirms (:meth:`Table.confirm_claim`: ``CannotPlay``).
- **After an undo** the loop has the camera offer every card it sees again: a row's top that
  is already played is ignored; a card the undo took back is played again (and judged again).

Interpretations of the table (the engine's own are ``engine.the_game.Interpretations``):

- [I] Each row is a pile: a card played covers the row's top completely (seed: "置於...卡牌堆
  的最上方位置，且須將原先卡牌堆最上方的卡牌完全覆蓋"), so the camera sees one top per row and
  a new top is a play. The rows are the calibrated zones row1..row4 (:data:`ZONE_ROWS`).
- [I] A card on a row is the acting player's (the camera cannot see whose hand laid it).
- [I] A refused play stays on the screen until something else happens (a play, the turn's
  end, the row's previous top reported again, the host's "taken back" or "keep"); the camera
  is then asked to report what it sees anew (``Referee.reoffer``), so the same card laid
  there later counts.
- [I] A short press is one released within 2 s: it is judged at the release (a press that
  turns out long must not end the turn first); a long press fires at 2 s while still held,
  like gpiozero's ``when_held``. Only the acting player's long press is a claim.
- [I] The host may end the turn or say "I cannot play" for the acting player from the screen
  (a button that does not work, a player who cannot reach theirs); "I cannot play" always
  waits for the host's confirmation.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core import Event, Rejection
from engine.the_game import (
    CannotPlay,
    CardPlayed,
    HouseRulePlay,
    Phase,
    State,
    TurnEnded,
)
from firmware.arbiter import Decision
from tablekeeper.referee import CardSeen

if TYPE_CHECKING:
    from tablekeeper.referee import Referee

log = logging.getLogger("tablekeeper.referee")

NS_PER_MS = 1_000_000
#: A seat button held this long says "I cannot play" (gpiozero's hold_time, 2 s).
HOLD_NS = 2_000_000_000

#: The calibrated zones (``rows:4``) -> the engine's rows. [I] row1 and row2 are the
#: ascending rows, row3 and row4 the descending ones (seed: the two ascending row cards are
#: laid above the two descending ones; the calibration names them in that order).
ZONE_ROWS: Mapping[str, int] = {"row1": 0, "row2": 1, "row3": 2, "row4": 3}


def default_card_values() -> dict[str, int]:
    """The demo deck's number cards (``n02`` .. ``n99``) -> their numbers."""
    return {f"n{v:02d}": v for v in range(2, 100)}


@dataclass(frozen=True)
class Refused:
    """A play the engine refused, shown until something else happens."""

    row: int
    card: int
    code: str
    reason: str  # the engine's words ("37 cannot go on ↑45")
    at_ms: int
    #: the row's label when it was refused ("↑45"), for the screen's own words
    label: str = ""


@dataclass(frozen=True)
class Claim:
    """A long press: ``seat`` says "I cannot play"; the host confirms or cancels."""

    seat: int
    at_ms: int


@dataclass(frozen=True)
class Said:
    """A seat button press the engine refused (ending a turn below the minimum, a seat not
    acting): its reason, shown for a while."""

    seat: int
    code: str
    reason: str
    at_ms: int


class Table:
    """The referee's The Game side: the rows, the seat buttons, refused plays, the claim."""

    def __init__(self, referee: Referee, now_ns: int, *,
                 card_values: Mapping[str, int] | None = None,
                 zone_rows: Mapping[str, int] | None = None) -> None:
        self.referee = referee
        self.card_values = dict(card_values if card_values is not None
                                else default_card_values())
        self.zone_rows = dict(zone_rows if zone_rows is not None else ZONE_ROWS)
        self.deck_ids = {v: k for k, v in self.card_values.items()}
        #: the last play the engine refused (None: none pending)
        self.refused: Refused | None = None
        #: a long press waiting for the host's confirmation
        self.claim: Claim | None = None
        #: the last refused button press
        self.said: Said | None = None
        #: seat (1-based) -> when its button went down (None: up, or its hold already fired)
        self._down: dict[int, int | None] = {}
        self.refusals = 0  # refused plays so far (the demo's figures; the sound's cue)

    @property
    def state(self) -> State:
        state: State = self.referee.state
        return state

    def watching(self, state: State) -> bool:
        return state.phase is Phase.PLAY

    # --- the camera --------------------------------------------------------------------------

    def card_seen(self, seen: CardSeen) -> State | Rejection:
        """A card settled in a zone: a play on that row, if it is a new number card."""
        card = self.card_values.get(seen.card_id)
        if card is None:
            return Rejection("not_a_number", f"card {seen.card_id!r} is not a number card")
        row = self.zone_rows.get(seen.zone or "")
        if row is None:
            log.info("card %s seen outside the rows (zone %r)", card, seen.zone)
            return Rejection("no_row", f"{card} lies on no row (zone {seen.zone!r})")
        state = self.state
        if state.phase is not Phase.PLAY:
            return Rejection("wrong_phase", "no game is being played")
        if card in state.played:
            # A row's top offered again (after an undo the camera reports every card it
            # sees), or the row's previous top seen again as a refused card is taken back.
            if self.refused is not None and self.refused.row == row:
                self._clear_refused()
            return Rejection("card_already_played", f"{card} has already been played")
        event = CardPlayed(at_ms=self.referee.at_ms(seen.t_ns), row=row, card=card)
        return self._play(event)

    def _play(self, event: Event) -> State | Rejection:
        state = self.state
        result: State | Rejection = self.referee.submit(event)
        if isinstance(result, Rejection):
            row = getattr(event, "row", 0)
            label = state.rows[row].label if 0 <= row < len(state.rows) else ""
            self.refused = Refused(row=row, card=getattr(event, "card", 0), code=result.code,
                                   reason=result.reason, at_ms=event.at_ms, label=label)
            self.refusals += 1
            log.info("refused play: %s", result.reason)
        return result

    def enter_play(self, row: int, card: int, now_ns: int) -> State | Rejection:
        """The host enters a play by hand (the camera is down): ``CardEntered``."""
        from engine.the_game import CardEntered

        return self._play(CardEntered(at_ms=self.referee.at_ms(now_ns), row=row, card=card))

    def house_rule(self, now_ns: int) -> State | Rejection:
        """The host overrides the refused play: it stays, as a house rule."""
        refused = self.refused
        if refused is None:
            return Rejection("nothing_refused", "no refused play to override")
        result: State | Rejection = self.referee.submit(HouseRulePlay(
            at_ms=self.referee.at_ms(now_ns), row=refused.row, card=refused.card))
        return result

    def dismiss(self) -> None:
        """The host has seen the refused play (the card was taken back)."""
        self._clear_refused()

    def _clear_refused(self) -> None:
        """The refused play is over: the camera is asked to report what it sees anew
        (``Referee.reoffer``). Its tracker remembers the refused card at its place for a while,
        and would take the same card laid there again (now legal: "8 on ↑14" refused, 4
        played 10 back, then 8) for the one taken back, reporting nothing."""
        if self.refused is not None:
            self.refused = None
            self.referee.reoffer()

    # --- the seat buttons --------------------------------------------------------------------

    def seat_edge(self, seat: int, pressed: bool, t_ns: int) -> None:
        """A seat button (1-based) went down or up at ``t_ns``."""
        if pressed:
            if self._down.get(seat) is None:
                self._down[seat] = t_ns
            return
        down = self._down.pop(seat, None)
        if down is None:
            return  # released after its hold fired (or never seen down)
        if t_ns - down >= HOLD_NS:
            self._held(seat, down + HOLD_NS)
        else:
            self._short(seat, t_ns)

    def tick(self, now_ns: int) -> None:
        """A button down for :data:`HOLD_NS` fires while still held (gpiozero's when_held)."""
        for seat, down in list(self._down.items()):
            if down is not None and now_ns - down >= HOLD_NS:
                self._down[seat] = None
                self._held(seat, down + HOLD_NS)

    def next_wake_ns(self) -> int | None:
        """When a button now held will have been held long enough."""
        downs = [d + HOLD_NS for d in self._down.values() if d is not None]
        return min(downs) if downs else None

    def _short(self, seat: int, t_ns: int) -> None:
        state = self.state
        if state.phase is not Phase.PLAY:
            return
        result = self.referee.submit(TurnEnded(at_ms=self.referee.at_ms(t_ns), seat=seat - 1))
        if isinstance(result, Rejection):
            self.said = Said(seat - 1, result.code, result.reason, self.referee.at_ms(t_ns))

    def _held(self, seat: int, t_ns: int) -> None:
        state = self.state
        if state.phase is not Phase.PLAY:
            return
        at = self.referee.at_ms(t_ns)
        if seat - 1 != state.to_act:
            self.said = Said(seat - 1, "not_your_turn", "not this player's turn", at)
            return
        self.claim = Claim(seat - 1, at)
        log.info("seat %d says it cannot play: waiting for the host", seat)

    def confirm_claim(self, now_ns: int) -> State | Rejection:
        """The host confirms the long press: "I cannot play" ends the game."""
        claim = self.claim
        if claim is None:
            return Rejection("no_claim", "nobody said they cannot play")
        result: State | Rejection = self.referee.submit(
            CannotPlay(at_ms=self.referee.at_ms(now_ns), seat=claim.seat))
        self.claim = None
        if isinstance(result, Rejection):
            self.said = Said(claim.seat, result.code, result.reason, self.referee.at_ms(now_ns))
        return result

    def cancel_claim(self) -> None:
        self.claim = None

    # --- the referee's hooks -----------------------------------------------------------------

    def decision(self, decision: Decision) -> None:
        """The Game has no buzzer race: the arbiter is never armed."""

    def changed(self, before: State, after: State, event: Event | None) -> None:
        if event is None or before.turn != after.turn or before.phase is not after.phase:
            self.claim = None
        if event is None or len(after.plays) != len(before.plays) or \
                before.turn != after.turn:
            self._clear_refused()
            self.said = None
        if isinstance(event, TurnEnded | CannotPlay):
            self.said = None

    def resync(self, now_ns: int) -> None:
        """Nothing is armed in The Game; a press lost meanwhile is pressed again."""
        self._down.clear()


def table_of(referee: Referee) -> Table:
    """The The Game table adapter of a referee keeping that game."""
    table = referee.table
    if not isinstance(table, Table):
        raise TypeError(f"the referee keeps {referee.kit.name}, not The Game")
    return table
