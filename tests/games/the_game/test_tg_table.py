"""The Game's table adapter: camera cards on rows -> plays, refused plays, the seat buttons'
short and long presses, the host's entries, undo and resync."""

from __future__ import annotations

from pathlib import Path

from tg_testing import dealt, seen, start, tg_referee

from engine import the_game as tg
from engine.core import Rejection
from firmware.box import Firmware
from tablekeeper.clock import FakeClock
from tablekeeper.games.the_game.table import HOLD_NS
from tablekeeper.journal import read
from tablekeeper.referee import CardSeen

MS = 1_000_000


def test_a_number_card_on_a_row_is_a_play_there_stamped_with_its_frame(
        tmp_path: Path, firmware: Firmware, clock: FakeClock) -> None:
    referee = tg_referee(tmp_path, firmware, clock)
    table = start(referee)
    clock.advance_ms(5_000)
    frame = clock.now_ns() - 300 * MS
    state = table.card_seen(seen(37, 2, frame))
    assert isinstance(state, tg.State)
    assert state.rows[2].top == 37 and state.plays[-1].at_ms == 4_700
    assert state.players[0].hand_count == 6 and state.played_this_turn == 1


def test_row_cards_foreign_cards_and_cards_off_the_rows_play_nothing(
        tmp_path: Path, firmware: Firmware, clock: FakeClock) -> None:
    referee = tg_referee(tmp_path, firmware, clock)
    table = start(referee)
    before = referee.state
    assert isinstance(table.card_seen(CardSeen("row-up", 1, zone="row1")), Rejection)
    off = table.card_seen(CardSeen("n40", 1, zone=None))
    assert isinstance(off, Rejection) and off.code == "no_row"
    assert isinstance(table.card_seen(CardSeen("n40", 1, zone="centre")), Rejection)
    assert referee.state is before and table.refused is None


def test_a_refused_play_is_flagged_not_applied_and_cleared_when_the_top_shows_again(
        tmp_path: Path, firmware: Firmware, clock: FakeClock) -> None:
    referee = tg_referee(tmp_path, firmware, clock)
    table = start(referee)
    assert isinstance(table.card_seen(seen(45, 0, 1)), tg.State)
    result = table.card_seen(seen(37, 0, 2))
    assert isinstance(result, Rejection) and result.reason == "37 cannot go on ↑45"
    assert table.refused is not None and table.refused.label == "↑45"
    assert referee.state.rows[0].top == 45 and table.refusals == 1
    # the table takes 37 back: the camera sees 45 again (reported anew after a while)
    again = table.card_seen(seen(45, 0, 3))
    assert isinstance(again, Rejection) and table.refused is None


def test_the_host_keeps_a_refused_play_as_a_house_rule(
        tmp_path: Path, firmware: Firmware, clock: FakeClock) -> None:
    referee = tg_referee(tmp_path, firmware, clock)
    table = start(referee)
    table.card_seen(seen(45, 0, 1))
    table.card_seen(seen(37, 0, 2))
    state = table.house_rule(clock.now_ns())
    assert isinstance(state, tg.State)
    assert state.rows[0].top == 37 and state.plays[-1].house_rule
    assert table.refused is None
    types = [r.event.type_name for r in read(tmp_path / "tg.jsonl").active()
             if r.event is not None]
    assert types == ["new_game", "card_played", "house_rule_play"]
    assert isinstance(table.house_rule(clock.now_ns()), Rejection)  # nothing refused now


def test_a_card_not_in_the_dealt_hand_is_refused_with_its_reason(
        tmp_path: Path, firmware: Firmware, clock: FakeClock) -> None:
    sim = dealt(3, 2)
    referee = tg_referee(tmp_path, firmware, clock)
    table = start(referee, hands=sim.hands, pile=sim.draw_pile)
    other = sim.hands[1][0]
    result = table.card_seen(seen(other, 0, 1))
    assert isinstance(result, Rejection) and result.code == "not_in_hand"
    assert table.refused is not None and table.refused.code == "not_in_hand"


def _press(table: object, seat: int, down_ns: int, up_ns: int) -> None:
    table.seat_edge(seat, True, down_ns)  # type: ignore[attr-defined]
    table.seat_edge(seat, False, up_ns)  # type: ignore[attr-defined]


