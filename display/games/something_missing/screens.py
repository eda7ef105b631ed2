"""The screens of 什麼不見啦, one function each: ``draw_<screen>(p, frame)``.

The shared parts (header, footer, player strip, timers, the card panel, the buzz screen) are in
:mod:`display.screens`; here are the game's own screens, which read its
:class:`~display.games.something_missing.view.GameView` from ``frame.view``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from display import colours as C
from display.colours import player_rgb, text_on
from display.games.something_missing.view import GameView, RingLine
from display.input import HostAction
from display.paint import Painter
from display.screens import (
    BODY_TOP,
    HEADER_H,
    Draw,
    Frame,
    big_timer,
    card_panel,
    footer,
    header,
    player_strip,
    strip_scores,
)

SLOT_LABELS: tuple[str, ...] = ("0/+1", "-1", "-1", "-2", "-3", "-3")


SCENE_LETTERS = "ABCDEF"


SCENE_KEYS: tuple[int, ...] = (pygame.K_a, pygame.K_b, pygame.K_c, pygame.K_d, pygame.K_e,
                               pygame.K_f)


def scene_letter(index: int) -> str:
    return SCENE_LETTERS[index] if 0 <= index < len(SCENE_LETTERS) else str(index + 1)


# --- shared parts ----------------------------------------------------------------------------


def draw_viewing(p: Painter, f: Frame) -> None:
    view = _need(f)
    p.surface.fill(C.BG)
    passes = max(view.viewing_passes, 1)
    header(p, p.tr("viewing.title"), p.tr("viewing.pass", k=view.viewing_pass + 1, n=passes))
    left = f.timer_left_ms()
    right = p.rect(0.56, BODY_TOP + 0.04, 0.41, 0.6)
    if view.deadline_ms is None:
        p.text(p.tr("viewing.ready"), pygame.Rect(right.x, right.y, right.width, right.height // 3),
               size=0.055)
    p.text(p.tr("viewing.hint"), pygame.Rect(right.x, right.y + right.height // 3, right.width,
                                             right.height // 4), size=0.04, colour=C.TEXT_DIM,
           weight="regular")
    # The scenes as small face-down cards with their letters.
    n = view.scene_count
    w = 0.41 / max(n, 1)
    for i in range(n):
        r = p.rect(0.56 + i * w, BODY_TOP + 0.48, w * 0.85, 0.14)
        p.fill(r, C.PANEL_HI, 0.01)
        p.text(scene_letter(i), r, size=0.07)
    choices: list[tuple[HostAction, str, int | None, C.RGB, bool]] = []
    if left is None:
        choices.append((HostAction("start_timer"), p.tr("btn.start_timer"), pygame.K_t, C.ACCENT,
                        True))
    footer(p, choices)


def viewing_timer(p: Painter, f: Frame) -> None:
    view = _need(f)
    left = f.timer_left_ms()
    center = p.point(0.30, 0.48)
    total = view.timer_ms or 5000
    handing_on = left is not None and left > total  # the beat before the next pass
    big_timer(p, center, p.px(0.27), None if left is None else min(left, total), total,
              C.ACCENT)
    if left == 0 or handing_on:
        right = p.rect(0.56, BODY_TOP + 0.04, 0.41, 0.6)
        p.text(p.tr("viewing.done"), pygame.Rect(right.x, right.y, right.width, right.height // 3),
               size=0.09, colour=C.WARN)


def draw_replace(p: Painter, f: Frame) -> None:
    view = _need(f)
    p.surface.fill(C.BG)
    header(p, p.tr("replace.title"), p.tr("round", n=view.round_no))
    left = f.timer_left_ms()
    choices: list[tuple[HostAction, str, int | None, C.RGB, bool]] = []
    if view.deadline_ms is None and view.actor is not None:
        # The lowest scorer chooses which scene the new one replaces.
        p.text(p.tr("replace.choose", name=f.name(view.actor)), p.rect(0.05, 0.16, 0.9, 0.12),
               size=0.07)
        n = view.scene_count
        w = 0.9 / max(n, 1)
        for i in range(n):
            r = p.rect(0.05 + i * w, 0.34, w * 0.9, 0.36)
            p.button(r, HostAction("replace", i), p.tr("scene.label", s=scene_letter(i)),
                     key=SCENE_KEYS[i] if i < len(SCENE_KEYS) else None, size=0.06)
        choices.append((HostAction("no_replace"), p.tr("btn.no_replace"), pygame.K_k,
                        C.PANEL_HI, True))
    else:
        if view.replaced_scene is not None:
            p.text(p.tr("replace.which", s=scene_letter(view.replaced_scene)),
                   p.rect(0.56, 0.18, 0.41, 0.14), size=0.065, colour=C.ACCENT)
        p.text(p.tr("replace.hint"), p.rect(0.56, 0.3, 0.41, 0.2), size=0.055)
        if left is None:
            choices.append((HostAction("start_timer"), p.tr("btn.start_timer"), pygame.K_t,
                            C.ACCENT, True))
    footer(p, choices)


def replace_timer(p: Painter, f: Frame) -> None:
    view = _need(f)
    if view.deadline_ms is None and view.actor is not None:
        return
    big_timer(p, p.point(0.30, 0.48), p.px(0.27), f.timer_left_ms(),
              view.timer_ms or 20000, C.ACCENT)


def draw_reveal(p: Painter, f: Frame) -> None:
    view = _need(f)
    p.surface.fill(C.BG)
    header(p, p.tr("game.title"), p.tr("round", n=view.round_no))
    chip = p.rect(0.03, BODY_TOP + 0.02, 0.44, 0.2)
    if f.snap.held_card is not None:
        _held_prompt(p, f, view, chip)
        return
    if view.awaiting_buzz:
        # A card is up: whoever remembers it buzzes; the host may say nobody did.
        who = view.revealer
        if who is not None:
            info = f.player(who)
            p.chip(chip, info.colour, p.tr("reveal.revealed", name=info.name), size=0.08)
        p.text(p.tr("reveal.buzz_hint"), p.rect(0.03, BODY_TOP + 0.25, 0.44, 0.1), size=0.055,
               colour=C.WARN)
        if view.actor is not None:
            p.text(p.tr("reveal.next", name=f.name(view.actor)),
                   p.rect(0.03, BODY_TOP + 0.37, 0.44, 0.08), size=0.04, colour=C.TEXT_DIM,
                   weight="regular")
        card_panel(p, f, p.rect(0.52, BODY_TOP + 0.01, 0.45, 0.54))
    else:
        if view.actor is not None:
            info = f.player(view.actor)
            p.chip(chip, info.colour, p.tr("reveal.turn", name=info.name), size=0.09)
        p.text(p.tr("reveal.flip"), p.rect(0.03, BODY_TOP + 0.25, 0.44, 0.1), size=0.055)
        panel = p.rect(0.52, BODY_TOP + 0.01, 0.45, 0.54)
        p.fill(panel, C.PANEL, 0.02)
        p.text(p.tr("reveal.waiting"), panel, size=0.06, colour=C.TEXT_DIM, pad=0.03)
    turn = view.revealer if view.awaiting_buzz else view.actor
    player_strip(p, f, strip_box(p), highlight=turn)
    # Waiting for a card, the host may say one is up that the camera did not recognise (or
    # while the camera is not working, when the banner says so: then it stands out).
    by_hand = C.ACCENT if f.snap.camera_status else C.PANEL_HI
    footer(p, [(HostAction("next"), p.tr("btn.nobody"), None, C.PANEL_HI, True)]
           if view.awaiting_buzz else
           [(HostAction("by_hand"), p.tr("btn.by_hand"), pygame.K_m, by_hand, True)])


def _held_prompt(p: Painter, f: Frame, view: GameView, chip: pygame.Rect) -> None:
    """The top card was turned over by hand, and now the camera names a card: that one, or
    the next card laid on it? The host says; the camera cannot tell."""
    p.fill(chip, C.ACCENT, 0.02)
    p.text(p.tr("held.title"), chip, size=0.075, colour=C.BG, pad=0.02)
    p.text(p.tr("held.question"), p.rect(0.03, BODY_TOP + 0.25, 0.44, 0.2), size=0.06,
           pad=0.01)
    card_panel(p, f, p.rect(0.52, BODY_TOP + 0.01, 0.45, 0.54), held=True)
    turn = view.revealer if view.awaiting_buzz else view.actor
    player_strip(p, f, strip_box(p), highlight=turn)
    footer(p, [(HostAction("held_new"), p.tr("btn.held_new"), pygame.K_n, C.ACCENT, True),
               (HostAction("held_same"), p.tr("btn.held_same"), pygame.K_m, C.PANEL_HI, True)])


def strip_box(p: Painter) -> pygame.Rect:
    return p.rect(0.03, 0.69, 0.94, 0.15)


def reveal_scores(p: Painter, f: Frame) -> None:
    strip_scores(p, f, strip_box(p))


def memory_card(p: Painter, f: Frame, r: pygame.Rect, scene: int, bettors: Sequence[int],
                *, result: bool | None = None, active: bool = False) -> None:
    """A memory card (回憶卡): the scene's letter and its six slots, filled in bet order."""
    view = f.view
    p.fill(r, C.PANEL_HI if active else C.PANEL, 0.015)
    if active:
        p.outline(r, C.ACCENT, 0.006, 0.015)
    title_h = r.height * 22 // 100
    title = pygame.Rect(r.x, r.y, r.width, title_h)
    p.text(p.tr("scene.label", s=scene_letter(scene)), title, size=0.05, pad=0.008)
    if result is not None:
        mark = p.tr("check.found") if result else p.tr("check.not_found")
        band = pygame.Rect(r.x, r.bottom - title_h, r.width, title_h)
        p.fill(band, C.GOOD if result else C.BAD, 0.015)
        p.text(mark, band, size=0.04, colour=text_on(C.GOOD if result else C.BAD), pad=0.006)
        grid = pygame.Rect(r.x, title.bottom, r.width, band.top - title.bottom)
    else:
        grid = pygame.Rect(r.x, title.bottom, r.width, r.bottom - title.bottom)
    grid = grid.inflate(-p.px(0.016), -p.px(0.016))
    gap = p.px(0.008)
    cw = (grid.width - 2 * gap) / 3
    ch = (grid.height - gap) / 2
    for slot in range(6):
        col, row = slot % 3, slot // 3
        cell = pygame.Rect(round(grid.x + col * (cw + gap)), round(grid.y + row * (ch + gap)),
                           round(cw), round(ch))
        if slot < len(bettors):
            seat = bettors[slot]
            info = f.player(seat)
            bg = C.player_rgb(info.colour)
            fg = C.text_on(bg)
            p.fill(cell, bg, 0.008)
            # Seat number and shape, never a first letter (two names can share it).
            upper = pygame.Rect(cell.x, cell.y, cell.width, cell.height // 2)
            lower = pygame.Rect(cell.x, upper.bottom, cell.width, cell.height - upper.height)
            p.shape(C.PLAYER_SHAPES.get(info.colour, "hexagon"),
                    upper.inflate(-p.px(0.014), -p.px(0.014)), fg)
            p.text(str(seat + 1), lower, size=0.04, colour=fg)
        else:
            p.fill(cell, C.SLOT_EMPTY, 0.008)
            p.text(SLOT_LABELS[slot], cell, size=0.035, colour=C.TEXT_DIM, weight="regular",
                   pad=0.004)
    del view


def draw_betting(p: Painter, f: Frame) -> None:
    view = _need(f)
    p.surface.fill(C.BG)
    actor = view.actor
    must = actor is not None and actor == view.hourglass
    if actor is None:
        title = p.tr("bet.title")
    else:
        title = p.tr("bet.must" if must else "bet.decide", name=f.name(actor))
    header(p, title, p.tr("round", n=view.round_no))
    if actor is not None:
        p.fill(p.rect(0, HEADER_H, 1, 0.012), player_rgb(f.player(actor).colour))
    n = view.scene_count
    gap = 0.012
    w = (0.96 - gap * (n - 1)) / max(n, 1)
    for i in range(n):
        r = p.rect(0.02 + i * (w + gap), BODY_TOP + 0.02, w, 0.46)
        bettors = view.bets[i] if i < len(view.bets) else ()
        memory_card(p, f, r, i, bettors, active=actor is not None)
        if actor is not None:
            from display.input import Button
            full = len(bettors) >= len(SLOT_LABELS)
            p.buttons.append(Button((r.x, r.y, r.width, r.height), HostAction("bet", i),
                                    scene_letter(i), not full,
                                    SCENE_KEYS[i] if i < len(SCENE_KEYS) else None))
    ring = _ring(f)
    line = p.rect(0.02, BODY_TOP + 0.485, 0.96, 0.05)
    note = ring.note(p.lang) if ring is not None else None
    if note is not None:
        _ring_note(p, note, line)
    elif actor is not None:
        hint = "sm.ring.bet_hint" if ring is not None and ring.reads else "bet.tap"
        p.text(p.tr(hint), line, size=0.035, colour=C.TEXT_DIM, weight="regular")
    # Who has decided what.
    seat_of_bet = {seat: scene for scene, seats in enumerate(view.bets) for seat in seats}
    players = view.players
    box = p.rect(0.02, 0.68, 0.96, 0.16)
    gapx = p.px(0.01)
    cw = (box.width - gapx * (players - 1)) / max(players, 1)
    for seat in range(players):
        r = pygame.Rect(round(box.x + seat * (cw + gapx)), box.y, round(cw), box.height)
        info = f.player(seat)
        bg = player_rgb(info.colour)
        p.fill(r, bg, 0.012)
        if seat == actor:
            p.outline(r.inflate(p.px(0.012), p.px(0.012)), C.TEXT, 0.006, 0.016)
        fg = text_on(bg)
        p.text(info.name, pygame.Rect(r.x, r.y, r.width, r.height // 2), size=0.045, colour=fg,
               pad=0.006)
        if seat in seat_of_bet:
            status = p.tr("bet.on", s=scene_letter(seat_of_bet[seat]))
        elif seat in view.passed:
            status = p.tr("bet.passed")
        else:
            status = p.tr("bet.waiting")
        p.text(status, pygame.Rect(r.x, r.centery, r.width, r.height // 2), size=0.04,
               colour=fg, weight="regular", pad=0.006)
    footer(p, [(HostAction("pass"), p.tr("btn.pass"), pygame.K_p, C.PANEL_HI,
                actor is not None and not must)])


def draw_checking(p: Painter, f: Frame) -> None:
    view = _need(f)
    p.surface.fill(C.BG)
    scene = view.checking_scene
    letter = scene_letter(scene) if scene is not None else "?"
    header(p, p.tr("check.title", s=p.tr("scene.label", s=letter)),
           p.tr("round", n=view.round_no))
    left = f.timer_left_ms()
    ring = _ring(f)
    if left is None:
        reads = ring is not None and ring.reads
        p.text(p.tr("sm.ring.turn_hint" if reads else "check.no_timer"),
               p.rect(0.02, 0.77, 0.5, 0.08), size=0.035,
               colour=C.ACCENT if reads else C.TEXT_DIM, weight="regular")
    note = ring.note(p.lang) if ring is not None else None
    if note is not None:
        _ring_note(p, note, p.rect(0.54, 0.795, 0.44, 0.055))
    # Right: the bettors on this scene, and every bet-on scene's result so far.
    right_x = 0.54
    bettors = view.bets[scene] if scene is not None and scene < len(view.bets) else ()
    # Who checks, by name: the one or two bettors, or "the bettors" (their chips below).
    point = (p.tr("check.point_who", names=p.tr("list.sep").join(f.name(b) for b in bettors))
             if 0 < len(bettors) <= 2 else p.tr("check.point"))
    p.text(point, p.rect(right_x, BODY_TOP, 0.44, 0.08), size=0.045, weight="regular")
    p.text(p.tr("check.bettors"), p.rect(right_x, BODY_TOP + 0.09, 0.44, 0.06), size=0.04,
           colour=C.TEXT_DIM, align="left")
    cols = 3
    cw = 0.44 / cols
    for i, seat in enumerate(bettors):
        info = f.player(seat)
        r = p.rect(right_x + (i % cols) * cw, BODY_TOP + 0.16 + (i // cols) * 0.11,
                   cw * 0.94, 0.095)
        p.chip(r, info.colour, info.name, size=0.045)
    scenes = [i for i, seats in enumerate(view.bets) if seats]
    if scenes:
        w = 0.44 / len(scenes)
        for j, i in enumerate(scenes):
            r = p.rect(right_x + j * w, 0.58, w * 0.92, 0.2)
            res = view.results[i] if i < len(view.results) else None
            active = i == scene
            bg = C.GOOD if res else C.BAD if res is False else (C.PANEL_HI if active else C.PANEL)
            p.fill(r, bg, 0.012)
            if active:
                p.outline(r, C.ACCENT, 0.006, 0.012)
            fg = text_on(bg)
            p.text(scene_letter(i), pygame.Rect(r.x, r.y, r.width, r.height * 6 // 10), size=0.08,
                   colour=fg)
            status = ("check.pending" if res is None else
                      "check.found" if res else "check.not_found")
            p.text(p.tr(status), pygame.Rect(r.x, r.y + r.height * 6 // 10, r.width,
                                             r.height * 4 // 10),
                   size=0.035, colour=fg, weight="regular", pad=0.005)


def _ring(f: Frame) -> RingLine | None:
    table = f.snap.table
    return table if isinstance(table, RingLine) else None


def _ring_note(p: Painter, note: str, r: pygame.Rect) -> None:
    """A camera reading the host must settle (a token in conflict, a scene out of order)."""
    p.fill(r, C.BAD, 0.008)
    p.text(note, r, size=0.033, colour=text_on(C.BAD), weight="regular", pad=0.006)


def checking_timer(p: Painter, f: Frame) -> None:
    """The hourglass and the host's choices, which change with it (drawn every frame)."""
    view = _need(f)
    left = f.timer_left_ms()
    center = p.point(0.27, 0.47)
    big_timer(p, center, p.px(0.28), left, view.timer_ms or 30000, C.WARN)
    if left == 0:
        p.text(p.tr("check.timeup"), p.rect(0.02, 0.77, 0.5, 0.08), size=0.06, colour=C.BAD)
    choices: list[tuple[HostAction, str, int | None, C.RGB, bool]] = [
        (HostAction("found"), p.tr("btn.found"), pygame.K_f, C.GOOD, True),
        (HostAction("not_found"), p.tr("btn.not_found"), pygame.K_n, C.BAD, True),
    ]
    if left == 0:  # time's up: it counts as not found (an undo takes back the hourglass)
        choices = []
    elif left is None:
        choices.insert(0, (HostAction("start_timer"), p.tr("btn.hourglass"), pygame.K_h,
                           C.WARN, True))
    footer(p, choices)


def _board_rows(p: Painter, n: int, box: pygame.Rect) -> list[dict[str, pygame.Rect]]:
    gap = p.px(0.012)
    row_h = (box.height - gap * (n - 1)) / max(n, 1)
    name_w, num_w, delta_w = box.width * 0.24, box.width * 0.14, box.width * 0.12
    bar_w = box.width - name_w - num_w - delta_w - 3 * gap
    rows = []
    for seat in range(n):
        y, h = round(box.y + seat * (row_h + gap)), round(row_h)
        name = pygame.Rect(box.x, y, round(name_w), h)
        track = pygame.Rect(round(box.x + name_w + gap), y, round(bar_w), h)
        num = pygame.Rect(track.right + gap, y, round(num_w), h)
        delta = pygame.Rect(num.right + gap, y, round(delta_w), h)
        rows.append({"name": name, "track": track, "num": num, "delta": delta})
    return rows


def scoreboard(p: Painter, f: Frame, box: pygame.Rect) -> None:
    """The static part of the score bars: names and empty tracks."""
    view = _need(f)
    for seat, row in enumerate(_board_rows(p, view.players, box)):
        p.chip(row["name"], f.player(seat).colour, f.player(seat).name, size=0.05)
        p.fill(row["track"], C.PANEL, 0.01)


def scoreboard_values(p: Painter, f: Frame, box: pygame.Rect, target: int) -> None:
    """The moving part: bars and numbers at the animated scores, the change beside each."""
    view = _need(f)
    top = max([target, *view.scores, 1])
    for seat, row in enumerate(_board_rows(p, view.players, box)):
        track = row["track"]
        shown = f.shown_scores[seat] if seat < len(f.shown_scores) else float(view.scores[seat])
        fill_w = round(track.width * max(0.0, min(1.0, shown / top)))
        if fill_w > 0:
            p.fill(pygame.Rect(track.x, track.y, fill_w, track.height),
                   player_rgb(f.player(seat).colour), 0.01)
        tx = round(track.x + track.width * target / top)
        pygame.draw.line(p.surface, C.TEXT_DIM, (tx, track.y), (tx, track.bottom - 1),
                         max(1, p.px(0.003)))
        p.text(str(round(shown)), row["num"], size=0.07, align="right")
        if seat < len(f.deltas) and f.deltas[seat]:
            d = f.deltas[seat]
            p.text(f"{d:+d}", row["delta"], size=0.06, colour=C.GOOD if d > 0 else C.BAD)


def board_box(p: Painter) -> pygame.Rect:
    return p.rect(0.03, BODY_TOP + 0.02, 0.94, 0.7)


def draw_scoring(p: Painter, f: Frame) -> None:
    view = _need(f)
    p.surface.fill(C.BG)
    header(p, p.tr("score.title"), p.tr("score.target", n=view.target))
    scoreboard(p, f, board_box(p))
    footer(p)


def scoring_values(p: Painter, f: Frame) -> None:
    scoreboard_values(p, f, board_box(p), _need(f).target)


def draw_swap(p: Painter, f: Frame) -> None:
    view = _need(f)
    p.surface.fill(C.BG)
    header(p, p.tr("swap.title"), p.tr("round", n=view.round_no))
    if view.actor is not None:
        info = f.player(view.actor)
        p.chip(p.rect(0.03, BODY_TOP + 0.02, 0.94, 0.12), info.colour,
               p.tr("swap.who", name=info.name), size=0.065)
    scenes = list(view.swap_scenes)
    n = max(len(scenes), 1)
    w = 0.94 / n
    for j, i in enumerate(scenes):
        r = p.rect(0.03 + j * w, BODY_TOP + 0.18, w * 0.92, 0.3)
        res = view.results[i] if i < len(view.results) else None
        memory_card(p, f, r, i, view.bets[i] if i < len(view.bets) else (), result=res)
    # Every exchange of two turned-up scenes (15 with six up), in rows of up to five.
    pairs = [(a, b) for k, a in enumerate(sorted(scenes)) for b in sorted(scenes)[k + 1:]]
    if pairs:
        cols = min(5, len(pairs)) if len(pairs) > 6 else min(3, len(pairs))
        rows = math.ceil(len(pairs) / cols)
        bw, bh = 0.94 / cols, min(0.115, 0.235 / rows)  # above the footer
        for k, (a, b) in enumerate(pairs):
            r = p.rect(0.03 + (k % cols) * bw, 0.615 + (k // cols) * bh, bw * 0.95, bh * 0.87)
            p.button(r, HostAction("swap", (a, b)),
                     p.tr("btn.swap", a=scene_letter(a), b=scene_letter(b)),
                     key=pygame.K_s if k == 0 else None, size=0.045 if rows <= 2 else 0.04)
    done = view.swaps_made > 0
    footer(p, [(HostAction("keep"), p.tr("btn.swap_done" if done else "btn.keep"), pygame.K_k,
                C.PANEL_HI, True)])


def score_chart(p: Painter, f: Frame, box: pygame.Rect) -> None:
    """Each player's score after each round, as lines in their colours."""
    view = _need(f)
    p.fill(box, C.PANEL, 0.015)
    title = pygame.Rect(box.x, box.y, box.width, box.height // 9)
    p.text(p.tr("over.chart"), title, size=0.045, colour=C.TEXT_DIM, pad=0.008)
    history = [tuple(0 for _ in view.scores), *view.history]
    if not view.history or tuple(view.history[-1]) != tuple(view.scores):
        history.append(view.scores)
    if not any(any(row) for row in history):
        # nobody has scored: every line would lie on the axis, every name on one point
        p.text(p.tr("over.chart_empty"), box.inflate(-p.px(0.04), -p.px(0.2)),
               size=0.045, colour=C.TEXT_DIM)
        return
    axis_w = p.px(0.07)
    label_w = p.px(0.13)  # each line's name at its end (colour is not the only cue)
    plot = pygame.Rect(box.x + axis_w, title.bottom + p.px(0.02),
                       box.width - axis_w - label_w - p.px(0.02),
                       box.height - title.height - p.px(0.1))
    top = max(max((max(r) for r in history if r), default=1), 1)
    step = 5 if top <= 40 else 10
    ymax = step * math.ceil(top / step)
    line_w = max(1, p.px(0.002))
    for v in range(0, ymax + 1, step):
        y = plot.bottom - plot.height * v / ymax
        pygame.draw.line(p.surface, C.PANEL_HI, (plot.x, y), (plot.right, y), line_w)
        p.text(str(v), pygame.Rect(box.x, round(y - p.px(0.02)), axis_w - p.px(0.01),
                                   p.px(0.04)), size=0.03, colour=C.TEXT_DIM, align="right",
               weight="regular")
    rounds = len(history) - 1
    label_every = max(1, math.ceil(rounds / 10))
    for k in range(0, rounds + 1, label_every):
        x = plot.x + plot.width * k / max(rounds, 1)
        p.text(str(k), pygame.Rect(round(x - p.px(0.03)), plot.bottom + p.px(0.01), p.px(0.06),
                                   p.px(0.04)), size=0.03, colour=C.TEXT_DIM, weight="regular")
    width = max(2, p.px(0.006))
    ends: list[tuple[float, int]] = []
    for seat in range(view.players):
        colour = player_rgb(f.player(seat).colour)
        points = [
            (plot.x + plot.width * k / max(rounds, 1),
             plot.bottom - plot.height * (row[seat] if seat < len(row) else 0) / ymax)
            for k, row in enumerate(history)
        ]
        if len(points) >= 2:
            pygame.draw.lines(p.surface, colour, False, points, width)
        for pt in points[-1:]:
            pygame.draw.circle(p.surface, colour, (round(pt[0]), round(pt[1])), width * 2)
            ends.append((pt[1], seat))
    # The names at the lines' ends, pushed apart so that none overlaps the next.
    label_h = p.px(0.036)
    ys = _spread_labels([y for y, _ in sorted(ends)], label_h, plot.top + label_h / 2,
                        plot.bottom - label_h / 2)
    for (end_y, seat), y in zip(sorted(ends), ys, strict=True):
        info = f.player(seat)
        colour = player_rgb(info.colour)
        x0 = plot.right + p.px(0.008)
        pygame.draw.line(p.surface, colour, (plot.right, end_y), (x0, y), max(1, width // 2))
        chip = pygame.Rect(x0, round(y - label_h / 2), label_h, label_h)
        p.shape(C.PLAYER_SHAPES.get(info.colour, "hexagon"), chip.inflate(-4, -4), colour)
        p.text(info.name, pygame.Rect(chip.right + p.px(0.004), chip.y,
                                      box.right - chip.right - p.px(0.01), label_h),
               size=0.03, colour=colour, align="left", weight="bold")


def _spread_labels(ys: list[float], gap: float, low: float, high: float) -> list[float]:
    """``ys`` (sorted) moved as little as needed to lie ``gap`` apart within [low, high]."""
    out = [min(max(y, low), high) for y in ys]
    for i in range(1, len(out)):
        out[i] = max(out[i], out[i - 1] + gap)
    if out and out[-1] > high:  # pushed past the bottom: push back up
        out[-1] = high
        for i in range(len(out) - 2, -1, -1):
            out[i] = min(out[i], out[i + 1] - gap)
    return out


def draw_over(p: Painter, f: Frame) -> None:
    view = _need(f)
    p.surface.fill(C.BG)
    reason = ""
    if view.end_reason == "score":
        reason = p.tr("over.reason.score", n=view.end_count or view.target)
    elif view.end_reason == "cards":
        reason = p.tr("over.reason.cards", n=view.end_count)
    elif view.end_reason == "host":
        reason = p.tr("over.reason.host")
    header(p, p.tr("over.title"), reason)
    winners = list(view.winners)
    scored = any(view.scores)
    if not scored:  # (ended before anyone scored: everyone's 0 is no shared win)
        p.text(p.tr("over.nobody_scored"), p.rect(0.03, BODY_TOP + 0.02, 0.44, 0.17),
               size=0.05, colour=C.ACCENT)
    elif len(winners) == 1:
        info = f.player(winners[0])
        p.chip(p.rect(0.03, BODY_TOP + 0.02, 0.44, 0.17), info.colour,
               p.tr("over.winner", name=info.name), size=0.08)
    elif winners:
        p.text(p.tr("over.winners"), p.rect(0.03, BODY_TOP + 0.02, 0.44, 0.08), size=0.06,
               colour=C.ACCENT)
        w = 0.44 / len(winners)
        for i, seat in enumerate(winners):
            info = f.player(seat)
            p.chip(p.rect(0.03 + i * w, BODY_TOP + 0.11, w * 0.94, 0.08), info.colour, info.name,
                   size=0.05)
    ranking = sorted(range(view.players), key=lambda s: (-view.scores[s], s))
    row_h = min(0.075, 0.48 / max(view.players, 1))
    for k, seat in enumerate(ranking):
        info = f.player(seat)
        y = BODY_TOP + 0.23 + k * row_h
        place = 1 + sum(1 for s in ranking if view.scores[s] > view.scores[seat])
        if scored:  # (no places where nobody scored)
            p.text(f"{place}.", p.rect(0.03, y, 0.05, row_h * 0.9), size=0.045,
                   colour=C.TEXT_DIM, align="right")
        p.chip(p.rect(0.09, y, 0.26, row_h * 0.9), info.colour, info.name, size=0.045)
        p.text(p.tr("points", n=view.scores[seat]), p.rect(0.36, y, 0.11, row_h * 0.9),
               size=0.045, align="right")
    score_chart(p, f, p.rect(0.5, BODY_TOP + 0.01, 0.48, 0.72))
    footer(p, [(HostAction("confirm"), p.tr("btn.new_game"), None, C.ACCENT, True)], undo=False)


SCREENS: dict[str, tuple[Draw, Draw | None]] = {
    "viewing": (draw_viewing, viewing_timer),
    "replace": (draw_replace, replace_timer),
    "reveal": (draw_reveal, reveal_scores),
    "betting": (draw_betting, None),
    "checking": (draw_checking, checking_timer),
    "scoring": (draw_scoring, scoring_values),
    "swap": (draw_swap, None),
    "over": (draw_over, None),
}


def _need(f: Frame) -> GameView:
    assert isinstance(f.view, GameView), "this screen needs a game of 什麼不見啦"
    return f.view
