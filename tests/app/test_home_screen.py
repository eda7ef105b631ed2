"""The home screen: the host picks the game, sets it up, may go back; the kiosk starts there.

Rendered headless with SDL's dummy driver, through the real screen, referee and kit registry.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display.home import GameChoice
from display.input import HostAction
from firmware.devices import HostButton
from tablekeeper import games
from tablekeeper.app import Loop
from tablekeeper.clock import FakeClock
from tablekeeper.referee import Referee
from tablekeeper.screen import PygameScreen

#: a second game on the menu (the registry may hold only one yet): picking it is reported
OTHER = GameChoice("other-game", "別的遊戲", "Another game", 2, 4)


@pytest.fixture
def loop(tmp_path: Path, referee: Referee, clock: FakeClock) -> Iterator[Loop]:
    screen = PygameScreen(size=(800, 480), png_dir=tmp_path, rng=random.Random(1))
    yield Loop(referee, clock, screen=screen)
    screen.close()


def _screen(loop: Loop) -> PygameScreen:
    assert isinstance(loop.screen, PygameScreen)
    return loop.screen


def test_the_home_screen_lists_every_registered_game() -> None:
    choices = games.home_choices()
    assert [c.name for c in choices] == list(games.names())
    sm = next(c for c in choices if c.name == "something-missing")
    assert (sm.title_zh, sm.title_en, sm.min_players, sm.max_players) == (
        "什麼不見啦", "Something Is Missing", 3, 7)


def test_picking_a_game_reports_it_and_opens_its_setup(loop: Loop) -> None:
    screen = _screen(loop)
    chosen: list[str] = []
    screen.on_choose_game = chosen.append
    screen.show_home((*games.home_choices(), OTHER), chosen="something-missing")
    screen.render(loop, loop.clock.now_ns())
    assert screen.renderer.screen == "home"
    titles = " ".join(t.text for t in screen.renderer.texts)
    assert "什麼不見啦" in titles and "別的遊戲" in titles and "3–7" in titles
    screen.host_action(loop, HostAction("home.pick", len(games.names())), loop.clock.now_ns())
    assert chosen == ["other-game"]
    screen.render(loop, loop.clock.now_ns())
    assert screen.renderer.screen == "setup"  # (this loop's referee still keeps 什麼不見啦)
    form = screen.snapshot(loop, loop.clock.now_ns()).setup
    assert form is not None and form.can_go_home
    assert "換遊戲" in [t.text for t in screen.renderer.texts]  # the way back


def test_back_on_the_setup_screen_returns_home(loop: Loop) -> None:
    screen = _screen(loop)
    screen.show_home(games.home_choices())
    screen.host_action(loop, HostAction("confirm"), loop.clock.now_ns())
    screen.render(loop, loop.clock.now_ns())
    assert screen.renderer.screen == "setup"
    header = [t.text for t in screen.renderer.texts]
    assert any("什麼不見啦" in text for text in header)  # the game's name heads its setup
    screen.gpio_button(loop, HostButton.BACK, loop.clock.now_ns())
    screen.render(loop, loop.clock.now_ns())
    assert screen.renderer.screen == "home"
    screen.host_action(loop, HostAction("home"), loop.clock.now_ns())  # (already home)
    assert screen.home is not None


def test_three_buttons_walk_the_games(loop: Loop) -> None:
    screen = _screen(loop)
    chosen: list[str] = []
    screen.on_choose_game = chosen.append
    screen.show_home((*games.home_choices(), OTHER))
    screen.render(loop, loop.clock.now_ns())
    for _ in range(len(games.names())):
        screen.gpio_button(loop, HostButton.NEXT, loop.clock.now_ns())
    screen.gpio_button(loop, HostButton.CONFIRM, loop.clock.now_ns())
    assert chosen == ["other-game"]


def test_the_keyboards_next_walks_the_same_focus_as_the_host_button(loop: Loop) -> None:
    # → / Tab on the home screen: the focus ring and the tile's highlight move together, past
    # the games to the set-up button, and Enter takes what is focused (→ once moved only the
    # highlight among the games: the ring stayed on the first game, which Enter then took,
    # and the buttons after the games could not be reached)
    screen = _screen(loop)
    chosen: list[str] = []
    screen.on_choose_game = chosen.append
    screen.show_home(games.home_choices())
    screen.render(loop, loop.clock.now_ns())
    screen.host_action(loop, HostAction("next"), loop.clock.now_ns())
    screen.render(loop, loop.clock.now_ns())
    assert screen.home is not None and screen.home.chosen == 1
    focused = screen.renderer.focused
    assert focused is not None and focused.action == HostAction("home.pick", 1)
    seen = []
    for _ in range(len(games.names()) + 2):
        screen.host_action(loop, HostAction("next"), loop.clock.now_ns())
        screen.render(loop, loop.clock.now_ns())
        focused = screen.renderer.focused
        assert focused is not None and screen.home is not None
        seen.append(focused.action.name)
        if focused.action.name == "home.pick":  # the tile lit is the tile focused
            assert screen.home.chosen == focused.action.arg
    assert "menu" in seen  # → walks past the games to the screen's other choices
    screen.show_home(games.home_choices())
    screen.render(loop, loop.clock.now_ns())
    screen.host_action(loop, HostAction("next"), loop.clock.now_ns())
    screen.host_action(loop, HostAction("confirm"), loop.clock.now_ns())
    assert chosen == [games.names()[1]]  # the game highlighted, not the first


def test_seat_buttons_do_nothing_on_the_home_screen(loop: Loop) -> None:
    screen = _screen(loop)
    screen.show_home(games.home_choices())
    screen.seat_pressed(loop, 3, loop.clock.now_ns())
    assert screen.home is not None and screen.setup is None


def test_an_unknown_game_is_refused_by_name() -> None:
    with pytest.raises(games.UnknownGame, match="unknown game 'chess'"):
        games.load("chess")
    with pytest.raises(games.UnknownGame):
        games.engine_for("chess")


def test_confirm_on_the_setup_screen_starts_the_game_not_the_way_home(loop: Loop) -> None:
    screen = _screen(loop)
    screen.show_home(games.home_choices())
    screen.gpio_button(loop, HostButton.CONFIRM, loop.clock.now_ns())  # the game highlighted
    screen.render(loop, loop.clock.now_ns())
    assert screen.renderer.screen == "setup"
    names = [c.name for c in screen._choices()]
    assert names[0] == "confirm"  # the focus starts on "start the game"
    assert "home" not in names  # "other game" is *back*
    assert {"setup.add", "setup.colour", "setup.variant", "setup.start", "menu"} <= set(names)
    screen.gpio_button(loop, HostButton.CONFIRM, loop.clock.now_ns())
    assert loop.referee.engine.started(loop.referee.state)


def test_a_problem_told_again_is_shown_once(loop: Loop) -> None:
    """The kiosk tells a game's camera problem each time the host picks that game: the
    screen keeps one line for it, not one per pick."""
    screen = _screen(loop)
    for _ in range(3):
        screen.show_problem("markers.json: not found; the camera reads the cards alone")
    screen.show_problem("deck /x: missing; the demo deck is used")
    assert screen.problems == ["markers.json: not found; the camera reads the cards alone",
                               "deck /x: missing; the demo deck is used"]


def test_the_language_is_reached_from_home_with_the_three_buttons(loop: Loop) -> None:
    """Issue 41, round three: on the home screen *next* walked the games and 「設定」 and never
    reached 中文 / English (the host menu held it, behind a hold of *back*). It is walked now,
    after the games and the set-up; *confirm* switches, and the focus stays on it. The set-up
    button says what it opens."""
    from display.i18n import tr
    from display.input import focus_order
    from tablekeeper.tablesetup.area import SetupArea

    screen = _screen(loop)
    screen.lang = "zh-TW"

    def no_area(game: str | None, step: str | None) -> SetupArea:
        raise AssertionError("the set-up area is not opened here")

    screen.area_factory = no_area  # (as the kiosk: the home screen offers the set-up)
    screen.show_home(games.home_choices())
    screen.render(loop, loop.clock.now_ns())
    for lang in ("zh-TW", "en"):  # the set-up button is named for the area it opens
        assert tr("btn.setup_area", lang) == tr("tablesetup.title", lang)
    # the walk, as the README says: the games, then 「設定這台機器」, then the language (the
    # language was walked before the set-up: the footer drew it first), the menu last
    walk = [b.action.name for b in focus_order(screen.renderer.buttons)]
    n = len(games.names())
    assert walk == ["home.pick"] * n + ["area.open", "lang", "menu"], walk
    for _ in range(len(games.names()) + 3):
        focused = screen.renderer.focused
        if focused is not None and focused.action.name == "lang":
            break
        screen.gpio_button(loop, HostButton.NEXT, loop.clock.now_ns())
        screen.render(loop, loop.clock.now_ns())
    focused = screen.renderer.focused
    assert focused is not None and focused.action.name == "lang"
    screen.gpio_button(loop, HostButton.CONFIRM, loop.clock.now_ns())
    screen.render(loop, loop.clock.now_ns())
    assert screen.lang == "en" and screen.home is not None
    focused = screen.renderer.focused
    assert focused is not None and focused.action.name == "lang"  # (back in one press)
