"""The screen of the set-up step "Wink's markers" (and the ring's tokens;
:mod:`tablekeeper.tablesetup.markers`).

Left, the live picture with a numbered box on each place a colour goes (yellow until the
camera sees it there, then green; the last box is the card turned face down). Right, what to
do now and the list of the colours in the order they are laid: *1 red r1c1* ... ticked off as
seen; once measured, each colour as the camera saw it (a swatch) and its nearest other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pygame

from display import colours as C
from display.input import HostAction
from display.paint import Painter
from display.screens import FOOTER_Y, Frame, footer
from display.tablesetup import draw_picture
from display.tablesetup.zones import wrapped


@dataclass(frozen=True, eq=False)
class MarkersView:
    """What the screen draws (the step's phases: ``need_zones``, ``before``, ``after``,
    ``result``, ``saved``). ``problem``: a string key of :mod:`display.i18n` (``params``)."""

    phase: str
    mode: str  # "grid" (Wink's markers) or "ring" (什麼不見啦's tokens)
    title: str
    #: colour -> the zone it is laid on, in the order they are laid
    placed: Mapping[str, str]
    back: str | None
    #: the colours (and "back") the camera sees laid (phase ``after``)
    seen: frozenset[str] = frozenset()
    #: phase ``before``: the cells that changed since it began (the cards being laid)
    up: int = 0
    #: phase ``result``: colour -> (RGB as measured, nearest other colour, its distance)
    measured: Mapping[str, tuple[tuple[int, int, int], str, float]] = field(default_factory=dict)
    #: the live picture (a :class:`tablekeeper.tablesetup.step.Picture`), where each colour
    #: goes boxed over it; None: no picture
    shown: Any = None
    problem: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    ready: bool = False


TOP = 0.13
BOTTOM = FOOTER_Y - 0.015
PANEL_X = 0.6  # (wider than the zones': the measured colours' column)


def colour_name(p: Painter, colour: str) -> str:
    return p.tr(f"setup.marker.{colour}")


def _instruction(p: Painter, view: MarkersView) -> tuple[str, C.RGB]:
    if view.problem:
        params = dict(view.params)
        for k in ("a", "b"):
            if k in params:
                params[k] = colour_name(p, str(params[k]))
        return p.tr(view.problem, **params), C.BAD
    if view.phase == "before":
        return p.tr(f"setup.markers.lay_{view.mode}"), C.TEXT
    if view.phase == "after":
        laid = all(c in view.seen for c in view.placed) and (
            view.back is None or "back" in view.seen)
        return (p.tr("setup.markers.measure"), C.GOOD) if laid else (
            p.tr("setup.markers.put_all"), C.TEXT)
    if view.phase == "result":
        return p.tr("setup.markers.save"), C.GOOD
    if view.phase == "saved":
        return p.tr("setup.markers.saved"), C.GOOD
    return "", C.TEXT


def draw(p: Painter, f: Frame, view: MarkersView) -> None:
    draw_picture(p, p.rect(0.02, TOP, PANEL_X - 0.035, BOTTOM - TOP), view.shown)
    x, w = PANEL_X, 0.98 - PANEL_X
    text, colour = _instruction(p, view)
    wrapped(p, text, p.rect(x, TOP, w, 0.13), size=0.042, colour=colour)
    if view.phase in ("after", "result", "saved"):
        _colours(p, view, x, w)
    choices: list[Any] = []
    # (the main button looks disabled until it can act, the instruction above says why; it
    # still takes a press, which says why again; the focus starts on what can act, never on
    # starting over, which drops the picture taken before)
    if view.phase == "before":
        choices.append((HostAction("confirm"), p.tr("setup.markers.btn.laid"), None,
                        C.ACCENT, True))
    elif view.phase == "after":
        choices.append((HostAction("confirm"), p.tr("setup.markers.btn.measure"), None,
                        C.ACCENT, True))
    elif view.phase == "result":
        choices.append((HostAction("confirm"), p.tr("setup.btn.save"), None, C.ACCENT, True))
    if view.phase in ("after", "result"):
        choices.append((HostAction("markers.again"), p.tr("setup.markers.btn.again"), None,
                        C.PANEL_HI, True, True))
    choices.append((HostAction("back"), p.tr("setup.btn.back"), None, C.PANEL_HI, True))
    waiting = (frozenset({"confirm"}) if view.phase in ("before", "after") and not view.ready
               else frozenset())
    footer(p, choices, undo=False, waiting=waiting, why=text)


def _colours(p: Painter, view: MarkersView, x: float, w: float) -> None:
    """One row per colour: its number (the box on the picture), its name and place; ticked
    off when seen; measured: a swatch and the nearest other colour."""
    rows: list[tuple[str, str, str]] = [(c, colour_name(p, c), z)
                                        for c, z in view.placed.items()]
    if view.back is not None:
        rows.append(("back", p.tr("setup.markers.back"), view.back))
    top = TOP + 0.14
    h = min(0.075, (BOTTOM - top) / max(1, len(rows)))
    for i, (key, name, cell) in enumerate(rows):
        y = top + i * h
        seen = key in view.seen or view.phase in ("result", "saved")
        mark = C.GOOD if seen else C.WARN
        p.fill(p.rect(x, y + 0.006, 0.03, h - 0.012), mark, 0.006)
        p.text(str(i + 1) if key != "back" else "", p.rect(x, y, 0.03, h), size=0.035,
               colour=C.BLACK)
        p.text(f"{name} {cell}", p.rect(x + 0.04, y, 0.125 if key == "back" else 0.12, h),
               size=0.04, align="left")
        measured = view.measured.get(key)
        if measured is not None:
            rgb, other, d = measured
            swatch = p.rect(x + 0.165, y + 0.008, 0.03, h - 0.016)
            pygame.draw.rect(p.surface, rgb, swatch)
            p.outline(swatch, C.TEXT_DIM, 0.002)
            if other:
                p.text(p.tr("setup.markers.near", other=colour_name(p, other), d=round(d)),
                       p.rect(x + 0.2, y, w - 0.2, h), size=0.035, colour=C.TEXT_DIM,
                       align="left")


def samples() -> list[tuple[str, MarkersView]]:
    """The markers step in each of its states (Wink's eight colours)."""
    from display.tablesetup.zones import SamplePicture, sample_table

    cells = tuple(((c + 0.5) / 6, (r + 0.5) / 6) for r in range(6) for c in range(6))
    image = sample_table(cells, card=(0.12, 0.13))
    colours = ("red", "yellow", "blue", "green", "brown", "purple", "black", "white")
    placed = {c: f"r{i // 6 + 1}c{i % 6 + 1}" for i, c in enumerate(colours)}
    boxes = tuple(((x - 0.08, y - 0.08, 0.16, 0.16), str(i + 1), "good" if i < 5 else "warn")
                  for i, (x, y) in enumerate(cells[:8]))
    seen = frozenset(colours[:5])
    measured = {c: ((200 - 20 * i, 40 + 20 * i, 60 + 15 * i), colours[(i + 1) % 8], 30.0 + i)
                for i, c in enumerate(colours)}
    base = MarkersView("before", "grid", "眨眨眼", placed, "r6c6",
                       shown=SamplePicture(image, 1), ready=True)
    return [
        ("markers-need-grid", MarkersView("need_zones", "grid", "眨眨眼", placed, "r6c6",
                                          problem="setup.markers.no_grid")),
        ("markers-before", base),
        ("markers-after", MarkersView(**{**base.__dict__, "phase": "after", "seen": seen,
                                         "shown": SamplePicture(image, 2, (), boxes)})),
        ("markers-missing", MarkersView(**{**base.__dict__, "phase": "after", "seen": seen,
                                           "problem": "setup.markers.missing",
                                           "params": {"count": 3},
                                           "shown": SamplePicture(image, 2, (), boxes)})),
        ("markers-too-close", MarkersView(**{**base.__dict__, "phase": "after",
                                             "seen": frozenset((*colours, "back")),
                                             "problem": "setup.markers.too_close",
                                             "params": {"a": "red", "b": "yellow"}})),
        ("markers-result", MarkersView(**{**base.__dict__, "phase": "result",
                                          "seen": frozenset((*colours, "back")),
                                          "measured": measured})),
    ]
