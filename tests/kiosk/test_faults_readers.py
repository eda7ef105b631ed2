"""Fault suite, every reader of a journal: damage never crashes one, never hangs one, and never
loses an acknowledged event of the part of the journal that is intact.

Real journals (the four games' ``tests/data/*.jsonl`` and one played here, version 3 with
history notes) are damaged at byte level (bits flipped, bytes inserted, a cut) and at JSON
level (one value of one line replaced by something hostile: a lone surrogate ``"\\ud800"``,
990 or 100,000 levels of nesting, a number that does not fit, a value of the wrong type at any
depth; the line's checksum recomputed where it can be, so the damage reaches the checks behind
it). Each damaged journal goes through every reader:

- ``tablekeeper replay FILE`` and ``tablekeeper replay --history FILE`` (exit 0 or 1, never a
  traceback);
- the café publisher's reader (:func:`tablekeeper.cafe.messages.read_view`): a view or a
  ``JournalError``;
- the kiosk's start (:func:`tablekeeper.kiosk.open_game`): never raises; a journal it cannot
  read is set aside with its bytes whole.

When the journal is still read, every record of the lines before the damage is there, as it
was. Each call runs under a time bound (a hang fails the test).
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import shutil
import tempfile
import threading
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import Rejection
from engine.something_missing import State, Variant, is_over
from tablekeeper.cafe.messages import read_view
from tablekeeper.cli import main
from tablekeeper.games.something_missing.host import new_game
from tablekeeper.games.something_missing.simplayers import SimTable
from tablekeeper.journal import JournaledGame, JournalError, Record, read
from tablekeeper.kiosk import CURRENT, open_game
from tablekeeper.names import bad_character

DATA = Path(__file__).parents[1] / "data"
BOUND_S = 30.0


@pytest.fixture(scope="module")
def journals(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The real journals: the four games' data files and one played here with notes."""
    out = {p.name: p.read_bytes() for p in sorted(DATA.glob("*.jsonl"))}
    path = tmp_path_factory.mktemp("played") / "g.jsonl"
    game = JournaledGame.create(path)
    table = SimTable.generate(random.Random(7), 4, Variant.STANDARD)
    for i in range(400):
        if is_over(game.state):
            break
        result = game.submit(table.propose(game.state))
        assert isinstance(result, State)
        if i % 25 == 3:
            game.note("refused", i * 100,
                      event={"type": "bet", "v": 1, "at_ms": i, "seat": 1, "position": 2},
                      code="not_your_turn", reason="不是你的回合 / not your turn")
    out["played.jsonl"] = path.read_bytes()
    return out


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")[:-1]


def bounded(call: Callable[[], Any], what: str) -> Any:
    """``call()`` in a thread that must end within :data:`BOUND_S` (else: it hung)."""
    out: list[Any] = []
    err: list[BaseException] = []

    def run() -> None:
        try:
            out.append(call())
        except BaseException as exc:  # re-raised below, in the test's thread
            err.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(BOUND_S)
    assert not thread.is_alive(), f"{what}: hung for more than {BOUND_S} s"
    if err:
        raise err[0]
    return out[0]


# --- the damage --------------------------------------------------------------------------

#: hostile JSON values, as the raw text put into a line (some cannot be made by json.dumps)
HOSTILE: dict[str, bytes] = {
    "lone surrogate": b'"\\ud800"',
    "lone low surrogate in a word": b'"ab\\udc80cd"',
    "990 deep list": b"[" * 990 + b"]" * 990,
    "990 deep object": b'{"a":' * 990 + b"1" + b"}" * 990,
    "100k deep list": b"[" * 100_000 + b"]" * 100_000,
    "40 deep list": b"[" * 40 + b"]" * 40,
    "5000-digit integer": b"9" * 5000,
    "2**64": str(2 ** 64).encode(),
    "-2**63": str(-(2 ** 63)).encode(),
    "1e999": b"1e999",
    "-1e999": b"-1e999",
    "1e308": b"1e308",
    "a float": b"0.5",
    "null": b"null",
    "true": b"true",
    "a string": b'"x"',
    "an empty string": b'""',
    "a list": b"[1,2,3]",
    "an empty object": b"{}",
    "an object": b'{"type":"bet","v":1}',
    "a negative": b"-1",
}

PLACEHOLDER = "\x00HOSTILE\x00"


