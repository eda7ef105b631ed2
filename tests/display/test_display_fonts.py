"""Fonts: the Traditional Chinese face, the bundled subset, and the Latin fallback."""

from __future__ import annotations

import ast
import logging
from pathlib import Path

import pytest
from display_testing import book

from display.fonts import (
    BUNDLED_DIR,
    BUNDLED_FILES,
    SYSTEM_CJK_PATTERNS,
    TC_FAMILY,
    FontBook,
    face_names,
    tc_face_index,
)
from display.i18n import all_text


@pytest.fixture
def fonts() -> FontBook:
    return book()

SYSTEM_BOLD = SYSTEM_CJK_PATTERNS[0].format(weight="Bold")
ROOT = Path(__file__).resolve().parents[2]


def _extra_text() -> str:
    return (BUNDLED_DIR / "extra_text.txt").read_text(encoding="utf-8")


def _deck_names() -> str:
    """The demo decks' card and deck names: every string literal of vision/demo_decks.py."""
    source = ROOT / "vision" / "demo_decks.py"
    assert source.is_file(), "the demo decks moved: update this test and make_subset.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    names = [node.value for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    assert any("腳踏車" in n or "場景" in n for n in names)
    return "".join(names)


def test_deck_names_come_from_the_generator() -> None:
    from vision.demo_decks import ITEMS, SCENE_NAMES

    text = _deck_names()
    for zh, en in (*ITEMS, *SCENE_NAMES):
        assert zh in text and en in text


@pytest.mark.skipif(not Path(SYSTEM_BOLD).is_file(), reason="fonts-noto-cjk not installed")
def test_system_collection_gives_the_tc_face_not_the_japanese_one() -> None:
    names = face_names(SYSTEM_BOLD)
    assert names[0].startswith("Noto Sans CJK JP")  # why we must not take face 0
    index = tc_face_index(SYSTEM_BOLD)
    assert index is not None and index != 0
    assert names[index].startswith(TC_FAMILY)
    book = FontBook()
    assert book.faces["bold"].source == "system"
    assert book.faces["bold"].index == index
    assert book.font("bold", 40).name.startswith(TC_FAMILY)


def test_bundled_subset_is_the_tc_face_and_small() -> None:
    book = FontBook(system_patterns=())
    for weight, face in book.faces.items():
        assert face.source == "bundled", weight
        assert face.name.startswith(TC_FAMILY)
        assert book.font(weight, 30).name.startswith(TC_FAMILY)
    total = sum((BUNDLED_DIR / f).stat().st_size for f in BUNDLED_FILES.values())
    assert total < 1_000_000
    assert "SIL OPEN FONT LICENSE" in (BUNDLED_DIR / "OFL.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("weight", ["bold", "regular"])
def test_bundled_subset_covers_every_ui_string(weight: str) -> None:
    book = FontBook(system_patterns=())
    text = all_text() + _extra_text() + _deck_names()
    assert book.missing_glyphs(text, weight) == ""  # type: ignore[arg-type]


def test_a_character_outside_the_subset_is_reported() -> None:
    book = FontBook(system_patterns=())
    assert book.missing_glyphs("見鬱") == "鬱"


def test_no_cjk_font_falls_back_to_latin_with_one_log_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="display.fonts"):
        book = FontBook(system_patterns=(), bundled_dir=tmp_path)
    assert not book.cjk
    assert all(face.source == "fallback" for face in book.faces.values())
    assert len(caplog.records) == 1
    assert "fonts-noto-cjk" in caplog.records[0].getMessage()
    _surf, rect = book.font("bold", 20).render("Round 3", (255, 255, 255))
    assert rect.width > 20


def test_fonts_are_cached_by_face_and_size(fonts: FontBook) -> None:
    assert fonts.font("bold", 40) is fonts.font("bold", 40)
    assert fonts.font("bold", 40) is not fonts.font("bold", 41)
    assert fonts.font("bold", 40) is not fonts.font("regular", 40)
