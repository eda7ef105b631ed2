"""Random playouts of 致命遊戲 The Game (hypothesis) checking the engine's invariants.

- every legal action is accepted; a random event near the legal ones is accepted exactly when
  it is listed, and every rejection carries a code and a reason;
- the 98 cards are conserved (draw pile + hands + rows), each card played once;
- each row moves in its direction except exact 10-back steps (and house-rule plays);
- the minimum and the hand counts hold; the game always ends;
- the events replay (through their JSON form) to exactly the same state; Rules round-trip.
"""

from __future__ import annotations

import dataclasses
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_the_game_rules import new_game

from engine.core import Event, Rejection
from engine.the_game import (
    ENGINE,
    EVENTS,
    CannotPlay,
    CardEntered,
    CardPlayed,
    Direction,
    EndGame,
    HouseRulePlay,
    Interpretations,
    Phase,
    Rules,
    State,
    TurnEnded,
    apply,
    initial_state,
    is_over,
    legal_actions,
    why_illegal,
)

MAX_STEPS = 2000

interpretations = st.builds(
    Interpretations,
    empty_hand_ends_turn=st.booleans(),
    cannot_play_checked_in_dealt_games=st.booleans(),
    house_rule_plays_count=st.booleans(),
    host_end_is_judged=st.booleans(),
)


def check_invariants(before: State, after: State) -> None:
    rules = after.rules
    assert after.now_ms >= before.now_ms
    on_rows = [c for r in after.rows for c in r.cards]
    assert len(on_rows) == len(set(on_rows)) == len(after.played) == len(after.plays)
    assert set(on_rows) == after.played
    assert after.draw_count + sum(after.hand_counts) + len(after.played) == rules.n_cards
    assert all(c >= 0 for c in after.hand_counts) and after.draw_count >= 0
    assert all(c <= after.hand_size for c in after.hand_counts)
    if after.hands is not None and after.draw_pile is not None:
        assert tuple(len(h) for h in after.hands) == after.hand_counts
        assert len(after.draw_pile) == after.draw_count
        every = [c for h in after.hands for c in h] + list(after.draw_pile) + on_rows
        assert sorted(every) == list(rules.cards)
    for i, r in enumerate(after.rows):
        top = r.start
        plays = [p for p in after.plays if p.row == i]
        assert [p.card for p in plays] == list(r.cards)
        for p in plays:
            forward = p.card > top if r.direction is Direction.UP else p.card < top
            back = p.card == (top - 10 if r.direction is Direction.UP else top + 10)
            assert p.backward == back
            assert p.house_rule != (forward or back)
            top = p.card
    if after.phase is Phase.PLAY:
        assert after.to_act is not None
        if after.turn != before.turn:
            assert after.played_this_turn == 0
            assert after.hand_counts[after.to_act] > 0  # the empty-handed are skipped
            if after.draw_count > 0:  # drawn back up while the pile lasts
                assert before.to_act is not None
                assert after.hand_counts[before.to_act] == after.hand_size
    if after.phase is Phase.OVER:
        assert after.outcome is not None
        left = after.cards_left
        assert after.outcome.scores == (left,) * after.n_players
        if after.outcome.winners:
            assert after.outcome.winners == tuple(range(after.n_players)) and left < 10


def gap(state: State, ev: Event) -> int:
    assert isinstance(ev, CardPlayed | CardEntered)
    r = state.rows[ev.row]
    return -1 if r.is_backward(ev.card, 10) else abs(ev.card - r.top)


def pick(rng: random.Random, actions: tuple[Event, ...], house: float,
         state: State | None = None) -> Event:
    """A legal action: mostly a play within the rules, ending the turn now and then, a house
    rule rarely; "I cannot play" only when nothing else is left (or rarely). With ``state``:
    a sensible player (the smallest step first, and a house rule when stuck), so that games
    reach the empty draw pile, empty hands and the end of the cards."""
    kinds: dict[type[Event], list[Event]] = {}
    for a in actions:
        kinds.setdefault(type(a), []).append(a)
    plays = kinds.get(CardPlayed, []) + kinds.get(CardEntered, [])
    roll = rng.random()
    if state is not None:
        if plays and (TurnEnded not in kinds or min(gap(state, p) for p in plays) <= 3
                      or roll < 0.1):
            best = min(gap(state, p) for p in plays)
            return rng.choice([p for p in plays if gap(state, p) == best])
        if TurnEnded in kinds:
            return kinds[TurnEnded][0]
        if HouseRulePlay in kinds and roll < 0.97:
            return rng.choice(kinds[HouseRulePlay])
        return rng.choice(actions)
    if HouseRulePlay in kinds and roll < house:
        return rng.choice(kinds[HouseRulePlay])
    if TurnEnded in kinds and (roll < 0.4 or not plays):
        return kinds[TurnEnded][0]
    if plays and (roll < 0.99 or CannotPlay not in kinds):
        return rng.choice(plays)
    if CannotPlay in kinds:
        return kinds[CannotPlay][0]
    return rng.choice(actions)


def mutate(rng: random.Random, state: State) -> Event:
    """A random event near the legal ones: often illegal, sometimes legal."""
    now = state.now_ms
    seat = rng.choice([None, *range(-1, 6)])
    row, card = rng.randrange(-1, 5), rng.randrange(0, 102)
    s = rng.randrange(-1, 6)
    return rng.choice([
        CardPlayed(at_ms=now, row=row, card=card, seat=seat),
        CardEntered(at_ms=now, row=row, card=card, seat=seat),
        HouseRulePlay(at_ms=now, row=row, card=card, seat=seat),
        TurnEnded(at_ms=now, seat=s),
        CannotPlay(at_ms=now, seat=s),
        CardPlayed(at_ms=now - 1, row=row, card=card),
    ])


