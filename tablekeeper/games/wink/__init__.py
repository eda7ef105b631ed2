"""The kit of 眨眨眼 Wink (see :mod:`tablekeeper.games`).

- the engine: :mod:`engine.wink`;
- the table adapter: :mod:`.table` (the grid, the markers, the cells' checks, the 「我要抓！」
  race on the seat buttons); the camera source: :mod:`.camera` (cards and markers by cell,
  :mod:`vision.markers`);
- the screen's part: :mod:`.screen`; the host's choices as events: :mod:`.host`; its screens
  are :mod:`display.games.wink`;
- the simulated players: :mod:`.simplayers`; the demo: :mod:`.demo`.

Cheap to import: pygame, OpenCV and the simulator are imported inside the factories below.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from engine import wink
from tablekeeper.games import Kit, SetupSpec

if TYPE_CHECKING:
    from tablekeeper.referee import Referee

DECK = "wink"


def _table(referee: Referee, now_ns: int, **options: Any) -> Any:
    from tablekeeper.games.wink.table import Table

    return Table(referee, now_ns, **options)


def _screen() -> Any:
    from tablekeeper.games.wink.screen import WinkScreen

    return WinkScreen()


def _display() -> Any:
    from display.games.wink import DISPLAY

    return DISPLAY


def load_deck(path: str | None) -> Any:
    """The enrolled Wink deck at ``path``, or the demo deck."""
    from vision.deck import load_deck as load
    from vision.demo_decks import demo_deck

    return load(path if path else demo_deck(DECK))


def card_numbers(deck: Any) -> dict[str, int]:
    """Deck card id -> grid number (the card's ``value``; the demo deck: w01..w36)."""
    out = {}
    for c in getattr(deck, "cards", ()):
        value = getattr(c, "value", None)
        if isinstance(value, int):
            out[c.id] = value
    return out or {f"w{n:02d}": n for n in range(1, 37)}


def _card_infos(deck: Any) -> Any:
    from tablekeeper.vision_link import item_cards

    return item_cards(deck)


def _table_options(deck: Any) -> dict[str, Any]:
    return {"card_numbers": card_numbers(deck)}


def _demo(*args: Any, **kwargs: Any) -> Any:
    from tablekeeper.games.wink.demo import build_demo

    return build_demo(*args, **kwargs)


def _demo_summary(parts: Any) -> dict[str, Any]:
    from tablekeeper.games.wink.demo import demo_summary

    return demo_summary(parts)


def _scoreboard(state: Any) -> str:
    from tablekeeper.games.wink.demo import scoreboard_text

    text: str = scoreboard_text(state)
    return text


def _text_demo(args: argparse.Namespace) -> int:
    from tablekeeper.games.wink.demo import text_demo

    return text_demo(args)


KIT = Kit(
    name="wink",
    title={"zh-TW": "眨眨眼", "en": "Wink"},
    engine=wink.ENGINE,
    setup=SetupSpec(
        min_players=wink.Rules().min_players,
        max_players=wink.Rules().max_players,
        variants=("basic_deal", "extra_card"),
        default_variant="basic_deal",
        colours=tuple(wink.COLOURS),
        default_players=5,
        demo_players=5,
    ),
    table=_table,
    screen=_screen,
    deck=load_deck,
    card_infos=_card_infos,
    table_options=_table_options,
    demo=_demo,
    demo_summary=_demo_summary,
    scoreboard=_scoreboard,
    text_demo=_text_demo,
    display=_display,
    zones=tuple(f"r{r}c{c}" for r in range(1, 7) for c in range(1, 7)),
    uses=("camera", "seat buttons"),
)
