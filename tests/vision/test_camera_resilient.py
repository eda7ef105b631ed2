"""ResilientCamera: an unplugged camera becomes a status and is reopened with back-off."""

from __future__ import annotations

import numpy as np
import pytest

from vision.camera import CameraError, CameraStatus, EndOfFrames, Frame, ResilientCamera

S = 1_000_000_000  # ns per second


class FakeClock:
    def __init__(self) -> None:
        self.ns = 0

    def __call__(self) -> int:
        return self.ns

    def at(self, seconds: float) -> None:
        self.ns = round(seconds * S)


class World:
    """Whether the camera is plugged in, and a source that fails on its Nth capture."""

    def __init__(self) -> None:
        self.present = True
        self.fail_on: int | None = None  # capture number (1-based, per opened source)
        self.opens = 0
        self.closes = 0
        self.sizes: list[tuple[int, int] | None] = []

    def open(self) -> Source:
        self.opens += 1
        if not self.present:
            raise OSError("/dev/video0: No such device")
        return Source(self)


class Source:
    def __init__(self, world: World) -> None:
        self.world = world
        self.captures = 0
        self.started = False

    def configure(self, size: tuple[int, int] | None = None) -> None:
        self.world.sizes.append(size)

    def start(self) -> None:
        self.started = True

    def capture(self) -> Frame:
        assert self.started
        self.captures += 1
        if not self.world.present or self.captures == self.world.fail_on:
            self.world.present = False
            raise CameraError("camera unplugged")
        return Frame(np.zeros((4, 4, 3), np.uint8), None, self.captures, self.captures - 1)

    def close(self) -> None:
        self.world.closes += 1
        raise RuntimeError("close of a dead device fails too")  # must not escape


def test_reconnects_with_exponential_backoff() -> None:
    clock, world = FakeClock(), World()
    world.fail_on = 4
    statuses: list[CameraStatus] = []
    cam = ResilientCamera(world.open, clock=clock, size=(64, 48), first_retry_s=1,
                          max_retry_s=8, on_status=statuses.append)
    cam.start()
    assert [cam.capture() is not None for _ in range(3)] == [True, True, True]
    assert cam.status.ok and cam.status.message_en == "camera ok"
    assert cam.capture() is None  # unplugged on the 4th capture
    st = cam.status
    assert (st.state, st.failures, st.retry_in_s) == ("disconnected", 1, 1.0)
    assert st.message_en == "camera disconnected, retrying in 1 s"
    assert st.message_zh == "攝影機已斷線，1 秒後重試"
    assert "camera unplugged" in st.error
    assert world.closes == 1

    clock.at(0.5)
    assert cam.capture() is None and world.opens == 1  # no attempt before the back-off
    assert cam.status.retry_in_s == pytest.approx(0.5)
    attempts = []
    for t in (1.0, 3.0, 7.0, 15.0, 23.0):  # back-off 1, 2, 4, 8, then capped at 8
        clock.at(t - 0.01)
        assert cam.capture() is None
        clock.at(t)
        assert cam.capture() is None
        attempts.append((world.opens, cam.status.failures, cam.status.retry_in_s))
    assert attempts == [(2, 2, 2.0), (3, 3, 4.0), (4, 4, 8.0), (5, 5, 8.0), (6, 6, 8.0)]
    assert cam.status.message_en == "camera disconnected, retrying in 8 s"

    world.present = True
    world.fail_on = None
    clock.at(31.0)
    frame = cam.capture()
    assert frame is not None and frame.seq == 0  # a fresh source
    assert cam.status.ok and cam.status.failures == 0
    assert world.sizes[-1] == (64, 48)  # reconfigured on reconnect

    world.fail_on = 2  # fails again: the back-off starts from the beginning
    assert cam.capture() is None
    assert cam.status.retry_in_s == 1.0
    assert [s.state for s in statuses][:3] == ["ok", "disconnected", "disconnected"]
    assert statuses[-1].state == "disconnected"


def test_missing_at_start_is_a_status() -> None:
    clock, world = FakeClock(), World()
    world.present = False
    cam = ResilientCamera(world.open, clock=clock)
    assert cam.status.state == "starting"
    assert cam.status.message_zh == "攝影機啟動中"
    cam.start()  # does not raise
    assert cam.status.state == "disconnected"
    assert "No such device" in cam.status.error
    world.present = True
    clock.at(1.0)
    assert cam.capture() is not None


def test_any_exception_is_contained() -> None:
    clock = FakeClock()

    def open_broken() -> Source:
        raise ValueError("driver bug")

    cam = ResilientCamera(open_broken, clock=clock)
    assert cam.capture() is None
    assert cam.status.error == "ValueError: driver bug"


def test_end_of_frames_stops_without_retrying() -> None:
    class Finite(Source):
        def capture(self) -> Frame:
            raise EndOfFrames("no more images")

    world = World()
    cam = ResilientCamera(lambda: Finite(world), clock=FakeClock())
    assert cam.capture() is None
    assert cam.status.state == "ended" and cam.status.message_en == "no more frames"
    assert cam.capture() is None
    cam.close()
    assert cam.status.state == "closed"


def test_bad_backoff_settings() -> None:
    with pytest.raises(ValueError, match="first_retry_s"):
        ResilientCamera(World().open, first_retry_s=10, max_retry_s=1)
