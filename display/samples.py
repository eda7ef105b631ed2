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
from display.input import HostAction
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
#: eight players, the longest names the form keeps (12 characters)
LONG_EIGHT: tuple[PlayerInfo, ...] = (
    PlayerInfo("Bartholomew", "red"), PlayerInfo("歐陽娜娜歐陽娜娜歐陽娜娜", "yellow"),
    PlayerInfo("Maximiliana", "blue"), PlayerInfo("WWWWWWWWWWWW", "green"),
    PlayerInfo("司馬相如", "black"), PlayerInfo("Christopher", "brown"),
    PlayerInfo("諸葛孔明先生", "purple"), PlayerInfo("Alexandra", "white"),
)
#: the four games of the box, as the home screen lists them once their kits are registered
HOME = HomeMenu(games=(
    GameChoice("something-missing", "什麼不見啦", "Something Is Missing", 3, 7),
    GameChoice("the-game", "致命遊戲", "The Game", 1, 5),
    GameChoice("wink", "眨眨眼", "Wink", 3, 8),
    GameChoice("eselsbruecke", "驢橋", "Eselsbrücke", 3, 6),
), chosen=1)


def _table_picture(seq: int = 1, *, card: bool = True, colour: str = "good") -> Any:
    """A camera picture for the set-up samples: a cloth, one white card lying a little
    turned (BGR), its outline found."""
    import numpy as np

    from display.tablesetup import Picture

    img = np.zeros((480, 640, 3), np.uint8)
    img[:] = (40, 52, 110)  # a red-brown cloth (BGR)
    if not card:
        return Picture(img, seq)
    img[150:330, 270:390] = (235, 240, 238)
    img[160:320, 280:380] = (228, 232, 230)
    img[215:275, 310:350] = (170, 60, 30)  # the card's big number, as a block
    quad = ((270 / 640, 150 / 480), (390 / 640, 150 / 480), (390 / 640, 330 / 480),
            (270 / 640, 330 / 480))
    return Picture(img, seq, ((quad, colour),))


def _reference() -> Any:
    import numpy as np

    ref = np.full((300, 200, 3), 240, np.uint8)
    ref[120:190, 70:130] = (30, 60, 170)  # RGB
    return ref


def tablesetup(lang: str = "zh-TW") -> list[tuple[str, Snapshot]]:
    """The set-up area (issue 28): the hub, the cards step in its states, the home screen
    marking the games not set up."""
    from display.tablesetup.cards import CardsView, Named
    from display.tablesetup.hub import AreaView, GameSteps

    s = Snapshot(state=None, now_ms=T0, lang=lang)
    missing = GameSteps("the-game", "致命遊戲", "The Game", (
        ("cards", "missing"), ("zones", "missing"), ("buttons", "optional")))
    ready = GameSteps("wink", "眨眨眼", "Wink", (
        ("cards", "done"), ("zones", "done"), ("markers", "done"), ("buttons", "unavailable")))
    games = (missing, ready)
    home = replace(HOME, games=tuple(
        replace(g, missing=("cards", "zones") if g.name in ("the-game", "eselsbruecke")
                else ()) for g in HOME.games), can_set_up=True)
    teach = CardsView(stage="teach", total=98, taught=37, card_id="n39", name_zh="39",
                      name_en="39", reference=_reference(), shot=1, state="steady",
                      sharpness=412, sharp_ok=True, glare_pct=0, picture=_table_picture())
    cards = AreaView(games, 0, "cards", teach)
    return [
        ("home-needs-setup", replace(s, home=home)),
        ("tablesetup-hub", replace(s, tablesetup=AreaView(games, 0))),
        ("tablesetup-hub-ready", replace(s, tablesetup=AreaView(games, 1))),
        ("tablesetup-hub-simulated", replace(s, tablesetup=AreaView(
            (replace(missing, stands_in=True), ready), 0))),
        ("tablesetup-cards", replace(s, tablesetup=cards)),
        ("tablesetup-cards-glare", replace(s, tablesetup=replace(cards, step_view=replace(
            teach, state="glare", glare_pct=7, glare_ok=False,
            picture=_table_picture(2, colour="bad"))))),
        ("tablesetup-cards-other", replace(s, tablesetup=replace(cards, step_view=replace(
            teach, state="other", other_zh="93", other_en="93",
            picture=_table_picture(3, colour="bad"))))),
        ("tablesetup-cards-camera-gone", replace(s, tablesetup=replace(cards, step_view=replace(
            teach, state="lay", camera_gone=True, picture=None)))),
        ("tablesetup-cards-taken-next", replace(s, tablesetup=replace(cards, step_view=replace(
            teach, card_id="n38", name_zh="38", name_en="38", shot=3, state="clear_next",
            next_zh="39", next_en="39", picture=_table_picture(4))))),
        ("tablesetup-cards-disk-full", replace(s, tablesetup=replace(cards, step_view=replace(
            teach, state="clear", problem="tablesetup.cards.disk_full")))),
        ("tablesetup-cards-skipped", replace(s, tablesetup=replace(cards, step_view=CardsView(
            stage="skipped", total=98, taught=95, skipped=3, state="done",
            picture=_table_picture(4, card=False))))),
        ("tablesetup-cards-check", replace(s, tablesetup=replace(cards, step_view=CardsView(
            stage="check", total=98, taught=98, state="check", picture=_table_picture(5),
            named=(Named("n39", "n39", 0.97, "39", "39"),),
            confused=(("n68", "68", "68"), ("n89", "89", "89")), suggest_zh="72",
            suggest_en="72")))),
        ("tablesetup-cards-check-unknown", replace(s, tablesetup=replace(cards, step_view=(
            CardsView(stage="check", total=98, taught=98, state="check",
                      picture=_table_picture(6, colour="warn"),
                      named=(Named(None, "n86", 0.41, "86", "86"),)))))),
    ]


