"""眨眨眼 at the table: the camera's cells become the engine's events, the 「我要抓！」 race runs
on the seat buttons through the arbiter, host entries, and undo offers the camera's view again."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from engine.core import Rejection
from engine.wink import CellFace, Phase, State
from firmware.box import Firmware, build
from firmware.config import FirmwareConfig
from firmware.mock import mock_factory
from tablekeeper.clock import FakeClock
from tablekeeper.games.wink import KIT, host
from tablekeeper.games.wink.camera import CellReport
from tablekeeper.games.wink.table import eligible_seats, table_of, zone_name
from tablekeeper.journal import JournaledGame
from tablekeeper.referee import CardSeen, Referee

MS = 1_000_000
NUMBERS = tuple(random.Random(4).sample(range(1, 37), 36))
COLOURS = ("red", "yellow", "blue", "green", "brown")


def _firmware(clock: FakeClock, tie_window_us: float | None = None) -> tuple[Firmware, Any]:
    factory = mock_factory()
    d: dict[str, Any] = {"backend": "gpio", "sound": {"kind": "none"}}
    if tie_window_us is not None:
        d["arbiter"] = {"tie_window_us": tie_window_us}
    config = FirmwareConfig.from_dict(d)
    return build(config, factory, rng=random.Random(5), clock=clock.now_ns), factory


def _referee(tmp_path: Path, clock: FakeClock, firmware: Firmware) -> Referee:
    game = JournaledGame.create(tmp_path / "game.jsonl", game="wink")
    return Referee(game, firmware, clock.now_ns(), kit=KIT, game_id="t")


@pytest.fixture
def rig(tmp_path: Path, clock: FakeClock, firmware: Firmware,
        factory: Any) -> tuple[Referee, Any]:
    return _referee(tmp_path, clock, firmware), factory


def _start(referee: Referee, clock: FakeClock, n: int = 5) -> State:
    ev = host.new_game([f"P{i}" for i in range(n)], COLOURS[:n], "basic_deal", 0,
                       referee.at_ms(clock.now_ns()))
    assert isinstance(referee.submit(ev), State)
    return referee.state  # type: ignore[no-any-return]


def _lay(referee: Referee, clock: FakeClock) -> State:
    """The camera sees the 36 cards settle, one per cell: the grid is laid."""
    for i, n in enumerate(NUMBERS):
        clock.advance_ms(5)
        referee.card_seen(CardSeen(f"w{n:02d}", clock.now_ns(), zone=zone_name(*divmod(i, 6))))
    state: State = referee.state
    return state


def _report(clock: FakeClock, zone: str, face: str = "up", marker: str | None = None,
            number: int | None = None) -> CellReport:
    return CellReport(f"cell:{zone}", clock.now_ns(), zone=zone, face=face, marker=marker,
                      number=number)


def test_the_grid_seen_by_the_camera_starts_play(rig: tuple[Referee, Any],
                                                 clock: FakeClock) -> None:
    referee, _ = rig
    _start(referee, clock)
    state = _lay(referee, clock)
    assert state.phase is Phase.PLACE and state.active == 0
    assert tuple(c.number for c in state.grid) == NUMBERS


def test_a_marker_put_down_is_the_placement(rig: tuple[Referee, Any], clock: FakeClock) -> None:
    referee, _ = rig
    _start(referee, clock)
    _lay(referee, clock)
    state = referee.card_seen(_report(clock, "r2c3", marker="red"))
    assert isinstance(state, State)
    assert state.players[0].marker == 8 and state.active == 1
    assert state.placements[-1].kind.value == "camera" and state.mismatches == ()
    # yellow's turn; blue's marker comes down: not blue's turn -- rejected, with a reason
    wrong = referee.card_seen(_report(clock, "r4c4", marker="blue"))
    assert isinstance(wrong, Rejection)
    assert referee.state.active == 1


def test_an_unknown_marker_and_a_missing_one_are_reported(rig: tuple[Referee, Any],
                                                          clock: FakeClock) -> None:
    referee, _ = rig
    _start(referee, clock)
    _lay(referee, clock)
    table = table_of(referee)
    referee.card_seen(_report(clock, "r2c3", marker="red"))
    referee.card_seen(_report(clock, "r5c5", marker="unknown"))
    assert table.problems["r5c5"] == "unknown_marker"
    assert referee.state.players[1].marker is None  # nothing was placed
    # red's marker is gone from r2c3: a missing marker, and a mismatch the engine records
    referee.card_seen(_report(clock, "r2c3", marker=None, number=NUMBERS[8]))
    assert table.problems["r2c3"] == "missing_marker"
    state: State = referee.state
    assert [m.cell for m in state.mismatches] == [8]
    assert state.mismatches[0].expected_marker == "red"
    # it is put back: the mismatch clears
    referee.card_seen(_report(clock, "r2c3", marker="red"))
    assert referee.state.mismatches == ()


def test_the_camera_confirms_a_card_turned_down_by_the_host(rig: tuple[Referee, Any],
                                                            clock: FakeClock) -> None:
    referee, _ = rig
    n = 3
    _start(referee, clock, n)
    _lay(referee, clock)
    for seat, zone in enumerate(("r1c1", "r1c2", "r1c3")):
        referee.card_seen(_report(clock, zone, marker=COLOURS[seat]))
    state: State = referee.state
    assert state.phase is Phase.NAME and state.active == 0
    ev = host.event_for(state, "name_wrong", 1, referee.at_ms(clock.now_ns()))
    assert ev is not None
    state = referee.submit(ev)
    assert state.grid[0].face is CellFace.DOWN and 0 in state.unconfirmed
    referee.card_seen(_report(clock, "r1c1", face="down"))
    assert 0 not in referee.state.unconfirmed
    # the camera says the card is still up: a disagreement, shown, never resolved silently
    referee.card_seen(_report(clock, "r1c1", face="up", number=NUMBERS[0]))
    assert [m.cell for m in referee.state.mismatches] == [0]
    assert referee.state.grid[0].face is CellFace.DOWN


def _placed_all(referee: Referee, clock: FakeClock, n: int) -> State:
    for seat in range(n):
        referee.card_seen(_report(clock, zone_name(0, seat), marker=COLOURS[seat]))
    state: State = referee.state
    return state


@pytest.mark.parametrize(("tie_window_us", "tie"), [(None, True), (20.0, False)])
def test_two_accusers_50_us_apart(tmp_path: Path, clock: FakeClock,
                                  tie_window_us: float | None, tie: bool) -> None:
    """Seat 3 (P2) presses 50 µs before seat 5 (P4); their callbacks arrive in the other
    order. The box's default tie window is 100 µs: 50 µs apart is a tie drawn by lot (both
    named tied, the margin kept). With a 20 µs window the earliest edge wins by 50 µs."""
    firmware, factory = _firmware(clock, tie_window_us)
    try:
        _race(tmp_path, clock, firmware, factory, tie)
    finally:
        firmware.close()


def _race(tmp_path: Path, clock: FakeClock, firmware: Firmware, factory: Any,
          tie: bool) -> None:
    referee = _referee(tmp_path, clock, firmware)
    _start(referee, clock)
    _lay(referee, clock)
    _placed_all(referee, clock, 5)
    arbiter = firmware.arbiter
    assert arbiter.phase.value == "armed"
    pins = [factory.pin(p) for p in firmware.config.pins.seats]
    t = clock.now_ns() + 5 * MS
    pins[4].press(t + 50_000)
    pins[2].press(t)
    clock.advance_ms(40)
    referee.tick(clock.now_ns())
    state: State = referee.state
    assert state.phase is Phase.ACCUSATION and state.pending is not None
    assert referee.last_buzz is not None
    d = referee.last_buzz.decision
    assert d.margin_us == pytest.approx(50.0)
    assert d.tie is tie
    if tie:
        assert d.tied == (3, 5) and state.pending.seat in (2, 4) and state.pending.tie
    else:
        assert d.winner == 3 and state.pending.seat == 2 and state.pending.margin_us == 50
        assert not state.pending.tie
    assert arbiter.phase.value != "armed"  # nobody else races while the host enters it


def test_seats_without_accusation_cards_are_excluded(rig: tuple[Referee, Any],
                                                     clock: FakeClock) -> None:
    referee, factory = rig
    _start(referee, clock)
    _lay(referee, clock)
    _placed_all(referee, clock, 5)
    pins = [factory.pin(p) for p in referee.firmware.config.pins.seats]
    # seat 2 (P1) spends all four accusation cards (withdrawn presses still spend one)
    for _ in range(4):
        t = clock.now_ns() + 2 * MS
        pins[1].press(t)
        pins[1].release(t + 20 * MS)
        clock.advance_ms(30)
        referee.tick(clock.now_ns())
        assert referee.state.phase is Phase.ACCUSATION
        ev = host.event_for(referee.state, "withdraw", None, referee.at_ms(clock.now_ns()))
        clock.advance_ms(2_000)  # the host enters it a moment later
        assert ev is not None and isinstance(referee.submit(ev), State)
        clock.advance_ms(40)
    state: State = referee.state
    assert state.players[1].accusations == 0
    assert 1 not in eligible_seats(state)
    # now P1 presses first, P3 1 ms later: P3 wins, P1 cannot
    t = clock.now_ns() + 2 * MS
    pins[1].press(t)
    pins[3].press(t + MS)
    clock.advance_ms(40)
    referee.tick(clock.now_ns())
    assert referee.state.pending is not None and referee.state.pending.seat == 3


def test_host_entries_mean_events(rig: tuple[Referee, Any], clock: FakeClock) -> None:
    referee, _ = rig
    _start(referee, clock, 3)
    at = referee.at_ms(clock.now_ns())
    ev = host.event_for(referee.state, "grid", NUMBERS, at)
    assert ev is not None and isinstance(referee.submit(ev), State)
    state: State = referee.state
    assert host.event_for(state, "name_right", 1, at) is None  # not in PLACE
    ev = host.event_for(state, "place", (2, 2), at)
    assert ev is not None
    state = referee.submit(ev)
    assert state.players[0].marker == 14 and state.placements[-1].kind.value == "host"
    ev = host.event_for(state, "accuse", 2, at)
    assert ev is not None
    state = referee.submit(ev)
    assert state.phase is Phase.ACCUSATION and state.pending is not None
    number = state.grid[14].number
    ev = host.event_for(state, "accused_right", (1, number), at)
    assert ev is not None
    state = referee.submit(ev)
    assert state.players[2].score == 4 + 2 - 1  # caught: two cards, one accusation spent
    with pytest.raises(ValueError, match="variant"):
        host.new_game(["a", "b", "c"], COLOURS[:3], "nope", 0, 0)


def test_undo_offers_the_marker_the_camera_sees_again(rig: tuple[Referee, Any],
                                                      clock: FakeClock) -> None:
    """Undo takes back the last host entry: a marker the host entered by hand (the camera had
    missed it) is undone; the camera, asked to report again, sees the marker lying there:
    it is placed again, by the camera."""
    referee, _ = rig
    _start(referee, clock)
    _lay(referee, clock)
    ev = host.event_for(referee.state, "place", (2, 2), referee.at_ms(clock.now_ns()))
    assert ev is not None and isinstance(referee.submit(ev), State)
    assert referee.state.placements[-1].kind.value == "host"
    assert isinstance(referee.undo(), State)
    assert referee.state.players[0].marker is None and referee.state.phase is Phase.PLACE
    again = referee.card_seen(_report(clock, "r3c3", marker="red"))
    assert isinstance(again, State) and again.players[0].marker == 14
    assert again.placements[-1].kind.value == "camera"


def test_undo_of_a_naming_shows_the_table_disagreeing(rig: tuple[Referee, Any],
                                                      clock: FakeClock) -> None:
    """A wrong naming undone: the card the players turned down is still down on the table;
    the camera reports it again and the box shows the disagreement until it is turned up."""
    referee, _ = rig
    _start(referee, clock, 3)
    _lay(referee, clock)
    _placed_all(referee, clock, 3)
    ev = host.event_for(referee.state, "name_wrong", 2, referee.at_ms(clock.now_ns()))
    assert ev is not None and isinstance(referee.submit(ev), State)
    referee.card_seen(_report(clock, "r1c1", face="down"))
    assert referee.state.mismatches == ()
    referee.undo()
    state: State = referee.state
    assert state.phase is Phase.NAME and state.grid[0].face is CellFace.UP
    referee.card_seen(_report(clock, "r1c1", face="down"))
    assert [m.cell for m in referee.state.mismatches] == [0]
    referee.card_seen(_report(clock, "r1c1", face="up", marker="red", number=NUMBERS[0]))
    assert referee.state.mismatches == ()


def test_a_marker_put_down_during_an_accusation_counts_after_it(
        rig: tuple[Referee, Any], clock: FakeClock) -> None:
    referee, _ = rig
    _start(referee, clock, 3)
    _lay(referee, clock)
    referee.card_seen(_report(clock, "r1c1", marker="red"))  # red placed; yellow's turn
    ev = host.event_for(referee.state, "accuse", 2, referee.at_ms(clock.now_ns()))
    assert ev is not None and isinstance(referee.submit(ev), State)
    # yellow puts the marker down meanwhile: the box waits for the accusation (and shows the
    # marker it does not expect yet)
    referee.card_seen(_report(clock, "r4c4", marker="yellow"))
    assert [m.cell for m in referee.state.mismatches] == [21]
    ev = host.event_for(referee.state, "accused_wrong", (1, NUMBERS[0]),
                        referee.at_ms(clock.now_ns()))
    assert ev is not None and isinstance(referee.submit(ev), State)
    state: State = referee.state
    assert state.players[1].marker == 21 and state.active == 2
    assert state.placements[-1].kind.value == "camera" and state.mismatches == ()
