"""The camera thread: the app loop's ``poll`` drains what a background thread recognised and
never waits on the camera or on recognition.

Real threads, no sleeps and no timing assertions: the tests hold the thread with events and
queues (a camera stand-in hands out the frames the test feeds it and says when it is asked for
one; a watcher stand-in can be held inside ``process``), and every wait has a timeout so that a
bug fails the test instead of hanging it.
"""

from __future__ import annotations

import logging
import queue
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tablekeeper.clock import FakeClock, MonotonicClock
from tablekeeper.referee import CardSeen
from tablekeeper.vision_link import (
    CameraThread,
    LockedCamera,
    camera_pipeline,
    load_items_deck,
    simulated_camera_pipeline,
)

WAIT_S = 10.0  # only ever reached when something is broken
IDLE_AFTER_NS = 100


class FedCamera:
    """Hands out the frames the test feeds it (an exception instance is raised instead), and
    numbers each ``capture`` call in ``asked`` as it is made."""

    def __init__(self) -> None:
        self.frames: queue.Queue[Any] = queue.Queue()
        self.asked: queue.Queue[int] = queue.Queue()
        self.captures = 0
        self.started = 0
        self.closed = 0

    def start(self) -> None:
        self.started += 1

    def capture(self) -> Any:
        self.captures += 1
        self.asked.put(self.captures)
        item = self.frames.get(timeout=WAIT_S)
        if isinstance(item, BaseException):
            raise item
        return item

    def close(self) -> None:
        self.closed += 1

    def wait_asked(self, n: int) -> None:
        """Wait for the n-th capture call: everything done with frame n-1 is then done."""
        while self.asked.get(timeout=WAIT_S) < n:
            pass


