"""The café's messages, store, league, chart, exports and settings (no broker needed)."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tablekeeper.cafe import export, messages
from tablekeeper.cafe.board import board_data, chart_svg, evening_start_ms
from tablekeeper.cafe.broker import make_certificates
from tablekeeper.cafe.config import CafeConfig
from tablekeeper.cafe.publisher import PublisherState
from tablekeeper.cafe.settings import SettingsError, load_board, load_publisher
from tablekeeper.cafe.store import Store, league, percentile
from tablekeeper.journal import Journal, read

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
SM = DATA / "something_missing_3p_easy.jsonl"


def result_of(path: Path = SM, table: str = "t1") -> dict[str, Any]:
    view = messages.read_view(table, path, timeline=True)
    return messages.result_message(view, 1_000)


def test_a_finished_game_reads_as_players_scores_winners_and_a_timeline() -> None:
    view = messages.read_view("t1", SM, timeline=True)
    assert view.over and view.game == "something_missing"
    assert [p["name"] for p in view.players] == ["阿明 A-Ming", "小華 Xiao-Hua", "美玲 Mei-Ling"]
    assert [p["score"] for p in view.players] == [9, 17, 22]
    assert view.winners == ["美玲 Mei-Ling"]
    assert view.timeline[-1][2] == [9, 17, 22]
    seqs = [p[0] for p in view.timeline]
    assert seqs == sorted(seqs) and len(seqs) > 3


@pytest.mark.parametrize("name", ["eselsbruecke_demo", "the_game_demo", "wink_demo"])
def test_every_game_gives_a_valid_result_message(name: str) -> None:
    result = result_of(DATA / f"{name}.jsonl")
    assert messages.parse(messages.result_topic("t1", result["game_id"]),
                          messages.encode(result)) == result
    assert result["players"] and all(isinstance(p["name"], str) for p in result["players"])


def test_the_game_id_stays_when_the_kiosk_renames_the_journal(tmp_path: Path) -> None:
    current = tmp_path / "current.jsonl"
    shutil.copy(SM, current)
    before = messages.read_view("t1", current).game_id
    archived = tmp_path / "2026-11-29.jsonl"
    os.replace(current, archived)
    assert messages.read_view("t1", archived).game_id == before
    assert messages.read_view("t2", archived).game_id != before  # another table, another id


def test_a_game_in_progress_says_whose_turn(tmp_path: Path) -> None:
    contents = read(SM)
    path = tmp_path / "current.jsonl"
    journal = Journal.create(path, contents.rules, game=contents.spec.name)
    for rec in contents.records[:20]:
        assert rec.event is not None
        journal.append(rec.event)
    view = messages.read_view("t1", path)
    assert not view.over and view.seq == 20
    msg = messages.state_message(view, 5)
    assert msg["id"] == f"{view.game_id}:20" and msg["kind"] == "state"
    assert messages.parse(messages.state_topic("t1"), messages.encode(msg))["seq"] == 20


def _bad(mutate: Any) -> tuple[str, bytes]:
    msg = result_of()
    topic = messages.result_topic("t1", msg["game_id"])
    out = mutate(msg, topic)
    return out if isinstance(out, tuple) else (topic, messages.encode(msg))


BAD = {
    "not JSON": lambda m, t: (t, b"\xff{nope"),
    "a list": lambda m, t: (t, b"[1, 2]"),
    "other schema": lambda m, t: m.update(schema="other"),
    "newer version": lambda m, t: m.update(v=99),
    "another table's name": lambda m, t: m.update(table="t2"),
    "kind on the wrong topic": lambda m, t: (messages.state_topic("t1"), messages.encode(m)),
    "an id that is not game id + seq": lambda m, t: m.update(id="t1-000000000000:result"),
    "a score that is text": lambda m, t: m["players"][0].update(score="9"),
    "a topic outside the tables": lambda m, t: ("elsewhere/t1/state", messages.encode(m)),
    "too big": lambda m, t: (t, b" " * (messages.MAX_PAYLOAD + 1)),
    "unknown topic under the prefix": lambda m, t: ("tablekeeper/tables/t1/x", b"{}"),
}


@pytest.mark.parametrize("what", sorted(BAD))
def test_bad_messages_are_refused_with_a_reason(what: str) -> None:
    topic, payload = _bad(BAD[what])
    with pytest.raises(messages.BadMessage) as err:
        messages.parse(topic, payload)
    assert str(err.value)


def test_the_store_counts_a_result_once_and_keeps_the_newest_state(tmp_path: Path) -> None:
    store = Store(tmp_path / "board.sqlite")
    result = result_of()
    assert store.add(result, received_ms=2_000)
    assert not store.add(result, received_ms=3_000)  # delivered again
    assert len(store.results()) == 1 and store.stats()["duplicates"] == 1
    assert store.latencies_ms() == [1_000]
    state = {**result, "kind": "state", "seq": 50, "id": f"{result['game_id']}:50"}
    assert store.add(state)
    assert not store.add({**state, "seq": 40})  # an older state arriving late
    assert store.live()[0]["seq"] == 50
    store.close()
    # WAL: one file to copy for a backup, still readable by plain sqlite3
    assert Store(tmp_path / "board.sqlite").results()[0]["game_id"] == result["game_id"]


def test_the_league_ranks_wins_then_points() -> None:
    a = {"game": "g", "players": [{"name": "A", "score": 5}, {"name": "B", "score": 9}],
         "winners": ["B"]}
    b = {"game": "g", "players": [{"name": "A", "score": 9}, {"name": "B", "score": 1}],
         "winners": ["A"]}
    c = {"game": "g", "players": [{"name": "A", "score": 3}, {"name": "C", "score": 2}],
         "winners": ["A"]}
    rows = league([a, b, c])["g"]
    assert [(r["player"], r["played"], r["wins"], r["points"]) for r in rows] == [
        ("A", 3, 2, 17), ("B", 2, 1, 10), ("C", 1, 0, 2)]
    assert percentile([1, 2, 3, 4], 0.5) == 2.5 and percentile([], 0.5) is None


def test_tonight_starts_at_the_evening_hour_even_after_midnight() -> None:
    from datetime import datetime

    late = datetime(2026, 12, 3, 1, 30).astimezone()
    start = datetime.fromtimestamp(evening_start_ms(late, 12) / 1000).astimezone()
    assert (start.day, start.hour) == (2, 12)
    afternoon = datetime(2026, 12, 3, 15, 0).astimezone()
    start = datetime.fromtimestamp(evening_start_ms(afternoon, 12) / 1000).astimezone()
    assert (start.day, start.hour) == (3, 12)


def test_board_data_and_chart(tmp_path: Path) -> None:
    store = Store(tmp_path / "b.sqlite")
    result = result_of()
    store.add(result)
    data = board_data(store, 12)
    assert data["results"] == 1 and "something_missing" in data["league_season"]
    assert data["league_tonight"] == data["league_season"]
    # the page names each game by its kit's titles, the one place they are written
    assert data["titles"]["wink"] == {"zh-TW": "眨眨眼", "en": "Wink"}
    assert data["titles"]["eselsbruecke"] == {"zh-TW": "驢橋", "en": "Eselsbrücke"}
    assert set(data["titles"]) == {"something_missing", "the_game", "wink", "eselsbruecke"}
    svg = chart_svg(result)
    assert svg.startswith("<svg") and svg.count('class="player"') == 3
    assert "美玲 Mei-Ling" in svg


def test_bgstats_export_has_the_play_files_fields() -> None:
    result = result_of()
    out = export.bgstats([result])
    assert set(out) == {"about", "players", "locations", "games", "plays"}
    assert "Board Game Stats" in out["about"]
    play = out["plays"][0]
    for key in ("uuid", "playDate", "durationMin", "gameRefId", "locationRefId",
                "playerScores", "entryDate", "modificationDate"):
        assert key in play
    ids = {p["id"]: p["name"] for p in out["players"]}
    scores = {ids[s["playerRefId"]]: (s["score"], s["winner"], s["rank"])
              for s in play["playerScores"]}
    assert scores["美玲 Mei-Ling"] == ("22", True, 1) and scores["阿明 A-Ming"] == ("9", False, 3)
    assert play["gameRefId"] == out["games"][0]["id"]
    assert out["games"][0]["name"] == "什麼不見啦 (Something Is Missing)"
    assert export.bgstats([result]) == out  # same game, same uuids: BG Stats sees one play


def test_csv_export_is_a_row_per_player() -> None:
    rows = list(csv.DictReader(io.StringIO(export.csv_text([result_of()]))))
    assert [(r["player"], r["score"], r["winner"]) for r in rows] == [
        ("阿明 A-Ming", "9", "no"), ("小華 Xiao-Hua", "17", "no"), ("美玲 Mei-Ling", "22", "yes")]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablekeeper", *args], capture_output=True,
                          text=True, check=False, timeout=120, cwd=ROOT)


def test_tablekeeper_export_cli(tmp_path: Path) -> None:
    proc = _cli("export", str(SM), "--format", "csv", "--table", "t3")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0].startswith("game_id,table,game")
    out = tmp_path / "plays.bgsplay"
    proc = _cli("export", str(SM), str(DATA / "wink_demo.jsonl"), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert len(json.loads(out.read_text())["plays"]) == 2


def test_export_refuses_an_unfinished_or_damaged_journal(tmp_path: Path) -> None:
    lines = SM.read_bytes().splitlines(keepends=True)
    short = tmp_path / "short.jsonl"
    short.write_bytes(b"".join(lines[:10]))
    proc = _cli("export", str(short))
    assert proc.returncode == 1 and "not finished" in proc.stderr
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b"".join(lines[:5]) + b"{oops\n" + b"".join(lines[6:]))
    proc = _cli("export", str(broken))
    assert proc.returncode == 1 and "broken.jsonl:6" in proc.stderr


def test_the_cafe_section_makes_the_publishers_settings(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    ca, _, _ = make_certificates(tmp_path / "tls")  # (the CA file is read at the start)
    config.write_text('[table]\nstate_dir = "/x"\n\n[cafe]\ntable = "t7"\n'
                      f'broker_host = "board.local"\nca_file = "{ca}"\n')
    proc = _cli("cafe", "settings", "--config", str(config))
    assert proc.returncode == 0, proc.stderr
    settings = tmp_path / "publisher.toml"
    settings.write_text(proc.stdout)
    loaded = load_publisher(settings)
    assert loaded.table == "t7" and loaded.broker.username == "t7"
    assert loaded.broker.host == "board.local" and loaded.broker.port == 8883
    assert "password =" not in proc.stdout and "password_file" not in proc.stdout
    config.write_text('[cafe]\ntable = "Table 7!"\nbroker_host = "b"\n')
    proc = _cli("cafe", "settings", "--config", str(config))
    assert proc.returncode == 78 and "table name" in proc.stderr


@pytest.mark.parametrize(("section", "message"), [
    ({"tabel": "t1"}, "unknown key(s) tabel"),
    ({"broker_port": 0}, "broker_port"),
    ({"broker_port": True}, "broker_port"),
    ({"table": "a/b"}, "table name"),
])
def test_the_kiosk_checks_the_cafe_section(section: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        CafeConfig.from_dict(section)


def test_the_kiosk_config_reader_knows_the_cafe_section(tmp_path: Path) -> None:
    from tablekeeper.kiosk import read_config

    config = tmp_path / "config.toml"
    config.write_text(f'[table]\nstate_dir = "{tmp_path}"\n\n[cafe]\ntable = "t1"\n'
                      'broker_host = "b"\nbroker_prot = 1\n')
    report = read_config(config, explicit=True)
    assert report.fatal is None
    assert any("broker_prot" in p for p in report.problems)
    assert not any("unknown section" in p for p in report.problems)


def test_settings_errors_are_clear(tmp_path: Path) -> None:
    bad = tmp_path / "p.toml"
    bad.write_text('[publisher]\ntable = "t1"\n[broker]\nhost = "x"\n')
    with pytest.raises(SettingsError, match="ca_file: needed for TLS"):
        load_publisher(bad)
    bad.write_text('[board]\n[broker]\nca_file = "c"\nprot = 1\n')
    with pytest.raises(SettingsError, match="unknown key"):
        load_board(bad)
    bad.write_text("[board\n")
    with pytest.raises(SettingsError, match="not valid TOML"):
        load_board(bad)
    bad.write_text('[board]\n[broker]\ntls = false\npassword_file = "/nonexistent/pw"\n')
    with pytest.raises(SettingsError, match=r"\[broker\] password_file: cannot read "):
        load_board(bad).broker.password()
    bad.write_text('[board]\n[broker]\nca_file = "/nonexistent/ca.crt"\n')
    with pytest.raises(SettingsError, match=r"\[broker\] ca_file: cannot read "):
        load_board(bad)
    bad.write_text('[board]\n[broker]\nca_file = "ca.crt"\n')
    with pytest.raises(SettingsError, match=r"\[broker\] ca_file: expected an absolute path"):
        load_board(bad)


def test_a_damaged_publisher_state_file_starts_over(tmp_path: Path,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "state.json"
    state = PublisherState(path)
    state.mark("t1-0123456789ab", state_seq=4)
    assert PublisherState(path).state_seq("t1-0123456789ab") == 4
    path.write_text("{torn")
    assert PublisherState(path).state_seq("t1-0123456789ab") == 0
    assert "starting over" in caplog.text


def test_a_journal_replaced_while_being_read_is_not_mistaken_for_another_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kiosk renames current.jsonl and starts the next game under that name: a reader
    caught in between must not pair one game's header with another's records (the bench
    found this: a result published under the wrong game id)."""
    import tablekeeper.journal as journal

    path = tmp_path / "current.jsonl"
    shutil.copy(SM, path)
    real = journal.read

    def read_then_replace(p: Any) -> Any:
        contents = real(p)
        shutil.copy(DATA / "wink_demo.jsonl", path)  # the next game, same name
        return contents

    monkeypatch.setattr(journal, "read", read_then_replace)
    with pytest.raises(journal.JournalError, match="replaced by another game"):
        messages.read_view("t1", path)
