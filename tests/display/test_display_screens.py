"""Every sample screen, both sizes, both languages: drawn, nothing clipped, content present."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pygame
import pytest
from display_testing import SIZES, book

from display.colours import ACCENT, PLAYER_COLOURS, WARN
from display.fonts import FontBook
from display.games.something_missing.samples import PLAYERS
from display.i18n import LANGS
from display.input import GLOBAL_KEYS
from display.layout import problems
from display.model import Snapshot
from display.renderer import Renderer
from display.samples import T0, snapshots


@pytest.fixture
def fonts() -> FontBook:
    return book()


SAMPLES = {name: snap for name, snap in snapshots()}


def _render(fonts: FontBook, size: tuple[int, int], snap: Snapshot) -> Renderer:
    renderer = Renderer(pygame.Surface(size), fonts=fonts, strict=True)
    assert renderer.render(snap)
    return renderer


def _share(surface: pygame.Surface, rgb: tuple[int, int, int], tol: int = 8) -> float:
    px = pygame.surfarray.pixels3d(surface)
    near = np.all(np.abs(px.astype(np.int16) - np.array(rgb, np.int16)) <= tol, axis=-1)
    return float(near.mean())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
def test_every_screen_fits(fonts: FontBook, size: tuple[int, int], lang: str) -> None:
    """And the layout check (display/layout.py): no text cut off, over other text, or across
    the edge of a panel it does not lie on (its own tests: test_layout.py)."""
    screen_rect = pygame.Rect((0, 0), size)
    found: list[str] = []
    for name, snap in snapshots(lang):
        renderer = _render(fonts, size, snap)
        assert renderer.texts, name
        found.extend(f"{name}: {p}" for p in problems(
            renderer.texts, size, renderer.screen, renderer.fills, renderer.badges,
            renderer.marks))
        for record in renderer.texts:
            assert record.box.contains(record.rect), (name, record.text, record.rect, record.box)
            assert screen_rect.contains(record.rect), (name, record.text)
        for button in renderer.buttons:
            assert screen_rect.contains(pygame.Rect(button.rect)), (name, button)
            assert button.key not in GLOBAL_KEYS, (name, button)
        # A button is big enough to hit with a finger on the small screen.
        if size == (800, 480):
            for button in renderer.buttons:
                assert min(button.rect[2:]) >= 30, (name, button)
    assert not found, "\n".join(found)


def test_screens_are_as_named(fonts: FontBook) -> None:
    expected = {"title": "title", "setup": "setup", "viewing-ready": "viewing",
                "replace-choose": "replace", "reveal-card": "reveal", "buzz": "buzz",
                "betting-must": "betting", "checking-running": "checking",
                "scoring": "scoring", "swap": "swap", "over": "over"}
    for sample, screen in expected.items():
        assert _render(fonts, (800, 480), SAMPLES[sample]).screen == screen


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_buzz_fills_the_screen_with_the_winners_colour(fonts: FontBook,
                                                       size: tuple[int, int]) -> None:
    for sample in ("buzz", "buzz-alone", "buzz-tie"):
        snap = SAMPLES[sample]
        assert snap.buzz is not None
        colour = PLAYER_COLOURS[PLAYERS[snap.buzz.winner].colour]
        renderer = _render(fonts, size, snap)
        assert _share(renderer.surface, colour, tol=0) > 0.6, sample


def test_buzz_shows_the_margin_or_the_tie(fonts: FontBook) -> None:
    texts = [r.text for r in _render(fonts, (800, 480), SAMPLES["buzz"]).texts]
    assert "領先 3.2 毫秒" in texts
    en = replace(SAMPLES["buzz-tie"], lang="en")
    assert "Tie — drawn by lot" in [r.text for r in _render(fonts, (800, 480), en).texts]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_hourglass_ring_drains_as_time_passes(fonts: FontBook, size: tuple[int, int]) -> None:
    snap = SAMPLES["checking-running"]
    renderer = Renderer(pygame.Surface(size), fonts=fonts, strict=True)
    shares = []
    for elapsed in (0, 8_000, 16_000):
        renderer.render(replace(snap, now_ms=T0 + elapsed))
        shares.append(_share(renderer.surface, WARN, tol=0))
    assert shares[0] > shares[1] > shares[2] > 0.002
    renderer.render(replace(snap, now_ms=T0 + 60_000))
    assert _share(renderer.surface, WARN, tol=0) < 0.0005
    assert "時間到！" in [r.text for r in renderer.texts]


def test_player_strip_uses_each_players_colour(fonts: FontBook) -> None:
    renderer = _render(fonts, (1920, 1080), SAMPLES["reveal-card"])
    for info in PLAYERS:
        assert _share(renderer.surface, PLAYER_COLOURS[info.colour], tol=0) > 0.01, info


def test_betting_slots_show_bettors_in_order(fonts: FontBook) -> None:
    renderer = _render(fonts, (1920, 1080), SAMPLES["betting-decide"])
    seats = {p.name: str(i + 1) for i, p in enumerate(SAMPLES["betting-decide"].players)}
    texts = [r for r in renderer.texts if r.text in (seats["阿美"], seats["春嬌"])]
    in_cards = [r for r in texts if r.rect.y < 0.6 * 1080]  # the slot tokens, not the seat row
    ordered = sorted(in_cards, key=lambda r: r.rect.x)
    assert [r.text for r in ordered] == [seats["阿美"], seats["春嬌"]]
    actions = {b.action.name for b in renderer.buttons}
    assert {"bet", "pass", "undo", "lang"} <= actions


def test_the_buzz_winner_cannot_pass(fonts: FontBook) -> None:
    renderer = _render(fonts, (800, 480), SAMPLES["betting-must"])
    (pass_button,) = [b for b in renderer.buttons if b.action.name == "pass"]
    assert not pass_button.enabled
    assert renderer.hit_test((pass_button.rect[0] + 5, pass_button.rect[1] + 5)) is None


def test_game_over_draws_a_chart_in_player_colours(fonts: FontBook) -> None:
    renderer = _render(fonts, (1920, 1080), SAMPLES["over"])
    chart = renderer.surface.subsurface(pygame.Rect(960, 130, 920, 780))
    for info in PLAYERS:
        assert _share(chart, PLAYER_COLOURS[info.colour], tol=0) > 0.0005, info


def test_status_banner_shows_problems(fonts: FontBook) -> None:
    renderer = _render(fonts, (800, 480), SAMPLES["reveal-camera-problem"])
    texts = [r.text for r in renderer.texts]
    assert "攝影機已斷線，正在重試" in texts
    assert "阿美 的按鈕卡住了" in texts


def test_a_card_can_be_turned_by_hand_and_shows_unnamed(fonts: FontBook) -> None:
    # Waiting for a card, the host may say one is up; with the camera down that choice stands
    # out. The card then shows as not recognised.
    def by_hand(sample: str) -> tuple[Renderer, pygame.Rect]:
        renderer = _render(fonts, (800, 480), SAMPLES[sample])
        (button,) = [b for b in renderer.buttons if b.action.name == "by_hand"]
        return renderer, pygame.Rect(button.rect)

    quiet, rect = by_hand("reveal-waiting")
    loud, rect2 = by_hand("reveal-no-camera")
    assert rect.width == rect2.width  # (the banner moves the body down: same button, lower)
    assert _share(loud.surface.subsurface(rect2), ACCENT) > 0.5
    assert _share(quiet.surface.subsurface(rect), ACCENT) < 0.05
    shown = _render(fonts, (800, 480), SAMPLES["reveal-by-hand"])
    texts = [r.text for r in shown.texts]
    assert "手動翻開的卡" in texts and "?" in texts
    assert "辨識卡牌出錯（詳見記錄）" in texts  # (the camera thread's error, in its words)
    assert not [b for b in shown.buttons if b.action.name == "by_hand"]  # one is up already


def test_a_card_held_for_the_host_is_shown_with_the_question(fonts: FontBook) -> None:
    # After a card turned by hand, a card the camera names may be that one or the next: the
    # screen shows the card the camera sees (not the unnamed top) and asks which.
    for lang, words in (("zh-TW", ("攝影機看到這張牌", "腳踏車", "是新翻開的")),
                        ("en", ("The camera sees this card", "Bicycle", "A new card"))):
        shown = _render(fonts, (800, 480), replace(SAMPLES["reveal-held"], lang=lang))
        texts = [r.text for r in shown.texts]
        assert all(w in texts for w in words) and "?" not in texts
        names = [b.action.name for b in shown.buttons]
        assert names.index("held_new") < names.index("held_same")  # confirm takes "new"
        assert "next" not in names and "by_hand" not in names


def test_margin_digits() -> None:
    from display.screens import margin_ms

    assert [margin_ms(us) for us in (3200, 450, 8, 12_345)] == ["3.2", "0.45", "0.008", "12.3"]


def test_zero_margin_without_a_tie_is_the_only_press(fonts: FontBook) -> None:
    snap = SAMPLES["buzz"]
    assert snap.buzz is not None
    alone = replace(snap, buzz=replace(snap.buzz, margin_us=0))
    assert "唯一按下" in [r.text for r in _render(fonts, (800, 480), alone).texts]


def test_a_full_memory_card_takes_no_more_bets(fonts: FontBook) -> None:
    renderer = _render(fonts, (800, 480), SAMPLES["betting-seven-full"])
    bets = {b.action.arg: b.enabled for b in renderer.buttons if b.action.name == "bet"}
    assert bets == {0: False, 1: True, 2: True, 3: True, 4: True, 5: True}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_bet_tokens_show_seat_number_and_shape_not_first_letters(fonts: FontBook,
                                                                 size: tuple[int, int]) -> None:
    """Issue 20 (3): a token is told apart without colour and without first letters."""
    from display.colours import PLAYER_SHAPES
    snap = SAMPLES["betting-seven-full"]
    renderer = _render(fonts, size, snap)
    in_cards = [r.text for r in renderer.texts if r.rect.y < 0.6 * size[1]]
    assert not {"A", "阿", "小", "春", "志", "大"} & set(in_cards)
    bettors = [seat for seat in range(6)]  # the sample's six bettors on scene A
    assert {str(seat + 1) for seat in bettors} <= set(in_cards)
    kinds = [kind for kind, _ in renderer.shapes]
    assert sorted(kinds) == sorted(PLAYER_SHAPES[snap.players[s].colour] for s in bettors)
    assert len(set(PLAYER_SHAPES.values())) == len(PLAYER_SHAPES)  # one shape per colour


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
def test_the_banner_never_covers_content(fonts: FontBook, size: tuple[int, int],
                                         lang: str) -> None:
    """Issue 20 (3): the red banner takes its own band; the body is laid out below it."""
    shown = 0
    for name, snap in snapshots(lang):
        renderer = _render(fonts, size, snap)
        band = renderer.banner_rect
        if band is None:
            continue
        shown += 1
        banner = {id(r) for r in renderer.banner_texts}
        for record in renderer.texts:
            if id(record) not in banner:
                assert not band.colliderect(record.rect), (name, record.text, record.rect, band)
        for button in renderer.buttons:
            assert not band.colliderect(pygame.Rect(button.rect)), (name, button, band)
    assert shown >= 3


@pytest.mark.parametrize("lang", LANGS)
def test_nothing_is_smaller_than_14_px_on_the_small_screen(fonts: FontBook, lang: str) -> None:
    """Issue 20 (3): every text at 800x480 is fitted at 14 px or more (the strip's "8 cards"
    was about 8 px)."""
    for name, snap in snapshots(lang):
        renderer = _render(fonts, (800, 480), snap)
        for record in renderer.texts:
            assert record.px >= 14, (name, record.text, record.px)


@pytest.mark.parametrize(("lang", "words"), [("zh-TW", "攝影機已斷線，4 秒後重試"),
                                             ("en", "Camera disconnected, retrying in 4 s")])
def test_the_camera_banner_counts_down_to_the_next_try(fonts: FontBook, lang: str,
                                                       words: str) -> None:
    from types import SimpleNamespace

    from tablekeeper.vision_link import _camera_status

    status = SimpleNamespace(ok=False, state="disconnected", retry_in_s=3.2)
    reports, text = _camera_status(SimpleNamespace(status=status))
    assert reports and text == "status.camera_retrying:4"
    snap = replace(SAMPLES["reveal-camera-problem"], camera_status=text, lang=lang)
    renderer = _render(fonts, (800, 480), snap)
    assert words in [r.text for r in renderer.texts]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_game_over_chart_names_each_line_at_its_end(fonts: FontBook,
                                                         size: tuple[int, int]) -> None:
    renderer = _render(fonts, size, SAMPLES["over"])
    chart_x = size[0] // 2  # the chart is the right half; the ranking the left
    for info in PLAYERS:
        labels = [r for r in renderer.texts if r.text == info.name and r.rect.x > chart_x]
        assert len(labels) == 1, (info.name, labels)
    rects = [pygame.Rect(r.rect) for r in renderer.texts
             if r.rect.x > chart_x and r.text in {i.name for i in PLAYERS}]
    assert not any(a.colliderect(b) for k, a in enumerate(rects) for b in rects[k + 1:])


@pytest.mark.parametrize("lang", LANGS)
def test_the_default_focus_is_never_the_menu(fonts: FontBook, lang: str) -> None:
    """With nothing to choose (a pass running, the scores counting), the host buttons' focus
    is not on 「選單」: a reflex *confirm* never opens the menu (issue 41). The menu stays a
    touch and a long press of *back* away."""
    import dataclasses

    on_menu = []
    for name, snap in snapshots(lang):
        renderer = _render(fonts, (800, 480), dataclasses.replace(snap, focus=0))
        if renderer.focused is not None and renderer.focused.action.name == "menu":
            on_menu.append(name)
    assert not on_menu


def test_keycaps_only_on_a_box_run_with_a_keyboard(fonts: FontBook) -> None:
    """The keyboard's letters (A, W, T, M ...) are printed on the buttons only when the box
    runs with --keyboard (``Renderer.keycaps``); a box with its own buttons shows none."""
    snap = SAMPLES["betting-must"]
    plain = _render(fonts, (1920, 1080), snap)
    assert any(b.key is not None for b in plain.buttons)
    letters = {pygame.key.name(b.key).upper() for b in plain.buttons if b.key is not None}
    assert not letters & {t.text for t in plain.texts}
    keyboard = Renderer(pygame.Surface((1920, 1080)), fonts=fonts, strict=True)
    keyboard.keycaps = True
    assert keyboard.render(snap)
    assert letters & {t.text for t in keyboard.texts}
