"""注音 input through libchewing: the syllable rules, the candidates, and the name screen.

The candidate tests need libchewing (``apt-get install libchewing3 libchewing3-data``; .ci/run
installs it); without it they skip, saying so, and the fallback (Latin keyboard and a message)
is tested with the library hidden.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pygame
import pytest
from display_testing import SIZES, book
from system_needs import requires_system

from display import zhuyin
from display.input import HostAction, focus_order
from display.model import PlayerInfo, Snapshot
from display.renderer import Renderer
from display.setup import SetupForm

needs_chewing = requires_system(
    "libchewing3-data" if "dictionary" in zhuyin.why_unavailable() else "libchewing3",
    zhuyin.available(), f"the 注音 name input ({zhuyin.why_unavailable()})")


def test_a_syllable_keeps_one_symbol_per_place_and_ends_with_its_tone() -> None:
    s = ""
    for sym in "ㄓㄨ":
        s = zhuyin.add(s, sym)
    assert s == "ㄓㄨ" and not zhuyin.complete(s)
    assert zhuyin.add(s, "ㄔ") == "ㄔㄨ"  # a second initial replaces the first
    assert zhuyin.add("ㄨ", "ㄓ") == "ㄓㄨ"  # kept in spelling order
    s = zhuyin.add(s, "ˇ")
    assert s == "ㄓㄨˇ" and zhuyin.complete(s)
    assert zhuyin.add(s, "ㄇ") == "ㄇ"  # after the tone: a new syllable
    assert zhuyin.add("", "ˋ") == ""  # a tone alone is nothing
    assert zhuyin.add("ㄇ", "x") == "ㄇ"  # not a symbol


def test_the_keyboards_have_every_symbol_and_tone_once() -> None:
    syms = [sym for row in zhuyin.DACHEN_ROWS for sym, _ in row]
    assert len(syms) == len(set(syms)) == 37 + 4
    assert set(zhuyin.INITIALS + zhuyin.MEDIALS + zhuyin.FINALS) <= set(syms)
    screen = "".join(zhuyin.SCREEN_ROWS)
    assert len(screen) == len(set(screen)) == 37 + 5
    assert screen == zhuyin.INITIALS + zhuyin.MEDIALS + zhuyin.FINALS + "ˉˊˇˋ˙"
    assert [zhuyin.next_place(s) for s in "ㄇㄧㄥˊ"] == ["ㄧ", "ㄚ", "ˉ", "ㄅ"]


@needs_chewing
def test_libchewing_offers_the_characters_of_a_syllable() -> None:
    assert zhuyin.candidates("ㄇㄟˇ")[0] == "美"
    assert "玲" in zhuyin.candidates("ㄌㄧㄥˊ")[:5]
    assert zhuyin.candidates("ㄓㄤ" + zhuyin.FIRST_TONE)[0] == "張"
    assert zhuyin.candidates("ㄓㄤ") == ()  # no tone yet
    assert zhuyin.candidates("ㄅㄦˋ") == ()  # not a syllable of Mandarin
    # the same list every time: nothing is learnt from what is picked
    assert zhuyin.candidates("ㄇㄟˇ") == zhuyin.candidates.__wrapped__("ㄇㄟˇ")


@needs_chewing
def test_a_chinese_name_is_spelt_on_the_form() -> None:
    form = SetupForm(players=(PlayerInfo("", "red"),) * 1 + (PlayerInfo("", "blue"),
                                                               PlayerInfo("", "green")), focus=0)
    for sym in "ㄇㄟˇ":
        form = form.apply(HostAction("setup.zhuyin", sym))
    assert form.syllable == "ㄇㄟˇ"
    form = form.apply(HostAction("setup.cand", zhuyin.candidates(form.syllable)[0]))
    assert form.players[0].name == "美" and form.syllable == ""
    form = form.apply(HostAction("setup.zhuyin", "ㄌ"))
    form = form.apply(HostAction("erase"))  # erases the symbol, not the character
    assert form.syllable == "" and form.players[0].name == "美"
    form = form.apply(HostAction("erase"))
    assert form.players[0].name == ""
    form = form.apply(HostAction("setup.done"))
    assert form.focus is None


@needs_chewing
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_name_screen_shows_the_candidates_as_buttons(size: tuple[int, int]) -> None:
    form = SetupForm(players=(PlayerInfo("王", "red"), PlayerInfo("", "blue"),
                              PlayerInfo("", "green")), focus=0, syllable="ㄇㄟˇ")
    renderer = Renderer(pygame.Surface(size), fonts=book(), strict=True)
    renderer.render(Snapshot(state=None, setup=form))
    actions = [b.action for b in renderer.buttons]
    walk = [b.action for b in focus_order(renderer.buttons)]
    assert walk[0] == HostAction("setup.cand", "美")  # first, for the host buttons
    assert HostAction("setup.zhuyin", "ㄅ") in actions
    # ㄌㄧˋ: more than a page of characters the font can draw
    form = SetupForm(players=form.players, focus=0, syllable="ㄌㄧˋ")
    renderer.render(Snapshot(state=None, setup=form))
    first = next(b.action for b in focus_order(renderer.buttons))
    assert any(b.action.name == "setup.page" for b in renderer.buttons)
    page2 = Renderer(pygame.Surface(size), fonts=book(), strict=True)
    page2.render(Snapshot(state=None, setup=form.apply(HostAction("setup.page", 1))))
    assert first not in [b.action for b in page2.buttons]


def test_without_libchewing_the_latin_keyboard_stays_and_says_why(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLEKEEPER_NO_CHEWING", "1")
    zhuyin._engine.cache_clear()
    zhuyin.candidates.cache_clear()
    try:
        assert not zhuyin.available() and zhuyin.why_unavailable()
        form = SetupForm(players=(PlayerInfo("", "red"), PlayerInfo("", "blue"),
                                  PlayerInfo("", "green")), focus=0)
        for lang, words in (("zh-TW", "這台機器沒有注音輸入，只能打英文字母"),
                            ("en", "No 注音 input on this box: Latin letters only")):
            renderer = Renderer(pygame.Surface((800, 480)), fonts=book(), strict=True)
            renderer.render(Snapshot(state=None, setup=form, lang=lang))
            assert words in [t.text for t in renderer.texts]
            actions = [b.action for b in renderer.buttons]
            assert HostAction("setup.key", "Q") in actions
            assert not any(a.name in ("setup.zhuyin", "setup.keyboard") for a in actions)
    finally:
        zhuyin._engine.cache_clear()
        zhuyin.candidates.cache_clear()


@needs_chewing
def test_only_what_mandarin_has_is_offered_next() -> None:
    """After a symbol, the name keyboard offers only what can follow it in a syllable
    libchewing has characters for (after ㄇ: never ㄩ), and after the whole sound only the
    tones it has (ㄇㄟ has no first tone)."""
    assert "ㄩ" not in zhuyin.nexts("ㄇ") and "ㄟ" in zhuyin.nexts("ㄇ")
    for sym in zhuyin.nexts("ㄇ"):
        sound = "ㄇ" + sym
        assert any(zhuyin.candidates(sound + rest + tone)
                   for rest in zhuyin.rests(sound) for tone in zhuyin.tones(sound + rest))
    assert zhuyin.FIRST_TONE not in zhuyin.tones("ㄇㄟ") and "ˇ" in zhuyin.tones("ㄇㄟ")
    assert not zhuyin.can_follow("ㄇ", "ㄩ") and zhuyin.can_follow("ㄇ", "ㄧ")
    # "" where the sound is whole already: ㄓ (知) takes its tone next
    assert "" in zhuyin.nexts("ㄓ")


@needs_chewing
@pytest.mark.parametrize("content", [b"\x00" * 7, b"\x00\x00" + b"\xff" * 6, b""])
def test_a_phrase_tree_of_another_format_falls_back_to_counting(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes) -> None:
    """libchewing's phrase frequencies come from 0.5's ``index_tree.dat``; a file of another
    shape (truncated, a range past its end, empty: as libchewing 0.6's data would be to this
    reader) gives none, and the keyboard orders by the characters in everyday use instead."""
    real = zhuyin.phrase_counts()  # (the installed dictionary's, cached)
    if any((Path(d) / "index_tree.dat").exists() for d in zhuyin.DATA_DIRS):  # 0.5's
        assert real["ㄕˋ"] > real["ㄇㄟˇ"] > 0  # (是 is said more than 美)
    (tmp_path / "index_tree.dat").write_bytes(content)
    monkeypatch.setattr(zhuyin, "DATA_DIRS", (str(tmp_path),))
    assert zhuyin.phrase_counts.__wrapped__() == {}


# --- the characters of names first -------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]


def _name_tool() -> ModuleType:
    import importlib.util

    spec = importlib.util.spec_from_file_location("name_chars", ROOT / "tools" / "name_chars.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_name_list_is_the_tools_with_the_measured_names_left_out() -> None:
    tool = _name_tool()
    left_out = tool.measured()
    # the names tests/app/test_entry_presses.py measures, read from it
    assert {"美玲", "雅婷", "品妤", "柏宇"} <= left_out and len(left_out) == 43
    assert Path(zhuyin.NAME_CHARS).read_text(encoding="utf-8") == tool.render(left_out), (
        "display/name_chars.txt differs from what tools/name_chars.py makes: run it")
    # left out for real: 婷 counts only the source's names that are not measured
    names = [*tool.MEN, *tool.WOMEN]
    assert zhuyin.name_weights()["婷"] == sum("婷" in n for n in names if n not in left_out) \
        < sum("婷" in n for n in names)


def test_a_bad_line_in_the_name_list_is_skipped_and_said(tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    bad = tmp_path / "name_chars.txt"
    bad.write_text("# header\n婷 4\n美玲 3\n秀 many\n\n宏 2\n", encoding="utf-8")
    assert zhuyin.name_weights(str(bad)) == {"婷": 4, "宏": 2}
    assert "line 3" in caplog.text and "line 4" in caplog.text
    bad.write_bytes(b"\xff\xfe\x00bad")
    zhuyin.name_weights.cache_clear()
    assert zhuyin.name_weights(str(bad)) == {}
    assert zhuyin.name_weights(str(tmp_path / "missing.txt")) == {}
    assert "unreadable" in caplog.text
    zhuyin.name_weights.cache_clear()


@needs_chewing
def test_the_characters_of_names_come_before_everyday_order(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # libchewing alone: 婷 is seventh of ㄊㄧㄥˊ's; names' characters first: second, behind 廷
    monkeypatch.setattr(zhuyin, "name_weights", lambda: {})
    plain = zhuyin.offered("ㄊㄧㄥˊ")
    monkeypatch.undo()
    named = zhuyin.offered("ㄊㄧㄥˊ")
    assert plain.index("婷") >= 5 and named[:2] == ("廷", "婷")
    assert set(named) == set(plain)  # the same characters, only reordered
    # everyday characters still before the rare ones where names say nothing
    common = zhuyin.common_characters()
    rest = [c for c in named if c not in zhuyin.name_weights()]
    assert [c in common for c in rest] == sorted((c in common for c in rest), reverse=True)


@needs_chewing
def test_names_weigh_half_in_the_order_of_the_syllables(monkeypatch: pytest.MonkeyPatch) -> None:
    said = {"ㄊㄧㄥˊ": 10, "ㄊㄧㄥˉ": 30, "ㄅㄛˊ": 60}
    monkeypatch.setattr(zhuyin, "name_weights", lambda: {})
    assert zhuyin._with_names(said) == said  # no list: Mandarin's weights as they are
    # 婷 is said ㄊㄧㄥˊ, 柏 ㄅㄛˊ (its reading listed first, not ㄅㄞˇ): each a share of names
    monkeypatch.setattr(zhuyin, "name_weights", lambda: {"婷": 3, "柏": 1})
    blended = zhuyin._with_names(said)
    assert blended == {"ㄊㄧㄥˊ": round(1e9 * (0.1 + 0.75)), "ㄊㄧㄥˉ": round(1e9 * 0.3),
                       "ㄅㄛˊ": round(1e9 * (0.6 + 0.25))}
    assert blended["ㄊㄧㄥˊ"] > blended["ㄊㄧㄥˉ"] and said["ㄊㄧㄥˊ"] < said["ㄊㄧㄥˉ"]
