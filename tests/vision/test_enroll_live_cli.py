"""`tablekeeper vision enroll --camera`: the set-up screen's enrolment (LiveEnroller with its
EnrolStore, the deck replaced whole) from the command line. Frames from a folder (the camera
spec ``folder:PATH``) of a simulated table: the run whose frames stop after the first card
keeps its shots and writes no deck; the next run resumes with the second card and writes the
whole deck, every card with its shots as templates."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import pytest

from tablekeeper.cli import main
from vision.deck import Deck, load_deck, save_deck
from vision.simtable import Conditions, Pose, SimulatedTable

IDS = ("n10", "n11", "n12")


def _frames(folder: Path, cards: Deck, ids: tuple[str, ...], shots: int) -> None:
    folder.mkdir(parents=True)
    table = SimulatedTable(cards, seed=5, conditions=Conditions.clean("wood"))
    n = 0

    def grab() -> None:
        nonlocal n
        cv2.imwrite(str(folder / f"{n:04d}.png"), table.capture().image)
        n += 1

    for cid in ids:
        for k in range(shots):
            table.clear()
            grab()  # the view clear between shots
            table.place(cid, Pose(300 + 20 * k, 240, 4 * k, 150))
            for _ in range(4):
                grab()
    table.clear()
    grab()


def test_live_enrolment_resumes_and_writes_the_deck_whole(
        tmp_path: Path, demo_decks: Callable[[str], Deck],
        capsys: pytest.CaptureFixture[str]) -> None:
    full = demo_decks("the-game")
    deck = Deck(tmp_path / "deck", "t", full.game, "t", "t", False, full.shape, full.size,
                full.use_colour, tuple(full.card(c) for c in IDS),
                {c: full.template(c) for c in IDS})
    save_deck(deck)  # the manifest (its templates the demo's, to be replaced)
    _frames(tmp_path / "first", full, IDS[:1], 2)
    _frames(tmp_path / "second", full, IDS[1:], 2)
    args = ["vision", "enroll", "--deck", str(tmp_path / "deck"), "--shots", "2"]
    assert main([*args, "--camera", f"folder:{tmp_path / 'first'}"]) == 1  # frames ran out
    progress = tmp_path / "deck.progress"
    assert (progress / "progress.json").is_file() and (progress / "n10@2.png").is_file()
    partial = load_deck(tmp_path / "deck")  # the cards taught so far are saved, card by card
    assert len(partial.templates_of("n10")) == 2 and len(partial.templates_of("n11")) == 1
    assert main([*args, "--camera", f"folder:{tmp_path / 'second'}"]) == 0
    err = capsys.readouterr().err
    assert "resuming: 1 cards taught already" in err
    written = load_deck(tmp_path / "deck")
    assert all(len(written.templates_of(c)) == 2 for c in IDS)
    assert written.max_fit is not None  # (its foreign-card gate, measured as it was written)
    assert not progress.exists()  # the shots are the deck now
