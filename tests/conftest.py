"""Fixtures every part of the suite shares.

- ``clock``: a :class:`tablekeeper.clock.FakeClock` (timers and the arbiter's settle window are
  tested in microseconds, never with sleeps);
- ``factory``: gpiozero's own ``MockFactory`` (``firmware.mock.mock_factory``), pins stamped on
  the fake clock's time line by the tests that press them;
- ``firmware``: the buttons, lamps and arbiter on those mock pins, on the fake clock, no sound;
- ``referee``: a :class:`tablekeeper.referee.Referee` keeping a new game of the default kit,
  journalled to ``tmp_path / "game.jsonl"``;
- ``started_referee``: the same after a 3-player 什麼不見啦 setup, the viewing passes run out on
  the referee's own timer: waiting for the first card;
- ``demo_decks``: ``demo_decks("wink")`` -> a demo deck, generated once per test session (one
  conftest for the whole suite: mypy checks the tests too, and two files named ``conftest``
  would be one module to it).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware.box import Firmware, build
from firmware.config import FirmwareConfig
from firmware.mock import mock_factory
from tablekeeper.clock import FakeClock
from tablekeeper.journal import JournaledGame
from tablekeeper.referee import Referee
from vision.deck import Deck, load_deck
from vision.demo_decks import demo_deck


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def factory() -> Any:
    return mock_factory()


@pytest.fixture
def firmware(factory: Any, clock: FakeClock) -> Iterator[Firmware]:
    config = FirmwareConfig.from_dict({"backend": "gpio", "sound": {"kind": "none"}})
    fw = build(config, factory, rng=random.Random(5), clock=clock.now_ns)
    yield fw
    fw.close()


@pytest.fixture
def referee(tmp_path: Path, firmware: Firmware, clock: FakeClock) -> Referee:
    return Referee(JournaledGame.create(tmp_path / "game.jsonl"), firmware, clock.now_ns(),
                   game_id="test")


@pytest.fixture
def started_referee(referee: Referee, clock: FakeClock) -> Referee:
    from engine.something_missing import Phase, State
    from tablekeeper.games.something_missing.host import new_game

    event = new_game(["A", "B", "C"], ["red", "yellow", "blue"], "easy", 0,
                     referee.at_ms(clock.now_ns()), random.Random(1))
    assert isinstance(referee.submit(event), State)
    while referee.state.phase is Phase.VIEWING:
        clock.advance_ms(1_000)
        referee.tick(clock.now_ns())
    assert referee.state.phase is Phase.REVEAL
    return referee


# --- vision ------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def demo_deck_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache folder of demo decks shared by the session (decks are made on first use)."""
    return tmp_path_factory.mktemp("demo-decks")


@pytest.fixture(scope="session")
def demo_decks(demo_deck_cache: Path) -> Callable[[str], Deck]:
    """``demo_decks("wink")`` -> the loaded demo deck, generated once per session."""
    loaded: dict[str, Deck] = {}

    def get(name: str) -> Deck:
        if name not in loaded:
            loaded[name] = load_deck(demo_deck(name, demo_deck_cache))
        return loaded[name]

    return get
