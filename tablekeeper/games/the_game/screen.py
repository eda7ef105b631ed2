"""致命遊戲 The Game's part of the kiosk screen: the host's choices in play (a refused play
kept as a house rule or taken back, "I cannot play" confirmed, a play entered by hand, the
turn ended for the acting player), the table's transient state for the screens
(``Snapshot.table``), and the sound of a refused play.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from display.games.the_game.picker import Line
from display.games.the_game.view import PickView, TableView
from display.model import PlayerInfo
from display.sound import Sounds, tone
from engine.core import Event, Rejection
from engine.the_game import State, TurnEnded
from tablekeeper.games.the_game import host
from tablekeeper.games.the_game.table import Table

if TYPE_CHECKING:
    from tablekeeper.app import Loop
    from tablekeeper.screen import PygameScreen


def refused_samples(rate: int) -> Any:
    """Two low falling tones: that card cannot go there."""
    import numpy as np

    gap = np.zeros((rate * 60 // 1000, 2), np.int16)
    return np.concatenate([tone((392.0,), 160, rate=rate), gap,
                           tone((311.1,), 260, rate=rate)])


class RefusalSound(Sounds):
    """:class:`display.sound.Sounds` with The Game's refused-play tone."""

    def refused(self) -> bool:
        return self._play("refused", refused_samples)


