"""The screens of 驢橋, one function each: ``draw_<screen>(p, frame)``.

The shared parts (header, footer, timers) are in :mod:`display.screens`; here are the game's
own screens, which read its :class:`~display.games.eselsbruecke.view.GameView` from
``frame.view``. Positions are fractions of the screen (800x480 and 1920x1080 alike). Colour
is never the only cue: every seat shows its number and its shape
(:data:`display.colours.PLAYER_SHAPES`), and "out" / "listening" are words.

While a story is recalled (deal, guess) nothing here can show its keywords: the view has
none of them (see :mod:`.view`).
"""

from __future__ import annotations

import math

import numpy as np
import pygame

from display import colours as C
from display.colours import player_rgb, text_on
from display.games.eselsbruecke.view import GameView, SeatView, TileView, ViewPhase
from display.i18n import place
from display.input import HostAction
from display.paint import Painter
from display.screens import BODY_TOP, Draw, Frame, big_timer, footer, header, standings

Choice = tuple[HostAction, str, int | None, C.RGB, bool]

#: the score-pile strip at the bottom of most screens
STRIP = (0.02, 0.66, 0.96, 0.18)


def _need(f: Frame) -> GameView:
    assert isinstance(f.view, GameView), "this screen needs a game of 驢橋"
    return f.view


def _header(p: Painter, view: GameView, title: str | None = None) -> None:
    side = p.tr("eb.side.advanced") if view.side == "advanced" else p.tr("eb.side.standard")
    right = f"{p.tr('eb.round', n=view.round_no, of=view.rounds)} · {side}"
    header(p, title or p.tr("eb.title"), right)


# --- shared parts of this game's screens -------------------------------------------------


