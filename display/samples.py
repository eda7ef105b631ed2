"""Sample snapshots of every screen in each of its states: the shared screens (home, title,
setup) and every game's own (each game display's ``samples``).

Used by the tests, by ``tablekeeper bench display`` and by ``tablekeeper display shots`` (which
renders them all to PNG files for a person to look at). Times are on a fake clock.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from display.games import displays
from display.home import GameChoice, HomeMenu
from display.model import Notice, PlayerInfo, Snapshot
from display.setup import SetupForm

T0 = 1_000_000
#: a table's regulars, as a config's roster lists them
ROSTER: tuple[str, ...] = ("志強", "美玲", "怡君", "家豪", "淑芬", "Ann")
SEVEN: tuple[PlayerInfo, ...] = (
    PlayerInfo("小明", "red"), PlayerInfo("阿美", "yellow"), PlayerInfo("Alice", "blue"),
    PlayerInfo("志明", "green"), PlayerInfo("春嬌", "orange"), PlayerInfo("大雄", "brown"),
    PlayerInfo("Bartholomew", "purple"),
)
#: the four games of the box, as the home screen lists them once their kits are registered
HOME = HomeMenu(games=(
    GameChoice("something-missing", "什麼不見啦", "Something Is Missing", 3, 7),
    GameChoice("the-game", "致命遊戲", "The Game", 1, 5),
    GameChoice("wink", "眨眨眼", "Wink", 3, 8),
    GameChoice("eselsbruecke", "驢橋", "Eselsbrücke", 3, 6),
), chosen=1)


def shared(lang: str = "zh-TW") -> list[tuple[str, Snapshot]]:
    """The screens that belong to no one game."""
    s = Snapshot(state=None, now_ms=T0, lang=lang)
    form = SetupForm(titles=("什麼不見啦", "Something Is Missing"), can_go_home=True)
    return [
        ("home", replace(s, home=HOME)),
        ("home-one", replace(s, home=HomeMenu(games=HOME.games[:1]))),
        ("title", s),
        ("setup", replace(s, setup=form)),
        ("setup-7-typing", replace(s, setup=SetupForm(players=SEVEN, variant="advanced",
                                                      focus=2))),
        ("setup-name-entry", replace(s, setup=SetupForm(
            players=SEVEN[:4], focus=3, roster=ROSTER))),
        ("setup-name-roster-typed", replace(s, setup=SetupForm(
            players=(*SEVEN[:3], PlayerInfo("Bart", "green")), focus=3, roster=ROSTER))),
        ("setup-problem", replace(s, setup=SetupForm(
            players=(PlayerInfo("A", "red"), PlayerInfo("B", "red"))))),
        ("setup-banner", replace(s, setup=SetupForm(players=SEVEN[:4]),
                                 camera_status="status.camera_retrying:4",
                                 notices=(Notice(text="config.toml line 3: table.language: "
                                                      "'english' is not one of zh-TW, en"),))),
    ]


#: each game's setup as its kit offers it: (titles, variants); the shared screens drawn for a
#: game take its words from its display's ``phrases`` (checked by tests/display/test_vocabulary)
SETUPS: dict[str, tuple[tuple[str, str], tuple[str, ...], int]] = {
    "something_missing": (("什麼不見啦", "Something Is Missing"),
                          ("easy", "standard", "advanced"), 4),
    "the_game": (("致命遊戲", "The Game"), ("normal", "expert"), 3),
    "wink": (("眨眨眼", "Wink"), ("basic_deal", "extra_card"), 5),
    "eselsbruecke": (("驢橋", "Eselsbrücke"), ("standard", "advanced"), 4),
}


def game_shared(display: Any, lang: str) -> list[tuple[str, Snapshot]]:
    """The shared screens as one game shows them: its setup, its race, the host menu (its
    entries, a question, its rules) and the sound sign."""
    from display.colours import COLOUR_KEYS
    from display.hostmenu import MenuItem, MenuView
    from display.model import BuzzView

    titles, variants, n = SETUPS.get(display.game, (("", ""), (), 4))
    s = Snapshot(state=None, now_ms=T0, lang=lang, game=display)
    form = SetupForm(players=tuple(PlayerInfo("", COLOUR_KEYS[i]) for i in range(n)),
                     variants=variants, variant=variants[0] if variants else "",
                     titles=titles, can_go_home=True)
    items = (MenuItem("resume", "menu.resume"), MenuItem("rules", "menu.rules"),
             MenuItem("volume_down", "menu.volume_down", (("n", 7),)),
             MenuItem("volume_up", "menu.volume_up", (("n", 7),)),
             MenuItem("mute", "menu.mute"), MenuItem("lang", "btn.lang"),
             MenuItem("end", "menu.end", risky=True), MenuItem("home", "menu.home", risky=True))
    rules = (tuple(display.rules.get("zh-TW", ())), tuple(display.rules.get("en", ())))
    tag = display.game + "-"
    players = SEVEN[:n]
    return [
        (tag + "setup", replace(s, setup=form)),
        (tag + "setup-silent", replace(s, setup=form, sound="silent", focus=0)),
        (tag + "shared-race", replace(s, setup=form, players=players,
                                      buzz=BuzzView(winner=1, at_ms=T0 - 200, margin_us=3200),
                                      early=((2, 0),))),
        (tag + "menu", replace(s, menu=MenuView(items=items, titles=titles), focus=0)),
        (tag + "menu-confirm", replace(s, menu=MenuView(
            page="confirm", titles=titles, question="menu.end_q",
            items=(MenuItem("no", "menu.no_keep"), MenuItem("yes", "menu.yes_end", risky=True))),
            focus=0)),
        (tag + "menu-rules", replace(s, menu=MenuView(page="rules", titles=titles,
                                                      rules=rules))),
    ]


def snapshots(lang: str = "zh-TW") -> list[tuple[str, Snapshot]]:
    """(name, snapshot) for each screen state: the shared screens, then each game's."""
    out = shared(lang)
    for display in displays():
        out.extend(game_shared(display, lang))
        if display.samples is not None:
            out.extend(display.samples(lang))
    return out