class TheGameScreen:
    """The screen's The Game side (see :class:`tablekeeper.games.ScreenPart`)."""

    def __init__(self, sounds: Sounds | None = None) -> None:
        self.sounds = sounds if isinstance(sounds, RefusalSound) else RefusalSound()
        self.entry: host.Entry | None = None
        self._refusals_heard = 0
        self._table_key: tuple[Any, ...] = ()
        #: the entry's line the highlight was put on (a line changed by the table, a card
        #: played while the panel is open, puts it back on the likeliest card)
        self._line: Line | None = None

    def asking(self, screen: PygameScreen, loop: Loop) -> bool:
        """A claim of "I cannot play" waits for the host's confirmation (the game pauses)."""
        return cast(Table, loop.referee.table).claim is not None

    def host_action(self, screen: PygameScreen, loop: Loop, name: str, arg: Any,
                    now_ns: int) -> bool:
        referee = loop.referee
        table = cast(Table, referee.table)
        state: State = referee.state
        if name.startswith("tg.entry"):
            return self._entry(screen, table, state, name, arg, now_ns)
        if name == "tg.enter":
            self.entry = host.Entry()
        elif name == "tg.house_rule":
            screen.show_result(table.house_rule(now_ns), now_ns)
        elif name == "tg.taken_back":
            table.dismiss()
        elif name == "tg.confirm_claim":
            screen.show_result(table.confirm_claim(now_ns), now_ns)
        elif name == "tg.cancel_claim":
            table.cancel_claim()
        elif name == "tg.cannot":  # the host says it for the acting player
            if state.to_act is not None:
                from tablekeeper.games.the_game.table import Claim

                table.claim = Claim(state.to_act, referee.at_ms(now_ns))
        elif name == "tg.end_turn":
            if state.to_act is not None:
                screen.show_result(referee.submit(TurnEnded(at_ms=referee.at_ms(now_ns),
                                                            seat=state.to_act)), now_ns)
        else:
            return False
        screen.focus = 0
        return True

    def back(self, screen: PygameScreen, loop: Loop, now_ns: int) -> bool:
        """The host's *back* in the entry panel: on the rows, the panel closes; on a line of
        cards, the highlight walks the other way (round from the first choice to the last:
        the far cards and the 10-back are there). False: not ours (*back* undoes)."""
        if self.entry is None:
            return False
        if self.entry.row is None:
            self.entry = None
            screen.focus = 0
        else:
            choices = screen._choices()
            if choices:
                screen.focus = (screen.focus - 1) % len(choices)
        screen.renderer.invalidate()
        return True  # (never an undo behind the open panel)

    def _entry(self, screen: PygameScreen, table: Table, state: State, name: str, arg: Any,
               now_ns: int) -> bool:
        entry = self.entry or host.Entry()
        if name == "tg.entry.row" and isinstance(arg, int) and 0 <= arg < len(state.rows):
            # the row's line of cards, from the table as it is now; the highlight on the
            # likeliest card
            self.entry = replace(entry.apply(name, arg), digits="")
            self._focus_line(screen, state)
            return True
        if name == "tg.entry.open" and isinstance(arg, tuple):
            self.entry = entry.open(state, (int(arg[0]), int(arg[1])))
            self._focus_line(screen, state)
            return True
        if name == "tg.entry.up":
            came_from = entry.opened[-1] if entry.opened else None
            row = entry.row
            self.entry = entry.apply(name, arg)
            line = self._line = self.entry.line(state)
            if line is None:  # back on the rows: the highlight on the row it left
                screen.focus = row if row is not None else 0
            else:  # on the range it left
                screen.focus = next((i for i, p in enumerate(line.picks)
                                     if came_from is not None and p.cards == came_from.cards),
                                    line.focus)
            screen.renderer.invalidate()
            return True
        if name == "tg.entry.cancel":
            self.entry = None
            screen.focus = 0  # the play screen's first choice (never where OK was: the menu)
        elif name in ("tg.entry.pick", "tg.entry.ok"):
            card = arg if name == "tg.entry.pick" else entry.card
            if entry.row is not None and isinstance(card, int):
                self.entry = None
                screen.focus = 0
                result = table.enter_play(entry.row, card, now_ns)
                if isinstance(result, Rejection):
                    screen.show_result(result, now_ns)
        else:
            self.entry = entry.apply(name, arg)
        return True

    def _focus_line(self, screen: PygameScreen, state: State) -> None:
        """The highlight on the line's first choice (its choices are the panel's first
        buttons, in the order *next* walks them)."""
        line = self._line = self.entry.line(state) if self.entry is not None else None
        screen.focus = line.focus if line is not None else 0
        screen.renderer.invalidate()

    def start(self, screen: PygameScreen, loop: Loop, form: Any, now_ns: int,
              rng: random.Random) -> Event:
        players = form.players_for(screen.lang)
        return host.new_game([p.name for p in players], [p.colour for p in players],
                             form.variant, start_seat=form.start,
                             at_ms=loop.referee.at_ms(now_ns))

    def seat_pressed(self, screen: PygameScreen, loop: Loop, seat: int, t_ns: int) -> None:
        """(Presses reach the table adapter with their releases: ``Table.seat_edge``.)"""

    def table_view(self, table: Table) -> TableView:
        refused, claim, said, entry = table.refused, table.claim, table.said, self.entry
        line = entry.line(table.referee.state) if entry is not None else None
        picks = () if line is None else tuple(
            PickView(p.cards[0], p.cards[-1], len(p.cards), p.backward, i == line.focus)
            for i, p in enumerate(line.picks))
        return TableView(
            refused_row=refused.row if refused is not None else None,
            refused_card=refused.card if refused is not None else 0,
            refused_label=refused.label if refused is not None else "",
            refused_code=refused.code if refused is not None else "",
            claim_seat=claim.seat if claim is not None else None,
            said_seat=said.seat if said is not None else None,
            said_code=said.code if said is not None else "",
            said_reason=said.reason if said is not None else "",
            entry_open=entry is not None,
            entry_row=entry.row if entry is not None else None,
            entry_digits=entry.digits if entry is not None else "",
            entry_picks=picks, entry_depth=len(entry.opened) if entry is not None else 0)

    def moment(self, screen: PygameScreen, loop: Loop) -> tuple[Any, ...]:
        """A message's moment: the turn, and the refused play on the screen (a refusal goes
        with its red flag on the row)."""
        state: State = loop.referee.state
        return (state.phase, state.turn, cast(Table, loop.referee.table).refused)

    def snapshot_parts(self, screen: PygameScreen, loop: Loop) -> dict[str, Any]:
        referee = loop.referee
        table = cast(Table, referee.table)
        state: State = referee.state
        if table.refusals != self._refusals_heard:
            self._refusals_heard = table.refusals
            if table.refused is not None:
                self.sounds.refused()  # at once, with the red flag on the row
        if self.entry is not None:
            line = self.entry.line(state)
            if line != self._line:  # the table moved under the open panel
                screen.focus = _refocus(self._line, line, screen.focus)
                self._line = line
        view = self.table_view(table)
        self._table_key = (view.refused_row, view.refused_card, view.claim_seat,
                           view.said_code, view.entry_open)
        return {"players": tuple(PlayerInfo(p.name, p.colour) for p in state.players),
                "table": view}

    def shot_key(self, state: State, screen_name: str) -> tuple[Any, ...]:
        """A headless PNG per turn, and per refused play, claim or refused press."""
        return (state.turn, *self._table_key)


def _refocus(old: Line | None, new: Line | None, focus: int) -> int:
    """Where the highlight goes when the table moves under the open panel (seen in a host's
    drive: the simulated players played on, the line was laid anew and the highlight jumped
    back to the likeliest card, so a host walking to 37 confirmed 60). It stays on the card, or
    the range holding it, that it was on; on the panel's own buttons after the line (another
    row, cancel, the menu) it stays on the same button. Only where the card is gone does it
    go to the new line's likeliest."""
    if new is None:
        return 0
    if old is None:
        return new.focus
    if focus >= len(old.picks):  # a button after the line: the same one
        return len(new.picks) + (focus - len(old.picks))
    was = set(old.picks[focus].cards)
    for i, pick in enumerate(new.picks):
        if was & set(pick.cards):
            return i
    return new.focus
