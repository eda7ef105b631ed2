"""The set-up area's screen: the hub (a game's steps and whether each is done) or a step.

The hub lists the chosen game's steps (:class:`tablekeeper.tablesetup.area.AreaView`), each a
button with its status; the footer's main choice (the focus's default) opens the first step
still missing, or goes back to the games when all is done; *other game* walks the games.
A step's own screen is the function :mod:`display.tablesetup` registers for its key; the
header (the step's name, the game's title) is drawn here for every step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from display import colours as C
from display.input import HostAction
from display.paint import Painter
from display.screens import BODY_TOP, FOOTER_Y, FooterChoice, Frame, footer, header
from display.tablesetup import step_screen


@dataclass(frozen=True)
class GameSteps:
    """One game in the hub: its names and each step's status (key, a ``StepStatus`` value:
    done, missing, optional, unavailable)."""

    name: str
    title_zh: str
    title_en: str
    steps: tuple[tuple[str, str], ...]
    #: the game can be played although steps are missing: the simulated table's demo deck
    #: and zones stand in for them (the demo; never with a real camera)
    stands_in: bool = False

    def title(self, lang: str) -> str:
        return self.title_en if lang == "en" else self.title_zh

    def first_missing(self) -> str | None:
        return next((k for k, s in self.steps if s == "missing"), None)


@dataclass(frozen=True)
class AreaView:
    """What the set-up area's screen shows: the hub (``step`` None) or a step's screen."""

    games: tuple[GameSteps, ...]
    chosen: int
    step: str | None = None
    step_view: Any = None

    @property
    def game(self) -> GameSteps:
        return self.games[self.chosen]


STATUS_COLOURS: dict[str, C.RGB] = {"done": C.GOOD, "missing": C.WARN, "optional": C.ACCENT,
                                    "unavailable": C.TEXT_DIM}


def draw_area(p: Painter, f: Frame) -> None:
    view: Any = f.snap.tablesetup
    p.surface.fill(C.BG)
    game = view.game
    if view.step is None:
        header(p, p.tr("tablesetup.title"), game.title(p.lang))
        _hub(p, view)
        return
    header(p, p.tr(f"tablesetup.step.{view.step}"), game.title(p.lang))
    draw = step_screen(view.step)
    if draw is None:
        p.text(p.tr("tablesetup.unavailable"), p.rect(0.05, 0.3, 0.9, 0.2), size=0.06)
        footer(p, [(HostAction("back"), p.tr("tablesetup.back_home"), None, C.PANEL_HI,
                    True)], undo=False)
        return
    draw(p, f, view.step_view)


def _hub(p: Painter, view: Any) -> None:
    game = view.game
    missing = game.first_missing()
    ready = missing is None
    state = ("tablesetup.ready" if ready else
             "tablesetup.ready_simulated" if game.stands_in else "tablesetup.not_ready")
    p.text(p.tr(state),
           p.rect(0.04, BODY_TOP + 0.01, 0.92, 0.09), size=0.055,
           colour=C.GOOD if ready or game.stands_in else C.WARN, align="left")
    steps = game.steps
    top, bottom = BODY_TOP + 0.12, FOOTER_Y - 0.09
    gap = 0.02
    h = min(0.15, (bottom - top - gap * max(0, len(steps) - 1)) / max(1, len(steps)))
    for i, (key, status) in enumerate(steps):
        y = top + i * (h + gap)
        row = p.rect(0.04, y, 0.64, h)
        p.button(row, HostAction("area.step", key), p.tr(f"tablesetup.step.{key}"),
                 enabled=status != "unavailable", size=0.055)
        if key == missing:  # the step the main choice opens
            p.outline(row, C.ACCENT, 0.006, 0.015)
        chip = p.rect(0.70, y, 0.26, h)
        colour = STATUS_COLOURS.get(status, C.TEXT_DIM)
        p.fill(chip, C.PANEL, 0.015)
        p.text(p.tr(f"tablesetup.status.{status}"), chip, size=0.05, colour=colour, pad=0.01)
    p.text(p.tr("tablesetup.hub_hint"), p.rect(0.04, FOOTER_Y - 0.08, 0.92, 0.07), size=0.04,
           colour=C.TEXT_DIM, weight="regular", align="left")
    main = (p.tr("tablesetup.next_step") if missing is not None
            else p.tr("tablesetup.back_home"))
    choices: list[FooterChoice] = [(HostAction("confirm"), main, None, C.ACCENT, True)]
    if len(view.games) > 1:
        choices.append((HostAction("area.game"), p.tr("btn.other_game"), None, C.PANEL_HI,
                        True))
    if missing is not None:
        choices.append((HostAction("area.close"), p.tr("tablesetup.back_home"), None,
                        C.PANEL_HI, True))
    footer(p, choices, undo=False)
