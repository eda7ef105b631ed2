"""A screen mounted turned: ``[screen] rotate = 0 | 90 | 180 | 270`` (degrees clockwise, as the
picture must be turned on the panel to stand upright for the players).

The screens are drawn on an off-screen *logical* surface of the upright picture's size (the
panel's size, width and height swapped for 90 and 270); :func:`to_panel` turns that picture onto
the panel's surface on every flip, and :func:`to_logical` takes a touch or a click on the panel
back to the logical picture, so a button is pressed where it is seen. Picture and touch turn
together: unlike ``dtoverlay=...,invx,invy``, which turns only the touch (hardware.md, section 1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pygame

ROTATIONS = (0, 90, 180, 270)


def check_rotation(value: object, key: str = "screen.rotate") -> int:
    """``value`` as a rotation, or ValueError in one line."""
    if isinstance(value, bool) or not isinstance(value, int) or value not in ROTATIONS:
        raise ValueError(f"{key}: {value!r} is not one of 0, 90, 180, 270 (degrees "
                         "clockwise)")
    return value


def logical_size(panel: tuple[int, int], rotate: int) -> tuple[int, int]:
    """The upright picture's size on a panel of ``panel`` px turned by ``rotate``."""
    return (panel[1], panel[0]) if rotate in (90, 270) else panel


def to_panel(picture: pygame.Surface, rotate: int) -> pygame.Surface:
    """The upright ``picture`` turned ``rotate`` degrees clockwise, as the panel shows it."""
    import pygame

    if rotate == 0:
        return picture
    return pygame.transform.rotate(picture, -rotate)  # pygame turns anticlockwise


def to_logical(point: tuple[float, float], panel: tuple[int, int],
               rotate: int) -> tuple[float, float]:
    """A point of the panel (a touch, a click; px) in the upright picture's px."""
    x, y = point
    w, h = panel
    if rotate == 90:  # the picture's top-left corner is at the panel's top-right
        return (y, w - 1 - x)
    if rotate == 180:
        return (w - 1 - x, h - 1 - y)
    if rotate == 270:  # ... at the panel's bottom-left
        return (h - 1 - y, x)
    return (x, y)
