"""``tablekeeper bench pixels`` runs and prints its floor lines (figures are never asserted;
this only checks the bench works, on a tiny run)."""

from __future__ import annotations

import pytest

from tablekeeper.cli import main
from vision.pixelbench import Row, floor


def test_the_floor_is_the_smallest_width_from_which_all_are_good() -> None:
    def row(width: int, named: int, wrong: int = 0) -> Row:
        return Row("d", width, cards=100, found=100, matched=named, match_wrong=wrong,
                   named=named, wrong=wrong)

    rows = [row(20, 50), row(30, 96), row(40, 94), row(50, 99), row(60, 100)]
    assert floor(rows) == 50  # 40 is not good, so 30 does not count
    assert floor([row(30, 99, wrong=1), row(40, 99)]) == 40  # a wrong one is not good
    assert floor([row(30, 10)]) is None
    base = row(0, 92)
    assert floor([row(20, 80), row(30, 91), row(40, 90)], baseline=base) == 30


def test_the_bench_prints_a_floor_per_deck(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "pixels", "--deck", "the-game", "--frames", "1", "--no-real"]) == 0
    out = capsys.readouterr().out
    assert "recognition against card width" in out
    assert "the-game" in out and "find+match" in out
