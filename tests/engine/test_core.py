"""The seam every game shares: the common guard of apply, deadlines, and the static rules'
JSON form."""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field

import pytest

from engine import something_missing as sm
from engine import wink
from engine.core import (
    Deadline,
    Event,
    EventRegistry,
    Reducer,
    Rejection,
    rules_from_dict,
    rules_to_dict,
)

EVENTS = EventRegistry("toy")


class Phase(enum.Enum):
    SETUP = "setup"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True)
class State:
    phase: Phase = Phase.SETUP
    now_ms: int = 0
    moves: int = 0


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class Start(Event):
    type_name = "start"


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class Move(Event):
    type_name = "move"
    n: int


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class Stop(Event):
    type_name = "stop"


@dataclass(frozen=True, kw_only=True)
class Stranger(Event):
    type_name = "stranger"


def _start(state: State, ev: Event) -> State | Rejection:
    return dataclasses.replace(state, phase=Phase.PLAY)


def _move(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, Move)
    if ev.n < 0:
        return Rejection("bad_move", "a move is forward")
    return dataclasses.replace(state, moves=state.moves + ev.n)


def _stop(state: State, ev: Event) -> State | Rejection:
    return dataclasses.replace(state, phase=Phase.OVER)


APPLY: Reducer[State] = Reducer(
    "toy", EVENTS, {(Phase.SETUP, Start): _start, (Phase.PLAY, Move): _move},
    is_over=lambda s: s.phase is Phase.OVER,
    stamp=lambda s, at: dataclasses.replace(s, now_ms=at), anytime={Stop: _stop})


def code(result: State | Rejection) -> str:
    assert isinstance(result, Rejection), result
    return result.code


def test_the_guard_checks_in_order_then_dispatches_on_phase_and_type() -> None:
    state = State()
    assert code(APPLY(state, Stranger(at_ms=0))) == "unknown_event"
    assert code(APPLY(state, Move(at_ms=0, n=1))) == "wrong_phase"
    playing = APPLY(state, Start(at_ms=5))
    assert isinstance(playing, State) and playing.now_ms == 5  # stamped before the handler
    assert code(APPLY(playing, Move(at_ms=4, n=1))) == "clock_went_back"
    assert code(APPLY(playing, Move(at_ms=6, n="2"))) == "bad_event"  # type: ignore[arg-type]
    assert code(APPLY(playing, Move(at_ms=6, n=-1))) == "bad_move"  # the handler's own
    moved = APPLY(playing, Move(at_ms=6, n=2))
    assert isinstance(moved, State) and moved.moves == 2
    over = APPLY(moved, Stop(at_ms=7))  # an anytime event
    assert isinstance(over, State)
    assert code(APPLY(over, Move(at_ms=8, n=1))) == "game_over"


def test_a_handler_for_an_unregistered_event_is_refused_at_once() -> None:
    with pytest.raises(TypeError, match="unregistered event Stranger"):
        Reducer("toy", EVENTS, {(Phase.PLAY, Stranger): _move},
                is_over=lambda s: False, stamp=lambda s, at: s)


def test_the_running_timer_comes_with_its_time_up_event() -> None:
    state = sm.initial_state()
    assert sm.ENGINE.deadline(state) is None
    game = sm.apply(state, sm.NewGame(at_ms=0, names=("a", "b", "c"),
                                      colours=("red", "yellow", "blue"), variant="easy",
                                      start_seat=0, scenes=(0, 1, 2, 3)))
    assert isinstance(game, sm.State)
    assert sm.ENGINE.deadline(game) is None  # the viewing waits for the host's "ready"
    game = sm.apply(game, sm.ViewingStarted(at_ms=1_000))
    assert isinstance(game, sm.State)
    deadline = sm.ENGINE.deadline(game)
    assert deadline == Deadline(6_000, sm.ViewingTimeUp(at_ms=6_000))
    assert not sm.ENGINE.started(state) and sm.ENGINE.started(game)


@dataclass(frozen=True)
class Inner:
    on: bool = True


@dataclass(frozen=True)
class Toy:
    count: int = 3
    offsets: tuple[int, ...] = (0, -1)
    sizes: tuple[tuple[int, int], ...] = ((3, 8), (4, 7))
    name: str = "x"
    inner: Inner = field(default_factory=Inner)

    def problems(self) -> list[str]:
        return ["rules.count: must be positive"] if self.count <= 0 else []


def test_static_rules_round_trip_through_json() -> None:
    toy = Toy(count=5, offsets=(1,), sizes=((5, 6),), name="y", inner=Inner(False))
    data = rules_to_dict(toy)
    assert data == {"count": 5, "offsets": [1], "sizes": {"5": 6}, "name": "y",
                    "inner": {"on": False}}
    assert rules_from_dict(Toy, data) == toy
    assert rules_from_dict(Toy, {}) == Toy()  # missing keys: the defaults
    for rules in (sm.Rules(), wink.Rules()):
        assert type(rules).from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(("data", "message"), [
    ({"colour": 1}, "rules.colour: unknown key"),
    ({"count": True}, "rules.count: expected an integer"),
    ({"offsets": [1, "2"]}, "rules.offsets: expected a list of integers"),
    ({"sizes": {"three": 8}}, "rules.sizes: 'three' is not a number"),
    ({"sizes": {"3": 8.5}}, "rules.sizes.3: expected an integer"),
    ({"inner": {"on": 1}}, "rules.inner.on: expected true/false"),
    ({"inner": {"off": True}}, "rules.inner.off: unknown key"),
    ({"count": 0}, "rules.count: must be positive"),
    ([], "rules: expected a table"),
])
def test_a_bad_rule_is_named(data: object, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace(".", r"\.")):
        rules_from_dict(Toy, data)
