"""Camera sources behind one small interface shaped like picamera2's.

Every source has ``configure(size=None)``, ``start()``, ``capture() -> Frame`` and
``close()``; a failure raises :class:`CameraError`. A :class:`Frame` carries the BGR image for
matching, a greyscale image for finding (the Pi's lores Y plane, possibly smaller than the
image, or a conversion), a CLOCK_MONOTONIC timestamp in ns (the basis of lgpio's GPIO edge
ticks, so a card's appearance and a buzzer press can be ordered) and a sequence number.

Sources:

- :class:`Picamera2Source` - the Pi camera (picamera2, imported only inside its methods):
  main stream RGB888 (BGR in memory) for matching, lores YUV420 whose Y plane is the grey
  frame; exposure, white balance and focus are measured during a warm-up and then locked.
- :class:`OpenCVSource` - ``cv2.VideoCapture`` (a USB webcam, or a video file).
- :class:`FolderSource` - image files of a folder in name order, optionally looping.
- ``vision.simtable.SimulatedTable`` - rendered cards on a table.
- :class:`ResilientCamera` - wraps any of them: a missing or unplugged camera becomes a status
  the app can show ("camera disconnected, retrying in 4 s" / 「攝影機已斷線，4 秒後重試」) and is
  reopened with exponential back-off on an injected clock; it never raises into the app loop.

Timestamps on the Pi: libcamera documents ``SensorTimestamp`` as CLOCK_BOOTTIME, but the
Raspberry Pi pipeline handlers copy the V4L2 buffer timestamp into it (``ctrl.set(
controls::SensorTimestamp, buffer->metadata().timestamp)`` in the vc4 and pisp handlers), which
the unicam/CFE drivers take from CLOCK_MONOTONIC, and picamera2 itself compares it with
``time.monotonic_ns()`` (``wait_for_timestamp_``). The two clocks differ only by time spent in
suspend, which a kiosk Pi never does. :class:`Picamera2Source` therefore treats it as
CLOCK_MONOTONIC by default (``timestamp_basis="boottime"`` subtracts the measured
BOOTTIME-MONOTONIC offset instead) and reports the start of exposure (``SensorTimestamp -
ExposureTime``), as picamera2 does; an implausible value falls back to the capture time.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.frame import DEFAULT_SIZE as DEFAULT_SIZE
from vision.frame import Camera as Camera
from vision.frame import CameraError as CameraError
from vision.frame import Clock as Clock
from vision.frame import EndOfFrames as EndOfFrames
from vision.frame import Frame as Frame
from vision.frame import Image as Image
from vision.imagefile import ImageFileError, read_image_file

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


def _u8(a: object) -> Image:
    return np.asarray(a, dtype=np.uint8)


def _grey(image: Image) -> Image:
    return _u8(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))


def _check_size(size: tuple[int, int] | None) -> tuple[int, int] | None:
    if size is None:
        return None
    if (len(size) != 2 or not all(isinstance(v, int) for v in size)
            or not all(16 <= v <= 8192 for v in size)):
        raise ValueError(f"frame size {size!r} must be (width, height) in px, 16-8192")
    return (size[0], size[1])


# ------------------------------------------------------------------------------ picamera2


def _boottime_ns() -> int:
    return time.clock_gettime_ns(time.CLOCK_BOOTTIME)


class Picamera2Source:
    """The Raspberry Pi camera through picamera2 (see the module docstring).

    ``factory(camera_num)`` makes the ``Picamera2`` object (default: picamera2's own class,
    imported here); tests inject a stand-in with the same methods.
    """

    def __init__(self, camera_num: int = 0, *, size: tuple[int, int] = (1280, 960),
                 lores: tuple[int, int] | None = None, fps: float = 30.0,
                 warmup_frames: int = 20, settle_frames: int = 4,
                 timestamp_basis: str = "monotonic",
                 factory: Callable[[int], Any] | None = None,
                 monotonic_ns: Clock = time.monotonic_ns,
                 boottime_ns: Clock = _boottime_ns) -> None:
        if timestamp_basis not in ("monotonic", "boottime"):
            raise ValueError(f"timestamp_basis {timestamp_basis!r} must be monotonic or boottime")
        if warmup_frames < 1 or settle_frames < 0:
            raise ValueError("warmup_frames must be >= 1 and settle_frames >= 0")
        self.camera_num = camera_num
        self.fps = fps
        self.warmup_frames = warmup_frames
        self.settle_frames = settle_frames
        self.timestamp_basis = timestamp_basis
        self._factory = factory
        self._mono = monotonic_ns
        self._boot = boottime_ns
        self._cam: Any = None
        self._seq = 0
        self.size: tuple[int, int] = size
        self.lores: tuple[int, int] = lores or _half(size)
        self.locked: dict[str, Any] = {}  # the controls fixed after warm-up
        self.timestamp_fallbacks = 0

    def configure(self, size: tuple[int, int] | None = None,
                  lores: tuple[int, int] | None = None) -> None:
        """Main (matching) size and lores (finding) size; lores defaults to half of main."""
        size = _check_size(size)
        if size is not None:
            self.size = size
            self.lores = _half(size)
        lores = _check_size(lores)
        if lores is not None:
            self.lores = lores

    def start(self) -> None:
        """Open the camera, warm up, then lock exposure, white balance and focus."""
        if self._cam is not None:
            return
        try:
            if self._factory is None:
                from picamera2 import Picamera2

                cam = Picamera2(self.camera_num)
            else:
                cam = self._factory(self.camera_num)
        except Exception as e:  # no camera, busy camera, missing library
            raise CameraError(f"cannot open camera {self.camera_num}: {e}") from e
        try:
            config = cam.create_video_configuration(
                main={"size": self.size, "format": "RGB888"},
                lores={"size": self.lores, "format": "YUV420"},
                buffer_count=4, controls={"FrameRate": self.fps})
            cam.configure(config)
            has_af = "AfMode" in cam.camera_controls
            if has_af:
                cam.set_controls({"AfMode": 2})  # continuous while warming up
            cam.start()
            md: Mapping[str, Any] = {}
            for _ in range(self.warmup_frames):
                md = cam.capture_metadata()
            self.locked = lock_controls(md, has_af)
            cam.set_controls(self.locked)
            for _ in range(self.settle_frames):  # controls take a few frames to apply
                cam.capture_metadata()
        except Exception as e:
            with contextlib.suppress(Exception):
                cam.close()
            raise CameraError(f"camera {self.camera_num} failed to start: {e}") from e
        self._cam = cam

    def capture(self) -> Frame:
        if self._cam is None:
            raise CameraError("camera not started")
        try:
            (main, lores), md = self._cam.capture_arrays(["main", "lores"])
        except Exception as e:
            raise CameraError(f"camera {self.camera_num}: capture failed: {e}") from e
        w, h = self.lores
        image = _u8(main)
        if image.ndim == 3 and image.shape[2] == 4:  # XBGR8888 if a platform insists
            image = image[:, :, :3]
        grey = np.ascontiguousarray(_u8(lores)[:h, :w])  # Y plane, without stride padding
        frame = Frame(image=np.ascontiguousarray(image), grey=grey, t_ns=self._timestamp(md),
                      seq=self._seq)
        self._seq += 1
        return frame

    def _timestamp(self, md: Mapping[str, Any]) -> int:
        now = self._mono()
        sensor = md.get("SensorTimestamp")
        if not isinstance(sensor, int):
            self.timestamp_fallbacks += 1
            return now
        t = sensor_to_monotonic(sensor, int(md.get("ExposureTime", 0) or 0),
                                self.timestamp_basis, now, self._boot())
        if not now - 5_000_000_000 <= t <= now:  # implausible: wrong basis, clock jump
            self.timestamp_fallbacks += 1
            return now
        return t

    def close(self) -> None:
        cam, self._cam = self._cam, None
        if cam is None:
            return
        with contextlib.suppress(Exception):
            cam.stop()
        with contextlib.suppress(Exception):
            cam.close()


def _half(size: tuple[int, int]) -> tuple[int, int]:
    return (max(16, size[0] // 4 * 2), max(16, size[1] // 4 * 2))


def lock_controls(md: Mapping[str, Any], has_af: bool) -> dict[str, Any]:
    """The controls that freeze what the auto algorithms settled on (from frame metadata)."""
    missing = [k for k in ("ExposureTime", "AnalogueGain", "ColourGains") if k not in md]
    if missing:
        raise CameraError(f"camera metadata lacks {', '.join(missing)}; cannot lock exposure")
    red, blue = md["ColourGains"]
    controls: dict[str, Any] = {
        "AeEnable": False,
        "AwbEnable": False,
        "ExposureTime": int(md["ExposureTime"]),
        "AnalogueGain": float(md["AnalogueGain"]),
        "ColourGains": (float(red), float(blue)),
    }
    if has_af:
        controls["AfMode"] = 0  # manual: the lens stays where continuous AF put it
        if "LensPosition" in md:
            controls["LensPosition"] = float(md["LensPosition"])
    return controls


def sensor_to_monotonic(sensor_ns: int, exposure_us: int, basis: str, mono_now: int,
                        boot_now: int) -> int:
    """Start of exposure on CLOCK_MONOTONIC from a libcamera SensorTimestamp."""
    t = sensor_ns - 1000 * exposure_us
    if basis == "boottime":
        t -= boot_now - mono_now
    return t


# ------------------------------------------------------------------------------ OpenCV


#: OpenCV's log levels (``cv2.LOG_LEVEL_*`` on 4.x, ``cv2.utils.logging.LOG_LEVEL_*`` on 5.x)
_CV_LEVELS = {"SILENT": 0, "FATAL": 1, "ERROR": 2, "WARNING": 3, "INFO": 4, "DEBUG": 5,
              "VERBOSE": 6}


def quiet_opencv(level: str = "ERROR", cv: Any = cv2) -> bool:
    """Have OpenCV log only ``level`` and worse (its ``[ WARN:0@...]`` lines from probing a
    camera are not the program's output): ``cv2.setLogLevel`` on OpenCV 4.x,
    ``cv2.utils.logging.setLogLevel`` on 5.x. Whether either was there."""
    value = _CV_LEVELS[level]
    utils_logging = getattr(getattr(cv, "utils", None), "logging", None)
    for owner in (utils_logging, cv):
        set_level = getattr(owner, "setLogLevel", None)
        if callable(set_level):
            set_level(value)
            return True
    return False


class OpenCVSource:
    """A ``cv2.VideoCapture`` device (USB webcam index or path) or a video file."""

    def __init__(self, device: int | str = 0, *, size: tuple[int, int] | None = None,
                 fps: float | None = None, api: int = cv2.CAP_ANY,
                 clock: Clock = time.monotonic_ns,
                 capture_factory: Callable[[int | str, int], Any] | None = None) -> None:
        self.device = device
        self.size = _check_size(size)
        self.fps = fps
        self.api = api
        self._clock = clock
        self._factory = capture_factory or cv2.VideoCapture
        self._cap: Any = None
        self._seq = 0

    def configure(self, size: tuple[int, int] | None = None) -> None:
        self.size = _check_size(size) or self.size

    def start(self) -> None:
        if self._cap is not None:
            return
        if not os.environ.get("OPENCV_LOG_LEVEL"):
            quiet_opencv()
        try:
            cap = self._factory(self.device, self.api)
        except Exception as e:
            raise CameraError(f"cannot open camera {self.device!r}: {e}") from e
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"cannot open camera {self.device!r} (no such device or file)")
        if self.size is not None:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        if self.fps is not None:
            cap.set(cv2.CAP_PROP_FPS, self.fps)
        self._cap = cap

    def capture(self) -> Frame:
        if self._cap is None:
            raise CameraError("camera not started")
        try:
            ok, image = self._cap.read()
        except Exception as e:
            raise CameraError(f"camera {self.device!r}: read failed: {e}") from e
        t_ns = self._clock()
        if not ok or image is None:
            if isinstance(self.device, str) and Path(self.device).is_file():
                raise EndOfFrames(f"video {self.device} has no more frames")
            raise CameraError(f"camera {self.device!r} delivered no frame (unplugged?)")
        image = _u8(image)
        if image.ndim == 2:
            image = _u8(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR))
        if self.size is not None and image.shape[1::-1] != self.size:
            image = _u8(cv2.resize(image, self.size, interpolation=cv2.INTER_AREA))
        frame = Frame(image=image, grey=_grey(image), t_ns=t_ns, seq=self._seq)
        self._seq += 1
        return frame

    def close(self) -> None:
        cap, self._cap = self._cap, None
        if cap is not None:
            with contextlib.suppress(Exception):
                cap.release()


# ------------------------------------------------------------------------------ folder


class FolderSource:
    """The image files of a folder in name order (one frame each), optionally looping.

    Timestamps come from ``clock`` if given, else advance by ``frame_period_ns`` per frame.
    """

    def __init__(self, folder: str | os.PathLike[str], *, loop: bool = False,
                 size: tuple[int, int] | None = None, clock: Clock | None = None,
                 frame_period_ns: int = 33_333_333) -> None:
        self.folder = Path(folder)
        self.loop = loop
        self.size = _check_size(size)
        self._clock = clock
        self._period = frame_period_ns
        self._files: list[Path] = []
        self._next = 0
        self._seq = 0
        self._started = False

    def configure(self, size: tuple[int, int] | None = None) -> None:
        self.size = _check_size(size) or self.size

    @property
    def files(self) -> Sequence[Path]:
        return tuple(self._files)

    def start(self) -> None:
        if not self.folder.is_dir():
            raise CameraError(f"image folder {self.folder} does not exist")
        self._files = sorted(p for p in self.folder.iterdir()
                             if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
        if not self._files:
            raise CameraError(f"image folder {self.folder} has no images "
                              f"({', '.join(IMAGE_SUFFIXES)})")
        self._next = 0
        self._started = True

    def capture(self) -> Frame:
        if not self._started:
            raise CameraError("folder source not started")
        if self._next >= len(self._files):
            if not self.loop:
                raise EndOfFrames(f"no more images in {self.folder}")
            self._next = 0
        path = self._files[self._next]
        self._next += 1
        try:  # (its header's size is checked before it is decoded: vision.imagefile)
            image = read_image_file(path)
        except ImageFileError as e:
            raise CameraError(str(e)) from None
        image = _u8(image)
        if self.size is not None and image.shape[1::-1] != self.size:
            image = _u8(cv2.resize(image, self.size, interpolation=cv2.INTER_AREA))
        t_ns = self._clock() if self._clock is not None else self._seq * self._period
        frame = Frame(image=image, grey=_grey(image), t_ns=t_ns, seq=self._seq)
        self._seq += 1
        return frame

    def close(self) -> None:
        self._started = False


# ------------------------------------------------------------------------------ resilience


@dataclass(frozen=True)
class CameraStatus:
    """What the screen can show about the camera."""

    state: str  # "starting", "ok", "disconnected", "ended", "closed"
    failures: int  # consecutive failed attempts since the last good frame
    retry_in_s: float | None  # seconds until the next attempt, while disconnected
    error: str  # the last error, for the log

    @property
    def ok(self) -> bool:
        return self.state == "ok"

    @property
    def message_en(self) -> str:
        if self.state == "ok":
            return "camera ok"
        if self.state == "starting":
            return "starting camera"
        if self.state == "ended":
            return "no more frames"
        if self.state == "closed":
            return "camera closed"
        if self.retry_in_s is None or self.retry_in_s <= 0:
            return "camera disconnected, retrying now"
        return f"camera disconnected, retrying in {math.ceil(self.retry_in_s)} s"

    @property
    def message_zh(self) -> str:
        if self.state == "ok":
            return "攝影機正常"
        if self.state == "starting":
            return "攝影機啟動中"
        if self.state == "ended":
            return "沒有更多畫面"
        if self.state == "closed":
            return "攝影機已關閉"
        if self.retry_in_s is None or self.retry_in_s <= 0:
            return "攝影機已斷線，正在重試"
        return f"攝影機已斷線，{math.ceil(self.retry_in_s)} 秒後重試"


class CameraTimeout(CameraError):
    """A camera call that did not return within its bound (a hung driver, a stuck USB
    device): a camera fault like an unplugged one."""


class _Bounded:
    """Calls into one camera made from a worker thread of their own, waited for at most
    ``timeout_s``: a call that does not return in time raises :class:`CameraTimeout` and the
    worker is abandoned -- it closes the camera when (if ever) the hung call returns, and
    the caller opens a fresh one. One call at a time."""

    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="tablekeeper-camera-read")

    def call(self, what: str, fn: Callable[[], Any], on_abandon: Callable[[], None]) -> Any:
        future = self._pool.submit(fn)
        try:
            return future.result(timeout=self.timeout_s)
        except concurrent.futures.TimeoutError:
            self._pool.shutdown(wait=False)
            future.add_done_callback(lambda _f: on_abandon())
            raise CameraTimeout(f"the camera's {what} did not return within "
                                f"{self.timeout_s:g} s") from None

    def close(self) -> None:
        self._pool.shutdown(wait=False)


class ResilientCamera:
    """Keeps a camera going: reopens it with exponential back-off, never raises.

    ``open_camera()`` makes a fresh, unstarted source (e.g. ``lambda: Picamera2Source()``);
    ``capture()`` returns a :class:`Frame`, or None while the camera is missing (check
    :attr:`status`). Nothing sleeps: a reconnection is tried in the first ``capture()`` after
    the back-off, measured on ``clock`` (ns, CLOCK_MONOTONIC in the app, fake in tests).
    ``on_status`` is called whenever the state changes.

    ``read_timeout_s`` (real clocks only; None: unbounded): opening, starting and every
    ``capture()`` of the source run in a worker thread and are waited for at most this long.
    A call that hangs is a camera fault like any other (:class:`CameraTimeout`: state
    ``disconnected``, the back-off, then a fresh source); the hung worker is abandoned and
    closes its source if its call ever returns. So a hung read never stops the caller.
    """

    def __init__(self, open_camera: Callable[[], Camera], *, clock: Clock = time.monotonic_ns,
                 size: tuple[int, int] | None = None, first_retry_s: float = 1.0,
                 max_retry_s: float = 30.0, factor: float = 2.0,
                 on_status: Callable[[CameraStatus], None] | None = None,
                 read_timeout_s: float | None = None) -> None:
        if not 0 < first_retry_s <= max_retry_s or factor < 1:
            raise ValueError("need 0 < first_retry_s <= max_retry_s and factor >= 1")
        if read_timeout_s is not None and read_timeout_s <= 0:
            raise ValueError("read_timeout_s must be > 0 (or None)")
        self.read_timeout_s = read_timeout_s
        self._bounded: _Bounded | None = None
        #: reads that did not return within read_timeout_s (each one a fresh source after)
        self.timeouts = 0
        self._open = open_camera
        self._clock = clock
        self._size = size
        self.first_retry_s = first_retry_s
        self.max_retry_s = max_retry_s
        self.factor = factor
        self._on_status = on_status
        self._cam: Camera | None = None
        self._state = "starting"
        self._failures = 0
        self._backoff_s = first_retry_s
        self._retry_at: int | None = None
        self._error = ""

    @property
    def status(self) -> CameraStatus:
        retry = None
        if self._state == "disconnected" and self._retry_at is not None:
            retry = max(0.0, (self._retry_at - self._clock()) / 1e9)
        return CameraStatus(self._state, self._failures, retry, self._error)

    def configure(self, size: tuple[int, int] | None = None) -> None:
        self._size = size
        if self._cam is not None:
            with contextlib.suppress(Exception):
                self._cam.configure(size)

    def start(self) -> None:
        """Try to open the camera now; a failure is a status, not an exception."""
        self._connect()

    def capture(self) -> Frame | None:
        if self._state in ("ended", "closed"):
            return None
        if self._cam is None:
            if self._retry_at is not None and self._clock() < self._retry_at:
                return None
            if not self._connect():
                return None
        assert self._cam is not None
        try:
            frame: Frame = self._bound("read", self._cam.capture, self._cam)
        except EndOfFrames as e:
            self._drop(e)
            self._set_state("ended")
            return None
        except Exception as e:  # unplugged, driver error, anything: never into the app loop
            self._drop(e)
            self._fail(e)
            return None
        self._failures = 0
        self._backoff_s = self.first_retry_s
        self._set_state("ok")
        return frame

    def close(self) -> None:
        if self._cam is not None:
            self._drop(None)
        if self._bounded is not None:
            self._bounded.close()
            self._bounded = None
        self._set_state("closed")

    def _bound(self, what: str, fn: Callable[[], Any], cam: Camera | None) -> Any:
        """``fn()`` within :attr:`read_timeout_s` (unbounded when None)."""
        if self.read_timeout_s is None:
            return fn()
        if self._bounded is None:
            self._bounded = _Bounded(self.read_timeout_s)
        bounded = self._bounded

        def abandon() -> None:  # in the hung worker, once (if ever) its call returns
            if cam is not None:
                with contextlib.suppress(Exception):
                    cam.close()

        try:
            return bounded.call(what, fn, abandon)
        except CameraTimeout:
            self.timeouts += 1
            self._bounded = None  # the next call gets a fresh worker
            if cam is not None and cam is self._cam:
                self._cam = None  # the hung worker closes it: never from here, mid-call
            raise

    def _connect(self) -> bool:
        made: list[Camera] = []

        def connect() -> Camera:
            cam = self._open()
            made.append(cam)
            if self._size is not None:
                cam.configure(self._size)
            cam.start()
            return cam

        def abandon() -> None:  # a start that returned after its bound: not ours any more
            for cam in made:
                with contextlib.suppress(Exception):
                    cam.close()

        try:
            if self.read_timeout_s is None:
                cam = connect()
            else:
                if self._bounded is None:
                    self._bounded = _Bounded(self.read_timeout_s)
                try:
                    cam = self._bounded.call("start", connect, abandon)
                except CameraTimeout:
                    self.timeouts += 1
                    self._bounded = None
                    made.clear()  # closed by the worker, when it returns
                    raise
        except Exception as e:
            for cam in made:
                with contextlib.suppress(Exception):
                    cam.close()
            self._fail(e)
            return False
        self._cam = cam
        self._retry_at = None
        return True

    def _drop(self, error: BaseException | None) -> None:
        cam, self._cam = self._cam, None
        if cam is not None:
            with contextlib.suppress(Exception):
                cam.close()
        if error is not None:
            self._error = f"{type(error).__name__}: {error}"

    def _fail(self, error: BaseException) -> None:
        self._error = f"{type(error).__name__}: {error}"
        self._failures += 1
        self._retry_at = self._clock() + round(self._backoff_s * 1e9)
        self._backoff_s = min(self.max_retry_s, self._backoff_s * self.factor)
        self._set_state("disconnected", force=True)

    def _set_state(self, state: str, force: bool = False) -> None:
        changed = state != self._state
        self._state = state
        if (changed or force) and self._on_status is not None:
            with contextlib.suppress(Exception):
                self._on_status(self.status)


# ------------------------------------------------------------------------------ config

SOURCES = ("auto", "picamera2", "opencv", "folder", "sim")
SURFACE_CHOICES = ("random", "wood", "cloth", "dark", "light")


@dataclass(frozen=True)
class CameraConfig:
    """The ``[camera]`` section of the box's config::

        [camera]
        source = "auto"        # auto (picamera2 if installed, else opencv) | picamera2 |
                               # opencv | folder | sim
        size = [1280, 960]     # main stream / frame size, px
        lores = [640, 480]     # picamera2's greyscale finding stream (default: half of size)
        fps = 30.0
        camera_num = 0         # picamera2 camera index
        device = 0             # opencv: /dev/videoN index or a path / URL
        folder = ""            # folder source: the images
        loop = true            # folder source: start again at the end
        warmup_frames = 20     # picamera2: frames before exposure/white balance/focus lock
        timestamp_basis = "monotonic"   # picamera2 SensorTimestamp clock (or "boottime")
        retry_first_s = 1.0    # reconnect back-off: first wait, doubling up to ...
        retry_max_s = 30.0
        read_timeout_s = 5.0   # a read (or a start) that takes longer is a camera fault:
                               # the source is reopened (the threaded kiosk camera only)
        sim_seed = 0           # sim: the simulated table's seed and surface
        sim_surface = "random"
    """

    source: str = "auto"
    size: tuple[int, int] = (1280, 960)
    lores: tuple[int, int] | None = None
    fps: float = 30.0
    camera_num: int = 0
    device: int | str = 0
    folder: str = ""
    loop: bool = True
    warmup_frames: int = 20
    timestamp_basis: str = "monotonic"
    retry_first_s: float = 1.0
    retry_max_s: float = 30.0
    read_timeout_s: float = 5.0
    sim_seed: int = 0
    sim_surface: str = "random"

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CameraConfig:
        known = {f.name for f in dataclasses.fields(cls)}
        extra = sorted(set(d) - known)
        if extra:
            raise ValueError(f"camera: unknown key(s) {', '.join(extra)} "
                             f"(known: {', '.join(sorted(known))})")
        kw: dict[str, Any] = {}
        if "source" in d:
            kw["source"] = _choice(d["source"], SOURCES, "camera.source")
        for key in ("size", "lores"):
            if key in d:
                kw[key] = _size(d[key], f"camera.{key}")
        if "fps" in d:
            kw["fps"] = _number(d["fps"], "camera.fps", 1.0, 240.0)
        for key, lo, hi in (("camera_num", 0, 15), ("warmup_frames", 1, 600),
                            ("sim_seed", 0, 2**63 - 1)):
            if key in d:
                kw[key] = _int(d[key], f"camera.{key}", lo, hi)
        if "device" in d:
            dev = d["device"]
            if isinstance(dev, bool) or not isinstance(dev, int | str) or dev == "" or (
                    isinstance(dev, int) and dev < 0):
                raise ValueError(f"camera.device: expected a device index >= 0 or a path, "
                                 f"got {dev!r}")
            kw["device"] = dev
        if "folder" in d:
            if not isinstance(d["folder"], str):
                raise ValueError(f"camera.folder: expected a path, got {d['folder']!r}")
            kw["folder"] = d["folder"]
        if "loop" in d:
            if not isinstance(d["loop"], bool):
                raise ValueError(f"camera.loop: expected true or false, got {d['loop']!r}")
            kw["loop"] = d["loop"]
        if "timestamp_basis" in d:
            kw["timestamp_basis"] = _choice(d["timestamp_basis"], ("monotonic", "boottime"),
                                            "camera.timestamp_basis")
        for key in ("retry_first_s", "retry_max_s"):
            if key in d:
                kw[key] = _number(d[key], f"camera.{key}", 0.01, 3600.0)
        if "read_timeout_s" in d:
            kw["read_timeout_s"] = _number(d["read_timeout_s"], "camera.read_timeout_s",
                                           0.1, 600.0)
        if "sim_surface" in d:
            kw["sim_surface"] = _choice(d["sim_surface"], SURFACE_CHOICES, "camera.sim_surface")
        cfg = cls(**kw)
        if cfg.retry_first_s > cfg.retry_max_s:
            raise ValueError(f"camera.retry_first_s: {cfg.retry_first_s} is more than "
                             f"retry_max_s ({cfg.retry_max_s})")
        if cfg.source == "folder" and not cfg.folder:
            raise ValueError("camera.folder: required when camera.source = \"folder\"")
        return cfg

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        d["size"] = list(self.size)
        if self.lores is None:
            del d["lores"]
        else:
            d["lores"] = list(self.lores)
        return d


def _choice(v: Any, choices: Sequence[str], key: str) -> str:
    if v not in choices:
        raise ValueError(f"{key}: {v!r} is not one of {', '.join(choices)}")
    return str(v)


def _size(v: Any, key: str) -> tuple[int, int]:
    if (not isinstance(v, list | tuple) or len(v) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in v)
            or not all(16 <= x <= 8192 for x in v)):
        raise ValueError(f"{key}: expected [width, height] in px (16-8192), got {v!r}")
    return (v[0], v[1])


def _number(v: Any, key: str, lo: float, hi: float) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float) or not lo <= v <= hi:
        raise ValueError(f"{key}: expected a number from {lo:g} to {hi:g}, got {v!r}")
    return float(v)


def _int(v: Any, key: str, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ValueError(f"{key}: expected an integer from {lo} to {hi}, got {v!r}")
    return v


def open_camera(config: CameraConfig, *, deck: Any = None,
                clock: Clock = time.monotonic_ns) -> Camera:
    """An unstarted source as the config says (``deck``: a ``vision.deck.Deck``, for "sim")."""
    source = config.source
    if source == "auto":
        import importlib.util

        source = "picamera2" if importlib.util.find_spec("picamera2") else "opencv"
    if source == "picamera2":
        return Picamera2Source(config.camera_num, size=config.size, lores=config.lores,
                               fps=config.fps, warmup_frames=config.warmup_frames,
                               timestamp_basis=config.timestamp_basis)
    if source == "opencv":
        return OpenCVSource(config.device, size=config.size, fps=config.fps, clock=clock)
    if source == "folder":
        return FolderSource(config.folder, loop=config.loop, size=config.size, clock=clock)
    if deck is None:
        raise ValueError("camera.source = \"sim\" needs a deck to put on the simulated table")
    from vision.simtable import SimulatedTable

    surface = None if config.sim_surface == "random" else config.sim_surface
    return SimulatedTable(deck, seed=config.sim_seed, size=config.size, surface=surface,
                          clock=clock, frame_period_ns=round(1e9 / config.fps))


def resilient_camera(config: CameraConfig, *, deck: Any = None,
                     clock: Clock = time.monotonic_ns,
                     on_status: Callable[[CameraStatus], None] | None = None,
                     bounded: bool = False) -> ResilientCamera:
    """The configured source wrapped in a :class:`ResilientCamera` with its back-off;
    ``bounded`` (real clocks only): reads and starts bounded by ``read_timeout_s``."""
    return ResilientCamera(lambda: open_camera(config, deck=deck, clock=clock), clock=clock,
                           first_retry_s=config.retry_first_s, max_retry_s=config.retry_max_s,
                           on_status=on_status,
                           read_timeout_s=config.read_timeout_s if bounded else None)
