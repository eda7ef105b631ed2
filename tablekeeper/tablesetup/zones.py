"""The set-up step "Show the box the table": the game's zones from cards laid on them.

The host lays cards where the game's zones are (什麼不見啦: one card where the pile goes; The
Game: one card on each of the four rows; Wink: the grid's four corner cards; Eselsbrücke: a
tile at each end of where the stories lie -- the kit's ``zone_layout``). Every camera frame
is searched for them (:func:`vision.config.zones_in_frame`, the one implementation of
``tablekeeper vision calibrate``); the screen draws the zones found over the live picture, or
says how many cards it sees and how many it wants. The host takes the zones (*confirm*),
then may adjust them with the three host buttons (choose a zone or all of them, then bigger
/ smaller / move, or *find again*) and saves (*confirm*): the zones go into the config file
(:func:`tablekeeper.tablesetup.configedit.save_zones`: atomically, the host's comments and
other keys -- another game's zones among them -- kept). A config that cannot be written
or read is said on the screen and the zones are kept, to save again once it is fixed.

Phases: ``look`` (finding the cards) -> ``adjust`` (the zones taken, not yet saved) ->
``saved`` (:attr:`ZonesStep.done`). *back* leaves ``adjust`` for ``look``, and ``look`` for
the set-up hub (:attr:`ZonesStep.left`: the step can be resumed).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from display.input import HostAction
from display.tablesetup.zones import ZonesView
from tablekeeper.tablesetup.configedit import ConfigEditError, fresh_zones, save_zones
from tablekeeper.tablesetup.step import NOTHING, Picture, StepContext, StepStatus, Want, hint_params
from vision.config import Point, Zone, ZoneLayoutError, cards_for_layout, zones_in_frame

#: The same cards found this many frames in a row before the zones are offered (a hand
#: passing, a card still sliding, is not taken).
STEADY_FRAMES = 3
#: A zone's corners may move this far (fraction of the frame's width) between two frames
#: and still be "the same".
STEADY_MOVE = 0.025
#: *bigger* / *smaller*: the zone(s) scaled about their centre by this factor.
SCALE_STEP = 1.08
#: *move*: by this fraction of the frame's width.
MOVE_STEP = 0.015
#: Frames are searched for the cards at most this often (a search of a 1280x960 frame takes
#: 0.1-0.2 s on a laptop core: the screen stays live in between).
SEARCH_EVERY_NS = 250_000_000
#: The picture the screen shows: its long side in pixels (the frame is scaled down).
PICTURE_SIDE = 480

#: The host's actions on this step (besides confirm and back).
ACTIONS = ("zones.pick", "zones.grow", "zones.shrink", "zones.left", "zones.right",
           "zones.up", "zones.down", "zones.again")

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ZonePlan:
    """What the game's zones are: the layout of cards the host lays (``vision calibrate
    --layout``), the zones' names, how much a zone is larger than its card."""

    layout: str
    names: tuple[str, ...] = ()
    grow: float = 1.5

    @property
    def cards(self) -> tuple[int, ...]:
        """How many cards the layout takes (each count it accepts; empty: any from 1)."""
        return cards_for_layout(self.layout)

    @property
    def kind(self) -> str:
        """``pile``, ``rows``, ``grid``, ``area``, ``ring`` or ``cards``."""
        return self.layout.partition(":")[0]

    def zone_names(self) -> tuple[str, ...]:
        """The names the layout's zones take."""
        kind, _, arg = self.layout.partition(":")
        if kind == "rows":
            n = int(arg)
            return self.names if len(self.names) == n else tuple(f"row{i}" for i in
                                                                  range(1, n + 1))
        if kind == "grid":
            r, c = (int(v) for v in arg.lower().split("x"))
            return tuple(f"r{i}c{j}" for i in range(1, r + 1) for j in range(1, c + 1))
        if kind in ("ring", "pile+ring"):
            n = int(arg)
            ring = (*(f"scene{i}" for i in range(1, n + 1)),
                    *(f"memory{i}" for i in range(1, n + 1)))
            return ring if kind == "ring" else (self.names[:1] or ("pile",)) + ring
        return self.names[:1] or ((kind,) if kind in ("pile", "area") else self.names)


