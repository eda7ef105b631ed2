"""Camera sources: Picamera2Source against a stand-in of picamera2, OpenCV on a real video
file, folders of images."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.camera import (
    CameraError,
    EndOfFrames,
    FolderSource,
    OpenCVSource,
    Picamera2Source,
    lock_controls,
    sensor_to_monotonic,
)

# ----------------------------------------------------------------------------- picamera2


class FakePicamera2:
    """A stand-in with the parts of picamera2's ``Picamera2`` API the source uses."""

    def __init__(self, num: int, *, has_af: bool = True, now_ns: int = 10_000_000_000,
                 fail_configure: bool = False, fail_capture: bool = False) -> None:
        self.num = num
        self.log: list[tuple[str, Any]] = []
        self.camera_controls: dict[str, Any] = (
            {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)} if has_af else {})
        self.config: dict[str, Any] = {}
        self.now_ns = now_ns
        self.fail_configure = fail_configure
        self.fail_capture = fail_capture
        self.frame = 0
        self.stride_pad = 32

    def create_video_configuration(self, **kw: Any) -> dict[str, Any]:
        self.log.append(("create_video_configuration", kw))
        return dict(kw)

    def configure(self, config: dict[str, Any]) -> None:
        if self.fail_configure:
            raise RuntimeError("Camera in use")
        self.config = config
        self.log.append(("configure", config))

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.log.append(("set_controls", dict(controls)))

    def start(self) -> None:
        self.log.append(("start", None))

    def _metadata(self) -> dict[str, Any]:
        self.frame += 1
        # auto exposure still moving during the warm-up; the last value is what gets locked
        return {"ExposureTime": 9000 + self.frame, "AnalogueGain": 1.5 + self.frame / 100,
                "ColourGains": (1.8, 1.4), "LensPosition": 2.5,
                "SensorTimestamp": self.now_ns - 20_000_000}

    def capture_metadata(self) -> dict[str, Any]:
        self.log.append(("capture_metadata", None))
        return self._metadata()

    def capture_arrays(self, names: list[str]) -> tuple[list[np.ndarray], dict[str, Any]]:
        if self.fail_capture:
            raise RuntimeError("Device disconnected")
        self.log.append(("capture_arrays", names))
        w, h = self.config["main"]["size"]
        lw, lh = self.config["lores"]["size"]
        main = np.full((h, w, 3), (10, 20, 30), np.uint8)
        yuv = np.full((lh * 3 // 2, lw + self.stride_pad), 200, np.uint8)  # padded stride
        yuv[:lh, :lw] = np.arange(lw, dtype=np.uint8)[None, :]  # the Y plane
        return [main, yuv], self._metadata()

    def stop(self) -> None:
        self.log.append(("stop", None))

    def close(self) -> None:
        self.log.append(("close", None))


def _source(fake: FakePicamera2, **kw: Any) -> Picamera2Source:
    kw.setdefault("monotonic_ns", lambda: fake.now_ns)
    kw.setdefault("boottime_ns", lambda: fake.now_ns + 7_000_000)
    return Picamera2Source(factory=lambda n: fake, **kw)


def test_picamera2_streams_and_controls_locked_after_warmup() -> None:
    fake = FakePicamera2(0)
    src = _source(fake, size=(1280, 960), warmup_frames=5, settle_frames=2, fps=25)
    src.start()
    (_, cfg), *_ = fake.log
    assert cfg["main"] == {"size": (1280, 960), "format": "RGB888"}
    assert cfg["lores"] == {"size": (640, 480), "format": "YUV420"}
    assert cfg["controls"] == {"FrameRate": 25}
    names = [n for n, _ in fake.log]
    assert names == (["create_video_configuration", "configure", "set_controls", "start"]
                     + ["capture_metadata"] * 5 + ["set_controls"] + ["capture_metadata"] * 2)
    assert fake.log[2][1] == {"AfMode": 2}  # continuous AF during the warm-up
    locked = fake.log[9][1]
    assert locked == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 9005,
                      "AnalogueGain": pytest.approx(1.55), "ColourGains": (1.8, 1.4),
                      "AfMode": 0, "LensPosition": 2.5}
    assert src.locked == locked


def test_picamera2_without_autofocus_sets_no_focus_controls() -> None:
    fake = FakePicamera2(0, has_af=False)
    _source(fake, warmup_frames=2).start()
    sets = [c for n, c in fake.log if n == "set_controls"]
    assert len(sets) == 1 and "AfMode" not in sets[0] and "LensPosition" not in sets[0]


def test_picamera2_frame_grey_is_the_lores_y_plane_and_timestamp_is_monotonic() -> None:
    fake = FakePicamera2(0)
    src = _source(fake, size=(320, 240), lores=(160, 120), warmup_frames=1, settle_frames=0)
    src.start()
    f0, f1 = src.capture(), src.capture()
    assert f0.image.shape == (240, 320, 3) and f0.image.dtype == np.uint8
    assert f0.grey is not None and f0.grey.shape == (120, 160)
    assert np.array_equal(f0.grey[0], np.arange(160, dtype=np.uint8))  # no U/V, no padding
    assert (f0.seq, f1.seq) == (0, 1)
    # exposure start: SensorTimestamp - ExposureTime (us), on CLOCK_MONOTONIC
    assert f0.t_ns == fake.now_ns - 20_000_000 - 1000 * (9000 + 2)
    assert src.timestamp_fallbacks == 0


def test_picamera2_boottime_basis_subtracts_the_offset() -> None:
    fake = FakePicamera2(0)
    src = _source(fake, warmup_frames=1, settle_frames=0, timestamp_basis="boottime")
    src.start()
    f = src.capture()
    assert f.t_ns == fake.now_ns - 20_000_000 - 1000 * (9000 + 2) - 7_000_000


def test_sensor_to_monotonic() -> None:
    assert sensor_to_monotonic(5_000_000, 1000, "monotonic", 0, 0) == 4_000_000
    assert sensor_to_monotonic(5_000_000, 1000, "boottime", 100, 600) == 3_999_500


def test_picamera2_implausible_timestamp_falls_back_to_now() -> None:
    fake = FakePicamera2(0)
    src = _source(fake, warmup_frames=1, monotonic_ns=lambda: 1_000)  # sensor is "future"
    src.start()
    assert src.capture().t_ns == 1_000
    assert src.timestamp_fallbacks == 1


def test_picamera2_open_failure_is_a_camera_error() -> None:
    def boom(n: int) -> Any:
        raise RuntimeError("no cameras available")

    with pytest.raises(CameraError, match="cannot open camera 0: no cameras available"):
        Picamera2Source(factory=boom).start()


def test_picamera2_start_failure_closes_the_camera() -> None:
    fake = FakePicamera2(0, fail_configure=True)
    with pytest.raises(CameraError, match="camera 0 failed to start: Camera in use"):
        _source(fake).start()
    assert fake.log[-1] == ("close", None)


def test_picamera2_capture_failure_and_close() -> None:
    fake = FakePicamera2(0)
    src = _source(fake, warmup_frames=1)
    with pytest.raises(CameraError, match="not started"):
        src.capture()
    src.start()
    fake.fail_capture = True
    with pytest.raises(CameraError, match="capture failed: Device disconnected"):
        src.capture()
    src.close()
    assert [n for n, _ in fake.log[-2:]] == ["stop", "close"]
    with pytest.raises(CameraError, match="not started"):
        src.capture()


def test_lock_controls_needs_metadata() -> None:
    with pytest.raises(CameraError, match="lacks ColourGains"):
        lock_controls({"ExposureTime": 1, "AnalogueGain": 1.0}, has_af=False)


def test_picamera2_bad_arguments() -> None:
    with pytest.raises(ValueError, match="timestamp_basis 'utc'"):
        Picamera2Source(timestamp_basis="utc")
    with pytest.raises(ValueError, match="frame size"):
        Picamera2Source().configure(size=(0, 480))


@pytest.mark.skipif(importlib.util.find_spec("picamera2") is not None,
                    reason="picamera2 is installed here")
def test_picamera2_missing_library_is_a_camera_error() -> None:
    with pytest.raises(CameraError, match="cannot open camera 0: No module named 'picamera2'"):
        Picamera2Source().start()


# ----------------------------------------------------------------------------- OpenCV


@pytest.fixture
def video(tmp_path: Path) -> Path:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10, (64, 48))
    assert writer.isOpened()
    for i in range(5):
        writer.write(np.full((48, 64, 3), (40 * i, 100, 200 - 40 * i), np.uint8))
    writer.release()
    return path


