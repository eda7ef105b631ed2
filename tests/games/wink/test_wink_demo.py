"""眨眨眼's demo: whole games through the referee, the arbiter on mock pins and the journal
(without the camera: fast), one with the simulated camera (slow), and the recorded game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.wink import Phase, PlacementKind
from tablekeeper.cli import main
from tablekeeper.clock import FakeClock
from tablekeeper.games.wink.demo import build_demo, scoreboard_text
from tablekeeper.journal import replay

RECORDED = Path(__file__).resolve().parents[2] / "data" / "wink_demo.jsonl"


@pytest.mark.parametrize(("seed", "players"), [(1, 3), (2, 6), (3, 8)])
def test_simulated_game_finishes_and_replays(tmp_path: Path, seed: int, players: int) -> None:
    parts = build_demo(tmp_path, seed=seed, players=players, variant="basic_deal",
                       clock=FakeClock(), camera=False)
    try:
        parts.loop.run_simulated()
        state = parts.loop.referee.state
        assert state.phase is Phase.OVER and state.outcome is not None
        assert state.outcome.winners
        assert replay(parts.journal_path) == state
        # the accusation races went through the seat buttons and the arbiter
        assert parts.table.presses > 0 and any(not a.card_spent or a.margin_us >= 0
                                               for a in state.accusations)
        assert "★" in scoreboard_text(state)
    finally:
        parts.firmware.close()


@pytest.mark.slow
def test_demo_with_the_simulated_camera(tmp_path: Path) -> None:
    """The camera lays the grid and sees the markers come down; a game plays a while."""
    parts = build_demo(tmp_path, seed=4, players=4, variant="basic_deal", clock=FakeClock())
    try:
        parts.loop.run_simulated(until=lambda loop: loop.referee.state.turn >= 6)
        state = parts.loop.referee.state
        assert state.grid and state.turn >= 6
        by_camera = [p for p in state.placements if p.kind is PlacementKind.CAMERA]
        assert len(by_camera) >= 4
        assert replay(parts.journal_path) == state
    finally:
        parts.firmware.close()
        if parts.loop.cards is not None:
            parts.loop.cards.close()


def test_the_recorded_game_replays_to_its_outcome(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(RECORDED)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "wink" and data["phase"] == "over"
    outcome = data["outcome"]
    assert outcome is not None
    assert outcome == EXPECTED_OUTCOME


#: The recorded demo game (``tablekeeper demo --game wink --headless``, seed 1, 5 players):
#: two players tie on 12 points and on accusation cards; fewer hand cards decides.
EXPECTED_OUTCOME: dict[str, object] = {
    "reason": "hands_empty", "winners": ["美玲 Mei-Ling"], "winner_seats": [2],
    "scores": [12, 10, 12, 10, 11], "decided_by": "hand_cards"}
