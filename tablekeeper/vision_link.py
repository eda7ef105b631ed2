"""The camera as the app loop sees it: frames in, settled item cards out.

:class:`WatchedCamera` captures a frame when one is due (the loop only asks while cards are
being revealed), runs :class:`vision.tracker.CardWatcher` on it, and reports each card that
settled in the centre-pile zone as a :class:`tablekeeper.referee.CardSeen` stamped with the
frame in which the card *first became visible* -- the instant the buzzers are armed at. A camera
that is unplugged is reconnected with back-off by :class:`vision.camera.ResilientCamera`; the
loop keeps going and the screen shows the camera's status.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from tablekeeper.clock import Clock
from tablekeeper.config import Config
from tablekeeper.referee import CardSeen
from tablekeeper.screen import CardInfo

log = logging.getLogger("tablekeeper.vision")

FRAME_NS = 33_333_333
ITEMS_DECK = "something-missing-items"


class WatchedCamera:
    """A camera (plain or resilient) and a card watcher, polled by the app loop."""

    def __init__(self, camera: Any, watcher: Any, *, frame_ns: int = FRAME_NS,
                 zone: str | None = None) -> None:
        self.camera = camera
        self.watcher = watcher
        self.frame_ns = frame_ns
        self.zone = zone
        self._next_ns: int | None = None
        self._started = False
        self.frames = 0
        self.events = 0
        self._status: str | None = None

    def poll(self, now_ns: int) -> list[CardSeen]:
        if self._next_ns is not None and now_ns < self._next_ns:
            return []
        self._next_ns = now_ns + self.frame_ns
        if not self._started:
            self.camera.start()
            self._started = True
        frame = self.camera.capture()
        status = getattr(self.camera, "status", None)
        if status is not None and not callable(status):
            self._status = None if status.ok else f"status.camera_{status.state}" \
                if status.state in ("disconnected", "starting") else status.message_en
        if frame is None:
            return []
        self.frames += 1
        try:
            events = self.watcher.process(frame)
        except ValueError as exc:  # a damaged frame: skip it, never stop the loop
            log.warning("frame %s skipped: %s", getattr(frame, "seq", "?"), exc)
            return []
        seen = []
        for event in events:
            if self.zone is not None and event.zone is not None and event.zone != self.zone:
                continue
            self.events += 1
            seen.append(CardSeen(event.card_id, event.first_seen_ns, event.score, event.margin))
        return seen

    @property
    def status(self) -> str | None:
        return self._status

    def close(self) -> None:
        if self._started:
            self.camera.close()


def load_items_deck(path: str | None) -> Any:
    """The enrolled item deck at ``path``, or the generated demo deck."""
    from vision.deck import load_deck
    from vision.demo_decks import demo_deck

    return load_deck(Path(os.path.expanduser(path)) if path else demo_deck(ITEMS_DECK))


class CardPicture:
    """A card's template as RGB, read from the deck when the screen shows the card (an
    array-like: ``np.asarray(picture)``). The screen makes a surface of the one card it
    shows; holding every template decoded for it would cost 180 kB a card all game long."""

    def __init__(self, deck: Any, card_id: str) -> None:
        self.deck = deck
        self.card_id = card_id

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> Any:
        rgb = self.deck.template(self.card_id)[..., ::-1]
        return rgb if dtype is None else rgb.astype(dtype)


def item_cards(deck: Any) -> Mapping[str, CardInfo]:
    """What the screen shows of each card: names and the template (as RGB, read on use)."""
    return {c.id: CardInfo(c.name_zh, c.name_en, CardPicture(deck, c.id)) for c in deck.cards}


def _one_vision_thread() -> None:
    """Vision runs in the app's loop on single small frames: OpenCV's worker threads cost
    more CPU than they save there (find + match 23 ms CPU per frame with one thread against
    34 ms with two, ``tablekeeper bench vision --threads``), and the other cores stay free
    for the screen. Process-wide, so set once by whoever builds the camera pipeline."""
    import cv2

    cv2.setNumThreads(1)


def simulated_camera_pipeline(clock: Clock, seed: int,
                               deck: Any | None = None) -> tuple[Any, WatchedCamera]:
    """The demo's camera: a simulated table showing ``deck`` (default: the demo item deck),
    and its watcher. Pass the deck the screen already holds: a second copy of the templates
    costs about 12 MB."""
    from vision.simtable import SimulatedTable
    from vision.tracker import CardWatcher

    if deck is None:
        deck = load_items_deck(None)
    _one_vision_thread()
    table = SimulatedTable(deck, seed=seed, clock=clock.now_ns)
    return table, WatchedCamera(table, CardWatcher(deck))


def camera_pipeline(config: Config, clock: Clock, *, simulate: bool = False,
                    on_status: Callable[[Any], None] | None = None) -> tuple[WatchedCamera, Any]:
    """The kiosk's camera from the config's ``[camera]`` and ``[vision]`` sections."""
    from vision.camera import CameraConfig, resilient_camera
    from vision.config import VisionConfig
    from vision.tracker import CardWatcher

    deck = load_items_deck(config.table.items_deck or None)
    camera_section = dict(config.sections.get("camera", {}))
    if simulate:
        camera_section["source"] = "sim"
    camera_config = CameraConfig.from_dict(camera_section)
    vision_config = VisionConfig.from_dict(config.sections.get("vision", {}))
    camera = resilient_camera(camera_config, deck=deck, clock=clock.now_ns, on_status=on_status)
    zone = "centre" if any(z.name == "centre" for z in vision_config.zones) else None
    watcher = CardWatcher(deck, vision_config)
    _one_vision_thread()
    return WatchedCamera(camera, watcher, frame_ns=round(1e9 / camera_config.fps),
                         zone=zone), deck
