"""The camera as the app loop sees it: frames in, settled item cards out.

Two card sources with the same face (``poll(now_ns)``, ``reoffer()``, ``status``,
``close()``, and the
``frames`` / ``events`` counters the demo prints):

- :class:`CameraThread`, at the table (the kiosk, the windowed demo): a background thread owns
  the camera and the :class:`vision.tracker.CardWatcher`. It captures and recognises frames at
  the camera's pace while the loop is watching (``poll`` called within the last few frame
  periods) and idles on a condition otherwise; ``poll`` only drains what it found, so the
  screen never waits on a capture (up to 33 ms on a Pi) or on recognition (20-130 ms here,
  several times that on a Pi 4).
- :class:`WatchedCamera`, where the clock is simulated (the headless demo, tests): captures a
  frame when one is due and recognises it inline, so a run is the same every time.

Either reports each card that settled in the centre-pile zone as a
:class:`tablekeeper.referee.CardSeen` stamped with the frame in which the card *first became
visible* -- the instant the buzzers are armed at -- never with the time the loop got it. A
camera that is unplugged is reconnected with back-off by :class:`vision.camera.ResilientCamera`;
the loop keeps going and the screen shows the camera's status. A card first seen in the first
``LYING_FRAMES`` frames after the camera started or came back is marked ``lying``: it may have
lain there before (on a card the host turned over by hand while the camera was missing, the
referee holds it until the host says whether it is that card or the next).
"""

from __future__ import annotations

import dataclasses
import logging
import math
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from tablekeeper.clock import Clock, FakeClock
from tablekeeper.config import Config
from tablekeeper.referee import CardSeen
from tablekeeper.screen import CardInfo

log = logging.getLogger("tablekeeper.vision")

FRAME_NS = 33_333_333
ITEMS_DECK = "something-missing-items"
#: camera states the screen has words for (``status.camera_<state>`` in display.i18n)
KEYED_STATES = ("disconnected", "starting", "ended", "closed")


def _camera_status(camera: Any) -> tuple[bool, str | None]:
    """(whether the camera reports a status, the text for the screen: a ``status.*`` key --
    ``key:N`` with a number for the key's ``{n}`` --, raw text, or None when it is fine)."""
    status = getattr(camera, "status", None)
    if status is None or callable(status):
        return False, None
    if status.ok:
        return True, None
    retry = getattr(status, "retry_in_s", None)
    if status.state == "disconnected" and retry is not None and retry > 0:
        return True, f"status.camera_retrying:{math.ceil(retry)}"  # the countdown, in seconds
    if status.state in KEYED_STATES:
        return True, f"status.camera_{status.state}"
    return True, f"{status.message_zh} {status.message_en}"


#: Frames after the camera starts or comes back in which a card first seen is ``lying``.
LYING_FRAMES = 5


class Restarts:
    """The first frames a camera delivered after it started or came back (after frames
    missed: no frame, or the camera failed): a card first seen in them may have lain on the
    table before, where the camera could not see it."""

    def __init__(self, frames: int = LYING_FRAMES) -> None:
        if frames < 1:
            raise ValueError(f"frames: {frames} is not at least 1")
        self.frames = frames
        self._left = frames
        self._window: tuple[int, int] | None = None  # (first, last) frame time, ns

    def missed(self) -> None:
        """No frame: the next one starts anew."""
        self._left = self.frames

    def delivered(self, t_ns: int) -> None:
        if self._left == self.frames:
            self._window = (t_ns, t_ns)
        elif self._left > 0 and self._window is not None:
            self._window = (self._window[0], t_ns)
        self._left = max(0, self._left - 1)

    def lying(self, first_seen_ns: int) -> bool:
        return self._window is not None and self._window[0] <= first_seen_ns <= self._window[1]


#: the zones a camera reports cards in: one name, several (a game's rows or cells), or None
Zones = str | frozenset[str] | None


def _in_zones(name: str | None, zone: Zones) -> bool:
    if zone is None or name is None:
        return True
    return name == zone if isinstance(zone, str) else name in zone


