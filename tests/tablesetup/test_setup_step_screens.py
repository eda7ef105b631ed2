"""Issue 28: the screens of the zones, markers and buttons steps, every sample state at
1920x1080 and 800x480 in both languages, drawn as the set-up area draws a step (the shared
header, the step's body and footer) and checked by the layout check; the views the real
controllers give (a live simulated picture) are drawn too. ``TK_SETUP_SHOTS=DIR`` also writes
the PNGs there (to look at them)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest

from display.fonts import FontBook
from display.i18n import LANGS
from display.layout import problems
from display.model import Snapshot
from display.paint import Painter, TextCache
from display.screens import Frame, header
from display.tablesetup import buttons, markers, step_screen, zones
from display.tablesetup.zones import ZonesView

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
SIZES = ((1920, 1080), (800, 480))
_cache: dict[str, TextCache] = {}


def render(key: str, view: Any, size: tuple[int, int], lang: str, name: str = "") -> Painter:
    pygame.display.init()
    cache = _cache.setdefault("c", TextCache(FontBook()))
    surface = pygame.Surface(size)
    p = Painter(surface, cache, lang)
    header(p, getattr(view, "title", "") or "設定", "")
    draw = step_screen(key)
    assert draw is not None, key
    draw(p, Frame(Snapshot(state=None, now_ms=0, lang=lang), None, 0), view)
    shots = os.environ.get("TK_SETUP_SHOTS")
    return p if not shots else _save(p, shots, name or key, size, lang)


def _save(p: Painter, folder: str, name: str, size: tuple[int, int], lang: str) -> Painter:
    Path(folder).mkdir(parents=True, exist_ok=True)
    pygame.image.save(p.surface, str(Path(folder) / f"{name}-{size[0]}x{size[1]}-{lang}.png"))
    return p


SAMPLES: list[tuple[str, str, Any]] = [
    *(("zones", n, v) for n, v in zones.samples()),
    *(("markers", n, v) for n, v in markers.samples()),
    *(("buttons", n, v) for n, v in buttons.samples()),
]


@pytest.mark.parametrize(("key", "name", "view"), SAMPLES, ids=[s[1] for s in SAMPLES])
def test_each_sample_lays_out_in_both_sizes_and_languages(key: str, name: str,
                                                          view: Any) -> None:
    for size in SIZES:
        for lang in LANGS:
            p = render(key, view, size, lang, name)
            bad = problems(p.texts, size, name, p.fills, p.badges)
            assert not bad, f"{name} {size} {lang}: {bad}"
            assert not any(t.text.startswith("〈") for t in p.texts), \
                [t.text for t in p.texts]
            assert p.buttons, "a step screen always offers a way on or back"


def test_the_controllers_views_draw(tmp_path: Path,
                                    demo_decks: Callable[[str], Any]) -> None:
    """The views the real steps give on the simulated table (a live picture) draw too."""
    from tablekeeper.tablesetup.simzones import lay_zone_cards
    from tablekeeper.tablesetup.zones import STEADY_FRAMES, ZonePlan, ZonesStep
    from vision.simtable import SimulatedTable

    deck = demo_decks("wink")
    table = SimulatedTable(deck, seed=5, size=(1280, 960))
    lay_zone_cards(table, "grid:6x6", deck.ids)
    step = ZonesStep(ZonePlan("grid:6x6"), deck.size, tmp_path / "c.toml", title="眨眨眼")
    for i in range(STEADY_FRAMES):
        step.frame(table.capture().image, (i + 1) * 300_000_000)
    views: list[ZonesView] = [step.view()]
    step.act(_confirm(), 0)
    views.append(step.view())
    for i, view in enumerate(views):
        for size in SIZES:
            p = render("zones", view, size, "zh-TW", f"zones-live-{i}")
            assert not problems(p.texts, size, "zones", p.fills, p.badges)


def _confirm() -> Any:
    from display.input import HostAction

    return HostAction("confirm")
