"""The Game's undo takes back the last play or turn's end, not everything since the deal."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core import Rejection
from engine.the_game import CardPlayed, NewGame, State, TurnEnded
from tablekeeper.journal import JournaledGame, JournalError, read, replay


def _game(tmp_path: Path) -> JournaledGame:
    game = JournaledGame.create(tmp_path / "g.jsonl", game="the_game")
    for event in (NewGame(at_ms=0, names=("A", "B"), colours=("red", "blue")),
                  CardPlayed(at_ms=1_000, row=0, card=5),
                  CardPlayed(at_ms=2_000, row=2, card=90),
                  TurnEnded(at_ms=3_000, seat=0)):
        assert isinstance(game.submit(event), State), event
    return game


def test_undo_takes_back_the_last_turn_end_then_the_last_play(tmp_path: Path) -> None:
    game = _game(tmp_path)
    tops = [r.top for r in game.state.rows]
    state = game.undo()  # the turn's end (a seat button)
    assert isinstance(state, State) and state.to_act == 0 and state.played_this_turn == 2
    state = game.undo()  # the 90 on the descending row (the camera's)
    assert isinstance(state, State) and state.rows[2].top != 90 and state.rows[0].top == 5
    assert [r.top for r in state.rows] != tops
    assert replay(read(game.journal.path)) == state
    state = game.undo()
    state = game.undo()  # the deal itself, last
    assert isinstance(state, State) and not state.players
    assert isinstance(game.undo(), Rejection)


def test_a_journal_undoing_a_play_replays_and_a_clock_line_is_still_refused(
        tmp_path: Path) -> None:
    game = _game(tmp_path)
    game.undo()
    game.undo()
    again = JournaledGame.open(game.journal.path)
    assert again.state == game.state
    with pytest.raises(ValueError, match="not the last undoable event"):
        game.journal.append_undo(1)
    with pytest.raises(JournalError, match="not in force"):
        with open(game.journal.path, "a", encoding="utf-8") as f:
            from tablekeeper.journal import line_of

            f.write(line_of({"seq": 7, "undo": 4}, 2).decode() + "\n")
        read(game.journal.path)
