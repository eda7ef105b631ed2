"""The palette: the seven player colours of 什麼不見啦, the text colour readable on each, and
the screen's own colours.

Player colours are named by key (``"red"`` …) everywhere; :data:`PLAYER_COLOURS` keeps the game's
order (紅 黃 藍 綠 橘 棕 紫), then 眨眨眼's black and white. The text colour on a player colour is
whichever of near-black and white has the higher WCAG contrast ratio
(``tests/display/test_display_colours.py`` checks ≥ 4.5:1).
"""

from __future__ import annotations

RGB = tuple[int, int, int]

#: The game's colours, in the order of the rules. Chosen so that each pair stays apart
#: (CIELAB ΔE ≥ 18) for normal sight and simulated protanopia and deuteranopia
#: (``tests/display/test_display_colours.py``; before, red and brown were 6.7 apart for protanopes,
#: blue and purple 10 for deuteranopes). Shapes (:data:`PLAYER_SHAPES`) tell them apart too.
PLAYER_COLOURS: dict[str, RGB] = {
    "red": (241, 60, 71),
    "yellow": (241, 201, 30),
    "blue": (27, 80, 208),
    "green": (30, 176, 107),
    "orange": (247, 94, 17),
    "brown": (104, 52, 26),
    "purple": (174, 71, 180),
}
#: 什麼不見啦's seven, in its order (the setup form's default colours).
COLOUR_KEYS: tuple[str, ...] = tuple(PLAYER_COLOURS)
#: 眨眨眼's two more (its eight: red yellow blue green brown purple black white). Black is a
#: little lifted from the screen's background and white a little dimmed, so both still read
#: as a chip; the shapes tell them apart without colour.
PLAYER_COLOURS.update({"black": (8, 8, 8), "white": (236, 236, 236)})

#: One shape per player colour, so a token is told apart without seeing colour (issue 20).
PLAYER_SHAPES: dict[str, str] = {
    "red": "circle",
    "yellow": "square",
    "blue": "triangle",
    "green": "diamond",
    "orange": "star",
    "brown": "cross",
    "purple": "hexagon",
    "black": "pentagon",
    "white": "ring",
}

BLACK: RGB = (17, 17, 17)
WHITE: RGB = (255, 255, 255)

# Screen colours (a dark theme: bright player colours stand out on it across a table).
BG: RGB = (24, 26, 33)
BG_TOP: RGB = (34, 38, 50)
PANEL: RGB = (44, 49, 64)
PANEL_HI: RGB = (62, 69, 90)
TEXT: RGB = (240, 242, 247)
TEXT_DIM: RGB = (160, 168, 186)
ACCENT: RGB = (94, 234, 212)
GOOD: RGB = (34, 197, 94)
BAD: RGB = (239, 68, 68)
WARN: RGB = (245, 158, 11)
DISABLED: RGB = (90, 95, 110)
SLOT_EMPTY: RGB = (70, 76, 96)


def player_rgb(colour: str) -> RGB:
    """The RGB of a player colour key; an unknown key gives a neutral grey (never raises)."""
    return PLAYER_COLOURS.get(colour, (128, 128, 128))


def _linear(c: int) -> float:
    s = c / 255.0
    return s / 12.92 if s <= 0.04045 else float(((s + 0.055) / 1.055) ** 2.4)


def luminance(rgb: RGB) -> float:
    """WCAG relative luminance."""
    r, g, b = (_linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio between two colours (1 … 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_on(bg: RGB) -> RGB:
    """Black or white, whichever reads better on ``bg``."""
    return BLACK if contrast(BLACK, bg) >= contrast(WHITE, bg) else WHITE
