"""The café attacked and left alone, as issue 39 found it failing; each fault injected for real:
bad messages (one schema), stored rows an older board kept (shown and exported all the same),
a board database locked by another process (nothing acknowledged before it is stored), an
evening of live states with the board off under the documented broker policy, a damaged
board.sqlite (set aside, rebuilt from what the tables send again), a full card under the
publisher (a real tmpfs), bad settings (exit 78 with one line), a clock 50 minutes behind, two
games started in the same second, table names that are prefixes of others, names with control
and bidi-override characters and names a spreadsheet would run as formulas.

The broker is a real Mosquitto started per test (tests/cafe/cafehelp.py); "the board process"
is ``tablekeeper cafe board`` run as a process of its own.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from cafehelp import ROOT, SM, Board, Running, publisher, raw_client, running_board, running_broker
from system_needs import is_root, requires_system, skip_for_root, skip_for_system

from tablekeeper.cafe import export, messages
from tablekeeper.cafe.board import BoardCache, WebServer, board_data, make_app
from tablekeeper.cafe.broker import LocalBroker, free_port, mosquitto_path
from tablekeeper.cafe.publisher import wait_until
from tablekeeper.cafe.store import Store
from tablekeeper.cafe.topics import BOARD_USER, check_table
from tablekeeper.journal import Journal, line_of, read

DATA = ROOT / "tests" / "data"
needs_broker = requires_system("mosquitto", mosquitto_path(), "the café's real-broker tests")


def result_of(path: Path = SM, table: str = "t1", written_ms: int = 1_000) -> dict[str, Any]:
    return messages.result_message(messages.read_view(table, path, timeline=True), written_ms)


# ---- one schema: a bad message is refused by the board and by the publisher -------------

def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda m: m.pop(key)


BAD: dict[str, Callable[[dict[str, Any]], Any]] = {
    "no duration_ms": _drop("duration_ms"),
    "a huge written_ms": lambda m: m.update(written_ms=10**16),
    "created not a time": lambda m: m.update(created="yesterday"),
    "a timeline point with text": lambda m: m["timeline"].append([1, "x", [1, 2, 3]]),
    "a timeline point of two": lambda m: m["timeline"].append([1, 2]),
    "a timeline point with more scores than players": lambda m: m["timeline"].append(
        [1, 2, [1, 2, 3, 4]]),
    "a score that is text": lambda m: m["players"][0].update(score="9"),
    "a score of 10**12": lambda m: m["players"][0].update(score=10**12),
    "a name with a bidi override": lambda m: m["players"][0].update(name="A\u202eB"),
    "a name with an escape": lambda m: m["players"][0].update(name="x\x1b[2J"),
    "a winner who did not play": lambda m: m.update(winners=["nobody"]),
    "an unknown field": lambda m: m.update(extra=1),
    "seq as text": lambda m: m.update(seq="5"),
}


@pytest.mark.parametrize("what", sorted(BAD))
def test_a_bad_result_is_refused_by_the_board_and_by_the_publisher(what: str) -> None:
    msg = result_of()
    BAD[what](msg)
    with pytest.raises(messages.BadMessage) as err:
        messages.parse(messages.result_topic("t1", msg["game_id"]), messages.encode(msg))
    assert str(err.value)
    with pytest.raises(messages.BadMessage):
        messages.check(msg)


def test_a_state_and_every_games_result_pass_the_schema() -> None:
    for name in ("something_missing_3p_easy", "eselsbruecke_demo", "the_game_demo",
                 "wink_demo"):
        msg = result_of(DATA / f"{name}.jsonl")
        assert messages.check(msg) == msg


LEGACY: list[dict[str, Any]] = [  # what an older board stored before every message met the schema
    {"game_id": "t1-000000000001", "table": "t1", "game": "something_missing",
     "players": [{"name": "A", "score": 3}], "winners": ["A"], "created": None,
     "written_ms": 1},  # no duration_ms, no timeline
    {"game_id": "t1-000000000002", "table": "t1", "game": "something_missing",
     "players": [{"name": "B", "score": 1}], "winners": [], "created": None,
     "written_ms": 10**16, "duration_ms": 5},  # created null and a huge written_ms
    {"game_id": "t1-000000000003", "table": "t1", "game": "something_missing",
     "players": [{"name": "=1+2", "score": 2}], "winners": [], "created": "x",
     "written_ms": 5, "duration_ms": 5,
     "timeline": [[1, "x", [1]], [2, 3], "bad", [3, 10**18, [2, "y"]]]},  # bad points
]


def _legacy_store(path: Path) -> None:
    """A board.sqlite as the board before issue 39 kept it (results by game id only)."""
    db = sqlite3.connect(str(path))
    db.executescript("CREATE TABLE results (game_id TEXT PRIMARY KEY, table_id TEXT NOT NULL, "
                     "game TEXT NOT NULL, created TEXT, written_ms INTEGER NOT NULL, "
                     "received_ms INTEGER NOT NULL, payload TEXT NOT NULL);")
    for i, r in enumerate(LEGACY):
        db.execute("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (r["game_id"], "t1", r["game"], r["created"], 1, 1000 + i, json.dumps(r)))
    db.commit()
    db.close()


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_whatever_is_stored_is_shown_and_exported(tmp_path: Path) -> None:
    _legacy_store(tmp_path / "board.sqlite")
    store = Store(tmp_path / "board.sqlite")
    assert len(store.results()) == 3
    web = WebServer(make_app(store), "127.0.0.1", free_port())
    web.start()
    try:
        status, body = _get(web.url + "api/board")
        assert status == 200 and json.loads(body)["results"] == 3
        for r in LEGACY:
            status, svg = _get(f"{web.url}games/t1/{r['game_id']}/chart.svg")
            assert status == 200 and svg.startswith(b"<svg")
            assert _get(f"{web.url}games/t1/{r['game_id']}/bgstats.json")[0] == 200
        status, body = _get(web.url + "export/results.csv")
        assert status == 200 and b"'=1+2" in body
        status, body = _get(web.url + "export/bgstats.json")
        assert status == 200 and len(json.loads(body)["plays"]) == 3
    finally:
        web.stop()
        store.close()


# ---- identity ----------------------------------------------------------------------------

def test_two_games_started_in_the_same_second_have_different_ids(tmp_path: Path) -> None:
    contents = read(SM)
    ids = set()
    for name in ("a.jsonl", "b.jsonl"):
        journal = Journal.create(tmp_path / name, contents.rules, game=contents.spec.name,
                                 created="2026-12-01T18:00:00+00:00")
        ids.add(journal.header.id)
        assert messages.read_view("t1", tmp_path / name).game_id == journal.header.id
    assert len(ids) == 2 and all(i and len(i) == 16 for i in ids)
    # the id is the header's: kept when the journal is read again and renamed
    os.replace(tmp_path / "a.jsonl", tmp_path / "game-1.jsonl")
    assert read(tmp_path / "game-1.jsonl").header.id in ids
    # a journal written before headers had an id keeps the id it was published under
    assert messages.read_view("t1", SM).game_id.startswith("t1-")


@pytest.mark.parametrize("name", ["t1-x", "T1", "board", "a/b", "a+", "", "x" * 33, "t1 "])
def test_a_table_name_outside_the_safe_alphabet_is_refused(name: str) -> None:
    with pytest.raises(ValueError, match="table name"):
        check_table(name)


def test_the_board_keys_a_game_by_its_table_too(tmp_path: Path) -> None:
    """t1 publishing a result whose id looks like another table's game does not shadow it."""
    store = Store(tmp_path / "b.sqlite")
    mine = result_of(table="t2")
    forged = {**mine, "table": "t1"}
    assert store.add(forged) and store.add(mine)
    assert {(r["table"], r["game_id"]) for r in store.results()} == {
        ("t1", mine["game_id"]), ("t2", mine["game_id"])}
    store.close()


