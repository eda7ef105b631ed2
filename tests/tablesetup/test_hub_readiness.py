"""The hub says a game is playable when the simulated table's demo deck stands in (the demo),
and not ready when a real camera has no deck or zones (never the demo deck silently)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper import games
from tablekeeper.config import Config
from tablekeeper.tablesetup.area import SetupArea
from tablekeeper.tablesetup.step import StepContext


@pytest.mark.parametrize("simulated", [True, False])
def test_the_hub_says_ready_only_where_the_simulated_table_stands_in(
        tmp_path: Path, simulated: bool) -> None:
    kit = games.load("the-game")

    def context_for(k: object) -> StepContext:
        return StepContext(kit.name, kit, Config(), None, tmp_path / "deck",
                           simulated=simulated, state_dir=tmp_path)

    game = SetupArea([kit], context_for, game="the-game").view().game
    assert game.first_missing() == "cards"  # nothing set up: the main choice still teaches
    assert game.stands_in is simulated
