"""The game journal: every accepted event, one JSON line each, fsynced before it is acknowledged.

A journal is an append-only text file (UTF-8, one JSON object per line, ``\\n`` after each):

line 1, the header::

    {"schema": "tablekeeper.journal", "version": 1, "game": "something_missing",
     "rules": {...Rules.to_dict()...}, "created": "2026-11-29T12:00:00+00:00"}

then one record per line, numbered by ``seq`` (1, 2, 3 ... in file order):

- an accepted event: ``{"seq": 1, "event": {"type": "new_game", "v": 1, "at_ms": 0, ...}}``
- an undo: ``{"seq": 9, "undo": 7}`` -- cancels the host-entered event ``seq`` 7 *and every
  event accepted after it* (they happened in a state that the undo takes back). Nothing is ever
  rewritten: undoing is appending. Undo again and the host event before that goes too.

``state = replay(path)`` folds the engine's ``apply`` over the events still in force, starting
from ``initial_state(rules)`` with the rules of the header, so a later version can replay an old
game exactly (missing rule keys take the defaults of the version that wrote them -- keep
defaults stable or bump ``version``). Reading:

- a last line without its ``\\n`` (power cut mid-write: never acknowledged) is reported as
  ``torn_tail`` and skipped; nothing before it is lost. ``Journal.open`` cuts the torn bytes
  off so the file can be appended to again cleanly;
- any other damage (bad JSON, a ``seq`` out of order, an unknown event or field, an undo of
  something that is not a host event in force, an event the engine rejects) is a
  :class:`JournalError` naming the line number;
- an unknown ``schema`` or a ``version`` newer than this code is a :class:`JournalError` too.

The writer: :class:`Journal` (create / open / append / append_undo). The game loop's
convenience: :class:`JournaledGame` (``submit(event) -> State | Rejection`` journals an
accepted event before returning it; ``undo()``).
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.core import Engine, Event, EventRegistry, Rejection, Source

SCHEMA = "tablekeeper.journal"
VERSION = 1


class JournalError(ValueError):
    """A journal that cannot be read; ``line`` is the 1-based line number (0: the whole file)."""

    def __init__(self, path: str | os.PathLike[str], line: int, message: str) -> None:
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {message}")
        self.line = line


def game_spec(game: str | None) -> Engine[Any] | None:
    """The engine of the game a header names (None: the default game), or None when no kit
    is registered for it (:mod:`tablekeeper.games`)."""
    from tablekeeper import games

    try:
        if game is None:
            return games.load(games.DEFAULT_GAME).engine
        return games.engine_for(game)
    except games.UnknownGame:
        return None


def _known() -> str:
    from tablekeeper import games

    return ", ".join(games.load(name).engine.name for name in games.names())


@dataclass(frozen=True)
class Header:
    game: str
    rules: Mapping[str, Any]
    schema: str = SCHEMA
    version: int = VERSION
    created: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"schema": self.schema, "version": self.version,
                               "game": self.game, "rules": dict(self.rules)}
        if self.created is not None:
            out["created"] = self.created
        return out


@dataclass(frozen=True)
class Record:
    """One line after the header: an event or an undo, with its line number."""

    seq: int
    line: int
    event: Event | None = None
    undo: int | None = None


@dataclass(frozen=True)
class TornTail:
    """A last line cut short (no newline): skipped, never acknowledged."""

    line: int
    data: bytes


@dataclass(frozen=True)
class Contents:
    path: str
    header: Header
    spec: Engine[Any]
    rules: Any
    records: tuple[Record, ...]
    torn_tail: TornTail | None
    good_bytes: int  # length of the file up to the end of the last complete line

    def active(self) -> list[Record]:
        """The event records still in force after the undos."""
        return _active(self.records, self.path)

    def last_seq(self) -> int:
        return self.records[-1].seq if self.records else 0


def _active(records: tuple[Record, ...] | list[Record], path: str) -> list[Record]:
    active: list[Record] = []
    for rec in records:
        if rec.event is not None:
            active.append(rec)
            continue
        target = rec.undo
        idx = next((i for i, r in enumerate(active) if r.seq == target), None)
        if idx is None:
            raise JournalError(path, rec.line, f"undo of seq {target}, which is not in force")
        ev = active[idx].event
        assert ev is not None
        if ev.source is not Source.HOST:
            raise JournalError(path, rec.line,
                               f"undo of seq {target}, which is not a host-entered event")
        del active[idx:]
    return active


def last_host_seq(active: list[Record]) -> int | None:
    for rec in reversed(active):
        if rec.event is not None and rec.event.source is Source.HOST:
            return rec.seq
    return None


def read(path: str | os.PathLike[str]) -> Contents:
    """Read and check a journal (see the module docstring for what is an error)."""
    p = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise JournalError(p, 0, f"cannot read: {exc.strerror or exc}") from exc
    lines = data.split(b"\n")
    tail = lines.pop()  # bytes after the last newline (b"" for a complete file)
    torn: TornTail | None = None
    # NUL-only lines at the very end are what a power cut can leave of a write in flight.
    while lines and lines[-1] and not lines[-1].strip(b"\0"):
        lines.pop()
        torn = TornTail(line=len(lines) + 1, data=b"")
    if tail:
        torn = TornTail(line=len(lines) + 1, data=tail)
    good_bytes = sum(len(line) + 1 for line in lines)
    if not lines:
        raise JournalError(p, 1, "empty journal: no complete header line")
    header = _parse_header(p, lines[0])
    spec = game_spec(header.game)
    if spec is None:
        raise JournalError(p, 1, f"unknown game {header.game!r} (known: {_known()})")
    try:
        rules = spec.rules_from_dict(header.rules)
    except ValueError as exc:
        raise JournalError(p, 1, f"bad rules: {exc}") from exc
    records: list[Record] = []
    for i, raw in enumerate(lines[1:], start=2):
        rec = _parse_record(p, i, raw, spec.events)
        expected = records[-1].seq + 1 if records else 1
        if rec.seq != expected:
            raise JournalError(p, i, f"seq {rec.seq} where {expected} was expected")
        records.append(rec)
    contents = Contents(path=p, header=header, spec=spec, rules=rules, records=tuple(records),
                        torn_tail=torn, good_bytes=good_bytes)
    contents.active()  # undo records are checked here
    return contents


def _loads(path: str, line: int, raw: bytes) -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise JournalError(path, line, f"not valid JSON ({exc})") from exc


def _parse_header(path: str, raw: bytes) -> Header:
    d = _loads(path, 1, raw)
    if not isinstance(d, dict) or d.get("schema") != SCHEMA:
        got = d.get("schema") if isinstance(d, dict) else d
        raise JournalError(path, 1, f"not a tablekeeper journal (schema {got!r}, "
                                    f"expected {SCHEMA!r})")
    version = d.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise JournalError(path, 1, f"bad schema version {version!r}")
    if version > VERSION:
        raise JournalError(path, 1, f"unsupported journal schema version {version} "
                                    f"(this tablekeeper reads up to {VERSION})")
    game, rules, created = d.get("game"), d.get("rules", {}), d.get("created")
    if not isinstance(game, str):
        raise JournalError(path, 1, f"header: game must be a name, got {game!r}")
    if not isinstance(rules, dict):
        raise JournalError(path, 1, f"header: rules must be an object, got {rules!r}")
    unknown = set(d) - {"schema", "version", "game", "rules", "created"}
    if unknown:
        raise JournalError(path, 1, f"header: unknown key(s) {sorted(unknown)}")
    return Header(game=game, rules=rules, version=version,
                  created=created if isinstance(created, str) else None)


def _parse_record(path: str, line: int, raw: bytes, events: EventRegistry) -> Record:
    d = _loads(path, line, raw)
    if not isinstance(d, dict):
        raise JournalError(path, line, f"a record must be a JSON object, got {d!r}")
    seq = d.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise JournalError(path, line, f"record without an integer seq: {d!r}")
    if set(d) == {"seq", "event"}:
        try:
            return Record(seq=seq, line=line, event=events.from_dict(d["event"]))
        except ValueError as exc:
            raise JournalError(path, line, str(exc)) from exc
    if set(d) == {"seq", "undo"} and isinstance(d["undo"], int):
        return Record(seq=seq, line=line, undo=d["undo"])
    raise JournalError(path, line, f"a record is {{seq, event}} or {{seq, undo}}, got {d!r}")


def replay(source: str | os.PathLike[str] | Contents) -> Any:
    """The state after every event in force, exactly as the engine produced it."""
    contents = source if isinstance(source, Contents) else read(source)
    state = contents.spec.initial_state(contents.rules)
    for rec in contents.active():
        assert rec.event is not None
        result = contents.spec.apply(state, rec.event)
        if isinstance(result, Rejection):
            raise JournalError(contents.path, rec.line,
                               f"the engine rejects this event on replay: {result}")
        state = result
    return state


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:  # pragma: no cover - some filesystems cannot open directories
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Journal:
    """An append-only journal file. Every append is flushed and fsynced before it returns."""

    def __init__(self, path: Path, contents: Contents) -> None:
        self.path = path
        self.header = contents.header
        self.spec = contents.spec
        self.rules = contents.rules
        self.torn_tail = contents.torn_tail
        self._records: list[Record] = list(contents.records)
        self._next_line = len(contents.records) + 2

    @classmethod
    def create(cls, path: str | os.PathLike[str], rules: Any = None,
               game: str | None = None, created: str | None = None) -> Journal:
        """A new journal with its header (complete or absent, never torn); refuses to
        overwrite an existing file (``FileExistsError``). ``game``: the engine's name (None:
        the default game)."""
        spec = game_spec(game)
        if spec is None:
            raise ValueError(f"unknown game {game!r} (known: {_known()})")
        if rules is None:
            rules = spec.rules_from_dict({})
        p = Path(path)
        header = Header(game=spec.name, rules=spec.rules_to_dict(rules),
                        created=created or datetime.now(UTC).isoformat(timespec="seconds"))
        line = json.dumps(header.to_dict(), ensure_ascii=False, separators=(",", ":"))
        if p.exists():
            raise FileExistsError(errno.EEXIST, "journal exists", str(p))
        # The header is written beside and linked into place when complete, so a power cut
        # never leaves a journal with half a header; linking refuses to replace a file.
        tmp = p.with_name(f".{p.name}.{os.getpid()}.new")
        try:
            with open(tmp, "xb") as f:
                f.write(line.encode("utf-8") + b"\n")
                f.flush()
                os.fsync(f.fileno())
            os.link(tmp, p)
        finally:
            tmp.unlink(missing_ok=True)
        _fsync_dir(p)
        return cls(p, read(p))

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Journal:
        """Open an existing journal to continue it; a torn last line is cut off (and kept in
        ``torn_tail`` for the report)."""
        p = Path(path)
        contents = read(p)
        replay(contents)  # refuse to continue a journal the engine cannot replay
        if contents.torn_tail is not None:
            os.truncate(p, contents.good_bytes)
        return cls(p, contents)

    def contents(self) -> Contents:
        return Contents(path=str(self.path), header=self.header, spec=self.spec,
                        rules=self.rules, records=tuple(self._records), torn_tail=None,
                        good_bytes=0)

    def active(self) -> list[Record]:
        return _active(self._records, str(self.path))

    def _write(self, record: dict[str, Any]) -> None:
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        with open(self.path, "ab") as f:
            f.write(line + b"\n")
            f.flush()
            os.fsync(f.fileno())

    def append(self, event: Event) -> int:
        """Write ``event`` durably; returns its seq. Only then may the event be acknowledged."""
        seq = len(self._records) + 1
        self._write({"seq": seq, "event": event.to_dict()})
        self._records.append(Record(seq=seq, line=self._next_line, event=event))
        self._next_line += 1
        return seq

    def append_undo(self, target: int) -> int:
        """Cancel host event ``target`` and everything after it (append-only)."""
        active = self.active()
        if target != last_host_seq(active):
            raise ValueError(f"seq {target} is not the last host-entered event in force")
        seq = len(self._records) + 1
        self._write({"seq": seq, "undo": target})
        self._records.append(Record(seq=seq, line=self._next_line, undo=target))
        self._next_line += 1
        return seq


class JournaledGame:
    """The game loop's view: the current state, kept in step with a journal."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.state: Any = replay(journal.contents())

    @classmethod
    def create(cls, path: str | os.PathLike[str], rules: Any = None,
               game: str | None = None) -> JournaledGame:
        """A new game's journal; ``game``: the engine's name (None: the default game)."""
        return cls(Journal.create(path, rules, game=game))

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> JournaledGame:
        return cls(Journal.open(path))

    def submit(self, event: Event) -> Any:
        """Apply ``event``; if accepted, journal it (fsynced) and return the new state; else
        return the Rejection (nothing is written)."""
        result = self.journal.spec.apply(self.state, event)
        if isinstance(result, Rejection):
            return result
        self.journal.append(event)
        self.state = result
        return result

    def undo(self) -> Any:
        """Undo the last host-entered event (and what followed it); Rejection if there is
        none."""
        target = last_host_seq(self.journal.active())
        if target is None:
            return Rejection("nothing_to_undo", "no host-entered event to undo")
        self.journal.append_undo(target)
        self.state = replay(self.journal.contents())
        return self.state

