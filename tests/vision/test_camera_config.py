"""The [camera] config section and opening the configured source."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from vision.camera import (
    CameraConfig,
    FolderSource,
    OpenCVSource,
    Picamera2Source,
    ResilientCamera,
    open_camera,
    resilient_camera,
)
from vision.deck import Deck
from vision.simtable import SimulatedTable


def test_defaults_and_round_trip() -> None:
    assert CameraConfig.from_dict({}) == CameraConfig()
    cfg = CameraConfig.from_dict({"source": "folder", "folder": "/srv/frames", "loop": False,
                                  "size": [640, 480], "lores": [320, 240], "fps": 15,
                                  "device": "/dev/video2", "sim_surface": "wood"})
    assert cfg.size == (640, 480) and cfg.lores == (320, 240) and cfg.fps == 15.0
    assert CameraConfig.from_dict(cfg.to_dict()) == cfg
    assert "lores" not in CameraConfig().to_dict()  # absent means "half of size"


BAD: list[tuple[dict[str, Any], str]] = [
    ({"sauce": "x"}, r"camera: unknown key\(s\) sauce"),
    ({"source": "webcam"}, "camera.source: 'webcam' is not one of auto, picamera2"),
    ({"size": [640]}, r"camera.size: expected \[width, height\]"),
    ({"size": [640, True]}, r"camera.size: expected \[width, height\]"),
    ({"lores": [8, 8]}, r"camera.lores: expected \[width, height\] in px \(16-8192\)"),
    ({"fps": 0}, "camera.fps: expected a number from 1 to 240, got 0"),
    ({"fps": "30"}, "camera.fps: expected a number"),
    ({"camera_num": -1}, "camera.camera_num: expected an integer from 0 to 15"),
    ({"warmup_frames": 2.5}, "camera.warmup_frames: expected an integer"),
    ({"device": -2}, "camera.device: expected a device index >= 0 or a path"),
    ({"device": True}, "camera.device: expected a device index"),
    ({"folder": 3}, "camera.folder: expected a path"),
    ({"loop": "yes"}, "camera.loop: expected true or false"),
    ({"timestamp_basis": "utc"}, "camera.timestamp_basis: 'utc' is not one of"),
    ({"retry_first_s": 0}, "camera.retry_first_s: expected a number"),
    ({"retry_first_s": 10, "retry_max_s": 5}, "camera.retry_first_s: 10.0 is more than"),
    ({"sim_surface": "glass"}, "camera.sim_surface: 'glass' is not one of"),
    ({"source": "folder"}, "camera.folder: required when"),
]


@pytest.mark.parametrize(("d", "message"), BAD, ids=[m.split(":")[0] + str(i)
                                                     for i, (_, m) in enumerate(BAD)])
def test_bad_values_name_the_key(d: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        CameraConfig.from_dict(d)


def test_open_camera_by_source(tmp_path: Path,
                               demo_decks: Callable[[str], Deck]) -> None:
    assert isinstance(open_camera(CameraConfig(source="picamera2")), Picamera2Source)
    cam = open_camera(CameraConfig(source="opencv", device=2))
    assert isinstance(cam, OpenCVSource) and cam.device == 2
    assert isinstance(open_camera(CameraConfig(source="folder", folder=str(tmp_path))),
                      FolderSource)
    auto = open_camera(CameraConfig())
    expected = Picamera2Source if importlib.util.find_spec("picamera2") else OpenCVSource
    assert isinstance(auto, expected)
    with pytest.raises(ValueError, match="needs a deck"):
        open_camera(CameraConfig(source="sim"))
    sim = open_camera(CameraConfig(source="sim", size=(320, 240), sim_surface="dark"),
                      deck=demo_decks("wink"), clock=lambda: 5)
    assert isinstance(sim, SimulatedTable) and sim.conditions.surface == "dark"
    frame = sim.capture()
    assert frame.image.shape == (240, 320, 3) and frame.t_ns == 5


def test_resilient_camera_from_config(tmp_path: Path) -> None:
    cam = resilient_camera(CameraConfig(source="folder", folder=str(tmp_path / "none"),
                                        retry_first_s=2, retry_max_s=4), clock=lambda: 0)
    assert isinstance(cam, ResilientCamera)
    assert cam.capture() is None
    assert cam.status.state == "disconnected" and cam.status.retry_in_s == 2.0
    assert "does not exist" in cam.status.error


def test_the_read_bound_is_a_config_key() -> None:
    """A read (or a start) that takes longer than ``read_timeout_s`` is a camera fault
    (tests/kiosk/test_faults_camera.py)."""
    assert CameraConfig().read_timeout_s == 5.0
    assert CameraConfig.from_dict({"read_timeout_s": 2}).read_timeout_s == 2.0
    with pytest.raises(ValueError, match=r"camera\.read_timeout_s"):
        CameraConfig.from_dict({"read_timeout_s": 0})
