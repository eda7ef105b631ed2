"""Real many-card table photos (``vision.realtables``): labels, the source's row order, the
reference boxes, the fine thresholds' choice, and a clear skip where the photos are absent.
The photos themselves are measured by ``tablekeeper bench vision --tables``."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import realsets, realtables
from vision.realtables import (
    FineSeen,
    board_labels,
    choose_fine,
    choose_gate,
    parse_label,
    reference_cards,
    row_wise,
)


def test_the_sources_labels_become_card_ids() -> None:
    assert parse_label("2 purple empty diamonds") == "2-purple-empty-diamonds"
    assert parse_label("1 green solid squiggle") == "1-green-solid-squiggle"
    with pytest.raises(ValueError, match="not a SET card"):
        parse_label("four green solid squiggles")
    labels = board_labels("red-3-20170101_124914.jpg")
    assert labels[:3] == ["3-red-solid-ovals", "3-red-solid-diamonds", "3-red-solid-squiggles"]
    assert labels[-1] == "3-red-empty-squiggles" and len(set(labels)) == 9


def _box(cx: float, cy: float, w: float = 40, h: float = 60) -> np.ndarray:
    return np.array([[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2],
                     [cx + w / 2, cy + h / 2], [cx - w / 2, cy + h / 2]], np.float32)


def test_row_wise_is_the_sources_order() -> None:
    # A slightly tilted 2x3 layout, shuffled: back row by row, each left to right.
    want = [_box(60 + 70 * c, 60 + 90 * r + 6 * c) for r in range(2) for c in range(3)]
    shuffled = [want[k] for k in (4, 0, 5, 2, 3, 1)]
    got = row_wise(shuffled)
    assert [int(b.mean(axis=0)[0]) for b in got] == [int(b.mean(axis=0)[0]) for b in want]
    assert [int(b.mean(axis=0)[1]) for b in got] == [int(b.mean(axis=0)[1]) for b in want]


def test_reference_cards_on_a_dark_table() -> None:
    img = np.full((400, 300, 3), 25, np.uint8)
    centres = [(70 + 80 * c, 80 + 120 * r) for r in range(3) for c in range(3)]
    for cx, cy in centres:
        cv2.fillPoly(img, [np.rint(_box(cx, cy, 56, 88)).astype(np.int32)], (235, 235, 235))
    got = reference_cards(img, 9)
    assert got is not None
    assert [tuple(np.round(b.mean(axis=0))) for b in got] == [
        (float(x), float(y)) for x, y in centres]
    assert reference_cards(img, 8) is None  # not the number labelled: left out


def test_the_fine_thresholds_name_the_most_with_no_wrong_id() -> None:
    seen = ([FineSeen("a", "a", 0.9, 0.2, True)] * 50 + [FineSeen("b", "b", 0.75, 0.1, True)] * 30
            + [FineSeen("c", "d", 0.72, 0.05, True)] * 5  # wrong, below the right ones
            + [FineSeen("e", "e", 0.95, 0.3, False)])  # colours do not fit: never named
    lo, lead, right, wrong = choose_fine(seen)
    assert (right, wrong) == (80, 0)
    assert 0.72 < lo <= 0.75 or (lo <= 0.72 and lead > 0.05)


def test_the_gate_is_chosen_with_the_fine_thresholds_a_guard_band_below_the_foreign() -> None:
    # Own cards misfit up to 0.06 and 0.09; cards from outside the deck (every name wrong),
    # as well as the own ones, from 0.11: the gate names the first 60 and stays a guard band
    # below the foreign cards (a gate of 0.1 would name the 20 too, and refuse the foreign
    # ones on these observations, but not one a quarter looser).
    seen = ([FineSeen("a", "a", 0.9, 0.2, True, 0.06)] * 60
            + [FineSeen("b", "b", 0.9, 0.2, True, 0.09)] * 20
            + [FineSeen("x", "a", 0.9, 0.2, True, 0.11)] * 10
            + [FineSeen("y", "b", 0.7, 0.2, True, 0.03)] * 3)  # (the fine threshold's)
    lo, lead, max_fit, right, wrong = choose_gate(seen)
    assert (right, wrong) == (60, 0)
    assert max_fit >= 0.06 and realtables.FIT_GUARD * max_fit < 0.11
    assert 0.7 < lo <= 0.9
    assert all(s.accepted(lo, lead, max_fit) in (None, s.card) for s in seen)
    assert FineSeen("x", "a", 0.9, 0.2, True, 0.11).accepted(lo, lead, max_fit) is None
    assert choose_gate([])[3:] == (0, 0)


def test_an_absent_set_is_none_and_says_where_it_looked(tmp_path: Path) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"),
           realsets.MIRROR_ENV: str(tmp_path / "no-mirror")}
    assert realtables.table_set(realtables.BOARDS, environ=env) is None
    assert "not shipped" in realtables.absent_message(realtables.BOARDS)
    with pytest.raises(ValueError, match="no real table set"):
        realtables.table_set("nonsense", environ=env)


def test_the_tables_bench_skips_saying_why_where_the_photos_are_absent(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from tablekeeper.cli import main

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv(realsets.MIRROR_ENV, str(tmp_path / "no-mirror"))
    assert main(["bench", "vision", "--tables"]) == 0
    out = capsys.readouterr().out
    assert "set-boards-9 skipped" in out and "set-tables-mixed skipped" in out
    assert "not shipped" in out


def test_the_presses_count_the_best_candidates_of_unknown_cards(tmp_path: Path) -> None:
    # Three demo cards on a dark table, labelled row by row; a watcher whose score floor no
    # card reaches names none of them, yet each card's best candidate is the right one:
    # none named, all one press away; with the deck's own thresholds all three are named.
    from dataclasses import replace as dc_replace

    from vision.config import VisionConfig
    from vision.demo_decks import build_demo_deck
    from vision.simtable import Conditions, Pose, SimulatedTable
    from vision.tracker import CardWatcher

    deck = build_demo_deck("wink")
    ids = deck.ids[3:6]
    table = SimulatedTable(deck, seed=3, conditions=Conditions.clean("dark"))
    for k, cid in enumerate(ids):
        table.place(cid, Pose(130 + 190 * k, 240, angle=4, width=130))
    path = tmp_path / "table.png"
    assert cv2.imwrite(str(path), table.capture().image)
    photo = realtables.TablePhoto(path, "test", tuple(ids))
    strict = VisionConfig(match=dc_replace(VisionConfig().match, min_score=0.999),
                          deck_thresholds={})
    s = realtables.measure_tables(CardWatcher(deck, strict, deck.id), [photo])
    assert (s.cards, s.found, s.named, s.wrong) == (3, 3, 0, 0)
    assert s.one_press == 3 and s.three_press == 3
    s = realtables.measure_tables(CardWatcher(deck, VisionConfig(), deck.id), [photo])
    assert s.named == 3 and s.one_press == 3 and s.three_press == 3