def _paths(obj: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place a value sits in a parsed line (any depth), the crc excepted."""
    out = [path] if path else []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k != "crc" or path:
                out.extend(_paths(v, (*path, k)))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.extend(_paths(v, (*path, i)))
    return out


def _set(obj: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        obj = obj[key]
    obj[path[-1]] = value


def _crc_raw(raw: bytes) -> bytes | None:
    """The line with its crc recomputed over its canonical form, where Python can make one
    (a line whose content it cannot encode keeps its old, now wrong, crc)."""
    try:
        obj = json.loads(raw)
        body = {k: v for k, v in obj.items() if k != "crc"}
        canon = json.dumps(body, ensure_ascii=False, separators=(",", ":"),
                           sort_keys=True).encode("utf-8")
    except (ValueError, RecursionError, AttributeError, UnicodeEncodeError):
        return None
    body["crc"] = f"{zlib.crc32(canon):08x}"
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _json_damage(data: st.DataObject, lines: list[bytes]) -> tuple[list[bytes], int]:
    """One value of one line replaced by a hostile one; returns the lines and the 0-based
    index of the line changed."""
    n = data.draw(st.integers(0, len(lines) - 1), label="line")
    obj = json.loads(lines[n])
    places = _paths(obj)
    place = data.draw(st.sampled_from(places), label="place")
    hostile = data.draw(st.sampled_from(sorted(HOSTILE)), label="hostile")
    _set(obj, place, PLACEHOLDER)
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    raw = text.replace(json.dumps(PLACEHOLDER).encode(), HOSTILE[hostile])
    if "crc" in obj and data.draw(st.booleans(), label="reseal"):
        raw = _crc_raw(raw) or raw
    changed = lines.copy()
    changed[n] = raw
    return changed, n


def _byte_damage(data: st.DataObject, raw: bytes) -> tuple[bytes, int]:
    """Bits flipped, bytes inserted (hostile ones too) or a cut; returns the bytes and the
    offset of the first change."""
    buf = bytearray(raw)
    kind = data.draw(st.sampled_from(["flip", "insert", "cut"]), label="kind")
    if kind == "flip":
        first = len(buf)
        for _ in range(data.draw(st.integers(1, 3))):
            i = data.draw(st.integers(0, len(buf) - 1))
            buf[i] ^= 1 << data.draw(st.integers(0, 7))
            first = min(first, i)
        return bytes(buf), first
    if kind == "insert":
        i = data.draw(st.integers(0, len(buf)))
        extra = data.draw(st.one_of(st.binary(min_size=1, max_size=20),
                                    st.sampled_from([b"\\ud800", b"[" * 995, b"\n\n",
                                                     b"\0\0\0", b"99999999999999999999"])))
        buf[i:i] = extra
        return bytes(buf), i
    i = data.draw(st.integers(0, len(buf) - 1))
    return bytes(buf[:i]), i


# --- the readers -------------------------------------------------------------------------

@contextlib.contextmanager
def _folder() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="tk-readers-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _cli(args: list[str]) -> int:
    """``tablekeeper ARGS`` in this process (its stdout and stderr kept)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    assert "Traceback" not in err.getvalue(), err.getvalue()
    return code


def _prefix(records: tuple[Record, ...], lines_intact: int) -> list[Record]:
    """The records of the first ``lines_intact`` lines (the header is line 1)."""
    return [r for r in records if r.line <= lines_intact]


def check_every_reader(raw: bytes, original: bytes, lines_intact: int) -> None:
    """Every reader on ``raw`` (``original`` damaged after its first ``lines_intact`` complete
    lines): nothing but JournalError, no hang, the intact prefix's events kept."""
    before = read_original(original)
    with _folder() as folder:
        path = folder / CURRENT
        path.write_bytes(raw)
        try:
            contents = bounded(lambda: read(path), "read")
        except JournalError as exc:
            contents = None
            # damage is never reported before the line it is on
            assert exc.line == 0 or exc.line > lines_intact, (exc, lines_intact)
        if contents is not None:  # still read: every record before the damage is there
            assert _prefix(contents.records, lines_intact) == _prefix(before, lines_intact)
        for args in (["replay", str(path)], ["replay", "--history", str(path)]):
            code = bounded(lambda a=args: _cli(a), " ".join(args))  # type: ignore[misc]
            assert code in (0, 1), (args, code)
        with contextlib.suppress(JournalError):
            bounded(lambda: read_view("t1", path, timeline=True), "the publisher's reader")
        _game, problem = bounded(lambda: open_game(folder), "the kiosk's start")
        aside = [p.read_bytes() for p in folder.glob("damaged-*")]
        if problem is not None and "damaged-" in problem:
            assert aside == [raw]  # nothing lost: the whole file, as it was
        else:
            assert aside == []
            assert contents is not None or problem is not None


_ORIGINALS: dict[bytes, tuple[Record, ...]] = {}


def read_original(original: bytes) -> tuple[Record, ...]:
    if original not in _ORIGINALS:
        with _folder() as folder:
            path = folder / "g.jsonl"
            path.write_bytes(original)
            _ORIGINALS[original] = read(path).records
    return _ORIGINALS[original]


def _intact_lines(raw: bytes, offset: int) -> int:
    """How many complete lines come before byte ``offset``."""
    return raw[:offset].count(b"\n")


# --- the tests ---------------------------------------------------------------------------

FAST = settings(max_examples=25, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])
SLOW = settings(max_examples=400, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


def _json_level(journals: dict[str, bytes], data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(journals)), label="journal")
    original = journals[name]
    lines, n = _json_damage(data, _lines(original))
    check_every_reader(b"".join(line + b"\n" for line in lines), original, n)


