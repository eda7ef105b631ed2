"""The zones step names a zone as the host reads it, never by its config id (``row2``)."""

from __future__ import annotations

import pytest

from display.i18n import tr
from display.tablesetup.zones import zone_label


@pytest.mark.parametrize(("name", "zh", "en"), [
    ("row2", "第 2 排", "row 2"),
    ("r1c6", "第 1 排第 6 張", "row 1, card 6"),
    ("scene3", "場景牌 3", "scene 3"),
    ("memory5", "回憶卡 5", "memory card 5"),
    ("pile", "牌堆", "the pile"),
    ("centre", "遊戲區", "the play area"),
    ("by the window", "by the window", "by the window"),  # the host's own name, as it is
])
def test_a_zone_is_named_in_the_hosts_words(name: str, zh: str, en: str) -> None:
    assert zone_label(lambda key, **kw: tr(key, "zh-TW", **kw), name) == zh
    assert zone_label(lambda key, **kw: tr(key, "en", **kw), name) == en