def _cards_seen(events: Iterable[Any], zone: Zones, restarts: Restarts) -> list[CardSeen]:
    """The watcher's events in ``zone`` (None: any) as the referee's ``CardSeen``, stamped
    with the frame the card was first visible in. A game's own watcher may give
    ``CardSeen`` values already (眨眨眼's cell readings): they go on as they are, marked
    ``lying`` the same way."""
    out: list[CardSeen] = []
    for e in events:
        if not _in_zones(e.zone, zone):
            continue
        if isinstance(e, CardSeen):
            out.append(dataclasses.replace(e, lying=restarts.lying(e.t_ns)))
        else:
            corners = getattr(e, "corners", ())
            centre = ((sum(p[0] for p in corners) / len(corners),
                       sum(p[1] for p in corners) / len(corners)) if corners else None)
            out.append(CardSeen(e.card_id, e.first_seen_ns, e.score, e.margin,
                                lying=restarts.lying(e.first_seen_ns), zone=e.zone,
                                centre=centre))
    return out


def _unsure(watcher: Any, zone: Zones) -> list[Any]:
    """The cards ``watcher`` found but could not name that settled since it was last asked
    (``take_unsure()``: :class:`vision.tracker.UnsureCard`), in ``zone``. A watcher without
    it (a test's, a game's own that reads none) gives none."""
    take = getattr(watcher, "take_unsure", None)
    if not callable(take):
        return []
    return [u for u in take() if _in_zones(u.zone, zone)]


def _forget(watcher: Any) -> None:
    """Make ``watcher`` report again the cards it sees (``CardWatcher.forget``; a watcher
    without it, e.g. a test's, is left alone)."""
    forget = getattr(watcher, "forget", None)
    if callable(forget):
        forget()


class WatchedCamera:
    """A camera (plain or resilient) and a card watcher, polled by the app loop: the frame is
    captured and recognised inside ``poll`` (deterministic on a simulated clock)."""

    def __init__(self, camera: Any, watcher: Any, *, frame_ns: int = FRAME_NS,
                 zone: Zones = None) -> None:
        self.camera = camera
        self.watcher = watcher
        self.frame_ns = frame_ns
        self.zone = zone
        self._next_ns: int | None = None
        self._started = False
        self.frames = 0
        self.events = 0
        self._status: str | None = None
        self._restarts = Restarts()
        self._unsure: list[Any] = []

    def poll(self, now_ns: int) -> list[CardSeen]:
        if self._next_ns is not None and now_ns < self._next_ns:
            return []
        self._next_ns = now_ns + self.frame_ns
        if not self._started:
            self.camera.start()
            self._started = True
        frame = self.camera.capture()
        reports, status = _camera_status(self.camera)
        if reports:
            self._status = status
        if frame is None:
            self._restarts.missed()
            return []
        self.frames += 1
        self._restarts.delivered(int(frame.t_ns))
        try:
            events = self.watcher.process(frame)
        except ValueError as exc:  # a damaged frame: skip it, never stop the loop
            log.warning("frame %s skipped: %s", getattr(frame, "seq", "?"), exc)
            return []
        seen = _cards_seen(events, self.zone, self._restarts)
        self._unsure.extend(_unsure(self.watcher, self.zone))
        self.events += len(seen)
        return seen

    def questions(self) -> list[Any]:
        """The cards found but not named that settled since the last call
        (:class:`vision.tracker.UnsureCard`; the loop asks the host about them)."""
        out, self._unsure = self._unsure, []
        return out

    def reoffer(self) -> None:
        """Report again the cards in view (a move was undone): see :func:`_forget`."""
        _forget(self.watcher)

    @property
    def status(self) -> str | None:
        return self._status

    def close(self) -> None:
        if self._started:
            self._started = False
            self.camera.close()


