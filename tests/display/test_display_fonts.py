"""Fonts: the Traditional Chinese face, the bundled subset, the Latin fallback, and that the
bundled subset alone has a glyph for everything the UI draws.

The whole session runs with the system's fonts hidden (``tests/conftest.py``), so these tests see
what a fresh machine sees. Coverage is checked three ways: the bundled files' ``cmap`` read here
byte by byte (no fontTools needed), FreeType's glyph lookup (``get_metrics``), and rendering each
character and comparing it with the ``.notdef`` box.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import struct
import sys
import unicodedata
from functools import cache
from pathlib import Path
from types import ModuleType

import pygame
import pygame.freetype
import pytest
from display_testing import book

from display.fonts import (
    BUNDLED_DIR,
    BUNDLED_FILES,
    SYSTEM_CJK_PATTERNS,
    SYSTEM_FONTS_ENV,
    TC_FAMILY,
    FontBook,
    Weight,
    default_system_patterns,
    face_names,
    tc_face_index,
)
from display.i18n import STRINGS, all_text

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_BOLD = SYSTEM_CJK_PATTERNS[0].format(weight="Bold")
WEIGHTS: tuple[Weight, ...] = ("bold", "regular")
MAX_BYTES = 8_000_000  # issue 15: at most 8 MB for all bundled fonts together

# --- test data: names a table will type ---------------------------------------------------------

#: The 100 most common surnames in Taiwan. The first 94, in rank order, are those of the Ministry
#: of the Interior's 全國姓名統計分析 (name statistics, 2018 edition) as listed in issue 15's
#: brief; 夏 邵 倪 溫 錢 童 complete the hundred from the same statistics' ranks near 100 (their
#: exact ranks not checked: the set matters here, not the order). Note 温 and 溫 are both
#: registered surnames, and 鍾 and 鐘 are two surnames.
SURNAMES = (
    "陳林黃張李王吳劉蔡楊許鄭謝郭洪曾邱廖賴周徐蘇葉莊呂江何蕭羅高簡朱鍾施游詹沈彭胡余盧潘"
    "顏梁趙柯翁魏方孫戴范宋鄧杜傅侯曹温薛丁馬蔣唐卓藍馮姚石董紀歐程連古汪湯姜田康鄒白涂"
    "尤巫韓龔嚴袁黎金阮陸鐘"
    "夏邵倪溫錢童"
)
#: Compound surnames seen in Taiwan (張簡 and 范姜 are Taiwanese; the others classical).
COMPOUND_SURNAMES = ("歐陽", "張簡", "范姜", "司馬", "諸葛", "上官")
#: Characters common in Taiwanese given names: those of the brief (from the most frequent given
#: names of the same statistics: 家豪 志明 俊傑 建宏 淑芬 美玲 雅婷 怡君 …), then more collected
#: by hand for this test from names common in Taiwan, older (麗 貞 秀 國 財 福 …) and given since
#: 2000 (宥 睿 宸 妤 瑄 芯 昀 妘 …). About one in five is NOT in Big5 level 1: the bundled font
#: gets those from display/fonts/extra_text.txt.
GIVEN_NAME_CHARS = (
    "志明美玲怡君宏偉雅婷淑芬俊傑家豪建華佳穎文欣宗翰惠如冠宇承恩子涵柏翔品妤詩庭嘉彥育瑋"
    "思妍宜蓁琪于晴"
    "麗娟貞雯慧芳萍珍秀靜婉芸琳瑜瑄萱筑璇彤妘昀宥廷睿宸翊祐澤哲軒凱諺叡崴毅誠鈞銘峰達仁忠"
    "德賢輝榮祥耀維安心語芯甯霈沛歆蕙薇芷菁卉媛嫻婕綺瑾茵喬昕晞羿禹苡熙辰希予柔瑩琇珮珊瑤"
    "蓉蘭菊梅鳳櫻蕾潔純真盈燕琬瑛岑妮姿倩娜晏湘樺泓浩皓煒駿勳鴻鵬霖霆曜暐昱晟旻昊杰楷樂韋"
    "瑞璟琦玟珈妃嬿暄姵葳莉莎詠綾緯"
    "強國清正勇興發財富貴福春秋冬玉金銀寶龍虎雄英勝孝義信智武水木火土山海天雲雨雪威廣振民"
    "生成立坤燦鑫淵煌炫琮琨璋璿鈺錡鎧閔斌彬紘竑崙晉蔚薰"
    "佩珺瑀瑢琁妡姍婗婧嫚媃宓淇涓溱澄潁瀅瀚灝焜熠燁爵珅珩琛瑆瑭璦璨瓊甄畇碩祺禎筠箖紓絜"
    "絮綦緹縉翎翾翟耘聿臻舫芊芩芮茜荷莛菱萁萊葦蓓蔓蕎蕓薏藝衡裕詒詡誼諭謙譽豐貽賓赫軍逸遠"
    "邦郁鈴鉅鋒錚鍇鏵霓霏靖靚韻頤顥馨騏驊鴒鵑麒黛"
)
#: The names of issue 15's report: the demo's players that showed as boxes.
DEMO_NAMES = ("志強", "美玲", "怡君", "家豪", "淑芬", "阿明", "小華")
#: Glyphs the UI draws besides words: arrows, marks, the text cursor, digits, punctuation.
#: (Noto Sans CJK has no ✗ ✔ ✕: a screen wanting a cross uses ×.)
UI_GLYPHS = "↑↓←→↔✓×?…▏—–·•「」『』、，。：；！？（）＋－%0123456789"


# --- helpers ------------------------------------------------------------------------------------

@pytest.fixture
def fonts() -> FontBook:
    return book()


@cache
def make_subset() -> ModuleType:
    """display/fonts/make_subset.py (a script, not a package module), loaded by path."""
    path = BUNDLED_DIR / "make_subset.py"
    spec = importlib.util.spec_from_file_location("tablekeeper_make_subset", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def known_absent() -> str:
    return "".join(make_subset().KNOWN_ABSENT)


def code_strings() -> dict[str, str]:
    """{source file: its string literals}, as make_subset.py gathers them."""
    return {str(k): str(v) for k, v in make_subset().code_strings().items()}


def drawable(text: str) -> str:
    return str(make_subset().drawable(text))


@cache
def cmap(path: Path) -> frozenset[int]:
    """The code points an OpenType file maps to a glyph, read from its ``cmap`` table (Windows
    Unicode subtables, formats 4 and 12) without fontTools."""
    data = path.read_bytes()
    (num_tables,) = struct.unpack_from(">H", data, 4)
    tables = {}
    for i in range(num_tables):
        tag, _sum, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        tables[tag] = offset
    base = tables[b"cmap"]
    _version, count = struct.unpack_from(">HH", data, base)
    codes: set[int] = set()
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, base + 4 + 8 * i)
        if platform != 3 or encoding not in (1, 10):
            continue
        sub = base + offset
        (fmt,) = struct.unpack_from(">H", data, sub)
        if fmt == 12:
            (groups,) = struct.unpack_from(">I", data, sub + 12)
            for g in range(groups):
                start, end, _glyph = struct.unpack_from(">III", data, sub + 16 + 12 * g)
                codes.update(range(start, end + 1))
        elif fmt == 4:
            (seg_x2,) = struct.unpack_from(">H", data, sub + 6)
            segs = seg_x2 // 2
            ends = struct.unpack_from(f">{segs}H", data, sub + 14)
            starts = struct.unpack_from(f">{segs}H", data, sub + 16 + seg_x2)
            deltas = struct.unpack_from(f">{segs}h", data, sub + 16 + 2 * seg_x2)
            ro_base = sub + 16 + 3 * seg_x2
            offsets = struct.unpack_from(f">{segs}H", data, ro_base)
            for s in range(segs):
                for c in range(starts[s], ends[s] + 1):
                    if c == 0xFFFF:
                        continue
                    if offsets[s] == 0:
                        glyph = (c + deltas[s]) & 0xFFFF
                    else:
                        at = ro_base + 2 * s + offsets[s] + 2 * (c - starts[s])
                        (glyph,) = struct.unpack_from(">H", data, at)
                        glyph = (glyph + deltas[s]) & 0xFFFF if glyph else 0
                    if glyph:
                        codes.add(c)
    assert codes, f"{path}: no Windows Unicode cmap subtable"
    return frozenset(codes)


def bundled(weight: Weight) -> Path:
    return BUNDLED_DIR / BUNDLED_FILES[weight]


def not_in_cmap(text: str, weight: Weight) -> str:
    codes = cmap(bundled(weight))
    return "".join(ch for ch in drawable(text) if ord(ch) not in codes and not ch.isspace())


def named(chars: str) -> str:
    return ", ".join(f"{ch} U+{ord(ch):04X}" for ch in chars)


# --- the session sees no system font ------------------------------------------------------------

def test_the_session_hides_the_system_fonts() -> None:
    assert os.environ[SYSTEM_FONTS_ENV] == "0"
    assert default_system_patterns() == ()
    conf = Path(os.environ["FONTCONFIG_FILE"])
    assert conf.is_file() and "<dir" not in conf.read_text(encoding="utf-8")
    fresh = FontBook()
    assert {face.source for face in fresh.faces.values()} == {"bundled"}
    # fontconfig (what pygame.font.SysFont asks, through fc-list) knows no font
    assert not [name for name in pygame.font.get_fonts() if "noto" in name or "cjk" in name]
    assert pygame.font.match_font("notosanscjktc") is None


def test_the_switch_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for value in ("0", "false", "off", " No "):
        monkeypatch.setenv(SYSTEM_FONTS_ENV, value)
        assert default_system_patterns() == ()
    for value in ("1", "yes", ""):
        monkeypatch.setenv(SYSTEM_FONTS_ENV, value)
        assert default_system_patterns() == SYSTEM_CJK_PATTERNS
    monkeypatch.delenv(SYSTEM_FONTS_ENV)
    assert default_system_patterns() == SYSTEM_CJK_PATTERNS


# --- the faces ----------------------------------------------------------------------------------

@pytest.mark.skipif(not Path(SYSTEM_BOLD).is_file(), reason="fonts-noto-cjk not installed")
def test_system_collection_gives_the_tc_face_not_the_japanese_one() -> None:
    names = face_names(SYSTEM_BOLD)
    assert names[0].startswith("Noto Sans CJK JP")  # why we must not take face 0
    index = tc_face_index(SYSTEM_BOLD)
    assert index is not None and index != 0
    assert names[index].startswith(TC_FAMILY)
    book = FontBook(system_patterns=SYSTEM_CJK_PATTERNS)  # explicit: past the session's switch
    assert book.faces["bold"].source == "system"
    assert book.faces["bold"].index == index
    assert book.font("bold", 40).name.startswith(TC_FAMILY)


def test_bundled_subset_is_the_tc_face_and_within_the_size_limit() -> None:
    book = FontBook(system_patterns=())
    for weight, face in book.faces.items():
        assert face.source == "bundled", weight
        assert face.name.startswith(TC_FAMILY)
        assert book.font(weight, 30).name.startswith(TC_FAMILY)
    total = sum(path.stat().st_size for path in BUNDLED_DIR.iterdir()
                if path.suffix in (".otf", ".ttf", ".ttc", ".woff", ".woff2"))
    assert total <= MAX_BYTES
    assert make_subset().MAX_BYTES == MAX_BYTES
    assert "SIL OPEN FONT LICENSE" in (BUNDLED_DIR / "OFL.txt").read_text(encoding="utf-8")


def test_no_cjk_font_falls_back_to_latin_with_one_log_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="display.fonts"):
        book = FontBook(system_patterns=(), bundled_dir=tmp_path)
    assert not book.cjk
    assert all(face.source == "fallback" for face in book.faces.values())
    assert len(caplog.records) == 1
    message = caplog.records[0].getMessage()
    assert "fonts-noto-cjk" in message and f"{SYSTEM_FONTS_ENV}=0" in message
    _surf, rect = book.font("bold", 20).render("Round 3", (255, 255, 255))
    assert rect.width > 20


def test_fonts_are_cached_by_face_and_size(fonts: FontBook) -> None:
    assert fonts.font("bold", 40) is fonts.font("bold", 40)
    assert fonts.font("bold", 40) is not fonts.font("bold", 41)
    assert fonts.font("bold", 40) is not fonts.font("regular", 40)


# --- what the subset must hold, gathered from the code ------------------------------------------

def test_the_gathering_finds_the_ui_text_wherever_it_is_written() -> None:
    text = "".join(code_strings().values())
    for name in DEMO_NAMES:  # the simulated players' names
        assert name in text, name
    assert "什麼不見啦" in text and "▏" in text  # the UI table, and the name field's cursor
    from vision.demo_decks import ITEMS, SCENE_NAMES

    for zh, en in (*ITEMS, *SCENE_NAMES):  # the demo decks' card and scene names
        assert zh in text and en in text
    assert set(drawable(all_text())) <= set(make_subset().needed_text())
    assert "display" in {p.name for p in make_subset().runtime_packages()}


def test_big5_level1_is_the_5401_characters_of_the_codec() -> None:
    chars = str(make_subset().big5_level1())
    assert len(chars) == len(set(chars)) == 5401
    assert chars[0] == "一" and chars[-1] == "籲"  # 0xA440 and 0xC67E
    assert all(unicodedata.category(ch) == "Lo" for ch in chars)


def test_known_absent_characters_are_in_no_translation() -> None:
    """The characters allowed to be missing (Noto Sans CJK has no glyph for them) appear in no
    UI string: only in ``tr``'s marker around a missing key."""
    absent = known_absent()
    assert set(absent) == set()  # tr's marker is 〈〉 (U+3008/9), which the font draws
    assert not set(absent) & set(all_text())


