"""The sensor mode the box asks for (issue 38): every camera sees its whole field at the stream's
aspect, checked against picamera2's own mode selection where its wheel is here."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tablekeeper.cli import main as cli_main
from vision.camera import CameraConfig, Picamera2Source, mode_report
from vision.sensors import (
    SENSORS,
    UnknownSensor,
    cameras_table,
    choose_mode,
    mount_table,
    plan,
    sensor,
    view_of,
)

ROOT = Path(__file__).resolve().parents[2]


def _wheel() -> Path | None:
    given = os.environ.get("TK_PICAMERA2_WHEEL")
    if given:
        return Path(given)
    found = sorted((ROOT / ".cache" / "picamera2").glob("picamera2-*.whl"))
    return found[-1] if found else None


@pytest.mark.parametrize("key", list(SENSORS))
def test_every_camera_sees_its_whole_field_at_the_default_stream(key: str) -> None:
    choice = choose_mode(SENSORS[key], CameraConfig().size, CameraConfig().fps)
    assert choice.crop >= 0.95, choice.text()
    assert choice.mode.fps >= 30


def test_the_issue_s_reading_of_the_imx708_crop() -> None:
    cm3 = SENSORS["cm3"]
    cropped = view_of(cm3, cm3.modes[0], (1280, 960))  # 1536x864: the central 3072x1728
    assert cropped.crop == pytest.approx(2 / 3, abs=0.01)
    assert cropped.fov_deg == pytest.approx((36.0, 28.0), abs=0.5)
    full = choose_mode(cm3, (1280, 960))
    assert full.mode.size == (2304, 1296)
    assert full.fov_deg == pytest.approx((52.0, 41.0), abs=0.5)


def test_a_16_9_stream_and_a_mode_too_slow_for_the_frame_rate() -> None:
    assert choose_mode(SENSORS["cm3"], (1920, 1080)).mode.size == (2304, 1296)
    # the IMX219's full 3280x2464 reads 21 fps: below 30, the binned 1640x1232 (upscaled)
    v2 = choose_mode(SENSORS["v2"], (1920, 1440))
    assert v2.mode.size == (1640, 1232) and v2.crop >= 0.95
    # asked for 15 fps, the full readout is the smallest mode at least the stream's size
    assert choose_mode(SENSORS["v2"], (1920, 1440), fps=15).mode.size == (3280, 2464)


def test_sensor_names() -> None:
    assert sensor("imx708_wide_noir").key == "cm3-wide"
    assert sensor("HQ").key == "hq"
    with pytest.raises(UnknownSensor, match="unknown camera 'imx999'"):
        sensor("imx999")


# --- picamera2's own code ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def picamera2_choices() -> dict[str, Any]:
    wheel = _wheel()
    if wheel is None or not wheel.is_file():
        pytest.skip("picamera2's wheel is not here (tools/picamera2-wheel.sh fetches the "
                    "pinned one into .cache/picamera2; CI runs it): picamera2's own mode "
                    "selection not run")
    out = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "vision" / "picamera2_harness.py"), str(wheel)],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr[-3000:]
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def test_picamera2_left_alone_crops_the_camera_module_3(
        picamera2_choices: dict[str, Any]) -> None:
    """The issue's claim, on picamera2's real ``_make_libcamera_config``: told only the
    1280x960 stream, it picks the IMX708's 1536x864 crop."""
    default = picamera2_choices["default"]
    assert default["cm3"]["output_size"] == [1536, 864]
    assert default["cm3-wide"]["output_size"] == [1536, 864]


@pytest.mark.parametrize("key", list(SENSORS))
def test_picamera2_configures_the_mode_the_box_asks_for(
        picamera2_choices: dict[str, Any], key: str) -> None:
    box = picamera2_choices["box"][key]
    planned = choose_mode(SENSORS[key], (1280, 960))
    assert box["asked"] == {"output_size": list(planned.mode.size),
                            "bit_depth": planned.mode.bit_depth}
    assert box["used"] == [list(planned.mode.size), planned.mode.bit_depth]
    assert planned.crop >= 0.95


@pytest.mark.parametrize("key", ["cm3", "hq"])
def test_picamera2_older_than_the_sensor_argument_picks_by_the_raw_stream(
        picamera2_choices: dict[str, Any], key: str) -> None:
    used = picamera2_choices["raw_only"][key]
    assert used == [list(choose_mode(SENSORS[key], (1280, 960)).mode.size),
                    choose_mode(SENSORS[key], (1280, 960)).mode.bit_depth]


# --- the source with a stand-in camera ---------------------------------------------------------