class CameraThread:
    """A camera and a card watcher run by a background thread; the app loop's ``poll`` only
    drains what the thread found and never waits.

    The thread is started by the first ``poll``. It captures and recognises a frame at most
    every ``frame_ns`` while the loop is watching -- ``poll`` called within the last
    ``idle_after_ns`` (default: four frame periods) -- and otherwise waits on a condition
    until the next ``poll``: vision costs CPU the screen needs. Only the thread touches the
    camera and the watcher (neither is thread-safe), including closing the camera when it
    stops. ``timer`` (ns) measures that pace and the idle time; it is the real monotonic clock
    except in tests. Frame timestamps are the camera's own.

    A damaged frame (``ValueError`` from ``process``) is logged and skipped. Any other error,
    from the camera or the watcher, is logged with its traceback and becomes :attr:`status`
    (shown on the screen) until a frame is recognised again; the thread carries on with the
    next frame after ``error_backoff_s``, doubling up to ``max_backoff_s`` while it repeats.
    At most ``max_queued`` cards wait for the loop; beyond that the oldest are dropped (and
    logged) -- the loop only stops draining when it stops watching, and then the thread idles.
    """

    #: :attr:`status` while the thread's last frame failed: the screen says so in its language
    #: (``status.vision_error``); what failed is in the log and in :attr:`error`.
    ERROR_STATUS = "status.vision_error"

    def __init__(self, camera: Any, watcher: Any, *, frame_ns: int = FRAME_NS,
                 zone: Zones = None, idle_after_ns: int | None = None,
                 timer: Callable[[], int] = time.monotonic_ns, error_backoff_s: float = 0.5,
                 max_backoff_s: float = 10.0, max_queued: int = 64,
                 join_timeout_s: float = 2.0) -> None:
        if frame_ns < 0 or (idle_after_ns is not None and idle_after_ns < 0):
            raise ValueError("frame_ns and idle_after_ns must be >= 0")
        if max_queued < 1:
            raise ValueError("max_queued must be at least 1")
        self.camera = camera
        self.watcher = watcher
        self.frame_ns = frame_ns
        self.zone = zone
        self.idle_after_ns = 4 * frame_ns if idle_after_ns is None else idle_after_ns
        self.timer = timer
        self.error_backoff_s = error_backoff_s
        self.max_backoff_s = max_backoff_s
        self.join_timeout_s = join_timeout_s
        #: frames captured by the thread; cards handed to the loop; cards dropped unread
        self.frames = 0
        self.events = 0
        self.dropped = 0
        #: set while the thread waits for the loop to watch again (for tests and benches)
        self.idle = threading.Event()
        self._cond = threading.Condition()
        self._queue: deque[CardSeen] = deque()
        self._max_queued = max_queued
        self._last_poll: int | None = None
        self._waiting = False  # the thread waits for a poll (guarded by _cond)
        self._stopping = False
        self._closed = False
        self._thread: threading.Thread | None = None
        self._camera_status: str | None = None
        #: What the last frame failed with ("RuntimeError: ..."), None once one is recognised.
        self.error: str | None = None
        self._restarts = Restarts()
        #: Bumped by :meth:`reoffer`: a frame recognised under an older one is not handed on
        #: (its cards are reported again), and the thread makes the watcher forget first.
        self._generation = 0
        self._forgot = 0
        #: cards found but not named, settled, waiting for the loop (guarded by _cond)
        self._unsure: deque[Any] = deque(maxlen=max_queued)

    # --- the loop's side -----------------------------------------------------------------

    def poll(self, now_ns: int) -> list[CardSeen]:
        """The cards the thread found since the last poll (never blocks). ``now_ns`` is the
        loop's clock, unused: the thread keeps the camera's pace on its own timer."""
        with self._cond:
            if self._closed:
                return []
            self._last_poll = self.timer()
            seen = list(self._queue)
            self._queue.clear()
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="tablekeeper-camera",
                                                daemon=True)
                self._thread.start()
            elif self._waiting:
                self._cond.notify_all()
        self.events += len(seen)
        return seen

    def questions(self) -> list[Any]:
        """The cards found but not named that settled since the last call (never blocks;
        :class:`vision.tracker.UnsureCard`: the loop asks the host about them)."""
        with self._cond:
            out = list(self._unsure)
            self._unsure.clear()
        return out

    def reoffer(self) -> None:
        """Report again the cards in view (a move was undone): the cards waiting for the
        loop are dropped and the thread makes the watcher forget what it reported before its
        next frame (only the thread touches the watcher); a frame under way then is not
        handed on."""
        with self._cond:
            self._generation += 1
            self._queue.clear()
            self._cond.notify_all()

    def wait_for_cards(self, timeout_s: float) -> bool:
        """Block until cards wait to be polled (True) or ``timeout_s`` passed (False). For
        tests and benches: the loop itself never waits."""
        with self._cond:
            return self._cond.wait_for(lambda: bool(self._queue), timeout=timeout_s)

    @property
    def status(self) -> str | None:
        return self.ERROR_STATUS if self.error is not None else self._camera_status

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def close(self) -> None:
        """Stop the thread and wait for it (at most ``join_timeout_s``); it closes the camera
        as it stops. Closing again does nothing."""
        with self._cond:
            if self._closed:
                return
            self._closed = self._stopping = True
            thread = self._thread
            self._cond.notify_all()
        if thread is not None:
            thread.join(self.join_timeout_s)
            if thread.is_alive():
                log.error("the camera thread did not stop within %g s; it closes the camera "
                          "when it does", self.join_timeout_s)

    # --- the thread's side ---------------------------------------------------------------

    def _run(self) -> None:
        started = False
        backoff = self.error_backoff_s
        due = 0
        try:
            while self._next_turn(due):
                due = self.timer() + self.frame_ns
                try:
                    if not started:
                        self.camera.start()
                        started = True
                    seen = self._one_frame()
                except Exception as exc:  # never the end of vision: say so, then carry on
                    backoff = self._failed(exc, backoff)
                    continue
                if seen is None:
                    continue
                self.error = None
                backoff = self.error_backoff_s
                if seen[1]:
                    self._put(*seen)
        finally:
            if started:
                try:
                    self.camera.close()
                except Exception:
                    log.exception("closing the camera failed")

    def _one_frame(self) -> tuple[int, list[CardSeen]] | None:
        """Capture and recognise one frame: the :attr:`_generation` it was recognised
        under and its cards, or None when there was no frame or it was damaged."""
        with self._cond:
            generation = self._generation
        if self._forgot != generation:
            _forget(self.watcher)
            self._forgot = generation
        try:
            frame = self.camera.capture()
        except Exception:
            self._restarts.missed()
            raise
        reports, status = _camera_status(self.camera)
        if reports:
            self._camera_status = status
        if frame is None:
            self._restarts.missed()
            return None
        self.frames += 1
        self._restarts.delivered(int(frame.t_ns))
        try:
            events = self.watcher.process(frame)
        except ValueError as exc:  # a damaged frame: skip it
            log.warning("frame %s skipped: %s", getattr(frame, "seq", "?"), exc)
            return None
        unsure = _unsure(self.watcher, self.zone)
        if unsure:
            with self._cond:
                if generation == self._generation:
                    self._unsure.extend(unsure)
        return generation, _cards_seen(events, self.zone, self._restarts)

    def _next_turn(self, due: int) -> bool:
        """Wait until the loop wants a frame and one is due (True), or the source is closed
        (False)."""
        with self._cond:
            while not self._stopping:
                now = self.timer()
                if self._last_poll is None or now - self._last_poll > self.idle_after_ns:
                    self._waiting = True
                    self.idle.set()
                    self._cond.wait()
                    self._waiting = False
                    self.idle.clear()
                elif now < due:
                    self._cond.wait((due - now) / 1e9)
                else:
                    return True
            return False

    def _failed(self, exc: Exception, backoff: float) -> float:
        log.error("camera thread: %s; trying again in %g s", exc, backoff, exc_info=exc)
        self.error = f"{type(exc).__name__}: {exc}"[:200]
        with self._cond:
            self._cond.wait_for(lambda: self._stopping, timeout=backoff)
        return min(self.max_backoff_s, backoff * 2)

    def _put(self, generation: int, seen: list[CardSeen]) -> None:
        with self._cond:
            if generation != self._generation:
                return  # recognised before a reoffer: the next frames report them again
            self._queue.extend(seen)
            self._cond.notify_all()
            over = len(self._queue) - self._max_queued
            for _ in range(max(0, over)):
                dropped = self._queue.popleft()
                self.dropped += 1
                log.warning("card %s seen at %d dropped: the loop has not read the camera's "
                            "cards for a while", dropped.card_id, dropped.t_ns)


