"""The translation table: complete, consistent, and covering every key the screens use."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import display_testing  # noqa: F401  (headless SDL first)
import pytest

from display.colours import COLOUR_KEYS
from display.games import displays
from display.i18n import LANGS, STRINGS, next_lang, placeholders, tr
from display.setup import VARIANTS

DISPLAY = Path(__file__).resolve().parents[2] / "display"

displays()  # each game's display part adds its own strings when imported


def test_every_key_has_every_language() -> None:
    for key, entry in STRINGS.items():
        for lang in LANGS:
            assert entry.get(lang, "").strip(), f"{key} has no {lang} text"


def test_placeholders_match_between_languages() -> None:
    for key, entry in STRINGS.items():
        sets = {lang: placeholders(entry[lang]) for lang in LANGS}
        assert len({frozenset(s) for s in sets.values()}) == 1, f"{key}: {sets}"


def _used_keys() -> set[str]:
    from display.games import displays

    displays()  # every game's display part registers its own strings when imported
    keys: set[str] = set()
    pattern = re.compile(r"""\btr\(\s*["']([\w.]+)["']""")
    for path in DISPLAY.rglob("*.py"):
        keys.update(pattern.findall(path.read_text(encoding="utf-8")))
    keys.update(f"colour.{c}" for c in COLOUR_KEYS)
    keys.update(f"variant.{v}" for v in VARIANTS)
    return keys


def test_every_key_the_code_uses_is_in_the_table() -> None:
    used = _used_keys()
    assert len(used) > 50  # the scan found the screens' keys
    missing = sorted(k for k in used if k not in STRINGS)
    assert not missing, f"keys used but not translated: {missing}"


def test_chinese_text_is_chinese() -> None:
    han = re.compile(r"[\u4e00-\u9fff]")
    latin_ok = {"lang.name", "btn.lang"}  # the switch shows the *other* language's name
    for key, entry in STRINGS.items():
        if key in latin_ok:
            continue
        assert han.search(entry["zh-TW"]) or not re.search(r"[A-Za-z]{3}", entry["zh-TW"]), key


def test_missing_key_shows_the_key_and_logs_once(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR):
        assert tr("no.such.key", "en") == "〈no.such.key〉"
        assert tr("no.such.key", "zh-TW") == "〈no.such.key〉"
    assert sum("no.such.key" in r.message for r in caplog.records) == 1


def test_bad_parameters_do_not_raise(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR):
        assert tr("round", "en", m=3) == "Round {n}"
    assert "round" in caplog.text


def test_unknown_language_falls_back_to_chinese() -> None:
    assert tr("btn.undo", "fr") == STRINGS["btn.undo"]["zh-TW"]


def test_language_switch_cycles() -> None:
    assert next_lang("zh-TW") == "en"
    assert next_lang("en") == "zh-TW"
    assert next_lang("xx") == "zh-TW"
    assert tr("round", "zh-TW", n=3) == "第 3 回合"
    assert tr("round", "en", n=3) == "Round 3"


def test_a_game_adds_its_own_strings() -> None:
    from display import i18n

    i18n.add_strings({"test.only": {"zh-TW": "第 {n} 列", "en": "Row {n}"}})
    try:
        assert i18n.tr("test.only", "en", n=3) == "Row 3"
        i18n.add_strings({"test.only": {"zh-TW": "第 {n} 列", "en": "Row {n}"}})  # the same
        with pytest.raises(ValueError, match="another meaning"):
            i18n.add_strings({"test.only": {"zh-TW": "列", "en": "Row"}})
        with pytest.raises(ValueError, match="no text in en"):
            i18n.add_strings({"test.other": {"zh-TW": "列"}})
        with pytest.raises(ValueError, match="placeholders"):
            i18n.add_strings({"test.other": {"zh-TW": "第 {n} 列", "en": "Row"}})
    finally:
        i18n.STRINGS.pop("test.only", None)


def test_one_is_singular_in_english() -> None:
    assert tr("points", "en", n=1) == "1 pt" and tr("points", "en", n=2) == "2 pts"
    assert tr("points", "zh-TW", n=1) == "1 分"
    assert tr("cards_left", "en", n=1) == "1 card"
    for key, entry in STRINGS.items():
        for form in [k for k in entry if ":" in k]:
            lang = form.split(":")[0]
            assert lang in LANGS, (key, form)
            assert placeholders(entry[form]) == placeholders(entry[lang]), (key, form)
