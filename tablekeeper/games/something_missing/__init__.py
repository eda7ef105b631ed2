"""The kit of 什麼不見啦 Something Is Missing: the buzzer game (see :mod:`tablekeeper.games`).

- the engine: :mod:`engine.something_missing`;
- the table adapter: :mod:`.table` (the centre pile, the by-hand card, the buzzers' arming);
- the screen's part: :mod:`.screen` (host choices as events, the snapshot's card fields);
  its screens are :mod:`display.games.something_missing` (``DISPLAY``);
- the host's choices as events: :mod:`.host`;
- the simulated players: :mod:`.simplayers` (what happens) and :mod:`.simdriver` (through
  the hardware seams); the demo: :mod:`.demo`.

Imported by name from the registry; pygame, OpenCV and the simulator are imported only inside
the factories below.
"""

from __future__ import annotations

from typing import Any

from engine import something_missing as sm
from tablekeeper.games import Kit, SetupSpec, lazy


def _display() -> Any:
    from display.games.something_missing import DISPLAY

    return DISPLAY


def _deck(path: str | None) -> Any:
    from tablekeeper.vision_link import load_items_deck

    return load_items_deck(path)


def item_card_ids(deck: Any) -> dict[str, int]:
    """Deck card id -> engine item number, for the item cards of a 什麼不見啦 deck, in deck
    order (the engine numbers the 66 item cards 0..65)."""
    ids = [c.id for c in deck.cards if c.kind == "item"] if deck is not None else []
    if not ids:
        return {f"i{i + 1:02d}": i for i in range(66)}
    return {cid: i for i, cid in enumerate(ids)}


def _table_options(deck: Any) -> dict[str, Any]:
    return {"card_ids": item_card_ids(deck)}


KIT = Kit(
    name="something-missing",
    title={"zh-TW": "什麼不見啦", "en": "Something Is Missing"},
    engine=sm.ENGINE,
    setup=SetupSpec(
        min_players=sm.Rules().min_players,
        max_players=sm.Rules().max_players,
        variants=("easy", "standard", "advanced"),
        default_variant="standard",
        colours=tuple(sm.COLOURS),
        default_players=4,
        demo_players=5,
    ),
    table=lazy("tablekeeper.games.something_missing.table:Table"),
    screen=lazy("tablekeeper.games.something_missing.screen:SomethingMissingScreen"),
    deck=_deck,
    card_infos=lazy("tablekeeper.vision_link:item_cards"),
    table_options=_table_options,
    demo=lazy("tablekeeper.games.something_missing.demo:build_demo"),
    demo_summary=lazy("tablekeeper.games.something_missing.demo:demo_summary"),
    scoreboard=lazy("tablekeeper.games.something_missing.demo:scoreboard_text"),
    text_demo=lazy("tablekeeper.games.something_missing.demo:text_demo"),
    display=_display,
    zones=("centre", *(f"scene{p}" for p in range(1, 7)), *(f"memory{p}" for p in range(1, 7))),
    zone_layout="pile+ring:5",
    zone_names=("centre",),
    markers="ring",
    setup_steps=("cards", "zones", "markers", "buttons"),
    uses=("camera", "buzzers"),
    watcher=lazy("tablekeeper.games.something_missing.camera:watcher_for"),
    hand_entry="by_hand",
)
