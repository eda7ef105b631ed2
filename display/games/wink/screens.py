"""The screens of 眨眨眼: layout, play (the grid mirrored, whose turn, the call), accusation and
over. Positions are fractions of the screen (800x480 and 1920x1080 alike); every marker shows
its colour *and* its seat number; face-down cells are hatched, taken cells only outlined.
"""

from __future__ import annotations

import pygame

from display import colours as C
from display.colours import player_rgb, text_on
from display.games import Draw
from display.games.wink.view import CellView, WinkView
from display.input import HostAction
from display.paint import Painter
from display.screens import BODY_TOP, Frame, footer, header, margin_ms, player_strip

STRIP = (0.02, 0.70, 0.96, 0.145)


def _need(f: Frame) -> WinkView:
    assert isinstance(f.view, WinkView), "this screen needs a game of 眨眨眼"
    return f.view


def _header(p: Painter, view: WinkView) -> None:
    header(p, p.tr("wink.title"), p.tr("wink.turn_no", n=max(1, view.turn)))


def grid_box(p: Painter, top: float = BODY_TOP + 0.01, height: float = 0.56,
             left: float = 0.02) -> tuple[pygame.Rect, int]:
    """The grid's square cells: (the grid's rect, the cell's side in px)."""
    area = p.rect(left, top, 0.46, height)
    cell = min(area.width // 6, area.height // 6)
    return pygame.Rect(area.x, area.y, cell * 6, cell * 6), cell


def marker_disc(p: Painter, f: Frame, r: pygame.Rect, seat: int) -> None:
    """A marker: the seat's colour, outlined (black and white still show), its seat number."""
    info = f.player(seat)
    bg = player_rgb(info.colour)
    rad = max(4, min(r.width, r.height) // 2)
    pygame.draw.circle(p.surface, C.TEXT if sum(bg) < 120 else C.BG, r.center, rad)
    pygame.draw.circle(p.surface, bg, r.center, max(3, rad - max(1, rad // 7)))
    p.text(str(seat + 1), r.inflate(-rad // 2, -rad // 2), size=0.06, colour=text_on(bg))


def draw_cell(p: Painter, f: Frame, r: pygame.Rect, cell: CellView, *,
              button: HostAction | None = None) -> None:
    inner = r.inflate(-max(2, r.width // 12), -max(2, r.height // 12))
    if cell.face == "up":
        if button is not None:
            p.button(inner, button, str(cell.number), colour=C.PANEL_HI, size=0.05)
        else:
            p.fill(inner, C.PANEL_HI, 0.008)
            # with a marker on it, the number keeps the card's upper left
            box = inner if cell.marker is None else pygame.Rect(
                inner.x, inner.y, inner.width * 3 // 4, inner.height * 3 // 5)
            p.text(str(cell.number), box, size=0.05, colour=C.TEXT, pad=0.002)
    elif cell.face == "down":
        p.fill(inner, C.BG_TOP, 0.008)
        step = max(4, inner.width // 4)
        clip = p.surface.get_clip()
        p.surface.set_clip(inner)
        for k in range(-inner.height, inner.width, step):
            pygame.draw.line(p.surface, C.DISABLED, (inner.x + k, inner.y),
                             (inner.x + k + inner.height, inner.bottom), max(1, step // 5))
        p.surface.set_clip(clip)
        p.outline(inner, C.DISABLED, 0.003, 0.008)
    else:  # taken: an empty outline
        p.outline(inner, C.SLOT_EMPTY, 0.002, 0.008)
    if cell.marker is not None:
        d = int(inner.width * 0.55)
        disc = pygame.Rect(0, 0, d, d)
        disc.center = (inner.right - d // 2 + d // 8, inner.bottom - d // 2 + d // 8)
        marker_disc(p, f, disc, cell.marker)
    if cell.mismatch:
        p.outline(r, C.WARN, 0.004, 0.01)


def draw_grid(p: Painter, f: Frame, view: WinkView, box: pygame.Rect, cell: int,
              place: bool = False) -> None:
    free = set(view.free_cells) if place else set()
    for i, c in enumerate(view.cells):
        row, col = divmod(i, view.cols)
        r = pygame.Rect(box.x + col * cell, box.y + row * cell, cell, cell)
        action = HostAction("place", (row, col)) if i in free else None
        draw_cell(p, f, r, c, button=action)
    if not view.cells:
        for i in range(view.rows * view.cols):
            row, col = divmod(i, view.cols)
            r = pygame.Rect(box.x + col * cell, box.y + row * cell, cell, cell)
            p.outline(r.inflate(-max(2, cell // 12), -max(2, cell // 12)), C.SLOT_EMPTY,
                      0.002, 0.008)


def strip(p: Painter, f: Frame, view: WinkView, highlight: int | None) -> None:
    """Players: name, shape, score (dynamic), hand and accusation cards, seat number."""
    box = p.rect(*STRIP)
    player_strip(p, f, box, highlight=highlight, show_cards=False)
    n = view.players
    gap = p.px(0.012)
    w = (box.width - gap * (n - 1)) / max(n, 1)
    for seat in range(n):
        r = pygame.Rect(round(box.x + seat * (w + gap)), box.y, round(w), box.height)
        fg = text_on(player_rgb(f.player(seat).colour))
        low = pygame.Rect(r.x, r.y + r.height * 68 // 100, r.width, r.height * 32 // 100)
        hand = view.hands[seat] if seat < len(view.hands) else 0
        acc = view.accusation_cards[seat] if seat < len(view.accusation_cards) else 0
        left = pygame.Rect(low.x, low.y, low.width * 56 // 100, low.height)
        right = pygame.Rect(left.right, low.y, low.right - left.right, low.height)
        p.text(p.tr("wink.hand", n=hand), left, size=0.036, colour=fg, weight="regular")
        p.text(p.tr("wink.acc_cards", n=acc), right, size=0.036, colour=fg, weight="regular")
        num = pygame.Rect(r.right - r.width // 4, r.y + r.height * 38 // 100, r.width // 4,
                          r.height * 30 // 100)
        p.text(str(seat + 1), num, size=0.04, colour=fg, pad=0.004)


def strip_scores(p: Painter, f: Frame) -> None:
    from display.screens import strip_scores as shared

    shared(p, f, p.rect(*STRIP))


def draw_layout(p: Painter, f: Frame) -> None:
    view = _need(f)
    p.surface.fill(C.BG)
    _header(p, view)
    box, cell = grid_box(p)
    draw_grid(p, f, view, box, cell)
    p.text(p.tr("wink.layout"), p.rect(0.50, BODY_TOP + 0.05, 0.47, 0.14), size=0.06)
    p.text(p.tr("wink.layout_hint"), p.rect(0.50, BODY_TOP + 0.22, 0.47, 0.1), size=0.045,
           colour=C.TEXT_DIM, weight="regular")
    strip(p, f, view, None)
    footer(p)


def draw_play(p: Painter, f: Frame) -> None:
    view = _need(f)
    p.surface.fill(C.BG)
    _header(p, view)
    place = view.phase == "place"
    box, cell = grid_box(p)
    draw_grid(p, f, view, box, cell, place=place)
    x, w = 0.50, 0.48
    if view.active is not None:
        info = f.player(view.active)
        key = "wink.place" if place else "wink.name"
        p.chip(p.rect(x, BODY_TOP + 0.01, w, 0.09), info.colour,
               p.tr(key, name=info.name), size=0.05)
    call = p.rect(x, BODY_TOP + 0.11, w, 0.13)
    if place and view.call_number is not None and view.call_seat is not None:
        # the call just made, by the player who put their marker down last
        caller = f.player(view.call_seat)
        p.fill(call, C.PANEL, 0.015)
        rgb = player_rgb(caller.colour)  # in the caller's colour where it reads on the panel
        p.text(p.tr("wink.call", n=view.call_number), call, size=0.085,
               colour=rgb if C.contrast(rgb, C.PANEL) >= 3.0 else C.TEXT, pad=0.01)
    elif not place and view.seeking is not None:
        p.fill(call, C.PANEL, 0.015)
        p.text(p.tr("wink.seeking", n=view.seeking), call, size=0.085, colour=C.ACCENT,
               pad=0.01)
    if place:
        p.text(p.tr("wink.tap_cell"), p.rect(x, BODY_TOP + 0.27, w, 0.07), size=0.04,
               colour=C.TEXT_DIM, weight="regular")
    elif view.active is not None:
        others = [s for s in range(view.players) if s != view.active]
        rows = (len(others) + 1) // 2
        row_h = min(0.09, 0.30 / max(rows, 1))
        col_w = w / 2
        for k, seat in enumerate(others):
            cx = x + (k % 2) * col_w
            y = BODY_TOP + 0.27 + (k // 2) * row_h
            info = f.player(seat)
            p.chip(p.rect(cx, y, col_w * 0.44, row_h * 0.9), info.colour,
                   f"{seat + 1} {info.name}", size=0.035, min_size=0.025)
            p.button(p.rect(cx + col_w * 0.46, y, col_w * 0.25, row_h * 0.9),
                     HostAction("name_right", seat), p.tr("wink.named_right"), colour=C.GOOD,
                     size=0.045)
            p.button(p.rect(cx + col_w * 0.73, y, col_w * 0.25, row_h * 0.9),
                     HostAction("name_wrong", seat), p.tr("wink.named_wrong"), colour=C.BAD,
                     size=0.045)
    last = view.last_accusation
    if place and last is not None and last[2] is not None:
        accuser = f.player(last[0]).name
        key = "wink.last_right" if last[3] else "wink.last_wrong"
        p.text(p.tr(key, name=accuser, n=last[2]), p.rect(x, BODY_TOP + 0.35, w, 0.07),
               size=0.045, colour=C.GOOD if last[3] else C.TEXT_DIM)
    if view.mismatches:
        p.text(p.tr("wink.mismatch", n=view.mismatches), p.rect(x, 0.63, w, 0.06),
               size=0.04, colour=C.WARN)
    strip(p, f, view, view.active)
    choices = []
    if place and view.may_pass:
        choices.append((HostAction("no_place"), p.tr("wink.no_place"), None, C.PANEL_HI, True))
    footer(p, choices)


def draw_accusation(p: Painter, f: Frame) -> None:
    view = _need(f)
    p.surface.fill(C.BG)
    _header(p, view)
    if view.accuser is not None:
        info = f.player(view.accuser)
        p.chip(p.rect(0.02, BODY_TOP + 0.01, 0.46, 0.1), info.colour,
               p.tr("wink.accuser", name=info.name), size=0.06)
        if view.tie:
            line = p.tr("wink.tie")
        elif view.margin_us:
            line = p.tr("wink.margin", ms=margin_ms(view.margin_us))
        else:
            line = ""
        p.text(line, p.rect(0.50, BODY_TOP + 0.01, 0.48, 0.1), size=0.05, colour=C.TEXT_DIM)
    p.text(p.tr("wink.accuse_hint"), p.rect(0.02, BODY_TOP + 0.12, 0.96, 0.06), size=0.045)
    rows = view.targets
    row_h = min(0.09, 0.50 / max(len(rows), 1))
    for k, (number, seeker, accused) in enumerate(rows):
        y = BODY_TOP + 0.19 + k * row_h
        name = f.player(seeker).name if seeker >= 0 else "?"
        p.text(p.tr("wink.number_of", n=number, name=name), p.rect(0.02, y, 0.22, row_h * 0.9),
               size=0.04, align="left", pad=0.004)
        bw = min(0.12, 0.74 / max(2 * len(accused), 1))
        for j, seat in enumerate(accused):
            bx = 0.25 + 2 * j * bw
            colour = player_rgb(f.player(seat).colour)
            p.button(p.rect(bx, y, bw * 0.95, row_h * 0.9),
                     HostAction("accused_right", (seat, number)),
                     p.tr("wink.caught", seat=seat + 1), colour=colour, size=0.035)
            p.button(p.rect(bx + bw, y, bw * 0.95, row_h * 0.9),
                     HostAction("accused_wrong", (seat, number)),
                     p.tr("wink.missed", seat=seat + 1), colour=C.PANEL_HI, size=0.035)
    footer(p, [(HostAction("withdraw"), p.tr("wink.withdraw"), None, C.PANEL_HI, True)])


def draw_over(p: Painter, f: Frame) -> None:
    view = _need(f)
    p.surface.fill(C.BG)
    reason = {"hands_empty": "wink.over.hands", "grid_cleared": "wink.over.grid",
              "host_ended": "wink.over.host"}.get(view.end_reason)
    header(p, p.tr("over.title"), p.tr(reason) if reason else "")
    winners = list(view.winners)
    title = ", ".join(f.player(s).name for s in winners)
    if len(winners) == 1:
        info = f.player(winners[0])
        p.chip(p.rect(0.02, BODY_TOP + 0.01, 0.46, 0.1), info.colour,
               p.tr("over.winner", name=info.name), size=0.06)
    elif winners:
        p.text(title, p.rect(0.02, BODY_TOP + 0.01, 0.46, 0.1), size=0.06, colour=C.ACCENT)
    if view.decided_by:
        p.text(p.tr(f"wink.decided.{view.decided_by}"), p.rect(0.50, BODY_TOP + 0.01, 0.48, 0.1),
               size=0.05, colour=C.ACCENT)
    ranking = sorted(range(view.players), key=lambda s: (
        -view.scores[s], view.accusation_cards[s], view.hands[s], s))
    row_h = min(0.08, 0.56 / max(view.players, 1))
    for k, seat in enumerate(ranking):
        info = f.player(seat)
        y = BODY_TOP + 0.13 + k * row_h
        p.text(f"{k + 1}.", p.rect(0.02, y, 0.05, row_h * 0.9), size=0.045, colour=C.TEXT_DIM,
               align="right")
        p.chip(p.rect(0.08, y, 0.36, row_h * 0.9), info.colour, f"{seat + 1} {info.name}",
               size=0.045)
        p.text(p.tr("wink.score_row", pts=view.scores[seat], acc=view.accusation_cards[seat],
                    hand=view.hands[seat]), p.rect(0.46, y, 0.52, row_h * 0.9), size=0.045,
               align="left", pad=0.004)
    footer(p, [(HostAction("confirm"), p.tr("btn.new_game"), None, C.ACCENT, True)], undo=False)


SCREENS: dict[str, tuple[Draw, Draw | None]] = {
    "layout": (draw_layout, strip_scores),
    "play": (draw_play, strip_scores),
    "accusation": (draw_accusation, None),
    "over": (draw_over, None),
}