class HeldWatcher:
    """``process`` says which frame it entered, waits for ``gate``, then returns (or raises)
    what ``results`` holds for that frame's seq (default: no cards)."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.gate.set()
        self.entered: queue.Queue[int] = queue.Queue()
        self.results: dict[int, Any] = {}
        self.threads: set[str] = set()

    def process(self, frame: Any) -> Any:
        self.threads.add(threading.current_thread().name)
        self.entered.put(frame.seq)
        assert self.gate.wait(timeout=WAIT_S)
        result = self.results.get(frame.seq, [])
        if isinstance(result, BaseException):
            raise result
        return result


def frame(seq: int, t_ns: int) -> SimpleNamespace:
    return SimpleNamespace(seq=seq, t_ns=t_ns)


def event(card_id: str, first_seen_ns: int, zone: str | None = "centre") -> SimpleNamespace:
    return SimpleNamespace(card_id=card_id, first_seen_ns=first_seen_ns, zone=zone, score=0.9,
                           margin=0.3)


def make(**kwargs: Any) -> tuple[CameraThread, FedCamera, HeldWatcher, FakeClock]:
    camera, watcher, timer = FedCamera(), HeldWatcher(), FakeClock()
    kwargs = {"frame_ns": 0, "idle_after_ns": IDLE_AFTER_NS, "timer": timer.now_ns,
              "error_backoff_s": 0.0, **kwargs}
    return CameraThread(camera, watcher, **kwargs), camera, watcher, timer


def go_idle(source: CameraThread, camera: FedCamera, timer: FakeClock) -> None:
    """Stop polling (the timer passes the idle time) and release the capture the thread waits
    in: the thread must then wait for the next poll."""
    timer.advance(IDLE_AFTER_NS + 1)
    camera.frames.put(None)
    assert source.idle.wait(timeout=WAIT_S)


def test_poll_returns_at_once_while_a_frame_is_recognised_and_keeps_its_timestamp() -> None:
    source, camera, watcher, timer = make()
    watcher.gate.clear()
    watcher.results[1] = [event("i07", first_seen_ns=1_000_000)]
    assert source.poll(0) == []  # starts the thread
    camera.frames.put(frame(1, t_ns=1_066_666))
    assert watcher.entered.get(timeout=WAIT_S) == 1  # recognition is now held
    for now in (1, 2, 3):
        assert source.poll(now) == []  # the loop does not wait for it
    assert watcher.threads == {"tablekeeper-camera"}
    watcher.gate.set()
    camera.wait_asked(2)  # frame 1 is done
    timer.advance(50)
    seen = source.poll(999_999_999)
    # stamped with the frame the card was first visible in, not the frame that confirmed
    # it, nor the time the loop drained it
    assert seen == [CardSeen("i07", 1_000_000, 0.9, 0.3, zone="centre")]
    assert source.poll(1_000_000_000) == []
    assert (source.frames, source.events, source.status) == (1, 1, None)
    go_idle(source, camera, timer)
    source.close()


def test_only_the_watched_zone_is_reported() -> None:
    source, camera, watcher, timer = make(zone="centre")
    watcher.results[1] = [event("i01", 5, zone="seat-1"), event("i02", 6, zone="centre"),
                          event("i03", 7, zone=None)]
    source.poll(0)
    camera.frames.put(frame(1, 10))
    camera.wait_asked(2)
    assert [s.card_id for s in source.poll(1)] == ["i02", "i03"]
    go_idle(source, camera, timer)
    source.close()


def test_every_zone_of_a_game_is_reported() -> None:
    source, camera, watcher, timer = make(zone=frozenset({"row1", "row2", "row3", "row4"}))
    watcher.results[1] = [event("c37", 5, zone="row1"), event("c45", 6, zone="row4"),
                          event("c50", 7, zone="centre")]
    source.poll(0)
    camera.frames.put(frame(1, 10))
    camera.wait_asked(2)
    assert [(s.card_id, s.zone) for s in source.poll(1)] == [("c37", "row1"), ("c45", "row4")]
    go_idle(source, camera, timer)
    source.close()


def test_the_kiosk_pipeline_watches_all_the_games_calibrated_zones() -> None:
    from tablekeeper.config import Config

    zones = [{"name": f"row{i}", "polygon": [[100 * i, 0], [100 * i + 90, 0],
                                             [100 * i + 90, 140], [100 * i, 140]]}
             for i in range(1, 5)]
    config = Config(sections={"vision": {"zones": zones}})
    source, _deck = camera_pipeline(config, FakeClock(), simulate=True,
                                    zones=("row1", "row2", "row3", "row4", "row9"))
    assert source.zone == frozenset({"row1", "row2", "row3", "row4"})
    source.close()
    one, _deck = camera_pipeline(config, FakeClock(), simulate=True, zones=("row2",))
    assert one.zone == "row2"
    one.close()


def test_a_damaged_frame_is_logged_and_skipped(caplog: pytest.LogCaptureFixture) -> None:
    source, camera, watcher, timer = make()
    watcher.results[1] = ValueError("frame is 0x0")
    watcher.results[2] = [event("i09", 200)]
    with caplog.at_level(logging.WARNING, logger="tablekeeper.vision"):
        source.poll(0)
        camera.frames.put(frame(1, 100))
        camera.frames.put(frame(2, 200))
        camera.wait_asked(3)
        # (lying: first seen in the camera's first frames, it may have lain there before)
        assert source.poll(1) == [CardSeen("i09", 200, 0.9, 0.3, lying=True, zone="centre")]
    assert source.status is None and source.frames == 2
    assert any("frame 1 skipped: frame is 0x0" in r.getMessage() for r in caplog.records)
    go_idle(source, camera, timer)
    source.close()


@pytest.mark.parametrize("where", ["watcher", "camera", "event"])
def test_an_unexpected_error_is_shown_and_the_thread_carries_on(
        where: str, caplog: pytest.LogCaptureFixture) -> None:
    source, camera, watcher, timer = make()
    boom = RuntimeError("the matcher broke")
    first: Any = frame(1, 100)
    if where == "watcher":
        watcher.results[1] = boom
    elif where == "camera":
        first = boom
    else:  # the watcher returned something that is not an event
        watcher.results[1] = [object()]
    watcher.results[2] = [event("i11", 200)]
    with caplog.at_level(logging.ERROR, logger="tablekeeper.vision"):
        source.poll(0)
        camera.frames.put(first)
        camera.wait_asked(2)  # after the error and its back-off
        assert source.status == "status.vision_error"  # (the screen's words for it)
        if where == "event":
            assert str(source.error).startswith("AttributeError: ")
        else:
            assert source.error == "RuntimeError: the matcher broke"
        assert source.alive
        camera.frames.put(frame(2, 200))
        camera.wait_asked(3)
    assert source.poll(1) == [CardSeen("i11", 200, 0.9, 0.3, lying=True, zone="centre")]
    assert source.status is None and source.error is None  # a frame recognised clears it
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is not None  # with its traceback
    if where != "event":
        assert errors[0].exc_info[1] is boom
    go_idle(source, camera, timer)
    source.close()


def test_the_thread_idles_while_nobody_polls_and_wakes_on_the_next_poll() -> None:
    source, camera, watcher, timer = make()
    assert not source.alive  # nothing runs before the loop first watches
    source.poll(0)
    camera.frames.put(frame(1, 100))
    camera.wait_asked(2)
    go_idle(source, camera, timer)
    assert camera.captures == 2  # waiting for a poll, not for a frame
    assert watcher.entered.qsize() == 1
    watcher.results[3] = [event("i20", 300)]
    assert source.poll(1) == []  # wakes it
    camera.wait_asked(3)
    assert not source.idle.is_set()
    camera.frames.put(frame(3, 300))
    camera.wait_asked(4)
    # (the capture left waiting got no frame: the first frame after it counts as the camera
    # coming back)
    assert source.poll(2) == [CardSeen("i20", 300, 0.9, 0.3, lying=True, zone="centre")]
    go_idle(source, camera, timer)
    source.close()


def test_close_stops_and_joins_the_thread_and_closes_the_camera_once() -> None:
    source, camera, _, timer = make()
    source.poll(0)
    camera.frames.put(frame(1, 100))
    camera.wait_asked(2)
    go_idle(source, camera, timer)
    source.close()
    assert not source.alive
    assert (camera.started, camera.closed) == (1, 1)
    source.close()
    assert camera.closed == 1
    assert source.poll(5) == [] and not source.alive  # a closed source stays closed


def test_close_while_working_finishes_the_frame_then_stops() -> None:
    source, camera, watcher, _ = make()
    watcher.gate.clear()
    source.poll(0)
    camera.frames.put(frame(1, 100))
    assert watcher.entered.get(timeout=WAIT_S) == 1
    closer = threading.Thread(target=source.close)
    closer.start()
    watcher.gate.set()
    closer.join(timeout=WAIT_S)
    assert not closer.is_alive() and not source.alive
    assert camera.closed == 1 and camera.captures == 1


def test_close_before_any_poll_starts_nothing() -> None:
    source, camera, _, _ = make()
    source.close()
    assert (camera.started, camera.closed, source.alive) == (0, 0, False)


def test_cards_nobody_reads_are_bounded(caplog: pytest.LogCaptureFixture) -> None:
    source, camera, watcher, timer = make(max_queued=2)
    for seq in (1, 2, 3):
        watcher.results[seq] = [event(f"i{seq:02d}", seq * 100)]
    with caplog.at_level(logging.WARNING, logger="tablekeeper.vision"):
        source.poll(0)
        for seq in (1, 2, 3):
            camera.frames.put(frame(seq, seq * 100))
        camera.wait_asked(4)
    assert [s.card_id for s in source.poll(1)] == ["i02", "i03"]
    assert source.dropped == 1
    assert any("card i01 seen at 100 dropped" in r.getMessage() for r in caplog.records)
    go_idle(source, camera, timer)
    source.close()


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="max_queued"):
        CameraThread(FedCamera(), HeldWatcher(), max_queued=0)
    with pytest.raises(ValueError, match="frame_ns"):
        CameraThread(FedCamera(), HeldWatcher(), frame_ns=-1)


def test_a_thread_on_a_simulated_clock_is_refused() -> None:
    with pytest.raises(ValueError, match="needs a real clock"):
        simulated_camera_pipeline(FakeClock(), seed=1, threaded=True)


def test_locked_camera_calls_hold_its_lock() -> None:
    class Table:
        status = "ok"

        def place(self, card: str) -> tuple[str, bool]:
            return card, shared._lock.locked()

    shared = LockedCamera(Table())
    assert shared.place("i01") == ("i01", True)
    assert shared.status == "ok"
    assert not shared._lock.locked()


def test_cards_laid_on_the_simulated_table_come_through_the_thread() -> None:
    """The real pieces: the demo item deck on a simulated table, CardWatcher in the thread."""
    from vision.simtable import Conditions, SimulatedTable
    from vision.tracker import CardWatcher

    deck = load_items_deck(None)
    table = SimulatedTable(deck, seed=3, conditions=Conditions.clean("cloth"))
    timer = FakeClock()  # never idle: the test closes it
    source = CameraThread(LockedCamera(table), CardWatcher(deck), frame_ns=0,
                          idle_after_ns=10**18, timer=timer.now_ns)
    try:
        table.place("i07", "centre")  # before the thread starts: no lock needed yet
        assert source.poll(0) == []
        assert source.wait_for_cards(timeout_s=60)
        seen = source.poll(1)
        assert [s.card_id for s in seen] == ["i07"]
        assert seen[0].t_ns == 0  # stamped with the first frame it was visible in (seq 0)
        assert source.frames >= 2  # though confirmed in a later one
    finally:
        source.close()
    assert not source.alive


def test_the_windowed_demo_and_the_kiosk_read_the_camera_in_a_thread(tmp_path: Path) -> None:
    from tablekeeper.config import Config
    from tablekeeper.games.something_missing.demo import build_demo
    from tablekeeper.vision_link import WatchedCamera, camera_pipeline

    deck = load_items_deck(None)
    clock = MonotonicClock()
    parts = build_demo(tmp_path / "w", seed=1, players=3, variant="easy", clock=clock,
                       deck=deck, threaded=True)
    cards = parts.loop.cards
    try:
        assert isinstance(cards, CameraThread)
        assert isinstance(parts.camera, LockedCamera)  # the players lay cards through it
    finally:
        if cards is not None:
            cards.close()
        parts.firmware.close()
    headless = build_demo(tmp_path / "h", seed=1, players=3, variant="easy", clock=FakeClock(),
                          deck=deck)
    assert isinstance(headless.loop.cards, WatchedCamera)
    headless.firmware.close()

    source, _deck = camera_pipeline(Config(), clock, simulate=True, threaded=True)
    assert isinstance(source, CameraThread)
    assert source.frame_ns == 33_333_333  # the default 30 fps
    source.close()


def test_bench_loop_runs_both_ways(capsys: pytest.CaptureFixture[str]) -> None:
    from tablekeeper.cli import main

    assert main(["bench", "loop", "--seconds", "0.1", "--cards", "1", "--size", "640x480"]) == 0
    out = capsys.readouterr().out
    assert "inline" in out and "threaded" in out


def test_the_camera_status_is_a_key_the_screen_translates() -> None:
    from display.i18n import STRINGS
    from tablekeeper.vision_link import KEYED_STATES, WatchedCamera
    from vision.camera import CameraStatus

    class Camera:
        status = CameraStatus("ok", 0, None, "")

        def start(self) -> None: ...

        def capture(self) -> None:
            return None

    camera = Camera()
    source = WatchedCamera(camera, HeldWatcher(), frame_ns=0)
    seen = {}
    for state in ("ok", *KEYED_STATES, "jammed"):
        camera.status = CameraStatus(state, 1, None, "")
        source.poll(0)
        seen[state] = source.status
    assert seen["ok"] is None
    for state in KEYED_STATES:
        assert seen[state] in STRINGS
    # a state the screen has no words for is shown in both languages as the camera says it
    assert seen["jammed"] == "攝影機已斷線，正在重試 camera disconnected, retrying now"