def think_bubble(p: Painter, view: GameView, box: pygame.Rect) -> None:
    """The think bubble over the donkey: the rounds as numbers, the donkey's round marked."""
    cloud = pygame.Rect(box.x, box.y, box.width, box.height * 72 // 100)
    pygame.draw.ellipse(p.surface, C.PANEL_HI, cloud)
    # the two little thought circles trailing down to the donkey
    r1 = max(3, box.height // 14)
    pygame.draw.circle(p.surface, C.PANEL_HI, (box.x + box.width // 5, cloud.bottom + r1), r1)
    pygame.draw.circle(p.surface, C.PANEL_HI,
                       (box.x + box.width // 8, cloud.bottom + 3 * r1), max(2, r1 * 2 // 3))
    n = max(1, view.rounds)
    inner = cloud.inflate(-cloud.width // 6, -cloud.height // 3)
    cell = inner.width / n
    rad = max(4, min(int(cell * 0.42), inner.height // 2))
    for i in range(n):
        cx = round(inner.x + cell * (i + 0.5))
        cy = inner.centery
        current = i + 1 == view.round_no
        if current:
            pygame.draw.circle(p.surface, C.ACCENT, (cx, cy), rad)
        elif i + 1 < view.round_no:
            pygame.draw.circle(p.surface, C.PANEL, (cx, cy), rad)
        number = pygame.Rect(cx - rad, cy - rad, 2 * rad, 2 * rad)
        p.text(str(i + 1), number, size=rad * 1.3 / p.h,
               colour=C.BG if current else C.TEXT_DIM if i + 1 < view.round_no else C.TEXT)
    label = pygame.Rect(box.x + box.width // 4, cloud.bottom, box.width * 3 // 4,
                        box.bottom - cloud.bottom)
    p.text(p.tr("eb.bubble", n=view.round_no), label, size=0.04, colour=C.TEXT_DIM,
           weight="regular")


#: the smallest text a label is fitted at before it is cut short (px at 480 lines: 14)
MIN_TEXT = 0.03


def fit_label(p: Painter, text: str, box: pygame.Rect, size: float, *,
              pad: float = 0.0) -> str:
    """``text``, cut short with a full stop where it would be drawn smaller than
    :data:`MIN_TEXT` in ``box`` (a long name in a narrow cell)."""
    least = max(14, p.px(MIN_TEXT))
    if p.fits_at(text, box, size, pad=pad) >= least:
        return text
    for n in range(len(text) - 1, 1, -1):
        cut = text[:n].rstrip() + "."
        if p.fits_at(cut, box, size, pad=pad) >= least:
            return cut
    return text[:2]


def seat_badge(p: Painter, f: Frame, seat: int, r: pygame.Rect, text: str, *,
               size: float = 0.05) -> None:
    """A seat's colour, number and shape, and ``text`` (its name or a sentence about it)."""
    info = f.player(seat)
    bg = player_rgb(info.colour)
    fg = text_on(bg)
    p.fill(r, bg, 0.012)
    mark = pygame.Rect(r.x + p.px(0.01), r.y, min(r.height, r.width // 5), r.height)
    p.shape(C.PLAYER_SHAPES.get(info.colour, "hexagon"),
            mark.inflate(-mark.width // 3, -mark.height // 3), fg)
    body = pygame.Rect(mark.right, r.y, r.right - mark.right, r.height)
    p.text(fit_label(p, f"{seat + 1} {text}", body, size, pad=0.008), body, size=size,
           colour=fg, pad=0.008)


def _cells(p: Painter, n: int, box: pygame.Rect) -> list[pygame.Rect]:
    gap = p.px(0.012)
    w = (box.width - gap * (n - 1)) / max(n, 1)
    return [pygame.Rect(round(box.x + i * (w + gap)), box.y, round(w), box.height)
            for i in range(n)]


def _status(p: Painter, view: GameView, seat: int, s: SeatView) -> str:
    if view.phase in (ViewPhase.DEAL, ViewPhase.GUESS):
        if seat == view.teller:
            return p.tr("eb.seat.teller")
        if s.out:
            return p.tr("eb.seat.out")
        if s.listening:
            return p.tr("eb.seat.listening")
        if view.phase is ViewPhase.GUESS:
            parts = []
            if s.held:
                parts.append(p.tr("eb.seat.hand", n=s.held))
            if s.face_up:
                parts.append(p.tr("eb.seat.won", n=s.face_up))
            return " · ".join(parts)
        return ""
    if seat == view.teller:
        return p.tr("eb.seat.teller")
    return ""


def pile_strip(p: Painter, f: Frame, *, highlight: int | None = None,
               box: pygame.Rect | None = None, animated: bool = False) -> None:
    """One cell per seat: number, shape and name; the score pile and its stop tiles; and in
    a recall, out / listening / tiles held / won."""
    view = _need(f)
    box = box or p.rect(*STRIP)
    for seat, r in enumerate(_cells(p, view.players, box)):
        info = f.player(seat)
        s = view.seats[seat] if seat < len(view.seats) else SeatView()
        bg = player_rgb(info.colour)
        if s.out:
            bg = tuple(int(c * 0.45 + 40) for c in bg)  # type: ignore[assignment]
        fg = text_on(bg)
        p.fill(r, bg, 0.012)
        if seat == highlight:
            p.outline(r.inflate(p.px(0.014), p.px(0.014)), C.TEXT, 0.007, 0.016)
        row = r.height // 3
        top = pygame.Rect(r.x, r.y, r.width, row)
        mark = min(row, r.width // 5)
        p.shape(C.PLAYER_SHAPES.get(info.colour, "hexagon"),
                pygame.Rect(r.x + p.px(0.008), top.y + row // 8, mark * 3 // 4, mark * 3 // 4),
                fg)
        name_box = pygame.Rect(r.x + mark, r.y, r.width - mark, row)
        p.text(fit_label(p, f"{seat + 1} {info.name}", name_box, 0.042, pad=0.005), name_box,
               size=0.042, colour=fg, pad=0.005)
        score = s.pile
        if animated and seat < len(f.shown_scores):
            score = round(f.shown_scores[seat])
        mid = pygame.Rect(r.x, r.y + row, r.width, row)
        p.text(f"{p.tr('eb.seat.pile', n=score)} · {p.tr('eb.seat.stops', n=s.stops)}", mid,
               size=0.04, colour=fg, pad=0.005)
        status = _status(p, view, seat, s)
        if status:
            low = pygame.Rect(r.x, r.y + 2 * row, r.width, r.height - 2 * row)
            p.text(status, low, size=0.04, colour=fg, weight="regular", pad=0.005)


_TILE_SURFACES: dict[str, pygame.Surface | None] = {}


def _tile_surface(tile: TileView) -> pygame.Surface | None:
    if tile.image is None:
        return None
    if tile.tile_id in _TILE_SURFACES:
        return _TILE_SURFACES[tile.tile_id]
    surface: pygame.Surface | None
    if isinstance(tile.image, pygame.Surface):
        surface = tile.image
    else:
        try:
            arr = np.asarray(tile.image)
            if arr.ndim == 2:
                arr = np.stack([arr] * 3, axis=-1)
            surface = pygame.surfarray.make_surface(
                np.ascontiguousarray(arr[:, :, :3].swapaxes(0, 1)).astype(np.uint8))
        except (ValueError, TypeError, IndexError):
            surface = None
    if len(_TILE_SURFACES) >= 12:
        _TILE_SURFACES.clear()
    _TILE_SURFACES[tile.tile_id] = surface
    return surface


def tile_card(p: Painter, r: pygame.Rect, tile: TileView | None) -> None:
    """A keyword tile, large: its picture and its keyword (None: a place still to fill)."""
    if tile is None:
        p.fill(r, C.PANEL, 0.015)
        p.outline(r, C.SLOT_EMPTY, 0.004, 0.015)
        p.text(p.tr("eb.tile.waiting"), r, size=0.04, colour=C.TEXT_DIM, weight="regular",
               pad=0.01)
        return
    p.fill(r, C.PANEL_HI, 0.015)
    name_h = r.height // 4
    img_box = pygame.Rect(r.x, r.y, r.width, r.height - name_h).inflate(-p.px(0.02),
                                                                         -p.px(0.02))
    name_box = pygame.Rect(r.x, r.bottom - name_h, r.width, name_h)
    if tile.unnamed:
        p.text("?", img_box, size=0.2, colour=C.TEXT_DIM)
        p.text(p.tr("eb.tile.unnamed"), name_box, size=0.04, colour=C.TEXT_DIM, pad=0.006)
        return
    image = _tile_surface(tile)
    if image is not None and image.get_width() > 0 and image.get_height() > 0:
        scale = min(img_box.width / image.get_width(), img_box.height / image.get_height())
        size = (max(1, int(image.get_width() * scale)), max(1, int(image.get_height() * scale)))
        scaled = pygame.transform.smoothscale(image, size)
        p.surface.blit(scaled, scaled.get_rect(center=img_box.center))
        p.text(tile.name(p.lang), name_box, size=0.06, colour=C.ACCENT, pad=0.006)
    else:
        p.text(tile.name(p.lang), img_box, size=0.1, colour=C.ACCENT, pad=0.01)
        other = tile.name("en" if p.lang != "en" else "zh-TW")
        p.text(other, name_box, size=0.045, colour=C.TEXT_DIM, weight="regular", pad=0.006)


def tile_back(p: Painter, r: pygame.Rect, named: bool) -> None:
    """A tile face down (its keyword hidden); ``named``: already named, face up elsewhere."""
    p.fill(r, C.PANEL if named else C.SLOT_EMPTY, 0.012)
    p.outline(r, C.TEXT_DIM if not named else C.PANEL_HI, 0.004, 0.012)
    if not named:
        inner = r.inflate(-r.width // 3, -r.height // 3)
        pygame.draw.ellipse(p.surface, C.PANEL_HI, inner)


def _left_column(p: Painter, f: Frame, view: GameView) -> None:
    think_bubble(p, view, p.rect(0.02, BODY_TOP + 0.01, 0.27, 0.25))
    if view.teller is not None:
        seat_badge(p, f, view.teller, p.rect(0.02, BODY_TOP + 0.28, 0.27, 0.1),
                   f.name(view.teller), size=0.05)
        p.text(p.tr("eb.seat.teller"), p.rect(0.02, BODY_TOP + 0.385, 0.27, 0.06), size=0.04,
               colour=C.TEXT_DIM, weight="regular")


# --- the screens ---------------------------------------------------------------------------


def draw_story(p: Painter, f: Frame) -> None:
    view = _need(f)
    p.surface.fill(C.BG)
    title = p.tr("eb.teller", name=f.name(view.teller))
    _header(p, view, title)
    _left_column(p, f, view)
    n = max(1, view.to_draw)
    laid = list(view.laid)
    # The footer first: the host buttons' highlight starts on its choices (the story told,
    # a tile by hand), never on a tile's "remove".
    full = len(laid) >= view.to_draw
    choices: list[Choice] = [
        (HostAction("tile_entered"), p.tr("btn.eb.by_hand"), pygame.K_m, C.PANEL_HI, not full),
        (HostAction("story_told"), p.tr("btn.eb.story_told"), pygame.K_s, C.ACCENT, full),
    ]
    footer(p, choices)
    right = p.rect(0.31, BODY_TOP + 0.01, 0.67, 0.08)
    p.text(p.tr("eb.story.draw", n=view.to_draw) if len(laid) < view.to_draw
           else p.tr("eb.story.tell"), right, size=0.05, align="left")
    p.text(f"{p.tr('eb.story.laid', k=len(laid), n=view.to_draw)} · "
           f"{p.tr('eb.story.slot', n=view.story_slot + 1)}",
           p.rect(0.31, BODY_TOP + 0.09, 0.67, 0.05), size=0.04, colour=C.TEXT_DIM,
           align="left", weight="regular")
    area = p.rect(0.31, BODY_TOP + 0.15, 0.67, 0.3)
    gap = p.px(0.015)
    side = min((area.width - gap * (n - 1)) // n, area.height)
    x0 = area.x + (area.width - (side * n + gap * (n - 1))) // 2
    for i in range(n):
        r = pygame.Rect(x0 + i * (side + gap), area.y, side, side)
        tile = laid[i] if i < len(laid) else None
        tile_card(p, r, tile)
        if tile is not None:
            b = pygame.Rect(r.x, r.bottom + p.px(0.006), r.width, max(p.px(0.06), 30))
            p.button(b, HostAction("withdraw", tile.tile_id), p.tr("btn.eb.withdraw"),
                     size=0.04)
    pile_strip(p, f, highlight=view.teller)


def draw_deal(p: Painter, f: Frame) -> None:
    view = _need(f)
    p.surface.fill(C.BG)
    slot = (view.recall_slot or 0) + 1
    _header(p, view, p.tr("eb.deal.title", n=slot))
    _left_column(p, f, view)
    p.text(p.tr("eb.deal.told_in", k=view.recall_tiles, r=view.recall_round),
           p.rect(0.31, BODY_TOP + 0.01, 0.67, 0.08), size=0.055, align="left")
    _backs(p, view, p.rect(0.31, BODY_TOP + 0.11, 0.67, 0.2))
    p.text(p.tr("eb.deal.hint"), p.rect(0.31, BODY_TOP + 0.33, 0.67, 0.08), size=0.04,
           colour=C.TEXT_DIM, weight="regular", align="left")
    pile_strip(p, f, highlight=view.teller)
    footer(p, [(HostAction("dealt"), p.tr("btn.eb.dealt"), pygame.K_d, C.ACCENT, True)])


def _backs(p: Painter, view: GameView, area: pygame.Rect) -> None:
    n = max(1, view.recall_tiles)
    gap = p.px(0.012)
    side = min((area.width - gap * (n - 1)) // n, area.height)
    for i in range(view.recall_tiles):
        tile_back(p, pygame.Rect(area.x + i * (side + gap), area.y, side, side),
                  named=i < view.named)


def draw_guess(p: Painter, f: Frame) -> None:
    view = _need(f)
    p.surface.fill(C.BG)
    slot = (view.recall_slot or 0) + 1
    _header(p, view, p.tr("eb.deal.title", n=slot))
    actor = view.actor
    right_x, right_w = 0.46, 0.52
    if actor is not None:
        seat_badge(p, f, actor, p.rect(right_x, BODY_TOP + 0.01, right_w, 0.11),
                   p.tr("eb.guess.turn", name=f.name(actor)), size=0.06)
    p.text(p.tr("eb.guess.answered") if view.answered else p.tr("eb.guess.press"),
           p.rect(right_x, BODY_TOP + 0.13, right_w, 0.06), size=0.045,
           colour=C.WARN if view.answered else C.TEXT, align="left")
    p.text(p.tr("eb.guess.left", n=view.recall_tiles - view.named),
           p.rect(right_x, BODY_TOP + 0.2, right_w * 0.45, 0.06), size=0.04,
           colour=C.TEXT_DIM, align="left", weight="regular")
    _backs(p, view, p.rect(right_x + right_w * 0.47, BODY_TOP + 0.195, right_w * 0.53, 0.07))
    # Right: whose tile was named (the host heard the answer). The verdicts come only once
    # the guesser has answered: before it there is nothing to judge.
    holders = [s for s, seat in enumerate(view.seats) if seat.held > 0 and s != actor]
    if actor is not None and holders and view.answered:
        p.text(p.tr("eb.guess.right_by"), p.rect(right_x, BODY_TOP + 0.28, right_w, 0.055),
               size=0.04, colour=C.GOOD, align="left")
        cols = min(3, len(holders))
        bw = right_w / cols
        for k, seat in enumerate(holders):
            r = p.rect(right_x + (k % cols) * bw, BODY_TOP + 0.34 + (k // cols) * 0.095,
                       bw * 0.95, 0.085)
            # (the label beside the seat's mark, not under it: "Seat 3 held it" ran into it)
            p.button(r, HostAction("right", seat), p.tr("btn.eb.right", n=seat + 1),
                     colour=C.GOOD, size=0.04, icon=r.height)
            info = f.player(seat)
            mark = pygame.Rect(r.right - r.height, r.y, r.height, r.height)
            p.fill(mark.inflate(-4, -4), player_rgb(info.colour), 0.01)
            p.shape(C.PLAYER_SHAPES.get(info.colour, "hexagon"), mark.inflate(
                -mark.width // 3, -mark.height // 3), text_on(player_rgb(info.colour)))
    pile_strip(p, f, highlight=actor)
    choices: list[Choice] = []
    if not view.answered:
        choices.append((HostAction("answered"), p.tr("btn.eb.answered"), pygame.K_a,
                        C.ACCENT, actor is not None))
    else:
        choices.append((HostAction("wrong"), p.tr("btn.eb.wrong"), pygame.K_w, C.BAD,
                        actor is not None))
    footer(p, choices)


def guess_timer(p: Painter, f: Frame) -> None:
    """The big draining 15 s ring (stopped, full, once the guesser has answered)."""
    view = _need(f)
    left = f.timer_left_ms()
    center = p.point(0.22, 0.4)
    radius = p.px(0.23)
    if view.answered:
        p.arc_timer(center, radius, 1.0, C.WARN, C.PANEL)
        box = pygame.Rect(0, 0, int(radius * 1.2), int(radius * 0.7))
        box.center = center
        p.text("OK", box, size=radius * 0.6 / p.h, colour=C.WARN)
        return
    big_timer(p, center, radius, left, view.timer_ms or 15_000, C.ACCENT)
    if left == 0:
        # inside the ring, under the 0 (below it, it ran into the first seat's tile)
        box = pygame.Rect(0, 0, radius, radius // 4)
        box.midtop = (center[0], center[1] + radius * 2 // 5)
        p.text(p.tr("eb.guess.timeup"), box, size=0.05, colour=C.BAD)


def draw_round_over(p: Painter, f: Frame) -> None:
    view = _need(f)
    p.surface.fill(C.BG)
    _header(p, view, p.tr("eb.next.title", n=view.round_no))
    think_bubble(p, view, p.rect(0.2, BODY_TOP + 0.02, 0.6, 0.34))
    p.text(p.tr("eb.next.hint"), p.rect(0.05, BODY_TOP + 0.40, 0.9, 0.08), size=0.05,
           colour=C.TEXT_DIM, weight="regular")
    pile_strip(p, f, highlight=view.start_seat)
    footer(p, [(HostAction("next_round"), p.tr("btn.eb.next_round"), pygame.K_n, C.ACCENT,
                True)])


def _penalty_rows(p: Painter, n: int) -> list[pygame.Rect]:
    box = p.rect(0.03, BODY_TOP + 0.1, 0.94, 0.62)
    gap = p.px(0.01)
    h = min((box.height - gap * (n - 1)) / max(n, 1), p.px(0.1))
    return [pygame.Rect(box.x, round(box.y + i * (h + gap)), box.width, round(h))
            for i in range(n)]


def draw_penalties(p: Painter, f: Frame) -> None:
    view = _need(f)
    p.surface.fill(C.BG)
    rec = view.last_recall
    _header(p, view, p.tr("eb.pen.title"))
    if rec is None:
        footer(p)
        return
    due = next((pen.due for pen in rec.penalties), None)
    line = p.tr("eb.pen.slot", n=rec.slot + 1, k=due) if due is not None else \
        p.tr("eb.pen.nobody")
    if rec.stop_tile:
        line = p.tr("eb.pen.stop_tile", name=f.name(rec.teller))
    p.text(line, p.rect(0.03, BODY_TOP, 0.94, 0.08), size=0.05,
           colour=C.GOOD if rec.stop_tile else C.TEXT, align="left")
    by_seat = {pen.seat: pen for pen in rec.penalties}
    for seat, r in enumerate(_penalty_rows(p, view.players)):
        name = pygame.Rect(r.x, r.y, r.width * 36 // 100, r.height)
        seat_badge(p, f, seat, name, f.name(seat), size=0.045)
        what = pygame.Rect(r.x + r.width * 58 // 100, r.y, r.width * 42 // 100, r.height)
        pen = by_seat.get(seat)
        if pen is not None:
            text = p.tr("eb.pen.lost", n=pen.lost, due=pen.due)
            if pen.stopped:
                text += " · " + p.tr("eb.pen.stopped")
            if pen.banked:
                text += " · " + p.tr("eb.pen.banked", n=pen.banked)
            p.text(text, what, size=0.04, colour=C.BAD if pen.lost else C.WARN,
                   align="left", pad=0.006)
            if pen.stopped:
                stop = pygame.Rect(what.x - r.height, r.y, r.height, r.height)
                _stop_sign(p, stop.inflate(-r.height // 5, -r.height // 5))
        else:
            label = p.tr("eb.seat.teller") if seat == rec.teller else p.tr("eb.pen.safe")
            p.text(label, what, size=0.04, colour=C.TEXT_DIM, align="left",
                   weight="regular", pad=0.006)
    footer(p)


def _stop_sign(p: Painter, r: pygame.Rect) -> None:
    cx, cy = r.center
    rad = min(r.width, r.height) / 2
    pts = [(cx + rad * math.cos(math.pi / 8 + k * math.pi / 4),
            cy + rad * math.sin(math.pi / 8 + k * math.pi / 4)) for k in range(8)]
    pygame.draw.polygon(p.surface, C.BAD, pts)


def penalties_values(p: Painter, f: Frame) -> None:
    """The moving part: each pile counting from before the story to after, the change."""
    view = _need(f)
    for seat, r in enumerate(_penalty_rows(p, view.players)):
        num = pygame.Rect(r.x + r.width * 37 // 100, r.y, r.width * 10 // 100, r.height)
        delta = pygame.Rect(num.right, r.y, r.width * 8 // 100, r.height)
        shown = f.shown_scores[seat] if seat < len(f.shown_scores) else float(view.scores[seat])
        p.text(str(round(shown)), num, size=0.06, align="right")
        if seat < len(f.deltas) and f.deltas[seat]:
            d = f.deltas[seat]
            p.text(f"{d:+d}", delta, size=0.05, colour=C.GOOD if d > 0 else C.BAD)


def draw_over(p: Painter, f: Frame) -> None:
    view = _need(f)
    p.surface.fill(C.BG)
    reason = p.tr("eb.over.host") if view.end_reason == "host" else p.tr("eb.over.last")
    header(p, p.tr("eb.over.title"), reason)
    winners = list(view.winners)
    top = p.rect(0.02, BODY_TOP + 0.003, 0.46, 0.062)
    scored = any(view.scores) or any(view.stops)
    if not scored:  # (ended before anyone scored: everyone's 0 is no shared win)
        p.text(p.tr("over.nobody_scored"), top, size=0.05, colour=C.ACCENT, align="left")
    elif len(winners) == 1:
        seat_badge(p, f, winners[0], top, p.tr("eb.over.winner", name=f.name(winners[0])),
                   size=0.05)
    elif winners:
        p.text(p.tr("eb.over.shared"), top, size=0.05, colour=C.ACCENT, align="left")
    # the tie-break: was the most tiles shared?
    best = max(view.scores) if view.scores else 0
    tied = [s for s in range(view.players) if view.scores[s] == best]
    if len(tied) > 1 and scored:
        p.text(p.tr("eb.over.tie_stops") if len(winners) < len(tied) else
               p.tr("eb.over.tie_none"), p.rect(0.5, BODY_TOP + 0.003, 0.48, 0.062),
               size=0.042, colour=C.WARN, align="left")
    # the ranking: one card per seat, best first
    stops = view.stops
    figures = [(-view.scores[s], -stops[s]) for s in range(view.players)]
    places = standings(figures)
    ranking = sorted(range(view.players), key=lambda s: (figures[s], s))
    cells = _cells(p, view.players, p.rect(0.02, BODY_TOP + 0.07, 0.96, 0.125))
    for seat, r in zip(ranking, cells, strict=True):
        line = r.height * 2 // 7
        upper = pygame.Rect(r.x, r.y, r.width, r.height - 2 * line)
        seat_badge(p, f, seat, upper, f.name(seat), size=0.042)
        # in words: the place, then the points and the stop tiles (a tie's decider), each
        # named (not "1. 1 pt, 0 stop", a run of numbers)
        p.text(place(places[seat], p.lang), pygame.Rect(r.x, upper.bottom, r.width, line),
               size=0.04)
        p.text(p.tr("eb.over.score_words", n=view.scores[seat], s=stops[seat]),
               pygame.Rect(r.x, upper.bottom + line, r.width, line), size=0.04)
    recap(p, f, p.rect(0.02, BODY_TOP + 0.2, 0.96, 0.535))
    footer(p, [(HostAction("confirm"), p.tr("btn.new_game"), None, C.ACCENT, True)], undo=False)


def _joined(p: Painter, words: list[str]) -> str:
    return ", ".join(words) if p.lang == "en" else "、".join(words)


def _best_rows(p: Painter, names: list[str], cell: pygame.Rect,
               size: float) -> list[list[str]]:
    """The keywords split into the rows that let them be drawn largest in ``cell``."""
    best: tuple[int, list[list[str]]] = (-1, [names])
    for lines in range(1, max(1, len(names)) + 1):
        base, extra = divmod(len(names), lines)
        rows, i = [], 0
        for k in range(lines):
            take = base + (1 if k < extra else 0)
            rows.append(names[i:i + take])
            i += take
        lh = cell.height // lines
        if lh <= 0:
            break
        px = min(p.fits_at(_joined(p, row), pygame.Rect(cell.x, 0, cell.width, lh)
                           .inflate(-2 * p.px(RECAP_MARGIN), 0), size, weight="regular",
                           pad=0.003) for row in rows)
        if px > best[0]:
            best = (px, rows)
    return best[1]


#: the keywords keep this margin from their cell's sides (the layout check's "tight")
RECAP_MARGIN = 0.003


def recap(p: Painter, f: Frame, box: pygame.Rect) -> None:
    """Every story's keywords: a row per seat, a column per slot."""
    view = _need(f)
    p.fill(box, C.PANEL, 0.015)
    title = pygame.Rect(box.x, box.y, box.width, p.px(0.055))
    p.text(p.tr("eb.over.recap"), title, size=0.042, colour=C.TEXT_DIM, pad=0.005)
    stories = view.recap
    slots = 1 + max((s.slot for s in stories), default=0)
    n = max(1, view.players)
    grid = pygame.Rect(box.x + p.px(0.01), title.bottom, box.width - p.px(0.02),
                       box.bottom - title.bottom - p.px(0.01))
    row_h = grid.height / n
    label_w = min(round(row_h * 1.4), grid.width // 10)
    col_w = (grid.width - label_w) / max(slots, 1)
    for seat in range(n):
        y = round(grid.y + seat * row_h)
        h = round(row_h) - p.px(0.005)
        info = f.player(seat)
        badge = pygame.Rect(grid.x, y, label_w - p.px(0.005), h)
        bg = player_rgb(info.colour)
        p.fill(badge, bg, 0.01)
        left = pygame.Rect(badge.x, badge.y, badge.width // 2, badge.height)
        right = pygame.Rect(left.right, badge.y, badge.width - left.width, badge.height)
        p.shape(C.PLAYER_SHAPES.get(info.colour, "hexagon"),
                left.inflate(-left.width // 4, -left.height // 4), text_on(bg))
        p.text(str(seat + 1), right, size=0.04, colour=text_on(bg))
        for story in (s for s in stories if s.seat == seat):
            cell = pygame.Rect(round(grid.x + label_w + story.slot * col_w), y,
                               round(col_w) - p.px(0.005), h)
            p.fill(cell, C.PANEL_HI, 0.008)
            names = [t.name(p.lang) for t in story.tiles]
            rows = _best_rows(p, names, cell, 0.04)
            lh = cell.height // max(1, len(rows))
            for k, words in enumerate(rows):
                line = pygame.Rect(cell.x, cell.y + k * lh, cell.width, lh)
                p.text(_joined(p, words), line.inflate(-2 * p.px(RECAP_MARGIN), 0), size=0.04,
                       weight="regular", pad=0.003)


SCREENS: dict[str, tuple[Draw, Draw | None]] = {
    "story": (draw_story, None),
    "deal": (draw_deal, None),
    "guess": (draw_guess, guess_timer),
    "round_over": (draw_round_over, None),
    "penalties": (draw_penalties, penalties_values),
    "over": (draw_over, None),
}
