"""驢橋's demo end to end, and the recorded demo game replaying in CI.

The recorded journal (``tests/data/eselsbruecke_demo.jsonl``) is the headless demo's, made by
``tablekeeper demo --game eselsbruecke --headless --out DIR`` (seed 1, 4 players): the camera
read all 60 tiles of its 16 stories."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine import eselsbruecke as eb
from engine.core import Rejection
from tablekeeper.cli import main
from tablekeeper.clock import FakeClock
from tablekeeper.games import load
from tablekeeper.games.eselsbruecke.demo import demo_figures, guess_counts
from tablekeeper.games.eselsbruecke.simplayers import SimTable, describe
from tablekeeper.journal import JournaledGame, read, replay

RECORDED = Path(__file__).resolve().parents[2] / "data" / "eselsbruecke_demo.jsonl"


def _replay_json(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["replay", str(path)]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_the_recorded_demo_replays_to_its_outcome(capsys: pytest.CaptureFixture[str]) -> None:
    data = _replay_json(RECORDED, capsys)
    assert data["game"] == "eselsbruecke" and data["phase"] == "over" and data["round"] == 6
    assert data["scores"] == {"阿明 A-Ming": 9, "小華 Xiao-Hua": 16, "美玲 Mei-Ling": 14,
                              "志強 Chih-Chiang": 15}
    assert data["outcome"] == {"reason": "last_round", "winners": ["小華 Xiao-Hua"],
                               "winner_seats": [1], "scores": [9, 16, 14, 15],
                               "stops": [3, 2, 1, 2]}
    assert data["events"] == 225
    # every story's keywords are in the journal, as the camera read them
    assert sum(len(s["tiles"]) for s in data["stories"]) == 60
    assert all(t.startswith("k") for s in data["stories"] for t in s["tiles"])


def test_the_recorded_demo_has_what_the_issue_asks_for() -> None:
    state = replay(read(RECORDED))
    assert isinstance(state, eb.State) and eb.is_over(state)
    figures = {**demo_figures(state), **guess_counts(RECORDED, state)}
    assert figures["wrong"] >= 1 and figures["time_up"] >= 1
    assert figures["discards_stopped"] >= 1  # a discard stopped by a stop tile
    assert figures["last_keyword"] >= 1  # special case 2
    assert figures["stories"] == 16 and figures["recalls"] == 16
    tiles = [rec.event for rec in read(RECORDED).active()
             if isinstance(rec.event, eb.TileSeen)]
    assert len(tiles) == 60  # every tile read by the camera, none entered by hand


def test_the_demo_without_a_camera_plays_a_whole_game(tmp_path: Path) -> None:
    kit = load("eselsbruecke")
    parts = kit.demo(tmp_path, seed=4, players=5, variant="standard", clock=FakeClock(),
                     camera=False)
    parts.loop.run_simulated()
    state = parts.loop.referee.state
    assert eb.is_over(state) and state.round == 6
    summary = kit.demo_summary(parts)
    assert summary["tiles_laid"] == summary["tiles_in_stories"] == 5 * (3 + 3 + 4 + 5)
    assert summary["answer_presses"] == summary["answered"]
    assert summary["time_ups"] == summary["time_up"]
    assert replay(JournaledGame.open(parts.journal_path).journal.contents()) == state
    assert "驢橋" in kit.scoreboard(state)


def test_the_text_demo_prints_the_play(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    journal = tmp_path / "t.jsonl"
    assert main(["demo", "--game", "eselsbruecke", "--text", "--lines", "-1", "--seed", "2",
                 "--journal", str(journal)]) == 0
    out = capsys.readouterr().out
    assert "New game" in out and "Game over" in out and "wrong" in out
    assert _replay_json(journal, capsys)["phase"] == "over"


@pytest.mark.parametrize("players,side", [(3, "standard"), (6, "standard"), (4, "advanced")])
def test_simulated_tables_always_end(players: int, side: str) -> None:
    rng = random.Random(players)
    table = SimTable.generate(rng, players, side)
    state = eb.initial_state()
    lines = 0
    while not eb.is_over(state):
        event = table.propose(state)
        result = eb.apply(state, event)
        assert not isinstance(result, Rejection), result
        lines += describe(state, event, result) is not None
        state = result
    assert state.round == state.rounds and all(s.score >= 0 for s in state.seats)
    assert lines > 10


@pytest.mark.slow
def test_the_headless_demo_reads_every_tile_with_the_camera(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "demo"
    assert main(["demo", "--game", "eselsbruecke", "--headless", "--out", str(out),
                 "--size", "800x480"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["cards_recognised"] == summary["tiles_in_stories"] == 60
    assert summary["wrong"] >= 1 and summary["time_up"] >= 1
    assert summary["discards_stopped"] >= 1 and summary["last_keyword"] >= 1
    screens = {p.name.split("-", 2)[2] for p in (out / "screens").glob("*.png")}
    assert {"story.png", "deal.png", "guess.png", "penalties.png", "over.png"} <= screens
