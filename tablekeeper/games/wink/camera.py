"""眨眨眼's camera: the 6x6 grid, cell by cell -- face-up cards by number, backs, empty cells,
and the markers on them (:mod:`vision.markers`).

:class:`GridSight` is the watcher (``process(frame)``, ``forget()``) the kiosk's camera
thread feeds (:func:`tablekeeper.vision_link.camera_pipeline`, through the kit's ``watcher``,
:func:`watcher_for`); :class:`GridCamera` is a card source for :class:`tablekeeper.app.Loop`
(``poll``, ``reoffer``, ``status``, ``close``, ``frames``/``events``) reading a
:class:`GridSight` inline on the loop's clock (the headless demo, tests). Each frame goes to
the card recogniser
(:class:`vision.tracker.CardWatcher`, zones ``r1c1`` ... ``r6c6``) and to the cell reader
(:class:`vision.markers.GridWatcher`); it reports

- each recognised card settling in a cell, as a :class:`tablekeeper.referee.CardSeen`
  (``zone`` "r3c4"), and
- each cell whose settled reading changed, as a :class:`CellReport` (a ``CardSeen`` whose
  ``card_id`` is ``cell:<zone>``, with ``face``, ``number`` and ``marker``).

The first frame in which every cell shows a recognised face-up card -- the grid just laid,
before any marker -- keeps each cell's picture, so a card's own colours never read as a marker.
A camera that starts on a grid already in play (the kiosk resuming a game, the camera back
after a fault) keeps each card's picture once it has been recognised lying still for
:data:`KEEP_FRAMES` frames; until a cell has its picture only a back or a bare cell is told
there (no marker, no face-up card: its print could read as a marker).

At the kiosk (:func:`watcher_for`) the cells are the config's ``[[vision.zones]]`` r1c1 ...
r6c6 (``vision calibrate --layout grid:6x6``; on the simulated camera without them, the
simulated table's own grid) and the marker colours the table's calibration file
(``[table] markers``, ``vision calibrate-markers``). Without the grid, or without a usable
marker file, the host is told on the screen and the camera reads the cards alone: the game
goes on with the cards the camera sees and the host's entries.

Interpretations:

- [I] ``picture_before_marker``: seed 「行動玩家將自家顏色指示物擺放在...表情卡上方」 -- a
  marker lies on a card, so a card's own picture is learnt first (the grid as laid, or a card
  recognised lying still); a marker already lying on a card when the camera first sees it is
  not read (a card under a marker is seldom recognised; when it is, the marker becomes part of
  its picture): the host enters that placement.
- [I] ``markers_next_to_the_zones``: issue 18 「calibrated once per table, like the zones」 --
  the zones live in the config file (``[[vision.zones]]``), so the markers' file lies next to
  it (``markers.json`` in the config's folder; ``[table] markers`` names another; the kiosk
  without a config: ``state_dir``), JSON written atomically by ``vision calibrate-markers``,
  with the frame size it was measured in (another size is refused: the cells would not fit).
- [I] ``markers_uncalibrated_not_read``: issue 18 「Markers are told apart by colour under
  the table's light (calibrated once per table, like the zones)」 -- without this table's
  calibration no cell is read at all (the nominal colours and back, under an unknown light,
  would put wrong placements and mismatches in the journal); the camera still sees the cards
  laid (the grid), the host enters the placements and the turned and taken cards.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from tablekeeper.referee import CardSeen

log = logging.getLogger("tablekeeper.vision")

FRAME_NS = 33_333_333
#: A card recognised this many frames in a row in a cell with no picture kept yet, the cell
#: still, has its picture kept (the camera started on a grid already in play).
KEEP_FRAMES = 5


@dataclass(frozen=True)
class CellReport(CardSeen):
    """A cell's settled reading (``card_id`` is ``"cell:" + zone``)."""

    face: str = "up"  # "up", "down", "empty"
    number: int | None = None  # the face-up card's number, if recognised
    marker: str | None = None  # a marker colour, "unknown", or None


def number_of(card_id: str) -> int | None:
    """The Wink demo deck's ids are ``w01`` ... ``w36``; an enrolled deck's card ``value``
    would say the same (see :func:`tablekeeper.games.wink.card_numbers`)."""
    if len(card_id) == 3 and card_id[0] == "w" and card_id[1:].isdigit():
        return int(card_id[1:])
    return None


