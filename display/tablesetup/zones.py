"""The screen of the set-up step "Show the box the table" (:mod:`tablekeeper.tablesetup.zones`).

Left, the live camera picture: the cards found outlined, the zones drawn over it (the one
being adjusted bright). Right, what to lay and what the box sees (how many cards of how many,
or what is wrong); while adjusting, the zone chosen and the buttons that change it. The
footer holds the step's main choice (*take these zones* / *save*), *find again* and *back*.
The screen knows no game: the layout's kind names what to lay, the game's title comes in the
view.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from display import colours as C
from display.input import HostAction
from display.paint import Painter
from display.screens import FOOTER_Y, Frame, footer
from display.tablesetup import draw_picture


@dataclass(frozen=True, eq=False)
class ZonesView:
    """What the screen draws (the step's phases: ``look``, ``adjust``, ``saved``).
    ``problem`` is a string key of :mod:`display.i18n` (with ``params``), or None."""

    phase: str
    #: the layout's kind (``pile``, ``rows``, ``grid``, ``area`` ...) and how many cards it
    #: takes (each count it accepts; empty: any from 1)
    kind: str
    cards_wanted: tuple[int, ...]
    title: str
    #: the zones found or taken, by name
    zone_names: tuple[str, ...] = ()
    #: how many cards the last frame searched showed (None: none searched)
    found: int | None = None
    #: the zone *bigger* / *smaller* / *move* change (index into ``zone_names``); None: all
    selected: int | None = None
    #: the live picture (a :class:`tablekeeper.tablesetup.step.Picture`) with the cards found
    #: and the zones drawn over it; None: no picture
    shown: Any = None
    problem: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    #: the zones can be taken (look) / saved (adjust)
    ready: bool = False


#: the body's band (below the area's header and banner, above the footer)
TOP = 0.13
BOTTOM = FOOTER_Y - 0.015
PANEL_X = 0.645


def _status(p: Painter, view: ZonesView) -> tuple[str, C.RGB]:
    """The line under the instructions: what is wrong (red), or what the box sees."""
    if view.problem:
        return p.tr(view.problem, **view.params), C.BAD
    if view.phase == "saved":
        return p.tr("setup.zones.saved"), C.GOOD
    if view.phase == "adjust":
        return p.tr("setup.zones.save"), C.TEXT
    if view.ready:
        return p.tr("setup.zones.take"), C.GOOD
    if view.found:
        return p.tr("setup.zones.steady", found=view.found), C.TEXT_DIM
    if view.phase == "look":  # why 「用這些區域」 cannot act yet
        return p.tr("setup.zones.empty"), C.TEXT_DIM
    return "", C.TEXT_DIM


def draw(p: Painter, f: Frame, view: ZonesView) -> None:
    picture = p.rect(0.02, TOP, PANEL_X - 0.035, BOTTOM - TOP)
    draw_picture(p, picture, view.shown)
    x, w = PANEL_X, 0.98 - PANEL_X
    wrapped(p, p.tr(f"setup.zones.lay.{view.kind}",
                    n=view.cards_wanted[0] if view.cards_wanted else 2),
            p.rect(x, TOP, w, 0.15), size=0.045)
    line, colour = _status(p, view)
    wrapped(p, line, p.rect(x, TOP + 0.16, w, 0.11), size=0.04, colour=colour)
    if view.phase == "adjust":
        _adjust(p, view, x, w)
    choices: list[Any] = []
    if view.phase == "look":
        # (looks disabled before the cards are found, the line above says why; it still
        # takes a press, which says why again; the focus starts on what can act, and
        # moves to it once the cards are found)
        choices.append((HostAction("confirm"), p.tr("setup.zones.btn.take"), None,
                        C.ACCENT, True))
    elif view.phase == "adjust":
        choices.append((HostAction("confirm"), p.tr("setup.btn.save"), None, C.ACCENT, True))
        choices.append((HostAction("zones.again"), p.tr("setup.zones.btn.again"), None,
                        C.PANEL_HI, True))
    choices.append((HostAction("back"), p.tr("setup.btn.back"), None, C.PANEL_HI, True))
    waiting = frozenset({"confirm"}) if view.phase == "look" and not view.ready else frozenset()
    footer(p, choices, undo=False, waiting=waiting, why=line)


_ROW = re.compile(r"row(\d+)")
_CELL = re.compile(r"r(\d+)c(\d+)")
_RING = re.compile(r"(scene|memory)(\d+)")


def zone_label(tr: Callable[..., str], name: str) -> str:
    """A zone's name as the host reads it: ``row2`` is "Row 2" / 「第 2 排」, ``r1c6`` "Row 1,
    card 6", ``scene3`` "Scene 3", ``pile`` and ``centre`` the play area; a name the host
    gave in the config is shown as it is."""
    if m := _ROW.fullmatch(name):
        return tr("setup.zones.name.row", n=int(m[1]))
    if m := _CELL.fullmatch(name):
        return tr("setup.zones.name.cell", r=int(m[1]), c=int(m[2]))
    if m := _RING.fullmatch(name):
        return tr(f"setup.zones.name.{m[1]}", n=int(m[2]))
    if name in ("pile", "centre", "area"):
        return tr(f"setup.zones.name.{name}")
    return name


def _adjust(p: Painter, view: ZonesView, x: float, w: float) -> None:
    """The zone chosen and the buttons that change it (the host buttons walk them)."""
    name = (p.tr("setup.zones.all") if view.selected is None
            else zone_label(p.tr, view.zone_names[view.selected]))
    y = TOP + 0.28
    p.button(p.rect(x, y, w, 0.1), HostAction("zones.pick"),
             p.tr("setup.zones.btn.pick", name=name), size=0.04)
    half = (w - 0.01) / 2
    rows = (("zones.grow", "setup.zones.btn.grow", "zones.shrink", "setup.zones.btn.shrink"),
            ("zones.left", "setup.zones.btn.left", "zones.right", "setup.zones.btn.right"),
            ("zones.up", "setup.zones.btn.up", "zones.down", "setup.zones.btn.down"))
    for i, (a, a_key, b, b_key) in enumerate(rows):
        ry = y + 0.115 * (i + 1)
        p.button(p.rect(x, ry, half, 0.1), HostAction(a), p.tr(a_key), size=0.04)
        p.button(p.rect(x + half + 0.01, ry, half, 0.1), HostAction(b), p.tr(b_key), size=0.04)


# -- samples (tests, ``display shots``): the step's states on a drawn table ---------------------


@dataclass(frozen=True)
class SamplePicture:
    """A stand-in for the step's :class:`~tablekeeper.tablesetup.step.Picture` (the display
    cannot import it): a drawn table with cards, and what is drawn over it."""

    image: Any = field(compare=False, repr=False)
    seq: int = 0
    outlines: tuple[tuple[Any, str], ...] = ()
    boxes: tuple[tuple[tuple[float, float, float, float], str, str], ...] = ()


def sample_table(cards: tuple[tuple[float, float], ...], size: tuple[int, int] = (320, 240),
                 card: tuple[float, float] = (0.09, 0.17)) -> Any:
    """A table (BGR) with light cards centred at ``cards`` (normalised)."""
    import numpy as np

    w, h = size
    image = np.zeros((h, w, 3), np.uint8)
    image[:] = (40, 70, 35)
    for cx, cy in cards:
        x0, y0 = int((cx - card[0] / 2) * w), int((cy - card[1] / 2) * h)
        image[max(0, y0):y0 + int(card[1] * h), max(0, x0):x0 + int(card[0] * w)] = (225, 230, 232)
    return image


def _quad(cx: float, cy: float, w: float, h: float) -> Any:
    return ((cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2),
            (cx - w / 2, cy + h / 2))


def samples() -> list[tuple[str, ZonesView]]:
    """The zones step in each of its states (The Game's four rows)."""
    xs = (0.14, 0.38, 0.62, 0.86)
    image = sample_table(tuple((x, 0.5) for x in xs))
    cards = tuple((_quad(x, 0.5, 0.09, 0.17), "info") for x in xs)
    zones = tuple((_quad(x, 0.5, 0.14, 0.26), "warn") for x in xs)
    names = ("row1", "row2", "row3", "row4")
    base = ZonesView("look", "rows", (4,), "致命遊戲")
    return [
        ("zones-look-empty", ZonesView(**{**base.__dict__,
                                          "shown": SamplePicture(sample_table(()), 0, ())})),
        ("zones-look-few", ZonesView(**{**base.__dict__, "found": 3,
                                        "shown": SamplePicture(image, 1, cards[:3]),
                                        "problem": "setup.zones.few",
                                        "params": {"found": 3, "want": "4"}})),
        ("zones-look-ready", ZonesView(**{**base.__dict__, "found": 4, "zone_names": names,
                                          "shown": SamplePicture(image, 2, cards + zones),
                                          "ready": True})),
        ("zones-adjust", ZonesView(**{**base.__dict__, "phase": "adjust", "zone_names": names,
                                      "selected": 1, "ready": True,
                                      "shown": SamplePicture(image, 3, tuple(
                                          (q, "good" if i == 1 else "warn")
                                          for i, (q, _c) in enumerate(zones)))})),
        ("zones-not-saved", ZonesView(**{**base.__dict__, "phase": "adjust",
                                         "zone_names": names, "ready": True,
                                         "problem": "setup.config.broken",
                                         "shown": SamplePicture(image, 4, zones)})),
        ("zones-no-camera", ZonesView(**{**base.__dict__, "kind": "grid",
                                         "cards_wanted": (4, 36),
                                         "problem": "setup.zones.no_camera"})),
    ]


def _breaks(text: str, k: int) -> list[str]:
    """``text`` cut into ``k`` lines of about equal length: at spaces (a sentence of
    words), else after punctuation or between characters (Chinese)."""
    if " " in text.strip():
        words = text.split()
        out: list[str] = []
        target = len(text) / k
        line = ""
        for word in words:
            if line and len(line) + 1 + len(word) > target and len(out) < k - 1:
                out.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        return [*out, line]
    out = []
    rest = text
    for i in range(k - 1, 0, -1):
        cut = len(rest) // (i + 1)
        near = [j + 1 for j, ch in enumerate(rest) if ch in "，：；、。）」" and
                abs(j + 1 - cut) <= max(2, cut // 3)]
        at = min(near, key=lambda j: abs(j - cut)) if near else cut
        out.append(rest[:at])
        rest = rest[at:]
    return [*out, rest]


def wrapped(p: Painter, text: str, box: Any, *, size: float, colour: C.RGB = C.TEXT,
            align: str = "left", least: int = 16) -> None:
    """``text`` in ``box``: one line if it fits at ``least`` px or more, else two or three
    lines (a long message in a narrow panel stays readable on the small screen)."""
    import pygame

    lines = [text]
    for k in (2, 3):
        if p.fits_at(lines[0] if len(lines) == 1 else max(lines, key=len),
                     pygame.Rect(box.x, box.y, box.width, box.height // len(lines)),
                     size) >= least:
            break
        lines = _breaks(text, k)
    h = box.height // len(lines)
    for i, line in enumerate(lines):
        p.text(line, pygame.Rect(box.x, box.y + i * h, box.width, h), size=size,
               colour=colour, align=align)  # type: ignore[arg-type]
