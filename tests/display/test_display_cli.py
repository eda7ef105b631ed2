"""``tablekeeper display shots`` and ``tablekeeper bench display`` run and report."""

from __future__ import annotations

from pathlib import Path

import display_testing  # noqa: F401  (headless SDL first)
import pytest

from display.samples import snapshots
from tablekeeper.cli import main


def test_shots_writes_the_screens_in_both_languages(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["display", "shots", str(tmp_path), "--size", "320x200", "--only", "buzz",
                 "--only", "over"]) == 0
    files = sorted(p.name for p in tmp_path.glob("*.png"))
    wanted = [n for n, _ in snapshots() if "buzz" in n or "over" in n]
    assert len(files) == 2 * len(wanted) == 12
    assert "320x200-en-buzz-tie.png" in files and "320x200-zh-TW-over.png" in files
    assert f"{len(files)} PNG files" in capsys.readouterr().out


def test_shots_rejects_a_bad_size(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="expected WxH"):
        main(["display", "shots", str(tmp_path), "--size", "big"])
    with pytest.raises(SystemExit, match="too small"):
        main(["display", "shots", str(tmp_path), "--size", "10x10"])
    assert not list(tmp_path.iterdir())


def test_bench_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "display", "--repeat", "1", "--idle-seconds", "0.2",
                 "--size", "320x200", "--no-demo-game"]) == 0
    out = capsys.readouterr().out
    assert "slowest 320x200 render-loop frame" in out
    assert "idle scoreboard:" in out and "1 frames drawn" in out
    assert "peak RSS:" in out
    assert "betting-seven-full" in out


@pytest.mark.slow
def test_demo_game_memory_is_read_from_the_game_in_its_own_process() -> None:
    from display.cli import demo_game_memory

    game = demo_game_memory(("--seed", "3", "--players", "3", "--variant", "easy",
                             "--size", "640x400", "--no-camera"))
    assert 20 < game.peak_rss_mb < 1000
    assert game.cards_laid > 0 and game.cards_recognised == game.cards_laid
    assert game.camera_frames == 0


def test_a_demo_game_that_fails_is_reported() -> None:
    from display.cli import demo_game_memory

    with pytest.raises(RuntimeError, match=r"the demo game failed \(exit 2\): .*players"):
        demo_game_memory(("--players", "99"))
