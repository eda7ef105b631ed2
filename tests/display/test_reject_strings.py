"""Every refusal says why (issue 41): each rejection code the engines, the tables and the box can
give has a ``reject.<code>`` string (both languages, fitting the 800x480 banner) in the right
table -- the game's own strings for a code only that game gives, display/i18n.py for a code
several give -- or is listed in :data:`display.i18n.UNSHOWN_REJECTIONS` with why no screen can
show it. The codes are read from the source (every ``Rejection("code", ...)`` call), so a new
code without words fails here."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import pygame
import pytest
from display_testing import book

import display.games.eselsbruecke.strings
import display.games.something_missing.strings
import display.games.the_game.strings
import display.games.wink.strings
from display.i18n import LANGS, STRINGS, UNSHOWN_REJECTIONS, tr
from display.model import Notice
from display.renderer import Renderer
from display.samples import snapshots

ROOT = Path(__file__).resolve().parents[2]

#: each game's own strings table (what its display part registers)
GAME_STRINGS: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    "eselsbruecke": display.games.eselsbruecke.strings.STRINGS,
    "something_missing": display.games.something_missing.strings.STRINGS,
    "the_game": display.games.the_game.strings.STRINGS,
    "wink": display.games.wink.strings.STRINGS,
}


def _owner(path: Path) -> str:
    """The game a source file belongs to, or "" (the box, the shared engine core)."""
    rel = path.relative_to(ROOT).parts
    if rel[0] == "engine" and path.stem in GAME_STRINGS:
        return path.stem
    if rel[:2] == ("tablekeeper", "games") and len(rel) > 3 and rel[2] in GAME_STRINGS:
        return rel[2]
    return ""


def rejection_codes() -> dict[str, set[str]]:
    """{code: the games that give it ("" for the box or the shared core)}, from every
    ``Rejection(...)`` call in engine/ and tablekeeper/."""
    codes: dict[str, set[str]] = {}
    for top in ("engine", "tablekeeper"):
        for path in sorted((ROOT / top).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id == "Rejection"):
                    continue
                first = node.args[0] if node.args else None
                assert isinstance(first, ast.Constant) and isinstance(first.value, str), (
                    f"{path}:{node.lineno}: a Rejection's code must be a literal, so its words "
                    "can be checked")
                codes.setdefault(first.value, set()).add(_owner(path))
    return codes


CODES = rejection_codes()


def test_the_scan_finds_the_codes() -> None:
    # (a scan finding nothing would pass everything below)
    assert len(CODES) >= 70
    assert CODES["no_row"] == {"the_game"}
    assert CODES["wrong_phase"] >= {"", "the_game", "eselsbruecke"}
    assert CODES["journal_unwritable"] == {""}


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_code_has_words_in_the_right_table(code: str) -> None:
    key = f"reject.{code}"
    in_games = {game for game, table in GAME_STRINGS.items() if key in table}
    if code in UNSHOWN_REJECTIONS:
        assert key not in STRINGS and not in_games, f"{code} is listed as unshown yet has words"
        return
    owners = CODES[code]
    if len(owners) == 1 and "" not in owners:
        assert in_games == owners, (f"{key}: only {owners} gives it: its words belong in that "
                                    "game's display/games/<game>/strings.py")
    else:
        assert not in_games and key in STRINGS, (f"{key}: given by {sorted(owners)}: its words "
                                                 "belong in display/i18n.py")


def test_no_words_for_a_code_nothing_gives() -> None:
    keys = set(STRINGS) | {k for table in GAME_STRINGS.values() for k in table}
    stale = {k for k in keys if k.startswith("reject.")} - {f"reject.{c}" for c in CODES}
    assert not stale
    assert set(UNSHOWN_REJECTIONS) <= set(CODES)


def _all_reject_strings() -> dict[str, Mapping[str, str]]:
    out = {k: v for k, v in STRINGS.items() if k.startswith("reject.")}
    for table in GAME_STRINGS.values():
        out.update({k: v for k, v in table.items() if k.startswith("reject.")})
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_reject_string_fits_the_small_banner(lang: str) -> None:
    """Both languages, one banner line at 800x480, fitted at 14 px or more (the smallest text
    the small screen may draw), inside its box."""
    fonts = book()
    snap = dict(snapshots(lang))["reveal-camera-problem"]
    strings = _all_reject_strings()
    assert len(strings) >= len(CODES) - len(UNSHOWN_REJECTIONS)
    for key, entry in sorted(strings.items()):
        assert all(entry.get(lg, "").strip() for lg in LANGS), key
        assert entry[lang] != entry[LANGS[1 - LANGS.index(lang)]], key  # (translated)
        renderer = Renderer(pygame.Surface((800, 480)), fonts=fonts, strict=True)
        assert renderer.render(replace(snap, notices=(Notice(key=key),), camera_status=None))
        (record,) = renderer.banner_texts
        assert record.text == tr(key, lang), key
        assert record.box.contains(record.rect), (key, record.rect, record.box)
        assert record.px >= 14, (key, record.px)