def normalise(state: State, ev: Event) -> Event:
    """A play without a seat is the player to act's."""
    if isinstance(ev, CardPlayed | CardEntered | HouseRulePlay) and ev.seat is None:
        return dataclasses.replace(ev, seat=state.to_act)
    return ev


def playout(rng: random.Random, state: State, house: float,
            sensible: bool = False) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for _ in range(MAX_STEPS):
        if is_over(state):
            break
        legal = legal_actions(state)
        assert legal, "no legal action"
        probe = mutate(rng, state)
        verdict = apply(state, probe)
        if isinstance(verdict, Rejection):
            assert verdict.code and verdict.reason
            assert normalise(state, probe) not in legal
        else:
            assert normalise(state, probe) in legal
        if (isinstance(probe, CardPlayed) and probe.seat is None
                and probe.at_ms == state.now_ms):
            reason = why_illegal(state, probe.row, probe.card)
            if state.players[state.to_act or 0].hand_count > 0:
                assert (reason is None) == (not isinstance(verdict, Rejection))
        event = pick(rng, legal, house, state if sensible else None)
        nxt = apply(state, event)
        assert isinstance(nxt, State), f"legal {event!r} rejected: {nxt}"
        check_invariants(state, nxt)
        events.append(event)
        state = nxt
    assert is_over(state), "the game did not end"
    return state, events


def deal(rng: random.Random, n: int, rules: Rules, variant: str) -> tuple[
        tuple[tuple[int, ...], ...], tuple[int, ...]]:
    cards = list(rules.cards)
    rng.shuffle(cards)
    size = rules.hand_size(n)
    hands = tuple(tuple(cards[size * s: size * s + size]) for s in range(n))
    return hands, tuple(cards[size * n:])


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(1, 5), expert=st.booleans(),
       interp=interpretations, house=st.sampled_from([0.0, 0.02, 0.2]))
def test_random_playouts_of_dealt_games(seed: int, n: int, expert: bool,
                                        interp: Interpretations, house: float) -> None:
    rng = random.Random(seed)
    rules = Rules(interpretations=interp)
    variant = "expert" if expert else "standard"
    hands, pile = deal(rng, n, rules, variant)
    first = new_game(n, variant, rng.randrange(n), hands=hands, draw_pile=pile)
    state = apply(initial_state(rules), first)
    assert isinstance(state, State)
    final, events = playout(rng, state, house)
    assert ENGINE.replay(rules, [EVENTS.from_dict(json.loads(json.dumps(e.to_dict())))
                                 for e in [first, *events]]) == final


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(1, 5), expert=st.booleans(),
       interp=interpretations)
def test_sensible_playouts_of_dealt_games_reach_the_end_of_the_cards(
        seed: int, n: int, expert: bool, interp: Interpretations) -> None:
    """A sensible player who uses a house rule when stuck: the draw pile runs out, hands run
    empty and are skipped, the game ends (often with all 98 played)."""
    rng = random.Random(seed)
    rules = Rules(interpretations=interp)
    variant = "expert" if expert else "standard"
    hands, pile = deal(rng, n, rules, variant)
    first = new_game(n, variant, rng.randrange(n), hands=hands, draw_pile=pile)
    state = apply(initial_state(rules), first)
    assert isinstance(state, State)
    final, events = playout(rng, state, 0.0, sensible=True)
    assert ENGINE.replay(rules, [EVENTS.from_dict(e.to_dict())
                                 for e in [first, *events]]) == final


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(1, 5), expert=st.booleans(),
       interp=interpretations, house=st.sampled_from([0.0, 0.02]),
       sensible=st.booleans())
def test_random_playouts_of_hidden_hands(seed: int, n: int, expert: bool,
                                         interp: Interpretations, house: float,
                                         sensible: bool) -> None:
    rng = random.Random(seed)
    rules = Rules(interpretations=interp)
    first = new_game(n, "expert" if expert else "standard", rng.randrange(n))
    state = apply(initial_state(rules), first)
    assert isinstance(state, State)
    final, events = playout(rng, state, house, sensible)
    assert ENGINE.replay(rules, [EVENTS.from_dict(e.to_dict())
                                 for e in [first, *events]]) == final


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(1, 5), steps=st.integers(0, 60))
def test_the_host_can_end_any_game(seed: int, n: int, steps: int) -> None:
    rng = random.Random(seed)
    state = apply(initial_state(), new_game(n))
    assert isinstance(state, State)
    for _ in range(steps):
        if is_over(state):
            return
        nxt = apply(state, pick(rng, legal_actions(state), 0.0))
        assert isinstance(nxt, State)
        state = nxt
    if is_over(state):  # the last step ended it: nothing left for the host to end
        return
    end = apply(state, EndGame(at_ms=state.now_ms))
    assert isinstance(end, State) and end.outcome is not None
    check_invariants(state, end)


@given(interp=interpretations,
       sizes=st.lists(st.integers(3, 8), min_size=5, max_size=5),
       minimum=st.integers(1, 3), empty=st.integers(1, 3))
def test_rules_round_trip_through_json(interp: Interpretations, sizes: list[int],
                                       minimum: int, empty: int) -> None:
    rules = Rules(hand_sizes=tuple(sizes), expert_hand_sizes=tuple(sizes), min_play=minimum,
                  min_play_expert=3, min_play_empty_pile=empty, interpretations=interp)
    assert rules.problems() == []
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