def shared(lang: str = "zh-TW") -> list[tuple[str, Snapshot]]:
    """The screens that belong to no one game."""
    s = Snapshot(state=None, now_ms=T0, lang=lang)
    form = SetupForm(titles=("什麼不見啦", "Something Is Missing"), can_go_home=True)
    return [*tablesetup(lang),
        ("home", replace(s, home=HOME)),
        ("home-one", replace(s, home=HomeMenu(games=HOME.games[:1]))),
        ("title", s),
        ("setup", replace(s, setup=form)),
        ("setup-7-typing", replace(s, setup=SetupForm(players=SEVEN, variant="advanced",
                                                      focus=2))),
        ("setup-name-entry", replace(s, setup=SetupForm(
            players=SEVEN[:4], focus=3, roster=ROSTER))),
        ("setup-name-zhuyin-spelling", replace(s, setup=SetupForm(
            players=(*SEVEN[:3], PlayerInfo("王", "green")), focus=3, syllable="ㄇㄟ",
            group=10), focus=0)),
        ("setup-name-zhuyin-candidates", replace(s, setup=SetupForm(
            players=(*SEVEN[:3], PlayerInfo("王", "green")), focus=3, syllable="ㄇㄟˇ",
            roster=ROSTER))),
        ("setup-name-latin", replace(s, setup=SetupForm(
            players=(*SEVEN[:3], PlayerInfo("Bart", "green")), focus=3, keyboard="latin"))),
        ("setup-name-roster-edit", replace(s, setup=SetupForm(
            players=(*SEVEN[:3], PlayerInfo("阿德", "green")), focus=3, roster=ROSTER,
            roster_edit=True, roster_pick=1))),
        ("setup-name-roster-empty", replace(s, setup=SetupForm(players=SEVEN[:4], focus=0))),
        ("setup-name-roster-typed", replace(s, setup=SetupForm(
            players=(*SEVEN[:3], PlayerInfo("Bart", "green")), focus=3, roster=ROSTER))),
        ("setup-seat-pressed", replace(s, setup=SetupForm(
            players=SEVEN[:5], roster=ROSTER).apply(HostAction("setup.seat_button", 2)))),
        ("setup-seat-pressed-empty", replace(s, setup=SetupForm(
            players=SEVEN[:5]).apply(HostAction("setup.seat_button", 6)))),
        # eight players with long names (Wink seats eight)
        ("setup-8-long-names", replace(s, setup=SetupForm(
            players=LONG_EIGHT, max_players=8, variants=("basic_deal", "extra_card"),
            variant="basic_deal", titles=("眨眨眼", "Wink"), can_go_home=True))),
        ("setup-name-long", replace(s, setup=SetupForm(
            players=LONG_EIGHT, max_players=8, focus=7, syllable="ㄓㄤ" + "ˉ"))),
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
        (tag + "menu-paused", replace(s, menu=MenuView(items=items, titles=titles,
                                                       note="menu.paused_restart"), focus=0)),
        (tag + "menu-confirm", replace(s, menu=MenuView(
            page="confirm", titles=titles, question="menu.end_q",
            items=(MenuItem("no", "menu.no_keep"), MenuItem("yes", "menu.yes_end", risky=True))),
            focus=0)),
        (tag + "menu-rules", replace(s, menu=MenuView(page="rules", titles=titles,
                                                      rules=rules))),
    ]


