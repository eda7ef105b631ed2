"""The game journal: every accepted event, one JSON line each, fsynced before it is acknowledged.

A journal is an append-only text file (UTF-8, one JSON object per line, ``\\n`` after each):

line 1, the header::

    {"schema": "tablekeeper.journal", "version": 3, "game": "something_missing",
     "rules": {...Rules.to_dict()...}, "created": "2026-11-29T12:00:00+00:00",
     "id": "3f9a0c1e7b2d4a55", "crc": "..."}

(``id``: the game's random id, written when the game is created; journals older than it have
none and are read as before.)

then one record per line, numbered by ``seq`` (1, 2, 3 ... in file order):

- an accepted event: ``{"seq": 1, "event": {"type": "new_game", "v": 1, "at_ms": 0, ...}}``
- an undo: ``{"seq": 9, "undo": 7}`` -- cancels the host-entered event ``seq`` 7 *and every
  event accepted after it* (they happened in a state that the undo takes back). Nothing is ever
  rewritten: undoing is appending. Undo again and the host event before that goes too.
- a note (version 3+): ``{"seq": 10, "note": {"kind": "refused", "at_ms": 1200, ...}}`` -- the
  table's history (a refused play, an early press, a camera/host dispute): replay never
  applies it, ``tablekeeper replay --history`` shows it (:meth:`Journal.note`).

From version 2 every line (the header too) ends with ``"crc"``: the CRC-32 (8 lower-case hex
digits) of the line's canonical JSON without its ``crc`` (:func:`canonical`: keys sorted, no
spaces, UTF-8), so a value changed by hand or by a failing card is reported with its line.
Version-1 journals (no ``crc`` anywhere) still replay; lines appended to one stay version 1.

``state = replay(path)`` folds the engine's ``apply`` over the events still in force, starting
from ``initial_state(rules)`` with the rules of the header, so a later version can replay an old
game exactly (missing rule keys take the defaults of the version that wrote them -- keep
defaults stable or bump ``version``). Reading:

- a last line without its ``\\n`` (power cut mid-write: never acknowledged) is reported as
  ``torn_tail`` and skipped; nothing before it is lost. ``Journal.open`` cuts the torn bytes
  off so the file can be appended to again cleanly;
- any other damage (bad JSON, a checksum that does not match, a ``seq`` out of order, an
  unknown event or field, an undo of something that is not the last host event in force, an
  event the engine rejects; also whatever else goes wrong reading a line: a 5,000-digit
  number, nesting too deep to parse, bytes that are not UTF-8) is a :class:`JournalError`
  naming the line number;
- an unknown ``schema`` or a ``version`` newer than this code is a :class:`JournalError` too.

The writer: :class:`Journal` (create / open / append / append_undo). The game loop's
convenience: :class:`JournaledGame` (``submit(event) -> State | Rejection`` journals an
accepted event before returning it; ``undo()``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import functools
import json
import math
import os
import re
import secrets
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from engine.core import Engine, Event, EventRegistry, Rejection, Source
from ground.files import NotAFile, read_regular
from tablekeeper.names import bad_character

SCHEMA = "tablekeeper.journal"
#: 2: every line carries its ``crc``. 1: no checksums (still read, and continued as 1).
VERSION = 3
CRC_SINCE = 2
#: 3: ``{seq, note}`` records (the table's history: refused plays, early presses ...).
NOTES_SINCE = 3
#: the longest journal read (a game's journal is a few hundred kB; anything far larger is not
#: one, and reading it whole would exhaust a Pi's memory)
MAX_JOURNAL_BYTES = 64 * 1024 * 1024
#: a header's ``id``: the game's own random id (the café's game id)
GAME_ID_RE = re.compile(r"^[0-9a-f]{16}$")


def new_game_id() -> str:
    """A game's id, unique by construction (64 random bits), written in its header."""
    return secrets.token_hex(8)

_T = TypeVar("_T")


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
    #: the game's own id, random, written when the game is created (16 hex digits); None in
    #: journals written before headers had one (the café derives theirs from the header line)
    id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"schema": self.schema, "version": self.version,
                               "game": self.game, "rules": dict(self.rules)}
        if self.created is not None:
            out["created"] = self.created
        if self.id is not None:
            out["id"] = self.id
        return out


def canonical(obj: Mapping[str, Any]) -> bytes:
    """The canonical JSON of a line's object (without its ``crc``): what the CRC covers."""
    return json.dumps({k: v for k, v in obj.items() if k != "crc"}, ensure_ascii=False,
                      separators=(",", ":"), sort_keys=True).encode("utf-8")


