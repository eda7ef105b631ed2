"""The screens of 眨眨眼: layout, play (the grid mirrored, whose turn, the call), accusation and
over. Positions are fractions of the screen (800x480 and 1920x1080 alike); every marker shows
its colour *and* its seat number; face-down cells are hatched, taken cells only outlined.
"""

from __future__ import annotations

import pygame

from display import colours as C
from display.colours import player_rgb, text_on
from display.games import Draw
from display.games.wink.view import CellView, TableView, WinkView
from display.input import Button, HostAction
from display.paint import Painter
from display.screens import (
    BODY_TOP,
    Frame,
    footer,
    header,
    margin_ms,
    player_strip,
    standings,
)

STRIP = (0.02, 0.70, 0.96, 0.145)


def _need(f: Frame) -> WinkView:
    assert isinstance(f.view, WinkView), "this screen needs a game of 眨眨眼"
    return f.view


def _header(p: Painter, view: WinkView) -> None:
    header(p, p.tr("wink.title"), p.tr("wink.turn_no", n=max(1, view.turn)))


def _table(f: Frame) -> TableView:
    t = f.snap.table
    return t if isinstance(t, TableView) else TableView()


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


#: The mark on a cell the camera warns about, and at the start of its line in words.
PROBLEM_MARKS = {"unknown_marker": "?", "missing_marker": "!"}


