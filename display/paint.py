"""Drawing helpers shared by the screens: relative layout, fitted and cached text, buttons.

Screens lay out in fractions of the surface (``p.rect(0.05, 0.1, 0.4, 0.2)``) and size text in
fractions of the height, so one layout serves 1920×1080 across a table and the 800×480 Pi
touchscreen. :meth:`Painter.text` shrinks text until it fits its box and records the drawn
rectangle with its box (:attr:`Painter.texts`), so tests can prove nothing is clipped.
Rendered text surfaces are cached (:class:`TextCache`): a frame mostly blits.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

import pygame
import pygame.freetype

from display.colours import PANEL, PANEL_HI, RGB, TEXT, TEXT_DIM, player_rgb, text_on
from display.fonts import FontBook, Weight
from display.i18n import tr
from display.input import Button, HostAction

Align = Literal["left", "center", "right"]


@dataclass(frozen=True)
class TextRecord:
    """A piece of text drawn: its ink rectangle and the box it had to fit in."""

    text: str
    rect: pygame.Rect
    box: pygame.Rect
    px: int = 0  # the fitted font size in pixels (0: not recorded)


class TextCache:
    """Rendered text surfaces and fitted sizes, least recently used out first."""

    def __init__(self, fonts: FontBook, capacity: int = 768) -> None:
        self.fonts = fonts
        self.capacity = capacity
        self._surfaces: OrderedDict[tuple[str, Weight, int, RGB], pygame.Surface] = OrderedDict()
        self._fits: dict[tuple[str, Weight, int, int, int], int] = {}

    def surface(self, text: str, weight: Weight, size: int, colour: RGB) -> pygame.Surface:
        key = (text, weight, size, colour)
        surf = self._surfaces.get(key)
        if surf is not None:
            self._surfaces.move_to_end(key)
            return surf
        font = self.fonts.font(weight, size)
        surf, _ = font.render(text, colour)
        self._surfaces[key] = surf
        if len(self._surfaces) > self.capacity:
            self._surfaces.popitem(last=False)
        return surf

    def fit(self, text: str, weight: Weight, max_size: int, w: int, h: int) -> int:
        """The largest size ≤ ``max_size`` at which ``text`` fits in ``w``×``h``."""
        key = (text, weight, max_size, w, h)
        size = self._fits.get(key)
        if size is not None:
            return size
        size = max(4, min(max_size, h))
        while size > 4:
            rect = self.fonts.font(weight, size).get_rect(text)
            if rect.width <= w and rect.height <= h:
                break
            shrink = min(w / max(rect.width, 1), h / max(rect.height, 1), 0.95)
            size = max(4, min(size - 1, int(size * shrink)))
        if len(self._fits) > 4 * self.capacity:
            self._fits.clear()
        self._fits[key] = size
        return size


#: The marks a hint's text uses for the box's buttons (:meth:`Painter.hint` draws each as
#: the button): the three host buttons, and a seat's own button ("◎").
HOST_MARKS = frozenset("▶●◀◎")
#: The keys that stand in for them on a keyboard (``--keyboard``)
KEY_NAMES = {"▶": "Space", "●": "Enter", "◀": "Backspace"}
#: the host buttons' caps as hints draw them (hardware.md names no colour for them: a light
#: grey, apart from the seats' colours)
HOST_CAP: RGB = (214, 218, 226)


class Painter:
    """One frame's drawing context: the surface, its units, the language, what was drawn."""

    def __init__(self, surface: pygame.Surface, cache: TextCache, lang: str,
                 phrases: Mapping[str, str] | None = None) -> None:
        self.surface = surface
        self.cache = cache
        self.lang = lang
        #: the game's own words for the shared screens: shared key -> the game's key
        #: (:attr:`display.games.GameDisplay.phrases`)
        self.phrases: Mapping[str, str] = phrases or {}
        #: the box's sound ("", "silent", "muted"): the header shows a small sign
        self.sound = ""
        #: keyboard letters on the buttons (the box runs with a keyboard: ``--keyboard``);
        #: a box with only its own buttons shows none
        self.keycaps = False
        self.w, self.h = surface.get_size()
        self.texts: list[TextRecord] = []
        self.buttons: list[Button] = []
        self.shapes: list[tuple[str, pygame.Rect]] = []  # player shapes drawn (kind, bounds)
        #: filled rectangles, each with how many texts were drawn before it: a text drawn
        #: before a fill that covers it is hidden (a dialog over the screen), for the layout
        #: check (display/layout.py)
        self.fills: list[tuple[int, pygame.Rect]] = []
        self.badges: list[tuple[int, pygame.Rect]] = []  # the same, for badges
        self.shapes_at: list[int] = []  # for each of ``shapes``: how many texts came before
        # The body band: fractions y >= body_from are laid out in [body_to, 1] instead, so a
        # banner between the header and the body never covers what a screen draws.
        self.body_from = 1.0
        self.body_to = 1.0

    def reserve(self, body_from: float, body_to: float) -> None:
        """Lay the body (y >= ``body_from``) out below ``body_to``, leaving a band free."""
        self.body_from, self.body_to = body_from, max(body_from, min(0.9, body_to))

    def _y(self, y: float) -> float:
        if y < self.body_from or self.body_to <= self.body_from:
            return y
        k = (1 - self.body_to) / (1 - self.body_from)
        return self.body_to + (y - self.body_from) * k

    # --- units ----------------------------------------------------------------------------
    def px(self, frac: float) -> int:
        """A length in fractions of the height (text sizes, margins, radii)."""
        return max(1, round(frac * self.h))

    def rect(self, x: float, y: float, w: float, h: float) -> pygame.Rect:
        """A rectangle in fractions of the width (x, w) and height (y, h)."""
        top, bottom = self._y(y), self._y(y + h) if y >= self.body_from else y + h
        px_top = round(top * self.h)
        return pygame.Rect(round(x * self.w), px_top, round(w * self.w),
                           round(bottom * self.h) - px_top)

    def point(self, x: float, y: float) -> tuple[int, int]:
        """A point in fractions of the width and height (in the body band, like ``rect``)."""
        return round(x * self.w), round(self._y(y) * self.h)

    def tr(self, key: str, **params: object) -> str:
        return tr(self.phrases.get(key, key), self.lang, **params)

    # --- drawing --------------------------------------------------------------------------
    def fill(self, rect: pygame.Rect, colour: RGB, radius: float = 0.0, *,
             badge: bool = False) -> None:
        """A filled (rounded) rectangle. ``badge``: a small mark meant to sit on the corner of
        what is under it (the layout check allows it over part of a text: display/layout.py)."""
        pygame.draw.rect(self.surface, colour, rect, border_radius=self.px(radius) if radius else 0)
        (self.badges if badge else self.fills).append((len(self.texts), pygame.Rect(rect)))

    def veil(self, alpha: int = 170) -> None:
        """Dim everything drawn so far (under a dialog): what is under it is not to be read,
        and the layout check counts it as covered whole."""
        shade = pygame.Surface((self.w, self.h), pygame.SRCALPHA)
        shade.fill((0, 0, 0, alpha))
        self.surface.blit(shade, (0, 0))
        self.fills.append((len(self.texts), pygame.Rect(0, 0, self.w, self.h)))

    def outline(self, rect: pygame.Rect, colour: RGB, width: float, radius: float = 0.0) -> None:
        pygame.draw.rect(
            self.surface, colour, rect, max(1, self.px(width)),
            border_radius=self.px(radius) if radius else 0,
        )

    def text(
        self,
        text: str,
        box: pygame.Rect,
        *,
        size: float = 0.06,
        colour: RGB = TEXT,
        weight: Weight = "bold",
        align: Align = "center",
        pad: float = 0.0,
    ) -> pygame.Rect:
        """Draw ``text`` fitted into ``box`` (at most ``size`` × height tall); returns its rect."""
        inner = box.inflate(-2 * self.px(pad), -2 * self.px(pad)) if pad else box
        if not text or inner.width <= 0 or inner.height <= 0:
            return pygame.Rect(inner.x, inner.y, 0, 0)
        fitted = self.cache.fit(text, weight, self.px(size), inner.width, inner.height)
        surf = self.cache.surface(text, weight, fitted, colour)
        rect = surf.get_rect()
        rect.centery = inner.centery
        if align == "left":
            rect.left = inner.left
        elif align == "right":
            rect.right = inner.right
        else:
            rect.centerx = inner.centerx
        self.surface.blit(surf, rect)
        self.texts.append(TextRecord(text, rect, box, fitted))
        return rect

    def hint(
        self,
        text: str,
        box: pygame.Rect,
        *,
        size: float = 0.04,
        colour: RGB = TEXT,
        weight: Weight = "regular",
        align: Align = "left",
        seat: str | None = None,
    ) -> pygame.Rect:
        """A line of ``text`` whose marks of the box's buttons (:data:`HOST_MARKS`: ▶ next,
        ● confirm, ◀ back; ◎ a seat's button, in the colour ``seat``) are drawn as the
        buttons themselves: a round cap with its sign. With a keyboard (``keycaps``) each
        cap is followed by the key that stands in for it."""
        if not any(m in text for m in HOST_MARKS):
            return self.text(text, box, size=size, colour=colour, weight=weight, align=align)
        parts: list[str] = []
        for ch in text:
            if ch in HOST_MARKS or not parts or parts[-1] in HOST_MARKS:
                parts.append(ch)
            else:
                parts[-1] += ch
        caps = sum(p in HOST_MARKS for p in parts)
        keys = [KEY_NAMES.get(p, "") if self.keycaps else "" for p in parts]
        plain = "".join(p for p in parts if p not in HOST_MARKS) + "".join(keys)
        # the caps are as wide as one character and a half each
        fitted = self.cache.fit(plain + "口" * (caps * 3 // 2 + 1), weight, self.px(size),
                                box.width, box.height)
        cap = max(4, round(fitted * 1.15))
        surfs = [None if p in HOST_MARKS else self.cache.surface(p, weight, fitted, colour)
                 for p in parts]
        key_surfs = [self.cache.surface(k, weight, max(6, fitted * 3 // 4), colour) if k
                     else None for k in keys]
        gap = max(2, cap // 4)
        width = sum((cap + gap if s is None else s.get_width())
                    + (k.get_width() + gap if k is not None else 0)
                    for s, k in zip(surfs, key_surfs, strict=True))
        x = (box.left if align == "left" else box.right - width if align == "right"
             else box.centerx - width // 2)
        top = box.centery
        for part, surf, key in zip(parts, surfs, key_surfs, strict=True):
            if surf is None:
                self.host_cap(part, pygame.Rect(x, top - cap // 2, cap, cap), seat)
                x += cap + gap
            else:
                self.surface.blit(surf, surf.get_rect(left=x, centery=top))
                x += surf.get_width()
            if key is not None:
                self.surface.blit(key, key.get_rect(left=x, centery=top))
                x += key.get_width() + gap
        rect = pygame.Rect(x - width, top - max(cap, fitted) // 2, width, max(cap, fitted))
        self.texts.append(TextRecord(text, rect, box, fitted))
        return rect

    def host_cap(self, mark: str, rect: pygame.Rect, seat: str | None = None) -> None:
        """One of the box's buttons as a round cap (``mark``: one of :data:`HOST_MARKS`):
        the three host buttons light grey with their sign (▶ a triangle pointing on, ◀ one
        pointing back, ● a dot), a seat's button in the seat's colour."""
        centre = rect.center
        r = min(rect.width, rect.height) / 2
        face = player_rgb(seat) if mark == "◎" and seat else HOST_CAP
        pygame.draw.circle(self.surface, face, centre, r)
        pygame.draw.circle(self.surface, PANEL, centre, r, max(1, round(r / 6)))
        sign = text_on(face)
        cx, cy = centre
        k = r * 0.5
        if mark == "▶":
            pts = [(cx - k * 0.7, cy - k), (cx - k * 0.7, cy + k), (cx + k, cy)]
            pygame.draw.polygon(self.surface, sign, pts)
        elif mark == "◀":
            pts = [(cx + k * 0.7, cy - k), (cx + k * 0.7, cy + k), (cx - k, cy)]
            pygame.draw.polygon(self.surface, sign, pts)
        elif mark == "●":
            pygame.draw.circle(self.surface, sign, centre, k * 0.8)

    def button(
        self,
        rect: pygame.Rect,
        action: HostAction,
        label: str,
        *,
        enabled: bool = True,
        key: int | None = None,
        colour: RGB = PANEL_HI,
        size: float = 0.05,
        risky: bool = False,
        focus: bool = True,
        waiting: bool = False,
        why: str = "",
        walk: bool = False,
        icon: int = 0,
    ) -> Button:
        """A touch button; its shortcut key, if any, is shown in its corner. ``waiting``: it
        looks disabled (it cannot act yet; the screen says why next to it: ``why``) but still
        takes a press, which says why again; the focus starts on a choice that can act."""
        bg = colour if enabled and not waiting else PANEL
        fg = text_on(bg) if enabled and not waiting else TEXT_DIM
        self.fill(rect, bg, 0.015)
        if key is not None and self.keycaps:
            name = pygame.key.name(key).upper()
            hint = pygame.Rect(rect.x, rect.y, max(rect.width // 6, self.px(0.04)), rect.height)
            self.text(name, hint.inflate(-self.px(0.01), -rect.height // 2), size=0.03,
                      colour=fg, weight="regular")
            label_box = pygame.Rect(hint.right, rect.y, rect.right - hint.right, rect.height)
        else:
            label_box = rect
        if icon:  # a mark drawn at the button's right end (a seat's colour and shape)
            label_box = pygame.Rect(label_box.x, label_box.y, label_box.width - icon,
                                    label_box.height)
        self.text(label, label_box, size=size, colour=fg, pad=0.012)
        button = Button((rect.x, rect.y, rect.width, rect.height), action, label, enabled, key,
                        risky=risky, focus=focus, waiting=waiting, why=why if waiting else "",
                        walk=walk)
        self.buttons.append(button)
        return button

    def shape(self, kind: str, box: pygame.Rect, colour: RGB) -> None:
        """A player's shape (``colours.PLAYER_SHAPES``) centred in ``box``."""
        r = min(box.width, box.height) / 2
        cx, cy = box.center
        if r < 2:
            return

        def ring(n: int, rad: float, phase: float = -math.pi / 2) -> list[tuple[float, float]]:
            return [(cx + rad * math.cos(phase + 2 * math.pi * i / n),
                     cy + rad * math.sin(phase + 2 * math.pi * i / n)) for i in range(n)]

        if kind == "circle":
            pygame.draw.circle(self.surface, colour, (cx, cy), round(r * 0.9))
        elif kind == "square":
            side = round(r * 1.6)
            pygame.draw.rect(self.surface, colour, pygame.Rect(0, 0, side, side).move(
                cx - side // 2, cy - side // 2))
        elif kind == "triangle":
            pygame.draw.polygon(self.surface, colour, ring(3, r))
        elif kind == "diamond":
            pygame.draw.polygon(self.surface, colour, ring(4, r))
        elif kind == "star":
            outer, inner = ring(5, r), ring(5, r * 0.42, -math.pi / 2 + math.pi / 5)
            pygame.draw.polygon(self.surface, colour,
                                [pt for pair in zip(outer, inner, strict=True) for pt in pair])
        elif kind == "cross":
            t = max(2, round(r * 0.55))
            pygame.draw.rect(self.surface, colour, pygame.Rect(cx - t // 2, round(cy - r), t,
                                                               round(2 * r)))
            pygame.draw.rect(self.surface, colour, pygame.Rect(round(cx - r), cy - t // 2,
                                                               round(2 * r), t))
        elif kind == "pentagon":
            pygame.draw.polygon(self.surface, colour, ring(5, r))
        elif kind == "ring":
            pygame.draw.circle(self.surface, colour, (cx, cy), round(r * 0.9),
                               max(2, round(r * 0.3)))
        else:
            pygame.draw.polygon(self.surface, colour, ring(6, r, 0.0))
        self.shapes.append((kind, pygame.Rect(round(cx - r), round(cy - r), round(2 * r),
                                              round(2 * r))))
        self.shapes_at.append(len(self.texts))

    def fits_at(self, text: str, box: pygame.Rect, size: float, weight: Weight = "bold",
                pad: float = 0.0) -> int:
        """The pixel size ``text`` would be drawn at in ``box``."""
        inner = box.inflate(-2 * self.px(pad), -2 * self.px(pad)) if pad else box
        if inner.width <= 0 or inner.height <= 0:
            return 0
        return self.cache.fit(text, weight, self.px(size), inner.width, inner.height)

    def chip(self, rect: pygame.Rect, colour: str, label: str, *, size: float = 0.05,
             radius: float = 0.012, min_size: float = 0.0) -> None:
        """A player-coloured box with a label in the readable text colour. If the label would
        shrink below ``min_size`` (× height), only its first character is shown."""
        bg = player_rgb(colour)
        self.fill(rect, bg, radius)
        if min_size and label and self.fits_at(label, rect, size, pad=0.008) < self.px(min_size):
            label = label[0].upper()
        self.text(label, rect, size=size, colour=text_on(bg), pad=0.008)

    def arc_timer(self, center: tuple[int, int], radius: int, frac: float, colour: RGB,
                  track: RGB) -> None:
        """A ring that drains clockwise from 12 o'clock as ``frac`` goes 1 → 0."""
        width = max(2, radius // 5)
        pygame.draw.circle(self.surface, track, center, radius, width)
        frac = min(1.0, max(0.0, frac))
        if frac <= 0:
            return
        if frac >= 1:
            pygame.draw.circle(self.surface, colour, center, radius, width)
            return
        # A filled polygon for the remaining sector of the ring: smooth and cheap.
        steps = max(8, int(90 * frac))
        start = -math.pi / 2
        end = start + 2 * math.pi * frac
        outer = [
            (center[0] + radius * math.cos(start + (end - start) * i / steps),
             center[1] + radius * math.sin(start + (end - start) * i / steps))
            for i in range(steps + 1)
        ]
        r2 = radius - width
        inner = [
            (center[0] + r2 * math.cos(start + (end - start) * i / steps),
             center[1] + r2 * math.sin(start + (end - start) * i / steps))
            for i in range(steps, -1, -1)
        ]
        pygame.draw.polygon(self.surface, colour, outer + inner)
