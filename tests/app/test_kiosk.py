"""The kiosk's game files: resume, archive, a damaged or torn journal."""

from __future__ import annotations

import random
from pathlib import Path

from engine.something_missing import EndGame, Phase
from tablekeeper.games.something_missing import item_card_ids
from tablekeeper.games.something_missing.host import new_game
from tablekeeper.journal import JournaledGame, read
from tablekeeper.kiosk import CURRENT, archive, open_game


def _started(folder: Path) -> JournaledGame:
    game, problem = open_game(folder)
    assert problem is None
    game.submit(new_game(["A", "B", "C"], ["red", "blue", "green"], "normal", 0, 0,
                         random.Random(3)))
    return game


def test_resumes_an_unfinished_game(tmp_path: Path) -> None:
    game = _started(tmp_path)
    again, problem = open_game(tmp_path)
    assert problem is None
    assert again.state == game.state and again.state.phase is Phase.VIEWING


def test_a_finished_game_is_archived_and_a_new_one_starts(tmp_path: Path) -> None:
    game = _started(tmp_path)
    game.submit(EndGame(at_ms=100))
    fresh, _ = open_game(tmp_path)
    assert fresh.state.phase is Phase.SETUP
    kept = sorted(p.name for p in tmp_path.iterdir() if p.name != CURRENT)
    assert len(kept) == 1 and kept[0].startswith("game-")
    assert read(tmp_path / kept[0]).active()  # the old game is still there, replayable


def test_archive_never_overwrites(tmp_path: Path) -> None:
    names = set()
    for _ in range(3):
        game = _started(tmp_path)
        names.add(archive(tmp_path, game).name)
    assert len(names) == 3


def test_a_damaged_journal_is_kept_aside_and_reported(tmp_path: Path) -> None:
    _started(tmp_path)
    path = tmp_path / CURRENT
    lines = path.read_bytes().split(b"\n")
    lines.insert(1, b"{not json")
    path.write_bytes(b"\n".join(lines))
    game, problem = open_game(tmp_path)
    assert problem is not None and ":2:" in problem and "damaged-" in problem
    assert game.state.phase is Phase.SETUP
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("damaged-")]
    assert len(aside) == 1 and b"{not json" in aside[0].read_bytes()  # nothing deleted


def test_a_torn_last_line_is_reported_and_the_game_resumes(tmp_path: Path) -> None:
    game = _started(tmp_path)
    path = tmp_path / CURRENT
    with path.open("ab") as fh:
        fh.write(b'{"seq":2,"event":{"type":"no_bu')  # power cut mid-write
    resumed, problem = open_game(tmp_path)
    assert problem is not None and "power cut" in problem
    assert resumed.state == game.state


def test_item_ids_follow_the_deck() -> None:
    class Card:
        def __init__(self, cid: str, kind: str) -> None:
            self.id, self.kind = cid, kind

    class Deck:
        def __init__(self) -> None:
            self.cards = [Card("x-b", "item"), Card("scene", "scene"), Card("x-a", "item")]

    assert item_card_ids(Deck()) == {"x-b": 0, "x-a": 1}
    assert item_card_ids(None)["i01"] == 0
