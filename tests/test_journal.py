"""The journal: fsync before ack, replay, undo, torn last line, corruption, schema versions."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from engine.core import Rejection
from engine.something_missing import (
    Bet,
    BuzzWon,
    CardRevealed,
    NoBuzz,
    Pass,
    Phase,
    Rules,
    State,
    Variant,
    apply,
    initial_state,
    is_over,
)
from tablekeeper.games.something_missing.simplayers import SimTable
from tablekeeper.journal import Journal, JournaledGame, JournalError, line_of, read, replay


def _play(game: JournaledGame, seed: int = 3, steps: int | None = None) -> SimTable:
    table = SimTable.generate(random.Random(seed), 4, Variant.STANDARD)
    i = 0
    while not is_over(game.state) and (steps is None or i < steps):
        result = game.submit(table.propose(game.state))
        assert isinstance(result, State), result
        i += 1
    return table


def _sealed(record: str) -> str:
    """A hand-written line as the writer would write it (with its crc)."""
    return line_of(json.loads(record)).decode("utf-8")


def test_replay_reproduces_a_whole_game_exactly(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    game = JournaledGame.create(path)
    _play(game)
    assert is_over(game.state)
    assert replay(path) == game.state


def test_header_is_versioned_and_documents_the_rules(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    Journal.create(path, Rules(check_ms=25_000), created="2026-01-01T00:00:00+00:00")
    header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert header["schema"] == "tablekeeper.journal" and header["version"] == 3
    assert header["game"] == "something_missing"
    assert header["rules"]["check_ms"] == 25_000
    assert read(path).rules == Rules(check_ms=25_000)


def test_every_event_is_fsynced_before_submit_returns(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.jsonl"
    game = JournaledGame.create(path)
    order: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        order.append("fsync")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    table = SimTable.generate(random.Random(1), 4, Variant.STANDARD)
    for _ in range(5):
        lines_before = len(path.read_bytes().splitlines())
        state = game.submit(table.propose(game.state))
        assert isinstance(state, State)
        order.append("ack")
        # the line is on disk by the time submit returned, and fsync came first
        assert len(path.read_bytes().splitlines()) == lines_before + 1
    assert order == ["fsync", "ack"] * 5


def test_a_rejected_event_is_not_journaled(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    game = JournaledGame.create(path)
    _play(game, steps=3)
    size = path.stat().st_size
    result = game.submit(NoBuzz(at_ms=-5))
    assert isinstance(result, Rejection) and result.reason
    assert path.stat().st_size == size


def test_create_refuses_to_overwrite(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    Journal.create(path)
    with pytest.raises(FileExistsError):
        Journal.create(path)


def _at_buzz(tmp_path: Path) -> tuple[JournaledGame, Path]:
    """A game with a card on the pile, waiting for a buzz."""
    path = tmp_path / "g.jsonl"
    game = JournaledGame.create(path)
    _play(game, steps=1)  # NewGame
    while game.state.phase is Phase.VIEWING:
        table = SimTable.generate(random.Random(3), 4, Variant.STANDARD)
        game.submit(table.propose(game.state))
    seat = game.state.to_act
    assert game.state.phase is Phase.REVEAL and seat is not None
    assert isinstance(game.submit(CardRevealed(at_ms=game.state.now_ms + 10, card=5,
                                               seat=seat)), State)
    return game, path


def test_undo_takes_back_the_last_host_event_and_what_followed(tmp_path: Path) -> None:
    game, path = _at_buzz(tmp_path)
    at_buzz = game.state
    t = at_buzz.now_ms
    game.submit(BuzzWon(at_ms=t + 1, seat=1, margin_us=300, tie=False))
    game.submit(Bet(at_ms=t + 2, seat=1, position=0))  # host-entered
    after_bet = game.state
    game.submit(Pass(at_ms=t + 3, seat=2))  # host-entered
    state = game.undo()  # undoes the pass
    assert state == after_bet
    state = game.undo()  # undoes the bet
    assert isinstance(state, State) and state.phase is Phase.BET and state.bets == ()
    assert replay(path) == state
    # nothing was rewritten: every record is still in the file, undos appended
    records = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()[1:]]
    assert [r.get("undo") for r in records[-2:]] == [records[-3]["seq"], records[-4]["seq"]]
    # play goes on after an undo, and replays exactly
    game.submit(Bet(at_ms=t + 4, seat=1, position=2))
    assert replay(path) == game.state
    assert Journal.open(path).active()[-1].event == Bet(at_ms=t + 4, seat=1, position=2)


def test_undo_with_no_host_event_is_a_rejection(tmp_path: Path) -> None:
    game = JournaledGame.create(tmp_path / "g.jsonl")
    result = game.undo()
    assert isinstance(result, Rejection) and result.code == "nothing_to_undo"


def test_undo_of_the_new_game_returns_to_setup(tmp_path: Path) -> None:
    game = JournaledGame.create(tmp_path / "g.jsonl")
    _play(game, steps=4)  # NewGame, the host's ready, two viewing time-ups
    state = game.undo()  # the ready, and the passes after it
    assert not isinstance(state, Rejection) and state.phase is Phase.VIEWING
    assert state.deadline_ms is None
    state = game.undo()
    assert state == initial_state()


def test_truncated_last_line_is_reported_and_skipped(tmp_path: Path) -> None:
    game, path = _at_buzz(tmp_path)
    good = game.state
    with open(path, "ab") as f:  # a power cut in the middle of a write
        f.write(b'{"seq": 99, "event": {"type": "buzz_won", "v": 1, "at_')
    contents = read(path)
    assert contents.torn_tail is not None
    assert contents.torn_tail.line == len(path.read_bytes().split(b"\n"))
    assert replay(contents) == good  # nothing before it is lost
    # opening to continue cuts the torn bytes off, then appending works cleanly
    game2 = JournaledGame.open(path)
    assert game2.journal.torn_tail is not None and game2.state == good
    result = game2.submit(BuzzWon(at_ms=good.now_ms + 5, seat=0, margin_us=10, tie=False))
    assert isinstance(result, State)
    assert read(path).torn_tail is None
    assert replay(path) == result


def test_trailing_nul_bytes_count_as_a_torn_write(tmp_path: Path) -> None:
    game, path = _at_buzz(tmp_path)
    with open(path, "ab") as f:
        f.write(b"\0" * 40 + b"\n")
    contents = read(path)
    assert contents.torn_tail is not None and replay(contents) == game.state


def test_corrupt_middle_line_names_the_line(tmp_path: Path) -> None:
    _, path = _at_buzz(tmp_path)
    lines = path.read_bytes().split(b"\n")
    lines[2] = b'{"seq": 2, "event": {"type": "viewing_time_up", "v": 1, "at_ms": 5000'
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(JournalError, match=r"g\.jsonl:3: not valid JSON") as exc:
        read(path)
    assert exc.value.line == 3


@pytest.mark.parametrize(("record", "message"), [
    ('{"seq": 2, "event": {"type": "teleport", "v": 1, "at_ms": 0}}', "unknown event type"),
    ('{"seq": 2, "event": {"type": "no_buzz", "v": 9, "at_ms": 0}}', "newer than"),
    ('{"seq": 2, "event": {"type": "bet", "v": 1, "at_ms": 0, "seat": 1}}', "missing field"),
    ('{"seq": 2, "event": {"type": "bet", "v": 1, "at_ms": 0, "seat": "1", "position": 0}}',
     "expected an integer"),
    ('{"seq": 7, "event": {"type": "no_buzz", "v": 1, "at_ms": 0}}', "seq 7 where 2"),
    ('{"seq": 2, "undo": 1, "x": 0}', "a record is"),
    ('[1, 2]', "must be a JSON object"),
    ('{"seq": 2, "undo": 5}', "not in force"),
    ('{"seq": 2, "event": {"type": "no_buzz", "v": 1, "at_ms": 0}}', "rejects this event"),
])
def test_bad_records_are_errors_naming_the_line(tmp_path: Path, record: str,
                                                message: str) -> None:
    path = tmp_path / "g.jsonl"
    game = JournaledGame.create(path)
    _play(game, steps=1)
    with open(path, "a", encoding="utf-8") as f:
        f.write((_sealed(record) if record.startswith("{") else record) + "\n")
    with pytest.raises(JournalError, match=message) as exc:
        replay(path)
    assert exc.value.line == 3
    with pytest.raises(JournalError):
        Journal.open(path)  # never continue a damaged journal


def test_undo_of_a_clock_event_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    game = JournaledGame.create(path)
    _play(game, steps=3)  # NewGame, the host's ready, then a viewing time-up (clock)
    with open(path, "a", encoding="utf-8") as f:
        f.write(_sealed('{"seq": 4, "undo": 3}') + "\n")
    with pytest.raises(JournalError, match="not a host-entered event"):
        read(path)


def test_undo_of_an_older_host_event_is_refused_by_the_writer(tmp_path: Path) -> None:
    game, _ = _at_buzz(tmp_path)
    with pytest.raises(ValueError, match="not the last host-entered event"):
        game.journal.append_undo(999)


@pytest.mark.parametrize(("header", "message"), [
    ('{"schema": "tablekeeper.journal", "version": 4, "game": "something_missing"}',
     "unsupported journal schema version 4"),
    ('{"schema": "something.else", "version": 1}', "not a tablekeeper journal"),
    ('{"schema": "tablekeeper.journal", "version": 1, "game": "chess"}', "unknown game"),
    ('{"schema": "tablekeeper.journal", "version": 1, "game": "something_missing", '
     '"rules": {"check_ms": -1}}', "bad rules"),
    ('{"schema": "tablekeeper.journal", "version": 1, "game": "something_missing", '
     '"extra": 1}', "unknown key"),
    ('{"schema": "tablekeeper.journal", "version": "1"}', "bad schema version"),
])
def test_bad_headers(tmp_path: Path, header: str, message: str) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(header + "\n", encoding="utf-8")
    with pytest.raises(JournalError, match=message) as exc:
        read(path)
    assert exc.value.line == 1


def test_empty_or_missing_journal(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"")
    with pytest.raises(JournalError, match="empty journal"):
        read(path)
    with pytest.raises(JournalError, match="cannot read"):
        read(tmp_path / "missing.jsonl")


def test_an_old_header_without_rules_replays_with_defaults(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    game = JournaledGame.create(path)
    _play(game, steps=20)
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[0] = _sealed('{"schema": "tablekeeper.journal", "version": 2, '
                       '"game": "something_missing"}')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert replay(path) == game.state


def test_events_round_trip_through_json() -> None:
    table = SimTable.generate(random.Random(5), 6, Variant.ADVANCED)
    state = initial_state()
    from engine.something_missing import EVENTS

    while not is_over(state):
        ev = table.propose(state)
        back = EVENTS.from_dict(json.loads(json.dumps(ev.to_dict())))
        assert back == ev
        result = apply(state, ev)
        assert isinstance(result, State)
        state = result


def test_the_header_appears_whole_or_not_at_all(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.jsonl"

    def power_cut(fd: int) -> None:
        raise OSError(5, "power cut")

    monkeypatch.setattr(os, "fsync", power_cut)
    with pytest.raises(OSError, match="power cut"):
        Journal.create(path)
    assert not path.exists()
    assert list(tmp_path.iterdir()) == []  # no temporary file left behind either
    monkeypatch.undo()
    Journal.create(path)
    assert read(path).records == ()


def test_the_documented_checksums_are_the_real_ones() -> None:
    doc = (Path(__file__).parents[1] / "docs" / "journal.md").read_text(encoding="utf-8")
    buzz = line_of({"seq": 4, "event": {"type": "buzz_won", "v": 1, "at_ms": 61234, "seat": 2,
                                        "margin_us": 1800, "tie": False}})
    undo = line_of({"seq": 9, "undo": 7})
    for line in (buzz, undo):
        crc = json.loads(line)["crc"]
        assert f'"crc": "{crc}"' in doc