def _byte_level(journals: dict[str, bytes], data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(journals)), label="journal")
    original = journals[name]
    raw, first = _byte_damage(data, original)
    check_every_reader(raw, original, _intact_lines(original, first))


@FAST
@given(data=st.data())
def test_json_damage_never_crashes_a_reader(
        journals: dict[str, bytes], data: st.DataObject,
        record_property: Callable[[str, object], None]) -> None:
    record_property("faults", 1)
    _json_level(journals, data)


@FAST
@given(data=st.data())
def test_byte_damage_never_crashes_a_reader(
        journals: dict[str, bytes], data: st.DataObject,
        record_property: Callable[[str, object], None]) -> None:
    record_property("faults", 1)
    _byte_level(journals, data)


@pytest.mark.slow
@SLOW
@given(data=st.data())
def test_json_damage_never_crashes_a_reader_long(
        journals: dict[str, bytes], data: st.DataObject,
        record_property: Callable[[str, object], None]) -> None:
    record_property("faults", 1)
    _json_level(journals, data)


@pytest.mark.slow
@SLOW
@given(data=st.data())
def test_byte_damage_never_crashes_a_reader_long(
        journals: dict[str, bytes], data: st.DataObject,
        record_property: Callable[[str, object], None]) -> None:
    record_property("faults", 1)
    _byte_level(journals, data)


@pytest.mark.parametrize("hostile", sorted(HOSTILE))
def test_each_hostile_value_in_a_note_is_damage_of_its_line(
        journals: dict[str, bytes], hostile: str,
        record_property: Callable[[str, object], None]) -> None:
    """The issue's cases, each once, deterministically: a hostile value in a history note
    (resealed, so the checksum passes) -- a JournalError naming the line, or (a value any
    reader holds) a journal that still reads."""
    record_property("faults", 1)
    original = journals["played.jsonl"]
    lines = _lines(original)
    seq = len(lines)
    raw = (b'{"seq":%d,"note":{"kind":"x","y":' % seq) + HOSTILE[hostile] + b"}}"
    # resealed where Python can; else a crc that the check must compute to refuse
    lines.append(_crc_raw(raw) or raw[:-1] + b',"crc":"00000000"}')
    damaged = b"".join(line + b"\n" for line in lines)
    check_every_reader(damaged, original, seq)
    with _folder() as folder:
        (folder / "g.jsonl").write_bytes(damaged)
        try:
            contents = read(folder / "g.jsonl")
        except JournalError as exc:
            assert exc.line == seq + 1, exc
            assert hostile not in ("null", "true", "a string", "a float", "a list",
                                   "an object", "an empty object", "an empty string",
                                   "a negative", "1e308", "40 deep list") or \
                "nested" in str(exc), exc
        else:
            assert contents.records[-1].note is not None


def _deep(n: int) -> Any:
    value: Any = 0
    for _ in range(n):
        value = [value]
    return value


@pytest.mark.parametrize("value", ["\ud800", 2 ** 60, float("inf"), _deep(40)])
def test_a_note_no_reader_could_read_is_never_written(tmp_path: Path, value: Any) -> None:
    path = tmp_path / "g.jsonl"
    game = JournaledGame.create(path)
    before = path.read_bytes()
    with pytest.raises(ValueError):
        game.note("mismatch", 0, camera=value)
    assert path.read_bytes() == before  # nothing written, nothing acknowledged
    assert read(path).records == ()


