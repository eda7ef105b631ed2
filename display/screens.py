"""What every game's screens share, and the screens that belong to no one game.

Every screen has a header (title on the left, round on the right), a body and a footer of host
buttons (undo on the left, the language switch on the right, the screen's own choices between).
All positions are fractions of the surface (see :mod:`display.paint`). Screens read a
:class:`Frame`: the snapshot, the game's view and the renderer's animation values.

The screens here: ``home`` (pick the game), ``title``, ``setup`` (the players, the variant) and
``buzz`` (who buzzed first, for any game with a buzzer race). A game's own screens are in
:mod:`display.games` (its :class:`display.games.GameDisplay`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pygame

from display import colours as C
from display.ask import LATER as ASK_LATER
from display.ask import MORE as ASK_MORE
from display.ask import NONE as ASK_NONE
from display.ask import PICK as ASK_PICK
from display.ask import AskView
from display.colours import player_rgb, text_on
from display.input import HostAction
from display.model import CardView, PlayerInfo, Snapshot
from display.paint import Painter
from display.setup import ROSTER_GROUP, SetupForm

HEADER_H = 0.10
BANNER_LINE_H = 0.07  # one banner line; the body is laid out below the banner


BODY_TOP = 0.12


FOOTER_Y = 0.86


FOOTER_H = 0.12


@dataclass


class Frame:
    """What a screen function reads."""

    snap: Snapshot
    view: Any  # the game's view of its state (None: no game)
    now_ms: int
    shown_scores: tuple[float, ...] = ()  # animated scores
    deltas: tuple[int, ...] = ()  # the change being animated (empty: none)
    card_image: pygame.Surface | None = None  # the last card's image, converted
    held_image: pygame.Surface | None = None  # the held card's (``Snapshot.held_card``)

    def player(self, seat: int) -> PlayerInfo:
        players = self.snap.players or (self.view.names if self.view is not None else ())
        if 0 <= seat < len(players):
            return players[seat].shown(self.snap.lang)
        from display.colours import COLOUR_KEYS
        return PlayerInfo(f"#{seat + 1}", COLOUR_KEYS[seat % len(COLOUR_KEYS)])

    def name(self, seat: int | None) -> str:
        return "—" if seat is None else self.player(seat).name

    def timer_left_ms(self) -> int | None:
        view = self.view
        deadline: int | None = None if view is None else view.deadline_ms
        if deadline is None:
            return None
        return max(0, deadline - self.now_ms)


def standings(figures: Sequence[Any]) -> list[int]:
    """Each seat's place (1-based) from its figures, best first by their order (smaller is
    better: pass e.g. ``(-points, ...)``): seats with equal figures share a place, and the
    next place is skipped for each (1, 2, 2, 4)."""
    return [1 + sum(1 for other in figures if other < mine) for mine in figures]


def header(p: Painter, title: str, right: str = "", *, menu: bool = True) -> None:
    """The title at the left, the round (``right``) and the host menu's button at the right
    (touch; the host buttons open it with a long press of *back*)."""
    p.fill(p.rect(0, 0, 1, HEADER_H), C.BG_TOP)
    end = 0.88 if menu else 0.98
    split = 0.58 if menu else 0.64
    if p.sound:  # the box's sound sign, small and permanent, left of the menu button
        end -= 0.12
        split -= 0.06
        sound_sign(p, p.sound, p.rect(end + 0.005, 0.0, 0.115, HEADER_H))
    p.text(title, p.rect(0.02, 0.0, split - 0.02 if right else end - 0.02, HEADER_H),
           size=0.065, align="left", pad=0.012)
    if right:
        p.text(right, p.rect(split, 0.0, end - split, HEADER_H), size=0.05, colour=C.TEXT_DIM,
               align="right", pad=0.014)
    if menu:
        p.button(p.rect(0.89, 0.012, 0.10, HEADER_H - 0.024), HostAction("menu"),
                 p.tr("btn.menu"), size=0.04)


#: A footer choice: (action, label, shortcut key, colour, enabled[, risky]); a risky one
#: (a rule broken, the game ended, data discarded) is never the focus's default.
FooterChoice = (tuple[HostAction, str, int | None, C.RGB, bool]
                | tuple[HostAction, str, int | None, C.RGB, bool, bool])


def footer(p: Painter, choices: Sequence[FooterChoice] = (), *, undo: bool = True,
           waiting: frozenset[str] = frozenset(), why: str = "",
           lang_walked: bool = False) -> None:
    """Undo at the left, the choices in the middle, the language switch at the right.
    ``waiting``: the actions whose button looks disabled until it can act (it still takes a
    press, which says ``why``: what the screen says next to it). ``lang_walked``: the host
    buttons' *next* reaches the language switch too (the home screen)."""
    y, h = FOOTER_Y, FOOTER_H
    if undo:
        p.button(p.rect(0.01, y, 0.13, h), HostAction("undo"), p.tr("btn.undo"), size=0.04)
    # (the language is drawn after the choices: the host buttons' *next* walks in drawing
    # order, so on the home screen it comes after 「設定這台機器」, as the README says)
    lang = (p.rect(0.86, y, 0.13, h), HostAction("lang"), p.tr("btn.lang"))
    if not choices:
        p.button(*lang, size=0.04, walk=lang_walked)
        return
    left, right, gap = 0.16, 0.84, 0.015
    width = min(0.34, (right - left - gap * (len(choices) - 1)) / len(choices))
    total = width * len(choices) + gap * (len(choices) - 1)
    x = left + (right - left - total) / 2
    for item in choices:
        action, label, key, colour, enabled = item[:5]
        risky = bool(item[5]) if len(item) > 5 else False
        p.button(p.rect(x, y, width, h), action, label, key=key, colour=colour, enabled=enabled,
                 size=0.055, risky=risky, waiting=action.name in waiting, why=why)
        x += width + gap
    p.button(*lang, size=0.04, walk=lang_walked)


