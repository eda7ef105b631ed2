"""The player-setup form."""

from __future__ import annotations

import pygame
import pytest
from display_testing import book

from display import zhuyin
from display.fonts import FontBook
from display.input import HostAction, TextInput
from display.model import PlayerInfo, Snapshot
from display.renderer import Renderer
from display.setup import MAX_NAME, SetupForm


@pytest.fixture
def fonts() -> FontBook:
    return book()


def test_add_and_remove_players_within_3_to_7() -> None:
    form = SetupForm()
    assert len(form.players) == 4 and form.ready
    for _ in range(5):
        form = form.apply(HostAction("setup.add"))
    assert len(form.players) == 7
    assert len({p.colour for p in form.players}) == 7
    for _ in range(6):
        form = form.apply(HostAction("setup.remove", 0))
    assert len(form.players) == 3
    assert form.apply(HostAction("setup.remove", 99)) == form


def test_colour_cycles_to_a_free_colour() -> None:
    form = SetupForm().apply(HostAction("setup.colour", 0))
    assert form.players[0].colour == "orange"  # red -> next not taken (yellow/blue/green are)
    assert len({p.colour for p in form.players}) == 4


def test_typing_names() -> None:
    form = SetupForm().apply(HostAction("setup.focus", 1))
    assert form.focus == 1
    form = form.apply(TextInput("阿美")).apply(TextInput("x")).apply(HostAction("erase"))
    assert form.players[1].name == "阿美"
    form = form.apply(TextInput("y" * 40))
    assert len(form.players[1].name) == MAX_NAME
    assert form.apply(HostAction("setup.focus", None)).focus is None
    assert SetupForm().apply(TextInput("nobody focused")) == SetupForm()
    # a seat nobody named is called by its colour (names and colours are both unique)
    assert form.players_for("en")[0].name == "Red"
    assert form.players_for("zh-TW")[0].name == "紅色"


def test_a_roster_name_is_picked_with_one_touch() -> None:
    form = SetupForm(roster=("志強", "美玲")).apply(HostAction("setup.focus", 2))
    form = form.apply(HostAction("setup.roster", 1))
    assert form.players[2].name == "美玲" and form.focus is None
    assert form.apply(HostAction("setup.roster", 0)) == form  # no name field has the focus
    assert form.apply(HostAction("setup.focus", 0)).apply(
        HostAction("setup.roster", 9)).players[0].name == ""  # no such roster name


def test_the_on_screen_keyboard_types_latin_letters() -> None:
    form = SetupForm().apply(HostAction("setup.focus", 0))
    for key in ("A", "N", "N", " ", "B"):
        form = form.apply(HostAction("setup.key", key))
    form = form.apply(HostAction("erase")).apply(HostAction("setup.done"))
    assert form.players[0].name == "ANN " and form.focus is None


def test_problems_block_the_start() -> None:
    two = SetupForm(players=(PlayerInfo("a", "red"), PlayerInfo("b", "red")))
    assert two.problems == ("setup.need_players", "setup.colour_taken")
    assert not two.ready


def test_variant_and_unknown_actions() -> None:
    form = SetupForm().apply(HostAction("setup.variant", "advanced"))
    assert form.variant == "advanced" and form.scenes == 6
    assert form.apply(HostAction("setup.variant", "silly")) == form
    assert form.apply(HostAction("jump")) == form


def test_the_setup_screen_is_operable_by_touch(fonts: FontBook) -> None:
    renderer = Renderer(pygame.Surface((800, 480)), fonts=fonts, strict=True)
    form = SetupForm()

    def tap(name: str, arg: int | str | None = None) -> None:
        nonlocal form
        renderer.render(Snapshot(state=None, setup=form))
        (button,) = [b for b in renderer.buttons if b.action == HostAction(name, arg)]
        x, y, w, h = button.rect
        action = renderer.hit_test((x + w / 2, y + h / 2))
        assert action is not None
        form = form.apply(action)

    tap("setup.add")
    tap("setup.colour", 4)
    tap("setup.focus", 2)
    assert renderer.render(Snapshot(state=None, setup=form)) and renderer.text_focus
    if zhuyin.available():
        tap("setup.keyboard")  # 注音 first; ABC switches to Latin letters
    for key in ("J", "O"):
        tap("setup.key", key)
    tap("erase")
    tap("setup.key", "O")
    tap("setup.done")
    assert form.players[2].name == "JO" and form.focus is None
    tap("setup.variant", "easy")
    assert len(form.players) == 5 and form.variant == "easy"
    renderer.render(Snapshot(state=None, setup=form))
    (start,) = [b for b in renderer.buttons if b.action.name == "confirm"]
    assert start.enabled


def test_start_player_follows_removals() -> None:
    from display.input import HostAction as Act
    from display.setup import SetupForm as Form

    form = Form().apply(Act("setup.start", 2))
    assert form.start == 2
    assert form.apply(Act("setup.remove", 0)).start == 1  # the same person, one seat up
    assert form.apply(Act("setup.remove", 2)).start == 0  # they left: back to seat 1
    assert form.apply(Act("setup.remove", 3)).start == 2
    assert form.apply(Act("setup.start", 9)).start == 2  # no such seat: unchanged


def test_a_seat_button_marks_who_starts_and_says_so(fonts: FontBook) -> None:
    form = SetupForm(players=tuple(PlayerInfo(n, c) for n, c in (
        ("小明", "red"), ("阿美", "yellow"), ("Alice", "blue"))))
    pressed = form.apply(HostAction("setup.seat_button", 2))
    assert pressed.start == 2 and pressed.pressed == 2
    renderer = Renderer(pygame.Surface((800, 480)), fonts=fonts, strict=True)
    renderer.render(Snapshot(state=None, setup=pressed))
    assert "3 號按了按鈕：Alice 先" in [t.text for t in renderer.texts]
    # a seat with nobody: said, and who starts stays
    empty = form.apply(HostAction("setup.seat_button", 5))
    assert empty.start == 0 and empty.pressed == 5
    renderer.render(Snapshot(state=None, setup=empty, lang="en"))
    assert "Nobody at seat 6" in [t.text for t in renderer.texts]
    # the next action clears the note, and still happens
    after = pressed.apply(HostAction("setup.variant", "easy"))
    assert after.pressed is None and after.variant == "easy" and after.start == 2
