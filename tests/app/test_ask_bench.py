"""The ask bench's simulated host (issue 37): presses counted through the real screen."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tablekeeper.askbench import ScreenHost, _taken, run_set
from tablekeeper.journal import read
from vision.tracker import UnsureCard


def _unsure(ids: tuple[str, ...]) -> UnsureCard:
    corners = ((10.0, 10.0), (90.0, 10.0), (90.0, 130.0), (10.0, 130.0))
    return UnsureCard(t_ns=0, seq=0, zone="row1", corners=corners, first_seen_ns=0,
                      candidates=tuple((c, 0.9 - 0.1 * k) for k, c in enumerate(ids)),
                      crop=np.zeros((60, 40, 3), np.uint8), gate="min_score", key=1)


def test_presses_to_the_right_card(tmp_path: Path) -> None:
    host = ScreenHost(tmp_path)
    assert host.answer(_unsure(("a", "b", "c")), "a") == 1  # confirm: the best
    assert host.answer(_unsure(("a", "b", "c")), "c") == 3  # next, next, confirm
    assert host.answer(_unsure(("a", "b", "c")), "z") is None  # none of these: by hand
    notes = [r.note for r in read(tmp_path / "bench.jsonl").records if r.note is not None]
    assert [n.fields["chosen"] for n in notes if n.kind == "asked"] == ["a", "c", None]


def test_the_host_turns_to_the_second_page_with_back(tmp_path: Path) -> None:
    """Six candidates: the 4th-6th are 2-4 presses away (*back* first), "none of these" 5."""
    host = ScreenHost(tmp_path)
    six = ("a", "b", "c", "d", "e", "f")
    assert [host.answer(_unsure(six), c) for c in six] == [1, 2, 3, 2, 3, 4]
    assert host.answer(_unsure(six), "z") is None and host.last == 5


def test_photos_in_the_order_they_were_taken() -> None:
    assert _taken(Path("blue-2-20161230_192740.jpg")) == "20161230-192740"
    assert _taken(Path("x.png")) == "x"


@pytest.mark.slow
def test_a_real_photo_through_the_ask_flow(tmp_path: Path) -> None:
    from tablekeeper.askbench import _crops_deck
    from vision import realtables

    root = realtables.table_set(realtables.BOARDS)
    deck = _crops_deck()
    if root is None or deck is None:
        pytest.skip("the real photo sets are not here")
    photos = realtables.load_tables(root)[:2]
    f = run_set(realtables.BOARDS, photos, deck, ScreenHost(tmp_path))
    assert f.photos == 2 and f.cards == 18
    assert f.named + f.wrong + f.asked + f.not_found == f.cards
    assert all(1 <= p <= 4 for p in f.presses) and len(f.presses) + f.by_hand == f.asked
    assert f.among3 <= f.among6 <= f.asked and all(p == 5 for p in f.to_hand)
