"""End screens (issue 41, round three): equal figures share a place (1, 2, 2, 4), and
Eselsbrücke's standings say what each figure is in words, in both languages (it read
「1. 1 pt, 0 stop」, a run of numbers). Drawn by the real renderer from the game's own
end-screen sample, its figures changed."""

from __future__ import annotations

import os
import re
from dataclasses import replace
from typing import Any

import pygame
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from display.i18n import place, tr
from display.renderer import Renderer
from display.samples import snapshots
from display.screens import standings


def test_standings_share_a_place_and_skip_the_next() -> None:
    assert standings([(-5,), (-4,), (-4,), (-1,)]) == [1, 2, 2, 4]
    assert standings([(-4, 1), (-4, 1), (-4, 1)]) == [1, 1, 1]
    assert standings([(-3,), (-9,), (-3,)]) == [2, 1, 2]
    assert [place(n, "en") for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]
    assert place(2, "zh-TW") == "第 2 名"


def _sample(name: str, lang: str) -> Any:
    return dict(snapshots(lang))[name]


def _texts(snap: Any, size: tuple[int, int] = (800, 480)) -> list[str]:
    renderer = Renderer(pygame.Surface(size), strict=True)
    renderer.render(snap)
    return [t.text for t in renderer.texts]


@pytest.mark.parametrize("lang", ["zh-TW", "en"])
def test_winks_equal_figures_share_a_place(lang: str) -> None:
    snap = _sample("wink5-end", lang)
    view = snap.state
    # seats 2 and 3 (0-based 1, 2) have the same points, accusation cards and hand
    scores, acc, hands = (6, 4, 4, 2, 1), (3, 4, 4, 4, 4), (5, 6, 6, 6, 6)
    snap = replace(snap, state=replace(view, scores=scores[:view.players],
                                       accusation_cards=acc[:view.players],
                                       hands=hands[:view.players]))
    marks = [t for t in _texts(snap) if re.fullmatch(r"\d\.", t)]
    assert marks == ["1.", "2.", "2.", "4.", "5."][:view.players]


@pytest.mark.parametrize("lang", ["zh-TW", "en"])
def test_eselsbrueckes_standings_in_words(lang: str) -> None:
    snap = _sample("eb-end", lang)
    view = snap.state
    n = view.players
    scores = (1, 1, 0, 0, 0, 0)[:n]
    stops = (0, 0, 1, 0, 0, 0)[:n]
    seats = tuple(replace(s, stops=k) for s, k in zip(view.seats, stops, strict=True))
    snap = replace(snap, state=replace(view, scores=scores, seats=seats))
    texts = _texts(snap)
    for seat, (points, stop, at) in enumerate(zip(scores, stops, (1, 1, 3, 4, 4, 4),
                                                  strict=False)):
        line = tr("eb.over.score_words", lang, n=points, s=stop)
        assert line in texts and place(at, lang) in texts, (seat, line, texts)
    # no bare run of numbers ("1. 1 pt, 0 stop")
    assert not [t for t in texts if re.fullmatch(r"\d+\. \d+ pts?, \d+ stop", t)]
    if lang == "en":
        assert "1 pt · stops 0" in texts and texts.count("1st") == 2 and "3rd" in texts
        assert texts.count("4th") == n - 3


@pytest.mark.parametrize("lang", ["zh-TW", "en"])
def test_nobody_wins_at_nothing(lang: str) -> None:
    """什麼不見啦 ended by the host before anyone scored: it said "Shared win!" for everyone
    at 0, and every name of the chart lay on one point. It says what happened, and the
    chart that nobody scored."""
    texts = _texts(_sample("over-host-nobody-scored", lang))
    assert tr("over.nobody_scored", lang) in texts
    assert tr("over.chart_empty", lang) in texts
    assert tr("over.winners", lang) not in texts
    # a real score keeps its winner
    texts = _texts(_sample("over-shared", lang))
    assert tr("over.winners", lang) in texts and tr("over.nobody_scored", lang) not in texts


@pytest.mark.parametrize("lang", ["zh-TW", "en"])
def test_eselsbruecke_ended_before_anyone_scored_has_no_winner(lang: str) -> None:
    snap = _sample("eb-end", lang)
    view = snap.state
    seats = tuple(replace(s, stops=0) for s in view.seats)
    snap = replace(snap, state=replace(view, scores=(0,) * view.players, seats=seats,
                                       winners=tuple(range(view.players))))
    texts = _texts(snap)
    assert tr("over.nobody_scored", lang) in texts
    assert tr("eb.over.shared", lang) not in texts and tr("eb.over.tie_none", lang) not in texts
