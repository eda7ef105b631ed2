"""The renderer: draws a :class:`~display.model.Snapshot` only when something visible changed.

The app's loop calls :meth:`Renderer.render` every tick. It compares the snapshot (which ignores
``now_ms``) and a small time key (the running timer's frame, the score animation's frame, whether
the buzz screen is still up) with the last frame's; when both are equal it returns at once
without touching a pixel, so an idle scoreboard costs next to nothing. Animations are functions
of ``now_ms`` (never of frame counts), capped at ``fps`` frames per second.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pygame

from display.fonts import FontBook
from display.games import GameDisplay
from display.i18n import STRINGS, tr
from display.input import REST, Button, InputEvent, focus_order, hit_test, translate
from display.model import CardView, Snapshot
from display.paint import Painter, TextCache, TextRecord
from display.rotation import check_rotation, logical_size, to_logical, to_panel
from display.screens import (
    BANNER_LINE_H,
    HEADER_H,
    SHARED_SCREENS,
    Frame,
    draw_banner,
    focus_ring,
)
from display.setup import SetupForm
from display.tablesetup.hub import draw_area

#: the set-up area's screen (issue 28): the hub, or the step shown (``Snapshot.tablesetup``)
AREA_SCREENS: dict[str, tuple[Any, Any]] = {"tablesetup": (draw_area, None)}

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RenderResult:
    """What :meth:`Renderer.render` did: ``drawn`` (also the truth value), the screen shown,
    and why it drew (``"changed"``, ``"animating"``) or not (``"unchanged"``)."""

    drawn: bool
    screen: str
    reason: str

    def __bool__(self) -> bool:
        return self.drawn


class Renderer:
    """Draws snapshots onto ``surface`` (the display surface, or any surface headless).

    ``present``: call ``pygame.display.flip()`` after drawing (for the real display).
    ``game``: the display part of the game being played (:class:`display.games.GameDisplay`;
    None: none yet, only the shared screens: home, title, setup); set :attr:`game` when the
    game changes. ``adapter`` overrides the game's reading of its state into a view.
    """

    def __init__(
        self,
        surface: pygame.Surface,
        *,
        fonts: FontBook | None = None,
        present: bool = False,
        fps: int = 30,
        buzz_ms: int = 2500,
        score_anim_ms: int = 1200,
        delta_hold_ms: int = 2500,
        score_show_ms: int = 4000,
        game: GameDisplay | None = None,
        adapter: Callable[[Any], Any] | None = None,
        strict: bool = False,
        rotate: int = 0,
    ) -> None:
        #: the panel's surface (the display, or a headless one); the screens are drawn on
        #: :attr:`surface`, which is the panel's unless it is mounted turned (``rotate``:
        #: :mod:`display.rotation`), then an upright off-screen picture turned on each flip
        self.panel = surface
        self.rotate = check_rotation(rotate, "rotate")
        if self.rotate:
            surface = pygame.Surface(logical_size(surface.get_size(), self.rotate))
        self.surface = surface
        self.fonts = fonts or FontBook()
        self.cache = TextCache(self.fonts)
        self.present = present
        self.frame_ms = max(1, 1000 // max(1, fps))
        self.buzz_ms = buzz_ms
        self.score_anim_ms = score_anim_ms
        self.delta_hold_ms = delta_hold_ms
        self.score_show_ms = score_show_ms
        self._game: GameDisplay | None = None
        self._screens: dict[str, Any] = {**SHARED_SCREENS, **AREA_SCREENS}
        self._adapter_override = adapter
        self.adapter: Callable[[Any], Any] = adapter or (lambda state: None)
        self.game = game
        self.strict = strict  # re-raise drawing errors (tests) instead of logging them
        self.buttons: tuple[Button, ...] = ()
        #: the button the host buttons' focus is on (None: no focus drawn)
        self.focused: Button | None = None
        self.texts: tuple[TextRecord, ...] = ()
        self.shapes: tuple[tuple[str, pygame.Rect], ...] = ()  # player shapes drawn
        #: the frame's filled rectangles, each after how many of :attr:`texts` (layout check)
        self.fills: tuple[tuple[int, pygame.Rect], ...] = ()
        self._base_fills: list[tuple[int, pygame.Rect]] = []
        self.badges: tuple[tuple[int, pygame.Rect], ...] = ()
        self._base_badges: list[tuple[int, pygame.Rect]] = []
        #: the player shapes drawn, each with how many of :attr:`texts` came before it
        self.marks: tuple[tuple[int, pygame.Rect], ...] = ()
        self._base_marks: list[tuple[int, pygame.Rect]] = []
        self._base_shapes: list[tuple[str, pygame.Rect]] = []
        #: keyboard letters shown on the buttons (a box run with ``--keyboard``)
        self.keycaps = False
        self.banner_rect: pygame.Rect | None = None  # the red banner's band, if one is shown
        self.banner_texts: tuple[TextRecord, ...] = ()  # the banner's own lines
        self.screen = ""
        self.frames = 0
        self._key: Hashable = None
        self._state: Any = object()
        self._view: Any = None
        self._scores_from: tuple[int, ...] = ()
        self._scores_to: tuple[int, ...] = ()
        self._scores_t0 = 0
        #: card id -> its image as a surface (the last card and a held one: a few at most)
        self._card_surfaces: dict[str, pygame.Surface | None] = {}
        self._base: pygame.Surface | None = None
        self._rounds: int | None = None  # rounds scored in the last view seen
        self._scored_at: int | None = None  # when the last round's scores came in
        self._round_from: tuple[int, ...] = ()
        self._round_to: tuple[int, ...] = ()
        self._base_key: Hashable = None
        self._base_texts: list[TextRecord] = []
        self._base_buttons: list[Button] = []

    # --- public ---------------------------------------------------------------------------
    @property
    def game(self) -> GameDisplay | None:
        """The display part of the game being played (None: none yet)."""
        return self._game

    @game.setter
    def game(self, game: GameDisplay | None) -> None:
        if game is self._game:
            return
        self._game = game
        self._screens = {**SHARED_SCREENS, **AREA_SCREENS,
                         **(game.screens if game is not None else {})}
        self.adapter = self._adapter_override or (game.view if game is not None
                                                  else (lambda state: None))
        self._state = object()  # read the next state afresh
        self.invalidate(layers=True)

    @property
    def text_focus(self) -> bool:
        """True while the setup screen's name field takes typing (pass to ``translate``)."""
        return self.screen == "setup" and bool(getattr(self._setup, "focus", None) is not None)

    def hit_test(self, pos: tuple[float, float]) -> Any:
        """The host action of the button at ``pos`` on the last frame drawn, or None."""
        return hit_test(self.buttons, pos)

    def translate(self, event: pygame.event.Event) -> InputEvent | None:
        """:func:`display.input.translate` with this frame's buttons, focus and size; on a
        turned panel a touch or a click is first taken back to the upright picture."""
        size = self.surface.get_size()
        if self.rotate and event.type in (pygame.MOUSEBUTTONDOWN, pygame.FINGERDOWN):
            panel = self.panel.get_size()
            if event.type == pygame.MOUSEBUTTONDOWN:
                x, y = to_logical(event.pos, panel, self.rotate)
                event = pygame.event.Event(event.type, {**event.dict, "pos": (int(x), int(y))})
            else:
                x, y = to_logical((event.x * panel[0], event.y * panel[1]), panel, self.rotate)
                event = pygame.event.Event(event.type, {**event.dict, "x": x / size[0],
                                                        "y": y / size[1]})
        return translate(event, self.buttons, text_focus=self.text_focus, size=size)

    def flip(self) -> None:
        """Show the frame drawn: turned onto the panel first if it is mounted turned."""
        if self.rotate:
            self.panel.blit(to_panel(self.surface, self.rotate), (0, 0))
        pygame.display.flip()

    def invalidate(self, *, layers: bool = False) -> None:
        """Force the next :meth:`render` to draw (e.g. after the window was exposed);
        ``layers``: also re-render the cached static layer."""
        self._key = None
        if layers:
            self._base_key = None

    def save_png(self, path: str | Path, *, panel: bool = False) -> Path:
        """Write the current frame to a PNG file (headless runs, bug reports); ``panel``: as
        the panel shows it (turned, when it is mounted turned)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        picture = to_panel(self.surface, self.rotate) if panel else self.surface
        pygame.image.save(picture, str(path))
        return path

    def render(self, snap: Snapshot) -> RenderResult:
        """Draw ``snap`` if anything visible changed since the last frame."""
        now = snap.now_ms
        if snap.game is not None:
            self.game = snap.game
        self._setup = snap.setup
        view = self._view_of(snap.state)
        self._track_scores(view, now)
        self._track_rounds(view, now)
        screen = self.screen_for(snap, view)
        key = (snap, screen, self._time_key(screen, view, snap, now))
        if key == self._key:
            return RenderResult(False, screen, "unchanged")
        animating = self._key is not None and self._key[:2] == key[:2]  # type: ignore[index]
        self._key = key
        self._draw(snap, view, screen, now)
        return RenderResult(True, screen, "animating" if animating else "changed")

    def screen_for(self, snap: Snapshot, view: Any) -> str:
        """The name of the screen ``snap`` shows (a shared screen of
        :data:`display.screens.SHARED_SCREENS`, or one of the game's)."""
        if snap.menu is not None:
            return "menu"
        if snap.ask is not None:
            return "ask"
        if snap.tablesetup is not None:
            return "tablesetup"
        buzz = snap.buzz
        if buzz is not None and buzz.at_ms <= snap.now_ms < buzz.at_ms + self.buzz_ms:
            return "buzz"
        game = self._game
        if (view is not None and game is not None and game.scoring_screen
                and self._scored_at is not None
                and self._scored_at <= snap.now_ms < self._scored_at + self.score_show_ms):
            return game.scoring_screen
        if view is None or game is None:
            if snap.home is not None:
                return "home"
            return "setup" if isinstance(snap.setup, SetupForm) else "title"
        return game.screen_of(view)

    # --- internals ------------------------------------------------------------------------
    _setup: Any = None

    def _view_of(self, state: Any) -> Any:
        if state is self._state:
            return self._view
        self._state = state
        game = self._game
        if state is None:
            self._view = None
        elif game is not None and game.view_type is not None and isinstance(state,
                                                                             game.view_type):
            self._view = state
        else:
            try:
                self._view = self.adapter(state)
            except Exception:  # a drawing problem must never stop the kiosk loop
                if self.strict:
                    raise
                _log.exception("display: cannot read the engine state %r", type(state))
                self._view = None
        return self._view

    def _track_scores(self, view: Any, now: int) -> None:
        scores = view.scores if view is not None else ()
        if scores == self._scores_to:
            return
        if len(scores) == len(self._scores_to) and self._scores_to:
            self._scores_from = tuple(round(s) for s in self._shown_scores(now))
        else:
            self._scores_from = scores
        self._scores_to = scores
        self._scores_t0 = now

    def _track_rounds(self, view: Any, now: int) -> None:
        """A round was scored (the history grew): show the scoring screen for a while."""
        if view is None:
            self._rounds, self._scored_at = None, None
            return
        rounds = len(view.history)
        if self._rounds is not None and rounds < self._rounds:
            self._scored_at = None  # undone
        elif self._rounds is not None and rounds > self._rounds and not view.over:
            self._scored_at = now
            self._round_to = tuple(view.history[-1])
            self._round_from = (tuple(view.history[-2]) if rounds >= 2
                                else tuple(0 for _ in self._round_to))
        self._rounds = rounds

    def _scoring_overlay(self, now: int) -> bool:
        return self._scored_at is not None and now < self._scored_at + self.score_show_ms

    def _anim_t(self, now: int) -> float:
        if self.score_anim_ms <= 0:
            return 1.0
        return min(1.0, max(0.0, (now - self._scores_t0) / self.score_anim_ms))

    def _shown_scores(self, now: int) -> tuple[float, ...]:
        t = self._anim_t(now)
        ease = 1 - (1 - t) ** 3
        return tuple(a + (b - a) * ease for a, b in zip(self._scores_from, self._scores_to,
                                                         strict=True))

    def _deltas(self, now: int) -> tuple[int, ...]:
        if now - self._scores_t0 >= self.score_anim_ms + self.delta_hold_ms:
            return ()
        if self._scores_from == self._scores_to:
            return ()
        return tuple(b - a for a, b in zip(self._scores_from, self._scores_to, strict=True))

    def _time_key(self, screen: str, view: Any, snap: Snapshot, now: int) -> Hashable:
        parts: list[Hashable] = []
        game = self._game
        timers = game.timer_screens if game is not None else frozenset()
        scored = game.score_screens if game is not None else frozenset()
        if screen in timers and view is not None and view.deadline_ms is not None:
            left = view.deadline_ms - now
            parts.append(now // self.frame_ms if left > 0 else "expired")
        if (game is not None and screen == game.scoring_screen
                and self._scoring_overlay(now)):
            assert self._scored_at is not None
            elapsed = now - self._scored_at
            parts.append(("round", now // self.frame_ms if elapsed < self.score_anim_ms else 0))
        elif screen in scored and self._scores_from != self._scores_to:
            elapsed = now - self._scores_t0
            if elapsed < self.score_anim_ms:
                parts.append(("anim", now // self.frame_ms))
            else:
                parts.append(("deltas", elapsed < self.score_anim_ms + self.delta_hold_ms))
        return tuple(parts)

    def _card_image(self, card: CardView | None) -> pygame.Surface | None:
        if card is None or card.image is None:
            return None
        if card.card_id in self._card_surfaces:
            return self._card_surfaces[card.card_id]
        image = card.image
        surface: pygame.Surface | None
        if isinstance(image, pygame.Surface):
            surface = image
        else:
            try:
                arr = np.asarray(image)
                if arr.ndim == 2:
                    arr = np.stack([arr] * 3, axis=-1)
                surface = pygame.surfarray.make_surface(
                    np.ascontiguousarray(arr[:, :, :3].swapaxes(0, 1)).astype(np.uint8))
            except (ValueError, TypeError, IndexError):
                _log.warning("display: card %s has an image I cannot show", card.card_id)
                surface = None
        if len(self._card_surfaces) >= 4:
            self._card_surfaces.clear()
        self._card_surfaces[card.card_id] = surface
        return surface

    def _banner(self, snap: Snapshot) -> list[str]:
        lines: list[str] = []
        lang = snap.lang
        status = snap.camera_status
        if status:
            name, _, arg = status.partition(":")  # "status.camera_retrying:4": {n} = 4
            key = name if name in STRINGS else f"status.{name}"
            lines.append(tr(key, lang, n=arg) if key in STRINGS else status)
        for notice in snap.notices:
            if notice.key in STRINGS:
                name = ""
                if notice.seat is not None:
                    players = snap.players
                    name = (players[notice.seat].name if 0 <= notice.seat < len(players)
                            else tr("seat", lang, n=notice.seat + 1))
                lines.append(tr(notice.key, lang, name=name, why=notice.text))
            elif notice.text:
                lines.append(notice.text)
        return lines[:3]

    def _draw(self, snap: Snapshot, view: Any, screen: str, now: int) -> None:
        shown = self._shown_scores(now) if view is not None else ()
        deltas = self._deltas(now)
        game = self._game
        if (game is not None and screen == game.scoring_screen and self._scoring_overlay(now)
                and self._scored_at is not None):
            t = min(1.0, (now - self._scored_at) / max(1, self.score_anim_ms))
            ease = 1 - (1 - t) ** 3
            shown = tuple(a + (b - a) * ease for a, b in zip(self._round_from, self._round_to,
                                                              strict=True))
            deltas = tuple(b - a for a, b in zip(self._round_from, self._round_to, strict=True))
        frame = Frame(snap=snap, view=view, now_ms=now, shown_scores=shown, deltas=deltas,
                      card_image=self._card_image(snap.last_card),
                      held_image=self._card_image(snap.held_card))
        static, moving = self._screens[screen]
        banner = self._banner(snap)
        body_to = HEADER_H + BANNER_LINE_H * len(banner)
        size = self.surface.get_size()
        base_key = (snap, screen, size, self.keycaps)
        if self._base is None or self._base.get_size() != size:
            self._base = pygame.Surface(size, 0, self.surface)
            self._base_key = None
        if base_key != self._base_key:
            # The static layer: everything that does not move while this snapshot is shown.
            painter = Painter(self._base, self.cache, snap.lang, self._phrases())
            painter.sound = snap.sound
            painter.keycaps = self.keycaps
            if banner:
                painter.reserve(HEADER_H, body_to)
            self._paint(static, painter, frame, screen)
            self._base_key = base_key
            self._base_texts, self._base_buttons = painter.texts, painter.buttons
            self._base_shapes = painter.shapes
            self._base_fills = painter.fills
            self._base_badges = painter.badges
            self._base_marks = [(n, r) for n, (_, r) in zip(painter.shapes_at, painter.shapes,
                                                            strict=True)]
        self.surface.blit(self._base, (0, 0))
        painter = Painter(self.surface, self.cache, snap.lang, self._phrases())
        if banner:
            painter.reserve(HEADER_H, body_to)
        if moving is not None:
            self._paint(moving, painter, frame, screen)
        banner_texts = len(painter.texts)
        draw_banner(painter, banner)
        self.banner_rect = (pygame.Rect(0, round(HEADER_H * size[1]), size[0],
                                        round(BANNER_LINE_H * len(banner) * size[1]))
                            if banner else None)
        self.banner_texts = tuple(painter.texts[banner_texts:])
        buttons = self._base_buttons + painter.buttons
        judgments = game.judgments if game is not None and snap.state is not None else ()
        if judgments and snap.menu is None:  # (the game's judgments about a player)
            buttons = [dataclasses.replace(b, judgment=True) if b.action.name in judgments
                       else b for b in buttons]
        self.buttons = tuple(buttons)
        self.focused = None
        if snap.focus is not None:
            order = focus_order(self.buttons)
            if order:
                focused = order[snap.focus % len(order)]
                if focused.action.name != REST:  # (resting: nothing highlighted)
                    self.focused = focused
                    focus_ring(painter, focused.rect)
        self.texts = tuple(self._base_texts + painter.texts)
        base_n = len(self._base_texts)
        self.fills = tuple(self._base_fills + [(base_n + n, r) for n, r in painter.fills])
        self.badges = tuple(self._base_badges + [(base_n + n, r) for n, r in painter.badges])
        self.marks = tuple(self._base_marks + [(base_n + n, r) for n, (_, r) in zip(
            painter.shapes_at, painter.shapes, strict=True)])
        self.shapes = tuple(self._base_shapes + painter.shapes)
        self.screen = screen
        self.frames += 1
        if self.present:
            self.flip()

    def _phrases(self) -> Mapping[str, str]:
        game = self._game
        return game.phrases if game is not None else {}

    def _paint(self, draw: Callable[[Painter, Frame], None], painter: Painter, frame: Frame,
               screen: str) -> None:
        try:
            draw(painter, frame)
        except Exception:  # never take the kiosk down over one bad frame
            if self.strict:
                raise
            _log.exception("display: drawing %s failed", screen)
            painter.surface.fill((0, 0, 0))
