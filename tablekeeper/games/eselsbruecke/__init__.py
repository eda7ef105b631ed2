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

Readings of the table ([I], the kit's; the rules' own are ``engine.eselsbruecke.
Interpretations``):

- **The zone: ``centre``.** Seed: 「說書人大聲地說出圖片上的關鍵詞，並把圖片面朝上放在自己面前」
  -- face up *in front of the storyteller*, a place that moves round the table every turn. At
  the box the storyteller lays them face up in the centre instead, by the think bubble
  (「把思考泡泡放在桌面中央」), in a row: one calibrated zone then sees every story, nothing
  else lies face up there (boards and score piles are face down), and everyone can see them.
  With ``centre`` not calibrated, any keyword tile in view counts, so a table that keeps to
  the seed's "in front of themselves" is read as well. The engine puts each story on the
  storyteller's next free slot itself; the slots are face down, where no camera reads.
- **"I have answered" is the guesser's seat button.** While a guesser's 15 s run (seed:
  「遲疑超過 15 秒未回答」), the buzzer arbiter is armed for their seat alone; their press stops
  the clock. The host's "I have answered" on the screen does the same (a seat button out of
  reach, a team of two sharing one).
- **A right guess names the holder, not the tile.** The host heard the keyword but the screen
  may not show the story's tiles while it is recalled, so the host says whose tile it was;
  the journal already holds every keyword (the camera read them as the story was told).
- **By hand**, the host enters a tile unnamed (the camera missed it) or withdraws a misread
  one, after which the camera offers what it sees again.
"""

from __future__ import annotations

from typing import Any

from engine import eselsbruecke as eb
from tablekeeper.games import Kit, SetupSpec, lazy

#: the demo deck's name in :mod:`vision.demo_decks`
DEMO_DECK = "eselsbruecke"


def _display() -> Any:
    from display.games.eselsbruecke import DISPLAY

    return DISPLAY


def _deck(path: str | None) -> Any:
    from tablekeeper.vision_link import load_game_deck

    return load_game_deck(path, DEMO_DECK)


def keyword_ids(deck: Any) -> frozenset[str]:
    """The deck's keyword tiles (its stop tiles are not keywords; the demo deck's ids are
    ``k001`` ... ``k180``)."""
    if deck is None:
        return frozenset(f"k{i:03d}" for i in range(1, 181))
    return frozenset(c.id for c in deck.cards if c.kind != "stop")


def _table_options(deck: Any) -> dict[str, Any]:
    return {"tile_ids": keyword_ids(deck)}


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
    table=lazy("tablekeeper.games.eselsbruecke.table:Table"),
    screen=lazy("tablekeeper.games.eselsbruecke.screen:EselsbrueckeScreen"),
    deck=_deck,
    card_infos=lazy("tablekeeper.vision_link:item_cards"),
    table_options=_table_options,
    demo=lazy("tablekeeper.games.eselsbruecke.demo:build_demo"),
    demo_summary=lazy("tablekeeper.games.eselsbruecke.demo:demo_summary"),
    scoreboard=lazy("tablekeeper.games.eselsbruecke.demo:scoreboard_text"),
    text_demo=lazy("tablekeeper.games.eselsbruecke.demo:text_demo"),
    display=_display,
    zones=("centre",),
    zone_layout="area",
    zone_names=("centre",),
    uses=("camera", "seat buttons"),
    hand_entry="tile_entered",
)
