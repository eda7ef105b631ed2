"""`tablekeeper demo --game G --from-scratch --headless --out DIR` for each of the four games:
a box with no deck; the simulated host goes through the set-up screens with the host buttons;
DIR then holds a deck with a template for every card of the game (three each), the config
naming it, the journal of a whole game played on that deck (it replays), and the screens of
the set-up and of the game; the closing JSON line has ``cards_enrolled``, ``deck``, the
set-up's figures and the recognition on the new deck against the demo deck's, same frames.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablekeeper import games
from tablekeeper.cli import main
from tablekeeper.config import load_config
from tablekeeper.journal import replay
from vision.deck import load_deck


@pytest.mark.slow
@pytest.mark.parametrize("game", games.names())
def test_from_scratch_sets_up_the_table_then_plays_on_its_deck(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str) -> None:
    out = tmp_path / "box"
    assert main(["demo", "--game", game, "--from-scratch", "--out", str(out),
                 "--size", "800x480"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    kit = games.load(game)
    deck = load_deck(out / "deck")
    assert set(deck.ids) == set(kit.deck(None).ids) and not deck.demo
    assert all(len(deck.templates_of(c)) == 3 for c in deck.ids)
    assert summary["cards_enrolled"] == len(deck.ids) and summary["deck"] == str(out / "deck")
    assert load_config(out / "config.toml").table.deck_for(game) == str(out / "deck")
    assert "written by `tablekeeper demo --from-scratch`" in (out / "config.toml").read_text(
        encoding="utf-8")  # (the config's own comment kept)
    assert kit.engine.is_over(replay(out / "game.jsonl"))  # a whole game, and it replays
    shots = sorted(p.stem.split("-", 2)[2] for p in (out / "screens").glob("*.png"))
    assert "tablesetup" in shots and len(set(shots)) > 3
    setup = summary["setup"]
    assert setup["shots"] >= 3 * len(deck.ids) and setup["presses"] <= 12
    rec = summary["recognition"]
    assert rec["set_up"]["cards"] == rec["demo"]["cards"] > 0
    assert rec["set_up"]["wrong"] == 0
    assert rec["set_up"]["right_pct"] >= rec["demo"]["right_pct"] - 10
