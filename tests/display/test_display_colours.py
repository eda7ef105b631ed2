"""Player colours: the seven of the game, each with a readable text colour."""

from __future__ import annotations

import itertools
import math

import display_testing  # noqa: F401  (headless SDL first)
import pytest

from display.colours import BAD, GOOD, PLAYER_COLOURS, WARN, contrast, player_rgb, text_on


def test_the_seven_colours_of_the_game() -> None:
    assert list(PLAYER_COLOURS)[:7] == ["red", "yellow", "blue", "green", "orange", "brown",
                                        "purple"]
    assert list(PLAYER_COLOURS)[7:] == ["black", "white"]  # 眨眨眼's two more
    assert len(set(PLAYER_COLOURS.values())) == 9


def test_every_colour_has_its_own_shape() -> None:
    from display.colours import PLAYER_SHAPES

    assert set(PLAYER_SHAPES) == set(PLAYER_COLOURS)
    assert len(set(PLAYER_SHAPES.values())) == len(PLAYER_SHAPES)


def test_text_on_each_player_colour_is_readable() -> None:
    for name, rgb in PLAYER_COLOURS.items():
        assert contrast(text_on(rgb), rgb) >= 4.5, name


def test_text_on_status_colours_is_readable() -> None:
    for rgb in (GOOD, BAD, WARN):
        assert contrast(text_on(rgb), rgb) >= 4.0


def test_expected_text_colours() -> None:
    dark = {k for k, v in PLAYER_COLOURS.items() if text_on(v) != (255, 255, 255)}
    assert dark == {"red", "yellow", "green", "orange", "white"}


def test_unknown_colour_is_grey_not_an_error() -> None:
    assert player_rgb("chartreuse") == (128, 128, 128)


# Colour-vision deficiency: Machado, Oliveira & Fernandes (2009), severity 1.0, applied in
# linear sRGB; distances are CIE76 ΔE in CIELAB (D65).
_PROTANOPIA = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
               (-0.003882, -0.048116, 1.051998))
_DEUTERANOPIA = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                 (-0.011820, 0.042940, 0.968881))
_NORMAL = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def _lab(rgb: tuple[int, int, int], sim: tuple[tuple[float, ...], ...]) -> tuple[float, ...]:
    def lin(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    linear = [lin(c) for c in rgb]
    r, g, b = (min(1.0, max(0.0, sum(m * x for m, x in zip(row, linear, strict=True))))
               for row in sim)
    xyz = (0.4124 * r + 0.3576 * g + 0.1805 * b, 0.2126 * r + 0.7152 * g + 0.0722 * b,
           0.0193 * r + 0.1192 * g + 0.9505 * b)

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = (f(v / w) for v, w in zip(xyz, (0.95047, 1.0, 1.08883), strict=True))
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


@pytest.mark.parametrize("sim", [_NORMAL, _PROTANOPIA, _DEUTERANOPIA],
                         ids=["normal", "protanopia", "deuteranopia"])
def test_player_colours_stay_apart_for_colour_blind_players(
        sim: tuple[tuple[float, ...], ...]) -> None:
    labs = {k: _lab(v, sim) for k, v in PLAYER_COLOURS.items()}
    for a, b in itertools.combinations(labs, 2):
        delta = math.dist(labs[a], labs[b])
        assert delta >= 18, f"{a} and {b} are {delta:.1f} apart (CIELAB ΔE)"


def test_the_old_palette_fails_the_simulation() -> None:
    """The check can fail: the palette before (red and brown merged for protanopes)."""
    red, brown = _lab((220, 38, 38), _PROTANOPIA), _lab((120, 72, 36), _PROTANOPIA)
    assert math.dist(red, brown) < 10


def test_the_focus_ring_shows_on_every_colour_it_can_sit_on() -> None:
    """WCAG's non-text contrast (3:1) for the host buttons' focus: the ring (yellow, with dark
    edges inside and outside) against every seat colour and every tile and button colour of
    the screen; and its yellow against its own edge (it reads as a ring). Before, the ring
    was yellow alone: 1.2:1 on the yellow seat's tile."""
    from display import colours as C
    from display.screens import FOCUS_COLOUR, FOCUS_EDGE

    surfaces = {**C.PLAYER_COLOURS, "BG": C.BG, "BG_TOP": C.BG_TOP, "PANEL": C.PANEL,
                "PANEL_HI": C.PANEL_HI, "ACCENT": C.ACCENT, "WARN": C.WARN, "BAD": C.BAD,
                "GOOD": C.GOOD, "DISABLED": C.DISABLED, "SLOT_EMPTY": C.SLOT_EMPTY}
    weak = {name: round(max(C.contrast(FOCUS_COLOUR, rgb), C.contrast(FOCUS_EDGE, rgb)), 2)
            for name, rgb in surfaces.items()
            if max(C.contrast(FOCUS_COLOUR, rgb), C.contrast(FOCUS_EDGE, rgb)) < 3.0}
    assert not weak, weak
    assert C.contrast(FOCUS_COLOUR, FOCUS_EDGE) >= 3.0
    # the yellow alone fails on the yellow seat: the edge is what shows there
    assert C.contrast(FOCUS_COLOUR, C.PLAYER_COLOURS["yellow"]) < 3.0
    assert C.contrast(FOCUS_EDGE, C.PLAYER_COLOURS["yellow"]) >= 3.0


def test_the_focus_ring_is_drawn_with_both_colours_around_a_yellow_tile() -> None:
    import pygame

    from display.fonts import FontBook
    from display.paint import Painter, TextCache
    from display.screens import FOCUS_COLOUR, FOCUS_EDGE, focus_ring

    surface = pygame.Surface((800, 480))
    yellow = (241, 201, 30)
    surface.fill(yellow)
    focus_ring(Painter(surface, TextCache(FontBook()), "en"), (300, 200, 100, 60))
    # along a line left of the tile: the edge right next to it, then the yellow, then the edge
    row = [tuple(surface.get_at((x, 230)))[:3] for x in range(280, 300)]
    assert FOCUS_EDGE in row and FOCUS_COLOUR in row
    assert row[-1] == FOCUS_EDGE  # touching the tile: the dark edge
