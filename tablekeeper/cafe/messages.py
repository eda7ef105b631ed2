"""What a table publishes, read from its game journal, and how the board checks it.

Topics (``ROOT`` = ``tablekeeper/tables``; a table's prefix is ``ROOT/<table>/``, the only
place the broker's ACL lets that table's user write):

- ``ROOT/<table>/state``: the table's live game (retained, QoS 1): game, players, scores,
  whose turn, phase; one message per journal change, the last one kept by the broker.
- ``ROOT/<table>/results/<game_id>``: a finished game (QoS 1, not retained): final scores,
  winners and the score timeline for the chart.

Every message is one JSON object: ``schema`` (``tablekeeper.cafe``), ``v``, ``kind``
(``state``/``result``), ``table``, ``game_id``, ``seq`` (the journal's last seq it reflects)
and ``id`` = ``<game_id>:<seq>`` (``<game_id>:result`` for a result): the idempotent id a
board deduplicates on, so a message delivered twice is counted once. ``game_id`` is
``<table>-<first 12 hex digits of the SHA-256 of the journal's header line>``: stable when the
kiosk renames ``current.jsonl`` to its archive name, different for every game.
``written_ms`` is the journal's modification time when it was read (wall clock, ms): the board
measures end-to-end latency from it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ground.files import read_head

SCHEMA = "tablekeeper.cafe"
VERSION = 1
ROOT = "tablekeeper/tables"
#: a table's name: what its topic prefix and broker user are called
TABLE_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
GAME_ID_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}-[0-9a-f]{12}$")
MAX_PAYLOAD = 256 * 1024


class BadMessage(ValueError):
    """A message the board ignores (and logs): the reason."""


def check_table(name: str) -> str:
    if not TABLE_RE.match(name):
        raise ValueError(f"table name {name!r}: use 1-32 of a-z, 0-9, '-' and '_' "
                         "(it names the table's topic prefix and its broker user)")
    return name


def state_topic(table: str) -> str:
    return f"{ROOT}/{table}/state"


def result_topic(table: str, game_id: str) -> str:
    return f"{ROOT}/{table}/results/{game_id}"


def game_id_of(table: str, header_line: bytes) -> str:
    digest = hashlib.sha256(header_line.rstrip(b"\n")).hexdigest()
    return f"{table}-{digest[:12]}"


@dataclass
class GameView:
    """One game as the café sees it: who plays, the scores, whose turn, how it ended."""

    table: str
    game_id: str
    game: str
    created: str | None
    seq: int
    phase: str
    players: list[dict[str, Any]]  # {"seat", "name", "score" (int or None)}
    to_act: str | None
    over: bool
    winners: list[str] = field(default_factory=list)
    reason: str | None = None
    cooperative: bool = False
    duration_ms: int = 0
    #: [seq, at_ms, [score by seat]] whenever a score changed (the chart)
    timeline: list[list[Any]] = field(default_factory=list)


def _players(summary: dict[str, Any], outcome: Any) -> list[dict[str, Any]]:
    rows = summary.get("players") or summary.get("seats") or []
    out: list[dict[str, Any]] = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            continue
        seat = row.get("seat", i)
        score = row.get("score")
        if outcome is not None and i < len(outcome.scores):
            score = outcome.scores[i]
        out.append({"seat": seat, "name": str(row.get("name", f"#{seat + 1}")),
                    "score": score if isinstance(score, int) else None})
    return out


def _who(value: Any, players: list[dict[str, Any]]) -> str | None:
    if isinstance(value, dict):
        return str(value.get("name")) if value.get("name") is not None else None
    if isinstance(value, int) and 0 <= value < len(players):
        return str(players[value]["name"])
    return None


#: the most read of a journal's header line (one is about 1 kB)
HEADER_BYTES = 64 * 1024


def _first_line(path: str | os.PathLike[str]) -> bytes:
    from tablekeeper.journal import JournalError

    try:  # (bounded and never blocking: a FIFO in the journals folder is not a journal)
        head = read_head(path, HEADER_BYTES)
    except OSError as exc:
        raise JournalError(str(path), 0, f"cannot read: {exc.strerror or exc}") from exc
    return head[:head.index(b"\n") + 1] if b"\n" in head else head


def read_view(table: str, path: str | os.PathLike[str], timeline: bool = False) -> GameView:
    """The game in journal ``path`` (read with :func:`tablekeeper.journal.read`; its
    ``JournalError`` passes through, and whatever else a damaged journal trips on while it is
    folded is one too). ``timeline``: also fold the score after every event."""
    from tablekeeper.journal import JournalError

    try:
        return _read_view(table, path, timeline)
    except JournalError:
        raise
    except Exception as exc:  # a damaged journal never stops the publisher
        raise JournalError(str(path), 0, f"cannot be read: {type(exc).__name__}: "
                                         f"{str(exc)[:200]}") from exc


def _read_view(table: str, path: str | os.PathLike[str], timeline: bool) -> GameView:
    from engine.core import Rejection
    from tablekeeper.journal import JournalError, read

    # The kiosk may rename current.jsonl and start another game under that name between two
    # opens: the header read before and after the journal must be the same file's.
    header_line = _first_line(path)
    contents = read(path)
    if _first_line(path) != header_line:
        raise JournalError(str(path), 0, "replaced by another game while being read")
    spec = contents.spec
    state = spec.initial_state(contents.rules)
    points: list[list[Any]] = []
    last_scores: list[Any] | None = None
    at_ms = 0
    for rec in contents.active():
        if rec.event is None:  # a record kind that changes no state (e.g. a history note)
            continue
        result = spec.apply(state, rec.event)
        if isinstance(result, Rejection):
            raise JournalError(contents.path, rec.line, f"the engine rejects this event: {result}")
        state = result
        at_ms = rec.event.at_ms
        if timeline:
            scores = [p["score"] for p in _players(spec.summary(state), None)]
            if scores != last_scores and any(s is not None for s in scores):
                points.append([rec.seq, at_ms, scores])
                last_scores = scores
    outcome = spec.outcome(state)
    summary = spec.summary(state)
    players = _players(summary, outcome)
    summary_outcome = summary.get("outcome") if isinstance(summary.get("outcome"), dict) else {}
    assert isinstance(summary_outcome, dict)
    view = GameView(
        table=table, game_id=game_id_of(table, header_line), game=spec.name,
        created=contents.header.created, seq=contents.last_seq(),
        phase=str(summary.get("phase", "")), players=players,
        to_act=_who(summary.get("to_act"), players), over=outcome is not None,
        cooperative="verdict" in summary_outcome, duration_ms=at_ms, timeline=points)
    if outcome is not None:
        view.winners = [players[s]["name"] for s in outcome.winners if s < len(players)]
        reason = outcome.reason
        view.reason = str(getattr(reason, "value", reason))
        if view.cooperative:
            view.reason = f"{view.reason}: {summary_outcome.get('verdict')}"
        if timeline and players and all(p["score"] is not None for p in players):
            final = [p["score"] for p in players]
            if final != last_scores:
                points.append([view.seq, at_ms, final])
    return view


def _base(kind: str, view: GameView, written_ms: int) -> dict[str, Any]:
    ident = f"{view.game_id}:{'result' if kind == 'result' else view.seq}"
    return {"schema": SCHEMA, "v": VERSION, "kind": kind, "id": ident, "table": view.table,
            "game_id": view.game_id, "seq": view.seq, "game": view.game,
            "created": view.created, "written_ms": written_ms}


def state_message(view: GameView, written_ms: int) -> dict[str, Any]:
    out = _base("state", view, written_ms)
    out.update(phase=view.phase, players=view.players, to_act=view.to_act, over=view.over)
    return out


def result_message(view: GameView, written_ms: int) -> dict[str, Any]:
    out = _base("result", view, written_ms)
    out.update(players=view.players, winners=view.winners, reason=view.reason,
               cooperative=view.cooperative, duration_ms=view.duration_ms,
               timeline=view.timeline)
    return out


def encode(message: dict[str, Any]) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _need(d: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = d.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise BadMessage(f"{key}: expected {getattr(kind, '__name__', kind)}, got {value!r:.60}")
    return value


def parse(topic: str, payload: bytes) -> dict[str, Any]:
    """A message from the board's topics, checked; :class:`BadMessage` says why not."""
    parts = topic.split("/")
    root = ROOT.split("/")
    if parts[:2] != root or len(parts) < 4:
        raise BadMessage(f"not a table topic: {topic!r}")
    table = parts[2]
    if not TABLE_RE.match(table):
        raise BadMessage(f"bad table name in the topic: {table!r}")
    if parts[3:] == ["state"]:
        kind = "state"
    elif len(parts) == 5 and parts[3] == "results":
        kind = "result"
    else:
        raise BadMessage(f"unknown topic under the table's prefix: {topic!r}")
    if len(payload) > MAX_PAYLOAD:
        raise BadMessage(f"payload of {len(payload)} bytes (at most {MAX_PAYLOAD})")
    try:
        d = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise BadMessage(f"not JSON: {exc}") from exc
    if not isinstance(d, dict):
        raise BadMessage(f"not a JSON object: {d!r:.60}")
    if d.get("schema") != SCHEMA:
        raise BadMessage(f"schema {d.get('schema')!r:.40}, expected {SCHEMA!r}")
    if _need(d, "v", int) > VERSION:
        raise BadMessage(f"version {d['v']} is newer than this board ({VERSION})")
    if d.get("kind") != kind:
        raise BadMessage(f"kind {d.get('kind')!r:.40} on a {kind} topic")
    if d.get("table") != table:
        raise BadMessage(f"table {d.get('table')!r:.40} published under {table!r}'s prefix")
    game_id = _need(d, "game_id", str)
    if not GAME_ID_RE.match(game_id) or not game_id.startswith(table + "-"):
        raise BadMessage(f"bad game_id {game_id!r:.60}")
    if kind == "result" and parts[4] != game_id:
        raise BadMessage(f"result of {game_id} under {topic!r}")
    seq = _need(d, "seq", int)
    if seq < 0:
        raise BadMessage(f"seq {seq}")
    expected = f"{game_id}:{'result' if kind == 'result' else seq}"
    if d.get("id") != expected:
        raise BadMessage(f"id {d.get('id')!r:.60}, expected {expected!r}")
    _need(d, "game", str)
    _need(d, "written_ms", int)
    players = _need(d, "players", list)
    for p in players:
        if not isinstance(p, dict) or not isinstance(p.get("name"), str) \
                or not (p.get("score") is None or isinstance(p.get("score"), int)):
            raise BadMessage(f"bad player {p!r:.80}")
    if kind == "result":
        winners = _need(d, "winners", list)
        if not all(isinstance(w, str) for w in winners):
            raise BadMessage("winners: expected names")
        timeline = _need(d, "timeline", list)
        for point in timeline:
            if not (isinstance(point, list) and len(point) == 3 and isinstance(point[2], list)):
                raise BadMessage(f"bad timeline point {point!r:.60}")
    return d


def newest_journals(folder: Path) -> list[Path]:
    """The journals in ``folder``, oldest first by modification time."""
    found = []
    for p in folder.glob("*.jsonl"):
        try:
            found.append((p.stat().st_mtime_ns, p.name, p))
        except OSError:
            continue
    return [p for _, _, p in sorted(found)]
