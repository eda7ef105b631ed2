"""The screens of 致命遊戲 The Game, one function each: ``draw_<screen>(p, frame)``.

- ``play``: the four rows with their top cards large and their direction (↑ 1→99, ↓ 100→2),
  whose turn, the cards played this turn against the minimum, the draw pile and each
  player's hand count; over it, when the table says so (``Snapshot.table``, a
  :class:`~display.games.the_game.view.TableView`): the refused play (red, on its row, with
  the reason and the host's two answers), a long press's "I cannot play" for the host to
  confirm, and the host's by-hand entry (row buttons and a keypad);
- ``over``: the cards left, the verdict, and a chart of the four rows over the game.

Positions are fractions of the screen (800x480 to 1920x1080). Colour is never the only cue:
rows carry their arrow and words, players their shape (``colours.PLAYER_SHAPES``) and name.
"""

from __future__ import annotations

import pygame

from display import colours as C
from display.colours import player_rgb, text_on
from display.games.the_game.view import GameView, RowView, TableView, row_tops_over_time
from display.input import HostAction
from display.paint import Painter
from display.screens import BODY_TOP, FOOTER_Y, Draw, FooterChoice, Frame, footer, header

#: the card faces on screen: ascending rows warm, descending cool (with arrows and words)
UP_CARD: C.RGB = (255, 236, 200)
DOWN_CARD: C.RGB = (204, 228, 255)
#: the chart's row lines (each also labelled with its arrow and number, and its own marker)
ROW_LINES: tuple[C.RGB, ...] = ((250, 204, 21), (249, 115, 22), (94, 234, 212), (96, 165, 250))

Choice = tuple[HostAction, str, int | None, C.RGB, bool]

ROWS_X, ROWS_W = 0.02, 0.58
SIDE_X, SIDE_W = 0.62, 0.36
ROWS_TOP = BODY_TOP + 0.01
ROW_H = (FOOTER_Y - 0.02 - ROWS_TOP) / 4


def _table(f: Frame) -> TableView:
    t = f.snap.table
    return t if isinstance(t, TableView) else TableView()


def row_name(p: Painter, row: RowView) -> str:
    return p.tr("tg.row_up" if row.up else "tg.row_down")


def _card(p: Painter, box: pygame.Rect, number: int, face: C.RGB, *, size: float,
          border: C.RGB | None = None) -> None:
    p.fill(box, face, 0.012)
    if border is not None:
        p.outline(box, border, 0.008, 0.012)
    # (a margin all round: 「100」 filled the tile edge to edge)
    p.text(str(number), box, size=size, colour=C.BLACK, pad=0.012)


