"""The kit of 致命遊戲 The Game: four rows watched by the camera (see :mod:`tablekeeper.games`).

- the engine: :mod:`engine.the_game`;
- the table adapter: :mod:`.table` (the rows, the seat buttons' short and long presses, the
  refused play, "I cannot play");
- the screen's part: :mod:`.screen`; its screens are :mod:`display.games.the_game`;
- the host's entries: :mod:`.host`;
- the simulated players and the bench: :mod:`.simplayers`; through the hardware seams:
  :mod:`.simdriver`; the demo: :mod:`.demo`; ``tablekeeper bench the-game``: :mod:`.cli`.

Imported by name from the registry; pygame, OpenCV and the simulator are imported only inside
the factories below.
"""

from __future__ import annotations

from typing import Any

from engine import the_game as tg
from tablekeeper.games import Kit, SetupSpec, lazy

DECK = "the-game"


def _display() -> Any:
    from display.games.the_game import DISPLAY

    return DISPLAY


def _deck(path: str | None) -> Any:
    from tablekeeper.vision_link import load_game_deck

    return load_game_deck(path, DECK)


def card_values(deck: Any) -> dict[str, int]:
    """Deck card id -> its number, for the number cards (2-99) of a The Game deck."""
    if deck is None:
        return {f"n{v:02d}": v for v in range(2, 100)}
    return {c.id: int(c.value) for c in deck.cards
            if c.value is not None and 2 <= int(c.value) <= 99}


def _table_options(deck: Any) -> dict[str, Any]:
    return {"card_values": card_values(deck)}


KIT = Kit(
    name="the-game",
    title={"zh-TW": "致命遊戲", "en": "The Game"},
    engine=tg.ENGINE,
    setup=SetupSpec(
        min_players=tg.Rules().min_players,
        max_players=tg.Rules().max_players,
        variants=("normal", "expert"),
        default_variant="normal",
        colours=tuple(tg.COLOURS),
        default_players=4,
        demo_players=3,
    ),
    table=lazy("tablekeeper.games.the_game.table:Table"),
    screen=lazy("tablekeeper.games.the_game.screen:TheGameScreen"),
    deck=_deck,
    card_infos=lazy("tablekeeper.vision_link:item_cards"),
    table_options=_table_options,
    demo=lazy("tablekeeper.games.the_game.demo:build_demo"),
    demo_summary=lazy("tablekeeper.games.the_game.demo:demo_summary"),
    scoreboard=lazy("tablekeeper.games.the_game.demo:scoreboard_text"),
    text_demo=lazy("tablekeeper.games.the_game.demo:text_demo"),
    display=_display,
    zones=("row1", "row2", "row3", "row4"),
    zone_layout="rows:4",
    uses=("camera", "seat buttons"),
    hand_entry="tg.enter",
)
