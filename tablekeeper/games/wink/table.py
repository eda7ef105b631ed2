"""眨眨眼 at the table: camera cells, the 「我要抓！」 race and the host's entries as the
engine's events.

Owned by the generic :class:`tablekeeper.referee.Referee` (``referee.table``); gone with it.

- **The grid laid** (LAYOUT): every recognised card settling in a cell (``seen.zone`` "r3c4")
  is noted; once all 36 cells have one number each, ``GridSeen`` (row-major).
- **A marker put down** (:class:`~tablekeeper.games.wink.camera.CellReport` with a colour on
  a cell where the box knows none): ``MarkerPlaced`` (the engine says whether it was that
  player's turn). Every other settled cell reading that differs from what the box expects, or
  confirms a host entry not yet seen, is a ``CellSeen``: the engine records agreement or a
  mismatch (shown, never resolved silently). An ``unknown`` marker (no calibrated colour) is
  reported on the screen (:attr:`Table.problems`), as is a marker the box expects but the
  camera does not see.
- **「我要抓！」**: the seat buttons race at any moment of NAME and PLACE, through the firmware
  arbiter, armed with the seats that may accuse (accusation cards left, someone to accuse);
  the others are excluded. Its decision is ``AccusationWon`` (seat, margin, tie); the arbiter
  is re-armed when the race is over or the eligible seats change.

Interpretations of the table (the engine's are ``engine.wink.Interpretations``):

- [I] ``marker_is_placement``: seed 「行動玩家將自家顏色指示物擺放在...表情卡上方」 -- the
  marker set down *is* the placement: a settled marker of the active player's colour on a
  free face-up card is ``MarkerPlaced``; a marker of another colour there is refused (not
  their turn) and kept as a disagreement. One put down while an accusation is settled counts
  when play resumes.
- [I] ``race_in_name_and_place``: seed 「包括自家行動回合或其他玩家行動回合」 -- the buttons
  race whenever a turn is under way (NAME, PLACE), not while the host settles an accusation or
  lays the grid; the arbiter's lockout then keeps a press made just before re-arming out for
  its 250 ms.
- [I] ``no_marker_on_backs``: seed 「行動玩家將自家顏色指示物取回...並將其指示物下方的表情卡
  翻面」 -- a face-down card never bears a marker, so nothing on a back is read as one (the demo
  backs' white emblem); on a bare cell (a caught seeker's marker, seed 「其指示物則無須移動」)
  only a whole marker counts.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from engine import wink
from engine.core import Event, Rejection
from engine.wink import AccusationWon, CellFace, CellSeen, GridSeen, MarkerPlaced, Phase, State
from firmware.arbiter import ArbiterPhase, Decision
from tablekeeper.games.wink.camera import CellReport, number_of
from tablekeeper.referee import BuzzInfo, CardSeen

if TYPE_CHECKING:
    from tablekeeper.referee import Referee

log = logging.getLogger("tablekeeper.referee")

#: The phases in which anyone may shout 「我要抓！」.
RACING = (Phase.NAME, Phase.PLACE)
#: The phases in which the camera is read.
WATCHED = (Phase.LAYOUT, Phase.NAME, Phase.PLACE, Phase.ACCUSATION)


def zone_name(row: int, col: int) -> str:
    return f"r{row + 1}c{col + 1}"


def zone_cell(zone: str | None) -> tuple[int, int] | None:
    """``"r3c4"`` -> (2, 3); None if not a grid zone."""
    if not zone or zone[0] != "r" or "c" not in zone:
        return None
    r, _, c = zone[1:].partition("c")
    if not (r.isdigit() and c.isdigit()):
        return None
    return int(r) - 1, int(c) - 1


def eligible_seats(state: State) -> frozenset[int]:
    """Seats (0-based) that may join a 「我要抓！」 race now."""
    return frozenset(s for s in range(state.n_players) if wink.may_accuse(state, s))


class Table:
    """The referee's 眨眨眼 side (see the module docstring)."""

    def __init__(self, referee: Referee, now_ns: int, *,
                 card_numbers: dict[str, int] | None = None) -> None:
        self.referee = referee
        self.card_numbers = card_numbers
        #: LAYOUT: zone -> the number the camera saw there
        self.laid: dict[str, int] = {}
        #: the cells' last settled camera readings: zone -> (face, number, marker)
        self.seen: dict[str, tuple[str, int | None, str | None]] = {}
        #: what the screen should say about the camera's view: zone -> a problem key
        #: ("unknown_marker", "missing_marker")
        self.problems: dict[str, str] = {}
        self._armed_for: frozenset[int] | None = None
        self._placing = False
        self._sync_arbiter(now_ns)

    @property
    def state(self) -> State:
        state: State = self.referee.state
        return state

    def watching(self, state: State) -> bool:
        return state.phase in WATCHED

    def asks(self, state: State) -> bool:
        """A card the camera could not name is put to the host while the grid is laid (in
        play the grid's cards lie face down: found, named by no one)."""
        return state.phase is Phase.LAYOUT

    def number(self, card_id: str) -> int | None:
        if self.card_numbers is not None:
            return self.card_numbers.get(card_id)
        return number_of(card_id)

    # --- the camera --------------------------------------------------------------------------

    def card_seen(self, seen: CardSeen) -> State | Rejection | None:
        if isinstance(seen, CellReport):
            return self.cell_seen(seen)
        state = self.state
        cell = zone_cell(seen.zone)
        number = self.number(seen.card_id)
        if cell is None or number is None:
            return Rejection("not_in_grid", f"card {seen.card_id!r} is not a grid card in a "
                                            f"grid cell (zone {seen.zone!r})")
        if state.phase is Phase.LAYOUT:
            assert seen.zone is not None
            self.laid[seen.zone] = number
            return self._try_grid(seen.t_ns)
        return None

    def _try_grid(self, t_ns: int) -> State | Rejection | None:
        rules = self.state.rules
        zones = [zone_name(r, c) for r in range(rules.grid_rows) for c in range(rules.grid_cols)]
        if any(z not in self.laid for z in zones):
            return None
        numbers = tuple(self.laid[z] for z in zones)
        if sorted(numbers) != list(range(1, rules.cells + 1)):
            rejection = Rejection("bad_grid", "the camera sees a number twice in the grid: "
                                              "the host enters the grid")
            self.referee.last_rejection = rejection
            return rejection
        result: State | Rejection = self.referee.submit(
            GridSeen(at_ms=self.referee.at_ms(t_ns), numbers=numbers))
        return result

    def cell_seen(self, report: CellReport) -> State | Rejection | None:
        """A cell's settled reading: a placement, a confirmation, a mismatch or a problem."""
        assert report.zone is not None
        cell = zone_cell(report.zone)
        if cell is None:
            return None
        self.seen[report.zone] = (report.face, report.number, report.marker)
        state = self.state
        if state.phase is Phase.LAYOUT:
            if report.face == "up" and report.number is not None:
                self.laid[report.zone] = report.number
                return self._try_grid(report.t_ns)
            return None
        if not state.grid or state.phase is Phase.OVER:
            return None
        row, col = cell
        index = state.cell_of(row, col)
        assert index is not None
        owner = state.marker_on(index)
        at = self.referee.at_ms(report.t_ns)
        marker = report.marker
        self.problems.pop(report.zone, None)
        if marker == "unknown":
            self.problems[report.zone] = "unknown_marker"
            rejection = Rejection("unknown_marker", f"a marker of no player's colour lies on "
                                                    f"{report.zone}")
            self.referee.last_rejection = rejection
            marker = None
        expected = state.players[owner].colour if owner is not None else None
        refused: Rejection | None = None
        if (marker is not None and owner is None and state.phase is Phase.PLACE
                and state.grid[index].face is CellFace.UP):
            result: State | Rejection = self.referee.submit(
                MarkerPlaced(at_ms=at, colour=marker, row=row, col=col))
            if not isinstance(result, Rejection):
                return result
            refused = result  # not that player's turn, or no such player: shown ...
        if expected is not None and marker is None and report.zone not in self.problems:
            self.problems[report.zone] = "missing_marker"
        face = state.grid[index].face.value
        agrees = face == report.face and marker == expected and (
            report.face != "up" or report.number in (None, state.grid[index].number))
        known = any(m.cell == index for m in state.mismatches)
        if agrees and index not in state.unconfirmed and not known:
            return None
        out: State | Rejection = self.referee.submit(CellSeen(
            at_ms=at, row=row, col=col, face=report.face,
            number=report.number if report.face == "up" else None, marker=marker))
        if refused is not None:  # ... and the marker is a disagreement the engine keeps
            self.referee.last_rejection = refused
            return refused
        return out

    # --- the race ------------------------------------------------------------------------------

    def decision(self, decision: Decision) -> None:
        referee = self.referee
        state = self.state
        self._armed_for = None
        if state.phase not in RACING:
            return
        at = referee.at_ms(decision.t_ns)
        result = referee.submit(AccusationWon(at_ms=at, seat=decision.winner - 1,
                                              margin_us=int(decision.margin_us or 0),
                                              tie=decision.tie))
        if isinstance(result, Rejection):
            self._sync_arbiter(decision.decided_ns)
        else:
            referee.last_buzz = BuzzInfo(decision, at)

    def changed(self, before: State, after: State, event: Event | None) -> None:
        if event is None:
            self.laid.clear()
            self.seen.clear()
        self._refresh_problems(after)
        self._sync_arbiter(None)
        if event is not None and after.phase is Phase.PLACE and not self._placing:
            self._pending_marker(after)

    def _pending_marker(self, state: State) -> None:
        """The active player's marker already lies on a free card (put down while an
        accusation was settled, say): the camera saw it then; it is the placement now."""
        assert state.active is not None
        colour = state.players[state.active].colour
        for zone, (_face, _number, marker) in list(self.seen.items()):
            cell = zone_cell(zone)
            if marker != colour or cell is None:
                continue
            index = state.cell_of(*cell)
            if index is None or index not in state.free_cells():
                continue
            self._placing = True
            try:
                self.referee.submit(MarkerPlaced(at_ms=state.now_ms, colour=colour,
                                                 row=cell[0], col=cell[1]))
            finally:
                self._placing = False
            return

    def resync(self, now_ns: int) -> None:
        self._armed_for = None
        self._sync_arbiter(now_ns)

    def _refresh_problems(self, state: State) -> None:
        if not state.grid:
            self.problems.clear()
            return
        for zone, (_face, _number, marker) in self.seen.items():
            cell = zone_cell(zone)
            if cell is None:
                continue
            index = state.cell_of(*cell)
            if index is None:
                continue
            owner = state.marker_on(index)
            if self.problems.get(zone) == "missing_marker" and (owner is None or marker):
                del self.problems[zone]

    def _sync_arbiter(self, now_ns: int | None) -> None:
        """Armed in NAME and PLACE for the seats that may accuse; idle otherwise. Re-armed
        only when the eligible seats change or the last race was decided."""
        arbiter = self.referee.firmware.arbiter
        state = self.state
        if state.phase not in RACING:
            if arbiter.phase is ArbiterPhase.ARMED:
                arbiter.disarm()
            self._armed_for = None
            return
        eligible = eligible_seats(state)
        if not eligible:
            arbiter.disarm()
            self._armed_for = frozenset()
            return
        if eligible == self._armed_for and arbiter.phase is ArbiterPhase.ARMED:
            return
        seats = arbiter.seats
        exclude = [s for s in range(1, seats + 1) if s - 1 not in eligible]
        arbiter.disarm()
        arbiter.arm(now_ns, exclude=exclude)
        self._armed_for = eligible


def table_of(referee: Referee) -> Table:
    table = referee.table
    if not isinstance(table, Table):
        raise TypeError(f"the referee keeps {referee.kit.name}, not 眨眨眼")
    return table
