"""Fault suite, SIGTERM: ``systemctl stop`` (or a shutdown) ends the kiosk cleanly within the
unit's ``TimeoutStopSec``, whenever it comes -- during the start-up, before the screen is up,
and while the game runs. SDL installs its own SIGTERM handler when it starts (it only queues a
quit event); the kiosk answers SIGTERM itself, before pygame starts and after: every
``finally`` runs (the camera, the screen, the buttons, the folder's lock) and it exits 0.
Real processes, real signals."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "tablekeeper-kiosk.service"


def _timeout_stop_s() -> float:
    found = re.search(r"^TimeoutStopSec=(\d+)\s*$", UNIT.read_text(encoding="utf-8"), re.M)
    assert found, "the unit names its TimeoutStopSec"
    return float(found.group(1))


@pytest.mark.parametrize("when", ["during the start-up", "once the screen is up"])
def test_sigterm_stops_the_kiosk_cleanly_within_the_units_timeout(
        tmp_path: Path, when: str, record_property: Callable[[str, object], None]) -> None:
    record_property("faults", 1)
    config = tmp_path / "c.toml"
    config.write_text(f'[table]\nstate_dir = "{tmp_path / "state"}"\n', encoding="utf-8")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONPATH=str(ROOT), NOTIFY_SOCKET="")
    proc = subprocess.Popen([sys.executable, "-m", "tablekeeper", "kiosk", "--config",
                             str(config), "--keyboard", "--simulate-camera", "--window",
                             "--run-for", "300", "--log-level", "DEBUG"],
                            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    lock = tmp_path / "state" / "games" / ".tablekeeper.lock"
    try:
        deadline = time.monotonic() + 90
        if when == "during the start-up":
            # the kiosk has taken its folder's lock: it is past its imports, the screen is not
            # up yet (the journal, the camera and the screen come next)
            while not lock.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
        else:
            while time.monotonic() < deadline:
                if (tmp_path / "state" / "games" / "current.jsonl").exists():
                    break
                time.sleep(0.05)
            time.sleep(3)  # the loop runs
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        sent = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(_timeout_stop_s())
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    said = proc.stderr.read() if proc.stderr else ""
    assert code == 0, f"exit {code} after SIGTERM ({took:.1f} s):\n{said[-2000:]}"
    assert "Traceback" not in said, said
    # the lock went with the process and a second start works at once
    done = subprocess.run([sys.executable, "-m", "tablekeeper", "kiosk", "--config",
                           str(config), "--keyboard", "--simulate-camera", "--window",
                           "--run-for", "0.2"], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
