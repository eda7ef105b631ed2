"""The Game's demo end to end (the real loop: mock pins, the referee, the journal; with and
without the simulated camera), the recorded demo game replayed, the bot against the engine,
and the bench."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import the_game as tg
from tablekeeper.cli import main
from tablekeeper.clock import FakeClock
from tablekeeper.games.the_game.demo import build_demo, scoreboard_text
from tablekeeper.games.the_game.simplayers import (
    Policy,
    SimTable,
    bench,
    play_dealt,
    play_engine,
)
from tablekeeper.journal import replay

RECORDED = Path(__file__).resolve().parents[2] / "data" / "the_game_demo.jsonl"


def test_the_recorded_demo_game_replays_to_its_outcome(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(RECORDED)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "the_game" and data["phase"] == "over"
    assert data["cards_played"] == 83 and data["cards_left"] == 15 and data["turn"] == 38
    assert [p["hand_count"] for p in data["players"]] == [5, 6, 4]
    assert data["outcome"]["reason"] == "cannot_play" and data["outcome"]["verdict"] == "loss"
    assert data["events"] == 122 and data["house_rule_plays"] == 0
    assert [r["top"] for r in data["rows"]] == [93, 79, 2, 10]


@pytest.mark.parametrize(("seed", "players", "variant"),
                         [(1, 1, "normal"), (2, 3, "normal"), (3, 5, "expert")])
def test_a_demo_without_the_camera_plays_a_whole_game_through_the_buttons(
        tmp_path: Path, seed: int, players: int, variant: str) -> None:
    parts = build_demo(tmp_path, seed=seed, players=players, variant=variant,
                       clock=FakeClock(), camera=False)
    parts.loop.run_simulated()
    state: tg.State = parts.loop.referee.state
    assert state.phase is tg.Phase.OVER
    assert replay(parts.journal_path) == state
    table = parts.table
    assert table.illegal_laid == 1 and parts.loop.referee.table.refusals >= 1  # type: ignore
    assert table.presses >= state.turn - 1  # every turn ended by a press (or the end)
    assert len(state.plays) + state.cards_left == 98
    assert not any(p.house_rule for p in state.plays)  # the illegal card was taken back
    assert "cards left" in scoreboard_text(state)
    parts.firmware.close()


def test_same_seed_same_game(tmp_path: Path) -> None:
    runs = []
    for i in range(2):
        parts = build_demo(tmp_path / str(i), seed=4, players=4, variant="normal",
                           clock=FakeClock(), camera=False)
        parts.loop.run_simulated()
        runs.append(parts.journal_path.read_text().splitlines()[1:])
        parts.firmware.close()
    assert runs[0] == runs[1]


@pytest.mark.slow
def test_the_headless_demo_plays_a_whole_game_through_the_camera(tmp_path: Path) -> None:
    assert main(["demo", "--game", "the-game", "--headless", "--out", str(tmp_path),
                 "--players", "2", "--seed", "3", "--size", "800x480"]) == 0
    state = replay(tmp_path / "game.jsonl")
    assert isinstance(state, tg.State) and state.phase is tg.Phase.OVER
    shots = sorted(p.name for p in (tmp_path / "screens").glob("*.png"))
    assert any(name.endswith("-play.png") for name in shots)
    assert shots[-1].endswith("-over.png")


@pytest.mark.parametrize("seed", range(12))
def test_the_fast_game_agrees_with_the_engine(seed: int) -> None:
    rng = random.Random(seed)
    players = 1 + seed % 5
    table = SimTable.generate(rng, players, "expert" if seed % 4 == 3 else "standard")
    state = play_engine(table)
    fast = play_dealt(table.hands, table.draw_pile, expert=table.variant == "expert",
                      start_seat=table.start_seat)
    assert state.cards_left == fast
    assert state.outcome is not None


def test_the_bench_counts_wins_and_prints_the_published_figures(
        capsys: pytest.CaptureFixture[str]) -> None:
    rows = bench(40, seed=2, policy=Policy())
    assert [r.players for r in rows] == [1, 2, 3, 4, 5]
    assert all(0 <= r.zero <= r.below_10 <= r.games == 40 for r in rows)
    assert main(["bench", "the-game", "--games", "20"]) == 0
    out = capsys.readouterr().out
    assert "31 %" in out and "65 %" in out and "49 %" in out and "63 %" in out
    assert len([line for line in out.splitlines() if line.strip()[:1].isdigit()]) == 5
