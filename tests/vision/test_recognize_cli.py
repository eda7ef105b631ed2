"""`tablekeeper vision recognize / enroll / calibrate` end to end on files."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablekeeper.cli import main
from vision.config import VisionConfig
from vision.deck import Deck
from vision.demo_decks import write_demo_deck
from vision.simtable import Conditions, Pose, SimulatedTable

DemoDecks = Callable[[str], Deck]


@pytest.fixture(scope="module")
def wink_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("decks") / "wink"
    write_demo_deck("wink", out)
    return out


def _save(path: Path, image: np.ndarray) -> Path:
    ok, buf = cv2.imencode(path.suffix, image)
    assert ok
    path.write_bytes(buf.tobytes())
    return path


def test_recognize_prints_a_json_line_per_image(
        tmp_path: Path, wink_dir: Path, demo_decks: DemoDecks,
        capsys: pytest.CaptureFixture[str]) -> None:
    table = SimulatedTable(demo_decks("wink"), seed=2, conditions=Conditions.clean("wood"))
    table.place("w12", Pose(200, 240, angle=30, width=130))
    table.place_foreign(Pose(460, 240, angle=-10, width=130))
    good = _save(tmp_path / "table.jpg", table.capture().image)
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"not an image at all")
    empty = _save(tmp_path / "empty.png", np.full((480, 640, 3), 60, np.uint8))
    code = main(["vision", "recognize", "--deck", str(wink_dir), str(good), str(broken),
                 str(tmp_path / "missing.png"), str(empty)])
    out, err = capsys.readouterr()
    assert code == 1
    lines = [json.loads(x) for x in out.splitlines()]
    assert [x["image"] for x in lines] == [str(good), str(broken), str(tmp_path / "missing.png"),
                                           str(empty)]
    cards = sorted(lines[0]["cards"], key=lambda c: c["corners"][0][0])
    assert [c["id"] for c in cards] == ["w12", None]
    assert cards[0]["score"] > 0.7 and cards[0]["margin"] > 0
    assert len(cards[0]["corners"]) == 4 and all(len(p) == 2 for p in cards[0]["corners"])
    assert "error" in lines[1] and "not a readable image" in lines[1]["error"]
    assert "error" in lines[2]
    assert lines[3] == {"image": str(empty), "cards": []}
    assert "broken.png" in err and "missing.png" in err


def test_recognize_with_a_bad_deck_or_config(tmp_path: Path, wink_dir: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "deck").mkdir()
    assert main(["vision", "recognize", "--deck", str(tmp_path / "deck"), "x.png"]) == 2
    assert "is empty" in capsys.readouterr().err
    cfg = tmp_path / "tk.toml"
    cfg.write_text("[vision]\nstable_frames = 0\n")
    assert main(["vision", "recognize", "--deck", str(wink_dir), "--config", str(cfg),
                 "x.png"]) == 2
    assert "vision.stable_frames" in capsys.readouterr().err


def test_enroll_command(tmp_path: Path, demo_decks: DemoDecks,
                        capsys: pytest.CaptureFixture[str]) -> None:
    wink = demo_decks("wink")
    src = tmp_path / "photos"
    src.mkdir()
    for k, cid in enumerate(("w01", "w02")):
        table = SimulatedTable(wink, seed=30 + k, conditions=Conditions.clean("cloth"))
        table.place(cid, Pose(320, 240, angle=-20 + 30 * k, width=160))
        _save(src / f"{cid}.jpg", table.capture().image)
    (src / "w03.jpg").write_bytes(b"garbage")
    code = main(["vision", "enroll", "--deck", str(tmp_path / "mine"), "--from-images",
                 str(src), "--game", "wink", "--id", "my-wink"])
    out = capsys.readouterr().out
    assert code == 1  # one image skipped
    assert "enrolled 2, skipped 1" in out and "w03" in out
    assert (tmp_path / "mine" / "manifest.json").is_file()
    code = main(["vision", "enroll", "--deck", str(tmp_path / "nothing"), "--from-images",
                 str(src)])
    assert code == 2 and "no manifest.json" in capsys.readouterr().err


def test_calibrate_rows_and_grid(tmp_path: Path, wink_dir: Path, demo_decks: DemoDecks,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    table = SimulatedTable(demo_decks("wink"), seed=3, conditions=Conditions.clean("dark"))
    for k in range(4):
        table.place(f"w0{k + 1}", Pose(110 + 140 * k, 240, angle=0, width=100))
    frame = _save(tmp_path / "rows.png", table.capture().image)
    out_file = tmp_path / "zones.toml"
    # The frame must be the camera's [camera] size (default 1280x960): zones are its pixels.
    assert main(["vision", "calibrate", "--deck", str(wink_dir), "--image", str(frame),
                 "--layout", "rows:4", "--out", str(out_file)]) == 2
    err = capsys.readouterr().err
    assert "is 640x480, but the camera ([camera] size) gives 1280x960" in err
    assert "--save-frame" in err and not out_file.exists()
    config = tmp_path / "config.toml"
    config.write_text("[camera]\nsize = [640, 480]\n")
    assert main(["vision", "calibrate", "--deck", str(wink_dir), "--image", str(frame),
                 "--layout", "rows:4", "--out", str(out_file), "--config", str(config)]) == 0
    out = capsys.readouterr().out
    import tomllib

    zones = VisionConfig.from_dict(tomllib.loads(out)["vision"]).zones
    assert [z.name for z in zones] == ["row1", "row2", "row3", "row4"]
    assert zones[0].contains(110, 240) and zones[3].contains(530, 240)
    assert out_file.read_text() == out
    # the 4 corner cards of a 6x6 grid
    assert main(["vision", "calibrate", "--deck", str(wink_dir), "--image", str(frame),
                 "--layout", "grid:2x2", "--config", str(config)]) == 0
    grid = VisionConfig.from_dict(tomllib.loads(capsys.readouterr().out)["vision"]).zones
    assert len(grid) == 4
    assert main(["vision", "calibrate", "--deck", str(wink_dir), "--image", str(frame),
                 "--layout", "pile", "--config", str(config)]) == 2
    assert "exactly 1 card" in capsys.readouterr().err
    assert main(["vision", "calibrate", "--deck", str(wink_dir), "--image", str(frame),
                 "--layout", "circle", "--config", str(config)]) == 2
    assert "is not one of" in capsys.readouterr().err


def test_recognize_explain_says_which_gate_rejected_each_card(
        tmp_path: Path, wink_dir: Path, demo_decks: DemoDecks,
        capsys: pytest.CaptureFixture[str]) -> None:
    table = SimulatedTable(demo_decks("wink"), seed=2, conditions=Conditions.clean("wood"))
    table.place("w12", Pose(200, 240, angle=30, width=130))
    table.place_foreign(Pose(460, 240, angle=-10, width=130))
    good = _save(tmp_path / "table.jpg", table.capture().image)
    code = main(["vision", "recognize", "--explain", "--deck", str(wink_dir), str(good)])
    out, _ = capsys.readouterr()
    assert code == 0
    (line,) = [json.loads(x) for x in out.splitlines()]
    named, foreign = sorted(line["cards"], key=lambda c: c["corners"][0][0])
    assert named["id"] == "w12" and named["why"]["rejected_by"] is None
    assert named["why"]["found"] == "outline" and named["why"]["best"] == "w12"
    assert named["why"]["score"] >= named["why"]["min_score"]
    why = foreign["why"]
    assert foreign["id"] is None and why["rejected_by"] in (
        "min_score", "margin", "twin", "colour", "aligned", "straight", "aligned_floor")
    # The gate named is one the card's own values fail.
    if why["rejected_by"] == "min_score":
        assert why["score"] < why["min_score"]
    elif why["rejected_by"] == "aligned":
        assert why["aligned"] is None or why["aligned"] < why["min_aligned"]
    assert line["gates"] == {"named": 1, why["rejected_by"]: 1}
    # Every found card carries its best 3 cards, best first (issue 37): the named card's
    # own first; the card from no deck, unknown, still has 3 to offer the host.
    for card in (named, foreign):
        scores = [c["score"] for c in card["candidates"]]
        assert len(scores) == 3 and scores == sorted(scores, reverse=True)
        assert all(isinstance(c["id"], str) and c["id"] for c in card["candidates"])
    assert named["candidates"][0]["id"] == "w12"
    assert foreign["candidates"][0]["id"] == why["best"]
