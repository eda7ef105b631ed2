"""Random playouts of 眨眨眼 Wink (hypothesis) checking the engine's invariants.

- every legal action is accepted; an event near the legal ones is accepted exactly when it is
  listed, and every rejection carries a code and a reason;
- cards are conserved: 36 grid cards (face up + face down + taken into areas) and 36 hand
  cards (held + played into areas + left out at the deal); accusation cards never go below 0
  and unused + spent = 4 per player; scores are area cards + unused accusation cards;
- markers lie on distinct cells, on a face-up card (or on the emptied cell of a caught pair);
  the phase's bookkeeping (whose turn, the pending accusation) holds;
- the camera's observations never change the game;
- the game always ends; the events replay (through JSON) to exactly the same state.
"""

from __future__ import annotations

import dataclasses
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import Event, Rejection
from engine.wink import (
    COLOURS,
    ENGINE,
    EVENTS,
    AccusationByHand,
    AccusationEntered,
    AccusationWithdrawn,
    AccusationWon,
    CellFace,
    CellSeen,
    EndGame,
    GridEntered,
    GridSeen,
    Interpretations,
    MarkerPlaced,
    MarkerPlacedByHand,
    NewGame,
    NoPlacement,
    PartnerNamed,
    Phase,
    Rules,
    State,
    apply,
    initial_state,
    is_over,
    legal_actions,
    ranking,
)

MAX_STEPS = 3000
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")

interpretations = st.builds(
    Interpretations,
    caught_marker_stays=st.booleans(),
    accuser_may_be_in_pair=st.booleans(),
    accusation_resumes_turn=st.booleans(),
    withdrawn_accusation_spends_card=st.booleans(),
    reject_contradicted_answers=st.booleans(),
)


def check_invariants(before: State, after: State) -> None:
    rules = after.rules
    assert after.now_ms >= before.now_ms
    if not after.grid:
        return
    n = after.n_players
    faces = [c.face for c in after.grid]
    area = [a for p in after.players for a in p.area]
    grid_taken = sum(1 for a in area if a.origin.from_grid)
    assert faces.count(CellFace.EMPTY) == grid_taken
    assert faces.count(CellFace.UP) + faces.count(CellFace.DOWN) + grid_taken == rules.cells
    hand_played = len(area) - grid_taken
    assert sum(p.hand for p in after.players) + hand_played + after.removed == rules.cells
    assert grid_taken == hand_played  # every taken grid card went with its hand card
    assert sorted(a.number for a in area if a.origin.from_grid) == \
        sorted(a.number for a in area if not a.origin.from_grid)
    spent = sum(1 for a in after.accusations if a.card_spent)
    assert all(p.accusations >= 0 and p.hand >= 0 for p in after.players)
    assert sum(p.accusations for p in after.players) + spent == rules.accusation_cards * n
    assert after.scores == tuple(len(p.area) + p.accusations for p in after.players)
    markers = [p.marker for p in after.players if p.marker is not None]
    assert len(set(markers)) == len(markers)
    for m in markers:
        assert faces[m] is CellFace.UP or (
            faces[m] is CellFace.EMPTY and rules.interpretations.caught_marker_stays)
    if after.phase in (Phase.NAME, Phase.PLACE, Phase.ACCUSATION):
        assert after.active is not None and 0 <= after.active < n
    if after.phase is Phase.NAME:
        assert after.active is not None
        cell = after.players[after.active].marker
        assert cell is not None and faces[cell] is CellFace.UP
    if after.phase is Phase.PLACE:
        assert after.active is not None and after.players[after.active].marker is None
        assert after.free_cells()
    if after.phase is Phase.ACCUSATION:
        assert after.pending is not None and after.resume in (Phase.NAME, Phase.PLACE)
    else:
        assert after.pending is None and after.resume is None
    if after.phase is not Phase.OVER:
        assert after.face_up > 0 and after.empty_hands < rules.empty_hands_for(n)
    else:
        assert after.outcome is not None
        winners, by = ranking(after)
        assert after.outcome.winners == winners and after.tie_break is by
        assert after.outcome.scores == after.scores


def pick(rng: random.Random, actions: tuple[Event, ...]) -> Event:
    """A legal action: first a kind of event, then one of that kind."""
    kinds: dict[type[Event], list[Event]] = {}
    for a in actions:
        kinds.setdefault(type(a), []).append(a)
    return rng.choice(kinds[rng.choice(list(kinds))])


def mutate(rng: random.Random, state: State) -> Event:
    """A random event near the legal ones: often illegal, sometimes legal."""
    now = state.now_ms
    seat = rng.randrange(-1, 9)
    row, col = rng.randrange(-1, 7), rng.randrange(-1, 7)
    colour = rng.choice([*COLOURS, "pink"])
    return rng.choice([
        MarkerPlaced(at_ms=now, colour=colour, row=row, col=col),
        MarkerPlacedByHand(at_ms=now, seat=seat, row=row, col=col),
        NoPlacement(at_ms=now, seat=seat),
        PartnerNamed(at_ms=now, seat=seat, right=rng.random() < 0.5),
        AccusationWon(at_ms=now, seat=seat, margin_us=rng.choice([-1, 0, 50])),
        AccusationByHand(at_ms=now, seat=seat),
        AccusationEntered(at_ms=now, accused=seat, number=rng.randrange(0, 38),
                          right=rng.random() < 0.5),
        AccusationWithdrawn(at_ms=now),
        GridSeen(at_ms=now, numbers=tuple(range(1, 37))),
        NewGame(at_ms=now, names=NAMES[:3], colours=("red", "blue", "white")),
        PartnerNamed(at_ms=now - 1, seat=1, right=False),
    ])


