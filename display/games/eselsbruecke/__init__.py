"""驢橋's display part: its view (:mod:`.view`), its screens (:mod:`.screens`), its strings
(:mod:`.strings`) and the sample snapshots of every screen (:mod:`.samples`)."""

from __future__ import annotations

from typing import Any

from display.games import GameDisplay
from display.games.eselsbruecke.rules import RULES
from display.games.eselsbruecke.screens import SCREENS
from display.games.eselsbruecke.strings import STRINGS
from display.games.eselsbruecke.view import GameView, ViewPhase, game_view
from display.i18n import add_strings

add_strings(STRINGS)

PHASE_SCREENS: dict[ViewPhase, str] = {
    ViewPhase.STORY: "story",
    ViewPhase.DEAL: "deal",
    ViewPhase.GUESS: "guess",
    ViewPhase.ROUND_OVER: "round_over",
    ViewPhase.OVER: "over",
}


def screen_of(view: GameView) -> str:
    if view.penalties and not view.over:
        return "penalties"
    return PHASE_SCREENS.get(view.phase, "story")


def _samples(lang: str) -> list[tuple[str, Any]]:
    from display.games.eselsbruecke.samples import snapshots

    return snapshots(lang, DISPLAY)


DISPLAY = GameDisplay(
    game="eselsbruecke",
    view=game_view,
    screens=SCREENS,
    screen_of=screen_of,
    timer_screens=frozenset({"guess"}),
    score_screens=frozenset({"penalties"}),
    scoring_screen="penalties",
    view_type=GameView,
    samples=_samples,
    phrases={"variant.standard": "eb.variant.standard",
             "variant.advanced": "eb.variant.advanced"},
    rules=RULES,
)
