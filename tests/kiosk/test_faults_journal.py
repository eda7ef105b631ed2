"""Fault suite, journal: damaged and tampered journals, set aside without a crash loop.

Each damaged journal is read (a :class:`JournalError` naming the line, nothing else raised),
then opened the way the kiosk starts (:func:`open_game`): set aside under a new name, a fresh
game started, the reason returned for the screen, and the damaged bytes kept whole.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.something_missing import Phase, State, Variant, is_over
from tablekeeper.games.something_missing.simplayers import SimTable
from tablekeeper.journal import JournaledGame, JournalError, line_of, read, replay
from tablekeeper.kiosk import CURRENT, open_game, remove_stale_temporaries

DATA = Path(__file__).parents[1] / "data" / "something_missing_3p_easy.jsonl"


def _game(path: Path, seed: int = 4, steps: int | None = None) -> JournaledGame:
    game = JournaledGame.create(path)
    table = SimTable.generate(random.Random(seed), 4, Variant.STANDARD)
    i = 0
    while not is_over(game.state) and (steps is None or i < steps):
        result = game.submit(table.propose(game.state))
        assert isinstance(result, State)
        i += 1
    return game


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A whole game's journal (version 2, with checksums)."""
    path = tmp_path_factory.mktemp("played") / "g.jsonl"
    _game(path)
    return path.read_bytes()


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")[:-1]


def _join(lines: list[bytes]) -> bytes:
    return b"".join(line + b"\n" for line in lines)


# --- damage that once crashed the reader (not a JournalError) -----------------------------

RAW_DAMAGE: dict[str, bytes] = {
    "5000-digit integer": b'{"seq":2,"event":{"type":"no_buzz","v":1,"at_ms":' + b"9" * 5000
                          + b"}}",
    "100000 nested [": b'{"seq":2,"event":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "not UTF-8": b'{"seq":2,"event":{"type":"no_bu\xff\xfe"}}',
    "NaN": b'{"seq":2,"event":{"type":"no_buzz","v":1,"at_ms":NaN}}',
    "duplicate key": b'{"seq":2,"seq":2,"event":{"type":"no_buzz","v":1,"at_ms":0}}',
    "a float seq": b'{"seq":2.0,"event":{"type":"no_buzz","v":1,"at_ms":0}}',
    "an empty line": b"",
    "a bare number": b"12",
    "a huge float": b'{"seq":2,"event":{"type":"no_buzz","v":1,"at_ms":1e999}}',
}


def _sealed(obj: dict[str, Any]) -> bytes:
    return line_of(obj)


SEALED_DAMAGE: dict[str, dict[str, Any]] = {
    '"undo": true': {"seq": 0, "undo": True},
    "undo of a clock event": {"seq": 0, "undo": 3},  # (2 is the ready),
    "an event field of the wrong type": {"seq": 0, "event": {"type": "no_buzz", "v": 1,
                                                             "at_ms": "0"}},
    "an event with a 5000-digit at_ms": {"seq": 0, "event": {"type": "no_buzz", "v": 1,
                                                             "at_ms": 10 ** 400}},
    "an unknown record key": {"seq": 0, "event": {"type": "no_buzz", "v": 1, "at_ms": 0},
                              "by": "me"},
}


@pytest.mark.parametrize("name", sorted(RAW_DAMAGE))
def test_any_damage_is_a_journal_error_and_the_kiosk_sets_it_aside(
        tmp_path: Path, played: bytes, name: str) -> None:
    lines = _lines(played)[:4]
    lines.insert(2, RAW_DAMAGE[name])
    _check_set_aside(tmp_path, _join(lines), line=3)


@pytest.mark.parametrize("name", sorted(SEALED_DAMAGE))
def test_a_rule_broken_by_a_well_formed_line_is_an_error(tmp_path: Path, played: bytes,
                                                         name: str) -> None:
    lines = _lines(played)[:4]  # header, new_game, two viewing time-ups
    record = dict(SEALED_DAMAGE[name], seq=4)
    lines.append(_sealed(record))
    _check_set_aside(tmp_path, _join(lines), line=5)


def test_undo_of_a_host_event_that_is_not_the_last_in_force(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    game = _game(path, steps=60)
    host = [r.seq for r in game.journal.active() if r.event is not None
            and r.event.source.name == "HOST"]
    assert len(host) >= 2
    with path.open("ab") as fh:
        fh.write(_sealed({"seq": game.journal.contents().last_seq() + 1,
                          "undo": host[-2]}) + b"\n")
    with pytest.raises(JournalError, match="not the last host-entered event") as exc:
        read(path)
    assert exc.value.line == len(_lines(path.read_bytes()))


def _check_set_aside(tmp_path: Path, data: bytes, line: int) -> None:
    path = tmp_path / CURRENT
    path.write_bytes(data)
    with pytest.raises(JournalError) as exc:
        replay(path)
    assert exc.value.line == line, exc.value
    game, problem = open_game(tmp_path)
    assert problem is not None and f":{line}:" in problem and "damaged-" in problem
    assert game.state.phase is Phase.SETUP
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("damaged-")]
    assert len(aside) == 1 and aside[0].read_bytes() == data  # nothing lost, nothing changed
    assert read(path).records == ()  # a fresh, readable game in its place


# --- tampering: every single-field edit of a whole game is reported with its line --------

