"""驢橋 at the table: how the camera's tiles, the seat buttons and the answer clock become the
engine's events.

Owned by the generic :class:`tablekeeper.referee.Referee` (``referee.table``); gone with it.

- a keyword tile the camera saw settle in the centre while a story is told
  (:meth:`card_seen`): ``TileSeen``, so the journal holds every story's keywords. A stop tile
  in view, a tile of another deck, or a tile already in the story (offered again after an
  undo) is not one; the host enters or withdraws tiles by hand (:mod:`.host`);
- the answer clock: while a player guesses and has not said "I have answered", the buzzer
  arbiter is armed for **their seat only** (every other seat excluded), so their seat button
  is the "I have answered" button (:meth:`decision`: ``AnswerGiven``); the referee sends the
  engine's ``AnswerTimeUp`` at the 15 s deadline, and this adapter plays the time-up sound
  when it is accepted (:meth:`changed`);
- after an undo (``changed`` with ``event`` None) the arbiter follows the state again, and
  the loop has the camera offer the tiles it sees again: a tile whose sighting the undo took
  back is taken again.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from engine.core import Event, Rejection
from engine.eselsbruecke import AnswerGiven, AnswerTimeUp, Phase, State, TileSeen
from firmware.arbiter import ArbiterPhase, Decision
from tablekeeper.referee import CardSeen

if TYPE_CHECKING:
    from tablekeeper.referee import Referee

log = logging.getLogger("tablekeeper.referee")


def default_tile_ids() -> frozenset[str]:
    """The demo deck's keyword tiles, ``k001`` ... ``k180``."""
    return frozenset(f"k{i:03d}" for i in range(1, 181))


def _clock_key(state: State) -> tuple[Any, ...] | None:
    """What one run of the answer clock is: whose turn, which turn of which story."""
    if state.phase is not Phase.GUESS or state.answered or state.deadline_ms is None:
        return None
    return (state.round, state.teller, len(state.guesses), state.to_act, state.deadline_ms)


class Table:
    """The referee's 驢橋 side: the tiles in the centre, the guesser's button, the clock's
    sound. ``sounds``: what plays the time-up (default :class:`display.sound.Sounds`, silent
    without an audio device)."""

    def __init__(self, referee: Referee, now_ns: int, *,
                 tile_ids: Iterable[str] | None = None, sounds: Any | None = None) -> None:
        self.referee = referee
        self.tile_ids = frozenset(tile_ids) if tile_ids is not None else default_tile_ids()
        if sounds is None:
            from display.sound import Sounds

            sounds = Sounds()
        self.sounds = sounds
        #: time-ups heard (their sound asked for) since the box started
        self.time_ups = 0
        self._armed_for: tuple[Any, ...] | None = None
        self._sync(now_ns)

    @property
    def state(self) -> State:
        state: State = self.referee.state
        return state

    def watching(self, state: State) -> bool:
        """The camera is read while a story's tiles are being laid."""
        return state.phase is Phase.STORY and len(state.laid) < state.to_draw

    # --- inputs ----------------------------------------------------------------------------

    def card_seen(self, seen: CardSeen) -> State | Rejection:
        """The camera saw a tile settle: a keyword laid face up for the story."""
        state = self.state
        if seen.card_id not in self.tile_ids:
            rejection = Rejection("not_a_keyword",
                                  f"tile {seen.card_id!r} is not a keyword tile of this game")
            log.info("%s", rejection.reason)
            return rejection
        if state.phase is not Phase.STORY:
            return Rejection("wrong_phase", "no story is being told")
        if seen.card_id in state.laid:
            # Offered again after an undo (the camera reports every tile it sees again then).
            log.info("tile %r is already in the story", seen.card_id)
            return Rejection("tile_already_laid", f"tile {seen.card_id!r} is in the story")
        result: State | Rejection = self.referee.submit(
            TileSeen(at_ms=self.referee.at_ms(seen.t_ns), tile=seen.card_id))
        return result

    def decision(self, decision: Decision) -> None:
        """The guesser's seat button went down while their clock ran: "I have answered"."""
        state = self.state
        key = _clock_key(state)
        if key is None or key != self._armed_for or state.to_act is None:
            return
        if decision.winner - 1 != state.to_act:
            return
        self.referee.submit(AnswerGiven(at_ms=self.referee.at_ms(decision.t_ns),
                                        seat=state.to_act))

    # --- the arbiter and the sound follow the state ------------------------------------------

    def changed(self, before: State, after: State, event: Event | None) -> None:
        if isinstance(event, AnswerTimeUp):
            self.time_ups += 1
            self.sounds.hourglass_end()
        self._sync(None)

    def resync(self, now_ns: int) -> None:
        """After a pause: arm the guesser's button again, from now, if their clock runs."""
        if _clock_key(self.state) is not None and (
                self.referee.firmware.arbiter.phase is not ArbiterPhase.ARMED):
            self._armed_for = None
        self._sync(now_ns)

    def _sync(self, now_ns: int | None) -> None:
        state = self.state
        arbiter = self.referee.firmware.arbiter
        key = _clock_key(state)
        if key is None:
            if self._armed_for is not None or arbiter.phase is ArbiterPhase.ARMED:
                arbiter.disarm()
            self._armed_for = None
            return
        if key == self._armed_for:
            return
        assert state.to_act is not None
        seat = state.to_act + 1
        others = [s for s in range(1, arbiter.seats + 1) if s != seat]
        # The clock started at the event's time: a press from then on is the answer.
        at = self.referee.ns_at(state.now_ms) if now_ns is None else now_ns
        arbiter.disarm()
        try:
            arbiter.arm(at, exclude=others)
        except ValueError:  # from too long ago (a stalled loop): from now
            arbiter.arm(exclude=others)
        self._armed_for = key


def table_of(referee: Referee) -> Table:
    """The 驢橋 table adapter of a referee keeping that game."""
    table = referee.table
    if not isinstance(table, Table):
        raise TypeError(f"the referee keeps {referee.kit.name}, not 驢橋")
    return table
