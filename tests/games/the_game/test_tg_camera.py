"""The Game's camera path on the simulated table: number cards laid on four rows, read by the
real recogniser and tracker in the zones the ``rows:4`` calibration finds, judged by the
engine. The issue's cases: a card knocked onto the wrong row, a hand over a row, two rows
changing in one frame, a card seen for one frame only, an illegal card taken back."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from tg_testing import start, tg_referee

from engine import the_game as tg
from firmware.box import Firmware
from tablekeeper.clock import FakeClock
from tablekeeper.games.the_game import KIT
from tablekeeper.games.the_game.demo import row_zones
from tablekeeper.games.the_game.simdriver import ROW_CARDS, card_id, row_pose
from tablekeeper.games.the_game.table import Table
from tablekeeper.referee import Referee
from tablekeeper.vision_link import WatchedCamera

FRAME_MS = 34

pytestmark = pytest.mark.slow


class Rig:
    """A referee of The Game, a simulated table with the four row cards laid, and the camera."""

    def __init__(self, tmp_path: Path, firmware: Firmware, clock: FakeClock) -> None:
        from vision.config import VisionConfig
        from vision.simtable import SimulatedTable
        from vision.tracker import CardWatcher

        deck = KIT.deck(None)
        self.clock = clock
        self.rng = random.Random(7)
        self.referee: Referee = tg_referee(tmp_path, firmware, clock)
        self.table: Table = start(self.referee)
        self.cam: Any = SimulatedTable(deck, seed=3, clock=clock.now_ns)
        for row, cid in enumerate(ROW_CARDS):
            self.cam.place(cid, row_pose(self.cam, row, self.rng))
        self.zones = row_zones(self.cam)
        self.source = WatchedCamera(self.cam, CardWatcher(deck, VisionConfig(zones=self.zones)))
        self.frames(6)

    def place(self, card: int, row: int) -> int:
        handle: int = self.cam.place(card_id(card), row_pose(self.cam, row, self.rng))
        return handle

    def frames(self, n: int) -> list[Any]:
        out: list[Any] = []
        for _ in range(n):
            self.clock.advance_ms(FRAME_MS)
            for s in self.source.poll(self.clock.now_ns()):
                out.append((s.card_id, s.zone, self.referee.card_seen(s)))
        return out

    @property
    def state(self) -> tg.State:
        state: tg.State = self.referee.state
        return state


def cards_on(rig: Rig, row: int) -> tuple[int, ...]:
    return tuple(rig.state.rows[row].cards)


@pytest.fixture
def rig(tmp_path: Path, firmware: Firmware, clock: FakeClock) -> Rig:
    return Rig(tmp_path, firmware, clock)


def test_the_calibration_names_four_rows_left_to_right(rig: Rig) -> None:
    assert [z.name for z in rig.zones] == ["row1", "row2", "row3", "row4"]
    assert rig.state.plays == ()  # the row cards play nothing


def test_a_card_on_a_row_plays_there_and_one_knocked_onto_the_wrong_row_plays_there(
        rig: Rig) -> None:
    rig.place(20, 0)
    rig.frames(4)
    assert rig.state.rows[0].top == 20
    rig.place(30, 1)  # meant for row 1, knocked onto row 2: the camera says row 2
    rig.frames(4)
    assert rig.state.rows[1].top == 30 and rig.state.rows[0].top == 20


def test_a_hand_over_a_row_plays_nothing(rig: Rig) -> None:
    rig.place(20, 0)
    rig.frames(4)
    before = rig.state
    pose = row_pose(rig.cam, 0, rig.rng)
    rig.cam.hand_pass(10, target=(pose.x, pose.y))
    rig.frames(14)
    assert rig.state.plays == before.plays


def test_two_rows_changing_in_one_frame_are_two_plays(rig: Rig) -> None:
    rig.place(50, 0)
    rig.place(60, 2)
    rig.frames(4)
    assert rig.state.tops == (50, 1, 60, 100)
    assert rig.state.played_this_turn == 2


def test_a_card_seen_for_one_frame_only_plays_nothing(rig: Rig) -> None:
    handle = rig.place(44, 3)
    rig.frames(1)
    rig.cam.remove(handle)
    rig.frames(6)
    assert rig.state.plays == ()


def test_an_illegal_card_is_refused_and_taken_back_shows_the_previous_top(rig: Rig) -> None:
    rig.place(45, 0)
    rig.frames(4)
    handle = rig.place(37, 0)
    rig.frames(4)
    refused = rig.table.refused
    assert refused is not None and refused.card == 37 and refused.label == "↑45"
    assert rig.state.rows[0].top == 45
    rig.cam.remove(handle)  # the table takes it back: 45 shows again, no new play
    rig.frames(6)
    assert cards_on(rig, 0) == (45,)
    rig.place(50, 0)  # the next card is judged against 45
    rig.frames(4)
    assert cards_on(rig, 0) == (45, 50) and rig.table.refused is None


def test_a_refused_card_taken_back_and_laid_there_again_later_is_seen(rig: Rig) -> None:
    """8 on ↑14 is refused and taken back; 4 goes 10 back; then 8 is laid there again: the
    tracker still remembers an 8 at that place, so the adapter has the camera report anew
    once the refused play is over (through the loop, as after an undo)."""
    from tablekeeper.app import Loop

    loop = Loop(rig.referee, rig.clock, cards=rig.source)

    def steps(n: int) -> None:
        for _ in range(n):
            rig.clock.advance_ms(FRAME_MS)
            loop.step()

    rig.place(14, 0)
    steps(4)
    handle = rig.place(8, 0)
    steps(4)
    assert rig.table.refused is not None and rig.table.refused.card == 8
    rig.cam.remove(handle)
    steps(3)
    rig.table.dismiss()  # the host: taken back
    steps(4)
    rig.place(4, 0)
    steps(4)
    assert cards_on(rig, 0) == (14, 4)
    rig.place(8, 0)
    steps(5)
    assert cards_on(rig, 0) == (14, 4, 8)
