"""A whole simulated game through the referee, the arbiter on mock pins and the journal."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.something_missing import Phase, outcome
from tablekeeper.clock import FakeClock
from tablekeeper.games.something_missing.demo import build_demo, scoreboard
from tablekeeper.journal import replay


@pytest.mark.parametrize(("seed", "players", "variant"),
                         [(1, 3, "easy"), (2, 5, "standard"), (3, 7, "advanced")])
def test_simulated_game_finishes_and_replays(tmp_path: Path, seed: int, players: int,
                                             variant: str) -> None:
    parts = build_demo(tmp_path, seed=seed, players=players, variant=variant, clock=FakeClock(),
                       camera=False)
    parts.loop.run_simulated()
    state = parts.loop.referee.state
    assert state.phase is Phase.OVER
    result = outcome(state)
    assert result is not None and result.winners
    assert replay(parts.journal_path) == state
    assert parts.table.presses > 0
    assert "★" in scoreboard(parts)
    parts.firmware.close()


def test_same_seed_same_game(tmp_path: Path) -> None:
    runs = []
    for i in range(2):
        parts = build_demo(tmp_path / str(i), seed=11, players=4, variant="standard",
                           clock=FakeClock(), camera=False)
        parts.loop.run_simulated()
        runs.append(parts.journal_path.read_text().splitlines()[1:])
        parts.firmware.close()
    assert runs[0] == runs[1]
