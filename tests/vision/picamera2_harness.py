"""Run picamera2's own configuration code without a camera: ``python picamera2_harness.py
WHEEL`` (run by tests/vision/test_sensor_modes.py in a process of its own, so that no test
process ever finds a ``picamera2`` module).

libcamera (a C++ binding), and the modules picamera2 imports for encoders and previews, are
stubbed; picamera2's ``Picamera2`` class is the real one, its ``__init__`` (which opens a
camera) replaced by one that gives it a camera's properties and raw modes as the camera stack
would. Then ``create_video_configuration`` and ``_make_libcamera_config`` -- the code that
picks the sensor mode -- run unchanged. Prints one JSON object:

* ``default``: per camera, the mode picamera2 picks for the kiosk's 1280x960 stream when it is
  not told (``main`` and ``lores`` only, as vision/camera.py asked before issue 38);
* ``raw_only``: per camera, the mode picked from the box's raw stream alone (how a picamera2
  without ``sensor=`` is asked);
* ``box``: per camera, the mode picamera2 configures when vision.camera.Picamera2Source
  asks for its chosen mode (the source's ``start()`` with this Picamera2 as its camera).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import json
import sys
import types
import zipfile
from pathlib import Path
from typing import Any
from unittest import mock

STUBBED = {"libcamera", "prctl", "v4l2", "av", "piexif", "simplejpeg", "pidng", "videodev2",
           "PIL", "OpenGL", "PyQt5", "PyQt6", "pykms", "kms", "jsonschema", "tqdm", "cv2"}


class _Stubs(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name.split(".")[0] in STUBBED:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec: Any) -> Any:
        module = mock.MagicMock(name=spec.name)
        module.__path__ = []
        module.__spec__ = spec
        module.__name__ = spec.name
        return module

    def exec_module(self, module: Any) -> None:
        pass


def _load(wheel: Path, into: Path) -> Any:
    with zipfile.ZipFile(wheel) as z:
        z.extractall(into)
    sys.meta_path.insert(0, _Stubs())
    sys.path.insert(0, str(into))
    import libcamera  # the stub

    libcamera.Size = lambda w, h: (w, h)
    libcamera.Transform = _Transform
    libcamera.SensorConfiguration = types.SimpleNamespace
    from picamera2.picamera2 import Picamera2

    return Picamera2


class _Transform:
    """libcamera.Transform as far as picamera2 compares it (its orientation table)."""

    def __init__(self, other: Any = None, hflip: int = 0, vflip: int = 0,
                 transpose: int = 0) -> None:
        if other is not None:
            hflip, vflip, transpose = other.hflip, other.vflip, other.transpose
        self.hflip, self.vflip, self.transpose = hflip, vflip, transpose

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Transform) and (self.hflip, self.vflip, self.transpose) == (
            other.hflip, other.vflip, other.transpose)

    def __hash__(self) -> int:
        return hash((self.hflip, self.vflip, self.transpose))


class _StreamConfigs:
    def __init__(self, n: int) -> None:
        self.streams = [types.SimpleNamespace() for _ in range(n)]
        self.orientation = None
        self.sensor_config = None

    def at(self, i: int) -> Any:
        return self.streams[i]


class _Camera:
    def generate_configuration(self, roles: list[Any]) -> _StreamConfigs:
        return _StreamConfigs(len(roles))


def fake_class(picamera2: Any) -> Any:
    class FakePicamera2(picamera2):  # type: ignore[misc]
        """The real class with a camera's properties and raw modes instead of a camera."""

        def __init__(self, model: str, pixels: tuple[int, int],
                     modes: list[dict[str, Any]]) -> None:
            self.camera = _Camera()
            self.camera_properties_ = {"ColorFilterArrangement": 0, "Model": model,
                                       "PixelArraySize": pixels}
            self._raw_modes = modes
            self._native_mode = self._select_native_mode(modes)  # picamera2's own
            self.sensor_format = self._native_mode["format"]
            self.camera_config: dict[str, Any] | None = None

        @property
        def camera_controls(self) -> dict[str, Any]:
            return {"FrameRate": (1.0, 120.0, 30.0)}

        def configure(self, camera_config: dict[str, Any]) -> None:
            libcamera_config = self._make_libcamera_config(camera_config)  # picamera2's own
            chosen = libcamera_config.sensor_config
            camera_config["sensor"] = {"output_size": tuple(chosen.output_size),
                                       "bit_depth": chosen.bit_depth}
            self.camera_config = camera_config

        def set_controls(self, controls: Any) -> None:
            pass

        def start(self, *args: Any, **kwargs: Any) -> None:
            pass

        def stop(self) -> None:
            pass

        def close(self) -> None:
            pass

        def __del__(self) -> None:
            pass

        def capture_metadata(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
            return {"ExposureTime": 10000, "AnalogueGain": 1.0, "ColourGains": (1.5, 1.5)}

    return FakePicamera2


def main() -> None:
    import tempfile

    wheel = Path(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        fake = fake_class(_load(wheel, Path(tmp)))
        from vision.camera import Picamera2Source
        from vision.sensors import SENSORS

        out: dict[str, Any] = {"default": {}, "box": {}, "raw_only": {}}
        for key, s in SENSORS.items():
            modes = [{"format": m.format, "size": m.size} for m in s.modes]

            def make(num: int, s: Any = s, modes: list[dict[str, Any]] = modes) -> Any:
                return fake(s.models[0], s.pixels, modes)

            cam = make(0)
            config = cam.create_video_configuration(
                main={"size": (1280, 960), "format": "RGB888"},
                lores={"size": (640, 480), "format": "YUV420"}, buffer_count=4,
                controls={"FrameRate": 30.0})
            cam.configure(config)
            out["default"][key] = cam.camera_config["sensor"]
            source = Picamera2Source(0, size=(1280, 960), factory=make, warmup_frames=1)
            source.start()
            out["box"][key] = {"asked": source.mode.request() if source.mode else None,
                               "used": source.mode_used}
            source.close()
            # a picamera2 older than ``sensor=``: the box's raw stream alone
            planned = source.mode
            assert planned is not None
            cam = make(0)
            cam.configure(cam.create_video_configuration(
                main={"size": (1280, 960), "format": "RGB888"},
                lores={"size": (640, 480), "format": "YUV420"}, buffer_count=4,
                raw={"size": planned.mode.size}))
            chosen = cam.camera_config["sensor"]
            out["raw_only"][key] = [chosen["output_size"], chosen["bit_depth"]]
        print(json.dumps(out))


if __name__ == "__main__":
    main()
