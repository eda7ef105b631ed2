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

from typing import Any

from engine import wink
from tablekeeper.games import Kit, SetupSpec, lazy

DECK = "wink"


def _display() -> Any:
    from display.games.wink import DISPLAY

    return DISPLAY


def load_deck(path: str | None) -> Any:
    """The enrolled Wink deck at ``path``, or the demo deck."""
    from tablekeeper.vision_link import load_game_deck

    return load_game_deck(path, DECK)


def card_numbers(deck: Any) -> dict[str, int]:
    """Deck card id -> grid number (the card's ``value``; the demo deck: w01..w36)."""
    out = {}
    for c in getattr(deck, "cards", ()):
        value = getattr(c, "value", None)
        if isinstance(value, int):
            out[c.id] = value
    return out or {f"w{n:02d}": n for n in range(1, 37)}


def _table_options(deck: Any) -> dict[str, Any]:
    return {"card_numbers": card_numbers(deck)}


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
    table=lazy("tablekeeper.games.wink.table:Table"),
    screen=lazy("tablekeeper.games.wink.screen:WinkScreen"),
    deck=load_deck,
    card_infos=lazy("tablekeeper.vision_link:item_cards"),
    table_options=_table_options,
    demo=lazy("tablekeeper.games.wink.demo:build_demo"),
    demo_summary=lazy("tablekeeper.games.wink.demo:demo_summary"),
    scoreboard=lazy("tablekeeper.games.wink.demo:scoreboard_text"),
    text_demo=lazy("tablekeeper.games.wink.demo:text_demo"),
    display=_display,
    zones=tuple(f"r{r}c{c}" for r in range(1, 7) for c in range(1, 7)),
    zone_layout="grid:6x6",
    markers="grid",
    setup_steps=("cards", "zones", "markers", "buttons"),
    uses=("camera", "seat buttons"),
    # The 6x6 grid (about 58 x 40 cm of cards) at 640 px gives cards ~55 px wide, under
    # the Wink deck's floor (56 px, `bench pixels`); 1280 px doubles that (hardware.md §3).
    search_width=1280,
    watcher=lazy("tablekeeper.games.wink.camera:watcher_for"),
    hand_entry="grid.camera",
)
