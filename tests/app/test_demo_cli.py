"""`tablekeeper demo --headless`: a whole game through the simulated camera, the real vision
pipeline, the arbiter on gpiozero mock pins, the engine, the journal and the screen."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from tablekeeper.cli import main
from tablekeeper.journal import replay


@pytest.mark.slow
def test_headless_demo_plays_a_game_writes_screens_and_a_replayable_journal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "demo"
    assert main(["demo", "--headless", "--out", str(out), "--seed", "2", "--players", "3",
                 "--variant", "easy", "--size", "800x480"]) == 0
    printed = capsys.readouterr().out
    summary = json.loads(printed.strip().splitlines()[-1])
    # every card went through the camera and the recognizer
    assert summary["cards_recognised"] >= 10
    assert summary["cards_recognised"] == summary["cards_revealed"]
    # issue 32: the bets and the checks' starts come from the camera, the passes from the seat
    # buttons; a token the camera has not read after 4 s is entered by the host (this table,
    # seed 2: the yellow token on its cream memory card, 2 of 22 bets -- still to be fixed)
    assert summary["bets"] > 0 and summary["bets_by_camera"] >= 0.9 * summary["bets"]
    assert summary["checks"] > 0 and summary["checks_by_camera"] >= 0.9 * summary["checks"]
    assert summary["host_presses_per_round"] < summary["host_presses_per_round_before"]
    state = replay(out / "game.jsonl")
    assert state.phase.value == "over"
    # the scoreboard printed is the journal's
    for player in state.players:
        assert f"{player.score:>3} 分" in printed and player.name in printed
    shots = sorted((out / "screens").glob("*.png"))
    kinds = {p.stem.split("-", 2)[2] for p in shots}
    assert {"viewing", "reveal", "buzz", "betting", "checking", "scoring", "over"} <= kinds
    assert pygame.image.load(str(shots[-1])).get_size() == (800, 480)


def test_screen_card_pictures_are_the_templates_as_rgb_read_on_use(tmp_path: Path) -> None:
    import numpy as np

    from tablekeeper.vision_link import item_cards, load_items_deck

    deck = load_items_deck(None)
    cards = item_cards(deck)
    assert len(cards) == 66
    picture = np.asarray(cards["i11"].image)
    assert picture.shape == (300, 200, 3) and picture.dtype == np.uint8
    assert np.array_equal(picture, deck.template("i11")[..., ::-1])
    assert np.asarray(cards["i11"].image, dtype=np.float32).dtype == np.float32


@pytest.mark.parametrize("speed", ["0", "-2", "50", "fast"])
def test_a_demo_pace_it_cannot_keep_is_refused_with_a_reason(
        speed: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["demo", "--speed", speed])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--speed" in err and ("times real time" in err or "expected a number" in err)
