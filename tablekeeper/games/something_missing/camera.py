"""什麼不見啦's camera: the centre pile's cards and the ring (the tokens in the memory cards'
slots, the scenes turned up), one watcher for the camera thread or the inline demo camera.

:class:`RingSight` gives the card recogniser's :class:`tablekeeper.referee.CardSeen` values
for the centre pile and a :class:`RingReport` for each settled change on the ring
(:class:`vision.ring.RingWatcher`); the table adapter (:mod:`.table`) turns them into bets
and checks.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from tablekeeper.referee import CardSeen

log = logging.getLogger("tablekeeper.vision")


@dataclass(frozen=True)
class RingReport(CardSeen):
    """A settled change on the ring (``card_id`` ``"ring:memory2.3"`` or ``"ring:scene2"``):
    ``slot`` 1..6 with its ``marker`` (a colour, ``"unknown"``, None: empty), or ``slot`` 0:
    the scene's ``face``."""

    position: int = 0
    slot: int = 0
    face: str = "down"
    marker: str | None = None


class RingSight:
    """Frames -> centre-pile cards and ring reports (``process(frame)``, ``forget()``)."""

    def __init__(self, deck: Any, ring: Any, *, palette: Any = None,
                 size: tuple[int, int] = (640, 480), vision: Any = None) -> None:
        from vision.config import VisionConfig
        from vision.ring import RingWatcher
        from vision.tracker import CardWatcher

        base = vision if vision is not None else VisionConfig()
        self.cards = CardWatcher(deck, base)
        self.ring = RingWatcher(ring, palette, size)
        # the ring's own cards (scenes, memory cards, tokens) are no centre-pile cards
        self._ring_zones = tuple(z for pair in ring for z in pair)
        self.cards_seen = 0  # centre-pile cards reported
        self.ring_reports = 0  # ring changes reported

    def process(self, frame: Any) -> list[CardSeen]:
        from vision.tracker import zone_of

        out: list[CardSeen] = []
        for e in self.cards.process(frame):
            x = sum(p[0] for p in e.corners) / len(e.corners)
            y = sum(p[1] for p in e.corners) / len(e.corners)
            if zone_of(self._ring_zones, x, y) is not None:
                continue
            out.append(CardSeen(e.card_id, e.first_seen_ns, e.score, e.margin, zone=e.zone))
            self.cards_seen += 1
        for c in self.ring.process(frame.image, int(frame.t_ns)):
            zone = f"scene{c.position + 1}" if c.is_scene else f"memory{c.position + 1}"
            name = zone if c.is_scene else f"{zone}.{c.slot}"
            out.append(RingReport(f"ring:{name}", c.t_ns, zone=zone, position=c.position,
                                  slot=c.slot, face=c.face, marker=c.marker))
            self.ring_reports += 1
        return out

    def take_unsure(self) -> list[Any]:
        """The cards found but not named that settled (``CardWatcher.take_unsure``), the
        ring's own cards left out."""
        from vision.tracker import zone_of

        return [u for u in self.cards.take_unsure()
                if zone_of(self._ring_zones, *u.centre) is None]

    def forget(self) -> None:
        self.cards.forget()
        self.ring.forget()


#: The token calibration's file name, next to the config (``vision calibrate-markers --ring``).
TOKENS_FILE = "tokens.json"


def watcher_for(context: Any) -> Any:
    """The kit's ``watcher``: with the ring calibrated (``vision calibrate --layout ring:N``,
    zones scene1.. and memory1..) and its token colours measured (``vision calibrate-markers
    --ring``: ``tokens.json`` next to the config), the camera reads the centre pile and the
    ring; otherwise the centre pile alone (the host enters the bets and starts the checks),
    and what is missing is told."""
    from vision.markers import MarkerFileError, load_markers, markers_path
    from vision.ring import ring_of
    from vision.tracker import CardWatcher

    ring = ring_of(context.vision.zones)
    if not ring:
        log.info("no ring calibrated: the camera reads the centre pile only")
        return CardWatcher(context.deck, context.vision)
    path = markers_path(TOKENS_FILE, context.config_path, context.config.table.state_dir)
    try:
        palette = load_markers(path, tuple(context.camera.size))
    except MarkerFileError as exc:
        context.tell(f"什麼不見啦：代表物顏色未校正，請主持人輸入投注 / Something Is Missing: "
                     f"tokens not read: {exc}; the host enters the bets and starts the checks")
        return CardWatcher(context.deck, context.vision)
    return RingSight(context.deck, ring, palette=palette, size=tuple(context.camera.size),
                     vision=context.vision)
