"""眨眨眼's part of the kiosk screen: the host's choices in play, the entries under way (the
grid by hand, who shouted 「我要抓！」 by hand, the accusation's number and seat), and what the
snapshot carries of the table (the accusation race's winner, the camera's warnings by cell:
``Snapshot.table``, a :class:`display.games.wink.view.TableView`).

The host's choices reach here from touch, keys and the three host buttons alike (the generic
screen turns *confirm* into the highlighted button's choice); *next* from the keyboard (Tab,
Right) moves the same highlight as the host's *next* button, and *back* (Escape, Backspace)
takes back the last step of an entry under way.

Interpretations of the screen (the engine's are ``engine.wink.Interpretations``):

- [I] ``accused_number``: seed 「用手指向自家外的其中一位玩家，並大聲喊出：「X號夥伴，我抓到你
  了！」」 and 「尋找此X號夥伴的玩家指示物下方的表情卡」 -- the X the accuser names is the number
  of a face-up grid card under a marker looking for a partner (not the accuser's own: the
  engine's ``accuser_may_be_in_pair``), so the screen offers only those numbers, and for a
  number only the seats other than the accuser and that seeker. The number is picked first
  (with one number sought, it is picked already), then the seat, then the answer.
- [I] ``grid_in_order``: seed 「任選其中1組卡牌堆正面朝下集中洗勻後，將其正面朝上排列成6×6」 --
  no rule reads where a card lies (a marker goes on 「任何1張尚未置有其他玩家顏色指示物的表情
  卡」), so a table without a working camera may lay the grid 1-36 row by row and enter it with
  one touch; or enter it cell by cell (the pad offers only the numbers not yet used), starting
  from what the camera read, if anything.
- [I] ``accuse_by_hand_seats``: an accusation by hand (the buttons not working, or a shout
  nobody pressed for) offers only the seats that may accuse now (accusation cards left and a
  marker to accuse), as the race arms only those.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from display.games.wink.view import TableView
from display.model import BuzzView, PlayerInfo
from engine.core import Event, Rejection
from engine.wink import GridEntered, Phase, State, may_accuse
from tablekeeper.games.wink import host
from tablekeeper.games.wink.table import Table, zone_cell

if TYPE_CHECKING:
    from tablekeeper.app import Loop
    from tablekeeper.screen import PygameScreen


class WinkScreen:
    """The screen's 眨眨眼 side (see :class:`tablekeeper.games.ScreenPart`)."""

    def __init__(self) -> None:
        #: LAYOUT: the grid being entered by hand (None: not open)
        self.grid: host.GridEntry | None = None
        #: NAME / PLACE: the host is entering who shouted 「我要抓！」 first
        self.accusing = False
        #: ACCUSATION: the number and seat picked so far
        self.pick = host.AccusationPick()
        #: PLACE: the grid's row picked by the host buttons (then its cell); LAYOUT by hand:
        #: the pad's row of numbers picked (then the number)
        self.place_row: int | None = None
        self.pad_row: int | None = None
        self._table_key: tuple[Any, ...] = ()
        #: each message of a moment -> (what it says, the moment it appeared in): it is
        #: shown while that moment lasts (:meth:`_owned`)
        self._owners: dict[str, tuple[Any, Any]] = {}

    @staticmethod
    def _moment(state: State) -> tuple[Any, ...]:
        """The moment of the game a message belongs to: the turn's step (naming, placing,
        an accusation pending), counted by the game's events, not by the camera's
        confirmations of a cell (``CellSeen`` makes a new state and changes no game)."""
        return (state.phase, state.turn, state.active, state.pending, len(state.namings),
                len(state.accusations), len(state.placements))

    def _owned(self, name: str, value: Any, state: State) -> bool:
        """Whether the message ``name`` (saying ``value``; None: none) is still its
        moment's: a message belongs to the moment in which it first appeared and ends with
        it (the next player's naming or placing, an accusation ...)."""
        if value is None:
            self._owners.pop(name, None)
            return False
        held = self._owners.get(name)
        moment = self._moment(state)
        if held is None or held[0] != value:
            self._owners[name] = (value, moment)
            return True
        return bool(held[1] == moment)

    def host_action(self, screen: PygameScreen, loop: Loop, name: str, arg: Any,
                    now_ns: int) -> bool:
        referee = loop.referee
        state: State = referee.state
        self._settle(state)
        if name == "next":  # the keyboard's Tab / Right: the host buttons' *next*
            screen.focus += 1
            screen.renderer.invalidate()
            return True
        handled = self._entry(screen, loop, state, name, arg, now_ns)
        if handled is not None:
            screen.focus = 0
            screen.renderer.invalidate()
            return handled
        if name in ("accused_right", "accused_wrong") and arg is None:
            arg = self.pick.valid(state).answer_arg()
            if arg is None:
                return True  # not yet: the number and the seat first
        event = host.event_for(state, name, arg, referee.at_ms(now_ns))
        if event is None:
            return False
        result = referee.submit(event)
        screen.show_result(result, now_ns)
        if not isinstance(result, Rejection):
            self.accusing = False
            self.pick = host.AccusationPick()
            self.place_row = None
        screen.focus = 0
        return True

    def back(self, screen: PygameScreen, loop: Loop, now_ns: int) -> bool:
        """The host's *back* while a row is picked (of the grid, of the pad): back to the
        rows. False: not ours (*back* undoes)."""
        if self.place_row is None and self.pad_row is None:
            return False
        self.place_row = self.pad_row = None
        screen.focus = 0
        screen.renderer.invalidate()
        return True

    def _entry(self, screen: PygameScreen, loop: Loop, state: State, name: str, arg: Any,
               now_ns: int) -> bool | None:
        """The entries under way; None: ``name`` is none of theirs."""
        phase = state.phase
        cells = state.rules.cells
        if phase is Phase.LAYOUT:
            if name == "grid.open":
                self.grid = host.GridEntry.empty(cells)
            elif name == "grid.cancel":
                self.grid = None
            elif name == "grid.camera":
                self.grid = (self.grid or host.GridEntry.empty(cells)).prefill(
                    self.camera_cells(loop))
            elif name == "grid.in_order":
                return self._submit_grid(screen, loop, host.in_order(cells), now_ns)
            elif self.grid is None:
                return None
            elif name == "grid.pad_row" and isinstance(arg, int):
                self.pad_row = arg
            elif name == "grid.pick" and isinstance(arg, int):
                self.grid = self.grid.pick(arg)
                self.pad_row = None
            elif name == "back" and self.pad_row is not None:
                self.pad_row = None  # back to the pad's rows
            elif name == "grid.cell" and isinstance(arg, int):
                self.grid = self.grid.at(arg)
            elif name in ("grid.erase", "back"):
                self.grid = self.grid.erase()
            elif name == "grid.done":
                numbers = self.grid.numbers()
                if numbers is None:
                    return True
                return self._submit_grid(screen, loop, numbers, now_ns)
            else:
                return None
            return True
        if phase in (Phase.NAME, Phase.PLACE):
            if name == "place.row" and isinstance(arg, int) and not self.accusing:
                self.place_row = arg
            elif name == "back" and self.place_row is not None:
                self.place_row = None  # back to the rows
            elif name == "accuse.open":
                self.accusing = True
            elif name in ("accuse.cancel", "back") and self.accusing:
                self.accusing = False
            else:
                return None
            return True
        if phase is Phase.ACCUSATION:
            if name in ("pick_number", "pick_seat"):
                self.pick = self.pick.apply(state, name, arg)
            elif name == "back":  # one step back: the seat, then the number
                p = self.pick.valid(state)
                self.pick = host.AccusationPick(p.number, None) if p.seat is not None \
                    else host.AccusationPick()
            else:
                return None
            return True
        return None

    def _submit_grid(self, screen: PygameScreen, loop: Loop, numbers: tuple[int, ...],
                     now_ns: int) -> bool:
        referee = loop.referee
        result = referee.submit(GridEntered(at_ms=referee.at_ms(now_ns), numbers=numbers))
        screen.show_result(result, now_ns)
        if not isinstance(result, Rejection):
            self.grid = None
        return True

    def _settle(self, state: State) -> None:
        """Entries belong to their phase: gone when play has moved on (or an undo took it
        back)."""
        if state.phase is not Phase.LAYOUT:
            self.grid = None
        if self.grid is None:
            self.pad_row = None
        if state.phase is not Phase.PLACE or self.accusing:
            self.place_row = None
        if state.phase not in (Phase.NAME, Phase.PLACE) or not any(
                may_accuse(state, s) for s in range(state.n_players)):
            self.accusing = False
        self.pick = self.pick.valid(state) if state.phase is Phase.ACCUSATION \
            else host.AccusationPick()

    @staticmethod
    def camera_cells(loop: Loop) -> dict[int, int]:
        """LAYOUT: cell index -> the number the camera read there."""
        table = loop.referee.table
        if not isinstance(table, Table):
            return {}
        cols = table.state.rules.grid_cols
        out = {}
        for zone, number in table.laid.items():
            rc = zone_cell(zone)
            if rc is not None:
                out[rc[0] * cols + rc[1]] = number
        return out

    def seat_pressed(self, screen: PygameScreen, loop: Loop, seat: int, t_ns: int) -> None:
        loop.referee.note_press(seat, t_ns)

    def start(self, screen: PygameScreen, loop: Loop, form: Any, now_ns: int,
              rng: random.Random) -> Event:
        players = form.players_for(screen.lang)
        return host.new_game([p.name for p in players], [p.colour for p in players],
                             form.variant or "basic_deal", start_seat=form.start,
                             at_ms=loop.referee.at_ms(now_ns), rng=rng)

    def table_view(self, loop: Loop) -> TableView:
        state: State = loop.referee.state
        self._settle(state)
        table = loop.referee.table
        problems: list[tuple[int, str]] = []
        if isinstance(table, Table) and state.grid:
            for zone, kind in table.problems.items():
                rc = zone_cell(zone)
                index = state.cell_of(*rc) if rc is not None else None
                if index is not None:
                    problems.append((index, kind))
        grid = self.grid
        call = state.call
        last = state.last_accusation
        call_fresh = self._owned("call", None if call is None else (
            call.turn, call.seat, call.number), state)
        result_fresh = self._owned("result", None if last is None else (
            len(state.accusations), last.seat, last.accused, last.number, last.right), state)
        return TableView(
            call_fresh=call_fresh, result_fresh=result_fresh,
            problems=tuple(sorted(problems)),
            camera_cells=len(self.camera_cells(loop)) if state.phase is Phase.LAYOUT else 0,
            grid_entry=grid.cells if grid is not None else (),
            grid_cursor=grid.cursor if grid is not None else 0,
            accusing=self.accusing,
            pick_number=self.pick.number,
            pick_seat=self.pick.seat,
            place_row=self.place_row,
            pad_row=self.pad_row)

    def moment(self, screen: PygameScreen, loop: Loop) -> tuple[Any, ...]:
        """A message's moment: the step of the turn (naming, placing, an accusation)."""
        return self._moment(loop.referee.state)

    def snapshot_parts(self, screen: PygameScreen, loop: Loop) -> dict[str, Any]:
        referee = loop.referee
        state: State = referee.state
        buzz = None
        if referee.last_buzz is not None and state.pending is not None \
                and not state.pending.by_hand:
            info = referee.last_buzz
            d = info.decision
            buzz = BuzzView(winner=d.winner - 1, at_ms=info.at_ms, margin_us=info.margin_us,
                            tie=d.tie, tied=tuple(s - 1 for s in d.tied))
        view = self.table_view(loop)
        self._table_key = (view.grid_open, view.accusing)
        return {"players": tuple(PlayerInfo(p.name, p.colour) for p in state.players),
                "buzz": buzz, "table": view}

    def shot_key(self, state: State, screen_name: str) -> tuple[Any, ...]:
        """A headless PNG per turn and step (and per accusation, and an entry opened)."""
        return (state.turn, state.phase.value, len(state.accusations), *self._table_key)

