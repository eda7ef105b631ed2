"""The referee: camera, buzzer and clock inputs become journalled engine events."""

from __future__ import annotations

import random
from typing import Any

from engine.core import Rejection
from engine.something_missing import Phase, State, ViewingStarted
from firmware.box import Firmware
from firmware.devices import SeatEdge
from tablekeeper.clock import FakeClock
from tablekeeper.games.something_missing.host import new_game
from tablekeeper.games.something_missing.simdriver import card_id
from tablekeeper.games.something_missing.table import table_of
from tablekeeper.journal import JournaledGame, replay
from tablekeeper.referee import CardSeen, Referee

MS = 1_000_000


def start(referee: Referee, clock: FakeClock, players: int = 3) -> State:
    names = ["A", "B", "C", "D", "E", "F", "G"][:players]
    colours = ["red", "yellow", "blue", "green", "orange", "brown", "purple"][:players]
    event = new_game(names, colours, "easy", 0, referee.at_ms(clock.now_ns()), random.Random(1))
    result = referee.submit(event)
    assert isinstance(result, State)
    if referee.state.deadline_ms is None:  # the host's "ready": the first pass starts
        referee.submit(ViewingStarted(at_ms=referee.at_ms(clock.now_ns())))
    # let the viewing passes run out on the referee's own timer
    while referee.state.phase is Phase.VIEWING:
        clock.advance_ms(1_000)
        referee.tick(clock.now_ns())
    state: State = referee.state
    assert state.phase is Phase.REVEAL
    return state


def test_viewing_passes_end_on_the_timer(referee: Referee, clock: FakeClock) -> None:
    state = start(referee, clock)
    # 4 scenes, 3 players: 4 passes of 5 s
    assert state.now_ms - 0 >= 4 * 5_000


def test_card_arms_the_arbiter_at_the_frame_time(referee: Referee, clock: FakeClock,
                                                 firmware: Firmware, factory: Any) -> None:
    start(referee, clock)
    frame_ns = clock.now_ns() + 10 * MS
    clock.advance_ms(80)  # recognition settles a few frames after the card appeared
    result = referee.card_seen(CardSeen("i05", frame_ns))
    assert isinstance(result, State) and result.phase is Phase.BUZZ
    assert firmware.arbiter.armed_ns == frame_ns
    # seat 3 pressed 40 ms after the frame, seat 2 at 45 ms; callbacks arrive in the other order
    pins = [factory.pin(p) for p in firmware.config.pins.seats]
    pins[1].press(frame_ns + 45 * MS)
    pins[2].press(frame_ns + 40 * MS)
    clock.advance_ms(50)
    referee.tick(clock.now_ns())
    state = referee.state
    assert state.phase is Phase.BET
    assert state.buzz is not None and state.buzz.seat == 2
    assert state.buzz.margin_us == 5_000
    assert referee.last_buzz is not None and referee.last_buzz.decision.winner == 3


def test_unknown_card_is_rejected_with_a_reason(referee: Referee, clock: FakeClock) -> None:
    start(referee, clock)
    result = referee.card_seen(CardSeen("s03", clock.now_ns()))
    assert isinstance(result, Rejection) and "s03" in result.reason
    assert referee.state.phase is Phase.REVEAL


def test_press_before_the_card_is_locked_out(referee: Referee, clock: FakeClock,
                                             firmware: Firmware, factory: Any) -> None:
    start(referee, clock)
    pins = [factory.pin(p) for p in firmware.config.pins.seats]
    t0 = clock.now_ns()
    pins[0].press(t0)  # too early: the card is not out yet
    pins[0].release(t0 + 60 * MS)
    frame_ns = t0 + 100 * MS
    clock.advance_ms(150)
    referee.card_seen(CardSeen("i07", frame_ns))
    pins[0].press(frame_ns + 120 * MS)  # still locked out (250 ms from the early press)
    pins[1].press(frame_ns + 300 * MS)
    clock.advance_ms(400)
    referee.tick(clock.now_ns())
    assert referee.state.buzz is not None and referee.state.buzz.seat == 1


