"""眨眨眼's screens: every sample at both sizes and languages (also in the shared test), each
marker drawn with its seat number, the call large, the tie-break on the end screen."""

from __future__ import annotations

import pygame
import pytest
from display_testing import SIZES, book

from display.fonts import FontBook
from display.games.wink.samples import snapshots
from display.i18n import LANGS
from display.model import Snapshot
from display.renderer import Renderer


@pytest.fixture
def fonts() -> FontBook:
    return book()


def _render(fonts: FontBook, size: tuple[int, int], snap: Snapshot) -> Renderer:
    renderer = Renderer(pygame.Surface(size), fonts=fonts, strict=True)
    assert renderer.render(snap)
    return renderer


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
def test_every_wink_screen_fits(fonts: FontBook, size: tuple[int, int], lang: str) -> None:
    screen = pygame.Rect((0, 0), size)
    for name, snap in snapshots(lang):
        r = _render(fonts, size, snap)
        for rec in r.texts:
            assert rec.box.contains(rec.rect), (name, rec.text)
            assert screen.contains(rec.rect), (name, rec.text)
            assert "⟨" not in rec.text, (name, rec.text)  # every key has its words
        if size == (800, 480):
            for b in r.buttons:
                assert min(b.rect[2:]) >= 30, (name, b)


def test_markers_carry_their_seat_numbers(fonts: FontBook) -> None:
    snaps = dict(snapshots("en"))
    snap = snaps["wink8-name"]
    view = snap.state
    marked = [c.marker for c in view.cells if c.marker is not None]
    assert len(marked) == 8
    r = _render(fonts, (1920, 1080), snap)
    texts = [t.text for t in r.texts]
    for seat in marked:
        assert texts.count(str(seat + 1)) >= 2  # on the grid and on the player strip
    assert r.screen == "play"
    assert any(t.startswith("Looking for") for t in texts)


def test_the_call_is_large_and_the_accuser_named(fonts: FontBook) -> None:
    snaps = dict(snapshots("zh-TW"))
    r = _render(fonts, (800, 480), snaps["wink5-place"])
    call = [t for t in r.texts if t.text.endswith("號夥伴，我在找你！")]
    assert call and call[0].px >= 24
    r = _render(fonts, (800, 480), snaps["wink5-accusation"])
    assert r.screen == "accusation"
    assert any(t.text == "Alice 要抓！" for t in r.texts)
    actions = {b.action.name for b in r.buttons}
    assert {"accused_right", "accused_wrong", "withdraw"} <= actions
    r = _render(fonts, (800, 480), snaps["wink5-race"])
    assert r.screen == "buzz"


def test_the_end_screen_says_what_decided(fonts: FontBook) -> None:
    snaps = dict(snapshots("en"))
    r = _render(fonts, (1920, 1080), snaps["wink5-end"])
    assert r.screen == "over"
    assert "Highest score" in [t.text for t in r.texts]
