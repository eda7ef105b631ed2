"""What a table publishes, read from its game journal, and how the board checks it.

Topics and ids: :mod:`tablekeeper.cafe.topics`. Every message is one JSON object checked
against the one schema (:mod:`tablekeeper.cafe.schema`) by the publisher before it sends and by
the board before it stores: ``schema`` (``tablekeeper.cafe``), ``v``, ``kind``
(``state``/``result``), ``table``, ``game_id``, ``seq`` (the journal's last seq it reflects)
and ``id`` = ``<game_id>:<seq>`` (``<game_id>:result`` for a result): the idempotent id a
board deduplicates on, so a message delivered twice is counted once. ``written_ms`` is the
journal's modification time when it was read (wall clock, ms): the board measures end-to-end
latency from it, and nothing orders games by it.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ground.files import read_head
from tablekeeper.cafe import schema
from tablekeeper.cafe.topics import (
    GAME_ID_RE,
    ROOT,
    SCHEMA,
    TABLE_RE,
    VERSION,
    check_table,
    derived_game_id,
    result_topic,
    state_topic,
)

__all__ = ["GAME_ID_RE", "ROOT", "SCHEMA", "TABLE_RE", "VERSION", "BadMessage", "GameView",
           "check_table", "encode", "journals_in_order", "live_journal", "parse", "read_view",
           "result_message", "result_topic", "state_message", "state_topic"]
MAX_PAYLOAD = 256 * 1024
#: the kiosk's journal of the game being played (tablekeeper.kiosk.CURRENT)
CURRENT = "current.jsonl"


class BadMessage(ValueError):
    """A message the board ignores (and logs): the reason."""


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
        table=table, game_id=contents.header.id or derived_game_id(table, header_line),
        game=spec.name,
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


def check(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` as the schema has it (what the publisher sends); :class:`BadMessage` says
    why not (a name with a control character, a result the board could not show...)."""
    try:
        return _dump(schema.validate_json(message["kind"], encode(message)))
    except (ValidationError, KeyError) as exc:
        why = schema.reason_of(exc) if isinstance(exc, ValidationError) else f"no {exc}"
        raise BadMessage(why) from exc


def _dump(model: schema.Message) -> dict[str, Any]:
    out: dict[str, Any] = model.model_dump(mode="json", by_alias=True)
    return out


def parse(topic: str, payload: bytes) -> dict[str, Any]:
    """A message from the board's topics, checked against the schema and the topic it came
    on (the table is the broker user who may write there); :class:`BadMessage` says why not."""
    parts = topic.split("/")
    root = ROOT.split("/")
    if parts[:2] != root or len(parts) < 4:
        raise BadMessage(f"not a table topic: {topic!r:.80}")
    table = parts[2]
    if not TABLE_RE.match(table):
        raise BadMessage(f"bad table name in the topic: {table!r:.40}")
    if parts[3:] == ["state"]:
        kind = "state"
    elif len(parts) == 5 and parts[3] == "results":
        kind = "result"
    else:
        raise BadMessage(f"unknown topic under the table's prefix: {topic!r:.80}")
    if len(payload) > MAX_PAYLOAD:
        raise BadMessage(f"payload of {len(payload)} bytes (at most {MAX_PAYLOAD})")
    try:
        head = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise BadMessage(f"not JSON: {exc}") from exc
    if not isinstance(head, dict):
        raise BadMessage(f"not a JSON object: {head!r:.60}")
    if head.get("schema") != SCHEMA:
        raise BadMessage(f"schema {head.get('schema')!r:.40}, expected {SCHEMA!r}")
    v = head.get("v")
    if isinstance(v, int) and not isinstance(v, bool) and v > VERSION:
        raise BadMessage(f"version {v} is newer than this board ({VERSION})")
    if head.get("kind") != kind:
        raise BadMessage(f"kind {head.get('kind')!r:.40} on a {kind} topic")
    if head.get("table") != table:
        raise BadMessage(f"table {head.get('table')!r:.40} published under {table!r}'s prefix")
    try:
        model = schema.validate_json(kind, payload)
    except ValidationError as exc:
        raise BadMessage(schema.reason_of(exc)) from exc
    if kind == "result" and parts[4] != model.game_id:
        raise BadMessage(f"result of {model.game_id} under {topic!r:.80}")
    return _dump(model)


def journals_in_order(folder: Path) -> list[Path]:
    """The journals in ``folder``: the archived ones by name (the kiosk's archive names), then
    the live one (``current.jsonl``) last. No modification time or clock decides anything."""
    found = sorted(p for p in folder.glob("*.jsonl") if p.name != CURRENT)
    current = folder / CURRENT
    return [*found, current] if current.exists() else found


def live_journal(folder: Path) -> Path | None:
    """The game being played: the kiosk's ``current.jsonl`` (it writes every game there and
    archives it under another name when the next one starts); None between games."""
    current = folder / CURRENT
    return current if current.exists() else None


def game_id_of(table: str, path: str | os.PathLike[str]) -> str:
    """The game id of the journal at ``path``: its header's ``id``, or the id derived from the
    header line of a journal written before headers had one."""
    line = _first_line(path)
    try:
        header = json.loads(line)
    except ValueError:
        header = None
    if isinstance(header, dict) and isinstance(header.get("id"), str) \
            and GAME_ID_RE.match(header["id"]):
        return str(header["id"])
    return derived_game_id(table, line)