def test_check_times_out_on_the_clock_and_everything_is_journalled(
        referee: Referee, clock: FakeClock, factory: Any, firmware: Firmware) -> None:
    start(referee, clock)
    frame_ns = clock.now_ns()
    referee.card_seen(CardSeen("i01", frame_ns))
    factory.pin(firmware.config.pins.seats[0]).press(frame_ns + 300 * MS)
    clock.advance_ms(400)
    referee.tick(clock.now_ns())
    from tablekeeper.games.something_missing.host import event_for

    state = referee.state
    assert state.phase is Phase.BET
    bet = event_for(state, "bet", 1, referee.at_ms(clock.now_ns()), random.Random(0))
    assert bet is not None
    referee.submit(bet)
    while referee.state.phase is Phase.BET:
        ev = event_for(referee.state, "pass", None, referee.at_ms(clock.now_ns()),
                       random.Random(0))
        assert ev is not None
        referee.submit(ev)
    assert referee.state.phase is Phase.CHECK
    clock.advance_ms(60_000)  # untimed: nobody turned the hourglass
    referee.tick(clock.now_ns())
    assert referee.state.phase is Phase.CHECK
    turn = event_for(referee.state, "start_timer", None, referee.at_ms(clock.now_ns()),
                     random.Random(0))
    assert turn is not None and not isinstance(referee.submit(turn), Rejection)
    clock.advance_ms(29_000)
    referee.tick(clock.now_ns())
    assert referee.state.phase is Phase.CHECK
    clock.advance_ms(1_500)
    referee.tick(clock.now_ns())
    assert referee.state.phase is not Phase.CHECK
    assert referee.state.last_changes[0].reason.value == "time_up"
    assert replay(referee.game.journal.contents()) == referee.state
    # "found" was pressed a moment too late: the undo takes back the press and its time-up
    referee.undo()
    state = referee.state
    assert state.phase is Phase.CHECK and state.check is not None
    assert state.check.deadline_ms is None
    found = event_for(state, "found", None, referee.at_ms(clock.now_ns()), random.Random(0))
    assert found is not None
    referee.submit(found)
    assert referee.state.last_changes[0].reason.value == "found"
    assert replay(referee.game.journal.contents()) == referee.state


def test_undo_takes_back_the_last_host_event(referee: Referee, clock: FakeClock,
                                             factory: Any, firmware: Firmware) -> None:
    start(referee, clock)
    frame_ns = clock.now_ns()
    referee.card_seen(CardSeen("i01", frame_ns))
    factory.pin(firmware.config.pins.seats[0]).press(frame_ns + 300 * MS)
    clock.advance_ms(400)
    referee.tick(clock.now_ns())
    before = referee.state
    from tablekeeper.games.something_missing.host import event_for

    bet = event_for(before, "bet", 0, referee.at_ms(clock.now_ns()), random.Random(0))
    assert bet is not None
    referee.submit(bet)
    assert referee.state.bets
    referee.undo()
    assert referee.state == before


def test_resume_carries_the_game_clock_on(tmp_path: Any, firmware: Firmware) -> None:
    first = FakeClock()
    game = JournaledGame.create(tmp_path / "g.jsonl")
    ref = Referee(game, firmware, first.now_ns(), card_ids={card_id(i): i for i in range(66)})
    start(ref, first)
    ref.card_seen(CardSeen("i09", first.now_ns()))
    at = ref.state.now_ms
    # power cut; the box comes back much later on a clock that restarted
    later = FakeClock(start_ns=5_000_000_000)
    resumed = Referee(JournaledGame.open(tmp_path / "g.jsonl"), firmware, later.now_ns(),
                      card_ids={card_id(i): i for i in range(66)})
    assert resumed.state == ref.state
    assert resumed.at_ms(later.now_ns()) == at
    # mid-buzz: the arbiter is armed again so a press now still counts
    assert resumed.state.phase is Phase.BUZZ
    assert firmware.arbiter.armed_ns == later.now_ns()