#: six alike cards of each game (id, zh-TW, en, shape: square tiles or cards) for the
#: question about a card the camera could not name (issue 37): its two pages of candidates
ASK_CARDS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "the_game": (("n68", "68", "68"), ("n60", "60", "60"), ("n86", "86", "86"),
                 ("n66", "66", "66"), ("n88", "88", "88"), ("n98", "98", "98")),
    "wink": (("w18", "18", "18"), ("w16", "16", "16"), ("w13", "13", "13"),
             ("w19", "19", "19"), ("w10", "10", "10"), ("w78", "78", "78")),
    "something_missing": (("i07", "乳酸飲料", "yogurt drink"), ("i12", "熱水瓶", "thermos flask"),
                          ("i03", "轉盤電話", "rotary phone"), ("i06", "彈珠汽水", "marble soda"),
                          ("i14", "熱水袋", "hot-water bag"), ("i56", "醬油瓶", "soy sauce")),
    "eselsbruecke": (("k014", "鯊魚", "shark"), ("k015", "章魚", "octopus"),
                     ("k041", "麵包", "bread"), ("k013", "鯨魚", "whale"),
                     ("k016", "螃蟹", "crab"), ("k019", "鱷魚", "crocodile")),
}
_ASK_HUES = ((200, 60, 60), (60, 120, 200), (60, 160, 90), (210, 150, 40), (140, 70, 170),
             (90, 90, 90))


def _ask_picture(k: int, square: bool) -> Any:
    """A stand-in card face (RGB): a framed card with a coloured disc, one colour a card."""
    import numpy as np

    h, w = (240, 240) if square else (300, 200)
    y, x = np.mgrid[0:h, 0:w]
    img = np.full((h, w, 3), 238, np.uint8)
    disc = (y - h // 2) ** 2 + (x - w // 2) ** 2 < (min(h, w) // (3 + k)) ** 2
    img[disc] = _ASK_HUES[k % len(_ASK_HUES)]
    img[:8], img[-8:], img[:, :8], img[:, -8:] = 90, 90, 90, 90
    return img


def ask_samples(display: Any, lang: str) -> list[tuple[str, Snapshot]]:
    """The question about a card the camera could not name, with the game's cards' names
    (stand-in pictures: the kiosk shows the deck's): the best one focused; the second page
    (*back*), its second card focused; "none of these" focused."""
    import numpy as np

    from display.ask import PAGE, AskView
    from display.model import CardView

    cards = ASK_CARDS.get(display.game)
    if cards is None:
        return []
    square = display.game == "eselsbruecke"
    views = tuple(CardView(c, zh, en, _ask_picture(k, square))
                  for k, (c, zh, en) in enumerate(cards))
    seen = np.asarray(views[0].image, dtype=np.float32)
    # as a camera under warm lamp light sees it: dimmer, yellower
    seen = np.clip(seen * np.array([0.92, 0.82, 0.62]) + 12.0, 0, 255).astype(np.uint8)
    titles = SETUPS.get(display.game, (("", ""), (), 4))[0]
    s = Snapshot(state=None, now_ms=T0, lang=lang, game=display)
    pages = -(-len(views) // PAGE)
    first = AskView(serial=1, candidates=views[:PAGE], crop=seen, waiting=2, titles=titles,
                    pages=pages)
    second = replace(first, candidates=views[PAGE:2 * PAGE], page=1)
    return [(display.game + "-ask", replace(s, ask=first, focus=0)),
            (display.game + "-ask-more", replace(s, ask=second, focus=1)),
            (display.game + "-ask-none", replace(s, ask=second, focus=3))]


def snapshots(lang: str = "zh-TW") -> list[tuple[str, Snapshot]]:
    """(name, snapshot) for each screen state: the shared screens, then each game's."""
    from display.tablesetup.step_samples import area_samples

    out = shared(lang) + area_samples(lang)  # (+ the set-up steps' screens, issue 28)
    for display in displays():
        out.extend(game_shared(display, lang))
        out.extend(ask_samples(display, lang))
        if display.samples is not None:
            out.extend(display.samples(lang))
    return out
