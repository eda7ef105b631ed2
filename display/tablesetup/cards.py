"""The screen of the set-up step "Teach the box a game's cards" (``"cards"``).

Left: the live camera picture with the card's outline (green: a good shot coming, red: a
problem, blue: seen). Right: the card to lay next (its name and the manifest's picture),
the progress ("37 of 98"), the shot of the card, what the box says (hold still, blurred,
a reflection, one card only ...), the sharpness and glare checks. In the check round: the
cards the box names, with its confidence, and a retake offered for those it was unsure of.
Reads a :class:`CardsView` (filled by :mod:`tablekeeper.tablesetup.cards`); knows no game
(names come from the deck).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pygame

from display import colours as C
from display.input import HostAction
from display.paint import Painter
from display.screens import BODY_TOP, FOOTER_Y, FooterChoice, Frame, footer
from display.tablesetup import Picture, draw_picture

#: shots per card (each a template: position and light vary a little between them)
SHOTS = 3


@dataclass(frozen=True)
class Named:
    """A card the check round saw: its id (None: not a card of this deck), the id it looks
    most like, the confidence (0..1), and its names."""

    card_id: str | None
    best_id: str
    confidence: float
    name_zh: str
    name_en: str


@dataclass(frozen=True)
class CardsView:
    """What the cards step's screen shows (see :mod:`display.tablesetup.cards`)."""

    #: "teach", "skipped" (every card but some skipped), "not_saved" (the save failed),
    #: "check" (the check round)
    stage: str
    total: int
    taught: int
    skipped: int = 0
    card_id: str = ""
    name_zh: str = ""
    name_en: str = ""
    #: the manifest's picture of the card to lay (RGB, not compared) or None
    reference: Any = field(default=None, compare=False, repr=False)
    shot: int = 0
    shots: int = SHOTS
    #: the enrolment's state: "lay", "clear", "blurry", "glare", "several", "other",
    #: "steady", "captured", "done"
    state: str = "lay"
    sharpness: int = 0
    sharp_ok: bool = False
    glare_pct: int = 0
    glare_ok: bool = True
    other_zh: str = ""
    other_en: str = ""
    #: state "clear_next": the card named is the one just taken (still in the picture), and
    #: these are the next card's names
    next_zh: str = ""
    next_en: str = ""
    picture: Picture | None = None
    camera_gone: bool = False
    #: an i18n key of a problem shown in the step (a full disk ...), "" none
    problem: str = ""
    #: the check round: the cards seen in the last frame, the cards to offer for a retake,
    #: and the card suggested next
    named: tuple[Named, ...] = ()
    confused: tuple[tuple[str, str, str], ...] = ()
    suggest_zh: str = ""
    suggest_en: str = ""

STATE_COLOURS: dict[str, C.RGB] = {
    "lay": C.TEXT, "clear": C.ACCENT, "clear_next": C.ACCENT, "steady": C.GOOD,
    "captured": C.GOOD, "done": C.GOOD,
    "blurry": C.BAD, "glare": C.BAD, "several": C.BAD, "other": C.BAD, "unknown": C.BAD}


def _name(p: Painter, zh: str, en: str) -> str:
    return en if p.lang == "en" else zh


