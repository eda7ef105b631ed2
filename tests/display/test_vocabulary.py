"""Each game's words are its own, and every message is one a player can read.

- Every sample screen of every game (its own screens and the shared ones it shows: setup, the
  race, the host menu; both languages) is rendered, and what the renderer drew is checked
  against the other games' vocabulary: Wink's race must not say 「什麼不見啦！… 搶到沙漏」,
  Eselsbrücke's setup must not offer "5 scenes".
- Every message id (display/i18n.py and each game's strings.py) has both languages, and no
  message carries a file path, a shell command or a config key (those are the builder's: the
  log and the self-test).
- The focus's default is never a risky choice, and every choice is reachable with *next*
  (the worst case per screen is printed: ``pytest -s -k worst``).
"""

from __future__ import annotations

import importlib
import os
import re

import pygame
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from display_testing import book

from display.games import displays
from display.i18n import LANGS, STRINGS
from display.input import REST, focus_order
from display.model import Snapshot
from display.renderer import Renderer
from display.samples import snapshots

#: 什麼不見啦 keeps its strings in display/i18n.py: its own are the ``sm.`` keys, and these
#: words no other game says
SM_WORDS = ("什麼不見啦", "沙漏", "hourglass", "Something is missing", "場景", "scenes")


def _own_strings(game: str) -> dict[str, dict[str, str]]:
    try:
        module = importlib.import_module(f"display.games.{game}.strings")
    except ModuleNotFoundError:
        return {k: dict(v) for k, v in STRINGS.items() if k.startswith("sm.")}
    return dict(module.STRINGS)


def vocabulary() -> dict[str, set[str]]:
    """Each game's own words: the texts of its own string ids (without placeholders, four
    characters or more) that no shared string says, and 什麼不見啦's words."""
    games = [d.game for d in displays()]
    own = {g: _own_strings(g) for g in games}
    game_keys = {k for strings in own.values() for k in strings}
    shared = {t for k, e in STRINGS.items() if k not in game_keys for t in e.values()}
    words: dict[str, set[str]] = {}
    for game, strings in own.items():
        texts = {t for e in strings.values() for t in e.values()
                 if "{" not in t and len(t) >= 4 and t not in shared}
        words[game] = texts
    words["something_missing"] |= set(SM_WORDS)
    return words


def _render(size: tuple[int, int], snap: Snapshot) -> Renderer:
    renderer = Renderer(pygame.Surface(size), fonts=book(), strict=True)
    renderer.render(snap)
    return renderer


@pytest.mark.parametrize("lang", LANGS)
def test_no_game_draws_another_games_words(lang: str) -> None:
    words = vocabulary()
    checked = 0
    for name, snap in snapshots(lang):
        game = getattr(snap.game, "game", None)
        if game is None:
            continue
        others = {w for g, ws in words.items() if g != game for w in ws} - words[game]
        drawn = [t.text for t in _render((1280, 720), snap).texts]
        for text in drawn:  # another game's string drawn whole, or one of 什麼不見啦's words
            foreign = [w for w in others if w == text.strip()
                       or (w in SM_WORDS and game != "something_missing" and w in text)]
            assert not foreign, f"{name} ({game}, {lang}) draws {text!r}: {foreign}"
        checked += 1
    assert checked > 40


def test_the_race_and_the_setup_speak_the_games_own_words() -> None:
    shots = dict(snapshots("zh-TW"))
    race = " ".join(t.text for t in _render((1280, 720), shots["wink-shared-race"]).texts)
    assert "我要抓！" in race and "什麼不見啦" not in race and "沙漏" not in race
    sm = " ".join(t.text for t in _render((1280, 720), shots["something_missing-shared-race"])
                  .texts)
    assert "什麼不見啦！" in sm and "搶到沙漏" in sm
    eb = " ".join(t.text for t in _render((1280, 720), shots["eselsbruecke-setup"]).texts)
    assert "場景" not in eb and "標準面：6 回合" in eb


#: what only the builder needs: a path, a file, a command, a config key
BUILDER = re.compile(r"(/\w|\.(json|toml|jsonl|py)\b|\btablekeeper \w|--\w|journalctl|"
                     r"\[\w+\]|\b\w+\.\w+\s*=|\bcalibrate\b|calibrate-)")


