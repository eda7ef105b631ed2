"""Messages for players: a problem shows its players' message (both languages, no path), only
while the game it belongs to is the table's; the builder's account is in the self-test."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display.input import HostAction
from tablekeeper import games
from tablekeeper.app import Loop
from tablekeeper.clock import FakeClock
from tablekeeper.referee import Referee
from tablekeeper.screen import PygameScreen
from tablekeeper.selftest import Verdict, check_config

MARKERS = ("Wink: markers not read: /srv/x/markers.json: not found (calibrate: tablekeeper "
           "vision calibrate-markers)")


@pytest.fixture
def loop(tmp_path: Path, referee: Referee, clock: FakeClock) -> Iterator[Loop]:
    screen = PygameScreen(size=(800, 480), rng=random.Random(1))
    yield Loop(referee, clock, screen=screen)
    screen.close()


def _banner(loop: Loop) -> str:
    screen = loop.screen
    assert isinstance(screen, PygameScreen)
    screen.render(loop, loop.clock.now_ns())
    return " ".join(t.text for t in screen.renderer.banner_texts)


def test_a_games_problem_is_its_own_and_says_no_path(loop: Loop) -> None:
    screen = loop.screen
    assert isinstance(screen, PygameScreen)
    screen.show_problem(MARKERS, key="wink.problem.markers", game="wink")
    screen.show_problem("config: /etc/tablekeeper.toml:3: [table] language: ...",
                        key="problem.config")
    screen.show_home(games.home_choices())
    home = _banner(loop)
    assert "設定無效" in home and "指示物" not in home  # the box's problem, not Wink's
    screen.host_action(loop, HostAction("confirm"), loop.clock.now_ns())  # 什麼不見啦's setup
    assert "指示物" not in _banner(loop)
    loop.referee = Referee(loop.referee.game, loop.referee.firmware, loop.clock.now_ns(),
                           kit=games.load("wink"), **games.load("wink").table_options(
                               games.load("wink").deck(None)))
    banner = _banner(loop)
    assert "指示物未校正" in banner
    assert "/" not in banner and "calibrate" not in banner and ".json" not in banner
    screen.lang = "en"
    assert "Markers not calibrated" in _banner(loop)


def test_the_self_test_tells_the_builder_what_the_screen_sums_up(tmp_path: Path) -> None:
    config = tmp_path / "tablekeeper.toml"
    config.write_text(f'[table]\nlanguage = "english"\nstate_dir = "{tmp_path}"\n')
    results = check_config(config)
    failed = [r.detail for r in results if r.outcome is Verdict.FAIL]
    assert any("language" in d and str(config) in d for d in failed), failed
    # Wink not set up at this table yet: the builder is told how, as a warning (not a fault)
    warned = [r.detail for r in results if r.outcome is Verdict.WARN]
    assert any("calibrate --layout grid:6x6" in d for d in warned), warned


def test_an_early_press_is_shown_while_the_race_is_on(loop: Loop) -> None:
    """Pressed before the card appeared: locked out (the lamp blinks); the screen says so."""
    from firmware.devices import SeatEdge

    screen = loop.screen
    assert isinstance(screen, PygameScreen)
    now = loop.clock.now_ns()
    firmware = loop.referee.firmware
    firmware.hub(SeatEdge(2, True, now - 50_000_000))  # seat 2, 50 ms before the card
    firmware.hub(SeatEdge(2, False, now - 20_000_000))
    firmware.arbiter.arm(now)
    snap = screen.snapshot(loop, now + 1_000_000)
    assert snap.early == ((1, 0),)
    assert any(n.key == "status.early_press" and n.seat == 1 for n in snap.notices)
    from firmware.lamps import LampMode

    firmware.update(now + 1_000_000)
    assert firmware.lamp_modes[1] is not LampMode.ON  # its lamp tells it too
