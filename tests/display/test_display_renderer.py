"""Rendering discipline: draw only on change or while something moves; time-based animation."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest
from display_testing import book

from display.fonts import FontBook
from display.games.something_missing import DISPLAY
from display.games.something_missing.samples import BASE, PLAYERS
from display.games.something_missing.view import GameView, ViewPhase
from display.model import BuzzView, Snapshot
from display.renderer import Renderer
from display.samples import T0, snapshots


@pytest.fixture
def fonts() -> FontBook:
    return book()

SAMPLES = dict(snapshots())


def _renderer(fonts: FontBook, **kw: object) -> Renderer:
    return Renderer(pygame.Surface((800, 480)), fonts=fonts, strict=True, game=DISPLAY, **kw)  # type: ignore[arg-type]


def test_idle_scoreboard_is_not_redrawn(fonts: FontBook) -> None:
    r = _renderer(fonts)
    snap = SAMPLES["scoring"]
    assert r.render(snap).reason == "changed"
    for t in range(1, 600):
        result = r.render(replace(snap, now_ms=T0 + t * 16))
        assert not result and result.reason == "unchanged"
    assert r.frames == 1


def test_a_changed_snapshot_is_redrawn(fonts: FontBook) -> None:
    r = _renderer(fonts)
    snap = SAMPLES["betting-decide"]
    r.render(snap)
    assert not r.render(replace(snap, now_ms=T0 + 500))
    assert r.render(replace(snap, lang="en", now_ms=T0 + 600))
    assert r.render(replace(snap, lang="en", camera_status="camera_disconnected"))
    assert r.frames == 3


def test_running_timer_redraws_at_the_frame_rate_then_stops(fonts: FontBook) -> None:
    r = _renderer(fonts, fps=30)
    snap = SAMPLES["checking-running"]  # deadline 21.5 s after T0
    drawn = sum(bool(r.render(replace(snap, now_ms=T0 + t))) for t in range(0, 1000, 5))
    assert 28 <= drawn <= 32  # ~30 frames in one second, not 200
    r.render(replace(snap, now_ms=T0 + 30_000))  # expired: one last frame
    assert not r.render(replace(snap, now_ms=T0 + 31_000))


def test_score_change_animates_by_time_not_frames(fonts: FontBook) -> None:
    r = _renderer(fonts, score_anim_ms=1000, delta_hold_ms=1000)
    before = replace(SAMPLES["scoring"], state=replace(BASE, phase=ViewPhase.SCORING))
    r.render(before)
    after_view = replace(BASE, phase=ViewPhase.SCORING, scores=(17, 7, 15, 3, 9))
    r.render(replace(before, state=after_view, now_ms=T0 + 10_000))
    texts = {t.text for t in r.texts}
    assert "+5" in texts and "12" in texts  # starts at the old score
    r.render(replace(before, state=after_view, now_ms=T0 + 10_500))
    mid = [t.text for t in r.texts]
    assert any(t.isdigit() and 12 < int(t) < 17 for t in mid)  # halfway, whatever frame count
    r.render(replace(before, state=after_view, now_ms=T0 + 11_200))
    assert "17" in {t.text for t in r.texts} and "+5" in {t.text for t in r.texts}
    r.render(replace(before, state=after_view, now_ms=T0 + 12_500))
    assert "+5" not in {t.text for t in r.texts}
    assert not r.render(replace(before, state=after_view, now_ms=T0 + 20_000))


def test_buzz_screen_shows_for_a_while(fonts: FontBook) -> None:
    r = _renderer(fonts, buzz_ms=2000)
    snap = replace(SAMPLES["reveal-card"], buzz=BuzzView(winner=0, at_ms=T0, margin_us=1500))
    assert r.render(snap).screen == "buzz"
    assert not r.render(replace(snap, now_ms=T0 + 1999))
    result = r.render(replace(snap, now_ms=T0 + 2000))
    assert result and result.screen == "reveal"


def test_hit_test_maps_a_touch_to_the_button_under_it(fonts: FontBook) -> None:
    r = _renderer(fonts)
    r.render(SAMPLES["checking-running"])
    for button in r.buttons:
        if button.enabled:
            x, y, w, h = button.rect
            assert r.hit_test((x + w / 2, y + h / 2)) == button.action
    assert r.hit_test((-5, -5)) is None
    names = {b.action.name for b in r.buttons}
    assert {"found", "not_found", "undo", "lang"} <= names


def test_save_png(fonts: FontBook, tmp_path: Path) -> None:
    r = _renderer(fonts)
    r.render(SAMPLES["over"])
    path = r.save_png(tmp_path / "shots" / "over.png")
    assert pygame.image.load(str(path)).get_size() == (800, 480)


def test_an_unreadable_state_is_logged_not_raised(fonts: FontBook,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    r = Renderer(pygame.Surface((800, 480)), fonts=fonts, game=DISPLAY)
    with caplog.at_level(logging.ERROR):
        result = r.render(Snapshot(state=object(), players=PLAYERS))
    assert result and result.screen == "title"
    assert "cannot read the engine state" in caplog.text


def test_a_failing_screen_is_logged_not_raised(fonts: FontBook,
                                               caplog: pytest.LogCaptureFixture) -> None:
    r = Renderer(pygame.Surface((800, 480)), fonts=fonts, game=DISPLAY)
    broken: Any = (("not a seat",),)
    bad = GameView(phase=ViewPhase.BETTING, scores=(1, 2, 3), scene_count=1, bets=broken)
    with caplog.at_level(logging.ERROR):
        assert r.render(Snapshot(state=bad, players=PLAYERS))
    assert "drawing betting failed" in caplog.text
    with pytest.raises(TypeError):
        _renderer(fonts).render(Snapshot(state=bad, players=PLAYERS))
