"""A game whose table area is big searches frames wider (issue 31, hardware.md section 3):
Wink's 6x6 grid at 640 px gives cards under the Wink deck's floor (``bench pixels``)."""

from __future__ import annotations

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
