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

import argparse
from typing import TYPE_CHECKING, Any

from engine import the_game as tg
from tablekeeper.games import Kit, SetupSpec

if TYPE_CHECKING:
    from tablekeeper.referee import Referee

DECK = "the-game"


def _table(referee: Referee, now_ns: int, **options: Any) -> Any:
    from tablekeeper.games.the_game.table import Table

    return Table(referee, now_ns, **options)


def _screen() -> Any:
    from tablekeeper.games.the_game.screen import TheGameScreen

    return TheGameScreen()


def _display() -> Any:
    from display.games.the_game import DISPLAY

    return DISPLAY


def _deck(path: str | None) -> Any:
    import os
    from pathlib import Path

    from vision.deck import load_deck
    from vision.demo_decks import demo_deck

    return load_deck(Path(os.path.expanduser(path)) if path else demo_deck(DECK))


def _card_infos(deck: Any) -> Any:
    from tablekeeper.vision_link import item_cards

    return item_cards(deck)


def card_values(deck: Any) -> dict[str, int]:
    """Deck card id -> its number, for the number cards (2-99) of a The Game deck."""
    if deck is None:
        return {f"n{v:02d}": v for v in range(2, 100)}
    return {c.id: int(c.value) for c in deck.cards
            if c.value is not None and 2 <= int(c.value) <= 99}


def _table_options(deck: Any) -> dict[str, Any]:
    return {"card_values": card_values(deck)}


def _demo(*args: Any, **kwargs: Any) -> Any:
    from tablekeeper.games.the_game.demo import build_demo

    return build_demo(*args, **kwargs)


def _demo_summary(parts: Any) -> dict[str, Any]:
    from tablekeeper.games.the_game.demo import demo_summary

    return demo_summary(parts)


def _scoreboard(state: Any) -> str:
    from tablekeeper.games.the_game.demo import scoreboard_text

    return scoreboard_text(state)


def _text_demo(args: argparse.Namespace) -> int:
    from tablekeeper.games.the_game.demo import text_demo

    return text_demo(args)


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
    table=_table,
    screen=_screen,
    deck=_deck,
    card_infos=_card_infos,
    table_options=_table_options,
    demo=_demo,
    demo_summary=_demo_summary,
    scoreboard=_scoreboard,
    text_demo=_text_demo,
    display=_display,
    zones=("row1", "row2", "row3", "row4"),
    uses=("camera", "seat buttons"),
)