class LockedCamera:
    """A camera shared by two threads: every method call holds one lock. The windowed demo's
    simulated players lay cards on the simulated table from the loop while the camera thread
    captures it; a real camera has one user and needs none of this."""

    def __init__(self, camera: Any) -> None:
        self._camera = camera
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._camera, name)
        if not callable(value):
            return value

        def locked(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                return value(*args, **kwargs)

        return locked


#: what the pipelines below return
VisionSource = WatchedCamera | CameraThread


def load_game_deck(path: str | None, demo: str) -> Any:
    """The enrolled deck at ``path`` (``~`` expanded), or the generated demo deck ``demo``
    (a name in :mod:`vision.demo_decks`): what a kit's ``deck`` loads."""
    from vision.deck import load_deck
    from vision.demo_decks import demo_deck

    return load_deck(Path(os.path.expanduser(path)) if path else demo_deck(demo))


def with_search_width(vision_config: Any, vision_section: Any, search_width: int | None,
                      frame_width: int) -> Any:
    """``vision_config`` searching frames at the game's ``search_width`` (at most
    ``frame_width``) unless the config's ``[vision.find]`` sets ``work_width`` itself."""
    import dataclasses

    find_section = vision_section.get("find", {}) if isinstance(vision_section, dict) else {}
    if search_width is None or (isinstance(find_section, dict) and "work_width" in find_section):
        return vision_config
    width = max(vision_config.find.work_width, min(search_width, frame_width))
    return dataclasses.replace(vision_config, find=dataclasses.replace(vision_config.find,
                                                                       work_width=width))


#: camera sources that are not a real table (a demo deck is what they are for)
STAND_IN_SOURCES = ("sim", "folder")


def demo_deck_warning(deck: Any, source: str, game: str) -> str | None:
    """The warning when a real camera (``[camera] source``) watches a demo deck: the game's
    ``[table.decks]`` entry is missing, so the published cards on the table will not be
    recognised. None when the deck is enrolled or the camera is a stand-in.

    The kiosk logs it at start and ``tablekeeper selftest`` prints it; it is also the hook for
    the set-up screen's own notice (issue 28): call it with the kit's deck and the camera
    source and show the text."""
    if source in STAND_IN_SOURCES or not getattr(deck, "demo", False):
        return None
    return (f"{game}: a real camera ({source}) but the demo deck: cards printed for the game "
            f"will not be recognised. Enrol the deck (hardware.md section 5) and name its "
            f"folder in the config: [table.decks] {game} = \"/var/lib/tablekeeper/decks/"
            f"{game}\"")


def load_items_deck(path: str | None) -> Any:
    """The enrolled item deck at ``path``, or the generated demo deck."""
    return load_game_deck(path, ITEMS_DECK)


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
    """Vision runs on single small frames, one at a time: OpenCV's worker threads cost
    more CPU than they save there (find + match 23 ms CPU per frame with one thread against
    34 ms with two, ``tablekeeper bench vision --threads``), and the other cores stay free
    for the screen. Process-wide, so set once by whoever builds the camera pipeline."""
    import cv2

    cv2.setNumThreads(1)


def _check_threaded(threaded: bool, clock: Clock) -> None:
    if threaded and isinstance(clock, FakeClock):
        raise ValueError("a camera thread needs a real clock: on a FakeClock the camera is "
                         "read inline (threaded=False), so a run is reproducible")


def simulated_camera_pipeline(clock: Clock, seed: int, deck: Any | None = None, *,
                              threaded: bool = False,
                              recognise: Any | None = None) -> tuple[Any, VisionSource]:
    """The demo's camera: a simulated table showing ``deck`` (default: the demo item deck),
    and its watcher. Pass the deck the screen already holds: a second copy of the templates
    costs about 12 MB. ``threaded``: a :class:`CameraThread` (real clocks only); the table
    returned is then a :class:`LockedCamera`, for the simulated players to lay cards on.
    ``recognise``: the deck the watcher recognises with (default: ``deck``; the deck
    ``tablekeeper demo --from-scratch`` enrolled)."""
    from vision.simtable import SimulatedTable
    from vision.tracker import CardWatcher

    _check_threaded(threaded, clock)
    if deck is None:
        deck = load_items_deck(None)
    _one_vision_thread()
    table = SimulatedTable(deck, seed=seed, clock=clock.now_ns)
    seen = recognise if recognise is not None else deck
    if threaded:
        shared = LockedCamera(table)
        return shared, CameraThread(shared, CardWatcher(seen))
    return table, WatchedCamera(table, CardWatcher(seen))


@dataclasses.dataclass(frozen=True)
class CameraContext:
    """What a game's own watcher factory (``Kit.watcher``) is given by
    :func:`camera_pipeline`: the deck, the parsed ``[vision]`` and ``[camera]`` sections,
    the whole config and its file (for files named next to it), whether the camera is the
    simulated table, the game's zones, and ``tell`` (a problem for the host: the screen's
    banner and the log)."""

    deck: Any
    vision: Any  # vision.config.VisionConfig
    camera: Any  # vision.camera.CameraConfig
    config: Config
    config_path: Path | None
    simulate: bool
    zones: tuple[str, ...]
    #: ``tell(problem, key=None)``: the builder's account, and the players' message (an
    #: i18n id) if the caller has one
    tell: Callable[..., None]


def _log_problem(problem: str, key: str | None = None) -> None:
    log.error("%s", problem)


def camera_pipeline(config: Config, clock: Clock, *, simulate: bool = False,
                    on_status: Callable[[Any], None] | None = None,
                    threaded: bool = False, deck: Any | None = None,
                    zones: tuple[str, ...] | None = ("centre",),
                    watcher: Callable[[CameraContext], Any] | None = None,
                    config_path: Path | None = None,
                    tell: Callable[..., None] | None = None,
                    search_width: int | None = None) -> tuple[VisionSource, Any]:
    """The kiosk's camera from the config's ``[camera]`` and ``[vision]`` sections
    (``threaded``: read by a :class:`CameraThread`; real clocks only), watching ``deck``
    (default: the item deck of ``[table] items_deck``). ``zones``: the game's zones (its
    kit's table adapter); cards in every one of them that the calibration has are reported
    (none calibrated: cards anywhere). ``watcher``: the game's own watcher factory (its
    kit's ``watcher``: 眨眨眼 reads cells and markers), given a :class:`CameraContext`;
    None: the card recogniser. ``tell``: where its problems go (default: the log).
    ``search_width``: the game's search width (its kit's ``search_width``), used unless the
    config sets ``[vision.find] work_width``; never wider than the frame."""
    from vision.camera import CameraConfig, resilient_camera
    from vision.config import VisionConfig
    from vision.tracker import CardWatcher

    _check_threaded(threaded, clock)
    if deck is None:
        deck = load_items_deck(config.table.items_deck or None)
    camera_section = dict(config.sections.get("camera", {}))
    if simulate:
        camera_section["source"] = "sim"
    camera_config = CameraConfig.from_dict(camera_section)
    vision_section = config.sections.get("vision", {})
    vision_config = VisionConfig.from_dict(vision_section)
    vision_config = with_search_width(vision_config, vision_section, search_width,
                                      camera_config.size[0])
    # threaded (the kiosk): a read that hangs is a camera fault after read_timeout_s
    camera = resilient_camera(camera_config, deck=deck, clock=clock.now_ns, on_status=on_status,
                              bounded=threaded)
    warning = demo_deck_warning(deck, camera_config.source, str(getattr(deck, "game", "")))
    if warning:
        log.warning("%s", warning)
    calibrated = {z.name for z in vision_config.zones}
    wanted = frozenset(z for z in zones or () if z in calibrated)
    # every calibrated zone of the game (The Game's four rows, Wink's 36 cells)
    zone: Zones = None if not wanted else next(iter(wanted)) if len(wanted) == 1 else wanted
    if watcher is None:
        seer: Any = CardWatcher(deck, vision_config)
    else:
        seer = watcher(CameraContext(deck, vision_config, camera_config, config, config_path,
                                     simulate or camera_config.source == "sim",
                                     tuple(zones or ()), tell or _log_problem))
    _one_vision_thread()
    frame_ns = round(1e9 / camera_config.fps)
    if threaded:
        return CameraThread(camera, seer, frame_ns=frame_ns, zone=zone), deck
    return WatchedCamera(camera, seer, frame_ns=frame_ns, zone=zone), deck