def test_opencv_source_reads_a_video_to_its_end(video: Path) -> None:
    ticks: Iterator[int] = iter(range(100, 1000, 100))
    src = OpenCVSource(str(video), clock=lambda: next(ticks))
    src.start()
    frames = [src.capture() for _ in range(5)]
    assert [f.seq for f in frames] == [0, 1, 2, 3, 4]
    assert [f.t_ns for f in frames] == [100, 200, 300, 400, 500]
    assert frames[0].image.shape == (48, 64, 3)
    assert frames[4].image[..., 0].mean() > frames[0].image[..., 0].mean() + 100
    assert frames[0].grey is not None and frames[0].grey.shape == (48, 64)
    with pytest.raises(EndOfFrames):
        src.capture()
    src.close()


def test_opencv_source_resizes(video: Path) -> None:
    src = OpenCVSource(str(video), size=(32, 24))
    src.start()
    assert src.capture().image.shape == (24, 32, 3)


def test_opencv_source_missing_device(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="cannot open camera"):
        OpenCVSource(str(tmp_path / "nope.avi")).start()
    with pytest.raises(CameraError, match="not started"):
        OpenCVSource(0).capture()


def test_opencv_source_unplugged_device() -> None:
    class Unplugged:
        def __init__(self, device: int | str, api: int) -> None:
            pass

        def isOpened(self) -> bool:
            return True

        def set(self, prop: int, value: float) -> bool:
            return True

        def read(self) -> tuple[bool, None]:
            return False, None

        def release(self) -> None:
            pass

    src = OpenCVSource(0, capture_factory=Unplugged)
    src.start()
    with pytest.raises(CameraError, match="delivered no frame"):
        src.capture()