def _reference(p: Painter, box: pygame.Rect, image: Any) -> None:
    """The manifest's picture of the card (RGB), fitted into ``box``."""
    try:
        arr = np.asarray(image)
        surface = pygame.surfarray.make_surface(
            np.ascontiguousarray(arr[:, :, :3].swapaxes(0, 1)).astype(np.uint8))
    except (ValueError, TypeError, IndexError):
        return
    iw, ih = surface.get_size()
    scale = min(box.width / iw, box.height / ih)
    w, h = max(1, round(iw * scale)), max(1, round(ih * scale))
    at = pygame.Rect(box.centerx - w // 2, box.centery - h // 2, w, h)
    p.surface.blit(pygame.transform.smoothscale(surface, (w, h)), at)
    p.fills.append((len(p.texts), at))


def draw(p: Painter, f: Frame, v: Any) -> None:
    top = BODY_TOP + 0.01
    live = p.rect(0.02, top, 0.55, FOOTER_Y - top - 0.02)
    draw_picture(p, live, v.picture)
    if v.camera_gone:
        band = pygame.Rect(live.x, live.centery - p.px(0.06), live.width, p.px(0.12))
        p.fill(band, C.BAD)
        p.text(p.tr("tablesetup.camera_gone"), band, size=0.04, colour=C.text_on(C.BAD),
               pad=0.008)
    x, w = 0.59, 0.39
    if v.stage == "check":
        _check(p, v, x, w, top)
        return
    y = top
    p.text(p.tr("tablesetup.cards.progress", n=v.taught, total=v.total), p.rect(x, y, w, 0.06),
           size=0.045, colour=C.TEXT_DIM, align="left")
    y += 0.06
    if v.stage == "teach" and v.card_id:
        title = "tablesetup.cards.taken" if v.state == "clear_next" else "tablesetup.cards.lay"
        p.text(p.tr(title, name=_name(p, v.name_zh, v.name_en)),
               p.rect(x, y, w, 0.09), size=0.07, colour=C.ACCENT, align="left")
        y += 0.09
        if v.reference is not None:
            _reference(p, p.rect(x, y, 0.12, 0.22), v.reference)
        info_x = x + (0.13 if v.reference is not None else 0.0)
        info_w = w - (info_x - x)
        p.text(p.tr("tablesetup.cards.shot", n=min(v.shot + 1, v.shots), of=v.shots),
               p.rect(info_x, y, info_w, 0.06), size=0.045, align="left")
        p.text(p.tr("tablesetup.cards.sharp", n=v.sharpness), p.rect(info_x, y + 0.07, info_w,
                                                                    0.06),
               size=0.04, colour=C.GOOD if v.sharp_ok else C.TEXT_DIM, weight="regular",
               align="left")
        p.text(p.tr("tablesetup.cards.glare", n=v.glare_pct), p.rect(info_x, y + 0.14, info_w,
                                                                    0.06),
               size=0.04, colour=C.GOOD if v.glare_ok else C.BAD, weight="regular",
               align="left")
        y += 0.23
        key = f"tablesetup.cards.state.{v.state}"
        said = (p.tr(key, name=_name(p, v.other_zh, v.other_en)) if v.state == "other"
                else p.tr(key, next=_name(p, v.next_zh, v.next_en)) if v.state == "clear_next"
                else p.tr(key))
        p.text(said, p.rect(x, y, w, 0.09), size=0.05,
               colour=STATE_COLOURS.get(v.state, C.TEXT), align="left")
        y += 0.1
    if v.stage == "skipped":
        p.text(p.tr("tablesetup.cards.skipped", n=v.skipped), p.rect(x, y, w, 0.1),
               size=0.05, colour=C.WARN, align="left")
        y += 0.1
    if v.problem:
        p.text(p.tr(v.problem), p.rect(x, y, w, 0.08), size=0.04, colour=C.BAD, align="left")
    stop: FooterChoice = (HostAction("step.stop"), p.tr("tablesetup.btn.stop"), None,
                          C.PANEL_HI, True)
    choices: list[FooterChoice]
    if v.stage == "skipped":
        choices = [(HostAction("step.unskip"), p.tr("tablesetup.btn.unskip"), None, C.ACCENT,
                    True), stop]
    elif v.stage == "not_saved":
        choices = [(HostAction("confirm"), p.tr("tablesetup.btn.save"), None, C.ACCENT, True),
                   stop]
    else:
        choices = [stop,
                   (HostAction("step.retake"), p.tr("tablesetup.btn.retake"), None, C.PANEL_HI,
                    v.shot > 0 or v.taught > 0),
                   (HostAction("step.skip"), p.tr("tablesetup.btn.skip"), None, C.PANEL_HI,
                    True)]
    footer(p, choices, undo=False)


def _check(p: Painter, v: Any, x: float, w: float, top: float) -> None:
    y = top
    p.text(p.tr("tablesetup.cards.check"), p.rect(x, y, w, 0.08), size=0.05, colour=C.ACCENT,
           align="left")
    y += 0.09
    if v.suggest_zh or v.suggest_en:
        p.text(p.tr("tablesetup.cards.check_hint", name=_name(p, v.suggest_zh, v.suggest_en)),
               p.rect(x, y, w, 0.06), size=0.045, colour=C.TEXT_DIM, align="left")
    y += 0.07
    for named in v.named[:4]:
        name = _name(p, named.name_zh, named.name_en)
        if named.card_id is None:
            text, colour = p.tr("tablesetup.cards.unknown", name=name), C.WARN
        else:
            text = p.tr("tablesetup.cards.named", name=name, pct=round(100 * named.confidence))
            colour = C.GOOD if named.confidence >= 0.8 else C.WARN
        p.text(text, p.rect(x, y, w, 0.07), size=0.05, colour=colour, align="left")
        y += 0.075
    if v.confused:
        p.text(p.tr("tablesetup.cards.confused"), p.rect(x, y, w, 0.06), size=0.04,
               colour=C.WARN, align="left")
    if v.problem:
        p.text(p.tr(v.problem), p.rect(x, FOOTER_Y - 0.09, w, 0.07), size=0.04, colour=C.BAD,
               align="left")
    choices: list[FooterChoice] = [(HostAction("confirm"), p.tr("tablesetup.btn.finish"), None,
                                    C.ACCENT, True)]
    for cid, zh, en in v.confused[:2]:
        choices.append((HostAction("step.retake", cid),
                        p.tr("tablesetup.btn.retake_card", name=_name(p, zh, en)), None,
                        C.PANEL_HI, True))
    footer(p, choices, undo=False)