# --- names with control and bidi-override characters (issue 39, "Names") ---------------------

#: what an older version or a hand-edited journal could carry in a player's name: a
#: right-to-left override, a terminal's "clear the screen", a bell and a zero-width joiner
HOSTILE_NAMES = {"U+202E": "\u202eAnn", "U+001B": "Bo\x1b[2J", "U+0007": "Cy\x07",
                 "U+200D": "D\u200dE"}


def _names_line(lines: list[bytes]) -> int:
    """The 0-based index of the game's new_game line."""
    return next(i for i, line in enumerate(lines) if b'"type":"new_game"' in line)


def _with_name(original: bytes, name: str) -> tuple[bytes, int]:
    """``original`` with the first player's name replaced by ``name``, the line resealed (its
    checksum matches: only the name can refuse it); and the 1-based line number."""
    lines = _lines(original)
    i = _names_line(lines)
    obj = json.loads(lines[i])
    obj["event"]["names"][0] = name
    lines[i] = _crc_raw(json.dumps(obj, ensure_ascii=False).encode("utf-8")) or b""
    return b"".join(line + b"\n" for line in lines), i + 1


def _cli_output(args: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return code, out.getvalue() + err.getvalue()


@pytest.mark.parametrize("hostile", sorted(HOSTILE_NAMES))
@pytest.mark.parametrize("journal", ["eselsbruecke_demo.jsonl", "played.jsonl",
                                     "the_game_demo.jsonl", "wink_demo.jsonl"])
def test_a_name_with_a_control_character_is_damage_of_its_line(
        journals: dict[str, bytes], journal: str, hostile: str,
        record_property: Callable[[str, object], None]) -> None:
    """A journal whose new_game carries a control or bidi-override character in a name (an
    older version's roster, a hand edit; checksum resealed): a JournalError naming that line
    and the character, in every reader; the kiosk sets the file aside whole and starts a new
    game; nothing prints the raw character to a terminal."""
    record_property("faults", 1)
    name = HOSTILE_NAMES[hostile]
    raw, line = _with_name(journals[journal], name)
    # the fault is really in the file (a control character as JSON writes it: \u001b)
    assert json.dumps(name, ensure_ascii=False)[1:-1].encode("utf-8") in raw
    check_every_reader(raw, journals[journal], line - 1)
    with _folder() as folder:
        path = folder / CURRENT
        path.write_bytes(raw)
        with pytest.raises(JournalError) as caught:
            read(path)
        assert caught.value.line == line and hostile in str(caught.value)
        with pytest.raises(JournalError):
            read_view("t1", path, timeline=True)
        for args in (["replay", str(path)], ["replay", "--history", str(path)]):
            code, output = _cli_output(args)
            assert code == 1 and hostile in output, (args, output)
            assert bad_character(output.replace("\n", "")) is None, (args, output)
        game, problem = open_game(folder)
        assert problem is not None and hostile in problem
        assert bad_character(problem) is None  # what the screen and the log show
        assert [p.read_bytes() for p in folder.glob("damaged-*")] == [raw]
        assert game.journal.active() == []  # a new game, to be set up


@pytest.mark.parametrize("hostile", sorted(HOSTILE_NAMES))
def test_a_name_with_a_control_character_is_never_journalled(
        tmp_path: Path, hostile: str) -> None:
    """The writing side: the game refuses such a new_game as ``bad_name`` before the engine
    sees it (nothing written), and :meth:`Journal.append` itself refuses it."""
    path = tmp_path / "g.jsonl"
    game = JournaledGame.create(path)
    before = path.read_bytes()
    event = new_game([HOSTILE_NAMES[hostile], "Mei", "Zhi"], ["red", "blue", "green"],
                     "easy", 0, at_ms=0, rng=random.Random(1))
    result = game.submit(event)
    assert isinstance(result, Rejection) and result.code == "bad_name"
    assert hostile in result.reason and bad_character(result.reason) is None
    with pytest.raises(ValueError, match=re.escape(hostile)):
        game.journal.append(event)
    assert path.read_bytes() == before
    assert read(path).records == ()
    with pytest.raises(ValueError, match=re.escape(hostile)):
        game.note("mismatch", 0, name=HOSTILE_NAMES[hostile])
    assert path.read_bytes() == before