# ---- order by the journal, never by the clock ----------------------------------------------

def test_the_live_game_is_the_kiosks_current_journal_whatever_the_clock(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    contents = read(SM)
    old = Journal.create(games / "game-20261201-190000.jsonl", contents.rules,
                         game=contents.spec.name, created="2026-12-01T19:00:00+00:00")
    new = Journal.create(games / "current.jsonl", contents.rules, game=contents.spec.name,
                         created="2026-12-01T18:10:00+00:00")  # the clock 50 min behind
    future = time.time() + 3600
    os.utime(old.path, (future, future))  # the archived game looks newer by mtime too
    assert messages.live_journal(games) == games / "current.jsonl"
    assert messages.journals_in_order(games)[-1] == games / "current.jsonl"
    # the board: the new game's first state replaces the old one's, created earlier or not
    store = Store(tmp_path / "b.sqlite")
    view_old = messages.read_view("t1", old.path)
    view_new = messages.read_view("t1", new.path)
    assert store.add(messages.state_message(view_old, 1))
    assert store.add(messages.state_message(view_new, 2))
    assert store.live()[0]["game_id"] == view_new.game_id
    store.close()


# ---- load: the leagues made once per result ------------------------------------------------

def test_polls_are_answered_from_the_cache(tmp_path: Path) -> None:
    store = Store(tmp_path / "b.sqlite")
    cache = BoardCache(store, 12)
    now = datetime.now().astimezone()
    first = cache.answer(now)
    for _ in range(20):
        assert cache.answer(now) is first
    assert cache.builds == 1
    store.add(result_of())
    data = json.loads(cache.answer(now))
    assert data["results"] == 1 and cache.builds == 2
    assert data == json.loads(json.dumps(board_data(store, 12, now)))
    store.close()


# ---- names -----------------------------------------------------------------------------

def test_names_a_spreadsheet_would_run_are_neutralised_in_the_csv() -> None:
    msg = result_of()
    for p, name in zip(msg["players"], ["=1+2", "+SUM(1,2)", "@SUM(1)"], strict=True):
        p["name"] = name
    msg["winners"] = ["@SUM(1)"]
    rows = list(csv.DictReader(io.StringIO(export.csv_text([msg]))))
    assert [r["player"] for r in rows] == ["'=1+2", "'+SUM(1,2)", "'@SUM(1)"]
    assert rows[2]["winner"] == "yes" and rows[0]["score"] == "9"
    msg["players"][0]["name"] = "\x1b[2JEve\u202e"  # what an old journal may hold
    rows = list(csv.DictReader(io.StringIO(export.csv_text([msg]))))
    assert rows[0]["player"] == "\\x1b[2JEve\\u202e"


@pytest.mark.parametrize("name", ["A\u202eB", "x\x1b[2J", "a\x00b", "z\u2066w"])
def test_a_name_with_a_control_or_bidi_character_is_refused_in_the_config(name: str) -> None:
    from tablekeeper.config import TableConfig

    with pytest.raises(ValueError, match=r"table\.roster\[0\]: the name holds U\+"):
        TableConfig.from_dict({"roster": [name]})
    with pytest.raises(ValueError, match=r"table\.players\[0\]"):
        TableConfig.from_dict({"players": [name, "b", "c"]})


def test_the_setup_screen_keeps_no_control_or_bidi_character() -> None:
    from display.input import HostAction, TextInput
    from display.setup import SetupForm

    form = SetupForm().apply(HostAction("setup.focus", 0))
    form = form.apply(TextInput("A\u202eB\x1b[2J\u2066"))
    assert form.players[0].name == "AB[2J"


def test_replay_history_escapes_what_the_journal_holds(tmp_path: Path) -> None:
    lines = SM.read_bytes().splitlines()
    first = json.loads(lines[1])
    first["event"]["names"][0] = "Eve\x1b[2J\u202e"
    path = tmp_path / "evil.jsonl"
    path.write_bytes(b"\n".join([lines[0], line_of(first, version=1), *lines[2:]]) + b"\n")
    proc = subprocess.run([sys.executable, "-m", "tablekeeper", "replay", "--history",
                           str(path)], capture_output=True, text=True, check=False,
                          timeout=120, cwd=ROOT)
    # the journal's entry refuses the name: damage of that line, named, escaped, no traceback
    assert proc.returncode == 1, proc.stderr
    output = proc.stdout + proc.stderr
    assert "\x1b" not in output and "\u202e" not in output
    assert "evil.jsonl:2:" in output and "U+001B" in output and "Traceback" not in output
    assert "Eve\\x1b[2J\\u202e" in output


@needs_broker
def test_the_publisher_skips_a_journal_whose_names_hold_control_characters(
        broker: LocalBroker, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A finished game whose journal carries "\\u202e" and "\\x1b[2J" in a name (an older
    version's roster): the publisher logs it once, escaped, skips it and sends the table's
    other game; it keeps running (no crash loop), and the board never sees the name."""
    from cafehelp import finished_journals

    folder = tmp_path / "t1"
    _good, evil = finished_journals(folder / "games", 2)
    lines = evil.read_bytes().splitlines()
    first = json.loads(lines[1])
    first["event"]["names"][0] = "Eve\x1b[2J\u202e"
    evil.write_bytes(b"\n".join([lines[0], line_of(first, version=1), *lines[2:]]) + b"\n")
    pub = publisher(broker, folder)
    running = Running(pub)
    with running_board(broker, tmp_path / "b") as board, running:
        assert wait_until(lambda: board.results() == 1, 20)
        assert wait_until(lambda: "skipping it until it changes" in caplog.text, 10)
        time.sleep(1.0)  # several polls: still running, the bad journal logged once
        assert running.thread.is_alive()
        assert board.results() == 1
        names = json.dumps(board.store.results(), ensure_ascii=False)
        assert "Eve" not in names
    assert caplog.text.count(f"cannot read {evil}") == 1
    assert "\x1b" not in caplog.text and "\u202e" not in caplog.text
    assert "U+001B" in caplog.text


# ---- settings: every bad value exits 78 with one line naming the key -------------------------

BASE = {"board": {"db": '"/tmp/never/board.sqlite"'},
        "publisher": {"table": '"t1"', "journals": '"/tmp/never/games"'}}


@pytest.mark.parametrize(("unit", "key", "value"), [
    ("board", "evening_starts", "24"),
    ("board", "listen_port", '"80a"'),
    ("board", "listen_port", "70000"),
    ("board", "db", "5"),
    ("board", "colour", "1"),
    ("publisher", "poll_s", '"fast"'),
    ("publisher", "poll_s", "0"),
    ("publisher", "poll_s", "1e9"),
    ("publisher", "table", '"t1-x"'),
    ("publisher", "state_interval_s", "-1"),
])
def test_a_bad_setting_exits_78_with_one_line_naming_it(tmp_path: Path, unit: str, key: str,
                                                        value: str) -> None:
    keys = {**BASE[unit], key: value}
    settings = tmp_path / "s.toml"
    settings.write_text(f"[{unit}]\n" + "".join(f"{k} = {v}\n" for k, v in keys.items())
                        + '\n[broker]\nca_file = "/nonexistent/ca.crt"\n')
    verb = "board" if unit == "board" else "publish"
    proc = subprocess.run([sys.executable, "-m", "tablekeeper", "cafe", verb, "--settings",
                           str(settings)], capture_output=True, text=True, check=False,
                          timeout=120, cwd=ROOT)
    assert proc.returncode == 78, proc.stderr
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1 and f"[{unit}] {key}" in err[0], proc.stderr


@pytest.mark.parametrize(("argv", "kind"), [
    (["cafe", "publish", "--settings"], "fifo"),
    (["cafe", "board", "--settings"], "fifo"),
    (["cafe", "settings", "--config"], "fifo"),
    (["cafe", "publish", "--settings"], "dir"),
    (["cafe", "board", "--settings"], "huge"),
    (["cafe", "settings", "--config"], "huge"),
])
def test_a_fifo_or_a_folder_in_place_of_the_settings_exits_78_with_one_line(
        tmp_path: Path, argv: list[str], kind: str) -> None:
    """A FIFO (nobody writing: a plain read would wait for ever), a folder, or a file far
    longer than any settings file: refused without blocking, exit 78, one line naming it."""
    settings = tmp_path / "settings.toml"
    if kind == "fifo":
        os.mkfifo(settings)
    elif kind == "dir":
        settings.mkdir()
    else:
        settings.write_text("# " + "x" * (5 * 1024 * 1024) + "\n")
    proc = subprocess.run([sys.executable, "-m", "tablekeeper", *argv, str(settings)],
                          capture_output=True, text=True, check=False, timeout=60, cwd=ROOT)
    assert proc.returncode == 78, proc.stderr
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1 and str(settings) in err[0] and "Traceback" not in proc.stderr, err
    what = {"fifo": "FIFO", "dir": "folder", "huge": "longer than"}[kind]
    assert what.lower() in err[0].lower(), err


# ---- with the real broker ---------------------------------------------------------------

@pytest.fixture
def broker(tmp_path: Path) -> Iterator[LocalBroker]:
    if mosquitto_path() is None:
        skip_for_system("mosquitto", "the café's real-broker tests")
    with running_broker(tmp_path / "broker") as b:
        yield b


class BoardProcess:
    """``tablekeeper cafe board`` as a process of its own, on the test's broker."""

    def __init__(self, broker: LocalBroker, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.db = folder / "board.sqlite"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        b = broker.settings_for(BOARD_USER)
        self.settings = folder / "board.toml"
        self.settings.write_text(
            f'[board]\ndb = "{self.db}"\nlisten_port = {self.port}\n'
            f'client_id = "board-{os.getpid()}-{id(self)}"\n\n'
            f'[broker]\nhost = "{b.host}"\nport = {b.port}\nca_file = "{b.ca_file}"\n'
            f'password_file = "{b.password_file}"\n')
        self.log = folder / "board.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tablekeeper", "cafe", "board", "--settings",
                 str(self.settings)], stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
        assert wait_until(self.up, 30), self.log.read_text()
        assert wait_until(lambda: "board subscribed" in self.log.read_text(), 15)

    def up(self) -> bool:
        try:
            return _get(self.url + "api/board")[0] == 200
        except OSError:
            return False

    def board(self) -> dict[str, Any]:
        status, body = _get(self.url + "api/board")
        assert status == 200, body
        data: dict[str, Any] = json.loads(body)
        return data

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None


@contextlib.contextmanager
def board_process(broker: LocalBroker, folder: Path) -> Iterator[BoardProcess]:
    b = BoardProcess(broker, folder)
    b.start()
    try:
        yield b
    finally:
        b.stop()


@contextlib.contextmanager
def locked(db: Path) -> Iterator[None]:
    """Another process's write lock on the board's database (sqlite3's own)."""
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sqlite3, sys, time\n"
         f"db = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
         "db.execute('BEGIN EXCLUSIVE')\nprint('locked', flush=True)\n"
         "sys.stdin.readline()\ndb.execute('ROLLBACK')\n"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        yield
    finally:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(10)


def _results_in(db: Path) -> int:
    c = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        return int(c.execute("SELECT count(*) FROM games").fetchone()[0])
    finally:
        c.close()


@functools.cache
def _result_json(table: str) -> str:
    return json.dumps(result_of(table=table))


def _unique_result(i: int, table: str = "t1") -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(_result_json(table))
    gid = f"{i:016x}"
    msg.update(game_id=gid, id=f"{gid}:result")
    return msg


def _publish(client: Any, topic: str, msg: dict[str, Any], qos: int = 1,
             retain: bool = False) -> None:
    client.publish(topic, messages.encode(msg), qos=qos, retain=retain).wait_for_publish(10)


@needs_broker
def test_a_result_is_acknowledged_only_once_stored_a_locked_database(
        broker: LocalBroker, tmp_path: Path) -> None:
    """The database locked by another process for longer than SQLite waits: the board does
    not acknowledge; killed meanwhile, it gets the result again from the broker."""
    board = BoardProcess(broker, tmp_path / "board")
    board.start()
    t1 = raw_client(broker.settings_for("t1"), "t1-lock")
    try:
        with locked(board.db):
            _publish(t1, messages.result_topic("t1", "00000000000000a1"), _unique_result(0xa1))
            assert wait_until(lambda: "could not store" in board.log.read_text(), 15)
            time.sleep(2.5)  # well past the old 5 s? past SQLite's own wait, retried meanwhile
            board.stop(signal.SIGKILL)  # the board dies with the result unstored
        assert _results_in(board.db) == 0
        board.start()  # the broker delivers it again: never acknowledged
        assert wait_until(lambda: board.board()["results"] == 1, 30), board.log.read_text()
        # locked while the board runs: stored when the lock goes, without a restart
        with locked(board.db):
            _publish(t1, messages.result_topic("t1", "00000000000000a2"), _unique_result(0xa2))
            time.sleep(3)
        assert wait_until(lambda: _results_in(board.db) == 2, 30), board.log.read_text()
    finally:
        t1.loop_stop()
        board.stop()
    assert "stored 00000000000000a2:result after all" in board.log.read_text()


@needs_broker
@pytest.mark.slow
def test_an_evening_with_the_board_off_loses_no_result(broker: LocalBroker,
                                                       tmp_path: Path) -> None:
    """The broker under systemd/mosquitto-tablekeeper.conf (the file hardware.md gives):
    thousands of live states and more results than Mosquitto's default queue of 1000 while
    the board is away; every result arrives, and the newest state."""
    assert "include_dir" in broker.config.read_text()
    with running_board(broker, tmp_path / "b1") as first:
        session = first.settings.client_id  # its persistent session; now it is off
    t1 = raw_client(broker.settings_for("t1"), "t1-evening")
    state = messages.state_message(messages.read_view("t1", SM), 1)
    n_results, n_states = 1100, 5000
    try:
        for i in range(n_states):  # live states, QoS 0 retained, as the publisher sends
            seq = i + 1
            info = t1.publish(messages.state_topic("t1"), messages.encode(
                {**state, "seq": seq, "id": f"{state['game_id']}:{seq}"}), qos=0, retain=True)
            if i % 50 == 49:
                info.wait_for_publish(10)
            if i % 5 == 0 and i // 5 < n_results:  # and the evening's results between
                _publish(t1, messages.result_topic("t1", f"{i // 5:016x}"),
                         _unique_result(i // 5))
        for j in range(n_states // 5, n_results):
            _publish(t1, messages.result_topic("t1", f"{j:016x}"), _unique_result(j))
    finally:
        t1.loop_stop()
    board = Board(broker, tmp_path / "b1")
    board.settings.client_id = session
    board.start()
    try:
        assert wait_until(lambda: board.results() == n_results, 120), board.results()
        assert wait_until(lambda: bool(board.store.live())
                          and board.store.live()[0]["seq"] == n_states, 20)
    finally:
        board.stop()
        board.store.close()


@needs_broker
def test_a_damaged_board_database_is_set_aside_and_rebuilt_from_the_tables(
        broker: LocalBroker, tmp_path: Path) -> None:
    folder = tmp_path / "t1"
    (folder / "games").mkdir(parents=True)
    for i in range(3):
        contents = read(SM)
        j = Journal.create(folder / "games" / f"game-{i}.jsonl", contents.rules,
                           game=contents.spec.name)
        for rec in contents.records:
            assert rec.event is not None
            j.append(rec.event)
    board = BoardProcess(broker, tmp_path / "board")
    board.start()
    with Running(publisher(broker, folder)) as pub:
        assert wait_until(lambda: board.board()["results"] == 3, 30)
        board.stop()
        board.db.write_bytes(b"this is not a database" * 100)  # a card that went bad
        for side in ("-wal", "-shm"):
            board.db.with_name(board.db.name + side).unlink(missing_ok=True)
        board.start()  # no crash loop: set aside, a new store, the tables send again
        assert wait_until(lambda: board.board()["results"] == 3, 30), board.log.read_text()
        assert pub.sent >= 6
    board.stop()
    aside = list(board.db.parent.glob("board.sqlite.damaged-*"))
    assert len(aside) == 1 and aside[0].read_bytes().startswith(b"this is not")
    assert "set aside" in board.log.read_text()


@needs_broker
def test_a_full_card_pauses_the_publisher_and_it_goes_on_when_there_is_room(
        broker: LocalBroker, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    card = tmp_path / "card"
    card.mkdir()
    if not is_root():
        skip_for_root("a full card: a 64 KB tmpfs mounted")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(card)],
                   capture_output=True, check=True)
    try:
        filler = card / "filler"
        with contextlib.suppress(OSError), open(filler, "wb") as f:
            while True:
                f.write(b"\0" * 4096)
                f.flush()
        folder = tmp_path / "t1"
        from cafehelp import finished_journals

        finished_journals(folder / "games", 2)
        pub = publisher(broker, folder)
        pub.settings.state_file = card / "state.json"
        pub.settings.pause_s = 0.5
        pub.state.path = card / "state.json"
        with running_board(broker, tmp_path / "b") as board, Running(pub):
            assert wait_until(lambda: board.results() == 2, 20)  # sent; not noted
            assert wait_until(lambda: "paused" in caplog.text, 10)
            time.sleep(1.5)
            assert not pub.state.result_done(next(iter(pub.state.games), ""))
            filler.unlink()  # room again
            assert wait_until(lambda: (card / "state.json").exists()
                              and len(json.loads((card / "state.json").read_text())
                                      ["games"]) == 2, 20)
            assert board.results() == 2  # sent again, counted once
    finally:
        subprocess.run(["umount", str(card)], check=False)
    assert "No space left on device" in caplog.text


@needs_broker
@pytest.mark.slow
def test_the_board_bench_prints_its_figures() -> None:
    """``tablekeeper bench cafe-board`` at a small size: the real board process, phones
    polling, results arriving; its figures (the bench's own sizes are in docs/cafe.md)."""
    proc = subprocess.run([sys.executable, "-m", "tablekeeper", "bench", "cafe-board",
                           "--games", "300", "--clients", "10", "--seconds", "6",
                           "--result-every", "1"], capture_output=True, text=True,
                          check=False, timeout=600, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    row = json.loads(proc.stdout.splitlines()[0])
    assert row["games"] == 300 and row["errors"] == 0 and row["requests"] > 30
    assert row["results_during_run"] >= 3 and row["latency_ms_p95"] is not None
    assert "p95" in proc.stdout


def test_the_kept_table_of_players_with_a_control_character_is_not_taken(tmp_path: Path) -> None:
    from tablekeeper import table_players

    path = tmp_path / table_players.FILE_NAME
    path.write_text(json.dumps({"players": [{"name": "Eve\u202e", "colour": "red"}]}))
    players, problem = table_players.load(path)
    assert players == () and problem is not None and "U+202E" in problem
