"""眨眨眼's camera: the 6x6 grid, cell by cell -- face-up cards by number, backs, empty cells,
and the markers on them (:mod:`vision.markers`).

:class:`GridCamera` is a card source for :class:`tablekeeper.app.Loop` (``poll``,
``reoffer``, ``status``, ``close``, ``frames``/``events``), read inline on the loop's clock
(the headless demo, tests). Each frame goes to the card recogniser
(:class:`vision.tracker.CardWatcher`, zones ``r1c1`` ... ``r6c6``) and to the cell reader
(:class:`vision.markers.GridWatcher`); it reports

- each recognised card settling in a cell, as a :class:`tablekeeper.referee.CardSeen`
  (``zone`` "r3c4"), and
- each cell whose settled reading changed, as a :class:`CellReport` (a ``CardSeen`` whose
  ``card_id`` is ``cell:<zone>``, with ``face``, ``number`` and ``marker``).

The first frame in which every cell shows a recognised face-up card -- the grid just laid,
before any marker -- keeps each cell's picture, so a card's own colours never read as a marker.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from tablekeeper.referee import CardSeen

log = logging.getLogger("tablekeeper.vision")

FRAME_NS = 33_333_333


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


class GridCamera:
    """Camera -> recognised cards in cells and cell readings (see the module docstring)."""

    def __init__(self, camera: Any, deck: Any, zones: Any, *, palette: Any = None,
                 frame_ns: int = FRAME_NS, numbers: dict[str, int] | None = None) -> None:
        from vision.config import VisionConfig
        from vision.markers import GridReader, GridWatcher
        from vision.tracker import CardWatcher

        self.camera = camera
        self.zones = tuple(zones)
        self.cards = CardWatcher(deck, VisionConfig(zones=self.zones))
        size = getattr(camera, "size", (640, 480))
        self.grid = GridWatcher(GridReader(self.zones, palette, size))
        self.frame_ns = frame_ns
        self.numbers = numbers  # card id -> number (None: the demo deck's ids)
        self._next_ns: int | None = None
        self._started = False
        self._references = False
        self.frames = 0
        self.events = 0
        self.status: str | None = None

    def number(self, card_id: str) -> int | None:
        if self.numbers is not None:
            return self.numbers.get(card_id)
        return number_of(card_id)

    def poll(self, now_ns: int) -> list[CardSeen]:
        from vision.tracker import zone_of

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
            events = self.cards.process(frame)
        except ValueError as exc:
            log.warning("frame %s skipped: %s", getattr(frame, "seq", "?"), exc)
            return []
        out: list[CardSeen] = [CardSeen(e.card_id, e.first_seen_ns, e.score, e.margin,
                                        zone=e.zone) for e in events]
        up: dict[str, int] = {}
        for card_id, (x, y) in self.cards.on_table:
            zone = zone_of(self.zones, x, y)
            n = self.number(card_id)
            if zone is not None and n is not None:
                up[zone] = n
        if not self._references and len(up) == len(self.zones):
            self.grid.set_references(frame.image)
            self._references = True
        for change in self.grid.process(frame.image, int(frame.t_ns)):
            out.append(CellReport(f"cell:{change.zone}", change.t_ns, zone=change.zone,
                                  face=change.face, marker=change.marker,
                                  number=up.get(change.zone) if change.face == "up" else None))
        self.events += len(out)
        return out

    def reoffer(self) -> None:
        """After an undo: every cell and card is reported again."""
        self.grid.forget()
        self.cards.forget()

    def close(self) -> None:
        if self._started:
            self._started = False
            self.camera.close()
