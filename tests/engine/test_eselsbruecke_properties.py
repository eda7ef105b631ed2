"""Random playouts of 驢橋 Eselsbrücke (hypothesis) checking the engine's invariants.

- every legal action is accepted; an event near the legal ones is accepted exactly when it is
  listed, and every rejection carries a code and a reason;
- picture tiles (180) and stop tiles (30) are conserved; score piles never go negative;
- the recall bookkeeping holds (held tiles == keywords not yet named; one guesser, a clock);
- the game always ends after its last round; the events replay (through JSON) to the state;
- ``Rules`` and every event round-trip through JSON.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import Event, Rejection
from engine.eselsbruecke import (
    COLOURS,
    DEMO_DECK,
    ENGINE,
    EVENTS,
    STOP,
    AnswerGiven,
    AnswerTimeUp,
    EndGame,
    EndReason,
    GuessRight,
    GuessWrong,
    Interpretations,
    NewGame,
    NextRound,
    Phase,
    Rules,
    State,
    StoryTold,
    TileEntered,
    TilesDealt,
    TileSeen,
    TileWithdrawn,
    apply,
    initial_state,
    is_over,
    legal_actions,
    winners,
)

MAX_STEPS = 5000
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")

interpretations = st.builds(
    Interpretations,
    last_keyword_on_turn=st.booleans(),
    failed_bank_leftover_face_up=st.booleans(),
    stop_tile_is_kept=st.booleans(),
    bridge_from_earliest_holder=st.booleans(),
    unnamed_tiles_return_to_bag=st.booleans(),
    listeners_join_after_any_failure=st.booleans(),
)
sides = st.sampled_from(["standard", "advanced"])


def on_boards(state: State) -> int:
    """Picture tiles still face down on the boards' slots (told, not yet dealt)."""
    dealt: set[tuple[int | None, int | None]] = {(r.teller, r.slot) for r in state.recalls}
    if state.phase is Phase.GUESS:
        dealt.add((state.teller, state.recall_slot))
    return sum(len(tiles) for i, s in enumerate(state.seats)
               for k, tiles in enumerate(s.slots) if (i, k) not in dealt)


def check_invariants(before: State, after: State) -> None:
    rules = after.rules
    assert after.now_ms >= before.now_ms
    if not after.seats:
        return
    pictures = sum(1 for s in after.seats for t in s.pile if t != STOP)
    total = (after.bag + len(after.laid) + on_boards(after) + sum(s.held for s in after.seats)
             + sum(len(s.face_up) for s in after.seats) + pictures + after.discarded)
    assert total == rules.picture_tiles, (total, after)
    assert after.bag >= 0
    assert after.stops_left + sum(after.stops) + after.discarded_stops == rules.stop_tiles
    assert all(s.score >= 0 and s.held >= 0 for s in after.seats)
    assert len(after.laid) <= after.to_draw
    if after.phase is Phase.GUESS:
        assert sum(s.held for s in after.seats) == after.unnamed > 0
        seat = after.to_act
        assert seat is not None and seat != after.teller
        assert not after.seats[seat].out and not after.seats[seat].listening
        assert (after.deadline_ms is None) == after.answered
        assert all(s.held <= 1 for i, s in enumerate(after.seats) if i != after.teller)
    else:
        assert after.to_act is None and after.deadline_ms is None
    if after.phase is Phase.OVER:
        assert after.outcome is not None
        assert after.outcome.winners == winners(after.scores, after.stops)
        if after.outcome.reason is EndReason.LAST_ROUND:
            assert after.round == after.rounds and after.turn == after.n_players
            told = sum(1 for d in after.draws if d > 0)
            assert all(len(s.slots) == told for s in after.seats)


def pick(rng: random.Random, actions: tuple[Event, ...]) -> Event:
    """A legal action: first a kind of event, then one of that kind (tile withdrawals rarely,
    so that stories get told)."""
    kinds: dict[type[Event], list[Event]] = {}
    for a in actions:
        kinds.setdefault(type(a), []).append(a)
    if TileWithdrawn in kinds and rng.random() < 0.8:
        del kinds[TileWithdrawn]
    return rng.choice(kinds[rng.choice(list(kinds))])


def mutate(rng: random.Random, state: State) -> Event:
    """A random event near the legal ones: often illegal, sometimes legal."""
    now = state.now_ms
    seat = rng.randrange(-1, 7)
    tile = rng.choice([*rng.sample(DEMO_DECK, 2), *state.laid, "", "#x", "?"])
    return rng.choice([
        TileSeen(at_ms=now, tile=tile),
        TileEntered(at_ms=now, tile=None),
        TileWithdrawn(at_ms=now, tile=tile),
        StoryTold(at_ms=now),
        TilesDealt(at_ms=now),
        AnswerGiven(at_ms=now, seat=seat),
        GuessRight(at_ms=now, seat=seat, holder=rng.randrange(-1, 7)),
        GuessWrong(at_ms=now, seat=seat),
        AnswerTimeUp(at_ms=now),
        NextRound(at_ms=now),
        StoryTold(at_ms=now - 1),
    ])


