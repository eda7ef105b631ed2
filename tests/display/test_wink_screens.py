"""眨眨眼's screens: every sample at both sizes and languages (also in the shared test), each
marker drawn with its seat number, the call large, the tie-break on the end screen."""

from __future__ import annotations

import pygame
import pytest
from display_testing import SIZES, book

from display.fonts import FontBook
from display.games.wink import DISPLAY, samples
from display.games.wink.view import TableView, WinkView
from display.i18n import LANGS
from display.model import Snapshot
from display.renderer import Renderer


def snapshots(lang: str) -> list[tuple[str, Snapshot]]:
    return samples.snapshots(lang, DISPLAY)


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


def test_the_cameras_warnings_are_marked_on_their_cells_and_named(fonts: FontBook) -> None:
    for lang, unknown, missing in (("zh-TW", "? 不明顏色的指示物：", "! 鏡頭沒看到指示物："),
                                   ("en", "? Marker of no player's colour: ",
                                    "! Marker not seen on: ")):
        snap = dict(snapshots(lang))["wink5-warnings"]
        table, view = snap.table, snap.state
        assert isinstance(table, TableView) and isinstance(view, WinkView)
        (bad, _), (gone, _) = sorted(table.problems, key=lambda x: x[1], reverse=True)
        cell_no = (lambda n: f"{n}號") if lang == "zh-TW" else str
        for size in SIZES:
            r = _render(fonts, size, snap)
            texts = [t.text for t in r.texts]
            assert unknown + cell_no(view.cells[bad].number) in texts, texts
            assert missing + cell_no(view.cells[gone].number) in texts
            assert texts.count("?") == 1 and texts.count("!") == 1  # the cells' marks
    # with no warnings: no marks and no lines
    r = _render(fonts, (800, 480), dict(snapshots("en"))["wink5-place"])
    assert not [t for t in r.texts if t.text[:2] in ("? ", "! ")]


def test_the_grid_by_hand_offers_only_the_unused_numbers(fonts: FontBook) -> None:
    snap = dict(snapshots("en"))["wink5-grid-entry"]
    table = snap.table
    assert isinstance(table, TableView)
    r = _render(fonts, (800, 480), snap)
    picks = {b.action.arg for b in r.buttons if b.action.name == "grid.pick"}
    assert picks == set(range(1, 37)) - {c for c in table.grid_entry if c is not None}
    cells = [b for b in r.buttons if b.action.name == "grid.cell"]
    assert len(cells) == 36
    texts = [t.text for t in r.texts]
    assert "Lit cell: row 3, column 6" in texts and "17/36 cells" in texts
    done = [b for b in r.buttons if b.action.name == "grid.done"]
    assert done and not done[0].enabled  # not before all 36 are in
    r = _render(fonts, (800, 480), dict(snapshots("en"))["wink5-grid-entry-full"])
    assert next(b for b in r.buttons if b.action.name == "grid.done").enabled
    r = _render(fonts, (800, 480), dict(snapshots("zh-TW"))["wink5-layout-camera"])
    actions = {b.action.name for b in r.buttons}
    assert {"grid.open", "grid.in_order"} <= actions
    assert "鏡頭已讀到 20/36 格" in [t.text for t in r.texts]


def test_the_accusation_is_entered_number_seat_answer(fonts: FontBook) -> None:
    snaps = dict(snapshots("en"))
    r = _render(fonts, (800, 480), snaps["wink8-accusation"])
    first = [b for b in r.buttons if b.enabled and b.action.name not in ("undo", "lang", "menu")]
    assert first[0].action.name == "pick_number"  # the step under way comes first
    assert not [b for b in r.buttons if b.action.name == "pick_seat"]
    assert not [b for b in r.buttons if b.action.name.startswith("accused_") and b.enabled]
    snap = snaps["wink8-accusation-number"]
    r = _render(fonts, (800, 480), snap)
    first = [b for b in r.buttons if b.enabled and b.action.name not in ("undo", "lang", "menu")]
    assert first[0].action.name == "pick_seat"
    snap = snaps["wink8-accusation-picked"]
    table = snap.table
    assert isinstance(table, TableView) and table.pick_seat is not None
    r = _render(fonts, (800, 480), snap)
    first = [b for b in r.buttons if b.enabled and b.action.name not in ("undo", "lang", "menu")]
    assert [b.action.name for b in first[:2]] == ["accused_right", "accused_wrong"]
    name = snap.players[table.pick_seat].name
    assert f"Does {table.pick_seat + 1} {name} hold {table.pick_number}?" in [
        t.text for t in r.texts]
    r = _render(fonts, (800, 480), snaps["wink5-accusation-by-hand"])
    assert "Entered by the host" in [t.text for t in r.texts]


def test_an_accusation_by_hand_offers_the_seats_that_may_accuse(fonts: FontBook) -> None:
    snap = dict(snapshots("en"))["wink8-accuse-by-hand"]
    view = snap.state
    assert isinstance(view, WinkView)
    r = _render(fonts, (800, 480), snap)
    seats = [b.action.arg for b in r.buttons if b.action.name == "accuse"]
    assert seats == list(view.accusers) and len(seats) == 8
    assert not [b for b in r.buttons if b.action.name == "place"]  # the grid waits
    r = _render(fonts, (800, 480), dict(snapshots("en"))["wink8-place"])
    assert next(b for b in r.buttons if b.action.name == "accuse.open").enabled


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_verdict_rows_name_the_seat_even_with_long_names(
        fonts: FontBook, size: tuple[int, int]) -> None:
    """The "point at your partner" verdicts, with names as a café types them (「美玲 Mei-Ling」):
    each row's chip says who it is about, 「3 美玲」 where the whole name does not fit, never
    the bare seat number (it said "3" and "4" beside 「5 怡君 Yi-Chun」 at 1920×1080, and only
    numbers at 800×480)."""
    import dataclasses

    from display.model import PlayerInfo

    snap = dict(snapshots("zh-TW"))["wink5-name"]
    long_names = ("阿明 A-Ming", "小華 Xiao-Hua", "美玲 Mei-Ling", "志強 Chih-Chiang",
                  "怡君 Yi-Chun")
    players = tuple(PlayerInfo(name, p.colour)
                    for name, p in zip(long_names, snap.players, strict=True))
    r = _render(fonts, size, dataclasses.replace(snap, players=players))
    texts = [t.text for t in r.texts]
    active = snap.state.active
    chips: list[bool] = []
    for seat, name in enumerate(long_names):
        if seat == active:
            continue
        chip = [t for t in texts if t in (f"{seat + 1} {name}", f"{seat + 1} {name.split()[0]}")]
        assert chip, (seat, texts)
        chips.append(chip[0] == f"{seat + 1} {name}")
    assert len(set(chips)) == 1, chips  # all rows alike: whole names or all first words
