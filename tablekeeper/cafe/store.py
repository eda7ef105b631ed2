"""The league board's SQLite store: one file (WAL), backed up by copying it.

Tables: ``results`` (one row per finished game, keyed by its game id: a result delivered twice
is counted once, in ``stats.duplicates``), ``live`` (each table's latest state: a message with
an older seq of the same game, or of an older game, does not replace it), ``stats`` (counters:
messages, duplicates, bad messages).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    game_id TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    game TEXT NOT NULL,
    created TEXT,
    written_ms INTEGER NOT NULL,
    received_ms INTEGER NOT NULL,
    payload TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS results_by_time ON results (received_ms);
CREATE TABLE IF NOT EXISTS live (
    table_id TEXT PRIMARY KEY,
    game_id TEXT NOT NULL,
    created TEXT,
    seq INTEGER NOT NULL,
    written_ms INTEGER NOT NULL,
    received_ms INTEGER NOT NULL,
    payload TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS stats (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class Store:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _bump(self, name: str, by: int = 1) -> None:
        self._db.execute("INSERT INTO stats (name, value) VALUES (?, ?) ON CONFLICT(name) "
                         "DO UPDATE SET value = value + excluded.value", (name, by))

    def count_bad(self) -> None:
        with self._lock:
            self._bump("bad_messages")

    def add(self, message: dict[str, Any], received_ms: int | None = None) -> bool:
        """Store a checked message; False when it changed nothing (a duplicate, or a state
        older than the one shown)."""
        received = now_ms() if received_ms is None else received_ms
        payload = json.dumps(message, ensure_ascii=False)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._bump("messages")
                if message["kind"] == "result":
                    cur = self._db.execute(
                        "INSERT OR IGNORE INTO results (game_id, table_id, game, created, "
                        "written_ms, received_ms, payload) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (message["game_id"], message["table"], message["game"],
                         message.get("created"), message["written_ms"], received, payload))
                    changed = cur.rowcount == 1
                else:
                    row = self._db.execute("SELECT game_id, created, seq FROM live WHERE "
                                           "table_id = ?", (message["table"],)).fetchone()
                    changed = row is None or _newer(message, row)
                    if changed:
                        self._db.execute(
                            "INSERT OR REPLACE INTO live (table_id, game_id, created, seq, "
                            "written_ms, received_ms, payload) VALUES (?, ?, ?, ?, ?, ?, ?)",
                            (message["table"], message["game_id"], message.get("created"),
                             message["seq"], message["written_ms"], received, payload))
                if not changed:
                    self._bump("duplicates")
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return changed

    def stats(self) -> dict[str, int]:
        with self._lock:
            rows = self._db.execute("SELECT name, value FROM stats").fetchall()
        out = {"messages": 0, "duplicates": 0, "bad_messages": 0}
        out.update({str(k): int(v) for k, v in rows})
        return out

    def live(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT payload, received_ms FROM live "
                                    "ORDER BY table_id").fetchall()
        out = []
        for payload, received in rows:
            d = json.loads(payload)
            d["received_ms"] = received
            out.append(d)
        return out

    def results(self, since_ms: int = 0) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT payload, received_ms FROM results WHERE received_ms >= ? "
                "ORDER BY received_ms, game_id", (since_ms,)).fetchall()
        out = []
        for payload, received in rows:
            d = json.loads(payload)
            d["received_ms"] = received
            out.append(d)
        return out

    def result(self, game_id: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute("SELECT payload, received_ms FROM results WHERE "
                                   "game_id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        d: dict[str, Any] = json.loads(row[0])
        d["received_ms"] = row[1]
        return d

    def latencies_ms(self) -> list[int]:
        with self._lock:
            rows = self._db.execute("SELECT received_ms - written_ms FROM results").fetchall()
        return [int(r[0]) for r in rows]


def _newer(message: dict[str, Any], row: tuple[Any, ...]) -> bool:
    game_id, created, seq = row
    if message["game_id"] == game_id:
        return bool(message["seq"] > seq)
    return bool((message.get("created") or "") >= (created or ""))


def league(results: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Per game: each player's games, wins and points, best first (wins, then points)."""
    per_game: dict[str, dict[str, dict[str, Any]]] = {}
    for r in results:
        rows = per_game.setdefault(r["game"], {})
        for p in r["players"]:
            row = rows.setdefault(p["name"], {"player": p["name"], "played": 0, "wins": 0,
                                              "points": 0})
            row["played"] += 1
            row["wins"] += int(p["name"] in r["winners"])
            row["points"] += p["score"] or 0
    return {game: sorted(rows.values(), key=lambda x: (-x["wins"], -x["points"], x["player"]))
            for game, rows in sorted(per_game.items())}


def percentile(values: list[int], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return float(ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo))
