"""``tablekeeper demo --tables 4 --headless``: four tables into a real broker and the board, and
the board's page in a real headless Chromium (Debian's; .ci/run installs it) shows the four
tables, the leagues of the competitive games, the cooperative game as the team's result and
the charts; screenshots at a TV's 1920×1080 and a phone's 390×844 (kept in the test's folder
to look at). The demo's board stays up until Ctrl-C, and says so."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from system_needs import requires_system

from tablekeeper.cafe.broker import mosquitto_path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = [
    pytest.mark.slow,
    requires_system("mosquitto", mosquitto_path(), "the café board's broker"),
    requires_system("chromium", CHROMIUM, "the café board in a real browser"),
]


class Cards(HTMLParser):
    """The rendered DOM's table cards, league rows, team results and charts."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[str] = []
        self.league_games: list[str] = []
        self.league_rows = 0
        self.team_games: list[str] = []
        self.team_rows: list[str] = []
        self.charts: list[str] = []
        self.svgs = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if "table-card" in classes:
            self.tables.append(a.get("data-table") or "")
        if "league-game" in classes:
            self.league_games.append(a.get("data-game") or "")
        if "league-row" in classes:
            self.league_rows += 1
        if "team-game" in classes:
            self.team_games.append(a.get("data-game") or "")
        if "team-row" in classes:
            self.team_rows.append(" ".join(classes))
        if "chart" in classes:
            self.charts.append(a.get("data-src") or "")
        if tag == "svg":
            self.svgs += 1


def chromium(url: str, *args: str, budget_ms: int = 5000) -> str:
    assert CHROMIUM is not None
    # the machine's own fonts, as a café's TV or phone has (tests/conftest.py hides them from
    # the suite; this machine has no CJK font, so Chinese comes from the board's own font)
    env = {k: v for k, v in os.environ.items() if k != "FONTCONFIG_FILE"}
    with tempfile.TemporaryDirectory(prefix="tk-chromium-") as profile:
        proc = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}",
                               f"--virtual-time-budget={budget_ms}", *args, url],
                              capture_output=True, text=True, check=False, timeout=120,
                              env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def dump_dom(url: str) -> str:
    return chromium(url, "--dump-dom")


def screenshot(url: str, out: Path, width: int, height: int) -> None:
    # a longer budget: the board's own CJK font is loaded before the shot, even on a busy CI
    chromium(url, "--hide-scrollbars", f"--window-size={width},{height}",
             f"--screenshot={out}", budget_ms=15000)
    assert out.stat().st_size > 40_000, "a blank page"
    size = subprocess.run(["identify", "-format", "%w %h", str(out)], capture_output=True,
                          text=True, check=True).stdout
    assert size == f"{width} {height}"


def test_four_tables_and_the_final_league_in_a_real_browser(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "tablekeeper", "demo", "--tables", "4", "--headless",
            "--out", str(tmp_path / "cafe"), "--linger", "25"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        match = re.match(r"board: (http://127\.0\.0\.1:\d+/)$", first.strip())
        assert match, first + (proc.stderr.read() if proc.stderr and proc.poll() is not None
                               else "")
        url = match.group(1)
        deadline = time.monotonic() + 180
        data: dict[str, Any] = {}
        while time.monotonic() < deadline:
            with urllib.request.urlopen(url + "api/board", timeout=5) as r:
                data = json.load(r)
            if data["results"] == 4 and all(t["over"] for t in data["tables"]):
                break
            time.sleep(0.5)
        assert data.get("results") == 4, data
        cards = Cards()
        cards.feed(dump_dom(url))
        assert sorted(cards.tables) == ["t1", "t2", "t3", "t4"]
        competitive = sorted({r["game"] for r in data["games"] if not r["cooperative"]})
        # tonight's and the season's league: every competitive game played, once each
        assert sorted(cards.league_games) == sorted(competitive * 2)
        season_rows = sum(len(rows) for rows in data["league_season"].values())
        assert cards.league_rows == 2 * season_rows > 0
        # the cooperative The Game: the team's result (won or lost, cards left), no ranks
        assert cards.team_games == ["the_game"] and "the_game" not in cards.league_games
        assert len(cards.team_rows) == 1 and cards.team_rows[0].split()[-1] in ("won", "lost")
        assert len(cards.charts) == 4 and cards.svgs >= 4  # drawn inline, in the page's font
        with urllib.request.urlopen(url.rstrip("/") + cards.charts[0], timeout=5) as r:
            assert r.headers["Content-Type"].startswith("image/svg+xml")
            assert b"<polyline" in r.read()
        with urllib.request.urlopen(url + "export/results.csv", timeout=5) as r:
            assert r.read().decode().count("\r\n") > 4
        shots = Path(os.environ.get("TK_SHOTS", tmp_path))
        screenshot(url, shots / "board-tv-1920x1080.png", 1920, 1080)
        screenshot(url, shots / "board-phone-390x844.png", 390, 844)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    summary = json.loads(next(line for line in out.splitlines() if line.startswith("{")))
    assert "stays up 25 s" in out
    assert proc.returncode == 0, err
    assert summary["tables"] == 4 and summary["games_finished"] == 4
    assert summary["results_on_board"] == 4 and summary["duplicates"] == 0
    assert summary["latency_ms_p95"] is not None and summary["latency_ms_p95"] > 0



def test_the_demos_board_stays_up_until_ctrl_c_and_says_so(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "tablekeeper", "demo", "--tables", "1", "--headless",
            "--pace-ms", "5", "--out", str(tmp_path / "cafe")]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT)
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(3)]
        assert lines[0].startswith("board: http://127.0.0.1:")
        assert "until you press Ctrl-C" in lines[2], lines
        url = lines[0].split()[1]
        time.sleep(3)
        assert proc.poll() is None  # still up, well after the game
        with urllib.request.urlopen(url + "api/board", timeout=5) as r:
            assert json.load(r)["results"] == 1
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "Ctrl-C: the board stops" in out
    assert not (tmp_path / "cafe" / "broker" / "mosquitto.pid").exists()
