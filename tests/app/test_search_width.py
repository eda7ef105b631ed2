"""A game whose table area is big searches frames wider (issue 31, hardware.md section 3):
Wink's 6x6 grid at 640 px gives cards under the Wink deck's floor (``bench pixels``)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tablekeeper import games
from tablekeeper.vision_link import with_search_width
from vision.config import VisionConfig


def test_the_kit_widens_the_search_unless_the_config_says_otherwise() -> None:
    base = VisionConfig()
    assert base.find.work_width == 640
    wink = games.load("wink")
    assert wink.search_width == 1280
    assert with_search_width(base, {}, wink.search_width, 1280).find.work_width == 1280
    # never wider than the frame, never narrower than the default
    assert with_search_width(base, {}, 1280, 1024).find.work_width == 1024
    assert with_search_width(base, {}, 320, 1280).find.work_width == 640
    # the config's own [vision.find] work_width wins
    mine = VisionConfig.from_dict({"find": {"work_width": 800}})
    assert with_search_width(mine, {"find": {"work_width": 800}}, 1280,
                             1280).find.work_width == 800
    # a game without a search width keeps the config's
    assert with_search_width(base, {}, games.load("the-game").search_width,
                             1280).find.work_width == 640


def test_the_kiosk_pipeline_logs_a_real_camera_on_a_demo_deck_and_searches_at_the_games_width(
        caplog: pytest.LogCaptureFixture, tmp_path: Path) -> None:
    from tablekeeper.clock import FakeClock
    from tablekeeper.config import Config
    from tablekeeper.vision_link import camera_pipeline

    wink = games.load("wink")
    # a real camera source (an OpenCV device that is not there: it keeps retrying, quietly)
    config = Config(sections={"camera": {"source": "opencv",
                                         "device": str(tmp_path / "no-camera.mp4")}})
    with caplog.at_level(logging.WARNING, logger="tablekeeper.vision"):
        source, _deck = camera_pipeline(config, FakeClock(), deck=wink.deck(None),
                                       zones=None, search_width=wink.search_width)
    source.close()
    warned = [r.getMessage() for r in caplog.records if "demo deck" in r.getMessage()]
    assert warned and "[table.decks] wink" in warned[0]
    assert source.watcher.finder.params.work_width == 1280
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="tablekeeper.vision"):
        source, _ = camera_pipeline(config, FakeClock(), simulate=True, deck=wink.deck(None),
                                    zones=None)
    source.close()
    assert not [r for r in caplog.records if "demo deck" in r.getMessage()]
