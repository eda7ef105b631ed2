"""The kit of 驢橋 Eselsbrücke: the memory game of stories (see :mod:`tablekeeper.games`).

- the engine: :mod:`engine.eselsbruecke`;
- the table adapter: :mod:`.table` (the camera reads each keyword tile the storyteller lays
  face up in the centre; the guesser's seat button says "I have answered"; the 15 s answer
  clock's time-up, with a sound);
- the screen's part: :mod:`.screen` (host choices as events, the snapshot's fields); its
  screens are :mod:`display.games.eselsbruecke` (``DISPLAY``);
- the host's choices as events: :mod:`.host`;
- the simulated players: :mod:`.simplayers` (what happens) and :mod:`.simdriver` (through
  the hardware seams); the demo: :mod:`.demo`.

Zone: the storyteller lays the drawn tiles face up **in the centre** of the table, where every
player can see them while the story is told (seed: 「將這些圖片正面朝上放在桌面中央」 reads the
same way); the slots on the boards hold them face down, where no camera can read them. So the
game watches one zone, ``centre`` (one zone to calibrate; with none calibrated, any tile in
view counts), and the engine puts the story on the storyteller's next free slot itself.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from engine import eselsbruecke as eb
from tablekeeper.games import Kit, SetupSpec

if TYPE_CHECKING:
    from tablekeeper.referee import Referee

#: the demo deck's name in :mod:`vision.demo_decks`
DEMO_DECK = "eselsbruecke"


def _table(referee: Referee, now_ns: int, **options: Any) -> Any:
    from tablekeeper.games.eselsbruecke.table import Table

    return Table(referee, now_ns, **options)


def _screen() -> Any:
    from tablekeeper.games.eselsbruecke.screen import EselsbrueckeScreen

    return EselsbrueckeScreen()


def _display() -> Any:
    from display.games.eselsbruecke import DISPLAY

    return DISPLAY


def _deck(path: str | None) -> Any:
    from tablekeeper.vision_link import load_items_deck

    if path:
        return load_items_deck(path)
    from vision.deck import load_deck
    from vision.demo_decks import demo_deck

    return load_deck(demo_deck(DEMO_DECK))


def _card_infos(deck: Any) -> Any:
    from tablekeeper.vision_link import item_cards

    return item_cards(deck)


def keyword_ids(deck: Any) -> frozenset[str]:
    """The deck's keyword tiles (its stop tiles are not keywords; the demo deck's ids are
    ``k001`` ... ``k180``)."""
    if deck is None:
        return frozenset(f"k{i:03d}" for i in range(1, 181))
    return frozenset(c.id for c in deck.cards if c.kind != "stop")


def _table_options(deck: Any) -> dict[str, Any]:
    return {"tile_ids": keyword_ids(deck)}


def _demo(*args: Any, **kwargs: Any) -> Any:
    from tablekeeper.games.eselsbruecke.demo import build_demo

    return build_demo(*args, **kwargs)


def _demo_summary(parts: Any) -> dict[str, Any]:
    from tablekeeper.games.eselsbruecke.demo import demo_summary

    return demo_summary(parts)


def _scoreboard(state: Any) -> str:
    from tablekeeper.games.eselsbruecke.demo import scoreboard_text

    text: str = scoreboard_text(state)
    return text


def _text_demo(args: argparse.Namespace) -> int:
    from tablekeeper.games.eselsbruecke.demo import text_demo

    return text_demo(args)


KIT = Kit(
    name="eselsbruecke",
    title={"zh-TW": "驢橋", "en": "Eselsbrücke"},
    engine=eb.ENGINE,
    setup=SetupSpec(
        min_players=eb.Rules().min_players,
        max_players=eb.Rules().max_players,
        variants=("standard", "advanced"),
        default_variant="standard",
        colours=tuple(eb.COLOURS),
        default_players=4,
        demo_players=4,
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
    zones=("centre",),
    uses=("camera", "seat buttons"),
)