# --- the bundled files hold it: cmap ------------------------------------------------------------

@pytest.mark.parametrize("weight", WEIGHTS)
def test_every_ui_string_is_in_the_cmap(weight: Weight) -> None:
    for key, entry in STRINGS.items():
        for lang, text in entry.items():
            missing = not_in_cmap(text, weight)
            assert not missing, (f"{key} [{lang}]: {named(missing)} not in the bundled font: "
                                 "re-run display/fonts/make_subset.py")


@pytest.mark.parametrize("weight", WEIGHTS)
def test_every_string_of_the_code_is_in_the_cmap(weight: Weight) -> None:
    """Any string literal of a runtime package (what screens draw, names, deck names): a new
    string with a new character fails here until the subset is rebuilt."""
    allowed = set(known_absent())
    problems = []
    for source, text in code_strings().items():
        missing = "".join(ch for ch in not_in_cmap(text, weight) if ch not in allowed)
        if missing:
            problems.append(f"{source}: {named(missing)}")
    assert not problems, ("not in the bundled font (re-run display/fonts/make_subset.py):\n"
                          + "\n".join(problems))


@pytest.mark.parametrize("weight", WEIGHTS)
def test_taiwanese_names_big5_level1_latin1_and_ui_glyphs_are_in_the_cmap(weight: Weight) -> None:
    assert len(SURNAMES) == len(set(SURNAMES)) == 100
    assert len(set(GIVEN_NAME_CHARS)) >= 300
    sets = {
        "surnames": SURNAMES + "".join(COMPOUND_SURNAMES),
        "given-name characters": GIVEN_NAME_CHARS,
        "Big5 level 1": str(make_subset().big5_level1()),
        "Latin-1": "".join(map(chr, [*range(0x20, 0x7F), *range(0xA0, 0x100)])),
        "UI glyphs": UI_GLYPHS,
        "extra_text.txt": str(make_subset().extra_text()),
    }
    for what, text in sets.items():
        missing = not_in_cmap(text, weight)
        assert not missing, f"{what}: {named(missing)}"