def draw_row(p: Painter, f: Frame, i: int, box: pygame.Rect) -> None:
    view = _need(f)
    table = _table(f)
    row = view.rows[i]
    p.fill(box, C.PANEL, 0.012)
    # the direction: a big arrow and its words ("↑ up 1→99")
    arrow_box = pygame.Rect(box.x, box.y, box.width * 21 // 100, box.height)
    p.text(row.arrow, pygame.Rect(arrow_box.x, arrow_box.y, arrow_box.width,
                                  arrow_box.height * 62 // 100), size=0.11,
           colour=UP_CARD if row.up else DOWN_CARD)
    p.text(row_name(p, row), pygame.Rect(arrow_box.x, arrow_box.y + arrow_box.height * 58 // 100,
                                         arrow_box.width, arrow_box.height * 40 // 100),
           size=0.034, colour=C.TEXT_DIM, weight="regular", pad=0.004)
    # the top card, large
    card_h = box.height - p.px(0.02)
    card_w = min(card_h * 9 // 10, box.width * 26 // 100)
    # (a gap after the direction's words: 「下降 100→2」 ran into the tile)
    top_box = pygame.Rect(arrow_box.right + p.px(0.012), box.y + p.px(0.01), card_w, card_h)
    face = UP_CARD if row.up else DOWN_CARD
    _card(p, top_box, row.top, face, size=0.12)
    # what lies under it: the last cards, the one just covered next to the top, older
    # further right (read from the top card outwards, as the pile was laid)
    under = list(row.cards[:-1])[-4:] if row.cards else []
    if row.cards:
        under = [row.start, *row.cards[:-1]][-4:][::-1]
    hist = pygame.Rect(top_box.right + p.px(0.015), box.y, box.right - top_box.right -
                       p.px(0.025), box.height)
    last = view.last_play
    if table.refused and table.refused_row == i:
        # the refused card, red, beside the top, with the reason
        bad = pygame.Rect(hist.x, top_box.y, card_w * 4 // 5, card_h)
        p.fill(bad, C.BAD, 0.012)
        p.text(str(table.refused_card), bad, size=0.09, colour=text_on(C.BAD), pad=0.012)
        p.outline(box, C.BAD, 0.008, 0.012)
        words = pygame.Rect(bad.right + p.px(0.01), box.y, hist.right - bad.right - p.px(0.01),
                            box.height)
        p.text(refusal_text(p, f, table), words, size=0.045, colour=C.BAD, pad=0.004)
        return
    if under:
        n = len(under)
        w = min(hist.width // max(n, 1), p.px(0.11))
        for k, c in enumerate(under):
            r = pygame.Rect(hist.x + k * w, box.y + box.height // 4, w - p.px(0.008),
                            box.height // 2)
            p.fill(r, C.PANEL_HI, 0.008)
            p.text(str(c), r, size=0.045, colour=C.TEXT_DIM, weight="regular")
    if last is not None and last.row == i and (last.backward or last.house_rule):
        tag = p.tr("tg.back10") if last.backward else p.tr("tg.house")
        r = pygame.Rect(hist.right - hist.width * 45 // 100, box.y + p.px(0.006),
                        hist.width * 45 // 100, box.height // 4)
        p.text(tag, r, size=0.04, colour=C.ACCENT if last.backward else C.WARN, align="right")


def refusal_text(p: Painter, f: Frame, table: TableView) -> str:
    code = table.refused_code
    view = _need(f)
    if code == "not_in_hand":
        return p.tr("tg.refused.not_in_hand", card=table.refused_card,
                    name=f.name(view.to_act))
    if code == "card_already_played":
        return p.tr("tg.refused.played", card=table.refused_card)
    return p.tr("tg.refused", card=table.refused_card, row=table.refused_label)


def said_text(p: Painter, f: Frame, table: TableView) -> str:
    view = _need(f)
    code = table.said_code
    name = f.name(table.said_seat)
    if code == "below_minimum":
        return p.tr("tg.said.below_minimum", name=name, min=view.min_to_play)
    if code == "not_your_turn":
        return p.tr("tg.said.not_your_turn", name=f.name(view.to_act))
    if code == "minimum_played":
        return p.tr("tg.said.minimum_played", name=name)
    if code == "can_play":
        return p.tr("tg.said.can_play", name=name)
    return p.tr("tg.said.other", name=name)


def player_list(p: Painter, f: Frame, box: pygame.Rect) -> None:
    """Each player: shape, name and hand count; the acting one outlined."""
    view = _need(f)
    n = max(view.players, 1)
    h = min(box.height // n, p.px(0.09))
    for seat in range(view.players):
        info = f.player(seat)
        r = pygame.Rect(box.x, box.y + seat * h, box.width, h - p.px(0.008))
        bg = player_rgb(info.colour)
        fg = text_on(bg)
        p.fill(r, bg, 0.01)
        if seat == view.to_act:
            p.outline(r.inflate(p.px(0.01), p.px(0.006)), C.TEXT, 0.005, 0.012)
        mark = pygame.Rect(r.x + p.px(0.008), r.y + r.height // 6, r.height * 2 // 3,
                           r.height * 2 // 3)
        p.shape(C.PLAYER_SHAPES.get(info.colour, "hexagon"), mark, fg)
        name_box = pygame.Rect(mark.right + p.px(0.01), r.y, r.width * 60 // 100, r.height)
        p.text(info.name, name_box, size=0.042, colour=fg, align="left")
        count = view.hand_counts[seat]
        label = p.tr("tg.hand", n=count) if count else p.tr("tg.hand_empty")
        p.text(label, pygame.Rect(r.right - r.width * 32 // 100 - p.px(0.01), r.y,
                                  r.width * 32 // 100, r.height), size=0.04, colour=fg,
               align="right")


def draw_play(p: Painter, f: Frame) -> None:
    view = _need(f)
    table = _table(f)
    p.surface.fill(C.BG)
    title = p.tr("tg.title") + (f" · {p.tr('tg.expert')}" if view.variant == "expert" else "")
    header(p, title, p.tr("tg.turn_no", n=view.turn))
    for i in range(len(view.rows)):
        draw_row(p, f, i, p.rect(ROWS_X, ROWS_TOP + i * ROW_H, ROWS_W, ROW_H * 0.94))
    side_panel(p, f)
    if table.entry_open:
        entry_panel(p, f)
        return
    if table.claim_seat is not None:
        claim_panel(p, f)
        return
    choices: list[FooterChoice]
    if table.refused:  # taken back first (the focus's default); the house rule is risky
        choices = [(HostAction("tg.taken_back"), p.tr("tg.btn.taken_back"), None, C.ACCENT,
                    True),
                   (HostAction("tg.house_rule"), p.tr("tg.btn.house_rule"), None, C.WARN, True,
                    True)]
    else:
        choices = [(HostAction("tg.enter"), p.tr("tg.btn.enter"), pygame.K_h, C.PANEL_HI, True),
                   (HostAction("tg.end_turn"), p.tr("tg.btn.end_turn"), pygame.K_e, C.ACCENT,
                    view.played_this_turn >= view.min_to_play),
                   (HostAction("tg.cannot"), p.tr("tg.btn.cannot"), pygame.K_x, C.PANEL_HI,
                    view.played_this_turn < view.min_to_play)]
    footer(p, choices)


def side_panel(p: Painter, f: Frame) -> None:
    view = _need(f)
    table = _table(f)
    y = BODY_TOP + 0.01
    if view.to_act is not None:
        info = f.player(view.to_act)
        chip = p.rect(SIDE_X, y, SIDE_W, 0.1)
        p.chip(chip, info.colour, p.tr("tg.turn_of", name=info.name), size=0.06)
        mark = pygame.Rect(chip.x + p.px(0.01), chip.y + chip.height // 5, chip.height * 3 // 5,
                           chip.height * 3 // 5)
        p.shape(C.PLAYER_SHAPES.get(info.colour, "hexagon"), mark,
                text_on(player_rgb(info.colour)))
    met = view.played_this_turn >= view.min_to_play
    key = "tg.played_more" if met and view.played_this_turn > view.min_to_play else "tg.played"
    p.text(p.tr(key, n=view.played_this_turn, min=view.min_to_play),
           p.rect(SIDE_X, y + 0.11, SIDE_W, 0.07), size=0.05,
           colour=C.GOOD if met else C.TEXT, align="left")
    msg_box = p.rect(SIDE_X, y + 0.18, SIDE_W, 0.06)
    if table.refused:
        p.fill(msg_box, C.BAD, 0.01)
        p.text(p.tr("tg.refused.take_back"), msg_box, size=0.036, colour=text_on(C.BAD),
               pad=0.006)
    elif table.said_seat is not None:
        p.fill(msg_box, C.WARN, 0.01)
        p.text(said_text(p, f, table), msg_box, size=0.036, colour=text_on(C.WARN), pad=0.006)
    else:
        hint = p.tr("tg.may_end") if met else p.tr("tg.hold_hint")
        seat = f.player(view.to_act).colour if view.to_act is not None else None
        p.hint(hint, msg_box, size=0.036, colour=C.TEXT_DIM, seat=seat)
    pile = (p.tr("tg.pile", n=view.draw_count) if view.draw_count
            else p.tr("tg.pile_empty"))
    p.text(pile, p.rect(SIDE_X, y + 0.245, SIDE_W * 0.58, 0.06), size=0.042, align="left")
    p.text(p.tr("tg.left", n=view.cards_left), p.rect(SIDE_X + SIDE_W * 0.6, y + 0.245,
                                                      SIDE_W * 0.4, 0.06),
           size=0.042, colour=C.TEXT_DIM, align="right")
    player_list(p, f, p.rect(SIDE_X, y + 0.32, SIDE_W, FOOTER_Y - 0.02 - (y + 0.32)))


def claim_panel(p: Painter, f: Frame) -> None:
    table = _table(f)
    assert table.claim_seat is not None
    info = f.player(table.claim_seat)
    box = p.rect(0.12, 0.24, 0.76, 0.5)
    p.veil()
    p.fill(box, C.PANEL_HI, 0.02)
    p.outline(box, C.WARN, 0.008, 0.02)
    chip = p.rect(0.16, 0.28, 0.68, 0.16)
    p.chip(chip, info.colour, p.tr("tg.claim.q", name=info.name), size=0.07)
    p.shape(C.PLAYER_SHAPES.get(info.colour, "hexagon"),
            pygame.Rect(chip.x + p.px(0.015), chip.y + chip.height // 4, chip.height // 2,
                        chip.height // 2), text_on(player_rgb(info.colour)))
    p.text(p.tr("tg.claim.hint"), p.rect(0.16, 0.48, 0.68, 0.12), size=0.045,
           colour=C.TEXT, weight="regular")
    # (the safe choice first, and the focus's default: one press of *confirm* never ends it)
    footer(p, [(HostAction("tg.cancel_claim"), p.tr("tg.btn.cancel"), None, C.ACCENT, True),
               (HostAction("tg.confirm_claim"), p.tr("tg.btn.confirm_end"), None, C.WARN, True,
                True)])


def entry_panel(p: Painter, f: Frame) -> None:
    """The play entered by hand: the row, then the card, on a line of the cards that row can
    take (the table's state: playable, not played yet), going away from the row's top. The
    host buttons: *next* walks on, *back* the other way (round the line's end: the far
    cards), *confirm* takes the card or opens the range; the row's 10-back sits first. By
    touch: the same choices, or the digit pad and OK."""
    view = _need(f)
    table = _table(f)
    box = p.rect(0.03, BODY_TOP + 0.005, 0.94, FOOTER_Y - BODY_TOP - 0.02)
    p.veil()
    p.fill(box, C.PANEL, 0.02)
    p.outline(box, C.ACCENT, 0.006, 0.02)
    row_chosen = table.entry_row is not None and 0 <= table.entry_row < len(view.rows)

    def rows() -> None:
        p.text(p.tr("tg.entry.row"), p.rect(0.05, BODY_TOP + 0.09, 0.2, 0.1), size=0.045,
               colour=C.TEXT_DIM, align="left")
        for i, row in enumerate(view.rows):
            r = p.rect(0.26 + i * 0.175, BODY_TOP + 0.09, 0.16, 0.1)
            chosen = table.entry_row == i
            # (once a row is picked its line has the host buttons; a tap still changes it)
            p.button(r, HostAction("tg.entry.row", i), row.label,
                     colour=C.ACCENT if chosen else C.PANEL_HI, size=0.06,
                     focus=not row_chosen)

    def cancel() -> None:
        p.button(p.rect(0.4, FOOTER_Y, 0.2, 0.1), HostAction("tg.entry.cancel"),
                 p.tr("tg.btn.cancel"), size=0.05)

    if not row_chosen:
        p.text(p.tr("tg.entry.title"), p.rect(0.05, BODY_TOP + 0.01, 0.9, 0.08), size=0.055,
               align="left")
        rows()
        cancel()
        pad(p, table, enabled=False)
        return
    assert table.entry_row is not None
    row = view.rows[table.entry_row]
    p.text(p.tr("tg.entry.cards_on", row=row.label), p.rect(0.05, BODY_TOP + 0.01, 0.9, 0.08),
           size=0.055, align="left")
    # drawn in the order *next* walks them (the highlight starts on the likeliest card, its
    # *back* side drawn before it); placed on the screen as a number line, away from the top
    picks = table.entry_picks
    cols = 5
    place = sorted(range(len(picks)), key=lambda i: (not picks[i].backward,
                                                      picks[i].first * (1 if row.up else -1)))
    spot = {i: k for k, i in enumerate(place)}
    top = BODY_TOP + 0.2
    cell_w, cell_h = 0.112, 0.105
    for i, pick in enumerate(picks):
        k = spot[i]
        r = p.rect(0.05 + (k % cols) * (cell_w + 0.008), top + (k // cols) * (cell_h + 0.01),
                   cell_w, cell_h)
        face = UP_CARD if row.up else DOWN_CARD
        if pick.card is not None and pick.backward:  # the number, and "10 back" under it
            p.button(r, HostAction("tg.entry.pick", pick.card), "", colour=face)
            p.text(str(pick.card), pygame.Rect(r.x, r.y, r.width, r.height * 62 // 100),
                   size=0.05, colour=C.BLACK, pad=0.004)
            p.text(p.tr("tg.entry.back10"), pygame.Rect(r.x, r.y + r.height * 58 // 100,
                                                        r.width, r.height * 38 // 100),
                   size=0.03, colour=C.BLACK, weight="regular", pad=0.004)
        elif pick.card is not None:
            p.button(r, HostAction("tg.entry.pick", pick.card), str(pick.card), colour=face,
                     size=0.06)
        else:
            lo, hi = sorted((pick.first, pick.last))
            p.button(r, HostAction("tg.entry.open", (pick.first, pick.last)), f"{lo}–{hi}",
                     colour=C.PANEL_HI, size=0.042)
    if not picks:
        p.text(p.tr("tg.entry.none"), p.rect(0.05, top, 0.57, 0.1), size=0.045,
               colour=C.WARN, align="left")
    up = "tg.entry.up" if table.entry_depth else "tg.entry.rows"
    p.button(p.rect(0.05, FOOTER_Y - 0.125, 0.2, 0.085), HostAction("tg.entry.up"), p.tr(up),
             size=0.04)
    for k, hint in enumerate(p.tr("tg.entry.pick_hint").split("\n")):
        p.hint(hint, p.rect(0.27, FOOTER_Y - 0.135 + k * 0.05, 0.37, 0.05), size=0.042,
               colour=C.TEXT_DIM)
    cancel()
    rows()
    pad(p, table, enabled=True)


def pad(p: Painter, table: TableView, *, enabled: bool) -> None:
    """The digit pad and OK, for touch (the host buttons use the line of cards)."""
    x0, top = 0.665, BODY_TOP + 0.2
    p.text(p.tr("tg.entry.type"), p.rect(x0, top, 0.3, 0.05), size=0.03, colour=C.TEXT_DIM,
           weight="regular", align="left")
    shown = table.entry_digits or "–"
    p.text(shown, p.rect(x0, top + 0.05, 0.14, 0.1), size=0.07,
           colour=C.TEXT if enabled else C.DISABLED)
    p.button(p.rect(x0 + 0.15, top + 0.055, 0.14, 0.09), HostAction("tg.entry.ok"),
             p.tr("tg.btn.ok"), colour=C.ACCENT, size=0.045,
             enabled=enabled and bool(table.entry_digits), focus=False)
    for d in range(10):
        r = p.rect(x0 + (d % 5) * 0.058, top + 0.16 + (d // 5) * 0.1, 0.052, 0.09)
        p.button(r, HostAction("tg.entry.digit", d), str(d), size=0.05, focus=False,
                 enabled=enabled)
    p.button(p.rect(x0, top + 0.365, 0.282, 0.075), HostAction("tg.entry.del"),
             p.tr("tg.btn.del"), size=0.04, focus=False, enabled=enabled)


# --- the end ---------------------------------------------------------------------------------


def rows_chart(p: Painter, f: Frame, box: pygame.Rect) -> None:
    """Each row's top card after each card played: four step lines, each with its arrow and
    number at its end and its own marker (colour is not the only cue); 10-backs dotted,
    house-rule plays ringed."""
    view = _need(f)
    p.fill(box, C.PANEL, 0.015)
    title = pygame.Rect(box.x, box.y, box.width, box.height // 9)
    p.text(p.tr("tg.over.chart"), title, size=0.045, colour=C.TEXT_DIM, pad=0.008)
    axis_w = p.px(0.07)
    label_w = p.px(0.1)  # (each row's mark, then its arrow and number)
    # (the plot starts half a marker right of the axis's numbers: a row that ends at the first
    # play, as after an early stop, puts its marker there)
    inset = p.px(0.02)
    plot = pygame.Rect(box.x + axis_w + inset, title.bottom + p.px(0.02),
                       box.width - axis_w - label_w - inset,
                       box.height - title.height - p.px(0.09))
    n = max(len(view.plays), 1)

    def xy(k: int, v: int) -> tuple[float, float]:
        return plot.x + plot.width * k / n, plot.bottom - plot.height * (v - 1) / 99

    thin = max(1, p.px(0.002))
    for v in (1, 25, 50, 75, 100):
        _, y = xy(0, v)
        pygame.draw.line(p.surface, C.PANEL_HI, (plot.x, y), (plot.right, y), thin)
        p.text(str(v), pygame.Rect(box.x, round(y - p.px(0.02)), axis_w - p.px(0.01),
                                   p.px(0.04)), size=0.03, colour=C.TEXT_DIM, align="right",
               weight="regular")
    every = next((e for e in (1, 2, 5, 10, 20, 50) if n / e <= 8), 50)
    for k in range(0, n + 1, every):
        x, _ = xy(k, 1)
        p.text(str(k), pygame.Rect(round(x - p.px(0.03)), plot.bottom + p.px(0.01),
                                   p.px(0.06), p.px(0.04)), size=0.03, colour=C.TEXT_DIM,
               weight="regular")
    width = max(2, p.px(0.005))
    series = row_tops_over_time(view)
    marks = ("circle", "square", "triangle", "diamond")
    # the end labels, spread so that two rows ending close together stay readable
    label_h = p.px(0.04)
    ends = sorted(range(len(series)), key=lambda i: xy(0, series[i][-1])[1])
    ys = [xy(0, series[i][-1])[1] for i in ends]
    for k in range(1, len(ys)):  # apart, downwards ...
        ys[k] = max(ys[k], ys[k - 1] + label_h)
    if ys:  # ... and no lower than the plot's floor (the x axis's numbers are under it)
        ys[-1] = min(ys[-1], plot.bottom)
    for k in range(len(ys) - 2, -1, -1):
        ys[k] = min(ys[k], ys[k + 1] - label_h)
    label_y = dict(zip(ends, ys, strict=True))
    for i, tops in enumerate(series):
        colour = ROW_LINES[i % len(ROW_LINES)]
        pts: list[tuple[float, float]] = [xy(0, tops[0])]
        for k in range(1, len(tops)):
            if tops[k] != tops[k - 1]:
                pts.append(xy(k, tops[k - 1]))
                pts.append(xy(k, tops[k]))
        pts.append(xy(len(tops) - 1, tops[-1]))
        pygame.draw.lines(p.surface, colour, False, pts, width)
        end = pts[-1]
        m = p.px(0.03)
        # the row's mark beside its label (spread apart), not on the line's end: rows that
        # end on one point would put their marks on each other
        p.shape(marks[i % len(marks)], pygame.Rect(round(end[0] + 2), round(label_y[i] - m / 2),
                                                   m, m), colour)
        row = view.rows[i]
        p.text(f"{row.arrow}{i + 1}", pygame.Rect(round(end[0] + m + 4),
                                                 round(label_y[i] - label_h / 2),
                                                 label_w - m - 4 - p.px(0.008), p.px(0.04)),
               size=0.032, colour=colour, align="left")
    for k, play in enumerate(view.plays, start=1):
        if play.backward or play.house_rule:
            x, y = xy(k, play.card)
            colour = C.BAD if play.house_rule else C.TEXT
            pygame.draw.circle(p.surface, colour, (round(x), round(y)), width * 2,
                               width if play.house_rule else 0)


def _split(text: str) -> tuple[str, str]:
    """A verdict in two lines, at its colon ("All 98 cards played: you are ...")."""
    for colon in ("：", ": "):
        head, sep, tail = text.partition(colon)
        if sep:
            return head + sep.strip(), tail
    return text, ""


def draw_over(p: Painter, f: Frame) -> None:
    view = _need(f)
    p.surface.fill(C.BG)
    reason = p.tr(f"tg.over.reason.{view.end_reason}") if view.end_reason else ""
    header(p, p.tr("tg.over.title"), reason)
    won = view.verdict in ("win", "super_win")
    colour = C.GOOD if won else C.BAD if view.verdict == "loss" else C.PANEL_HI
    x, w = 0.02, 0.4
    y = BODY_TOP + 0.01
    big = p.rect(x, y, w, 0.15)
    p.fill(big, colour, 0.015)
    p.text(p.tr("tg.over.left", n=view.cards_left), big, size=0.1, colour=text_on(colour),
           pad=0.01)
    y += 0.16
    if view.verdict:
        first, second = _split(p.tr(f"tg.verdict.{view.verdict}"))
        p.text(first, p.rect(x, y, w, 0.06), size=0.045, colour=C.TEXT)
        p.text(second, p.rect(x, y + 0.06, w, 0.06), size=0.045, colour=C.TEXT)
        y += 0.125
    hands = sum(view.hand_counts)
    house = sum(1 for pl in view.plays if pl.house_rule)
    line = p.tr("tg.over.pile_hands", pile=view.draw_count, hands=hands)
    p.text(line, p.rect(x, y, w, 0.055), size=0.038, colour=C.TEXT_DIM, weight="regular")
    y += 0.055
    line = p.tr("tg.over.plays", n=len(view.plays))
    if house:
        line += " · " + p.tr("tg.over.house", n=house)
    p.text(line, p.rect(x, y, w, 0.055), size=0.038, colour=C.TEXT_DIM, weight="regular")
    y += 0.06
    if view.suggest_expert:
        p.text(p.tr("tg.over.suggest"), p.rect(x, y, w, 0.055), size=0.04, colour=C.ACCENT)
        y += 0.06
    player_list(p, f, p.rect(x, y, w, FOOTER_Y - 0.02 - y))
    rows_chart(p, f, p.rect(0.44, BODY_TOP + 0.01, 0.54, FOOTER_Y - BODY_TOP - 0.03))
    footer(p, [(HostAction("confirm"), p.tr("btn.new_game"), None, C.ACCENT, True)], undo=False)


SCREENS: dict[str, tuple[Draw, Draw | None]] = {
    "play": (draw_play, None),
    "over": (draw_over, None),
}


def _need(f: Frame) -> GameView:
    assert isinstance(f.view, GameView), "this screen needs a game of The Game"
    return f.view
