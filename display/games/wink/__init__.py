"""眨眨眼's display part: its view (:mod:`.view`), its screens (:mod:`.screens`), its strings
(:mod:`.strings`) and the sample snapshots of every screen (:mod:`.samples`)."""

from __future__ import annotations

from typing import Any

from display.games import GameDisplay
from display.games.wink.rules import RULES
from display.games.wink.screens import SCREENS
from display.games.wink.strings import STRINGS
from display.games.wink.view import WinkView, game_view
from display.i18n import add_strings

add_strings(STRINGS)

PHASE_SCREENS = {"layout": "layout", "name": "play", "place": "play",
                 "accusation": "accusation", "over": "over"}


def screen_of(view: WinkView) -> str:
    return PHASE_SCREENS.get(view.phase, "play")


def _samples(lang: str) -> list[tuple[str, Any]]:
    from display.games.wink.samples import snapshots

    return snapshots(lang, DISPLAY)


DISPLAY = GameDisplay(
    game="wink",
    view=game_view,
    screens=SCREENS,
    screen_of=screen_of,
    score_screens=frozenset({"play"}),
    view_type=WinkView,
    samples=_samples,
    phrases={"buzz.shout": "wink.accuse", "buzz.first": "wink.buzz.first"},
    rules=RULES,
)
