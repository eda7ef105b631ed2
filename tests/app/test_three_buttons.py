"""A whole evening with the three host buttons only: home -> each game -> setup -> a started
game -> the host menu -> end (confirmed) -> home.

Through the real screen (SDL's dummy driver), the real loop and referee, each game's real kit,
and the host buttons on gpiozero's ``MockFactory`` pins: the test presses and releases pins,
as a host's fingers would, and reads the screen only to see where the focus is.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display.input import focus_order
from firmware.box import Firmware, build
from firmware.config import FirmwareConfig
from firmware.devices import HostButton
from firmware.mock import mock_factory
from tablekeeper import games
from tablekeeper.app import Loop
from tablekeeper.clock import FakeClock
from tablekeeper.journal import JournaledGame, read
from tablekeeper.referee import Referee
from tablekeeper.screen import LONG_PRESS_NS, PygameScreen

MS = 1_000_000
CFG = FirmwareConfig.from_dict({"backend": "gpio", "sound": {"kind": "none"}})


@cache
def _options(name: str) -> dict[str, Any]:
    kit = games.load(name)
    return kit.table_options(kit.deck(None))


class Table:
    """The box as the kiosk wires it (a game per journal, home after a game), on mock pins."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.clock = FakeClock()
        self.factory = mock_factory()
        self.firmware: Firmware = build(CFG, self.factory, rng=random.Random(5),
                                        clock=self.clock.now_ns)
        self.journals: list[Path] = []
        first = games.load(games.names()[0])
        self.screen = PygameScreen(size=(800, 480), rng=random.Random(1))
        self.loop = Loop(self.referee_for(first), self.clock, screen=self.screen)
        self.screen.on_choose_game = self.choose
        self.screen.on_new_game = self.new_game
        self.screen.games = games.home_choices()
        self.screen.show_home(games.home_choices(), chosen=first.name)
        self.presses = 0

    def referee_for(self, kit: games.Kit) -> Referee:
        path = self.folder / f"game-{len(self.journals)}.jsonl"
        self.journals.append(path)
        return Referee(JournaledGame.create(path, game=kit.engine.name), self.firmware,
                       self.clock.now_ns(), kit=kit, **_options(kit.name))

    def choose(self, name: str) -> None:
        self.loop.referee = self.referee_for(games.load(name))

    def new_game(self) -> None:
        kit = self.loop.referee.kit
        self.loop.referee = self.referee_for(kit)
        self.screen.show_home(games.home_choices(), chosen=kit.name)

    # --- the host's fingers ---------------------------------------------------------------

    def step(self, ms: int = 40) -> None:
        self.clock.advance(ms * MS)
        self.loop.step()

    def press(self, button: HostButton, hold_ms: int = 60) -> None:
        pin = self.factory.pin(getattr(CFG.pins, button.value))
        pin.press(self.clock.now_ns())
        self.step(hold_ms)
        pin.release(self.clock.now_ns())
        self.step()
        self.step()
        self.presses += 1

    def long_back(self) -> None:
        pin = self.factory.pin(CFG.pins.back)
        pin.press(self.clock.now_ns())
        self.step()
        self.step(LONG_PRESS_NS // MS + 100)
        pin.release(self.clock.now_ns())
        self.step()
        self.presses += 1

    @property
    def focused(self) -> tuple[str, Any]:
        button = self.screen.renderer.focused
        assert button is not None, f"no focus on {self.screen.renderer.screen}"
        return button.action.name, button.action.arg

    def next_until(self, wanted: tuple[str, Any]) -> int:
        """*next* until ``wanted`` has the focus; the presses it took (bounded by the
        screen's choices)."""
        choices = len(focus_order(self.screen.renderer.buttons))
        for n in range(choices + 1):
            if self.focused == wanted:
                return n
            self.press(HostButton.NEXT)
        raise AssertionError(f"{wanted} never had the focus on {self.screen.renderer.screen}:"
                             f" {[b.action for b in focus_order(self.screen.renderer.buttons)]}")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    t.step()
    yield t
    t.screen.close()
    t.firmware.close()


def test_each_game_from_home_to_its_end_and_home_again_with_three_buttons(table: Table) -> None:
    names = games.names()
    for index, name in enumerate(names):
        assert table.screen.renderer.screen == "home"
        table.next_until(("home.pick", index))
        table.press(HostButton.CONFIRM)
        assert table.loop.referee.kit.name == name
        assert table.screen.renderer.screen == "setup"
        assert table.focused == ("confirm", None)  # "start the game" is the default
        table.press(HostButton.CONFIRM)
        referee = table.loop.referee
        assert referee.engine.started(referee.state), name
        table.long_back()
        assert table.screen.renderer.screen == "menu"
        assert table.focused == ("confirm", None)  # "back to the game" is the default
        table.next_until(("menu.pick", "end"))
        table.press(HostButton.CONFIRM)  # the question: "no" is the default
        assert table.focused == ("confirm", None) and not referee.over
        table.next_until(("menu.pick", "yes"))
        table.press(HostButton.CONFIRM)
        assert referee.over, name
        assert table.screen.renderer.screen != "menu"  # the end screen: the result so far
        records = read(table.journals[-1]).active()
        assert records[-1].event.type_name == "end_game"
        table.press(HostButton.CONFIRM)  # "new game" -> home
        assert table.screen.renderer.screen == "home", name
    assert table.presses < 40 * len(names)


def test_a_short_back_closes_the_menu_and_undo_stays_back(table: Table) -> None:
    table.press(HostButton.CONFIRM)  # the first game
    table.press(HostButton.CONFIRM)  # started
    table.long_back()
    assert table.screen.menu_open
    table.press(HostButton.BACK)
    assert not table.screen.menu_open
    referee = table.loop.referee
    assert referee.engine.started(referee.state)
    table.press(HostButton.BACK)  # undo: back to the setup screen
    assert not referee.engine.started(referee.state)
    assert table.screen.renderer.screen == "setup"
    table.press(HostButton.BACK)  # nothing to undo: home, to choose another game
    assert table.screen.renderer.screen == "home"


def test_after_a_restart_undoing_to_setup_still_leads_home(table: Table) -> None:
    """A resumed game has never shown the home screen: home is still one *back* away."""
    table.press(HostButton.CONFIRM)
    table.press(HostButton.CONFIRM)
    path = table.journals[-1]
    table.screen.close()  # the kiosk restarted: a new screen, the game resumed
    screen = PygameScreen(size=(800, 480), rng=random.Random(2))
    screen.games = games.home_choices()
    kit = table.loop.referee.kit
    table.loop.referee = Referee(JournaledGame.open(path), table.firmware,
                                 table.clock.now_ns(), kit=kit, **_options(kit.name))
    table.screen = screen
    table.loop.screen = screen
    table.step()
    table.press(HostButton.BACK)  # undo the start
    assert table.screen.renderer.screen == "setup"
    table.press(HostButton.BACK)
    assert table.screen.renderer.screen == "home"


def test_the_menu_leaves_a_game_for_home_after_a_question(table: Table) -> None:
    table.press(HostButton.CONFIRM)
    table.press(HostButton.CONFIRM)
    referee = table.loop.referee
    table.long_back()
    table.next_until(("menu.pick", "home"))
    table.press(HostButton.CONFIRM)
    assert table.screen.menu_page == "confirm" and not referee.over
    table.next_until(("menu.pick", "yes"))
    table.press(HostButton.CONFIRM)
    assert referee.over  # ended and kept (journalled), then home
    assert read(table.journals[-2]).active()[-1].event.type_name == "end_game"
    assert table.screen.renderer.screen == "home"
    # over the home screen the menu's first entry closes it (there is no game to go back to)
    table.long_back()
    labels = [i.label for i in table.screen.menu_view(table.loop).items]
    assert labels[0] == "menu.close" and "menu.resume" not in labels


def test_volume_mute_and_language_from_the_menu(table: Table) -> None:
    table.long_back()
    assert table.screen.renderer.screen == "menu"
    volume = table.screen.volume
    table.next_until(("menu.pick", "volume_up"))
    table.press(HostButton.CONFIRM)
    assert table.screen.volume == volume + 1
    table.next_until(("menu.pick", "mute"))
    table.press(HostButton.CONFIRM)
    assert table.screen.muted and table.firmware.sound.gain == 0
    snap = table.screen.snapshot(table.loop, table.clock.now_ns())
    assert snap.sound == "muted"
    table.next_until(("menu.pick", "lang"))
    table.press(HostButton.CONFIRM)
    assert table.screen.lang == "en"
    table.next_until(("menu.pick", "rules"))
    table.press(HostButton.CONFIRM)
    texts = " ".join(t.text for t in table.screen.renderer.texts)
    assert "hourglass" in texts and "沙漏" in texts  # both languages on one screen