class GridSight:
    """Frames -> recognised cards in cells and cell readings (see the module docstring).

    ``process(frame)`` gives ``CardSeen`` values (cards: ``zone`` "r3c4") and
    :class:`CellReport` values; ``forget()`` makes it report everything again (an undo)."""

    def __init__(self, deck: Any, zones: Any, *, palette: Any = None,
                 size: tuple[int, int] = (640, 480), numbers: dict[str, int] | None = None,
                 vision: Any = None) -> None:
        import dataclasses

        from vision.config import VisionConfig
        from vision.markers import GridReader, GridWatcher
        from vision.tracker import CardWatcher

        self.zones = tuple(zones)
        base = vision if vision is not None else VisionConfig()
        self.cards = CardWatcher(deck, dataclasses.replace(base, zones=self.zones))
        self.grid = GridWatcher(GridReader(self.zones, palette, size))
        self.numbers = numbers  # card id -> number (None: the demo deck's ids)
        self._references = False
        self._names = tuple(z.name for z in self.zones)
        #: zone -> frames in a row its card has been recognised there, lying still
        self._up_for: dict[str, int] = {}

    def number(self, card_id: str) -> int | None:
        if self.numbers is not None:
            return self.numbers.get(card_id)
        return number_of(card_id)

    def process(self, frame: Any) -> list[CardSeen]:
        from vision.tracker import zone_of

        events = self.cards.process(frame)
        out: list[CardSeen] = [CardSeen(e.card_id, e.first_seen_ns, e.score, e.margin,
                                        zone=e.zone) for e in events]
        up: dict[str, int] = {}
        for card_id, (x, y) in self.cards.on_table:
            zone = zone_of(self.zones, x, y)
            n = self.number(card_id)
            if zone is not None and n is not None:
                up[zone] = n
        reader = self.grid.reader
        for zone in self._names:
            still = zone in up and zone not in reader.moving
            self._up_for[zone] = self._up_for.get(zone, 0) + 1 if still else 0
        if not self._references and len(up) == len(self.zones):
            self.grid.set_references(frame.image)
            self._references = True
        else:
            kept = [z for z in self._names if z not in reader.references
                    and self._up_for[z] >= KEEP_FRAMES]
            for zone in kept:  # a card recognised lying still, no reference yet: its picture
                reader.keep_reference(frame.image, zone)
            if kept:
                reader.forget(kept)
                self.grid.forget(kept)
        for change in self.grid.process(frame.image, int(frame.t_ns)):
            marker = change.marker
            if change.zone not in reader.references:
                # no picture of its card yet (the camera came to a grid in play): its print
                # could read as a marker, so only a back or a bare cell is told
                if change.face == "up":
                    continue
                marker = None
            out.append(CellReport(f"cell:{change.zone}", change.t_ns, zone=change.zone,
                                  face=change.face, marker=marker,
                                  number=up.get(change.zone) if change.face == "up" else None))
        return out

    def take_unsure(self) -> list[Any]:
        """The cards found but not named that settled (``CardWatcher.take_unsure``)."""
        return self.cards.take_unsure()

    def forget(self) -> None:
        self.grid.forget()
        self.cards.forget()


class GridCamera:
    """A camera read inline through a :class:`GridSight` (see the module docstring)."""

    def __init__(self, camera: Any, deck: Any, zones: Any, *, palette: Any = None,
                 frame_ns: int = FRAME_NS, numbers: dict[str, int] | None = None) -> None:
        self.camera = camera
        self.sight = GridSight(deck, zones, palette=palette,
                               size=getattr(camera, "size", (640, 480)), numbers=numbers)
        self.zones = self.sight.zones
        self.frame_ns = frame_ns
        self._next_ns: int | None = None
        self._started = False
        self.frames = 0
        self.events = 0
        self.status: str | None = None

    def poll(self, now_ns: int) -> list[CardSeen]:
        if self._next_ns is not None and now_ns < self._next_ns:
            return []
        self._next_ns = now_ns + self.frame_ns
        if not self._started:
            self.camera.start()
            self._started = True
        frame = self.camera.capture()
        if frame is None:
            return []
        self.frames += 1
        try:
            out = self.sight.process(frame)
        except ValueError as exc:
            log.warning("frame %s skipped: %s", getattr(frame, "seq", "?"), exc)
            return []
        self.events += len(out)
        return out

    def reoffer(self) -> None:
        """After an undo: every cell and card is reported again."""
        self.sight.forget()

    def close(self) -> None:
        if self._started:
            self._started = False
            self.camera.close()


#: The screen's line when the grid has no zones (the camera then reads no cell).
NO_GRID = ("眨眨眼：格子尚未校正，攝影機不讀格子與指示物 / Wink: the 6x6 grid is not calibrated "
           "(vision calibrate --layout grid:6x6), so the camera reads no cells or markers; "
           "enter the plays by hand")


def watcher_for(context: Any) -> Any:
    """The kit's ``watcher``: the kiosk's camera reads the grid's cells and markers with
    this table's calibration (a :class:`tablekeeper.vision_link.CameraContext`). What is
    missing or damaged is told (``context.tell``), and the camera reads what it still can."""
    import dataclasses

    from tablekeeper.config import markers_file
    from tablekeeper.games.wink import card_numbers
    from vision.markers import MarkerFileError, grid_zones, load_markers
    from vision.simmarkers import sim_grid_zones
    from vision.tracker import CardWatcher

    zones = grid_zones(context.vision.zones)
    if not zones and context.simulate:
        zones = sim_grid_zones(context.deck, context.camera)
        log.info("simulated camera, no grid calibrated: the simulated table's own grid")
    if not zones:
        context.tell(NO_GRID, key="wink.problem.grid")
        return CardWatcher(context.deck, context.vision)
    path = markers_file(context.config.table, context.config_path)
    try:
        palette = load_markers(path, tuple(context.camera.size))
    except MarkerFileError as exc:
        context.tell(f"Wink: markers not read: {exc}; the camera reads the cards, the host "
                     "enters the placements (calibrate: tablekeeper vision calibrate-markers)",
                     key="wink.problem.markers")
        return CardWatcher(context.deck, dataclasses.replace(context.vision, zones=zones))
    return GridSight(context.deck, zones, palette=palette, size=tuple(context.camera.size),
                     numbers=card_numbers(context.deck), vision=context.vision)