def _leaves(obj: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(obj, dict):
        return [p for k, v in obj.items() if k != "crc" for p in _leaves(v, (*path, k))]
    if isinstance(obj, list):
        return [p for i, v in enumerate(obj) for p in _leaves(v, (*path, i))] or [path]
    return [path]


def _edited(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if value is None:
        return 0
    return [*value, 0] if isinstance(value, list) else value


def _set(obj: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        obj = obj[key]
    obj[path[-1]] = value


def _get(obj: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        obj = obj[key]
    return obj


def test_every_single_field_edit_is_reported_with_its_line(
        tmp_path: Path, played: bytes, record_property: Callable[[str, object], None]) -> None:
    lines = _lines(played)
    tried = 0
    path = tmp_path / "g.jsonl"
    for n, raw in enumerate(lines):
        obj = json.loads(raw)
        for leaf in _leaves(obj):
            edited = json.loads(raw)
            _set(edited, leaf, _edited(_get(obj, leaf)))
            changed = lines.copy()
            changed[n] = json.dumps(edited, ensure_ascii=False, separators=(",", ":")).encode()
            path.write_bytes(_join(changed))
            with pytest.raises(JournalError) as exc:
                replay(path)
            assert exc.value.line == n + 1, (n, leaf, exc.value)
            tried += 1
    assert tried > 300  # a whole game's fields, every one of them
    record_property("faults", tried)


def test_a_version_1_journal_still_replays_identically(tmp_path: Path) -> None:
    before = replay(DATA)
    assert read(DATA).header.version == 1
    path = tmp_path / CURRENT
    path.write_bytes(DATA.read_bytes())
    game = JournaledGame.open(path)
    assert game.state == before
    # continued as version 1: the appended line has no crc, and it all reads again
    game.undo()
    assert b'"crc"' not in path.read_bytes()
    assert replay(path) == game.state


def test_a_crc_in_a_version_1_journal_is_an_error(tmp_path: Path) -> None:
    lines = _lines(DATA.read_bytes())
    lines[3] = line_of(json.loads(lines[3]))
    path = tmp_path / "g.jsonl"
    path.write_bytes(_join(lines))
    with pytest.raises(JournalError, match="crc in a version-1") as exc:
        read(path)
    assert exc.value.line == 4


# --- set aside: a counter, never the clock alone ------------------------------------------

def test_set_aside_never_overwrites_even_with_a_stuck_clock(
        tmp_path: Path, played: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    boot = time.localtime(0)  # a Pi without a clock battery: every boot at the same second
    monkeypatch.setattr(time, "localtime", lambda *_: boot)
    monkeypatch.setattr(time, "time", lambda: 0.0)
    kept = []
    for i in range(4):
        data = _join([*_lines(played)[:3], b"{broken %d" % i])
        (tmp_path / CURRENT).write_bytes(data)
        _, problem = open_game(tmp_path)
        assert problem is not None
        kept.append(data)
    aside = sorted(p for p in tmp_path.iterdir() if p.name.startswith("damaged-"))
    assert len(aside) == 4
    assert sorted(p.read_bytes() for p in aside) == sorted(kept)


# --- a crash's leftovers -----------------------------------------------------------------

def test_a_stale_temporary_from_an_interrupted_create_is_cleaned_up(tmp_path: Path) -> None:
    mine = tmp_path / f".{CURRENT}.{os.getpid()}.new"  # the same pid after a restart
    other = tmp_path / f".{CURRENT}.999999.new"
    for stale in (mine, other):
        stale.write_bytes(b'{"schema":"tablekeeper.journal","ver')
    game, problem = open_game(tmp_path)
    assert problem is None and game.state.phase is Phase.SETUP
    assert not other.exists() and not mine.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [CURRENT]
    assert remove_stale_temporaries(tmp_path) == []


# --- random damage: whatever happens to the bytes, reading never raises anything else ------



@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_damage_is_a_journal_error_or_harmless(
        tmp_path: Path, played: bytes, data: st.DataObject,
        record_property: Callable[[str, object], None]) -> None:
    record_property("faults", 1)  # (one per example)
    raw = bytearray(played)
    kind = data.draw(st.sampled_from(["flip", "cut", "insert", "swap", "delete"]))
    if kind == "flip":
        for _ in range(data.draw(st.integers(1, 4))):
            i = data.draw(st.integers(0, len(raw) - 1))
            raw[i] ^= 1 << data.draw(st.integers(0, 7))
    elif kind == "cut":
        del raw[data.draw(st.integers(0, len(raw) - 1)):]
    elif kind == "insert":
        i = data.draw(st.integers(0, len(raw)))
        raw[i:i] = data.draw(st.binary(min_size=1, max_size=40))
    else:
        lines = _lines(bytes(raw))
        i = data.draw(st.integers(1, len(lines) - 1))
        j = data.draw(st.integers(1, len(lines) - 1))
        if kind == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        else:
            del lines[i]
        raw = bytearray(_join(lines))
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / CURRENT
    path.write_bytes(bytes(raw))
    try:
        state = replay(path)
    except JournalError:
        state = None
    game, problem = open_game(folder)  # never raises
    if state is None:
        assert problem is not None and "damaged-" in problem
        assert [p.read_bytes() for p in folder.glob("damaged-*")] == [bytes(raw)]
    else:  # readable: a cut at the end (a power cut), or a change that replays the same
        assert game.state == state or is_over(state)
