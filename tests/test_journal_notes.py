"""History records (``{seq, note}``, journal version 3): written by ``Journal.note``, shown by
``tablekeeper replay --history``, never applied by replay; old journals still replay."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core import Rejection
from tablekeeper.history import history
from tablekeeper.journal import Journal, JournaledGame, JournalError, read, replay

DATA = Path(__file__).parent / "data"


def _the_game(tmp_path: Path) -> JournaledGame:
    from tablekeeper.games import load

    kit = load("the-game")
    game = JournaledGame.create(tmp_path / "g.jsonl", game=kit.engine.name)
    return game


def test_a_note_is_history_not_state(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    journal = Journal.create(path)
    seq = journal.note("refused", 1200, event={"type": "bet", "seat": 1}, code="not_your_turn",
                       reason="seat 2 is not to act")
    assert seq == 1
    contents = read(path)
    assert [r.note.kind for r in contents.notes() if r.note] == ["refused"]
    assert contents.active() == []  # replay applies no note
    assert replay(contents) == replay(Journal.create(tmp_path / "h.jsonl").contents())
    line = json.loads(path.read_text(encoding="utf-8").splitlines()[1])
    assert line["note"] == {"kind": "refused", "at_ms": 1200, "event": {"type": "bet", "seat": 1},
                            "code": "not_your_turn", "reason": "seat 2 is not to act"}


def test_an_old_journal_takes_no_note_and_stays_readable_by_its_version(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_bytes((DATA / "something_missing_3p_easy.jsonl").read_bytes())
    journal = Journal.open(path)
    assert journal.header.version == 1
    assert journal.note("refused", 5) is None  # a version-1 reader could not read it
    assert "note" not in path.read_text(encoding="utf-8")


def test_a_note_in_a_version_2_journal_is_damage(tmp_path: Path) -> None:
    from tablekeeper.journal import line_of

    path = tmp_path / "g.jsonl"
    header = {"schema": "tablekeeper.journal", "version": 2, "game": "something_missing",
              "rules": {}}
    note = {"seq": 1, "note": {"kind": "refused"}}
    path.write_bytes(line_of(header, 2) + b"\n" + line_of(note, 2) + b"\n")
    with pytest.raises(JournalError, match="a note in a version-2 journal"):
        read(path)


@pytest.mark.parametrize("bad", [{"kind": ""}, {"kind": 3}, [], {"kind": "x", "at_ms": "1"}])
def test_a_malformed_note_names_its_line(tmp_path: Path, bad: object) -> None:
    from tablekeeper.journal import line_of

    path = tmp_path / "g.jsonl"
    header = {"schema": "tablekeeper.journal", "version": 3, "game": "something_missing",
              "rules": {}}
    path.write_bytes(line_of(header) + b"\n" + line_of({"seq": 1, "note": bad}) + b"\n")
    with pytest.raises(JournalError, match=r"g.jsonl:2: "):
        read(path)


def test_an_unknown_note_kind_is_read_and_told(tmp_path: Path) -> None:
    """A newer writer's kind (issue 32's readings ...): an older reader shows it as it is."""
    path = tmp_path / "g.jsonl"
    Journal.create(path).note("lamp_flicker", 10, seat=3)
    lines = history(read(path))
    assert lines[-1].endswith("lamp flicker: seat 3")


@pytest.mark.slow
def test_refused_plays_and_early_presses_are_journalled_by_the_referee(tmp_path: Path) -> None:
    """The Game's demo lives a refused end of turn (an early press) and an illegal play: both
    are history records, and `replay --history` tells them; the state replays the same."""
    out = tmp_path / "demo"
    subprocess.run([sys.executable, "-m", "tablekeeper", "demo", "--headless", "--game",
                    "the-game", "--out", str(out)], check=True, capture_output=True,
                   timeout=600)
    contents = read(out / "game.jsonl")
    kinds = [(r.note.kind, r.note.fields.get("code")) for r in contents.notes() if r.note]
    assert ("refused", "below_minimum") in kinds and ("refused", "illegal_play") in kinds
    told = subprocess.run([sys.executable, "-m", "tablekeeper", "replay", "--history",
                           str(out / "game.jsonl")], check=True, capture_output=True,
                          text=True, timeout=120).stdout
    assert "refused: card played" in told and "cannot go on" in told
    assert "refused: turn ended" in told


def test_the_referee_notes_a_refused_event(referee: object, clock: object) -> None:
    from engine.something_missing import Bet
    from tablekeeper.referee import Referee

    assert isinstance(referee, Referee)
    result = referee.submit(Bet(at_ms=0, seat=0, position=0))
    assert isinstance(result, Rejection)
    notes = referee.game.journal.contents().notes()
    assert notes and notes[-1].note is not None and notes[-1].note.kind == "refused"
    assert notes[-1].note.fields["code"] == result.code


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.jsonl")))
def test_old_journals_still_replay_and_are_told(name: str) -> None:
    contents = read(DATA / name)
    replay(contents)
    lines = history(contents)
    assert len(lines) == len(contents.records) + 1


def test_an_early_press_in_something_missing_is_journalled(started_referee: object,
                                                           clock: object) -> None:
    """Seats the arbiter locked out (pressed before the buzzers were armed) are history."""
    from firmware.arbiter import Decision
    from tablekeeper.referee import Referee

    referee = started_referee
    assert isinstance(referee, Referee)
    now = referee.ns_at(referee.state.now_ms)
    referee.table.decision(Decision(winner=1, t_ns=now, armed_ns=now, decided_ns=now,
                                    runner_up=None, runner_up_t_ns=None, margin_us=None,
                                    tie=False, tied=(), locked_out=(2, 3), held=()))
    notes = referee.game.journal.contents().notes()
    assert notes and notes[-1].note is not None
    assert notes[-1].note.kind == "early_press" and notes[-1].note.fields == {"seats": [1, 2]}
    assert "pressed too early: seats [1, 2]" in history(read(referee.game.journal.path))[-1]


def test_docs_journal_names_every_games_events_and_undo() -> None:
    from tablekeeper import games

    doc = (Path(__file__).resolve().parents[1] / "docs" / "journal.md").read_text(
        encoding="utf-8")
    for name in games.names():
        engine = games.load(name).engine
        part = doc.split(f"### {name} ", 1)
        assert len(part) == 2, f"docs/journal.md has no section for {name}"
        section = part[1].split("\n### ", 1)[0]
        assert "**Undo**" in section
        for source in engine.undoable:
            assert source.value in section.split("**Undo**", 1)[1].split(")")[0]
        for type_name in engine.events.types:
            assert f"`{type_name}`" in section, f"{name}: {type_name} is not in docs/journal.md"

