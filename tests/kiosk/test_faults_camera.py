"""Fault suite, a camera that stops: a read that never returns (a real blocking read: the
source reads a FIFO nobody writes to) is a camera fault like an unplugged one -- the camera
thread's status shows it (the screen's banner), the source is reopened after the back-off, the
loop's ``poll`` never waits, and the hung source is closed when its read finally returns.

No timing assertions: every wait has a generous bound that only a broken build reaches."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from tablekeeper.vision_link import CameraThread
from vision.camera import CameraTimeout, Frame, ResilientCamera

WAIT_S = 20.0


class FifoCamera:
    """A source whose ``capture`` really blocks: ``os.read`` on a FIFO no one writes to."""

    def __init__(self, fifo: Path) -> None:
        self.fifo = fifo
        self.fd = -1
        self.closed = threading.Event()
        self.reading = threading.Event()

    def configure(self, size: tuple[int, int] | None = None) -> None:
        pass

    def start(self) -> None:
        self.fd = os.open(self.fifo, os.O_RDWR)  # never blocks; reads block until a write

    def capture(self) -> Frame:
        self.reading.set()
        os.read(self.fd, 1)
        raise OSError("the FIFO was written to: the test lets the hung read go")

    def close(self) -> None:
        os.close(self.fd)
        self.closed.set()


class GoodCamera:
    def __init__(self) -> None:
        self.seq = 0

    def configure(self, size: tuple[int, int] | None = None) -> None:
        pass

    def start(self) -> None:
        pass

    def capture(self) -> Frame:
        self.seq += 1
        time.sleep(0.01)
        return Frame(np.zeros((8, 8, 3), np.uint8), None, time.monotonic_ns(), self.seq)

    def close(self) -> None:
        pass


def _until(cond: Callable[[], bool], what: str) -> None:
    end = time.monotonic() + WAIT_S
    while not cond():
        assert time.monotonic() < end, f"{what}: not within {WAIT_S} s"
        time.sleep(0.01)


def test_a_read_that_hangs_is_a_camera_fault_and_the_camera_is_reopened(
        tmp_path: Path) -> None:
    fifo = tmp_path / "camera.fifo"
    os.mkfifo(fifo)
    hung = FifoCamera(fifo)
    made: list[Any] = []

    def open_camera() -> Any:
        cam = hung if not made else GoodCamera()
        made.append(cam)
        return cam

    # the back-off (1 s) keeps the fault on show long enough to be seen on a loaded machine
    camera = ResilientCamera(open_camera, first_retry_s=1.0, max_retry_s=1.0,
                             read_timeout_s=0.5)
    watcher = SimpleNamespace(process=lambda frame: [])
    thread = CameraThread(camera, watcher, frame_ns=10_000_000)
    seen_status: list[str | None] = []
    try:
        thread.poll(0)
        _until(hung.reading.is_set, "the hung read starts")
        # the loop keeps polling; poll never waits even while the read hangs
        end = time.monotonic() + WAIT_S
        while time.monotonic() < end:
            begin = time.monotonic()
            thread.poll(0)
            assert time.monotonic() - begin < 1.0
            seen_status.append(thread.status)
            if thread.frames > 0:
                break
            time.sleep(0.02)
        assert any(s and s.startswith("status.camera_") for s in seen_status), seen_status
        assert camera.timeouts >= 1 and "did not return within 0.5 s" in camera.status.error
        assert thread.frames > 0 and len(made) >= 2 and made[-1] is not hung  # a fresh source
        _until(lambda: thread.status is None, "the banner goes once frames come")
        assert not hung.closed.is_set()  # never closed under its hung read
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.write(fd, b"x")  # the hung read returns ...
        os.close(fd)
        _until(hung.closed.is_set, "the abandoned source is closed")  # ... and it is closed
    finally:
        thread.close()


def test_a_start_that_hangs_is_bounded_too(tmp_path: Path) -> None:
    release = threading.Event()

    class StuckStart(GoodCamera):
        def start(self) -> None:
            release.wait(WAIT_S)

    made: list[Any] = []

    def open_camera() -> Any:
        made.append(StuckStart() if not made else GoodCamera())
        return made[-1]

    camera = ResilientCamera(open_camera, first_retry_s=0.05, max_retry_s=0.05,
                             read_timeout_s=0.3)
    try:
        camera.start()
        assert camera.status.state == "disconnected" and camera.timeouts == 1
        assert CameraTimeout.__name__ in camera.status.error
        _until(lambda: camera.capture() is not None, "a fresh source after the back-off")
    finally:
        release.set()
        camera.close()

