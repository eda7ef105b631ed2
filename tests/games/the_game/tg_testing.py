"""Helpers for The Game's kit tests: a referee keeping The Game, a dealt start."""

from __future__ import annotations

import random
from pathlib import Path

from engine import the_game as tg
from firmware.box import Firmware
from tablekeeper.clock import FakeClock
from tablekeeper.games.the_game import KIT
from tablekeeper.games.the_game.simplayers import SimTable
from tablekeeper.games.the_game.table import Table, table_of
from tablekeeper.journal import JournaledGame
from tablekeeper.referee import CardSeen, Referee


def tg_referee(tmp_path: Path, firmware: Firmware, clock: FakeClock) -> Referee:
    game = JournaledGame.create(tmp_path / "tg.jsonl", game=tg.GAME_NAME)
    return Referee(game, firmware, clock.now_ns(), kit=KIT, game_id="test")


def start(referee: Referee, *, hands: tuple[tuple[int, ...], ...] | None = None,
          pile: tuple[int, ...] | None = None, players: int = 2,
          variant: str = "standard") -> Table:
    """A new game: dealt (``hands`` and ``pile``) or counts only."""
    names = ("A", "B", "C", "D", "E")[:players]
    colours = tuple(tg.COLOURS)[:players]
    result = referee.submit(tg.NewGame(at_ms=0, names=names, colours=colours, variant=variant,
                                       hands=hands, draw_pile=pile))
    assert isinstance(result, tg.State), result
    return table_of(referee)


def dealt(seed: int, players: int) -> SimTable:
    return SimTable.generate(random.Random(seed), players)


def seen(card: int, row: int, t_ns: int) -> CardSeen:
    return CardSeen(f"n{card:02d}", t_ns, zone=f"row{row + 1}")