def normalise(ev: Event) -> Event:
    if isinstance(ev, AccusationWon) and ev.margin_us >= 0:  # legal_actions lists margin 0
        return dataclasses.replace(ev, margin_us=0)
    return ev


def look(rng: random.Random, state: State) -> None:
    """A camera observation of a random cell: accepted, and it changes nothing but the
    confirmations."""
    ev = CellSeen(at_ms=state.now_ms, row=rng.randrange(6), col=rng.randrange(6),
                  face=rng.choice(["up", "down", "empty"]),
                  number=rng.choice([None, rng.randrange(1, 37)]),
                  marker=rng.choice([None, *COLOURS]))
    after = apply(state, ev)
    assert isinstance(after, State), after
    assert (after.phase, after.grid, after.players, after.active) == \
        (state.phase, state.grid, state.players, state.active)


def start(rng: random.Random, n: int, interp: Interpretations, short: bool) -> tuple[
        Rules, list[Event], State]:
    rules = Rules(interpretations=interp)
    extra = n in rules.extra_card_players and rng.random() < 0.5
    size = rng.randrange(1, 4) if short else None
    numbers = list(range(1, 37))
    rng.shuffle(numbers)
    grid_event = GridSeen if rng.random() < 0.5 else GridEntered
    events: list[Event] = [
        NewGame(at_ms=0, names=NAMES[:n], colours=tuple(rng.sample(list(COLOURS), n)),
                start_seat=rng.randrange(n), extra_card=extra and not short, hand_size=size),
        grid_event(at_ms=0, numbers=tuple(numbers)),
    ]
    state = initial_state(rules)
    for ev in events:
        nxt = apply(state, ev)
        assert isinstance(nxt, State), nxt
        state = nxt
    return rules, events, state


def playout(rng: random.Random, rules: Rules, events: list[Event], state: State,
            end_at: int | None = None) -> State:
    """Random legal actions to the end, probing a near-legal event at every step."""
    for step in range(MAX_STEPS):
        if is_over(state):
            break
        legal = legal_actions(state)
        assert legal, f"no legal action in phase {state.phase}"
        probe = mutate(rng, state)
        verdict = apply(state, probe)
        if isinstance(verdict, Rejection):
            assert verdict.code and verdict.reason
            assert normalise(probe) not in legal, f"listed {probe!r} rejected: {verdict}"
        else:
            assert normalise(probe) in legal, f"unlisted {probe!r} accepted"
        if rng.random() < 0.1:
            look(rng, state)
        event = EndGame(at_ms=state.now_ms) if step == end_at else pick(rng, legal)
        if rng.random() < 0.3:  # time passes
            event = dataclasses.replace(event, at_ms=event.at_ms + rng.randrange(1, 5000))
        nxt = apply(state, event)
        assert isinstance(nxt, State), f"legal {event!r} rejected: {nxt}"
        check_invariants(state, nxt)
        events.append(event)
        state = nxt
    assert is_over(state), "the game did not end"
    out = json.loads(json.dumps(ENGINE.summary(state)))
    assert out["outcome"]["scores"] == list(state.scores)
    # the journal's view: rules and events through JSON replay to the same state
    rules_back = Rules.from_dict(json.loads(json.dumps(rules.to_dict())))
    assert rules_back == rules
    back = [EVENTS.from_dict(json.loads(json.dumps(e.to_dict()))) for e in events]
    assert back == events
    assert ENGINE.replay(rules_back, back) == state
    return state


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(3, 8), interp=interpretations)
def test_random_legal_playouts_of_whole_games(seed: int, n: int,
                                              interp: Interpretations) -> None:
    rng = random.Random(seed)
    playout(rng, *start(rng, n, interp, short=False))


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(3, 8), interp=interpretations)
def test_random_legal_playouts_with_short_hands(seed: int, n: int,
                                                interp: Interpretations) -> None:
    """Hands of 1-3 cards: games end within a few turns, so many cover the end and ties."""
    rng = random.Random(seed)
    playout(rng, *start(rng, n, interp, short=True))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(3, 8), end_at=st.integers(0, 60))
def test_the_host_may_end_any_game_at_any_moment(seed: int, n: int, end_at: int) -> None:
    rng = random.Random(seed)
    state = playout(rng, *start(rng, n, Interpretations(), short=False), end_at=end_at)
    assert state.outcome is not None


@settings(max_examples=200, deadline=None)
@given(rules=st.builds(
    Rules, accusation_cards=st.integers(0, 6), empty_hands_end=st.integers(1, 3),
    empty_hands_end_large=st.integers(1, 3), interpretations=interpretations))
def test_rules_round_trip_through_json(rules: Rules) -> None:
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