def crc_of(obj: Mapping[str, Any]) -> str:
    return f"{zlib.crc32(canonical(obj)):08x}"


def line_of(obj: Mapping[str, Any], version: int = VERSION) -> bytes:
    """One journal line (without its newline): ``obj`` with its ``crc`` last (version 2+)."""
    out = {k: v for k, v in obj.items() if k != "crc"}
    if version >= CRC_SINCE:
        out["crc"] = crc_of(out)
    return json.dumps(out, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


@dataclass(frozen=True)
class Note:
    """A history record (version 3+): something the table did that changes no state -- a
    refused play, an early press, a camera/host mismatch. ``kind`` is a short name
    (``refused``, ``early_press``, ``mismatch`` ...; a reader shows kinds it does not know
    as they are), ``at_ms`` the game clock (None: not known), ``fields`` the rest (JSON)."""

    kind: str
    at_ms: int | None = None
    fields: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.at_ms is not None:
            out["at_ms"] = self.at_ms
        out.update(self.fields)
        return out


@dataclass(frozen=True)
class Record:
    """One line after the header: an event, an undo or a note, with its line number."""

    seq: int
    line: int
    event: Event | None = None
    undo: int | None = None
    note: Note | None = None


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
        return _active(self.records, self.path, _undoable(self.spec))

    def last_seq(self) -> int:
        return self.records[-1].seq if self.records else 0

    def notes(self) -> list[Record]:
        """The history records (``note``), in file order; replay does not apply them."""
        return [rec for rec in self.records if rec.note is not None]


def _undoable(spec: Engine[Any] | None) -> frozenset[Source]:
    return spec.undoable if spec is not None else frozenset({Source.HOST})


def _what(undoable: frozenset[Source]) -> str:
    """How the journal's errors name the events an undo may target."""
    if undoable == {Source.HOST}:
        return "host-entered event"
    return f"undoable event ({', '.join(sorted(s.value for s in undoable))})"


def _active(records: tuple[Record, ...] | list[Record], path: str,
            undoable: frozenset[Source] = frozenset({Source.HOST})) -> list[Record]:
    active: list[Record] = []
    for rec in records:
        if rec.event is not None:
            active.append(rec)
            continue
        if rec.note is not None:  # history only: no state
            continue
        target = rec.undo
        idx = next((i for i, r in enumerate(active) if r.seq == target), None)
        if idx is None:
            raise JournalError(path, rec.line, f"undo of seq {target}, which is not in force")
        ev = active[idx].event
        assert ev is not None
        if ev.source not in undoable:
            raise JournalError(path, rec.line,
                               f"undo of seq {target}, which is not a {_what(undoable)}")
        last = last_host_seq(active, undoable)
        if target != last:
            raise JournalError(path, rec.line,
                               f"undo of seq {target}, which is not the last {_what(undoable)} "
                               f"in force (seq {last} is)")
        del active[idx:]
    return active


def last_host_seq(active: list[Record],
                  undoable: frozenset[Source] = frozenset({Source.HOST})) -> int | None:
    """The seq of the last event in force an undo takes back (by default: host-entered)."""
    for rec in reversed(active):
        if rec.event is not None and rec.event.source in undoable:
            return rec.seq
    return None


def read(path: str | os.PathLike[str]) -> Contents:
    """Read and check a journal (see the module docstring for what is an error). Raises
    :class:`JournalError` and nothing else: whatever else a damaged line trips on (a parser, a
    checksum, an engine's check) is that line's damage."""
    p = str(path)
    try:
        return _read(p, path)
    except JournalError:
        raise
    except Exception as exc:  # (RecursionError, MemoryError, UnicodeError ...: still damage)
        raise JournalError(p, 0, f"cannot be read: {type(exc).__name__}: {exc}") from exc


def _guarded(path: str, line: int, parse: Callable[[], _T]) -> _T:
    """``parse()``; anything but a JournalError it raises is line ``line``'s damage."""
    try:
        return parse()
    except JournalError:
        raise
    except Exception as exc:
        raise JournalError(path, line, f"cannot be read: {type(exc).__name__}: "
                                       f"{_short(str(exc))}") from exc


def _read(p: str, path: str | os.PathLike[str]) -> Contents:
    try:
        data = read_regular(path, MAX_JOURNAL_BYTES)
    except NotAFile as exc:
        raise JournalError(p, 0, f"not a journal: {exc.kind}") from exc
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
    header = _guarded(p, 1, functools.partial(_parse_header, p, lines[0]))
    spec = game_spec(header.game)
    if spec is None:
        raise JournalError(p, 1, f"unknown game {header.game!r} (known: {_known()})")
    try:
        rules = spec.rules_from_dict(header.rules)
    except Exception as exc:  # any failure to read the rules is damage of line 1
        raise JournalError(p, 1, f"bad rules: {exc}") from exc
    records: list[Record] = []
    for i, raw in enumerate(lines[1:], start=2):
        rec = _guarded(p, i, functools.partial(_parse_record, p, i, raw, spec.events,
                                               header.version))
        expected = records[-1].seq + 1 if records else 1
        if rec.seq != expected:
            raise JournalError(p, i, f"seq {rec.seq} where {expected} was expected")
        records.append(rec)
    contents = Contents(path=p, header=header, spec=spec, rules=rules, records=tuple(records),
                        torn_tail=torn, good_bytes=good_bytes)
    contents.active()  # undo records are checked here
    return contents


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key!r} appears twice")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _loads(path: str, line: int, raw: bytes) -> Any:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise JournalError(path, line, f"not UTF-8 text ({exc.reason} at byte {exc.start})"
                           ) from exc
    if _too_deep(text):  # before parsing: the parser itself recurses
        raise JournalError(path, line, f"nested more than {MAX_DEPTH} deep (a journal line "
                                       "is a few levels deep)")
    try:
        value = json.loads(text, object_pairs_hook=_no_duplicates,
                           parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise JournalError(path, line, f"not valid JSON ({exc})") from exc
    except RecursionError as exc:
        raise JournalError(path, line, "not valid JSON (nested too deeply to read)") from exc
    except (ValueError, OverflowError, MemoryError) as exc:  # 5,000-digit numbers, ...
        raise JournalError(path, line, f"not valid JSON ({exc})") from exc
    problem = _unfit(value)
    if problem is not None:
        raise JournalError(path, line, problem)
    return value


#: how deep a line may nest (arrays and objects): an event with a refused event inside a note
#: is five levels deep; 990 levels make the encoder of the checksum recurse past Python's limit
MAX_DEPTH = 32
#: the largest integer a line may hold: what every reader (the café board's JavaScript too)
#: holds exactly (2**53 - 1); a clock of 285,000 years in ms
MAX_INT = 2 ** 53 - 1
_SURROGATE = re.compile("[\ud800-\udfff]")


def _too_deep(text: str) -> bool:
    """Does ``text`` open more than :data:`MAX_DEPTH` brackets at once (outside strings)?
    A cheap scan before the parser, which would recurse that deep."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _unfit(value: Any) -> str | None:
    """What in a parsed line no reader can hold, or None: a lone surrogate (``"\\ud800"``:
    not text, it cannot be written as UTF-8), a control or bidi-override character in any
    text, keys too (:func:`tablekeeper.names.bad_character`: a player's name that would clear
    a terminal or reorder the board), an integer past :data:`MAX_INT`, a float that is not
    finite (``1e999``). Walked without recursion."""
    stack: list[Any] = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if _SURROGATE.search(v):
                return f"a lone surrogate escape in the text {_short(v, 60)} (not Unicode text)"
            bad = bad_character(v)
            if bad is not None:
                return (f"the text {ascii(v)[:60]} holds {bad} (no name or text in a game "
                        "may hold a control or bidi-override character)")
        elif isinstance(v, bool) or v is None:
            continue
        elif isinstance(v, int):
            if not -MAX_INT <= v <= MAX_INT:
                return f"the number {_short(v, 40)} does not fit (at most {MAX_INT})"
        elif isinstance(v, float):
            if not math.isfinite(v):
                return f"the number {v} does not fit"
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return None


def _check_crc(path: str, line: int, d: dict[str, Any], version: int) -> None:
    """Version 2+: the line's ``crc`` must match its content (version 1: none allowed)."""
    if version < CRC_SINCE:
        if "crc" in d:
            raise JournalError(path, line, f"a crc in a version-{version} journal")
        return
    crc = d.get("crc")
    if not isinstance(crc, str):
        raise JournalError(path, line, f"no checksum (crc) on this line: {_short(d)}")
    if crc != crc_of(d):
        raise JournalError(path, line, f"checksum mismatch (crc {crc}, the line's content "
                                       f"gives {crc_of(d)}): the line was changed after it "
                                       "was written")


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
    _check_crc(path, 1, d, version)
    game, rules, created = d.get("game"), d.get("rules", {}), d.get("created")
    if not isinstance(game, str):
        raise JournalError(path, 1, f"header: game must be a name, got {game!r}")
    if not isinstance(rules, dict):
        raise JournalError(path, 1, f"header: rules must be an object, got {rules!r}")
    if created is not None:
        try:
            datetime.fromisoformat(created if isinstance(created, str) else "?")
        except ValueError as exc:
            raise JournalError(path, 1, f"header: created must be an ISO 8601 time, got "
                                        f"{created!r}") from exc
    game_id = d.get("id")
    if game_id is not None and not (isinstance(game_id, str) and GAME_ID_RE.match(game_id)):
        raise JournalError(path, 1, f"header: id must be 16 hex digits, got {game_id!r:.40}")
    known = {"schema", "version", "game", "rules", "created", "id"}
    if version >= CRC_SINCE:
        known.add("crc")
    unknown = set(d) - known
    if unknown:
        raise JournalError(path, 1, f"header: unknown key(s) {sorted(unknown)}")
    return Header(game=game, rules=rules, version=version,
                  created=created if isinstance(created, str) else None, id=game_id)


def _parse_record(path: str, line: int, raw: bytes, events: EventRegistry,
                  version: int = 1) -> Record:
    d = _loads(path, line, raw)
    if not isinstance(d, dict):
        raise JournalError(path, line, f"a record must be a JSON object, got {_short(d)}")
    _check_crc(path, line, d, version)
    keys = set(d) - {"crc"}
    seq = d.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise JournalError(path, line, f"record without an integer seq: {_short(d)}")
    if keys == {"seq", "event"}:
        try:
            return Record(seq=seq, line=line, event=events.from_dict(d["event"]))
        except Exception as exc:  # whatever the event's parser trips on is this line's damage
            raise JournalError(path, line, str(exc) or type(exc).__name__) from exc
    if keys == {"seq", "undo"} and isinstance(d["undo"], int) \
            and not isinstance(d["undo"], bool):
        return Record(seq=seq, line=line, undo=d["undo"])
    if keys == {"seq", "note"}:
        if version < NOTES_SINCE:
            raise JournalError(path, line, f"a note in a version-{version} journal (notes "
                                           f"come with version {NOTES_SINCE})")
        return Record(seq=seq, line=line, note=_parse_note(path, line, d["note"]))
    raise JournalError(path, line, f"a record is {{seq, event}}, {{seq, undo}} or "
                                   f"{{seq, note}}, got {_short(d)}")


def _parse_note(path: str, line: int, d: Any) -> Note:
    if not isinstance(d, dict):
        raise JournalError(path, line, f"a note must be a JSON object, got {_short(d)}")
    kind, at_ms = d.get("kind"), d.get("at_ms")
    if not isinstance(kind, str) or not kind:
        raise JournalError(path, line, f"a note without a kind: {_short(d)}")
    if at_ms is not None and (not isinstance(at_ms, int) or isinstance(at_ms, bool)):
        raise JournalError(path, line, f"a note's at_ms must be an integer: {_short(d)}")
    fields = {k: v for k, v in d.items() if k not in ("kind", "at_ms")}
    return Note(kind=kind, at_ms=at_ms, fields=fields)


def _short(value: Any, limit: int = 200) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def replay(source: str | os.PathLike[str] | Contents) -> Any:
    """The state after every event in force, exactly as the engine produced it."""
    contents = source if isinstance(source, Contents) else read(source)
    state = contents.spec.initial_state(contents.rules)
    for rec in contents.active():
        assert rec.event is not None
        try:
            result = contents.spec.apply(state, rec.event)
        except Exception as exc:  # an engine that trips on a (checked) event: still this line
            raise JournalError(contents.path, rec.line,
                               f"the engine fails on this event on replay: "
                               f"{type(exc).__name__}: {exc}") from exc
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
        #: the file's length up to its last acknowledged line: a failed write is cut back to it
        self._size = contents.good_bytes

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
                        created=created or datetime.now(UTC).isoformat(timespec="seconds"),
                        id=new_game_id())
        line = line_of(header.to_dict())
        if p.exists():
            raise FileExistsError(errno.EEXIST, "journal exists", str(p))
        # The header is written beside and linked into place when complete, so a power cut
        # never leaves a journal with half a header; linking refuses to replace a file.
        tmp = p.with_name(f".{p.name}.{os.getpid()}.new")
        # A file of this name is a crash's leftover (a process of this pid before a restart):
        # it was never linked into place, so it goes.
        tmp.unlink(missing_ok=True)
        try:
            with open(tmp, "xb") as f:
                f.write(line + b"\n")
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
            # cut now if the folder can be written; else the next append cuts it first
            with contextlib.suppress(OSError):
                os.truncate(p, contents.good_bytes)
        return cls(p, contents)

    def contents(self) -> Contents:
        return Contents(path=str(self.path), header=self.header, spec=self.spec,
                        rules=self.rules, records=tuple(self._records), torn_tail=None,
                        good_bytes=0)

    def active(self) -> list[Record]:
        return _active(self._records, str(self.path), _undoable(self.spec))

    def _write(self, record: dict[str, Any]) -> None:
        """Append one line, fsynced. If anything fails (a full disk, an I/O error) the file is
        cut back to its last acknowledged line and the ``OSError`` is raised: the caller must
        not acknowledge, and the next write starts on a clean line boundary."""
        data = line_of(record, self.header.version) + b"\n"
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        try:
            end = os.lseek(fd, 0, os.SEEK_END)
            if end > self._size:  # the remains of an earlier failed write
                os.ftruncate(fd, self._size)
            elif end < self._size:
                raise OSError(errno.EIO, f"the journal is shorter ({end} bytes) than what was "
                                         f"written to it ({self._size})", str(self.path))
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
                os.fsync(fd)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, self._size)
                raise
        finally:
            os.close(fd)
        self._size += len(data)

    def append(self, event: Event) -> int:
        """Write ``event`` durably; returns its seq. Only then may the event be acknowledged.
        An event no reader could read (a name with a control or bidi-override character ...)
        is refused with a ``ValueError`` and nothing is written."""
        seq = len(self._records) + 1
        record = {"seq": seq, "event": event.to_dict()}
        problem = _unfit(record)
        if problem is not None:
            raise ValueError(f"an event no reader could read: {problem}")
        self._write(record)
        self._records.append(Record(seq=seq, line=self._next_line, event=event))
        self._next_line += 1
        return seq

    def note(self, kind: str, at_ms: int | None = None, **fields: Any) -> int | None:
        """Write a history record (:class:`Note`): replay shows it, never applies it. Returns
        its seq; None (nothing written) in a journal older than version 3, which a reader
        of that version must still read (a game resumed across an update keeps its version).
        ``fields`` must be JSON values; ``kind`` a short name (``refused``, ``early_press``,
        ``mismatch`` ...). Raises ``OSError`` like :meth:`append`."""
        if not kind or not isinstance(kind, str):
            raise ValueError(f"a note needs a kind, got {kind!r}")
        reserved = {"kind", "at_ms"} & set(fields)
        if reserved:
            raise ValueError(f"note fields may not be named {sorted(reserved)}")
        if self.header.version < NOTES_SINCE:
            return None
        note = Note(kind=kind, at_ms=at_ms, fields=fields)
        record = {"seq": len(self._records) + 1, "note": note.to_dict()}
        text = json.dumps(record, allow_nan=False)  # a TypeError/ValueError writes nothing
        problem = "too deeply nested" if _too_deep(text) else _unfit(record)
        if problem is not None:  # what a reader would refuse is never written
            raise ValueError(f"a note no reader could read: {problem}")
        self._write(record)
        seq = len(self._records) + 1
        self._records.append(Record(seq=seq, line=self._next_line, note=note))
        self._next_line += 1
        return seq

    def append_undo(self, target: int) -> int:
        """Cancel event ``target`` (the last the game's undo takes back: host-entered, by
        default) and everything after it (append-only)."""
        active = self.active()
        undoable = _undoable(self.spec)
        if target != last_host_seq(active, undoable):
            raise ValueError(f"seq {target} is not the last {_what(undoable)} in force")
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
        return the Rejection (nothing is written). An event holding a text no reader could
        read (a player's name with a control or bidi-override character, from a hand-edited
        roster or a script) is refused as ``bad_name`` before the engine sees it."""
        problem = _unfit(event.to_dict())
        if problem is not None:
            return Rejection("bad_name", problem)
        result = self.journal.spec.apply(self.state, event)
        if isinstance(result, Rejection):
            return result
        self.journal.append(event)
        self.state = result
        return result

    def note(self, kind: str, at_ms: int | None = None, **fields: Any) -> int | None:
        """A history record (:meth:`Journal.note`); the state does not change."""
        return self.journal.note(kind, at_ms, **fields)

    def undo(self) -> Any:
        """Undo the last event the game's undo takes back (host-entered, by default) and
        what followed it; Rejection if there is none."""
        undoable = _undoable(self.journal.spec)
        target = last_host_seq(self.journal.active(), undoable)
        if target is None:
            return Rejection("nothing_to_undo", f"no {_what(undoable)} to undo")
        self.journal.append_undo(target)
        self.state = replay(self.journal.contents())
        return self.state

