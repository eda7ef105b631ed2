"""The league board's SQLite store: one file (WAL), backed up by copying it.

Tables: ``games`` (one row per finished game, keyed by its table *and* its game id: a result
delivered twice is counted once, in ``stats.duplicates``), ``live`` (each table's latest
state), ``stats`` (counters: messages, duplicates, bad messages) and ``meta`` (the store's
``epoch``: a random id made with the file; a new one tells the tables to send their results
again, :mod:`tablekeeper.cafe.board`).

A file SQLite cannot read (damaged, or not a database) is set aside as
``<name>.damaged-<time>`` (with its ``-wal``/``-shm``) and a new one started: the board never
crash-loops on it, and the tables send their results again to the new one.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import sqlite3
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

log = logging.getLogger("tablekeeper.cafe.store")

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    table_id TEXT NOT NULL,
    game_id TEXT NOT NULL,
    game TEXT NOT NULL,
    created TEXT,
    written_ms INTEGER NOT NULL,
    received_ms INTEGER NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (table_id, game_id)
);
CREATE INDEX IF NOT EXISTS games_by_time ON games (received_ms);
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
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
#: seconds SQLite waits for another writer's lock before it says "database is locked"
BUSY_TIMEOUT_S = 1.0


def _loads(payload: str) -> Any:
    try:
        return json.loads(payload)
    except ValueError:
        return None


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def _open(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None,
                         timeout=BUSY_TIMEOUT_S)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        row = db.execute("PRAGMA quick_check").fetchone()
        if row is None or row[0] != "ok":
            raise sqlite3.DatabaseError(f"quick_check: {row[0] if row else 'no answer'}")
        db.executescript(SCHEMA)
    except BaseException:
        db.close()
        raise
    return db


def _is_locked(exc: sqlite3.Error) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and (
        "locked" in str(exc) or "busy" in str(exc))


class Store:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        #: bumped at every stored result / live state: the board's cached answers know when
        #: to be made again
        self.version = 0
        self.live_version = 0
        #: where a damaged file was put (None: the file opened fine)
        self.set_aside: Path | None = None
        try:
            self._db = _open(path)
        except sqlite3.DatabaseError as exc:
            if _is_locked(exc):
                raise
            self.set_aside = self._set_aside(exc)
            self._db = _open(path)
        self._migrate()
        row = self._db.execute("SELECT value FROM meta WHERE name = 'epoch'").fetchone()
        if row is None:
            self.epoch = secrets.token_hex(8)
            self._db.execute("INSERT INTO meta (name, value) VALUES ('epoch', ?)",
                             (self.epoch,))
        else:
            self.epoch = str(row[0])

    def _set_aside(self, exc: sqlite3.Error) -> Path:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        n = 1
        while target.exists():
            n += 1
            target = self.path.with_name(f"{self.path.name}.damaged-{stamp}-{n}")
        os.replace(self.path, target)
        for suffix in ("-wal", "-shm"):
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                os.replace(side, target.with_name(target.name + suffix))
        log.error("%s cannot be read (%s): set aside as %s; a new board store is started and "
                  "the tables send their results again", self.path, exc, target)
        return target

    def _migrate(self) -> None:
        """Results of a store written before games were keyed by table and id."""
        old = self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND "
                               "name = 'results'").fetchone()
        if old is not None:
            with self._lock:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute("INSERT OR IGNORE INTO games SELECT table_id, game_id, game, "
                                 "created, written_ms, received_ms, payload FROM results")
                self._db.execute("DROP TABLE results")
                self._db.execute("COMMIT")

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
        older than the one shown). ``sqlite3.OperationalError`` "database is locked" when
        another process holds the file longer than :data:`BUSY_TIMEOUT_S`: nothing is
        stored, the caller tries again."""
        received = now_ms() if received_ms is None else received_ms
        payload = json.dumps(message, ensure_ascii=False)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._bump("messages")
                if message["kind"] == "result":
                    cur = self._db.execute(
                        "INSERT OR IGNORE INTO games (table_id, game_id, game, created, "
                        "written_ms, received_ms, payload) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (message["table"], message["game_id"], message["game"],
                         message.get("created"), message["written_ms"], received, payload))
                    changed = cur.rowcount == 1
                    if changed:
                        self._finish_live(message)
                else:
                    row = self._db.execute("SELECT game_id, seq FROM live WHERE "
                                           "table_id = ?", (message["table"],)).fetchone()
                    changed = row is None or _newer(message, row, self._finished(message))
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
            if changed:
                self.live_version += 1
                if message["kind"] == "result":
                    self.version += 1
        return changed

    def _finished(self, message: dict[str, Any]) -> bool:
        return self._db.execute("SELECT 1 FROM games WHERE table_id = ? AND game_id = ?",
                                (message["table"], message["game_id"])).fetchone() is not None

    def _finish_live(self, result: dict[str, Any]) -> None:
        """The table's live game, when it is this result's game, shown over with its final
        scores (the last state may have been sent before the last event)."""
        row = self._db.execute("SELECT game_id, payload FROM live WHERE table_id = ?",
                               (result["table"],)).fetchone()
        if row is None or row[0] != result["game_id"]:
            return
        live = json.loads(row[1])
        live.update(players=result["players"], over=True, to_act=None,
                    seq=max(int(live.get("seq", 0)), int(result["seq"])))
        self._db.execute("UPDATE live SET payload = ?, seq = ? WHERE table_id = ?",
                         (json.dumps(live, ensure_ascii=False), live["seq"], result["table"]))

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
            d = _loads(payload)
            if isinstance(d, dict) and isinstance(d.get("players"), list):
                d["received_ms"] = received
                out.append(d)
        return out

    def results(self, since_ms: int = 0) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT payload, received_ms FROM games WHERE received_ms >= ? "
                "ORDER BY received_ms, table_id, game_id", (since_ms,)).fetchall()
        out = []
        for payload, received in rows:
            d = showable(_loads(payload), received)
            if d is not None:
                out.append(d)
        return out

    def result(self, table: str, game_id: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute("SELECT payload, received_ms FROM games WHERE "
                                   "table_id = ? AND game_id = ?", (table, game_id)).fetchone()
        if row is None:
            return None
        return showable(_loads(row[0]), row[1])

    def latencies_ms(self) -> list[int]:
        with self._lock:
            rows = self._db.execute("SELECT received_ms - written_ms FROM games").fetchall()
        return [int(r[0]) for r in rows]


def _int(value: Any, lo: int, hi: int, default: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        return default
    return max(lo, min(hi, value))


def _score(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) \
        and abs(value) <= 10**9 else None


def showable(d: Any, received_ms: int = 0) -> dict[str, Any] | None:
    """A stored result as the page and the exports can always use it, whatever an older
    board stored: missing or wrong fields get neutral values (duration 0, no creation time,
    times clamped to 1970..2200, timeline points of the wrong shape dropped). None: not a
    result at all."""
    from tablekeeper.cafe.schema import MAX_MS

    if not isinstance(d, dict) or not isinstance(d.get("game_id"), str):
        return None
    def listed(key: str) -> list[Any]:
        value = d.get(key)
        return value if isinstance(value, list) else []

    players = []
    for i, p in enumerate(listed("players")):
        if isinstance(p, dict):
            players.append({"seat": _int(p.get("seat"), 0, 63, i),
                            "name": str(p.get("name") or f"#{i + 1}")[:64],
                            "score": _score(p.get("score"))})
    created = d.get("created")
    if isinstance(created, str):
        try:
            datetime.fromisoformat(created)
        except ValueError:
            created = None
    else:
        created = None
    timeline = []
    for point in listed("timeline"):
        if isinstance(point, list) and len(point) == 3 and isinstance(point[2], list):
            timeline.append([_int(point[0], 0, 10**9), _int(point[1], 0, MAX_MS),
                             [_score(v) for v in point[2][:len(players)]]])
    winners = listed("winners")
    reason = d.get("reason")
    return {**d, "table": str(d.get("table", "")), "game": str(d.get("game", "")),
            "created": created, "written_ms": _int(d.get("written_ms"), 0, MAX_MS),
            "duration_ms": _int(d.get("duration_ms"), 0, 7 * 86_400_000),
            "seq": _int(d.get("seq"), 0, 10**9), "players": players,
            "winners": [str(w) for w in winners], "reason": None if reason is None
            else str(reason), "cooperative": bool(d.get("cooperative")),
            "timeline": timeline, "received_ms": received_ms}


def _newer(message: dict[str, Any], row: tuple[Any, ...], finished: bool) -> bool:
    """Does this state replace the table's live one? The same game: a later seq. Another game:
    yes, unless that game is already finished on the board (a late copy of an old game's
    state): the table's states arrive in the order it sent them (one topic, one
    connection), and its publisher sends only its live journal's. No clock decides."""
    game_id, seq = row
    if message["game_id"] == game_id:
        return bool(message["seq"] > seq)
    return not finished


def league(results: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Per competitive game: each player's games, wins and points, best first (wins, then
    points). Cooperative games (the table wins or loses together) are in :func:`teams`."""
    per_game: dict[str, dict[str, dict[str, Any]]] = {}
    for r in results:
        if r.get("cooperative"):
            continue
        rows = per_game.setdefault(r["game"], {})
        for p in r["players"]:
            row = rows.setdefault(p["name"], {"player": p["name"], "played": 0, "wins": 0,
                                              "points": 0})
            row["played"] += 1
            row["wins"] += int(p["name"] in r["winners"])
            row["points"] += p["score"] or 0
    return {game: sorted(rows.values(), key=lambda x: (-x["wins"], -x["points"], x["player"]))
            for game, rows in sorted(per_game.items())}


def verdict(result: dict[str, Any]) -> str | None:
    """A cooperative game's verdict (``win``, ``super_win``, ``loss``, ``not_judged``): the
    publisher writes the result's reason as ``<how it ended>: <verdict>``."""
    if not result.get("cooperative"):
        return None
    _, sep, value = str(result.get("reason") or "").rpartition(": ")
    return value if sep else None


def team_won(result: dict[str, Any]) -> bool:
    return verdict(result) in {"win", "super_win"}


def teams(results: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per cooperative game: how many the tables played and won, and the last games (the
    players, won or lost, the cards left: the team's score), newest first."""
    out: dict[str, dict[str, Any]] = {}
    for r in results:
        if not r.get("cooperative"):
            continue
        g = out.setdefault(r["game"], {"played": 0, "won": 0, "games": []})
        g["played"] += 1
        g["won"] += int(team_won(r))
        scores = [p["score"] for p in r["players"] if p["score"] is not None]
        g["games"].append({"table": r["table"], "game_id": r["game_id"],
                           "players": [p["name"] for p in r["players"]], "won": team_won(r),
                           "verdict": verdict(r),
                           "cards_left": scores[0] if scores else None})
    for g in out.values():
        g["games"] = g["games"][::-1][:10]
    return dict(sorted(out.items()))


def percentile(values: list[int], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return float(ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo))
