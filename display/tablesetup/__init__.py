"""The set-up area's screens (issue 28): the hub, and one screen per set-up step.

A step's screen is drawn by the function registered for the step's key in
:data:`STEP_SCREENS` (``"module:function"``, imported when first drawn, the way
:data:`tablekeeper.games.KITS` names kits: a step whose module is not installed yet is offered
as "not available yet" instead). The function is a :data:`StepDraw`: it gets the painter, the
frame and the step's view (``Step.view()``, :mod:`tablekeeper.tablesetup.step`) and draws the
body and the footer (:func:`display.screens.footer` with the step's choices, ``undo=False``;
the area draws the header, with the game's and the step's titles, and the banner). Its buttons'
actions go to the step's ``act``; the host buttons walk them (:func:`display.input.focus_order`:
a button whose action is named ``confirm`` first, risky ones last).

:func:`draw_picture` draws a step's live camera picture (:class:`Picture`, a value any step's view
may hold; :mod:`tablekeeper.tablesetup.step` gives it on) with the outlines and boxes over it.

Shared screens know no game: titles and card names come from the kit and the deck, in the view.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pygame

from display import colours as C
from display.paint import Painter
from display.screens import Frame

_log = logging.getLogger(__name__)

#: a box in the camera picture, normalised to its width and height: (x, y, w, h) in 0..1
Box = tuple[float, float, float, float]

#: a quadrilateral in the camera picture, normalised: four (x, y) corners, 0..1
Quad = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]


@dataclass(frozen=True)
class Picture:
    """The live camera picture a step's screen shows, with what the step found drawn over it.

    ``image`` is the frame (BGR, any size; not compared: ``seq`` changes when it does, so the
    renderer redraws only for a new frame); ``outlines`` are quads found (normalised), each
    with a colour name (``"good"``, ``"bad"``, ``"info"``); ``boxes`` normalised boxes to show
    (zones, where to lay a marker), each with a label (shown as is) and a colour name."""

    image: Any = field(compare=False, repr=False)
    seq: int = 0
    outlines: tuple[tuple[Quad, str], ...] = ()
    boxes: tuple[tuple[Box, str, str], ...] = ()


#: ``draw(painter, frame, step_view)``: a step's screen (body and footer)
StepDraw = Callable[[Painter, Frame, Any], None]

#: step key -> "module:function" of its screen (all four named from the start)
STEP_SCREENS: dict[str, str] = {
    "cards": "display.tablesetup.cards:draw",
    "zones": "display.tablesetup.zones:draw",
    "markers": "display.tablesetup.markers:draw",
    "buttons": "display.tablesetup.buttons:draw",
}

_loaded: dict[str, StepDraw | None] = {}


def step_screen(key: str) -> StepDraw | None:
    """The draw function of step ``key``'s screen; None: no such step, or its module is not
    installed in this box (the hub says "not available yet")."""
    if key in _loaded:
        return _loaded[key]
    target = STEP_SCREENS.get(key)
    draw: StepDraw | None = None
    if target is not None:
        module_name, _, name = target.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise  # the module is there but something it imports is not: a real bug
            _log.info("set-up: step %s has no screen in this box (%s)", key, module_name)
        else:
            draw = getattr(module, name)
    _loaded[key] = draw
    return draw


#: the colours a :class:`Picture`'s outlines and boxes are named by
PICTURE_COLOURS: dict[str, C.RGB] = {"good": C.GOOD, "bad": C.BAD, "info": C.ACCENT,
                                     "warn": C.WARN}


def picture_surface(image: Any) -> pygame.Surface | None:
    """A BGR (or grey) numpy frame as a pygame surface; None if it is no image."""
    try:
        arr = np.asarray(image)
        if arr.ndim == 2:
            arr = np.stack([arr] * 3, axis=-1)
        if arr.ndim != 3 or arr.shape[2] < 3 or arr.size == 0:
            return None
        rgb = np.ascontiguousarray(arr[:, :, 2::-1].swapaxes(0, 1)).astype(np.uint8)
        return pygame.surfarray.make_surface(rgb)
    except (ValueError, TypeError, IndexError):
        return None


def draw_picture(p: Painter, box: pygame.Rect, picture: Any) -> pygame.Rect:
    """Draw ``picture`` (a :class:`tablekeeper.tablesetup.step.Picture`, or None: "no
    picture") fitted into ``box``, its outlines and boxes over it; returns where the image
    went (the outlines' frame)."""
    p.fill(box, C.BLACK)
    image = getattr(picture, "image", None)
    surface = picture_surface(image) if image is not None else None
    if surface is None:
        p.text(p.tr("tablesetup.no_picture"), box, size=0.05, colour=C.TEXT_DIM)
        return pygame.Rect(box)
    iw, ih = surface.get_size()
    scale = min(box.width / iw, box.height / ih)
    w, h = max(1, round(iw * scale)), max(1, round(ih * scale))
    at = pygame.Rect(box.x + (box.width - w) // 2, box.y + (box.height - h) // 2, w, h)
    p.surface.blit(pygame.transform.smoothscale(surface, (w, h)), at)
    thick = max(2, p.px(0.005))
    for quad, colour in getattr(picture, "outlines", ()):
        points = [(at.x + x * w, at.y + y * h) for x, y in quad]
        pygame.draw.lines(p.surface, PICTURE_COLOURS.get(colour, C.ACCENT), True, points, thick)
    for (bx, by, bw, bh), label, colour in getattr(picture, "boxes", ()):
        rect = pygame.Rect(round(at.x + bx * w), round(at.y + by * h), max(1, round(bw * w)),
                           max(1, round(bh * h)))
        rgb = PICTURE_COLOURS.get(colour, C.ACCENT)
        pygame.draw.rect(p.surface, rgb, rect, thick)
        if label:
            tag = pygame.Rect(rect.x, rect.y, rect.width, min(rect.height, p.px(0.05)))
            p.text(label, tag, size=0.035, colour=rgb)
    return at