# ----------------------------------------------------------------------------- folder


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name, value in (("b.png", 20), ("a.png", 10), ("c.jpg", 30)):
        cv2.imwrite(str(tmp_path / name), np.full((30, 40, 3), value, np.uint8))
    (tmp_path / "notes.txt").write_text("not an image")
    return tmp_path


def test_folder_source_in_name_order(folder: Path) -> None:
    src = FolderSource(folder)
    src.start()
    assert [p.name for p in src.files] == ["a.png", "b.png", "c.jpg"]
    frames = [src.capture() for _ in range(3)]
    assert [int(f.image.mean()) for f in frames] == [10, 20, 30]
    assert [f.t_ns for f in frames] == [0, 33_333_333, 66_666_666]
    with pytest.raises(EndOfFrames, match="no more images"):
        src.capture()


def test_folder_source_loops_and_resizes(folder: Path) -> None:
    src = FolderSource(folder, loop=True, size=(20, 16), clock=lambda: 42)
    src.start()
    frames = [src.capture() for _ in range(7)]
    assert [int(f.image.mean()) for f in frames] == [10, 20, 30, 10, 20, 30, 10]
    assert [f.seq for f in frames] == list(range(7))
    assert frames[0].image.shape == (16, 20, 3) and frames[0].t_ns == 42


def test_folder_source_bad_folders(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="does not exist"):
        FolderSource(tmp_path / "nope").start()
    with pytest.raises(CameraError, match="has no images"):
        FolderSource(tmp_path).start()
    with pytest.raises(CameraError, match="not started"):
        FolderSource(tmp_path).capture()


def test_folder_source_unreadable_image(folder: Path) -> None:
    (folder / "a.png").write_bytes(b"garbage")
    src = FolderSource(folder)
    src.start()
    with pytest.raises(CameraError, match=r"a.png is not a readable image"):
        src.capture()
    assert int(src.capture().image.mean()) == 20  # the next file still comes