def _scale(zone: Zone, centre: Point, k: float) -> Zone:
    cx, cy = centre
    return Zone(zone.name, tuple((cx + (x - cx) * k, cy + (y - cy) * k) for x, y in zone.polygon))


def _move(zone: Zone, dx: float, dy: float) -> Zone:
    return Zone(zone.name, tuple((x + dx, y + dy) for x, y in zone.polygon))


def _centre(zones: Sequence[Zone]) -> Point:
    pts = [p for z in zones for p in z.polygon]
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))


def _same(a: Sequence[Zone], b: Sequence[Zone], tolerance: float) -> bool:
    if [z.name for z in a] != [z.name for z in b]:
        return False
    return all(math.dist(p, q) <= tolerance for za, zb in zip(a, b, strict=True)
               for p, q in zip(za.polygon, zb.polygon, strict=False))


def picture_of(image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """A camera frame (BGR) as the screen shows it: RGB, its long side
    :data:`PICTURE_SIDE` pixels."""
    import cv2

    h, w = image.shape[:2]
    k = min(1.0, PICTURE_SIDE / max(h, w))
    small = image if k == 1.0 else cv2.resize(image, (max(1, round(w * k)), max(1, round(h * k))),
                                              interpolation=cv2.INTER_AREA)
    if small.ndim == 2:
        return np.asarray(cv2.cvtColor(small, cv2.COLOR_GRAY2RGB), np.uint8)
    return np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2RGB), np.uint8)


