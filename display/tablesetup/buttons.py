"""The screen of the set-up step "Buttons and lamps" (:mod:`tablekeeper.tablesetup.buttons`).

The seats as tiles, lit (green) once their button answered, the last pressed outlined, the
silent ones named in red; then the tie window: what to wire, the measurement's progress, the
figures and the window proposed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from display import colours as C
from display.input import HostAction
from display.paint import Painter
from display.screens import FOOTER_Y, Frame, footer


@dataclass(frozen=True)
class ButtonsView:
    """What the screen draws. ``problem``: a string key of :mod:`display.i18n` (``params``)."""

    phase: str
    seats: int
    #: the seats (1-based) that answered, their lamps lit
    answered: frozenset[int]
    #: the seats named as not answering (after ``QUIET_S``, or on *done*)
    silent: tuple[int, ...] = ()
    #: seat -> how many times pressed (a seat pressed for another is seen twice)
    presses: Mapping[int, int] = field(default_factory=dict)
    last: int | None = None
    tie_available: bool = True
    #: tie_measuring: (toggles done, toggles in all)
    progress: tuple[int, int] = (0, 0)
    #: tie_result: (p99.9, max, suggested) in microseconds; then the edges measured, missed
    figures: tuple[float, float, float] | None = None
    measured: int = 0
    missed: int = 0
    current_us: float = 100.0
    problem: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)


TOP = 0.13
BOTTOM = FOOTER_Y - 0.015


def draw(p: Painter, f: Frame, view: ButtonsView) -> None:
    if view.phase in ("seats", "missing"):
        _seats(p, view)
    else:
        _tie(p, view)
    choices: list[Any] = []
    if view.phase == "seats":
        choices.append((HostAction("confirm"), p.tr("setup.buttons.btn.done"), None, C.ACCENT,
                        True))
    elif view.phase == "missing":
        choices.append((HostAction("buttons.wait"), p.tr("setup.buttons.btn.wait"), None,
                        C.ACCENT, True))
        choices.append((HostAction("buttons.without"), p.tr("setup.buttons.btn.without"),
                        None, C.PANEL_HI, True))
    elif view.phase == "tie_ready":
        label = "setup.buttons.btn.measure" if view.tie_available else "setup.buttons.btn.done"
        choices.append((HostAction("confirm"), p.tr(label), None, C.ACCENT, True))
        if view.tie_available:
            choices.append((HostAction("buttons.skip"), p.tr("setup.buttons.btn.skip"), None,
                            C.PANEL_HI, True))
    elif view.phase == "jumpers":
        choices.append((HostAction("confirm"), p.tr("setup.buttons.btn.removed"), None,
                        C.ACCENT, True))
    elif view.phase == "tie_result":
        choices.append((HostAction("confirm"), p.tr("setup.btn.save"), None, C.ACCENT, True))
        choices.append((HostAction("buttons.again"), p.tr("setup.buttons.btn.again"), None,
                        C.PANEL_HI, True))
        choices.append((HostAction("buttons.skip"), p.tr("setup.buttons.btn.skip"), None,
                        C.PANEL_HI, True))
    if view.phase not in ("tie_measuring", "done", "jumpers", "jumper_check"):
        choices.append((HostAction("back"), p.tr("setup.btn.back"), None, C.PANEL_HI, True))
    footer(p, choices, undo=False)


def _seats(p: Painter, view: ButtonsView) -> None:
    if view.problem:
        line, colour = p.tr(view.problem, **view.params), C.BAD
    elif len(view.answered) == view.seats:
        line, colour = p.tr("setup.buttons.all"), C.GOOD
    else:
        line, colour = p.tr("setup.buttons.press"), C.TEXT
    p.text(line, p.rect(0.03, TOP, 0.94, 0.1), size=0.05, colour=colour)
    n = view.seats
    cols = 4 if n > 4 else n
    rows = (n + cols - 1) // cols
    gap = 0.02
    cw = (0.94 - gap * (cols - 1)) / cols
    top = TOP + 0.13
    ch = min(0.26, (BOTTOM - top - gap * (rows - 1)) / rows)
    for i in range(n):
        seat = i + 1
        r, c = divmod(i, cols)
        box = p.rect(0.03 + c * (cw + gap), top + r * (ch + gap), cw, ch)
        lit = seat in view.answered
        silent = seat in view.silent
        bg = C.GOOD if lit else (C.BAD if silent else C.PANEL)
        p.fill(box, bg, 0.02)
        if view.last == seat:
            p.outline(box, C.ACCENT, 0.008, 0.02)
        fg = C.BLACK if lit else C.TEXT
        p.text(p.tr("setup.buttons.seat", n=seat), box, size=0.07, colour=fg)


def _tie(p: Painter, view: ButtonsView) -> None:
    x, w = 0.05, 0.9
    if view.phase == "done":
        p.text(p.tr("setup.buttons.done"), p.rect(x, TOP + 0.1, w, 0.12), size=0.06,
               colour=C.GOOD)
        return
    if view.phase in ("jumpers", "jumper_check"):
        key = "setup.buttons.jumper_check" if view.phase == "jumper_check" else \
            "setup.buttons.jumpers"
        p.text(p.tr(key), p.rect(x, TOP + 0.02, w, 0.14), size=0.05)
        p.text(p.tr("setup.buttons.jumpers_why"), p.rect(x, TOP + 0.17, w, 0.1), size=0.04,
               colour=C.TEXT_DIM)
        if view.problem:
            p.text(p.tr(view.problem, **view.params), p.rect(x, TOP + 0.3, w, 0.12),
                   size=0.05, colour=C.BAD)
        return
    if not view.tie_available:
        p.text(p.tr("setup.buttons.no_output"), p.rect(x, TOP + 0.05, w, 0.12), size=0.05)
        return
    p.text(p.tr("setup.buttons.tie_ready"), p.rect(x, TOP + 0.02, w, 0.12), size=0.045)
    if view.problem:
        p.text(p.tr(view.problem, **view.params), p.rect(x, TOP + 0.16, w, 0.1), size=0.045,
               colour=C.BAD)
    if view.phase == "tie_measuring":
        done, total = view.progress
        bar = p.rect(x, TOP + 0.3, w, 0.06)
        p.fill(bar, C.PANEL, 0.01)
        fill = bar.copy()
        fill.width = max(1, round(bar.width * min(1.0, done / max(1, total))))
        p.fill(fill, C.ACCENT, 0.01)
        p.text(p.tr("setup.buttons.tie_measuring", done=done, total=total),
               p.rect(x, TOP + 0.38, w, 0.1), size=0.045)
    elif view.phase == "tie_result" and view.figures is not None:
        p999, most, suggested = view.figures
        p.text(p.tr("setup.buttons.tie_result", us=f"{suggested:g}", now=f"{view.current_us:g}"),
               p.rect(x, TOP + 0.28, w, 0.12), size=0.06, colour=C.GOOD)
        p.text(p.tr("setup.buttons.figures", n=view.measured, max=f"{most:g}", p=f"{p999:g}"),
               p.rect(x, TOP + 0.42, w, 0.1), size=0.04, colour=C.TEXT_DIM)


def samples() -> list[tuple[str, ButtonsView]]:
    """The buttons step in each of its states (an eight-seat box)."""
    some = frozenset({1, 2, 3, 4, 6, 7, 8})
    return [
        ("buttons-start", ButtonsView("seats", 8, frozenset())),
        ("buttons-seats", ButtonsView("seats", 8, frozenset({1, 2, 5}), last=5)),
        ("buttons-silent", ButtonsView("missing", 8, some, (5,), last=8,
                                       problem="setup.buttons.silent",
                                       params={"seats": "5", "count": 1})),
        ("buttons-tie-ready", ButtonsView("tie_ready", 8, frozenset(range(1, 9)))),
        ("buttons-no-edges", ButtonsView("tie_ready", 8, frozenset(range(1, 9)),
                                         problem="setup.buttons.no_edges",
                                         params={"seats": "1 + 2"})),
        ("buttons-measuring", ButtonsView("tie_measuring", 8, frozenset(), progress=(120, 200))),
        ("buttons-tie-result", ButtonsView("tie_result", 8, frozenset(),
                                           figures=(12.4, 17.2, 30.0), measured=200)),
        ("buttons-jumpers", ButtonsView("jumpers", 8, frozenset())),
        ("buttons-jumpers-on", ButtonsView("jumpers", 8, frozenset(),
                                           problem="setup.buttons.jumpers_on",
                                           params={"seats": "1, 2"})),
        ("buttons-keyboard", ButtonsView("tie_ready", 8, frozenset(), tie_available=False)),
    ]