def test_every_message_has_both_languages_and_nothing_for_the_builder() -> None:
    for display in displays():  # (registers the games' strings)
        assert display.game
    for key, entry in STRINGS.items():
        assert set(LANGS) <= set(entry), key
        for lang in LANGS:
            text = entry[lang]
            assert text.strip(), (key, lang)
            assert not BUILDER.search(text), (key, lang, text)


#: touch's own buttons for what the host buttons do otherwise (the question's other page of
#: candidates: *back*, or *next* past the page's last card); and the rows and groups, out
#: of the walk while one of them is open (*back* returns to them)
TOUCH_ONLY = frozenset({"tg.entry.digit", "tg.entry.del", "tg.entry.ok", "tg.entry.row",
                        "setup.group", "place.row", "grid.pad_row", "ask.more"})


def test_the_focus_starts_on_a_safe_choice_and_reaches_every_choice() -> None:
    worst: dict[str, int] = {}
    keyboards: set[str] = set()
    for name, snap in snapshots("zh-TW"):
        renderer = _render((1280, 720), snap)
        order = focus_order(renderer.buttons)
        if not order:
            continue
        assert not order[0].risky, (name, order[0])
        usable = [b for b in renderer.buttons if b.enabled and b.focus
                  and (b.action.name not in ("undo", "lang", "home") or b.walk)]
        if all(b.action.name == "menu" for b in usable):
            usable = []  # nothing to choose: no focus, never on the menu
        # every choice is in the walk (and, where the first would judge a player, the
        # focus's resting place before them: nothing highlighted)
        assert len([b for b in order if b.action.name != REST]) == len(usable), name
        # a button the walk skips for now is reached through the choice it lies in (a grid's
        # row, a group of keys: picked first, then it), or is touch's own way to what the
        # walk does otherwise (The Game's digit pad beside its wheels)
        for b in renderer.buttons:
            if b.enabled and not b.focus:
                inside = any(o is not b and pygame.Rect(o.rect).contains(pygame.Rect(b.rect))
                             and (o in order or o.action.name in TOUCH_ONLY)
                             for o in renderer.buttons)
                assert inside or b.action.name in TOUCH_ONLY, (name, b)
        worst[name] = len(order)  # (n - 1) x next + confirm
        if any(b.action.name in ("setup.key", "setup.zhuyin", "setup.group") for b in order):
            keyboards.add(name)
    print("\nworst case presses (next ... confirm) per sample screen:")
    for name, n in sorted(worst.items(), key=lambda kv: -kv[1]):
        print(f"  {n:3d}  {name}{'  (keyboard)' if name in keyboards else ''}")
    # a choice screen: at most 60; the name keyboards walk every key once at most (the
    # highlight waits where the syllable's next symbol goes, tests/app/test_name_entry.py)
    assert max(n for name, n in worst.items() if name not in keyboards) <= 60
    assert max(worst[name] for name in keyboards) <= 70


def test_every_game_says_the_host_ended_it_in_the_same_words() -> None:
    """The end screen's header after the host menu's "end this game" reads the same in every
    game (it said "Ended by the host", "The host ended the game" and "The host ended it";
    主持人結束 alone is half a sentence)."""
    keys = {"something_missing": "over.reason.host", "the_game": "tg.over.reason.host_ended",
            "wink": "wink.over.host", "eselsbruecke": "eb.over.host"}
    said: dict[str, tuple[str, str]] = {}
    for game, key in keys.items():
        strings = STRINGS if game == "something_missing" else _own_strings(game)
        said[game] = (strings[key]["zh-TW"], strings[key]["en"])
    assert set(said.values()) == {("主持人結束了遊戲", "Ended by the host")}, said


def test_the_game_picker_hint_says_next_not_on() -> None:
    """Driving the kiosk at 1920×1080 in English: the hand-entry line's hint read "▶ Space on
    ◀ Backspace back the other way" (the keycap drawn after the ▶), and "Space on" told a host
    nothing. It names the press as the README does: *next*, and *back* the other way."""
    mod = importlib.import_module("display.games.the_game.strings")
    first = mod.STRINGS["tg.entry.pick_hint"]["en"].split("\n")[0]
    assert first.startswith("▶ next") and "◀ the other way" in first, first