def playout(rng: random.Random, state: State) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for _ in range(MAX_STEPS):
        if is_over(state):
            break
        legal = legal_actions(state)
        assert legal, f"no legal action in phase {state.phase}"
        probe = mutate(rng, state)
        verdict = apply(state, probe)
        if isinstance(verdict, Rejection):
            assert verdict.code and verdict.reason
            assert probe not in legal, (probe, verdict)
        else:
            assert probe in legal, probe
        event = pick(rng, legal)
        if rng.random() < 0.5:  # time passes
            step = rng.choice([100, 2_000, 14_000, 20_000])
            at = event.at_ms + step
            if isinstance(event, AnswerTimeUp) or state.deadline_ms is None \
                    or at < state.deadline_ms:
                event = type(event).from_dict({**event.to_dict(), "at_ms": at})
        nxt = apply(state, event)
        assert isinstance(nxt, State), f"legal {event!r} rejected: {nxt}"
        check_invariants(state, nxt)
        events.append(event)
        state = nxt
    assert is_over(state), "the game did not end"
    return state, events


def new_game(rng: random.Random, n: int, side: str) -> NewGame:
    members = tuple(rng.choice([(nm,), (nm, nm + "2")]) for nm in NAMES[:n])
    return NewGame(at_ms=0, names=NAMES[:n], colours=tuple(COLOURS)[:n], side=side,
                   start_seat=rng.randrange(n), members=members)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(3, 6), side=sides, interp=interpretations)
def test_random_legal_playouts_of_whole_games(seed: int, n: int, side: str,
                                              interp: Interpretations) -> None:
    rng = random.Random(seed)
    rules = Rules(interpretations=interp)
    first = new_game(rng, n, side)
    state = apply(initial_state(rules), first)
    assert isinstance(state, State)
    final, events = playout(rng, state)
    assert final.outcome is not None and final.outcome.reason is EndReason.LAST_ROUND
    # the journal's way: rules and events through JSON, folded from the initial state
    rules2 = Rules.from_dict(json.loads(json.dumps(rules.to_dict())))
    assert rules2 == rules
    replayed = ENGINE.replay(rules2, [EVENTS.from_dict(json.loads(json.dumps(e.to_dict())))
                                      for e in [first, *events]])
    assert replayed == final


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(3, 6), side=sides,
       stop_at=st.integers(1, 200))
def test_end_game_at_any_moment_ends_with_the_piles_as_they_are(seed: int, n: int, side: str,
                                                                stop_at: int) -> None:
    rng = random.Random(seed)
    state = apply(initial_state(), new_game(rng, n, side))
    assert isinstance(state, State)
    for _ in range(stop_at):
        if is_over(state):
            return
        nxt = apply(state, pick(rng, legal_actions(state)))
        assert isinstance(nxt, State)
        state = nxt
    if is_over(state):  # the last step ended it: nothing left for the host to end
        return
    end = apply(state, EndGame(at_ms=state.now_ms))
    assert isinstance(end, State) and end.outcome is not None
    assert end.outcome.reason is EndReason.HOST_ENDED
    assert end.outcome.scores == state.scores
    again = apply(end, NextRound(at_ms=end.now_ms))
    assert isinstance(again, Rejection) and again.code == "game_over"


@settings(max_examples=60, deadline=None)
@given(draws=st.lists(st.integers(0, 6), min_size=1, max_size=8),
       pens=st.lists(st.integers(0, 4), max_size=8),
       interp=interpretations)
def test_rules_round_trip_through_json(draws: list[int], pens: list[int],
                                       interp: Interpretations) -> None:
    d = {"standard_draws": draws, "standard_penalties": pens,
         "interpretations": dataclasses_asdict(interp)}
    stories = sum(1 for x in draws if x > 0)
    defaults = Rules()
    too_many = defaults.max_players * (defaults.base_tiles + sum(draws)) > defaults.picture_tiles
    if stories == 0 or len(pens) != stories or too_many:
        try:
            Rules.from_dict(d)
        except ValueError as exc:
            assert "standard" in str(exc)
        else:
            raise AssertionError("a bad round table was accepted")
        return
    rules = Rules.from_dict(d)
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


def dataclasses_asdict(interp: Interpretations) -> dict[str, bool]:
    import dataclasses
    return dataclasses.asdict(interp)