class ZonesStep:
    """The controller of "Show the box the table" (see the module docstring).

    ``card_size``: the game's cards' template size (their shape: :class:`vision.find.
    CardFinder`); ``config_path``: the file the zones are saved into; ``replaces``: a test of
    the names of saved zones the new ones stand for (besides their own names); ``save``:
    the writer (tests inject a failing one; default :func:`configedit.save_zones`);
    ``base``: the zones as the config held them when the step began (a zone edited by hand
    in the file since is a clash when saved: logged, and ``tell("setup.config.clash.zones")``
    on the banner, as the tie window's and the deck's clashes are)."""

    key = "zones"

    def __init__(self, plan: ZonePlan, card_size: tuple[int, int], config_path: Path | None, *,
                 title: str = "", replaces: Callable[[str], bool] = lambda name: False,
                 save: Callable[..., list[str] | None] = save_zones,
                 base: Sequence[Zone] | None = None,
                 tell: Callable[..., None] = lambda key, **params: None) -> None:
        self.plan = plan
        self.card_size = card_size
        self.config_path = config_path
        self.title = title
        self.replaces = replaces
        self._save = save
        self._base = None if base is None else tuple(base)
        self._tell = tell
        self.clashes: list[str] = []  # the last save's (the log has them too)
        self.phase = "look"
        self.done = False
        self.left = False
        self.zones: tuple[Zone, ...] = ()  # taken (adjust) or offered (look)
        self.cards: tuple[tuple[Point, ...], ...] = ()
        self.found: int | None = None
        self.selected: int | None = None
        self.problem: str | None = None
        self.params: dict[str, Any] = {}
        self.frame_size: tuple[int, int] | None = None
        self.picture: npt.NDArray[np.uint8] | None = None
        self._steady = 0
        self._last: tuple[Zone, ...] = ()
        self._searched_ns: int | None = None
        self._image: npt.NDArray[np.uint8] | None = None
        self._seq = 0
        self.frames = 0  # frames searched (the closing note's figures)
        self.presses = 0  # host actions taken

    # -- the protocol ---------------------------------------------------------------------
    def frame(self, image: npt.NDArray[np.uint8] | None, t_ns: int) -> None:
        """A camera frame (BGR), or None when the camera gave none."""
        if image is None:
            self.picture = self._image = None
            if self.phase == "look":
                self._offer((), (), None, "setup.zones.no_camera", {})
            return
        self.frame_size = (int(image.shape[1]), int(image.shape[0]))
        self._image = image
        self._seq += 1
        self.picture = picture_of(image)
        if self.phase != "look" or (self._searched_ns is not None
                                    and 0 <= t_ns - self._searched_ns < SEARCH_EVERY_NS):
            return
        self._searched_ns = t_ns
        self.frames += 1
        try:
            found = zones_in_frame(image, self.card_size, self.plan.layout, self.plan.names,
                                   self.plan.grow)
        except ZoneLayoutError as exc:
            self._offer((), (), exc.found, *self._count_problem(exc))
            return
        except ValueError as exc:  # a layout that does not lie as it says
            self._offer((), (), None, "setup.zones.layout", {"detail": str(exc)})
            return
        tolerance = STEADY_MOVE * self.frame_size[0]
        self._steady = self._steady + 1 if _same(found.zones, self._last, tolerance) else 1
        self._last = found.zones
        self._offer(found.zones, found.cards, len(found.cards), None, {})

    def act(self, action: HostAction, now_ns: int) -> None:
        name = action.name
        self.presses += 1
        if self.phase == "look":
            if name == "confirm" and self.ready:
                self.phase = "adjust"
                self.selected = None
                self.problem = None
            elif name == "back":
                self.left = True
            return
        if self.phase != "adjust":
            return
        if name == "confirm":
            self._save_zones()
        elif name in ("back", "zones.again"):
            self.phase = "look"
            self.zones = ()
            self._steady = 0
            self._last = ()
            self._searched_ns = None
            self.problem = None
        elif name == "zones.pick":
            n = len(self.zones)
            self.selected = 0 if self.selected is None else (
                None if self.selected + 1 >= n else self.selected + 1)
        elif name in ("zones.grow", "zones.shrink"):
            self._change(lambda zs, c: [_scale(z, c, SCALE_STEP if name == "zones.grow"
                                               else 1 / SCALE_STEP) for z in zs])
        elif name in ("zones.left", "zones.right", "zones.up", "zones.down"):
            step = MOVE_STEP * (self.frame_size[0] if self.frame_size else 1000)
            dx = {"zones.left": -step, "zones.right": step}.get(name, 0.0)
            dy = {"zones.up": -step, "zones.down": step}.get(name, 0.0)
            self._change(lambda zs, _c: [_move(z, dx, dy) for z in zs])

    def seat(self, seat: int, pressed: bool, t_ns: int) -> None:
        """Seat buttons mean nothing here."""

    def next_time(self) -> int | None:
        return None

    def tick(self, now_ns: int) -> None:
        """Nothing here waits for the clock."""

    def wants(self) -> Want:
        if self.phase == "look":
            if self.ready:
                return Want("confirm", action="confirm", hint="setup.zones.take")
            # (no zone names: the layout's cards are not one per zone -- Wink's 4 corners)
            return Want("cards_in_zones", hint=f"setup.zones.lay.{self.plan.kind}",
                        hint_params=hint_params({"n": self.plan.cards[0]
                                                 if self.plan.cards else 2,
                                                 "layout": self.plan.layout}))
        if self.phase == "adjust" and self.problem is None:
            return Want("confirm", action="confirm", hint="setup.zones.save")
        return NOTHING

    @property
    def ready(self) -> bool:
        if self.phase == "look":
            return bool(self.zones) and self._steady >= STEADY_FRAMES
        return self.phase == "adjust" and bool(self.zones)

    def view(self) -> ZonesView:
        return ZonesView(self.phase, self.plan.kind, self.plan.cards, self.title,
                         tuple(z.name for z in self.zones), self.found, self.selected,
                         self._shown(), self.problem, dict(self.params), self.ready)

    def _shown(self) -> Picture | None:
        if self._image is None or self.frame_size is None:
            return None
        w, h = self.frame_size

        def norm(q: Sequence[Point]) -> Any:
            pts = [(x / w, y / h) for x, y in q]
            if len(pts) != 4:  # a zone of another shape: its bounding box's corners
                xs, ys = [x for x, _ in pts], [y for _, y in pts]
                pts = [(min(xs), min(ys)), (max(xs), min(ys)), (max(xs), max(ys)),
                       (min(xs), max(ys))]
            return tuple(pts)

        outlines: list[tuple[Any, str]] = []
        if self.phase == "look":
            outlines += [(norm(c), "info") for c in self.cards]
        for i, z in enumerate(self.zones):
            picked = self.phase == "adjust" and self.selected in (None, i)
            outlines.append((norm(z.polygon), "good" if picked else "warn"))
        return Picture(self._image, self._seq, tuple(outlines))

    # -- inside -----------------------------------------------------------------------------
    def _offer(self, zones: tuple[Zone, ...], cards: tuple[tuple[Point, ...], ...],
               found: int | None, problem: str | None, params: Mapping[str, Any]) -> None:
        self.zones, self.cards, self.found = zones, cards, found
        self.problem, self.params = problem, dict(params)
        if not zones:
            self._steady = 0
            self._last = ()

    def _count_problem(self, exc: ZoneLayoutError) -> tuple[str, dict[str, Any]]:
        # (the fewest the layout takes: what the screen asks for -- the grid's 4 corners)
        if exc.found == 0 and not exc.expected:  # (any number will do: the tile area)
            return "setup.zones.empty", {}
        want = str(min(exc.expected)) if exc.expected else "1"
        if exc.found == 0:
            return "setup.zones.none", {"want": want}
        if exc.expected and exc.found < min(exc.expected):
            return "setup.zones.few", {"found": exc.found, "want": want}
        if exc.expected and exc.found > max(exc.expected):
            return "setup.zones.many", {"found": exc.found, "want": want}
        return "setup.zones.layout", {"detail": str(exc)}

    def _change(self, how: Callable[[list[Zone], Point], list[Zone]]) -> None:
        if not self.zones:
            return
        zs = list(self.zones)
        if self.selected is None:
            zs = how(zs, _centre(zs))
        else:
            i = self.selected
            zs[i] = how([zs[i]], _centre([zs[i]]))[0]
        self.zones = tuple(zs)

    def _save_zones(self) -> None:
        if self.config_path is None:
            self.problem, self.params = "setup.config.none", {}
            return
        try:
            clashes = self._save(self.config_path, self.zones, self.replaces,
                                 base=self._base) or []
        except ConfigEditError as exc:
            _log.warning("set-up %s: not saved: %s", self.key, exc.detail)
            self.problem = f"setup.config.{exc.kind}"
            self.params = {"detail": exc.detail}
            return
        self.clashes = list(clashes)
        for clash in clashes:
            _log.warning("set-up %s: %s: %s", self.key, self.config_path, clash)
        if clashes:
            self._tell("setup.config.clash.zones")
        self._base = self.zones  # what the file holds now: the next save compares with it
        self.phase = "saved"
        self.problem = None
        self.params = {"count": len(self.zones)}
        self.done = True


