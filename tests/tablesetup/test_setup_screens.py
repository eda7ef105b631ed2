"""The set-up screens through the real screen and loop, with the three host buttons only.

A box whose The Game has no deck: its tile on the home screen is marked; choosing it (the
host's *confirm*) leads to "Teach the box the cards"; the simulated table lays what the step
wants under the simulated camera; a short *back* leaves the step (the shots kept) and the
hub's *confirm* goes on where it stopped; the check round is confirmed; the hub says the game
is ready, *confirm* goes home, and the tile is no longer marked. SDL's dummy driver, gpiozero
mock pins, a fake clock; three cards of the game (the step's card list, patched) keep it short.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display.input import focus_order
from firmware.box import build
from firmware.config import FirmwareConfig
from firmware.devices import HostButton
from firmware.mock import mock_factory
from tablekeeper import games
from tablekeeper.app import Loop
from tablekeeper.clock import FakeClock
from tablekeeper.config import load_config
from tablekeeper.journal import JournaledGame
from tablekeeper.referee import Referee
from tablekeeper.screen import PygameScreen
from tablekeeper.tablesetup import cards as cards_step
from tablekeeper.tablesetup.area import SetupArea
from tablekeeper.tablesetup.readiness import home_choices
from tablekeeper.tablesetup.simhost import SimHands
from tablekeeper.tablesetup.step import StepContext
from vision.deck import Deck, load_deck
from vision.simtable import Conditions, SimulatedTable

MS = 1_000_000
CFG = FirmwareConfig.from_dict({"backend": "gpio", "sound": {"kind": "none"}})
IDS = ("n02", "n03", "n04")


class Box:
    def __init__(self, tmp: Path, cards: Deck) -> None:
        self.clock = FakeClock()
        self.factory = mock_factory()
        self.firmware = build(CFG, self.factory, rng=random.Random(5), clock=self.clock.now_ns)
        self.config_path = tmp / "config.toml"
        self.config_path.write_text("# the host's\n[table]\n", encoding="utf-8")
        self.tmp = tmp
        kit = games.load("the-game")
        self.screen = PygameScreen(size=(800, 480), rng=random.Random(1))
        referee = Referee(JournaledGame.create(tmp / "g.jsonl", game=kit.engine.name),
                          self.firmware, self.clock.now_ns(), kit=kit,
                          **kit.table_options(cards))
        self.loop = Loop(referee, self.clock, screen=self.screen)
        self.screen.area_factory = lambda game, step: SetupArea(
            [games.load(game or "the-game")], self.context, game=game, step=step)
        self.table = SimulatedTable(cards, seed=4, conditions=Conditions.clean("wood"))
        self.screen.area_frames = lambda: self.table.capture().image
        self.screen.home_games = lambda: home_choices(games.kits(), self.context)
        self.hands = SimHands(self.table, random.Random(3))
        self.presses = 0

    def context(self, kit: games.Kit) -> StepContext:
        return StepContext(kit.name, kit, load_config(self.config_path), self.config_path,
                           self.tmp / "decks" / kit.name, state_dir=self.tmp / "state")

    def step(self, ms: int = 40) -> None:
        area = self.screen.area
        if area is not None:
            self.hands.do(area.wants())
        self.clock.advance(ms * MS)
        self.loop.step()

    def press(self, button: HostButton) -> None:
        pin = self.factory.pin(getattr(CFG.pins, button.value))
        pin.press(self.clock.now_ns())
        self.step(60)
        pin.release(self.clock.now_ns())
        self.step()
        self.step()
        self.presses += 1

    def focus(self) -> tuple[str, Any]:
        button = self.screen.renderer.focused
        assert button is not None, f"no focus on {self.screen.renderer.screen}"
        return button.action.name, button.action.arg

    def next_until(self, wanted: tuple[str, Any]) -> None:
        for _ in range(len(focus_order(self.screen.renderer.buttons)) + 1):
            if self.focus() == wanted:
                return
            self.press(HostButton.NEXT)
        raise AssertionError(f"{wanted} is not among the focus's buttons")

    def until(self, done: Callable[[], bool], ticks: int = 600) -> None:
        for _ in range(ticks):
            if done():
                return
            self.step()
        raise AssertionError("the set-up did not get there")


def test_set_up_a_game_with_the_host_buttons_only(tmp_path: Path,
                                                  demo_decks: Callable[[str], Deck],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    full = demo_decks("the-game")
    cards = Deck(full.root, full.id, full.game, full.title_zh, full.title_en, full.demo,
                 full.shape, full.size, full.use_colour, tuple(full.card(c) for c in IDS),
                 {c: full.template(c) for c in IDS})
    monkeypatch.setattr(cards_step, "game_cards", lambda ctx: cards)
    box = Box(tmp_path, cards)
    screen = box.screen
    home = box.screen.home_games
    assert home is not None
    marked = {g.name: g.missing for g in home()}
    assert marked["the-game"] == ("cards", "zones")  # a real camera, no deck: marked
    screen.show_home(home(), chosen="the-game")
    box.step()
    assert box.focus() == ("home.pick", list(marked).index("the-game"))
    box.press(HostButton.CONFIRM)  # the game is not ready: to the step it lacks
    assert screen.renderer.screen == "tablesetup"
    area = screen.area
    assert area is not None and area.step is not None and area.step.key == "cards"
    assert box.focus() == ("step.stop", None)  # the default never discards a shot
    box.until(lambda: len(area.step.enroller.taught) >= 1)  # type: ignore[union-attr]
    box.press(HostButton.BACK)  # a short back: leave the step, nothing lost
    assert area.step is None and screen.renderer.screen == "tablesetup"
    assert box.focus() == ("confirm", None)
    box.press(HostButton.CONFIRM)  # the hub: go on with what is missing
    step = area.step
    assert step is not None and len(step.enroller.taught) >= 1
    box.until(lambda: getattr(area.step, "stage", None) == "check")
    box.until(lambda: area.step is not None and area.step.wants().kind == "confirm")
    box.next_until(("confirm", None))
    box.press(HostButton.CONFIRM)  # the check round is fine
    # then the zones (the four rows): the hub goes on with what is missing
    assert area.step is None and area.view().game.first_missing() == "zones"
    assert box.focus() == ("confirm", None)
    box.press(HostButton.CONFIRM)
    assert area.step is not None and area.step.key == "zones"
    for _ in range(2):  # take the zones found, then save them
        box.until(lambda: area.step is not None and area.step.wants().kind == "confirm")
        box.next_until(("confirm", None))
        box.press(HostButton.CONFIRM)
    assert area.step is None and area.view().game.first_missing() is None
    assert box.focus() == ("confirm", None)  # "back to the games"
    box.press(HostButton.CONFIRM)
    assert screen.area is None and screen.home is not None
    assert screen.renderer.screen == "home"
    assert {g.name: g.missing for g in screen.home.games}["the-game"] == ()
    deck = load_deck(tmp_path / "decks" / "the-game")
    assert deck.ids == IDS and all(len(deck.templates_of(c)) == 3 for c in IDS)
    assert load_config(box.config_path).table.deck_for("the-game") == str(
        tmp_path / "decks" / "the-game")
    assert "row4" in box.config_path.read_text(encoding="utf-8")
    assert box.presses <= 11


def test_the_host_menu_opens_the_set_up_area(tmp_path: Path,
                                             demo_decks: Callable[[str], Deck]) -> None:
    from tablekeeper import hostmenu
    from tablekeeper.screen import LONG_PRESS_NS

    box = Box(tmp_path, demo_decks("the-game"))
    screen = box.screen
    hostmenu.add_entry(screen.menu_entries, hostmenu.SETUP_ENTRY, before="end")
    assert box.screen.home_games is not None
    screen.show_home(box.screen.home_games(), chosen="the-game")
    box.step()
    pin = box.factory.pin(CFG.pins.back)  # a long press of back: the host menu
    pin.press(box.clock.now_ns())
    box.step()
    box.step(LONG_PRESS_NS // MS + 100)
    pin.release(box.clock.now_ns())
    box.step()
    assert screen.menu_open
    box.next_until(("menu.pick", "setup"))
    box.press(HostButton.CONFIRM)
    assert not screen.menu_open and screen.area is not None
    assert screen.renderer.screen == "tablesetup" and screen.area.step is None
    box.press(HostButton.BACK)  # back: out of the area, home again
    assert screen.area is None and screen.renderer.screen == "home"


def test_the_host_menu_in_the_set_up_area_names_the_game_set_up(
        tmp_path: Path, demo_decks: Callable[[str], Deck]) -> None:
    """Opened in Eselsbrücke's set-up (the referee still keeps The Game), the host menu
    names Eselsbrücke and shows its rules (it named the referee's game and its rules)."""
    box = Box(tmp_path, demo_decks("the-game"))
    screen = box.screen
    assert box.loop.referee.kit.name == "the-game"
    assert screen.show_area("eselsbruecke")
    assert screen.area is not None and screen.area.kit.name == "eselsbruecke"
    screen.open_menu()
    view = screen.menu_view(box.loop)
    assert view.title("zh-TW") == games.load("eselsbruecke").title_in("zh-TW")
    assert view.title("en") == games.load("eselsbruecke").title_in("en")
    screen.menu_page = "rules"
    rules = screen.menu_view(box.loop).rules
    kit_rules = games.load("eselsbruecke").display().rules
    assert rules == (tuple(kit_rules["zh-TW"]), tuple(kit_rules["en"]))


@pytest.mark.parametrize("lang", ["zh-TW", "en"])
def test_a_steps_main_button_looks_disabled_until_it_can_act(lang: str) -> None:
    """「用這些區域」 with no card in view: drawn as a disabled button, with the line above
    saying why (no card in view yet); with the cards found, in the accent colour. It still
    takes a press (the focus stays on it; a press says again what is missing)."""
    import pygame

    from display import colours as C
    from display.i18n import tr
    from display.input import HostAction
    from display.renderer import Renderer
    from display.tablesetup.step_samples import area_samples

    samples = dict(area_samples(lang))
    looks = {}
    for name in ("setup-zones-look-empty", "setup-zones-look-ready"):
        renderer = Renderer(pygame.Surface((800, 480)), strict=True)
        renderer.render(samples[name])
        button = next(b for b in renderer.buttons if b.action == HostAction("confirm"))
        assert button.enabled and button in focus_order(renderer.buttons)
        x, y, w, h = button.rect
        looks[name] = tuple(renderer.surface.get_at((x + w // 12, y + h // 2)))[:3]
        texts = [t.text for t in renderer.texts]
        if name.endswith("empty"):
            assert tr("setup.zones.empty", lang) in texts
    assert looks["setup-zones-look-empty"] == C.PANEL
    assert looks["setup-zones-look-ready"] == C.ACCENT


@pytest.mark.parametrize("lang", ["zh-TW", "en"])
def test_the_focus_starts_on_what_can_act_and_a_waiting_button_says_why(
        tmp_path: Path, demo_decks: Callable[[str], Deck], lang: str) -> None:
    """The zones step opened on an empty table: 「用這些區域」 cannot act yet, so the focus
    is not on it (it sat there, and *confirm* said nothing); walked to and confirmed, it
    says why on the banner. Once the cards are in view it can act, and the focus goes to it."""
    from display.i18n import tr

    box = Box(tmp_path, demo_decks("the-game"))
    box.screen.lang = lang
    laying = box.hands.do
    box.hands.do = lambda want: False  # type: ignore[method-assign]  # (nobody at the table)
    assert box.screen.show_area("the-game", "zones")
    area = box.screen.area
    assert area is not None and area.step is not None and area.step.key == "zones"
    for _ in range(3):
        box.step()
    take = next(b for b in box.screen.renderer.buttons if b.action.name == "confirm")
    assert take.waiting and take.why in [t.text for t in box.screen.renderer.texts]  # (why)
    assert box.focus() == ("back", None)  # what can act
    box.next_until(("confirm", None))
    box.press(HostButton.CONFIRM)
    said = tr("status.not_yet", lang, what=tr("setup.zones.btn.take", lang),
              why=take.why)
    assert said in [t.text for t in box.screen.renderer.texts]
    assert area.step is not None and area.step.key == "zones"  # (still here)
    box.hands.do = laying  # type: ignore[method-assign]  # the cards are laid
    box.until(lambda: not any(b.waiting for b in box.screen.renderer.buttons))
    box.step()
    assert box.focus() == ("confirm", None)
