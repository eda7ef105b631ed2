"""`tablekeeper vision sim-frames` and `tablekeeper bench sim`."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from tablekeeper.cli import main


def test_sim_frames_writes_frames_and_truth(tmp_path: Path, demo_deck_cache: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "frames"
    assert main(["vision", "sim-frames", str(out), "--deck", "wink", "--frames", "4",
                 "--cards", "3", "--seed", "2", "--surface", "light",
                 "--cache", str(demo_deck_cache)]) == 0
    assert "4 frames of 3 Wink" in capsys.readouterr().out
    truth = json.loads((out / "truth.json").read_text(encoding="utf-8"))
    assert truth["deck"] == "demo-wink" and "surface='light'" in truth["conditions"]
    assert [f["file"] for f in truth["frames"]] == [f"frame-{i:04d}.png" for i in range(4)]
    for f in truth["frames"]:
        image = cv2.imread(str(out / f["file"]))
        assert image is not None and image.shape == (480, 640, 3)
        assert len(f["cards"]) == 3
        assert all(len(c["corners"]) == 4 and c["in_deck"] for c in f["cards"])


@pytest.mark.parametrize(("args", "message"), [
    (["--deck", "chess"], "unknown demo deck: chess"),
    (["--frames", "0"], "--frames must be 1-10000"),
])
def test_sim_frames_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  args: list[str], message: str) -> None:
    assert main(["vision", "sim-frames", str(tmp_path / "x"), *args]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_bench_sim_prints_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "sim", "--frames", "1"]) == 0
    out = capsys.readouterr().out
    for label in ("draw the-game demo deck", "empty table", "8 cards, static",
                  "8 cards, hand passing", "a card played every frame"):
        assert label in out
    assert "ms/frame" in out
