"""Player colours: the seven of the game, each with a readable text colour."""

from __future__ import annotations

import display_testing  # noqa: F401  (headless SDL first)

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
    assert dark == {"yellow", "green", "orange", "white"}


def test_unknown_colour_is_grey_not_an_error() -> None:
    assert player_rgb("chartreuse") == (128, 128, 128)