@pytest.mark.parametrize("weight", WEIGHTS)
def test_the_charset_record_matches_the_cmap(weight: Weight) -> None:
    recorded = (BUNDLED_DIR / "charset.txt").read_text(encoding="utf-8").replace("\n", "")
    codes = cmap(bundled(weight))
    assert {ord(ch) for ch in recorded} <= codes
    assert len(recorded) >= 5401 + 190


def test_the_cmap_reader_agrees_with_fonttools() -> None:
    ttlib = pytest.importorskip("fontTools.ttLib")
    for weight in WEIGHTS:
        font = ttlib.TTFont(str(bundled(weight)))
        assert set(font.getBestCmap()) == cmap(bundled(weight))


# --- the bundled files hold it: FreeType finds and draws every glyph ----------------------------

def _bitmap(font: pygame.freetype.Font, ch: str) -> tuple[tuple[int, int], bytes]:
    surface, _rect = font.render(ch, (255, 255, 255), (0, 0, 0))
    return surface.get_size(), pygame.image.tobytes(surface, "RGB")


def _sample_text() -> str:
    """Every UI string (both languages), the demo's and the test's names, the UI's glyphs."""
    return (all_text() + "".join(DEMO_NAMES) + SURNAMES + "".join(COMPOUND_SURNAMES)
            + GIVEN_NAME_CHARS + UI_GLYPHS)


