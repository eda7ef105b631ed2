"""A refusal waits for the host (issue 41, round three): a play the host entered by hand and
the engine refused stays on the screen until the host acts or the moment of the game it
belongs to ends, however long that is. It was wiped 0.1 s later by the table's next accepted
event (in the kiosk with ``--simulate-players``: a player ending the turn), and after 4 s in
any case, so the host never read it.

Through the kiosk's path for simulated players: the game's own demo table (its kit's
``demo``) on the real screen, loop and referee, with a fake clock; the host's entries are
the screen's host actions.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import display.games.the_game  # noqa: F401  (registers The Game's strings: its refusals' words)
from display.i18n import STRINGS
from display.input import HostAction
from engine.the_game import Phase
from firmware.devices import HostButton
from tablekeeper import games
from tablekeeper.clock import FakeClock
from tablekeeper.screen import PygameScreen

NS_PER_MS = 1_000_000
# the banner says why (the card entered is one already played), not only "not allowed"
REFUSED = STRINGS["reject.card_already_played"]["en"]


class Table:
    """The Game's demo table on the kiosk's screen, on into a turn whose player has played
    enough (the end of their turn is on its way)."""

    def __init__(self, folder: Path, lang: str, seed: int, played: int | None = None) -> None:
        """``played``: on into a turn with this many cards played (None: as many as the
        turn needs, the end of the turn on its way; 0: the first card on its way)."""
        kit = games.load("the-game")
        deck = kit.deck(None)
        self.clock = FakeClock()
        self.screen = PygameScreen(size=(800, 480), cards=kit.card_infos(deck), lang=lang)
        self.parts = kit.demo(folder, seed=seed, clock=self.clock, camera=True,
                              screen=self.screen, deck=deck, threaded=False,
                              **games.demo_options(kit, players=None, variant=None))
        self.loop = self.parts.loop
        self.referee = self.loop.referee
        self.table: Any = self.referee.table
        while not (self.state.phase is Phase.PLAY and self.state.turn >= 2
                   and (self.state.played_this_turn >= self.state.min_to_play
                        if played is None else self.state.played_this_turn == played)):
            now = self.clock.now_ns()
            self.clock.advance(max(0, self.loop.next_wake(now) - now))
            self.loop.step()
            assert self.loop.ticks < 200_000 and not self.loop.over

    @property
    def state(self) -> Any:
        return self.referee.state

    def step(self, ms: int) -> None:
        self.clock.advance(ms * NS_PER_MS)
        self.loop.step()

    def drawn(self) -> set[str]:
        return {t.text for t in self.screen.renderer.texts}

    def host(self, name: str, arg: Any = None) -> None:
        self.screen.host_action(self.loop, HostAction(name, arg), self.clock.now_ns())

    def enter_refused_play(self) -> int:
        """The host enters by hand a card already played (the engine refuses it)."""
        played: int = self.state.plays[-1].card
        self.host("tg.enter")
        self.host("tg.entry.row", 0)
        for digit in f"{played:02d}":
            self.host("tg.entry.digit", int(digit))
        self.host("tg.entry.ok")
        assert self.table.refused is not None and self.table.refused.card == played
        return played

    def close(self) -> None:
        self.screen.close()
        self.parts.firmware.close()


@pytest.mark.parametrize("played", [None, 0])
def test_a_refused_play_entered_by_hand_waits_for_the_host(tmp_path: Path,
                                                          played: int | None) -> None:
    """Entered as the player is about to end the turn, or to lay the turn's first card:
    the players wait for the host as a table does (in the kiosk they ended the turn, or laid
    the card, 0.1 s to 2 s later, and the refusal went with it)."""
    table = Table(tmp_path, "en", seed=3, played=played)
    try:
        turn, plays = table.state.turn, len(table.state.plays)
        table.enter_refused_play()
        # the host reads it: 20 s of the table going on (every frame drawn), and it stays
        for _ in range(200):
            table.step(100)
            assert REFUSED in table.drawn(), table.clock.now_ns()
            assert table.table.refused is not None
            assert table.state.turn == turn  # (the player waits for the host too)
            assert len(table.state.plays) == plays
        # the host walks the focus (reading the choices): it stays
        table.screen.gpio_button(table.loop, HostButton.NEXT, table.clock.now_ns())
        table.step(20)
        assert REFUSED in table.drawn()
        # the host acts (the card was taken back): gone, and the turn goes on
        table.host("tg.taken_back")
        table.step(20)
        assert REFUSED not in table.drawn()
        for _ in range(500):
            table.step(20)
            if table.state.turn != turn:
                break
        assert table.state.turn == turn + 1
    finally:
        table.close()


def test_a_refusal_goes_with_its_moment(tmp_path: Path) -> None:
    """Its own moment ended (the turn: the acting player pressed their button) before the
    host answered: the refusal goes with it."""
    table = Table(tmp_path, "zh-TW", seed=4)
    try:
        turn = table.state.turn
        table.enter_refused_play()
        table.step(20)
        refused = STRINGS["reject.card_already_played"]["zh-TW"]
        assert refused in table.drawn()
        seat = table.state.to_act + 1
        table.table.seat_edge(seat, True, table.clock.now_ns())
        table.clock.advance(120 * NS_PER_MS)
        table.table.seat_edge(seat, False, table.clock.now_ns())
        table.step(20)
        assert table.state.turn == turn + 1
        assert refused not in table.drawn()
        assert table.table.refused is None
    finally:
        table.close()
