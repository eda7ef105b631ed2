"""Helpers of the café's broker tests: a real Mosquitto per test (fixtures in conftest.py), the
board in-process, publishers, raw MQTT clients."""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tablekeeper.cafe import messages
from tablekeeper.cafe.board import Subscriber
from tablekeeper.cafe.broker import LocalBroker
from tablekeeper.cafe.publisher import Publisher
from tablekeeper.cafe.settings import BoardSettings, BrokerSettings, PublisherSettings, make_client
from tablekeeper.cafe.store import Store
from tablekeeper.cafe.topics import BOARD_USER
from tablekeeper.journal import line_of

ROOT = Path(__file__).resolve().parents[2]
SM = ROOT / "tests" / "data" / "something_missing_3p_easy.jsonl"


class Board:
    def __init__(self, broker: LocalBroker, folder: Path) -> None:
        self.store = Store(folder / "board.sqlite")
        self.settings = BoardSettings(db=folder / "board.sqlite",
                                      broker=broker.settings_for(BOARD_USER),
                                      client_id=f"board-{os.getpid()}-{id(self)}")
        self.sub: Subscriber | None = None

    def start(self) -> None:
        self.sub = Subscriber(self.settings, self.store)
        self.sub.start()
        assert self.sub.connected.wait(15), "the board did not connect"

    def stop(self) -> None:
        if self.sub is not None:
            self.sub.stop()
            self.sub = None

    def results(self) -> int:
        return len(self.store.results())


def finished_journals(folder: Path, n: int, start: int = 0) -> list[Path]:
    """``n`` different finished games (the recorded 3-player game under new headers)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = SM.read_bytes().splitlines(keepends=True)
    header = json.loads(lines[0])
    out = []
    for i in range(start, start + n):
        header["created"] = f"2026-12-01T18:{i // 60:02d}:{i % 60:02d}+00:00"
        path = folder / f"game-{i:03d}.jsonl"
        path.write_bytes(line_of(header, version=1) + b"\n" + b"".join(lines[1:]))
        out.append(path)
    return out


def publisher(broker: LocalBroker, folder: Path, table: str = "t1") -> Publisher:
    return Publisher(PublisherSettings(table=table, journals=folder / "games",
                                       state_file=folder / "publisher-state.json",
                                       broker=broker.settings_for(table), poll_s=0.05))


class Running:
    def __init__(self, pub: Publisher) -> None:
        self.pub = pub
        self.stop = threading.Event()
        self.thread = threading.Thread(target=pub.run, args=(self.stop,), daemon=True)

    def __enter__(self) -> Publisher:
        self.thread.start()
        return self.pub

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(15)


class Observer:
    """A raw MQTT client (the board's user) that records every message on the tables."""

    def __init__(self, broker: LocalBroker) -> None:
        self.got: list[tuple[str, bytes]] = []
        self.ready = threading.Event()
        self.client = make_client(broker.settings_for(BOARD_USER), f"observer-{id(self)}")

        def on_connect(client: Any, *args: Any) -> None:
            client.subscribe(f"{messages.ROOT}/#", qos=1)

        def on_subscribe(*args: Any) -> None:
            self.ready.set()

        self.client.on_connect = on_connect
        self.client.on_subscribe = on_subscribe
        self.client.on_message = lambda c, u, m: self.got.append((m.topic, m.payload))
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()
        assert self.ready.wait(10)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def raw_client(settings: BrokerSettings, name: str) -> Any:
    client = make_client(settings, name)
    done = threading.Event()
    client.on_connect = lambda *a: done.set()
    client.connect(settings.host, settings.port)
    client.loop_start()
    assert done.wait(10)
    return client




@contextlib.contextmanager
def running_broker(folder: Path, tables: tuple[str, ...] = ("t1", "t2")) -> Iterator[LocalBroker]:
    """A Mosquitto of the test's own (TLS, users, ACL, the café's documented policy)."""
    b = LocalBroker(folder, list(tables))
    b.start()
    try:
        yield b
    finally:
        b.stop()


@contextlib.contextmanager
def running_board(broker: LocalBroker, folder: Path) -> Iterator[Board]:
    b = Board(broker, folder)
    b.start()
    try:
        yield b
    finally:
        b.stop()
        b.store.close()
