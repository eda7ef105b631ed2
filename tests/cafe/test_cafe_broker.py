"""The café over a real Eclipse Mosquitto, started by each test on loopback (TLS, users, ACL).

Faults, each injected for real: the broker stopped and started again, the board away while
tables publish, a publisher process killed (SIGKILL) while it publishes, a message delivered
twice, a table publishing under another table's prefix, bad messages on the board's topics.
Where mosquitto is not installed these tests skip, saying so (.ci/run installs it).
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from system_needs import requires_system

from tablekeeper.cafe import messages
from tablekeeper.cafe.board import Subscriber
from tablekeeper.cafe.broker import BOARD_USER, LocalBroker, mosquitto_path
from tablekeeper.cafe.publisher import Publisher, wait_until
from tablekeeper.cafe.settings import BoardSettings, BrokerSettings, PublisherSettings, make_client
from tablekeeper.cafe.store import Store
from tablekeeper.journal import line_of

pytest.importorskip("paho.mqtt.client", reason="paho-mqtt is not installed (the cafe extra)")
pytestmark = requires_system("mosquitto", mosquitto_path(), "the café's real-broker tests")

ROOT = Path(__file__).resolve().parents[2]
SM = ROOT / "tests" / "data" / "something_missing_3p_easy.jsonl"


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[LocalBroker]:
    b = LocalBroker(tmp_path / "broker", ["t1", "t2"])
    b.start()
    try:
        yield b
    finally:
        b.stop()


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


@pytest.fixture
def board(broker: LocalBroker, tmp_path: Path) -> Iterator[Board]:
    b = Board(broker, tmp_path)
    b.start()
    try:
        yield b
    finally:
        b.stop()
        b.store.close()


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


def test_a_table_publishes_over_tls_and_the_board_shows_it(
        broker: LocalBroker, board: Board, tmp_path: Path) -> None:
    folder = tmp_path / "t1"
    finished_journals(folder / "games", 2)
    # the current game, still going: its state is published, retained
    lines = SM.read_bytes().splitlines(keepends=True)
    current = folder / "games" / "current.jsonl"
    current.write_bytes(b"".join(lines[:31]))
    os.utime(current, None)
    with Running(publisher(broker, folder)) as pub:
        assert wait_until(lambda: board.results() == 2 and len(board.store.live()) == 1, 20)
        assert wait_until(lambda: pub.step(), 10)
    live = board.store.live()[0]
    assert live["table"] == "t1" and live["seq"] == 30 and not live["over"]
    assert board.store.stats()["duplicates"] == 0
    state = json.loads((folder / "publisher-state.json").read_text())
    assert sum(1 for g in state["games"].values() if g.get("result")) == 2
    # the state is retained: a board that connects later sees the table at once
    late = Observer(broker)
    try:
        assert wait_until(lambda: any(t.endswith("/t1/state") for t, _ in late.got), 10)
    finally:
        late.close()


def test_a_wrong_password_and_plain_tcp_are_refused(broker: LocalBroker) -> None:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    wrong = broker.settings_for("t1")
    pw = Path(wrong.password_file or "")
    bad = pw.with_name("wrong.password")
    bad.write_text("not-the-password")
    wrong.password_file = str(bad)
    client = make_client(wrong, "intruder")
    reasons: list[Any] = []
    got = threading.Event()

    def on_connect(c: Any, u: Any, f: Any, reason: Any, p: Any) -> None:
        reasons.append(reason)
        got.set()

    client.on_connect = on_connect
    client.connect(broker.host, broker.port)
    client.loop_start()
    try:
        assert got.wait(10)
        assert reasons[0].is_failure
    finally:
        client.loop_stop()
    plain = mqtt.Client(callback_api_version=CallbackAPIVersion.VERSION2,
                        client_id="plain")
    plain.username_pw_set("t1", broker.passwords["t1"])
    with pytest.raises((OSError, ConnectionError)):
        plain.connect(broker.host, broker.port, keepalive=5)
        for _ in range(50):  # a TLS listener never answers CONNECT in the clear
            if plain.loop(timeout=0.1) != mqtt.MQTT_ERR_SUCCESS:
                raise ConnectionError("refused")
        raise AssertionError("connected without TLS")


def test_a_table_cannot_publish_under_another_tables_prefix(broker: LocalBroker) -> None:
    observer = Observer(broker)
    t2 = raw_client(broker.settings_for("t2"), "t2-rogue")
    try:
        t2.publish("tablekeeper/tables/t1/state", b'{"forged": true}', qos=1).wait_for_publish(5)
        t2.publish("tablekeeper/tables/t2/state", b'{"own": true}', qos=1).wait_for_publish(5)
        assert wait_until(lambda: len(observer.got) >= 1, 10)
        threading.Event().wait(0.5)
        assert observer.got == [("tablekeeper/tables/t2/state", b'{"own": true}')]
    finally:
        t2.loop_stop()
        observer.close()
    # With MQTT 5 the broker says so: the PUBACK's reason is "Not authorized".
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    b = broker.settings_for("t2")
    v5 = mqtt.Client(callback_api_version=CallbackAPIVersion.VERSION2,
                     client_id="t2-rogue-v5", protocol=mqtt.MQTTv5)
    v5.tls_set(ca_certs=b.ca_file)
    v5.username_pw_set("t2", b.password())
    acks: dict[int, Any] = {}
    v5.on_publish = lambda c, u, mid, reason, props: acks.__setitem__(mid, reason)
    v5.connect(b.host, b.port)
    v5.loop_start()
    try:
        forged = v5.publish("tablekeeper/tables/t1/results/x", b"{}", qos=1)
        own = v5.publish("tablekeeper/tables/t2/state", b"{}", qos=1)
        assert wait_until(lambda: len(acks) == 2, 10)
    finally:
        v5.loop_stop()
    assert acks[forged.mid].is_failure and "authori" in str(acks[forged.mid]).lower()
    assert not acks[own.mid].is_failure


def test_bad_messages_on_the_boards_topics_are_ignored_and_logged(
        broker: LocalBroker, board: Board, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="tablekeeper.cafe.board")
    t1 = raw_client(broker.settings_for("t1"), "t1-bad")
    good = messages.result_message(messages.read_view("t1", SM, timeline=True), 1)
    try:
        for topic, payload in [
                ("tablekeeper/tables/t1/state", b"\x00\xffnot json"),
                ("tablekeeper/tables/t1/state", b'{"schema": "tablekeeper.cafe"}'),
                (f"tablekeeper/tables/t1/results/{good['game_id']}",
                 messages.encode({**good, "table": "t2"})),
                ("tablekeeper/tables/t1/results/x", messages.encode(good)),
                (f"tablekeeper/tables/t1/results/{good['game_id']}", messages.encode(good))]:
            t1.publish(topic, payload, qos=1).wait_for_publish(5)
        assert wait_until(lambda: board.results() == 1, 10)
        assert wait_until(lambda: board.store.stats()["bad_messages"] == 4, 5)
    finally:
        t1.loop_stop()
    assert caplog.text.count("ignored a bad message") == 4
    assert "not JSON" in caplog.text and "published under 't1'" in caplog.text


def test_a_duplicate_delivery_is_counted_once(broker: LocalBroker, board: Board) -> None:
    t1 = raw_client(broker.settings_for("t1"), "t1-dup")
    msg = messages.result_message(messages.read_view("t1", SM, timeline=True), 1)
    try:
        for _ in range(3):
            t1.publish(messages.result_topic("t1", msg["game_id"]), messages.encode(msg),
                       qos=1).wait_for_publish(5)
        assert wait_until(lambda: board.store.stats()["messages"] == 3, 10)
    finally:
        t1.loop_stop()
    assert board.results() == 1 and board.store.stats()["duplicates"] == 2


@pytest.mark.slow
def test_broker_down_and_up_and_the_board_away_lose_nothing(
        broker: LocalBroker, board: Board, tmp_path: Path) -> None:
    folder = tmp_path / "t1"
    finished_journals(folder / "games", 2)
    with Running(publisher(broker, folder)) as pub:
        assert wait_until(lambda: board.results() == 2, 20)
        broker.stop()  # the broker goes away (a café's Pi rebooting)
        assert wait_until(lambda: not pub.connected.is_set(), 10)
        finished_journals(folder / "games", 3, start=2)  # games end meanwhile
        threading.Event().wait(1.0)
        assert board.results() == 2
        broker.start()  # back, same port, its persisted sessions kept
        assert wait_until(lambda: board.results() == 5, 30), broker.log_tail()
        board.stop()  # now the board goes away; its session keeps QoS 1 messages
        finished_journals(folder / "games", 2, start=5)
        assert wait_until(lambda: pub.step(), 20)  # acknowledged by the broker
        board.start()
        assert wait_until(lambda: board.results() == 7, 30)
    assert board.store.stats()["duplicates"] == 0 or board.results() == 7


@pytest.mark.slow
def test_a_publisher_killed_mid_publish_loses_nothing_and_counts_nothing_twice(
        broker: LocalBroker, board: Board, tmp_path: Path) -> None:
    folder = tmp_path / "t1"
    games = finished_journals(folder / "games", 40)
    b = broker.settings_for("t1")
    settings = folder / "publisher.toml"
    settings.write_text(f'[publisher]\ntable = "t1"\njournals = "{folder / "games"}"\n'
                        f'state_file = "{folder / "state.json"}"\npoll_s = 0.05\n\n'
                        f'[broker]\nhost = "{b.host}"\nport = {b.port}\n'
                        f'ca_file = "{b.ca_file}"\npassword_file = "{b.password_file}"\n')
    argv = [sys.executable, "-m", "tablekeeper", "cafe", "publish", "--settings", str(settings)]
    log = open(folder / "publisher.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        assert wait_until(lambda: board.results() >= 3, 30)
        os.kill(proc.pid, signal.SIGKILL)  # mid-publish: some acknowledged, some not
        proc.wait(10)
        before = board.results()
        assert 3 <= before < len(games), f"not killed mid-publish ({before} results)"
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
        assert wait_until(lambda: board.results() == len(games), 60)
        threading.Event().wait(0.5)
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()
    ids = {messages.game_id_of("t1", g.read_bytes().split(b"\n")[0]) for g in games}
    assert {r["game_id"] for r in board.store.results()} == ids
    assert board.results() == len(games)  # each once, however often delivered
    published = json.loads((folder / "state.json").read_text())["games"]
    assert sum(1 for g in published.values() if g.get("result")) == len(games)
    assert "password" not in (folder / "publisher.log").read_text().lower().replace(
        "password_file", "")


@pytest.mark.slow
def test_the_bench_counts_results_in_and_out() -> None:
    """``tablekeeper bench cafe`` at a small N: its figures, nothing lost or counted twice."""
    proc = subprocess.run([sys.executable, "-m", "tablekeeper", "bench", "cafe", "--tables", "2",
                           "--games-per-table", "1", "--pace-ms", "5"], capture_output=True,
                          text=True, check=False, timeout=600, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    row = json.loads(proc.stdout.splitlines()[0])
    assert row["tables"] == 2 and row["games_finished"] == 2
    assert row["lost"] == 0 and row["behind"] == 0 and row["duplicates"] == 0
    assert row["messages_received"] == row["messages_sent"] > 0
    assert row["latency_ms_p50"] is not None and "p95 ms" in proc.stdout
