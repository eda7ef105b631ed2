"""致命遊戲 The Game's display part: its view (:mod:`.view`), its screens (:mod:`.screens`),
its words (:mod:`.strings`) and the sample snapshots of every screen (:mod:`.samples`)."""

from __future__ import annotations

from typing import Any

from display.games import GameDisplay
from display.games.the_game.rules import RULES
from display.games.the_game.screens import SCREENS
from display.games.the_game.strings import STRINGS
from display.games.the_game.view import GameView, game_view
from display.i18n import add_strings

add_strings(STRINGS)


def screen_of(view: GameView) -> str:
    return "over" if view.over else "play"


def _samples(lang: str) -> list[tuple[str, Any]]:
    from display.games.the_game.samples import snapshots

    return snapshots(lang, DISPLAY)


DISPLAY = GameDisplay(
    game="the_game",
    view=game_view,
    screens=SCREENS,
    screen_of=screen_of,
    view_type=GameView,
    samples=_samples,
    phrases={},
    rules=RULES,
)
