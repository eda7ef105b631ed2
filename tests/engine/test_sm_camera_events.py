"""The camera's and the seat buttons' twins of the host's bet, pass and hourglass: the same
rules, their own sources in the journal."""

from __future__ import annotations

from sm_helpers import ok, rejected, started

from engine.core import Source
from engine.something_missing import (
    EVENTS,
    Bet,
    BetSeen,
    BuzzWon,
    CardRevealed,
    CheckResult,
    HourglassTurned,
    Pass,
    PassPressed,
    Phase,
    SceneTurnedUp,
    State,
)

T = started(4).now_ms + 1  # the betting starts after the viewing passes


def _bet(n: int = 4, buzzer: int = 1) -> State:
    begun = started(n)
    state = ok(begun, CardRevealed(at_ms=begun.now_ms, card=0))
    return ok(state, BuzzWon(at_ms=state.now_ms + 1, seat=buzzer))


def test_a_bet_seen_plays_as_the_hosts_bet() -> None:
    a = ok(_bet(), Bet(at_ms=T + 10, seat=1, position=2), Bet(at_ms=T + 11, seat=2, position=2))
    b = ok(_bet(), BetSeen(at_ms=T + 10, seat=1, position=2),
           BetSeen(at_ms=T + 11, seat=2, position=2))
    assert a.bets == b.bets and b.bets[1].slot == 2
    assert BetSeen.source is Source.CAMERA and PassPressed.source is Source.BUZZER
    # the same rules: out of turn, a full card, the taker cannot pass by button either
    rejected(_bet(), BetSeen(at_ms=T + 10, seat=3, position=0), "not_your_turn")
    rejected(_bet(), PassPressed(at_ms=T + 10, seat=1), "must_bet")
    state = ok(_bet(), BetSeen(at_ms=T + 10, seat=1, position=0), PassPressed(at_ms=T + 11, seat=2))
    assert state.passed == (2,) and state.to_act == 3


def test_the_events_round_trip_through_json() -> None:
    for ev in (BetSeen(at_ms=T + 5, seat=1, position=3), PassPressed(at_ms=T + 6, seat=2),
               SceneTurnedUp(at_ms=T + 7, position=4)):
        assert EVENTS.from_dict(ev.to_dict()) == ev


def test_the_scene_turned_up_starts_the_hourglass_of_its_own_check_only() -> None:
    state = ok(_bet(3, buzzer=0), BetSeen(at_ms=T + 10, seat=0, position=1),
               BetSeen(at_ms=T + 11, seat=1, position=3), BetSeen(at_ms=T + 12, seat=2, position=3))
    assert state.phase is Phase.CHECK and state.check is not None
    assert state.check.position == 3 and state.check.deadline_ms is None  # most tokens first
    out = rejected(state, SceneTurnedUp(at_ms=T + 20, position=1), "out_of_order")
    assert "scene 2" in out.reason and "scene 4" in out.reason
    up = ok(state, SceneTurnedUp(at_ms=T + 20, position=3))
    assert up.check is not None and up.check.deadline_ms == T + 20 + up.rules.check_ms
    # as the host's hourglass would: once running, neither starts it again
    rejected(up, SceneTurnedUp(at_ms=T + 21, position=3), "hourglass_running")
    rejected(up, HourglassTurned(at_ms=T + 21), "hourglass_running")
    by_hand = ok(state, HourglassTurned(at_ms=T + 20))
    assert by_hand.check == up.check
    done = ok(up, CheckResult(at_ms=T + 25, position=3, found=True))
    assert done.check is not None and done.check.position == 1


def test_a_pass_pressed_and_a_pass_entered_are_the_same_decision() -> None:
    a = ok(_bet(), Bet(at_ms=T + 10, seat=1, position=0), Pass(at_ms=T + 11, seat=2))
    b = ok(_bet(), Bet(at_ms=T + 10, seat=1, position=0), PassPressed(at_ms=T + 11, seat=2))
    assert a.passed == b.passed and a.to_act == b.to_act
