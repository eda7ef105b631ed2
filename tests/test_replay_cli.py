"""`tablekeeper replay` and `tablekeeper demo` end to end, through the CLI's main()."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tablekeeper.cli import main
from tablekeeper.journal import replay

DATA = Path(__file__).resolve().parent / "data"
RECORDED = DATA / "something_missing_3p_easy.jsonl"


def _replay_json(path: Path, capsys: pytest.CaptureFixture[str],
                 err: list[str] | None = None) -> dict[str, object]:
    assert main(["replay", str(path)]) == 0
    captured = capsys.readouterr()
    assert len(captured.out.strip().splitlines()) == 1  # one JSON object
    if err is not None:
        err.append(captured.err)
    data: dict[str, object] = json.loads(captured.out)
    return data


def test_replay_reproduces_the_recorded_game(capsys: pytest.CaptureFixture[str]) -> None:
    data = _replay_json(RECORDED, capsys)
    assert data["scores"] == {"阿明 A-Ming": 9, "小華 Xiao-Hua": 17, "美玲 Mei-Ling": 22}
    assert data["round"] == 11 and data["phase"] == "over" and data["to_act"] is None
    assert data["outcome"] == {"reason": "score_reached", "winners": ["美玲 Mei-Ling"],
                               "winner_seats": [2], "scores": [9, 17, 22]}
    assert data["events"] == 96 and data["torn_tail_line"] is None


def test_replay_of_a_torn_journal_reports_and_skips_the_last_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "torn.jsonl"
    shutil.copy(RECORDED, path)
    with open(path, "ab") as f:
        f.write(b'{"seq": 97, "event": {"type": "end_g')
    err: list[str] = []
    data = _replay_json(path, capsys, err)
    assert data["torn_tail_line"] == 98
    assert data["scores"] == {"阿明 A-Ming": 9, "小華 Xiao-Hua": 17, "美玲 Mei-Ling": 22}
    assert "line 98 was cut short" in err[0]


def test_replay_of_a_corrupt_journal_names_the_line(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.jsonl"
    lines = RECORDED.read_text(encoding="utf-8").splitlines()
    lines[10] = lines[10][:-3]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{path}:11: not valid JSON" in captured.err


def test_replay_of_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 1
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.parametrize(("players", "variant"), [(3, "easy"), (5, "standard"),
                                                  (7, "advanced")])
def test_demo_plays_a_whole_game_and_journals_it(tmp_path: Path, players: int, variant: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "demo.jsonl"
    assert main(["demo", "--text", "--seed", "11", "--players", str(players), "--variant", variant,
                 "--journal", str(journal)]) == 0
    out = capsys.readouterr().out
    assert "計分板 Scoreboard" in out and "贏家 Winner" in out
    assert "第1回合 Round 1" in out  # play-by-play
    state = replay(journal)
    assert state.outcome is not None and state.n_players == players
    winners = [state.players[s].name for s in state.outcome.winners]
    assert all(name in out.split("贏家")[1] for name in winners)
    data = _replay_json(journal, capsys)
    assert data["scores"] == {p.name: p.score for p in state.players}


def test_demo_is_reproducible_by_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--text", "--seed", "5", "--lines", "-1"]) == 0
    first = capsys.readouterr().out
    assert main(["demo", "--text", "--seed", "5", "--lines", "-1"]) == 0
    assert capsys.readouterr().out == first


def test_demo_refuses_to_overwrite_a_journal(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "demo.jsonl"
    journal.write_text("precious\n", encoding="utf-8")
    assert main(["demo", "--text", "--journal", str(journal)]) == 1
    assert "exists" in capsys.readouterr().err
    assert journal.read_text(encoding="utf-8") == "precious\n"


def test_demo_journal_in_a_missing_folder(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--text", "--journal", str(tmp_path / "no" / "such" / "d.jsonl")]) == 1
    assert "cannot write" in capsys.readouterr().err


def test_demo_rejects_a_player_count_that_is_no_number(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["demo", "--text", "--players", "five"])
    assert exc.value.code == 2
    assert "--players" in capsys.readouterr().err


@pytest.mark.parametrize("players", ["2", "8"])
def test_demo_rejects_player_counts_the_game_does_not_take(
        players: str, capsys: pytest.CaptureFixture[str]) -> None:
    # the range is the game's (its kit's setup spec): checked once the game is known
    assert main(["demo", "--text", "--players", players]) == 2
    err = capsys.readouterr().err
    assert "--players" in err and f"takes 3-7 players, not {players}" in err