#: A strip chip's rows, in percent of its height: name, score, then cards left (the rest).
NAME_ROW, SCORE_ROW = 38, 30


def player_strip(p: Painter, f: Frame, box: pygame.Rect, *, highlight: int | None = None,
                 show_cards: bool = True) -> None:
    """One chip per player: name, (animated) score, cards left."""
    view = f.view
    n = len(f.snap.players) if view is None else view.players
    if n == 0:
        return
    for seat, r in enumerate(_strip_cells(p, n, box)):
        info = f.player(seat)
        bg = player_rgb(info.colour)
        fg = text_on(bg)
        p.fill(r, bg, 0.012)
        if seat == highlight:
            p.outline(r.inflate(p.px(0.012), p.px(0.012)), C.TEXT, 0.006, 0.016)
        top = pygame.Rect(r.x, r.y, r.width, r.height * NAME_ROW // 100)
        # The player's shape, as on their bet tokens, in the chip's corner.
        mark = max(6, min(r.height * SCORE_ROW // 100, r.width // 6) * 3 // 4)
        p.shape(C.PLAYER_SHAPES.get(info.colour, "hexagon"),
                pygame.Rect(r.x + p.px(0.01), top.bottom, mark, mark), fg)
        p.text(info.name, top, size=0.045, colour=fg, pad=0.006)
        mid = pygame.Rect(r.x, top.bottom, r.width, r.height * SCORE_ROW // 100)
        if show_cards and view is not None and seat < len(view.cards_left):
            left = view.cards_left[seat]
            low = pygame.Rect(r.x, mid.bottom, r.width, r.bottom - mid.bottom)
            label = p.tr("cards_left", n=left) if left else p.tr("no_cards")
            p.text(label, low, size=0.03, colour=fg, weight="regular")


def _strip_cells(p: Painter, n: int, box: pygame.Rect) -> list[pygame.Rect]:
    gap = p.px(0.012)
    w = (box.width - gap * (n - 1)) / max(n, 1)
    return [pygame.Rect(round(box.x + seat * (w + gap)), box.y, round(w), box.height)
            for seat in range(n)]


def strip_scores(p: Painter, f: Frame, box: pygame.Rect) -> None:
    """The (animated) scores on the player strip: the dynamic part of :func:`player_strip`."""
    view = _need(f)
    for seat, r in enumerate(_strip_cells(p, view.players, box)):
        fg = text_on(player_rgb(f.player(seat).colour))
        score = round(f.shown_scores[seat]) if seat < len(f.shown_scores) else view.scores[seat]
        mid = pygame.Rect(r.x, r.y + r.height * NAME_ROW // 100, r.width,
                          r.height * SCORE_ROW // 100)
        p.text(p.tr("points", n=score), mid, size=0.045, colour=fg)


def big_timer(p: Painter, center: tuple[int, int], radius: int, left_ms: int | None,
              total_ms: int, colour: C.RGB) -> None:
    """The draining ring with the seconds left inside (``left_ms`` None: not started)."""
    if left_ms is None:
        p.arc_timer(center, radius, 1.0, C.PANEL_HI, C.PANEL)
        secs = total_ms // 1000
        label_colour = C.TEXT_DIM
    else:
        frac = left_ms / total_ms if total_ms > 0 else 0.0
        ring = C.BAD if left_ms <= min(5000, total_ms // 4) else colour
        p.arc_timer(center, radius, frac, ring, C.PANEL)
        secs = math.ceil(left_ms / 1000)
        label_colour = C.BAD if left_ms == 0 else C.TEXT
    inner = int(radius * 1.1)
    box = pygame.Rect(0, 0, inner, int(radius * 0.8))
    box.center = center
    p.text(str(secs), box, size=radius * 0.9 / p.h, colour=label_colour)


def card_panel(p: Painter, f: Frame, box: pygame.Rect, *, held: bool = False) -> None:
    """The card just recognised, large: its image and its name; or a waiting note. ``held``:
    the card the camera saw that waits for the host (``Snapshot.held_card``) instead."""
    p.fill(box, C.PANEL, 0.02)
    card: CardView | None = f.snap.held_card if held else f.snap.last_card
    if card is None:
        p.text(p.tr("reveal.waiting"), box, size=0.06, colour=C.TEXT_DIM, pad=0.03)
        return
    name_h = box.height // 5
    img_box = pygame.Rect(box.x, box.y, box.width, box.height - name_h).inflate(
        -p.px(0.04), -p.px(0.04))
    if card.is_unnamed:  # turned over by hand: a face-down card's outline and a question mark
        p.fill(img_box, C.PANEL_HI, 0.015)
        p.text("?", img_box, size=0.3, colour=C.TEXT_DIM)
        name_box = pygame.Rect(box.x, box.bottom - name_h, box.width, name_h)
        p.text(p.tr("card.unnamed"), name_box, size=0.07, colour=C.TEXT_DIM, pad=0.01)
        return
    image = f.held_image if held else f.card_image
    if image is not None and image.get_width() > 0 and image.get_height() > 0:
        scale = min(img_box.width / image.get_width(), img_box.height / image.get_height())
        size = (max(1, int(image.get_width() * scale)), max(1, int(image.get_height() * scale)))
        scaled = _scaled(image, size)
        r = scaled.get_rect(center=img_box.center)
        p.surface.blit(scaled, r)
    else:
        p.fill(img_box, C.PANEL_HI, 0.015)
        p.text(card.name(p.lang), img_box, size=0.14, pad=0.02)
    name_box = pygame.Rect(box.x, box.bottom - name_h, box.width, name_h)
    p.text(card.name(p.lang), name_box, size=0.08, colour=C.ACCENT, pad=0.01)


_SCALED: dict[tuple[int, tuple[int, int]], pygame.Surface] = {}


def _scaled(image: pygame.Surface, size: tuple[int, int]) -> pygame.Surface:
    key = (id(image), size)
    out = _SCALED.get(key)
    if out is None:
        if len(_SCALED) > 32:
            _SCALED.clear()
        out = pygame.transform.smoothscale(image.convert_alpha() if pygame.display.get_surface()
                                           else image, size)
        _SCALED[key] = out
    return out


# --- the screens -----------------------------------------------------------------------------


def draw_home(p: Painter, f: Frame) -> None:
    """Pick the game: one large button per registered game, with its player range."""
    from display.home import HomeMenu

    menu = f.snap.home
    assert isinstance(menu, HomeMenu)
    p.surface.fill(C.BG)
    header(p, p.tr("home.title"), p.tr("home.count", n=len(menu.games)))
    n = max(1, len(menu.games))
    cols = 1 if n == 1 else 2
    rows = (n + cols - 1) // cols
    gap = 0.02
    top, bottom = BODY_TOP + 0.01, FOOTER_Y - 0.03
    w = (0.96 - gap * (cols - 1)) / cols
    h = min(0.3, (bottom - top - gap * (rows - 1)) / rows)
    for i, game in enumerate(menu.games):
        row, col = divmod(i, cols)
        r = p.rect(0.02 + col * (w + gap), top + row * (h + gap), w, h)
        chosen = i == menu.chosen  # (the focus ring, drawn by the renderer, marks it)
        p.fill(r, C.PANEL_HI if chosen else C.PANEL, 0.02)
        title = pygame.Rect(r.x, r.y, r.width, r.height * 48 // 100)
        p.text(game.title(p.lang), title, size=0.075, colour=C.ACCENT if chosen else C.TEXT,
               pad=0.01)
        sub = pygame.Rect(r.x, title.bottom, r.width, r.height * 26 // 100)
        p.text(game.other_title(p.lang), sub, size=0.045, colour=C.TEXT_DIM, weight="regular",
               pad=0.008)
        low = pygame.Rect(r.x, sub.bottom, r.width, r.bottom - sub.bottom)
        if game.missing:  # not set up at this table: choosing it leads to the step it lacks
            half = low.width // 2
            p.text(p.tr("home.players", lo=game.min_players, hi=game.max_players),
                   pygame.Rect(low.x, low.y, half, low.height), size=0.04, colour=C.TEXT_DIM,
                   weight="regular", pad=0.008)
            mark = pygame.Rect(low.x + half, low.y, low.width - half, low.height)
            mark = mark.inflate(-p.px(0.02), -p.px(0.015))
            p.fill(mark, C.WARN, 0.01)
            p.text(p.tr("home.needs_setup"), mark, size=0.04, colour=text_on(C.WARN), pad=0.004)
        else:
            p.text(p.tr("home.players", lo=game.min_players, hi=game.max_players), low,
                   size=0.04, colour=C.TEXT_DIM, weight="regular", pad=0.008)
        p.buttons.append(_plain_button(r, HostAction("home.pick", i)))
    # (no "set up players" button: a game's tile is the choice, *confirm* opens the focused
    # one; the set-up area's button (issue 28) comes after the games)
    choices: list[FooterChoice] = []
    if getattr(menu, "can_set_up", False):
        choices.append((HostAction("area.open"), p.tr("btn.setup_area"), None, C.PANEL_HI,
                        True))
    # (the language is one *next* after the games and the set-up: the host reaches it with
    # the three buttons before any game, not only through the host menu)
    footer(p, choices, undo=False, lang_walked=True)


def draw_title(p: Painter, f: Frame) -> None:
    p.surface.fill(C.BG)
    p.text(p.tr("app.title"), p.rect(0.1, 0.2, 0.8, 0.25), size=0.2, colour=C.ACCENT)
    p.text(p.tr("app.tagline"), p.rect(0.1, 0.45, 0.8, 0.12), size=0.08, colour=C.TEXT_DIM)
    footer(p, [(HostAction("confirm"), p.tr("btn.new_game"), None, C.ACCENT, True)], undo=False)


KEY_ROWS: tuple[str, ...] = ("1234567890", "QWERTYUIOP", "ASDFGHJKL-", "ZXCVBNM.'")
#: candidates shown at once (a page); more pages with the arrows
CANDS_PER_PAGE = 9
#: regulars shown on the name screen (the roster keeps no more: the screen is the editor)
ROSTER_SHOWN = 8


def draw_name_entry(p: Painter, form: SetupForm) -> None:
    """The name of one seat: the roster's names to pick with a touch, and an on-screen keyboard:
    注音 (Bopomofo, the way Taiwan types: symbols, tone, then the character from a list, through
    libchewing; :mod:`display.zhuyin`) or Latin letters. A real keyboard types as well.

    Buttons are drawn in the order the three host buttons walk them: the candidates first (they
    are what the host wants right after a tone), then done, the regulars, erase, the keys."""
    from display import zhuyin

    seat = form.focus
    assert seat is not None
    info = form.players[seat]
    chinese = form.keyboard == "zhuyin" and zhuyin.available()
    p.surface.fill(C.BG)
    header(p, p.tr("setup.name_of", n=seat + 1), p.tr(f"colour.{info.colour}"))
    field = p.rect(0.02, BODY_TOP, 0.96, 0.09)
    p.fill(field, C.PANEL_HI, 0.012)
    p.outline(field, player_rgb(info.colour), 0.006, 0.012)
    if info.name or form.syllable:
        # the name, then the syllable being spelt or the cursor
        shown_name = info.name if form.syllable else info.name + "▏"
        name_r = p.text(shown_name, field, size=0.06, colour=C.TEXT, align="left", pad=0.02)
        if form.syllable:
            pre = pygame.Rect(name_r.right + p.px(0.01), field.y,
                              field.right - name_r.right - p.px(0.03), field.height)
            p.text(form.syllable.replace(zhuyin.FIRST_TONE, ""), pre, size=0.06,
                   colour=C.ACCENT, align="left", pad=0.012)
    else:
        p.text(form.display_name(seat, p.lang), field, size=0.06, colour=C.TEXT_DIM,
               align="left", pad=0.02)
    top = BODY_TOP + 0.10
    # The candidate row: the characters of the syllable spelt, or what to do.
    row = p.rect(0.02, top, 0.96, 0.085)
    missing = p.cache.fonts.missing_glyphs(info.name) if info.name else ""
    if chinese and zhuyin.complete(form.syllable):
        # only the characters the screen's font can draw: one the font lacks would show as a
        # box (or its code, 「7B71」 for 筱), which no one can read or check (the bundled subset
        # has Big5's common characters; a system Noto CJK face has them all)
        fonts = p.cache.fonts
        cands = zhuyin.offered(form.syllable, lambda c: not fonts.missing_glyphs(c))
        pages = max(1, -(-len(cands) // CANDS_PER_PAGE))
        page = min(form.cand_page, pages - 1)
        shown = cands[page * CANDS_PER_PAGE:(page + 1) * CANDS_PER_PAGE]
        if not cands:
            p.text(p.tr("zhuyin.none", syllable=form.syllable), row, size=0.045,
                   colour=C.WARN, align="left")
        w = 0.96 / (CANDS_PER_PAGE + 2)
        for i, ch in enumerate(shown):
            r = p.rect(0.02 + i * w, top, w - 0.006, 0.085)
            p.button(r, HostAction("setup.cand", ch), ch, colour=C.PANEL_HI, size=0.06)
        if pages > 1:
            x = 0.02 + CANDS_PER_PAGE * w
            p.button(p.rect(x, top, 2 * w - 0.006, 0.085), HostAction("setup.page", page + 1
                                                                 if page + 1 < pages else 0),
                     p.tr("zhuyin.more", page=page + 1, pages=pages), size=0.035)
    elif chinese and form.syllable and zhuyin.nexts(form.syllable) and form.group is None:
        # what can come next in the sound typed (only what Mandarin has, the commonest
        # first; the sound alone: its tones next): one press each
        nexts = zhuyin.nexts(form.syllable)
        pages = max(1, -(-len(nexts) // CANDS_PER_PAGE))
        page = min(form.cand_page, pages - 1)
        w = 0.96 / (CANDS_PER_PAGE + 2)
        for i, sym in enumerate(nexts[page * CANDS_PER_PAGE:(page + 1) * CANDS_PER_PAGE]):
            r = p.rect(0.02 + i * w, top, w - 0.006, 0.085)
            p.button(r, HostAction("setup.next", sym), form.syllable + sym,
                     colour=C.PANEL_HI if sym else C.PANEL, size=0.05)
        if pages > 1:
            x = 0.02 + CANDS_PER_PAGE * w
            p.button(p.rect(x, top, 2 * w - 0.006, 0.085), HostAction("setup.page", page + 1
                                                                 if page + 1 < pages else 0),
                     p.tr("zhuyin.more", page=page + 1, pages=pages), size=0.035)
    elif missing:
        p.text(p.tr("font.missing", chars=" ".join(f"U+{ord(c):04X}" for c in missing)), row,
               size=0.04, colour=C.WARN, align="left")
    elif form.keyboard == "zhuyin" and not zhuyin.available():
        p.text(p.tr("zhuyin.unavailable"), row, size=0.04, colour=C.WARN, align="left")
    elif chinese:
        p.text(p.tr("zhuyin.hint"), row, size=0.04, colour=C.TEXT_DIM, align="left")
    top += 0.095
    # Where the keys go (drawn after the roster, but "done" and "erase" are drawn first: the
    # three host buttons walk the buttons in drawn order, and after a character is picked the
    # highlight waits on "done", one *next* from "erase", the regulars and the keys).
    gap = 0.008
    keys_top = top + 0.085
    rows = (len(zhuyin.SCREEN_ROWS) if chinese else len(KEY_ROWS)) + 1
    key_h = (FOOTER_Y - 0.015 - keys_top - gap * (rows - 1)) / rows
    y = keys_top + (rows - 1) * (key_h + gap)
    p.button(p.rect(0.77, y, 0.21, key_h), HostAction("setup.done"), p.tr("key.done"),
             colour=C.ACCENT, size=0.045)
    cols = max(len(r) for r in zhuyin.SCREEN_ROWS)
    group_gap = 0.018  # the groups stand apart
    zw = (0.96 - gap * (cols - 1) - 2 * group_gap) / cols

    def zhuyin_key(ri: int, i: int) -> pygame.Rect:
        row = zhuyin.SCREEN_ROWS[ri]
        before = len({zhuyin.group_of(s) for s in row[:i + 1]}) - 1
        return p.rect(0.02 + i * (zw + gap) + before * group_gap,
                      keys_top + ri * (key_h + gap), zw, key_h)

    n_regulars = min(len(form.roster), ROSTER_SHOWN)
    if n_regulars and not form.roster_edit:
        # the regulars, one choice right after "done" (confirm opens them, then a name): a
        # regular is a few presses away, and a typed character costs one more
        frame = p.rect(0.19, top, 0.652, 0.075)
        p.button(frame.inflate(p.px(0.008), p.px(0.008)), HostAction("setup.group",
                                                                     ROSTER_GROUP), "",
                 colour=C.ACCENT if form.group == ROSTER_GROUP else C.BG_TOP,
                 focus=form.group is None)
    spelling = chinese and bool(form.syllable) and not zhuyin.complete(form.syllable)

    def can_type(sym: str) -> bool:
        """Typed now, ``sym`` still spells a syllable Mandarin has (a tone needs a sound)."""
        if sym in zhuyin.TONES and not spelling:
            return False
        return not spelling or zhuyin.can_follow(form.syllable, sym)

    def heaviest(sym: str) -> int:
        """The walk's order: the commonest first."""
        return -zhuyin.weight_now(form.syllable, sym) if chinese else 0

    if chinese:
        # the groups, right after "done": the host buttons walk them (the commonest first;
        # those with no key that can follow what is typed, skipped), *confirm* opens one and
        # its keys are walked (drawn on it: a touch lands on the key)
        walk = sorted(range(len(zhuyin.GROUPS)),
                      key=lambda g: (g == zhuyin.TONE_GROUP,
                                     sum(heaviest(k) for k in zhuyin.GROUPS[g])))
        for g in walk:
            keys = zhuyin.GROUPS[g]
            ri = next(k for k, r in enumerate(zhuyin.SCREEN_ROWS) if keys[0] in r)
            first = zhuyin.SCREEN_ROWS[ri].index(keys[0])
            frame = zhuyin_key(ri, first).union(zhuyin_key(ri, first + len(keys) - 1))
            frame = frame.inflate(p.px(0.006), p.px(0.006))
            p.button(frame, HostAction("setup.group", g), "",
                     colour=C.ACCENT if form.group == g else C.BG_TOP,
                     focus=form.group is None and any(can_type(k) for k in keys))
    # The roster: a touch names the seat; "edit" picks a regular to rename or remove, and adds
    # the typed name (saved to the config file by the app).
    p.text(p.tr("setup.roster_editing" if form.roster_edit else "setup.roster"),
           p.rect(0.02, top, 0.16, 0.075), size=0.04,
           colour=C.ACCENT if form.roster_edit else C.TEXT_DIM, align="left")
    n = min(len(form.roster), ROSTER_SHOWN)
    if n:
        w = 0.66 / n
        for i, name in enumerate(form.roster[:n]):
            picked = form.roster_edit and form.roster_pick == i
            action = (HostAction("setup.roster_pick", i) if form.roster_edit
                      else HostAction("setup.roster", i))
            p.button(p.rect(0.19 + i * w, top, w - 0.008, 0.075), action, name, size=0.04,
                     colour=C.ACCENT if picked else C.PANEL_HI,
                     focus=form.roster_edit or form.group == ROSTER_GROUP)
    elif not form.roster_edit:
        p.text(p.tr("setup.roster_empty"), p.rect(0.19, top, 0.64, 0.075), size=0.035,
               colour=C.TEXT_DIM, weight="regular", align="left")
    roster_top = top
    top = keys_top
    p.button(p.rect(0.02, y, 0.18, key_h), HostAction("erase"), p.tr("key.erase"), size=0.045)
    if chinese:
        # (drawn in the walk's order within each group: the commonest first)
        places = sorted(((ri, i) for ri, keys in enumerate(zhuyin.SCREEN_ROWS)
                         for i in range(len(keys))),
                        key=lambda at: (zhuyin.group_of(zhuyin.SCREEN_ROWS[at[0]][at[1]]),
                                        heaviest(zhuyin.SCREEN_ROWS[at[0]][at[1]])))
        for ri, i in places:
            sym = zhuyin.SCREEN_ROWS[ri][i]
            tone = sym in zhuyin.TONES
            label = p.tr("key.first_tone") if sym == zhuyin.FIRST_TONE else sym
            p.button(zhuyin_key(ri, i), HostAction("setup.zhuyin", sym), label,
                     size=0.04 if sym == zhuyin.FIRST_TONE else 0.055,
                     colour=C.PANEL if tone else C.PANEL_HI, enabled=can_type(sym),
                     focus=form.group == zhuyin.group_of(sym))
    else:
        for ri, keys_row in enumerate(KEY_ROWS):
            w = (0.96 - gap * 9) / 10
            x0 = 0.02 + (10 - len(keys_row)) * (w + gap) / 2
            for i, ch in enumerate(keys_row):
                p.button(p.rect(x0 + i * (w + gap), top + ri * (key_h + gap), w, key_h),
                         HostAction("setup.key", ch), ch, size=0.05)
        # (in 注音 the space bar is the first tone: a key of its own)
        p.button(p.rect(0.21, y, 0.36, key_h), HostAction("setup.key", " "),
                 p.tr("key.space"), size=0.045)
    if zhuyin.available():
        p.button(p.rect(0.58, y, 0.18, key_h), HostAction("setup.keyboard"),
                 p.tr("key.latin" if chinese else "key.zhuyin"), size=0.045)
    p.button(p.rect(0.86, roster_top, 0.12, 0.075), HostAction("setup.roster_edit"),
             p.tr("setup.roster_done" if form.roster_edit else "setup.roster_edit"),
             size=0.035, colour=C.ACCENT if form.roster_edit else C.PANEL)
    edits: list[tuple[HostAction, str, int | None, C.RGB, bool]] = []
    if form.roster_edit:
        typed = form.typed or "—"
        edits = [
            (HostAction("setup.roster_add"), p.tr("setup.roster_add", name=typed), None,
             C.PANEL_HI, form.can_add_regular() and len(form.roster) < ROSTER_SHOWN),
            (HostAction("setup.roster_rename"), p.tr("setup.roster_rename", name=typed), None,
             C.PANEL_HI, form.can_rename_regular()),
            (HostAction("setup.roster_remove"), p.tr("setup.roster_remove"), None, C.BAD,
             form.roster_pick is not None),
        ]
    footer(p, edits, undo=False)


def draw_setup(p: Painter, f: Frame) -> None:
    form: SetupForm = f.snap.setup if isinstance(f.snap.setup, SetupForm) else SetupForm()
    if form.focus is not None and 0 <= form.focus < len(form.players):
        draw_name_entry(p, form)
        return
    p.surface.fill(C.BG)
    title = form.title(p.lang)
    header(p, p.tr("setup.title_of", game=title) if title else p.tr("setup.title"),
           p.tr("setup.players", n=len(form.players)))
    scale = 7 / max(7, form.max_players)  # eight rows fit where seven do
    row_h, gap, top = 0.094 * scale, 0.012 * scale, BODY_TOP
    add_y = top + len(form.players) * (row_h + gap)
    if len(form.players) < form.max_players:
        # (drawn first: after start, the host buttons' next choice, not behind every row)
        p.button(p.rect(0.02, add_y, 0.30, row_h), HostAction("setup.add"),
                 p.tr("btn.add_player"), size=0.045)
    for seat, info in enumerate(form.players):
        y = top + seat * (row_h + gap)
        if form.pressed == seat:  # its seat button was just pressed: the row is lit
            p.fill(p.rect(0.01, y - gap / 2, 0.64, row_h + gap), C.ACCENT, 0.012)
        colour_box = p.rect(0.02, y, 0.12, row_h)
        bg = player_rgb(info.colour)
        p.fill(colour_box, bg, 0.012)
        p.text(p.tr(f"colour.{info.colour}"), colour_box, size=0.05, colour=text_on(bg),
               pad=0.008)
        p.buttons.append(_plain_button(colour_box, HostAction("setup.colour", seat)))
        name_box = p.rect(0.15, y, 0.30, row_h)
        p.fill(name_box, C.PANEL, 0.012)
        shown = info.name or form.display_name(seat, p.lang)
        p.text(shown, name_box, size=0.05, colour=C.TEXT if info.name else C.TEXT_DIM,
               align="left", pad=0.014)
        p.buttons.append(_plain_button(name_box, HostAction("setup.focus", seat)))
        first = form.start == seat
        p.button(p.rect(0.46, y, 0.06, row_h), HostAction("setup.start", seat),
                 p.tr("setup.start_mark") if first else "", size=0.04,
                 colour=C.ACCENT if first else C.PANEL)
        p.button(p.rect(0.53, y, 0.11, row_h), HostAction("setup.remove", seat),
                 p.tr("btn.remove"), enabled=len(form.players) > form.min_players, size=0.04)
    # Variant choice on the right.
    p.text(p.tr("setup.variant"), p.rect(0.66, top, 0.32, 0.08), size=0.05, colour=C.TEXT_DIM,
           align="left")
    for i, variant in enumerate(form.variants):
        r = p.rect(0.66, top + 0.1 + i * 0.13, 0.32, 0.11)
        chosen = form.variant == variant
        p.button(r, HostAction("setup.variant", variant), p.tr(f"variant.{variant}"),
                 colour=C.ACCENT if chosen else C.PANEL_HI, size=0.045)
    notes = [(p.tr(k, lo=form.min_players, hi=form.max_players), C.WARN)
             for k in form.problems]
    if form.pressed is not None:
        # a seat button moves 「先」: said, so that it never moves unseen
        if form.pressed < len(form.players):
            notes.insert(0, (p.tr("setup.pressed", n=form.pressed + 1,
                                  name=form.display_name(form.pressed, p.lang)), C.ACCENT))
        else:
            notes.insert(0, (p.tr("setup.pressed_empty", n=form.pressed + 1), C.WARN))
    notes.append((p.tr("setup.start_hint"), C.TEXT_DIM))
    notes.append((p.tr("setup.start_hint2"), C.TEXT_DIM))
    for i, (note, colour) in enumerate(notes[:3]):
        p.text(note, p.rect(0.66, 0.62 + i * 0.075, 0.32, 0.07), size=0.04, colour=colour,
               align="left")
    choices: list[tuple[HostAction, str, int | None, C.RGB, bool]] = []
    if form.can_go_home:
        choices.append((HostAction("home"), p.tr("btn.other_game"), None, C.PANEL_HI, True))
    choices.append((HostAction("confirm"), p.tr("btn.start"), None, C.ACCENT, form.ready))
    footer(p, choices, undo=False)


def _plain_button(r: pygame.Rect, action: HostAction) -> Any:
    from display.input import Button
    return Button((r.x, r.y, r.width, r.height), action)


def draw_buzz(p: Painter, f: Frame) -> None:
    buzz = f.snap.buzz
    assert buzz is not None
    info = f.player(buzz.winner)
    bg = player_rgb(info.colour)
    fg = text_on(bg)
    p.surface.fill(bg)
    # (in the body, not across the header's line: a banner (a camera problem, markers not
    # calibrated) goes between the two and pushes it down instead of covering it)
    p.text(p.tr("buzz.shout"), p.rect(0.05, HEADER_H, 0.9, 0.125), size=0.11, colour=fg)
    early = [seat for seat, _ in f.snap.early if seat != buzz.winner]
    if early:  # too early this race: locked out (the lamp blinks)
        names = "、".join(f.name(seat) for seat in early[:4])
        p.text(p.tr("early.locked", names=names), p.rect(0.05, 0.83, 0.9, 0.1), size=0.05,
               colour=fg)
    p.text(info.name, p.rect(0.05, 0.23, 0.9, 0.34), size=0.3, colour=fg)
    p.text(p.tr("buzz.first", name=info.name), p.rect(0.05, 0.58, 0.9, 0.1), size=0.06,
           colour=fg, weight="regular")
    if buzz.tie:
        line = p.tr("buzz.tie")
    elif buzz.margin_us is None or buzz.margin_us <= 0:
        line = p.tr("buzz.alone")  # the engine's convention: margin 0 = nobody else pressed
    else:
        line = p.tr("buzz.margin", ms=margin_ms(buzz.margin_us))
    p.text(line, p.rect(0.05, 0.69, 0.9, 0.12), size=0.09, colour=fg)
    if buzz.tie and buzz.tied:
        n = len(buzz.tied)
        label = p.rect(0.05, 0.83, 0.3, 0.12)
        p.text(p.tr("buzz.tied_with"), label, size=0.045, colour=fg, align="right", pad=0.01)
        w = 0.6 / max(n, 1)
        for i, seat in enumerate(buzz.tied):
            tied = f.player(seat)
            r = p.rect(0.37 + i * w, 0.83, w * 0.92, 0.12)
            p.fill(r.inflate(p.px(0.008), p.px(0.008)), fg, 0.014)
            p.chip(r, tied.colour, tied.name, size=0.045)


def draw_menu(p: Painter, f: Frame) -> None:
    """The host menu (:class:`display.hostmenu.MenuView`): its entries as large buttons, a
    yes/no question ("no" first), or the game's rules in both languages."""
    from display.hostmenu import MenuView

    menu = f.snap.menu
    assert isinstance(menu, MenuView)
    p.surface.fill(C.BG)
    game = menu.title(p.lang)
    header(p, p.tr("menu.title"), game, menu=False)
    if menu.page == "rules":
        zh, en = menu.rules
        for col, (lines, lang) in enumerate(((zh, "zh-TW"), (en, "en"))):
            x = 0.02 + col * 0.49
            p.text(tr_title(menu, lang), p.rect(x, BODY_TOP, 0.47, 0.07), size=0.05,
                   colour=C.ACCENT, align="left")
            n = max(1, len(lines))
            line_h = min(0.075, (FOOTER_Y - 0.03 - BODY_TOP - 0.08) / n)
            for i, line in enumerate(lines):
                p.text(line, p.rect(x, BODY_TOP + 0.08 + i * line_h, 0.47, line_h),
                       size=min(0.036, line_h * 0.62), align="left", weight="regular")
        footer(p, [(HostAction("confirm"), p.tr("menu.back"), None, C.ACCENT, True)],
               undo=False)
        return
    if menu.page == "confirm":
        p.text(p.tr(menu.question), p.rect(0.05, 0.25, 0.9, 0.2), size=0.07)
        yes = next((i for i in menu.items if i.key == "yes"), None)
        no = next((i for i in menu.items if i.key == "no"), None)
        if no is not None:
            p.button(p.rect(0.08, 0.5, 0.4, 0.2), HostAction("confirm"),
                     p.tr(no.label, **dict(no.params)), colour=C.ACCENT, size=0.06)
        if yes is not None:
            p.button(p.rect(0.52, 0.5, 0.4, 0.2), HostAction("menu.pick", "yes"),
                     p.tr(yes.label, **dict(yes.params)), colour=C.WARN, size=0.06, risky=True)
        footer(p, [], undo=False)
        return
    items = menu.items
    cols = 2
    rows = max(1, (len(items) + cols - 1) // cols)
    gap = 0.02
    h = min(0.14, (FOOTER_Y - 0.03 - BODY_TOP - gap * (rows - 1)) / rows)
    for i, item in enumerate(items):
        row, col = divmod(i, cols)
        r = p.rect(0.03 + col * 0.48, BODY_TOP + 0.01 + row * (h + gap), 0.46, h)
        action = HostAction("confirm") if i == 0 else HostAction("menu.pick", item.key)
        p.button(r, action, p.tr(item.label, **dict(item.params)),
                 colour=C.ACCENT if i == 0 else (C.WARN if item.risky else C.PANEL_HI),
                 size=0.055, risky=item.risky)
    footer(p, [], undo=False)
    if menu.note:  # the game waits: its clocks stand still (between the footer's ends)
        p.text(p.tr(menu.note), p.rect(0.03, FOOTER_Y, 0.8, FOOTER_H), size=0.04,
               colour=C.WARN, weight="regular", align="left")


def tr_title(menu: Any, lang: str) -> str:
    from display.i18n import tr

    return tr("menu.rules_of", lang, game=menu.title(lang))


def margin_ms(margin_us: int) -> str:
    """A lead in milliseconds with the digits that matter: 3.2, 0.45, 0.008."""
    ms = margin_us / 1000
    return f"{ms:.1f}" if ms >= 1 else f"{ms:.2f}" if ms >= 0.01 else f"{ms:.3f}"


FOCUS_COLOUR = (255, 214, 10)
#: the ring's dark edges, inside and outside the yellow: on a yellow (or white) tile the edge
#: is what shows (tests/display/test_display_colours.py: every colour the ring can sit on
#: contrasts at least 3:1 with the yellow or the edge)
FOCUS_EDGE = (17, 17, 17)


def focus_ring(p: Painter, rect: tuple[int, int, int, int]) -> None:
    """The one focus of the host buttons: a thick yellow ring with dark edges around the
    focused choice (seen on every seat colour, yellow and white included)."""
    x, y, w, h = rect
    width = max(3, p.h // 160)
    edge = max(2, width // 2)
    dark = width + 2 * edge  # the dark band from the button's edge out; the yellow on it
    pygame.draw.rect(p.surface, FOCUS_EDGE, (x - dark, y - dark, w + 2 * dark, h + 2 * dark),
                     dark, border_radius=10)
    band = width + edge
    pygame.draw.rect(p.surface, FOCUS_COLOUR, (x - band, y - band, w + 2 * band, h + 2 * band),
                     width, border_radius=9)


def sound_sign(p: Painter, sound: str, box: pygame.Rect) -> None:
    """A small permanent sign in the header: no sound device, or muted by the host."""
    key = "sound.silent" if sound == "silent" else "sound.muted"
    p.text(p.tr(key), box, size=0.03, colour=C.WARN, align="right", pad=0.004)


def draw_banner(p: Painter, lines: Sequence[str]) -> None:
    """The status banner for problems, over whatever screen is showing."""
    if not lines:
        return
    h = BANNER_LINE_H
    r = pygame.Rect(0, round(HEADER_H * p.h), p.w, round(h * len(lines) * p.h))
    p.fill(r, C.BAD)
    for i, line in enumerate(lines):
        y = round((HEADER_H + i * h) * p.h)
        # (a hint naming the box's buttons draws them: ▶ ● ◀)
        p.hint(line, pygame.Rect(round(0.02 * p.w), y, round(0.96 * p.w), round(h * p.h)),
               size=0.05, colour=text_on(C.BAD), weight="bold", align="center")


def _need(f: Frame) -> Any:
    assert f.view is not None, "this screen needs a game"
    return f.view


# --- the question about a card the camera could not name (issue 37) ----------------------

def _ask_surface(image: Any) -> pygame.Surface | None:
    """A picture (RGB or grey array) as a surface (made when the question's layer is drawn:
    once per question, not per frame)."""
    try:
        arr = np.asarray(image)
        if arr.ndim == 2:
            arr = np.stack([arr] * 3, axis=-1)
        return pygame.surfarray.make_surface(
            np.ascontiguousarray(arr[:, :, :3].swapaxes(0, 1)).astype(np.uint8))
    except (ValueError, TypeError, IndexError):
        return None


def _ask_picture(p: Painter, surface: pygame.Surface | None, box: pygame.Rect, label: str) -> None:
    p.fill(box, C.PANEL, 0.012)
    inner = box.inflate(-p.px(0.012), -p.px(0.012))
    if surface is None or surface.get_width() < 1 or surface.get_height() < 1:
        p.text(label, inner, size=0.06, pad=0.01)
        return
    scale = min(inner.width / surface.get_width(), inner.height / surface.get_height())
    size = (max(1, int(surface.get_width() * scale)), max(1, int(surface.get_height() * scale)))
    scaled = pygame.transform.smoothscale(surface, size)
    p.surface.blit(scaled, scaled.get_rect(center=inner.center))


def _ask_focused(ask: AskView, focus: int | None) -> tuple[str, int | None]:
    """What the host buttons' focus is on in the question (as ``display.input.focus_order``
    walks its buttons: the page's candidates, "none of these", "later", then the menu):
    ("pick", its index on the page) / ("none" | "later" | "menu", None)."""
    n = len(ask.candidates)
    order: list[tuple[str, int | None]] = [("pick", i) for i in range(n)]
    order += [("none", None), ("later", None), ("menu", None)]
    return order[(focus or 0) % len(order)]


def draw_ask(p: Painter, f: Any) -> None:
    """The question: what *confirm* will do, in the screen's largest text (the focused
    answer); the card seen (left), its candidates on this page (right, the best first);
    "more cards", "none of these" and "later" below; the footer's language switch."""
    ask = f.snap.ask
    assert isinstance(ask, AskView)
    p.surface.fill(C.BG)
    game = ask.titles[1] if p.lang == "en" else ask.titles[0]
    header(p, p.tr("ask.title"), game)
    kind, index = _ask_focused(ask, f.snap.focus)
    # The focused answer, the most readable thing on the screen (issue 37): what confirm does.
    band = p.rect(0.02, BODY_TOP, 0.96, 0.13)
    p.fill(band, C.PANEL, 0.012)
    hint = p.rect(0.03, BODY_TOP, 0.22, 0.13)
    p.text(p.tr("ask.confirm"), hint, size=0.04, colour=C.TEXT_DIM, align="left")
    if kind == "pick" and index is not None:
        card = ask.candidates[index]
        answer = card.name(p.lang) or card.card_id
    else:
        answer = p.tr({"none": "ask.none", "later": "ask.later",
                       "menu": "btn.menu"}[kind], n=ask.waiting)
    p.text(answer, p.rect(0.25, BODY_TOP, 0.72, 0.13), size=0.095, colour=C.ACCENT,
           align="left", pad=0.01)
    top = BODY_TOP + 0.14
    p.text(p.tr("ask.question"), p.rect(0.02, top, 0.96, 0.05), size=0.035,
           colour=C.TEXT_DIM)
    body_top, body_bottom = top + 0.06, FOOTER_Y - 0.02
    # the card as the camera saw it
    seen = p.rect(0.02, body_top + 0.045, 0.22, body_bottom - body_top - 0.045)
    p.text(p.tr("ask.seen"), p.rect(0.02, body_top, 0.22, 0.045), size=0.032,
           colour=C.TEXT_DIM)
    _ask_picture(p, _ask_surface(ask.crop) if ask.crop is not None else None, seen, "?")
    left, right, gap = 0.27, 0.98, 0.015
    w = (right - left - gap * 2) / 3  # (a page of 3 wide, whatever it holds)
    name_h = 0.11
    for i, card in enumerate(ask.candidates):
        x = left + i * (w + gap)
        pic = p.rect(x, body_top, w, body_bottom - body_top - name_h - 0.01)
        _ask_picture(p, _ask_surface(card.image)
                     if card.image is not None else None, pic, card.name(p.lang))
        label = card.name(p.lang) or card.card_id
        focused = kind == "pick" and index == i
        p.button(p.rect(x, body_bottom - name_h, w, name_h), HostAction(ASK_PICK, card.card_id),
                 label, colour=C.ACCENT if focused else C.PANEL_HI, size=0.042)
    y, h = FOOTER_Y, FOOTER_H
    x = 0.01
    if ask.pages > 1:
        more = "ask.more" if ask.page == 0 else "ask.best"
        p.button(p.rect(x, y, 0.27, h), HostAction(ASK_MORE), p.tr(more), size=0.038,
                 focus=False)
        x += 0.28
    rest = 0.85 - x
    p.button(p.rect(x, y, rest * 0.56, h), HostAction(ASK_NONE), p.tr("ask.none"),
             size=0.038, colour=C.ACCENT if kind == "none" else C.PANEL_HI)
    p.button(p.rect(x + rest * 0.57, y, rest * 0.43, h), HostAction(ASK_LATER),
             p.tr("ask.later", n=ask.waiting), size=0.038,
             colour=C.ACCENT if kind == "later" else C.PANEL_HI)
    p.button(p.rect(0.86, y, 0.13, h), HostAction("lang"), p.tr("btn.lang"), size=0.04)


Draw = Callable[[Painter, Frame], None]

#: The screens every game shares: screen name -> (static part, moving part or None).
SHARED_SCREENS: dict[str, tuple[Draw, Draw | None]] = {
    "home": (draw_home, None),
    "title": (draw_title, None),
    "setup": (draw_setup, None),
    "buzz": (draw_buzz, None),
    "menu": (draw_menu, None),
    "ask": (draw_ask, None),
}

#: screen name -> (static part, moving part or None). The renderer caches the static part as a
#: layer per snapshot and redraws only the moving part (timers, animated scores) on top.
