"""The café tests' fixtures: a real Mosquitto per test on loopback (TLS, users, ACL and the
café's documented message policy), and the board subscribed to it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from cafehelp import Board

from tablekeeper.cafe.broker import LocalBroker


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[LocalBroker]:
    b = LocalBroker(tmp_path / "broker", ["t1", "t2"])
    b.start()
    try:
        yield b
    finally:
        b.stop()


@pytest.fixture
def board(broker: LocalBroker, tmp_path: Path) -> Iterator[Board]:
    b = Board(broker, tmp_path)
    b.start()
    try:
        yield b
    finally:
        b.stop()
        b.store.close()