def test_a_short_press_ends_the_turn_and_is_refused_below_the_minimum(
        tmp_path: Path, firmware: Firmware, clock: FakeClock) -> None:
    referee = tg_referee(tmp_path, firmware, clock)
    table = start(referee)
    table.card_seen(seen(10, 0, 1))
    _press(table, 1, 10 * MS, 150 * MS)
    assert table.said is not None and table.said.code == "below_minimum"
    assert referee.state.to_act == 0
    table.card_seen(seen(20, 0, 200 * MS))
    assert table.said is None  # a new play clears it
    _press(table, 2, 300 * MS, 400 * MS)  # not the acting seat
    assert table.said is not None and table.said.code == "not_your_turn"
    _press(table, 1, 500 * MS, 620 * MS)
    state = referee.state
    assert state.to_act == 1 and state.turn == 2 and state.players[0].hand_count == 7
    assert state.draw_count == 98 - 14 - 2


def test_a_long_press_asks_the_host_and_the_confirmation_ends_the_game(
        tmp_path: Path, firmware: Firmware, clock: FakeClock) -> None:
    referee = tg_referee(tmp_path, firmware, clock)
    table = start(referee)
    down = clock.now_ns() + 10 * MS
    table.seat_edge(1, True, down)
    assert table.next_wake_ns() == down + HOLD_NS
    table.tick(down + HOLD_NS - 1)
    assert table.claim is None
    table.tick(down + HOLD_NS)  # fires while still held (gpiozero's when_held)
    assert table.claim is not None and table.claim.seat == 0
    table.seat_edge(1, False, down + HOLD_NS + 300 * MS)  # the release ends no turn
    assert referee.state.turn == 1 and table.next_wake_ns() is None
    table.cancel_claim()
    assert table.claim is None and referee.state.phase is tg.Phase.PLAY
    table.seat_edge(1, True, down + 3 * HOLD_NS)
    table.seat_edge(1, False, down + 4 * HOLD_NS + 1)  # held past 2 s, ticks missed
    assert table.claim is not None
    state = table.confirm_claim(clock.now_ns())
    assert isinstance(state, tg.State) and state.phase is tg.Phase.OVER
    assert tg.verdict(state) is tg.Verdict.LOSS
    assert state.outcome is not None and state.outcome.reason is tg.EndReason.CANNOT_PLAY


def test_a_dealt_game_refuses_the_claim_while_a_card_can_go(
        tmp_path: Path, firmware: Firmware, clock: FakeClock) -> None:
    sim = dealt(5, 2)
    referee = tg_referee(tmp_path, firmware, clock)
    table = start(referee, hands=sim.hands, pile=sim.draw_pile)
    table.seat_edge(1, True, 0)
    table.tick(HOLD_NS)
    result = table.confirm_claim(HOLD_NS)
    assert isinstance(result, Rejection) and result.code == "can_play"
    assert table.said is not None and table.said.code == "can_play"
    assert referee.state.phase is tg.Phase.PLAY


def test_the_host_enters_a_play_by_hand_and_undo_takes_it_back(
        tmp_path: Path, firmware: Firmware, clock: FakeClock) -> None:
    referee = tg_referee(tmp_path, firmware, clock)
    table = start(referee)
    table.card_seen(seen(30, 1, 1))
    state = table.enter_play(3, 90, clock.now_ns())
    assert isinstance(state, tg.State) and state.rows[3].top == 90
    refused = table.enter_play(3, 95, clock.now_ns())
    assert isinstance(refused, Rejection) and table.refused is not None
    undone = referee.undo()
    assert isinstance(undone, tg.State) and undone.rows[3].top == 100
    assert undone.rows[1].top == 30 and table.refused is None
    # after the undo the camera offers what it sees: the row's top already played is
    # ignored; the card the undo took back (still lying on row 4) is played again
    assert isinstance(table.card_seen(seen(30, 1, 2)), Rejection)
    again = table.card_seen(seen(90, 3, 3))
    assert isinstance(again, tg.State) and again.rows[3].top == 90


def test_the_referee_forwards_seat_edges_and_ticks_to_the_adapter(
        tmp_path: Path, firmware: Firmware, clock: FakeClock) -> None:
    referee = tg_referee(tmp_path, firmware, clock)
    table = start(referee)
    referee.seat_edge(1, True, clock.now_ns())
    assert referee.next_deadline_ns() == clock.now_ns() + HOLD_NS
    clock.advance_ms(2_000)
    referee.tick(clock.now_ns())
    assert table.claim is not None