def test_a_card_turned_by_hand_survives_a_power_cut(tmp_path: Any, firmware: Firmware) -> None:
    first = FakeClock()
    ids = {card_id(i): i for i in range(66)}
    ref = Referee(JournaledGame.create(tmp_path / "g.jsonl"), firmware, first.now_ns(),
                  card_ids=ids)
    start(ref, first)
    assert isinstance(table_of(ref).reveal_by_hand(first.now_ns()), State)
    # power cut mid-buzz: the unnamed card is still the one buzzed for, so a camera card may
    # still be it, recognised late: the host says
    later = FakeClock(start_ns=5_000_000_000)
    resumed = Referee(JournaledGame.open(tmp_path / "g.jsonl"), firmware, later.now_ns(),
                      card_ids=ids)
    assert resumed.state == ref.state and resumed.state.pile[-1] is None
    result = resumed.card_seen(CardSeen("i09", later.now_ns()))
    assert isinstance(result, Rejection) and result.code == "held_for_host"
    assert table_of(resumed).held == CardSeen("i09", later.now_ns())


def test_a_slower_runner_up_is_shown_with_its_margin(referee: Referee, clock: FakeClock,
                                                     firmware: Firmware, factory: Any) -> None:
    start(referee, clock)
    frame_ns = clock.now_ns()
    referee.card_seen(CardSeen("i02", frame_ns))
    pins = [factory.pin(p) for p in firmware.config.pins.seats]
    pins[0].press(frame_ns + 300 * MS)
    clock.advance_ms(320)
    referee.tick(clock.now_ns())
    assert referee.last_buzz is not None and referee.last_buzz.margin_us is None
    pins[2].press(frame_ns + 512 * MS)
    for edge in firmware.hub.drain():
        if isinstance(edge, SeatEdge) and edge.pressed:
            referee.note_press(edge.seat, edge.t_ns)
    assert referee.last_buzz.runner_up == 3
    assert referee.last_buzz.margin_us == 212_000
    # the journal keeps what the arbiter knew when it decided
    assert referee.state.buzz is not None and referee.state.buzz.margin_us == 0


class _Queued:
    """A card source holding one card recognised before the loop polls it (as the camera
    thread holds a card from the last frames it took before the game stopped watching)."""

    status: str | None = None

    def __init__(self, card: str, before_ns: int) -> None:
        self.card, self.before_ns, self.polls = card, before_ns, 0

    def poll(self, now_ns: int) -> list[CardSeen]:
        self.polls += 1
        return [CardSeen(self.card, now_ns - self.before_ns)] if self.polls == 1 else []

    def close(self) -> None:
        pass


def test_a_card_seen_before_cards_are_revealed_again_counts_from_then(
        referee: Referee, clock: FakeClock, firmware: Firmware, factory: Any) -> None:
    from tablekeeper.app import Loop

    start(referee, clock)
    # The loop comes to the revealing phase (say from a bet); the camera thread hands over a
    # card it recognised 500 ms ago, before that. Seat 1 pressed 300 ms ago (while betting).
    pins = [factory.pin(p) for p in firmware.config.pins.seats]
    t0 = clock.now_ns()
    pins[0].press(t0 - 300 * MS)
    pins[0].release(t0 - 250 * MS)
    loop = Loop(referee, clock, cards=_Queued("i05", 500 * MS))
    loop.step()
    assert loop.watched_since == t0 and referee.state.phase is Phase.BUZZ
    # The buzzers are armed from when cards were revealed again, not from the older frame:
    # seat 1's press before then does not win the race; seat 2's after it does.
    assert firmware.arbiter.armed_ns == t0
    pins[1].press(t0 + 300 * MS)
    clock.advance_ms(400)
    loop.step()
    state = referee.state
    assert state.buzz is not None and state.buzz.seat == 1  # (0-based: seat 2)
    # Outside the revealing phases nothing is watched, and the spell starts again after.
    assert state.phase is Phase.BET
    loop.step()
    assert loop.watched_since is None
