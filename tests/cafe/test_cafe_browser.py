"""``tablekeeper demo --tables 4 --headless``: four tables into a real broker and the board, and
the board's page in a real headless Chromium (Debian's; .ci/run installs it) shows the four
tables and the final league."""

from __future__ import annotations

import json
import re
import shutil
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
    """The rendered DOM's table cards, league rows and charts."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[str] = []
        self.league_games: list[str] = []
        self.league_rows = 0
        self.charts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if "table-card" in classes:
            self.tables.append(a.get("data-table") or "")
        if "league-game" in classes:
            self.league_games.append(a.get("data-game") or "")
        if "league-row" in classes:
            self.league_rows += 1
        if tag == "img" and (a.get("src") or "").endswith("/chart.svg"):
            self.charts.append(a["src"] or "")


def dump_dom(url: str) -> str:
    assert CHROMIUM is not None
    with tempfile.TemporaryDirectory(prefix="tk-chromium-") as profile:
        proc = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}",
                               "--virtual-time-budget=5000", "--dump-dom", url],
                              capture_output=True, text=True, check=False, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


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
        league_games = sorted({r["game"] for r in data["games"]})
        # tonight's and the season's league: every game played, once each
        assert sorted(cards.league_games) == sorted(league_games * 2)
        season_rows = sum(len(rows) for rows in data["league_season"].values())
        assert cards.league_rows == 2 * season_rows > 0
        assert len(cards.charts) == 4
        with urllib.request.urlopen(url.rstrip("/") + cards.charts[0], timeout=5) as r:
            assert r.headers["Content-Type"].startswith("image/svg+xml")
            assert b"<polyline" in r.read()
        with urllib.request.urlopen(url + "export/results.csv", timeout=5) as r:
            assert r.read().decode().count("\r\n") > 4
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    summary = json.loads(out.strip().splitlines()[-1])
    assert proc.returncode == 0, err
    assert summary["tables"] == 4 and summary["games_finished"] == 4
    assert summary["results_on_board"] == 4 and summary["duplicates"] == 0
    assert summary["latency_ms_p95"] is not None and summary["latency_ms_p95"] > 0

