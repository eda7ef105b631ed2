from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware.box import Firmware, build
from firmware.config import FirmwareConfig
from firmware.mock import mock_factory
from tablekeeper.clock import FakeClock
from tablekeeper.journal import JournaledGame
from tablekeeper.referee import Referee
from tablekeeper.simdriver import card_id


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
    game = JournaledGame.create(tmp_path / "game.jsonl")
    return Referee(game, firmware, clock.now_ns(),
                   card_ids={card_id(i): i for i in range(66)}, game_id="test")