def draw_cell(p: Painter, f: Frame, r: pygame.Rect, cell: CellView, *,
              button: HostAction | None = None, problem: str | None = None,
              focus: bool = True) -> None:
    inner = r.inflate(-max(2, r.width // 12), -max(2, r.height // 12))
    if cell.face == "up":
        if button is not None:
            p.button(inner, button, str(cell.number), colour=C.PANEL_HI, size=0.05,
                     focus=focus)
        else:
            p.fill(inner, C.PANEL_HI, 0.008)
            # with a marker on it, the number keeps the card's upper left
            if problem is not None:  # the warning's mark keeps the upper right
                box = pygame.Rect(inner.x + p.px(0.004), inner.y, inner.width * 5 // 8,
                                  inner.height * 3 // 5)
            elif cell.marker is not None:
                box = pygame.Rect(inner.x, inner.y, inner.width * 3 // 4, inner.height * 3 // 5)
            else:
                box = inner
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
        d = min(inner.width * 3 // 4, max(int(inner.width * 0.55), p.px(0.05)))
        disc = pygame.Rect(0, 0, d, d)
        disc.center = (inner.right - d // 2 + d // 8, inner.bottom - d // 2 + d // 8)
        marker_disc(p, f, disc, cell.marker)
    if cell.mismatch or problem is not None:
        p.outline(r, C.WARN, 0.004, 0.01)
    if problem is not None:
        # a mark in the corner, named in words under the grid (never the colour alone)
        side = max(p.px(0.036), r.width * 3 // 8)
        badge = pygame.Rect(r.right - side, r.y, side, side)
        p.fill(badge, C.WARN, 0.006, badge=True)
        p.text(PROBLEM_MARKS.get(problem, "!"), badge, size=0.05, colour=text_on(C.WARN))


def draw_grid(p: Painter, f: Frame, view: WinkView, box: pygame.Rect, cell: int,
              place: bool = False, table: TableView | None = None) -> None:
    free = set(view.free_cells) if place else set()
    problems = dict(table.problems) if table is not None else {}
    picked = table.place_row if table is not None else None
    if free:
        # the host buttons pick the row first, then the cell in it (at most 6 + 6 presses):
        # each row with a free cell is a choice (a touch lands on the cell, drawn over it)
        free_rows = sorted({i // view.cols for i in free})
        if picked not in free_rows:
            picked = None
        for row in free_rows:
            p.buttons.append(Button((box.x, box.y + row * cell, cell * view.cols, cell),
                                    HostAction("place.row", row), focus=picked is None))
    for i, c in enumerate(view.cells):
        row, col = divmod(i, view.cols)
        r = pygame.Rect(box.x + col * cell, box.y + row * cell, cell, cell)
        action = HostAction("place", (row, col)) if i in free else None
        draw_cell(p, f, r, c, button=action, problem=problems.get(i), focus=row == picked)
    if not view.cells:
        for i in range(view.rows * view.cols):
            row, col = divmod(i, view.cols)
            r = pygame.Rect(box.x + col * cell, box.y + row * cell, cell, cell)
            p.outline(r.inflate(-max(2, cell // 12), -max(2, cell // 12)), C.SLOT_EMPTY,
                      0.002, 0.008)


#: A warning line under the grid (a fraction of the screen's height).
WARN_LINE = 0.04


def warning_lines(p: Painter, view: WinkView, table: TableView) -> list[str]:
    """The camera's warnings in words: per kind, its mark and the cells' numbers; then the
    cells the camera sees otherwise than the box expects."""
    numbers = {i: c.number for i, c in enumerate(view.cells)}
    lines = []
    for kind, mark in PROBLEM_MARKS.items():
        cells = [i for i, k in table.problems if k == kind and i in numbers]
        if cells:
            listed = p.tr("wink.list_sep").join(p.tr("wink.cell_no", n=numbers[i])
                                                for i in cells)
            lines.append(f"{mark} " + p.tr(f"wink.problem.{kind}", cells=listed))
    if view.mismatches:
        lines.append(p.tr("wink.mismatch", n=view.mismatches))
    return lines


def draw_warnings(p: Painter, lines: list[str], bottom: float = 0.69) -> None:
    top = bottom - WARN_LINE * len(lines)
    for k, line in enumerate(lines):
        p.text(line, p.rect(0.02, top + k * WARN_LINE, 0.46, WARN_LINE), size=0.034,
               colour=C.WARN, align="left", pad=0.003)


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
        # one line, so that with eight narrow chips the two counts shrink together and never
        # run into each other ("Hand 4Acc 4")
        counts = f"{p.tr('wink.hand', n=hand)}  {p.tr('wink.acc_cards', n=acc)}"
        p.text(counts, low, size=0.036, colour=fg, weight="regular", pad=0.004)
        side = r.width * SIDE // 100
        num = pygame.Rect(r.right - side, r.y + r.height * 38 // 100, side,
                          r.height * 30 // 100)
        if r.width < r.height * 3 // 2:
            # a narrow chip (eight players on the small screen): the seat number on a disc
            # of its own, so that it does not read as part of the score beside it
            radius = max(6, min(num.width, num.height) // 2)
            pygame.draw.circle(p.surface, fg, num.center, radius)
            disc = pygame.Rect(0, 0, radius * 2 - 2, radius * 2 - 2)
            disc.center = num.center
            p.text(str(seat + 1), disc, size=0.035, colour=player_rgb(f.player(seat).colour))
        else:
            p.text(str(seat + 1), num, size=0.04, colour=fg, pad=0.004)


def strip_scores(p: Painter, f: Frame) -> None:
    """The (animated) scores: between the player's shape (left) and seat number (right), so
    that with eight narrow chips on the small screen the three never run together."""
    from display.screens import NAME_ROW, SCORE_ROW, _strip_cells

    if _table(f).grid_open:
        return  # the strip's place says which cell is lit
    view = _need(f)
    for seat, r in enumerate(_strip_cells(p, view.players, p.rect(*STRIP))):
        fg = text_on(player_rgb(f.player(seat).colour))
        score = round(f.shown_scores[seat]) if seat < len(f.shown_scores) else view.scores[seat]
        side = r.width * SIDE // 100
        mid = pygame.Rect(r.x + side, r.y + r.height * NAME_ROW // 100, r.width - 2 * side,
                          r.height * SCORE_ROW // 100)
        p.text(p.tr("points", n=score), mid.inflate(-2 * p.px(0.006), 0), size=0.045,
               colour=fg)


#: the shape's and the seat number's share of a strip chip's width (each, in percent)
SIDE = 20


def draw_layout(p: Painter, f: Frame) -> None:
    view = _need(f)
    table = _table(f)
    if table.grid_open:
        draw_grid_entry(p, f, view, table)
        return
    p.surface.fill(C.BG)
    _header(p, view)
    box, cell = grid_box(p)
    draw_grid(p, f, view, box, cell)
    x, w = 0.50, 0.47
    p.text(p.tr("wink.layout"), p.rect(x, BODY_TOP + 0.03, w, 0.12), size=0.06)
    p.text(p.tr("wink.layout_hint"), p.rect(x, BODY_TOP + 0.16, w, 0.07), size=0.04,
           colour=C.TEXT_DIM, weight="regular")
    if table.camera_cells:
        p.text(p.tr("wink.camera_read", n=table.camera_cells, total=view.rows * view.cols),
               p.rect(x, BODY_TOP + 0.24, w, 0.07), size=0.04, colour=C.ACCENT)
    p.fill(p.rect(x, BODY_TOP + 0.33, w, 0.22), C.PANEL, 0.015)
    for k, key in enumerate(("wink.no_camera", "wink.in_order_hint", "wink.by_hand_hint")):
        p.text(p.tr(key), p.rect(x + 0.01, BODY_TOP + 0.34 + k * 0.07, w - 0.02, 0.065),
               size=0.038 if k else 0.042, colour=C.TEXT if k == 0 else C.TEXT_DIM,
               weight="bold" if k == 0 else "regular", align="left")
    strip(p, f, view, None)
    # the camera not working (the banner says so): the entries by hand stand out
    colour = C.ACCENT if f.snap.camera_status else C.PANEL_HI
    footer(p, [(HostAction("grid.open"), p.tr("wink.grid_by_hand"), pygame.K_g, colour, True),
               (HostAction("grid.in_order"), p.tr("wink.grid_in_order"), pygame.K_o, colour,
                True)])


def draw_grid_entry(p: Painter, f: Frame, view: WinkView, table: TableView) -> None:
    """The grid entered by hand: a pad of the numbers not yet used (right), the grid with its
    lit cell (left; touch a cell to light it). The pad comes first for the host buttons'
    highlight, then done, then the cells."""
    p.surface.fill(C.BG)
    entry = table.grid_entry
    n = len(entry)
    filled = sum(1 for c in entry if c is not None)
    header(p, p.tr("wink.entry_title"), p.tr("wink.entry_count", n=filled, total=n))
    used = {c for c in entry if c is not None}
    pad = p.rect(0.50, BODY_TOP + 0.01, 0.48, 0.56)
    cols = view.cols
    rows = max(1, (n + cols - 1) // cols)
    cw, ch = pad.width / cols, pad.height / rows
    gap = max(2, p.px(0.006))
    # the host buttons pick a row of the pad first, then the number in it (at most 6 + 6
    # presses); a touch lands on the number (drawn over its row)
    open_rows = [i for i in range(rows)
                 if any(k + 1 not in used for k in range(i * cols, min(n, (i + 1) * cols)))]
    picked = table.pad_row if table.pad_row in open_rows else None
    for pad_row in open_rows:
        p.buttons.append(Button((round(pad.x), round(pad.y + pad_row * ch), round(pad.width),
                                 round(ch)), HostAction("grid.pad_row", pad_row),
                                focus=picked is None))
    for k in range(n):
        number = k + 1
        r = pygame.Rect(round(pad.x + (k % cols) * cw), round(pad.y + (k // cols) * ch),
                        round(cw), round(ch)).inflate(-gap, -gap)
        if number in used:
            p.fill(r, C.BG_TOP, 0.008)  # in the grid already: no button, the number dim
            p.text(str(number), r, size=0.04, colour=C.DISABLED, weight="regular")
        else:
            p.button(r, HostAction("grid.pick", number), str(number), size=0.05,
                     focus=k // cols == picked)
    choices: list[tuple[HostAction, str, int | None, C.RGB, bool]] = [
        (HostAction("grid.done"), p.tr("wink.entry_done"), pygame.K_d, C.ACCENT, filled == n),
        (HostAction("grid.erase"), p.tr("wink.entry_erase"), pygame.K_e, C.PANEL_HI,
         filled > 0)]
    if table.camera_cells:
        choices.append((HostAction("grid.camera"), p.tr("wink.entry_camera"), pygame.K_c,
                        C.PANEL_HI, True))
    choices.append((HostAction("grid.cancel"), p.tr("wink.entry_cancel"), pygame.K_x,
                    C.PANEL_HI, True))
    footer(p, choices)
    box, cell = grid_box(p)
    for i, entered in enumerate(entry):
        row, col = divmod(i, cols)
        r = pygame.Rect(box.x + col * cell, box.y + row * cell, cell, cell)
        inner = r.inflate(-max(2, cell // 12), -max(2, cell // 12))
        lit = i == table.grid_cursor
        p.button(inner, HostAction("grid.cell", i), "" if entered is None else str(entered),
                 colour=C.ACCENT if lit else (C.PANEL_HI if entered is not None else C.PANEL),
                 size=0.05)
        if lit:
            p.outline(r, C.TEXT, 0.005, 0.01)
    row, col = divmod(table.grid_cursor, cols)
    info = p.rect(*STRIP)
    p.fill(info, C.PANEL, 0.015)
    top = pygame.Rect(info.x, info.y, info.width, info.height // 2)
    low = pygame.Rect(info.x, top.bottom, info.width, info.height - top.height)
    p.text(p.tr("wink.entry_lit", row=row + 1, col=col + 1), top, size=0.05, colour=C.ACCENT,
           pad=0.006)
    p.text(p.tr("wink.entry_hint"), low, size=0.04, colour=C.TEXT_DIM, weight="regular",
           pad=0.006)


def draw_play(p: Painter, f: Frame) -> None:
    view = _need(f)
    table = _table(f)
    p.surface.fill(C.BG)
    _header(p, view)
    place = view.phase == "place"
    warnings = warning_lines(p, view, table)
    box, cell = grid_box(p, height=0.56 - WARN_LINE * len(warnings))
    draw_grid(p, f, view, box, cell, place=place and not table.accusing, table=table)
    draw_warnings(p, warnings)
    x, w = 0.50, 0.48
    if view.active is not None:
        info = f.player(view.active)
        key = "wink.place" if place else "wink.name"
        p.chip(p.rect(x, BODY_TOP + 0.01, w, 0.09), info.colour,
               p.tr(key, name=info.name), size=0.05)
    call = p.rect(x, BODY_TOP + 0.11, w, 0.13)
    if (place and view.call_number is not None and view.call_seat is not None
            and table.call_fresh):
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
    if table.accusing:
        _accuser_choice(p, f, view, x, w)
    elif place:
        p.text(p.tr("wink.tap_cell"), p.rect(x, BODY_TOP + 0.27, w, 0.07), size=0.04,
               colour=C.TEXT_DIM, weight="regular")
    elif view.active is not None:
        others = [s for s in range(view.players) if s != view.active]
        rows = (len(others) + 1) // 2
        row_h = min(0.09, 0.30 / max(rows, 1))
        col_w = w / 2
        chip_box = p.rect(x, BODY_TOP + 0.27, col_w * 0.44, row_h * 0.9)
        labels = {seat: f"{seat + 1} {f.player(seat).name}" for seat in others}
        if any(p.fits_at(label, chip_box, 0.035, pad=0.008) < p.px(0.025)
               for label in labels.values()):
            # 「3 美玲 Mei-Ling」 does not fit: every row says 「3 美玲」 (a name's first word),
            # never the bare 3 while a name would fit, and all rows alike
            labels = {seat: f"{seat + 1} {f.player(seat).name.split()[0]}"
                      if f.player(seat).name.split() else label
                      for seat, label in labels.items()}
        for k, seat in enumerate(others):
            cx = x + (k % 2) * col_w
            y = BODY_TOP + 0.27 + (k // 2) * row_h
            info = f.player(seat)
            p.chip(p.rect(cx, y, col_w * 0.44, row_h * 0.9), info.colour, labels[seat],
                   size=0.035, min_size=0.025)
            p.button(p.rect(cx + col_w * 0.46, y, col_w * 0.25, row_h * 0.9),
                     HostAction("name_right", seat), p.tr("wink.named_right"), colour=C.GOOD,
                     size=0.045)
            p.button(p.rect(cx + col_w * 0.73, y, col_w * 0.25, row_h * 0.9),
                     HostAction("name_wrong", seat), p.tr("wink.named_wrong"), colour=C.BAD,
                     size=0.045)
    last = view.last_accusation
    if (place and not table.accusing and last is not None and last[2] is not None
            and table.result_fresh):
        accuser = f.player(last[0]).name
        key = "wink.last_right" if last[3] else "wink.last_wrong"
        p.text(p.tr(key, name=accuser, n=last[2]), p.rect(x, BODY_TOP + 0.35, w, 0.07),
               size=0.045, colour=C.GOOD if last[3] else C.TEXT_DIM)
    strip(p, f, view, view.active)
    _play_footer(p, view, table)


def _play_footer(p: Painter, view: WinkView, table: TableView) -> None:
    """Accuse by hand (or cancel it) and, placing, "holds every free number": after the grid's
    rows (placing: the host buttons pick a row, then the cell), the names or the seats that
    may accuse."""
    choices: list[tuple[HostAction, str, int | None, C.RGB, bool]] = []
    if table.accusing:
        choices.append((HostAction("accuse.cancel"), p.tr("wink.entry_cancel"), pygame.K_x,
                        C.PANEL_HI, True))
    else:
        choices.append((HostAction("accuse.open"), p.tr("wink.accuse_by_hand"), pygame.K_a,
                        C.PANEL_HI, bool(view.accusers)))
        if view.phase == "place" and view.may_pass:
            choices.append((HostAction("no_place"), p.tr("wink.no_place"), None, C.PANEL_HI,
                            True))
    footer(p, choices)


def _accuser_choice(p: Painter, f: Frame, view: WinkView, x: float, w: float) -> None:
    """Who shouted 「我要抓！」 first: the seats that may accuse, as buttons in their colours."""
    p.text(p.tr("wink.who_accuses"), p.rect(x, BODY_TOP + 0.25, w, 0.07), size=0.045)
    seats = view.accusers
    cols = 2 if len(seats) <= 4 else 3
    rows = (len(seats) + cols - 1) // cols
    row_h = min(0.1, 0.25 / max(rows, 1))
    col_w = w / cols
    for k, seat in enumerate(seats):
        info = f.player(seat)
        r = p.rect(x + (k % cols) * col_w, BODY_TOP + 0.32 + (k // cols) * row_h,
                   col_w * 0.95, row_h * 0.9)
        p.button(r, HostAction("accuse", seat), f"{seat + 1} {info.name}",
                 colour=player_rgb(info.colour), size=0.045)


def draw_accusation(p: Painter, f: Frame) -> None:
    """The accusation entered in three steps, each a row: the number named (only numbers a
    marker is looking for), the player pointed at (not the accuser, not that seeker), the
    answer. The step under way is drawn first, so the host buttons' highlight starts there."""
    view = _need(f)
    table = _table(f)
    p.surface.fill(C.BG)
    _header(p, view)
    if view.accuser is not None:
        info = f.player(view.accuser)
        p.chip(p.rect(0.02, BODY_TOP + 0.01, 0.46, 0.1), info.colour,
               p.tr("wink.accuser", name=info.name), size=0.06)
        if view.tie:
            line = p.tr("wink.tie")
        elif view.by_hand:
            line = p.tr("wink.by_host")
        elif view.margin_us:
            line = p.tr("wink.margin", ms=margin_ms(view.margin_us))
        else:
            line = ""
        p.text(line, p.rect(0.50, BODY_TOP + 0.01, 0.48, 0.1), size=0.05, colour=C.TEXT_DIM)
    by_number = {number: (seeker, accused) for number, seeker, accused in view.targets}
    number = table.pick_number if table.pick_number in by_number else None
    if number is None and len(by_number) == 1:
        number = next(iter(by_number))
    seats = by_number[number][1] if number is not None else ()
    seat = table.pick_seat if table.pick_seat in seats else None
    steps = [lambda: _numbers_row(p, f, view, number),
             lambda: _seats_row(p, f, seats, number, seat),
             lambda: _answer_row(p, f, number, seat)]
    first = 0 if number is None else (1 if seat is None else 2)
    for k in (first, *(j for j in range(3) if j != first)):
        steps[k]()
    footer(p, [(HostAction("withdraw"), p.tr("wink.withdraw"), pygame.K_w, C.PANEL_HI, True)])


ROW_LABEL = (0.02, 0.14)  # x and width of a step's label
ROW_X, ROW_W = 0.17, 0.81


def _row_label(p: Painter, text: str, y: float, h: float, done: bool) -> None:
    p.text(text, p.rect(ROW_LABEL[0], y, ROW_LABEL[1], h), size=0.042,
           colour=C.TEXT_DIM if done else C.ACCENT, align="left", pad=0.004)


def _picked(p: Painter, r: pygame.Rect) -> None:
    """The picked button: a thick outline (with the question below, never colour alone)."""
    p.outline(r.inflate(p.px(0.012), p.px(0.012)), C.TEXT, 0.006, 0.016)


def _numbers_row(p: Painter, f: Frame, view: WinkView, picked: int | None) -> None:
    y, h = BODY_TOP + 0.13, 0.11
    _row_label(p, p.tr("wink.step_number"), y, h, picked is not None)
    rows = view.targets
    bw = min(0.16, ROW_W / max(len(rows), 1))
    for k, (number, seeker, _accused) in enumerate(rows):
        r = p.rect(ROW_X + k * bw, y, bw * 0.92, h)
        p.button(r, HostAction("pick_number", number), p.tr("wink.cell_no", n=number),
                 colour=C.ACCENT if number == picked else C.PANEL_HI, size=0.05)
        if number == picked:
            _picked(p, r)
        if seeker >= 0:  # whose marker is looking for it
            info = f.player(seeker)
            p.chip(p.rect(ROW_X + k * bw, y + h + 0.005, bw * 0.92, 0.05), info.colour,
                   f"{seeker + 1} {info.name}", size=0.036, min_size=0.03)


def _seats_row(p: Painter, f: Frame, seats: tuple[int, ...], number: int | None,
               picked: int | None) -> None:
    y, h = BODY_TOP + 0.31, 0.11
    _row_label(p, p.tr("wink.step_seat"), y, h, picked is not None)
    if number is None:
        p.text(p.tr("wink.number_first"), p.rect(ROW_X, y, ROW_W, h), size=0.04,
               colour=C.TEXT_DIM, weight="regular", align="left", pad=0.004)
        return
    bw = min(0.16, ROW_W / max(len(seats), 1))
    for k, seat in enumerate(seats):
        info = f.player(seat)
        r = p.rect(ROW_X + k * bw, y, bw * 0.92, h)
        p.button(r, HostAction("pick_seat", seat), f"{seat + 1} {info.name}",
                 colour=player_rgb(info.colour), size=0.04)
        if seat == picked:
            _picked(p, r)


def _answer_row(p: Painter, f: Frame, number: int | None, seat: int | None) -> None:
    y, h = BODY_TOP + 0.47, 0.12
    ready = number is not None and seat is not None
    if ready:
        assert seat is not None
        question = p.tr("wink.question", name=f"{seat + 1} {f.player(seat).name}", n=number)
    else:
        question = p.tr("wink.seat_first") if number is not None else ""
    p.text(question, p.rect(0.02, y, 0.96, 0.07), size=0.05,
           colour=C.TEXT if ready else C.TEXT_DIM)
    y += 0.08
    _row_label(p, p.tr("wink.step_answer"), y, h, False)
    p.button(p.rect(ROW_X, y, 0.38, h), HostAction("accused_right"), p.tr("wink.caught_yes"),
             key=pygame.K_y, colour=C.GOOD, enabled=ready, size=0.05)
    p.button(p.rect(ROW_X + 0.41, y, 0.38, h), HostAction("accused_wrong"),
             p.tr("wink.caught_no"), key=pygame.K_n, colour=C.BAD, enabled=ready, size=0.05)


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
    figures = [(-view.scores[s], view.accusation_cards[s], view.hands[s])
               for s in range(view.players)]
    places = standings(figures)  # (equal figures share a place: 1, 2, 2, 4)
    ranking = sorted(range(view.players), key=lambda s: (figures[s], s))
    row_h = min(0.08, 0.56 / max(view.players, 1))
    for k, seat in enumerate(ranking):
        info = f.player(seat)
        y = BODY_TOP + 0.13 + k * row_h
        p.text(f"{places[seat]}.", p.rect(0.02, y, 0.05, row_h * 0.9), size=0.045,
               colour=C.TEXT_DIM, align="right")
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