# -- the step module's protocol (tablekeeper.tablesetup.step) --------------------------------


def plan_of(kit: Any) -> ZonePlan | None:
    """The kit's zones to show (None: it has none)."""
    layout = getattr(kit, "zone_layout", None)
    return ZonePlan(layout, tuple(getattr(kit, "zone_names", ()))) if layout else None


def _card_size(ctx: StepContext) -> tuple[int, int]:
    """The game's cards' size: its enrolled deck's, else its demo deck's (their shape is
    what the search needs)."""
    from vision.deck import DeckError

    for folder in (ctx.config.table.deck_for(ctx.game), None):
        try:
            deck = ctx.kit.deck(folder)
        except (DeckError, OSError, ValueError):
            continue
        if deck is not None:
            return (int(deck.size[0]), int(deck.size[1]))
    return (200, 300)


def make(ctx: StepContext) -> ZonesStep:
    plan = plan_of(ctx.kit) or ZonePlan("pile")
    ring = plan.kind in ("ring", "pile+ring")
    return ZonesStep(plan, _card_size(ctx), ctx.config_path, title=ctx.kit.title_in(ctx.lang),
                     replaces=(lambda n: n.startswith(("scene", "memory"))) if ring
                     else (lambda n: False),
                     base=fresh_zones(ctx.config_path, ctx.config)
                     if ctx.config_path is not None else None, tell=ctx.tell)


def status(ctx: StepContext) -> StepStatus:
    """DONE when the config holds every zone the game's layout makes."""
    plan = plan_of(ctx.kit)
    if plan is None:
        return StepStatus.DONE
    have = {z.name for z in fresh_zones(ctx.config_path, ctx.config)}
    return StepStatus.DONE if set(plan.zone_names()) <= have else StepStatus.MISSING
