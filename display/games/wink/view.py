"""What the screens of 眨眨眼 read: :class:`WinkView`, and reading the engine's state into it.

The one place that knows ``engine.wink.State``'s fields. :class:`TableView` is what the kit's
screen part adds of the table and of the host's entry under way (``Snapshot.table``): the
camera's warnings by cell, the grid being entered by hand, the accusation being entered.
Phases map to screens: LAYOUT -> layout; NAME and PLACE -> play (the grid, whose turn, the
call); ACCUSATION -> accusation (the race's winner; the host enters whom and which number);
OVER -> over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from display.model import PlayerInfo
from engine import wink


@dataclass(frozen=True)
class CellView:
    number: int
    face: str  # "up", "down", "empty"
    marker: int | None = None  # the seat whose marker lies on it
    mismatch: bool = False  # the camera sees something else here


@dataclass(frozen=True)
class WinkView:
    """A display-shaped summary of one 眨眨眼 state. Seats are 0-based."""

    phase: str  # "layout", "name", "place", "accusation", "over"
    scores: tuple[int, ...]
    rows: int = 6
    cols: int = 6
    cells: tuple[CellView, ...] = ()
    turn: int = 0
    active: int | None = None
    call_seat: int | None = None  # the last marker put down: 「X號夥伴，我在找你！」
    call_number: int | None = None
    seeking: int | None = None  # NAME: the number under the active player's marker
    hands: tuple[int, ...] = ()
    accusation_cards: tuple[int, ...] = ()
    accuser: int | None = None  # ACCUSATION: the race's winner
    margin_us: int | None = None
    tie: bool = False
    by_hand: bool = False
    #: ACCUSATION: per seeker's number, the seats that may be accused of holding it
    targets: tuple[tuple[int, int, tuple[int, ...]], ...] = ()  # (number, seeker, accused)
    last_accusation: tuple[int, int | None, int | None, bool] | None = None
    last_naming: tuple[int, int, int, bool] | None = None  # (seeker, named, number, right)
    free_cells: tuple[int, ...] = ()
    #: NAME / PLACE: the seats that may accuse now (accusation cards left, someone to accuse)
    accusers: tuple[int, ...] = ()
    may_pass: bool = False  # PLACE: the host may enter "holds every free number"
    mismatches: int = 0
    winners: tuple[int, ...] = ()
    end_reason: str = ""
    decided_by: str = ""
    names: tuple[PlayerInfo, ...] = ()
    deadline_ms: int | None = None
    history: tuple[tuple[int, ...], ...] = ()

    @property
    def players(self) -> int:
        return len(self.scores)

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def cards_left(self) -> tuple[int, ...]:
        return self.hands


#: Table.problems' kinds, as the screens name them
PROBLEM_KINDS = ("unknown_marker", "missing_marker")


@dataclass(frozen=True)
class TableView:
    """The table's and the host's transient state the screens show (``Snapshot.table``)."""

    #: the camera's warnings: (cell index, kind), kind one of PROBLEM_KINDS
    problems: tuple[tuple[int, str], ...] = ()
    #: LAYOUT: the cells the camera has read so far (the "from the camera" offer)
    camera_cells: int = 0
    #: LAYOUT: the grid being entered by hand (empty: not open); None: not entered yet
    grid_entry: tuple[int | None, ...] = ()
    grid_cursor: int = 0
    #: NAME / PLACE: the host is entering who shouted 「我要抓！」 first
    accusing: bool = False
    #: ACCUSATION: the number and the seat picked so far
    pick_number: int | None = None
    pick_seat: int | None = None
    #: the messages of a moment, each owned by the state the event that made it produced and
    #: gone once that state ends (issue 41): the last call 「X號夥伴，我在找你！」, the last
    #: accusation's result 「藍色 抓到了 8 號」 (the screen part decides; a sample shows them)
    call_fresh: bool = True
    result_fresh: bool = True
    #: PLACE: the grid's row the host buttons picked (its free cells are the choices now)
    place_row: int | None = None
    #: LAYOUT by hand: the pad's row of numbers the host buttons picked
    pad_row: int | None = None

    @property
    def grid_open(self) -> bool:
        return bool(self.grid_entry)

    def problem_at(self, cell: int) -> str | None:
        for i, kind in self.problems:
            if i == cell:
                return kind
        return None


def game_view(state: Any) -> WinkView | None:
    """The view of ``state``: an engine state is read; a WinkView passes through; None (and a
    state still in SETUP) is no game."""
    if state is None or isinstance(state, WinkView):
        return state
    if not isinstance(state, wink.State):
        raise TypeError(f"display cannot read a {type(state).__name__}")
    if state.phase is wink.Phase.SETUP:
        return None
    mism = {m.cell for m in state.mismatches}
    cells = tuple(CellView(c.number, c.face.value, state.marker_on(i), i in mism)
                  for i, c in enumerate(state.grid))
    call = state.call
    seeking = None
    if state.phase is wink.Phase.NAME and state.active is not None:
        m = state.players[state.active].marker
        seeking = state.grid[m].number if m is not None else None
    pend = state.pending
    targets: list[tuple[int, int, tuple[int, ...]]] = []
    if pend is not None:
        by_number: dict[int, list[int]] = {}
        for accused, number in wink.accusation_targets(state, pend.seat):
            by_number.setdefault(number, []).append(accused)
        for number, seats in by_number.items():
            cell = state.cell_of_number(number)
            seeker = state.marker_on(cell) if cell is not None else None
            targets.append((number, -1 if seeker is None else seeker, tuple(seats)))
    last = state.last_accusation
    naming = state.last_naming
    out = state.outcome
    return WinkView(
        phase=state.phase.value,
        scores=state.scores,
        rows=state.rules.grid_rows,
        cols=state.rules.grid_cols,
        cells=cells,
        turn=state.turn,
        active=state.active,
        call_seat=call.seat if call is not None else None,
        call_number=call.number if call is not None else None,
        seeking=seeking,
        hands=tuple(p.hand for p in state.players),
        accusation_cards=tuple(p.accusations for p in state.players),
        accuser=pend.seat if pend is not None else None,
        margin_us=pend.margin_us if pend is not None and not pend.by_hand else None,
        tie=bool(pend and pend.tie),
        by_hand=bool(pend and pend.by_hand),
        targets=tuple(targets),
        last_accusation=None if last is None else (last.seat, last.accused, last.number,
                                                   last.right),
        last_naming=None if naming is None else (naming.seat, naming.named, naming.number,
                                                 naming.right),
        free_cells=state.free_cells() if state.phase is wink.Phase.PLACE else (),
        accusers=tuple(s for s in range(state.n_players) if wink.may_accuse(state, s)),
        may_pass=(state.phase is wink.Phase.PLACE and state.active is not None
                  and state.players[state.active].hand >= len(state.free_cells())),
        mismatches=len(state.mismatches),
        winners=out.winners if out is not None else (),
        end_reason=out.reason.value if out is not None else "",
        decided_by=state.tie_break.value if state.tie_break is not None else "",
        names=tuple(PlayerInfo(p.name, p.colour) for p in state.players),
    )
