"""The set-up step "Wink's markers" (and 什麼不見啦's ring tokens): the players' colours
measured under this table's light, from the screen.

The same measurement as ``tablekeeper vision calibrate-markers`` (``--ring`` for the tokens):
:func:`vision.markers.measure_palette`. Phases:

- ``need_zones``: the grid (Wink) or the ring (tokens) has no zones yet: the screen says to
  show the box the table first (:attr:`MarkersStep.left` on *back*);
- ``before``: the host lays the 36 cards face up (the ring laid), no marker on them;
  *confirm* takes the frame;
- ``after``: the host lays each colour on its cell (red on r1c1, yellow on r1c2 ...; for
  Wink the card of r6c6 turned face down, the back's colour); the screen ticks each one off
  as the camera sees it (:func:`vision.markers.markers_seen`); *confirm* measures them.
  A colour not found is named (the host lays it and confirms again), two colours too close to
  tell apart (or one colour laid twice) are named as a pair;
- ``result``: each colour as measured and its nearest other; *confirm* saves the file the
  kiosk reads (``[table] markers``, default ``markers.json`` next to the config; the
  tokens: ``tokens.json``), atomically; *again* starts over;
- ``saved``: :attr:`MarkersStep.done`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from display.input import HostAction
from display.tablesetup.markers import MarkersView
from tablekeeper.tablesetup.configedit import fresh_section, fresh_zones
from tablekeeper.tablesetup.step import NOTHING, Picture, StepContext, StepStatus, Want, hint_params
from tablekeeper.tablesetup.zones import SEARCH_EVERY_NS, picture_of
from vision.config import Zone
from vision.markers import (
    BACK_CELL,
    MARKER_COLOURS,
    ColoursTooClose,
    MarkerNotFound,
    MarkerPalette,
    grid_zones,
    marker_places,
    markers_seen,
    measure_palette,
    nearest_other,
    save_markers,
)

_log = logging.getLogger(__name__)

GRID = "grid"
RING = "ring"
#: The grid (ring) counts as laid when this share of its cells changed since the phase
#: began, by more than :data:`CHANGED_LEVELS` grey levels on average (a thumbnail of
#: :data:`THUMB` pixels).
LAID_SHARE = 0.75
CHANGED_LEVELS = 12.0
THUMB = (320, 240)
#: ... and still (no cell changed) for this many looks in a row.
STILL_LOOKS = 2


def _rgb_of_lab(lab: Sequence[float]) -> tuple[int, int, int]:
    import cv2

    px = np.array([[lab]], np.float32)
    bgr = cv2.cvtColor(px, cv2.COLOR_Lab2BGR)[0, 0]
    r, g, b = (int(np.clip(round(float(v) * 255), 0, 255)) for v in bgr[::-1])
    return r, g, b


class MarkersStep:
    """The controller of the markers step (see the module docstring). ``zones``: the
    config's zones (the grid's cells, or the ring); ``out``: the file the kiosk reads;
    ``camera_size``: the frames' size the kiosk reads (a frame of another size is refused);
    ``save``: the writer (tests inject a failing one)."""

    key = "markers"

    def __init__(self, zones: Sequence[Zone], out: Path, *, mode: str = GRID,
                 colours: Sequence[str] | None = None, title: str = "",
                 camera_size: tuple[int, int] | None = None,
                 save: Callable[..., None] = save_markers) -> None:
        self.mode = mode
        self.title = title
        self.out = out
        self.camera_size = camera_size
        self._save = save
        if mode == RING:
            from vision.ring import TOKEN_COLOURS, ring_of, ring_slots, token_places

            ring = ring_of(zones)
            self.cells: tuple[Zone, ...] = ring_slots(ring) if len(ring) >= 2 else ()
            self.placed = token_places(list(colours or TOKEN_COLOURS))
            self.back: str | None = None
        else:
            self.cells = grid_zones(zones)
            self.placed = marker_places(list(colours or MARKER_COLOURS), BACK_CELL)
            self.back = BACK_CELL
        self.phase = "before" if self.cells else "need_zones"
        self.done = False
        self.left = False
        self.before: npt.NDArray[np.uint8] | None = None
        self.image: npt.NDArray[np.uint8] | None = None
        self.picture: npt.NDArray[np.uint8] | None = None
        self.seen: frozenset[str] = frozenset()
        self.palette: MarkerPalette | None = None
        self.problem: str | None = None if self.cells else f"setup.markers.no_{mode}"
        self.params: dict[str, Any] = {}
        self._looked_ns: int | None = None
        self._start: npt.NDArray[np.uint8] | None = None
        self._last: npt.NDArray[np.uint8] | None = None
        self._still = 0
        self.up = 0
        self._seq = 0
        self.presses = 0
        self.shots = 0

    # -- the protocol ---------------------------------------------------------------------
    def frame(self, image: npt.NDArray[np.uint8] | None, t_ns: int) -> None:
        if image is None:
            self.image = self.picture = None
            if self.phase in ("before", "after"):
                self.problem, self.params = "setup.markers.no_camera", {}
            return
        if self.problem == "setup.markers.no_camera":
            self.problem = None
        self.image = image
        self._seq += 1
        self.picture = picture_of(image)
        if self._looked_ns is not None and 0 <= t_ns - self._looked_ns < SEARCH_EVERY_NS:
            return
        self._looked_ns = t_ns
        if self.phase == "after" and self.before is not None:
            self.seen = markers_seen(self.before, image, self.cells, self.placed,
                                     back_zone=self.back)
        elif self.phase == "before" and self.cells:
            self.up = self._changed_cells(image)

    def act(self, action: HostAction, now_ns: int) -> None:
        name = action.name
        self.presses += 1
        if name == "back":
            if self.phase in ("need_zones", "before"):
                self.left = True
            elif self.phase in ("after", "result"):
                self._again()
            return
        if name == "markers.again":
            self._again()
            return
        if name != "confirm" or not self.ready:
            return
        if self.phase == "before":
            assert self.image is not None
            self.before = self.image
            self.shots += 1
            self.phase, self.problem, self.seen, self._looked_ns = "after", None, frozenset(), None
            self.up = 0
        elif self.phase == "after":
            self._measure()
        elif self.phase == "result":
            self._store()

    def seat(self, seat: int, pressed: bool, t_ns: int) -> None:
        """Seat buttons mean nothing here."""

    def next_time(self) -> int | None:
        return None

    def tick(self, now_ns: int) -> None:
        """Nothing here waits for the clock."""

    def wants(self) -> Want:
        if self.phase == "before" and self.image is not None:
            # laid: the cells changed since the phase began and are still now -- or nothing
            # changed for a while (they were laid before the step began: the ring after the
            # zones step); only the simulated host goes by this, a person sees the picture
            laid = (self.up >= LAID_SHARE * len(self.cells) and self._still >= STILL_LOOKS) \
                or self._still >= 2 * STILL_LOOKS
            if not laid:
                return Want("cards_in_zones", zones=tuple(z.name for z in self.cells),
                            hint=f"setup.markers.lay_{self.mode}",
                            hint_params=hint_params({"layout": self._layout()}))
            return Want("confirm", action="confirm", hint=f"setup.markers.lay_{self.mode}")
        if self.phase == "after" and self.image is not None:
            for colour, cell in self.placed.items():
                if colour not in self.seen:
                    return Want("marker", colour=colour, where=self._box(cell),
                                hint="setup.markers.put",
                                hint_params=hint_params({"colour": colour, "cell": cell}))
            if self.back is not None and "back" not in self.seen:
                return Want("marker", colour="back", where=self._box(self.back),
                            hint="setup.markers.turn",
                            hint_params=hint_params({"cell": self.back}))
            if self.problem in (None, "setup.markers.missing"):
                return Want("confirm", action="confirm", hint="setup.markers.measure")
        if self.phase == "result" and self.problem is None:
            return Want("confirm", action="confirm", hint="setup.markers.save")
        return NOTHING

    def _layout(self) -> str:
        """The layout the cells were found with (the simulated table lays it again)."""
        if self.mode == RING:
            return f"pile+ring:{len(self.cells) // 6}"
        return "grid:6x6"

    def _changed_cells(self, image: npt.NDArray[np.uint8]) -> int:
        """How many cells look different from when the phase began (the cards laid since:
        the colours are not measured yet, so nothing is read, only compared); counts the
        looks in a row that changed no cell (:attr:`_still`)."""
        import cv2

        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        small = np.asarray(cv2.resize(grey, THUMB, interpolation=cv2.INTER_AREA), np.uint8)
        if self._start is None or self._start.shape != small.shape:
            self._start = self._last = small
            self._still = 0
            return 0
        since_start = self._count(small, self._start, image.shape[:2])
        moved = self._count(small, self._last, image.shape[:2]) if self._last is not None else 0
        self._still = self._still + 1 if moved == 0 else 0
        self._last = small
        return since_start

    def _count(self, a: npt.NDArray[np.uint8], b: npt.NDArray[np.uint8],
               shape: tuple[int, ...]) -> int:
        h, w = shape[0], shape[1]
        diff = cv2_absdiff(a, b)
        changed = 0
        for z in self.cells:
            xs = [x * THUMB[0] / w for x, _ in z.polygon]
            ys = [y * THUMB[1] / h for _, y in z.polygon]
            x0, x1 = max(0, int(min(xs))), min(THUMB[0], int(max(xs)) + 1)
            y0, y1 = max(0, int(min(ys))), min(THUMB[1], int(max(ys)) + 1)
            if x1 > x0 and y1 > y0 and float(diff[y0:y1, x0:x1].mean()) > CHANGED_LEVELS:
                changed += 1
        return changed

    def _box(self, cell: str) -> tuple[float, float, float, float] | None:
        zone = next((z for z in self.cells if z.name == cell), None)
        if zone is None or self.image is None:
            return None
        h, w = self.image.shape[:2]
        xs = [x / w for x, _ in zone.polygon]
        ys = [y / h for _, y in zone.polygon]
        return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))

    def _shown(self) -> Picture | None:
        if self.image is None:
            return None
        boxes: list[tuple[tuple[float, float, float, float], str, str]] = []
        if self.phase in ("after", "result"):
            for colour, cell in self.placed.items():
                box = self._box(cell)
                if box is not None:
                    boxes.append((box, str(len(boxes) + 1),
                                  "good" if colour in self.seen or self.phase == "result"
                                  else "warn"))
            if self.back is not None:
                box = self._box(self.back)
                if box is not None:
                    boxes.append((box, "", "good" if "back" in self.seen else "warn"))
        return Picture(self.image, self._seq, (), tuple(boxes))

    @property
    def ready(self) -> bool:
        if self.phase in ("before", "after"):
            return self.image is not None and self.problem != "setup.markers.no_camera"
        return self.phase == "result" and self.palette is not None

    def view(self) -> MarkersView:
        measured: dict[str, tuple[tuple[int, int, int], str, float]] = {}
        if self.palette is not None and self.phase in ("result", "saved"):
            for colour in self.placed:
                near = nearest_other(self.palette, colour)
                measured[colour] = (_rgb_of_lab(self.palette.colours[colour]),
                                    near[0] if near else "", near[1] if near else 0.0)
        return MarkersView(self.phase, self.mode, self.title, dict(self.placed), self.back,
                           self.seen, self.up, measured, self._shown(), self.problem,
                           dict(self.params), self.ready)

    # -- inside -----------------------------------------------------------------------------
    def _again(self) -> None:
        self._looked_ns = None
        self._start = self._last = None
        self._still = 0
        self.phase = "before"
        self.before = None
        self.palette = None
        self.seen = frozenset()
        self.problem, self.params = None, {}

    def _measure(self) -> None:
        assert self.before is not None and self.image is not None
        self.shots += 1
        try:
            self.palette = measure_palette(self.before, self.image, self.cells, self.placed,
                                           back_zone=self.back, size=self.camera_size)
        except MarkerNotFound as exc:
            self.problem = "setup.markers.missing"
            self.params = {"missing": ", ".join(exc.missing), "count": len(exc.missing)}
            return
        except ColoursTooClose as exc:
            a, b, d = exc.pairs[0]
            self.problem = "setup.markers.too_close"
            self.params = {"a": a, "b": b, "distance": round(d, 1),
                           "pairs": "; ".join(f"{x}+{y}" for x, y, _ in exc.pairs)}
            return
        except ValueError as exc:
            _log.warning("set-up markers: not measured: %s", exc)
            self.problem, self.params = "setup.markers.failed", {"detail": str(exc)}
            return
        self.phase, self.problem, self.params = "result", None, {}

    def _store(self) -> None:
        assert self.palette is not None and self.image is not None
        size = (int(self.image.shape[1]), int(self.image.shape[0]))
        try:
            self._save(self.out, self.palette, size, self.cells)
        except OSError as exc:
            _log.warning("set-up markers: %s not written: %s", self.out, exc)
            self.problem = "setup.config.unwritable"
            self.params = {"detail": f"{self.out}: {exc.strerror or exc}"}
            return
        self.phase, self.problem, self.params = "saved", None, {"file": str(self.out)}
        self.done = True


# -- the step module's protocol (tablekeeper.tablesetup.step) --------------------------------


def _where(ctx: StepContext, mode: str) -> Path:
    """The file the kiosk reads this table's colours from."""
    from tablekeeper.config import markers_file
    from vision.markers import markers_path

    if mode == RING:
        return markers_path("tokens.json", ctx.config_path, ctx.config.table.state_dir)
    return markers_file(ctx.config.table, ctx.config_path)


