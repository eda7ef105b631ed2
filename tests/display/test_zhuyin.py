"""注音 input through libchewing: the syllable rules, the candidates, and the name screen.

The candidate tests need libchewing (``apt-get install libchewing3 libchewing3-data``; .ci/run
installs it); without it they skip, saying so, and the fallback (Latin keyboard and a message)
is tested with the library hidden.
"""

from __future__ import annotations

from pathlib import Path

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
