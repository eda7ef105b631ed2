"""Power cuts on the real app: ``tablekeeper demo --headless`` killed mid-game and restarted.

The demo resumes the game in ``--out DIR/game.jsonl`` when it starts (as the kiosk resumes
``games/current.jsonl``). The test SIGKILLs it at random points of a game (when its journal has
grown by a random number of events), starts it again on the same folder, and checks after
every kill that the journal reads and replays (at most a torn last line), that a restart never
rewrites the history it resumed from, and that the game is finished in the end. The
deterministic, 50-kill version with lost unsynced tails is ``test_power_cut.py``; this one is
fewer kills because each restart of the full app (pygame, the screens, the arbiter) costs
about a second.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tablekeeper.journal import read, replay

KILLS = 8
BUDGET_S = 240.0


def _events(path: Path) -> list[str]:
    contents = read(path)
    replay(contents)  # no corrupt state: the engine replays it
    return [json.dumps(r.event.to_dict(), sort_keys=True) for r in contents.records
            if r.event is not None]


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


@pytest.mark.slow
def test_demo_resumes_after_kills(tmp_path: Path) -> None:
    rng = random.Random(6)
    out = tmp_path / "demo"
    journal = out / "game.jsonl"
    argv = [sys.executable, "-m", "tablekeeper", "demo", "--headless", "--no-camera",
            "--out", str(out), "--seed", "3", "--size", "640x360"]
    start = time.monotonic()
    history: list[str] = []
    kills = runs = 0
    while True:
        assert time.monotonic() - start < BUDGET_S, f"over budget after {kills} kills"
        target = _lines(journal) + rng.randint(1, 30)
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        runs += 1
        killed = False
        if kills < KILLS:
            while proc.poll() is None and _lines(journal) < target:
                time.sleep(0.002)  # polling the journal's growth, not timing anything
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                killed = True
        stdout, stderr = proc.communicate(timeout=120)
        if killed and proc.returncode != -signal.SIGKILL:
            killed = False  # it finished just before the signal
        if journal.exists():
            events = _events(journal)
            assert events[:len(history)] == history, "a restart rewrote the resumed history"
            history = events
        if killed:
            kills += 1
            continue
        assert proc.returncode == 0, stderr[-2000:]
        break
    final = replay(journal)
    assert final.phase.value == "over"
    assert "Game over" in stdout
    print(f"\ndemo power cuts: {kills} SIGKILLs over {runs} runs, {len(history)} events, "
          f"{time.monotonic() - start:.1f} s")
    assert kills == KILLS