def _camera_size(ctx: StepContext) -> tuple[int, int] | None:
    from vision.camera import CameraConfig

    try:
        size = CameraConfig.from_dict(fresh_section(ctx.config_path, ctx.config, "camera")).size
    except ValueError:
        return None
    return (int(size[0]), int(size[1]))


def make(ctx: StepContext) -> MarkersStep:
    mode = getattr(ctx.kit, "markers", None) or GRID
    return MarkersStep(fresh_zones(ctx.config_path, ctx.config), _where(ctx, mode), mode=mode,
                       title=ctx.kit.title_in(ctx.lang), camera_size=_camera_size(ctx))


def status(ctx: StepContext) -> StepStatus:
    """DONE when the colours are measured for this camera's frames; OPTIONAL otherwise (the
    game is played without them: the host enters the placements)."""
    from vision.markers import MarkerFileError, load_markers

    mode = getattr(ctx.kit, "markers", None)
    if mode is None:
        return StepStatus.DONE
    try:
        load_markers(_where(ctx, mode), _camera_size(ctx))
    except MarkerFileError:
        return StepStatus.OPTIONAL
    return StepStatus.DONE


def cv2_absdiff(a: npt.NDArray[np.uint8], b: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    import cv2

    return np.asarray(cv2.absdiff(a, b), np.uint8)