class StandIn:
    """A Picamera2 stand-in: records the configuration it is given."""

    def __init__(self, model: str, sensor_modes: Any = (), sensor_arg: bool = True) -> None:
        self.camera_properties = {"Model": model, "PixelArraySize": (4000, 3000)}
        self._modes = sensor_modes
        self.sensor_arg = sensor_arg
        self.asked: dict[str, Any] = {}
        self.camera_controls: dict[str, Any] = {}

    @property
    def sensor_modes(self) -> Any:
        if isinstance(self._modes, Exception):
            raise self._modes
        return self._modes

    def create_video_configuration(self, **kw: Any) -> dict[str, Any]:
        if "sensor" in kw and not self.sensor_arg:
            raise TypeError("create_video_configuration() got an unexpected keyword 'sensor'")
        self.asked = kw
        return {"sensor": kw.get("sensor")}

    def configure(self, config: Any) -> None:
        self.config = config

    def camera_configuration(self) -> dict[str, Any]:
        return {"sensor": {"output_size": (1536, 864), "bit_depth": 10}}

    def set_controls(self, c: Any) -> None: ...
    def start(self) -> None: ...
    def stop(self) -> None: ...
    def close(self) -> None: ...

    def capture_metadata(self) -> dict[str, Any]:
        return {"ExposureTime": 1000, "AnalogueGain": 1.0, "ColourGains": (1.0, 1.0)}


def _start(cam: StandIn) -> Picamera2Source:
    source = Picamera2Source(0, size=(1280, 960), factory=lambda n: cam, warmup_frames=1)
    source.start()
    return source


def test_a_camera_the_table_does_not_know_is_planned_from_its_own_modes() -> None:
    modes = [{"size": (1000, 750), "bit_depth": 10, "crop_limits": (1000, 750, 2000, 1500),
              "fps": 90.0, "format": "SRGGB10"},
             {"size": (2000, 1500), "bit_depth": 10, "crop_limits": (0, 0, 4000, 3000),
              "fps": 40.0, "format": "SRGGB10"},
             {"format": "MJPEG"}]  # not a raw mode: left out
    cam = StandIn("imx999", modes)
    source = _start(cam)
    assert source.mode is not None and source.mode.mode.size == (2000, 1500)
    assert cam.asked["sensor"] == {"output_size": (2000, 1500), "bit_depth": 10}
    assert cam.asked["raw"] == {"size": (2000, 1500)}


def test_a_camera_without_modes_is_left_to_picamera2_and_said() -> None:
    cam = StandIn("usbcam", OSError("no raw stream"))
    source = _start(cam)
    assert source.mode is None and "sensor" not in cam.asked
    assert "left to picamera2" in (mode_report(source) or "")


def test_an_older_picamera2_is_asked_by_the_raw_stream_and_a_different_mode_is_said() -> None:
    cam = StandIn("imx708", sensor_arg=False)
    source = _start(cam)
    assert cam.asked["raw"] == {"size": (2304, 1296)} and "sensor" not in cam.asked
    report = mode_report(source) or ""
    assert "BUT picamera2 configured 1536x864" in report


# --- the command and the doc -------------------------------------------------------------------


def test_camera_plan_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["vision", "camera-plan", "--sensor", "cm3", "--height-cm", "68"]) == 0
    text = capsys.readouterr().out
    assert "mode: 2304x1296 10-bit" in text and "crop: 1.00" in text
    assert "field of view: 51.9 x 41.0 degrees" in text
    assert re.search(r"Wink\s+108 /\s+54 /\s+108 px", text)
    assert cli_main(["vision", "camera-plan", "--sensor", "v1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mode"]["size"] == [1296, 972] and data["crop"] == 1.0
    assert data == json.loads(json.dumps(plan(SENSORS["v1"])))


def test_camera_plan_refuses_in_one_line(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    assert cli_main(["vision", "camera-plan", "--sensor", "imx999"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert cli_main(["vision", "camera-plan", "--sensor", "cm3", "--size", "10x10"]) == 2
    bad = tmp_path / "c.toml"
    bad.write_text("[camera\n")
    assert cli_main(["vision", "camera-plan", "--sensor", "cm3", "--config", str(bad)]) == 2
    assert "c.toml" in capsys.readouterr().err


@pytest.mark.parametrize("name, table", [("mount-table", mount_table),
                                         ("cameras-table", cameras_table)])
def test_hardware_md_tables_are_the_function_s(name: str, table: Any) -> None:
    doc = (ROOT / "hardware.md").read_text(encoding="utf-8")
    body = doc.split(f"<!-- {name}: begin")[1].split(f"<!-- {name}: end -->")[0]
    assert body.split("-->", 1)[1].strip() == table(), (
        f"hardware.md's {name} is stale: python tools/mount_table.py")


def test_selftest_names_the_camera_mode() -> None:
    from tablekeeper.selftest import Verdict, camera_mode_result

    assert camera_mode_result(object()) is None  # not a picamera2 source: no line
    good = _start(StandIn("imx219"))
    good.mode_used = ((1640, 1232), 10)  # as picamera2 reports it
    result = camera_mode_result(good)
    assert result is not None and result.outcome is Verdict.PASS
    assert "1640x1232" in result.detail and "crop 1.00" in result.detail
    bad = _start(StandIn("imx708", sensor_arg=False))  # configured 1536x864
    result = camera_mode_result(bad)
    assert result is not None and result.outcome is Verdict.FAIL
    assert "1536x864" in result.detail
    unknown = camera_mode_result(_start(StandIn("usbcam", OSError("no raw stream"))))
    assert unknown is not None and unknown.outcome is Verdict.WARN
