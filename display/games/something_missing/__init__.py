"""什麼不見啦's display part: its view (:mod:`.view`), its screens (:mod:`.screens`) and the
sample snapshots of every screen (:mod:`.samples`)."""

from __future__ import annotations

from typing import Any

from display.games import GameDisplay
from display.games.something_missing.rules import RULES
from display.games.something_missing.screens import SCREENS
from display.games.something_missing.strings import STRINGS
from display.games.something_missing.view import GameView, ViewPhase, game_view
from display.i18n import add_strings

add_strings(STRINGS)

PHASE_SCREENS: dict[ViewPhase, str] = {
    ViewPhase.VIEWING: "viewing",
    ViewPhase.REPLACE: "replace",
    ViewPhase.REVEAL: "reveal",
    ViewPhase.BETTING: "betting",
    ViewPhase.CHECKING: "checking",
    ViewPhase.SCORING: "scoring",
    ViewPhase.SWAP: "swap",
    ViewPhase.OVER: "over",
}


def screen_of(view: GameView) -> str:
    return PHASE_SCREENS.get(view.phase, "reveal")


def _samples(lang: str) -> list[tuple[str, Any]]:
    from display.games.something_missing.samples import snapshots

    return snapshots(lang, DISPLAY)


DISPLAY = GameDisplay(
    game="something_missing",
    view=game_view,
    screens=SCREENS,
    screen_of=screen_of,
    timer_screens=frozenset({"viewing", "replace", "checking"}),
    score_screens=frozenset({"reveal", "scoring"}),
    scoring_screen="scoring",
    view_type=GameView,
    samples=_samples,
    phrases={"buzz.shout": "sm.buzz.shout", "buzz.first": "sm.buzz.first",
             "variant.easy": "sm.variant.easy", "variant.standard": "sm.variant.standard",
             "variant.advanced": "sm.variant.advanced"},
    rules=RULES,
)