@pytest.mark.parametrize("weight", WEIGHTS)
def test_freetype_finds_a_glyph_for_every_sample_character(weight: Weight) -> None:
    book = FontBook(system_patterns=())
    assert book.missing_glyphs(_sample_text(), weight) == ""


@pytest.mark.parametrize("weight", WEIGHTS)
def test_no_sample_character_renders_as_the_notdef_box(weight: Weight) -> None:
    book = FontBook(system_patterns=())
    font = book.font(weight, 24)
    box = _bitmap(font, "\U000f0000")  # a private-use character: surely the .notdef box
    assert box == _bitmap(font, "\U000f0001")  # (every missing character looks the same)
    boxes = []
    blank = []
    for ch in drawable(_sample_text()):
        if ch.isspace():
            continue
        drawn = _bitmap(font, ch)
        if drawn == box:
            boxes.append(ch)
        elif not any(drawn[1]):
            blank.append(ch)
    assert not boxes, f"drawn as boxes: {named(''.join(boxes))}"
    assert not blank, f"drawn as nothing: {named(''.join(blank))}"
    # whole strings too: a name in a sentence, as the screens draw it
    for text in (STRINGS["reveal.turn"]["zh-TW"].format(name="志強"),
                 STRINGS["over.winner"]["zh-TW"].format(name="歐陽美玲"),
                 STRINGS["buzz.first"]["en"].format(name="Zoë"), "涂宥蓁 ▏"):
        assert book.missing_glyphs(text, weight) == "", text


def test_a_character_outside_the_subset_is_reported() -> None:
    book = FontBook(system_patterns=())
    outside = "鱻"  # U+9C7B, Big5 level 2, in no string and no list
    assert ord(outside) not in cmap(bundled("bold"))
    assert book.missing_glyphs("見" + outside) == outside
