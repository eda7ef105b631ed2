"""``[firmware.sound] device`` names the audio output (issue 31): an SDL output by its name,
else an ALSA device through ``AUDIODEV`` (a USB adapter on a Pi 5 is not ALSA's default).
Run on SDL's dummy audio driver in a child process (the mixer is process-wide)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from firmware.config import FirmwareConfig

CHILD = """
import json, os, sys
import pygame
from firmware.sound import open_mixer, opened, output_names
how = open_mixer(sys.argv[1], channels=1)
print(json.dumps({"how": how, "opened": opened, "names": output_names(),
                  "audiodev": os.environ.get("AUDIODEV"), "init": pygame.mixer.get_init()}))
"""


def _open(device: str) -> dict[str, object]:
    env = {**os.environ, "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    env.pop("AUDIODEV", None)
    got = subprocess.run([sys.executable, "-c", CHILD, device], capture_output=True,
                         text=True, timeout=60, env=env)
    assert got.returncode == 0, got.stderr
    out: dict[str, object] = json.loads(got.stdout.strip().splitlines()[-1])
    return out


def test_the_config_takes_a_device_name_and_refuses_a_non_string() -> None:
    cfg = FirmwareConfig.from_dict({"sound": {"device": " plughw:CARD=Device,DEV=0 "}})
    assert cfg.sound.device == "plughw:CARD=Device,DEV=0"
    assert FirmwareConfig.from_dict({}).sound.device == ""
    assert cfg.to_dict()["sound"]["device"] == "plughw:CARD=Device,DEV=0"
    with pytest.raises(ValueError, match=r"sound\.device: expected the name of an audio"):
        FirmwareConfig.from_dict({"sound": {"device": 3}})


def test_the_default_an_sdl_output_and_an_alsa_device() -> None:
    default = _open("")
    assert default["how"] == "the default output" and default["audiodev"] is None
    names = default["names"]
    assert isinstance(names, list) and names, "SDL's dummy driver lists one output"
    by_name = _open(str(names[0]))
    assert by_name["how"] == f"output {names[0]!r}" and by_name["audiodev"] is None
    alsa = _open("plughw:CARD=Device,DEV=0")  # not an SDL output: ALSA's, via AUDIODEV
    assert alsa["how"] == "ALSA device 'plughw:CARD=Device,DEV=0' (AUDIODEV)"
    assert alsa["audiodev"] == "plughw:CARD=Device,DEV=0" and alsa["init"]


def test_lgpio_gets_a_writable_folder_when_the_current_one_is_not(
        tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """``sudo -u tablekeeper tablekeeper buzzer calibrate`` from an admin's home: lgpio
    could not make its pipes there (issue 31); LG_WD is set for it, never overridden."""
    from pathlib import Path

    from firmware.devices import lgpio_work_dir

    here = Path(str(tmp_path))
    monkeypatch.chdir(here)
    assert lgpio_work_dir({}) is None  # writable: lgpio's own default is fine
    assert lgpio_work_dir({"LG_WD": "/somewhere"}) is None
    monkeypatch.setattr(os, "access", lambda path, mode: str(path) != str(here))
    env: dict[str, str] = {"RUNTIME_DIRECTORY": "/run/tablekeeper"}
    assert lgpio_work_dir(env) == "/run/tablekeeper" == env["LG_WD"]
    env = {}
    import tempfile

    assert lgpio_work_dir(env) == tempfile.gettempdir() == env["LG_WD"]
