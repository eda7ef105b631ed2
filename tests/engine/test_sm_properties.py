"""Random playouts of 什麼不見啦 (hypothesis) checking the engine's invariants.

- every legal action is accepted; an event outside ``legal_actions`` is rejected, and every
  rejection carries a code and a reason;
- scores never go below 0; the 66 item cards are conserved (piles + central pile);
- time never runs backwards; the phases' bookkeeping (whose turn, deadlines, slots) holds;
- the game always ends; the journal replays to exactly the same state.
"""

from __future__ import annotations

import dataclasses
import random
import tempfile
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sm_helpers import new_game

from engine.core import Event, Rejection
from engine.something_missing import (
    Bet,
    BuzzWon,
    CardRevealed,
    CardTurnedByHand,
    CheckResult,
    CheckTimeUp,
    DeclineSwap,
    EndGame,
    HourglassTurned,
    Interpretations,
    NoBuzz,
    Pass,
    Phase,
    ReplaceScene,
    Rules,
    State,
    SwapScenes,
    Variant,
    ViewingStarted,
    ViewingTimeUp,
    apply,
    initial_state,
    is_over,
    legal_actions,
    next_revealer,
)
from tablekeeper.games.something_missing.simplayers import Memory, SimTable
from tablekeeper.journal import JournaledGame, replay

MAX_STEPS = 6000

#: every switch, on and off (a switch added later is played at once)
interpretations = st.builds(
    Interpretations, **{f.name: st.booleans() for f in dataclasses.fields(Interpretations)})
variants = st.sampled_from([v.value for v in Variant])


def check_invariants(before: State, after: State) -> None:
    rules = after.rules
    assert after.now_ms >= before.now_ms
    assert all(p.score >= rules.min_score for p in after.players)
    assert all(p.cards_left >= 0 for p in after.players)
    named = [c for c in after.pile if c is not None]  # (None: turned over, nobody named it)
    assert len(set(named)) == len(named)
    if after.players:
        assert sum(p.cards_left for p in after.players) + len(after.pile) == rules.item_cards
        assert all(len(row) == after.n_players for row in after.score_history)
        assert after.score_history[-1] == after.scores or after.phase is not Phase.REVEAL \
            or after.round == 1 or after.pile  # rows are written at each round's scoring
    if after.phase in (Phase.REVEAL, Phase.BET, Phase.SWAP, Phase.REPLACE):
        assert after.to_act is not None and 0 <= after.to_act < after.n_players
    if after.phase is Phase.REVEAL:
        assert after.to_act is not None and after.players[after.to_act].cards_left > 0
    inter = rules.interpretations
    if after.phase is Phase.VIEW_REPLACEMENT or (
            after.phase is Phase.CHECK and not inter.check_timer_on_press) or (
            after.phase is Phase.VIEWING and (after.viewing_pass > 0
                                              or not inter.viewing_starts_on_ready)):
        assert after.deadline_ms is not None and after.deadline_ms >= after.now_ms
    elif after.phase is Phase.VIEWING:  # the first pass waits for the host's "ready"
        assert after.deadline_ms is None or after.deadline_ms >= after.now_ms
    elif after.phase is Phase.CHECK:  # untimed until the hourglass is turned
        assert after.check is not None and after.deadline_ms == after.check.deadline_ms
        assert after.deadline_ms is None or after.deadline_ms >= after.now_ms
    else:
        assert after.deadline_ms is None
    for pos in range(len(after.scenes)):
        slots = [b.slot for b in after.bets if b.position == pos]
        assert slots == list(range(1, len(slots) + 1)) and len(slots) <= rules.memory_slots
    assert len({b.seat for b in after.bets}) == len(after.bets)  # one bet per player
    assert len(set(after.scenes)) == len(after.scenes)
    if after.phase is Phase.OVER:
        assert after.outcome is not None
        top = max(after.scores)
        assert after.outcome.winners == tuple(i for i, s in enumerate(after.scores) if s == top)


def pick(rng: random.Random, actions: tuple[Event, ...]) -> Event:
    """A legal action: first a kind of event, then one of that kind."""
    kinds: dict[type[Event], list[Event]] = {}
    for a in actions:
        kinds.setdefault(type(a), []).append(a)
    return rng.choice(kinds[rng.choice(list(kinds))])


def mutate(rng: random.Random, state: State) -> Event:
    """A random event near the legal ones: often illegal, sometimes legal."""
    now = state.now_ms
    seat = rng.randrange(-1, 8)
    pos = rng.randrange(-1, 7)
    return rng.choice([
        CardRevealed(at_ms=now, card=rng.randrange(-1, 67), seat=rng.choice([None, seat])),
        CardTurnedByHand(at_ms=now, seat=rng.choice([None, seat])),
        BuzzWon(at_ms=now, seat=seat, margin_us=rng.choice([-1, 0, 500]), tie=False),
        NoBuzz(at_ms=now),
        Bet(at_ms=now, seat=seat, position=pos),
        Pass(at_ms=now, seat=seat),
        CheckResult(at_ms=now, position=pos, found=rng.random() < 0.5),
        CheckTimeUp(at_ms=now),
        HourglassTurned(at_ms=now),
        ViewingStarted(at_ms=now),
        ViewingTimeUp(at_ms=now),
        SwapScenes(at_ms=now, seat=seat, a=pos, b=rng.randrange(-1, 7)),
        DeclineSwap(at_ms=now, seat=seat),
        ReplaceScene(at_ms=now, seat=seat, position=pos, scene=rng.randrange(-1, 16)),
        NoBuzz(at_ms=now - 1),
    ])


def normalise(state: State, ev: Event) -> Event:
    """A reveal without a seat means the seat whose turn it is."""
    if isinstance(ev, CardRevealed | CardTurnedByHand) and ev.seat is None:
        return dataclasses.replace(ev, seat=next_revealer(state))
    if isinstance(ev, BuzzWon) and ev.margin_us >= 0:  # legal_actions lists margin 0 only
        return dataclasses.replace(ev, margin_us=0)
    return ev


def playout(rng: random.Random, state: State) -> State:
    """Random legal actions to the end, probing a near-legal event at every step."""
    for _ in range(MAX_STEPS):
        if is_over(state):
            break
        legal = legal_actions(state)
        assert legal, f"no legal action in phase {state.phase}"
        # an event near the legal ones is accepted exactly when it is legal
        probe = mutate(rng, state)
        verdict = apply(state, probe)
        if isinstance(verdict, Rejection):
            assert verdict.code and verdict.reason
            assert normalise(state, probe) not in legal
        else:
            assert normalise(state, probe) in legal
        event = pick(rng, legal)
        nxt = apply(state, event)
        assert isinstance(nxt, State), f"legal {event!r} rejected: {nxt}"
        check_invariants(state, nxt)
        state = nxt
    assert is_over(state), "the game did not end"
    return state


def start(rng: random.Random, n: int, variant: str, interp: Interpretations,
          hand_sizes: tuple[int, ...] | None = None) -> State:
    rules = Rules(interpretations=interp, max_deal_spread=66)  # short piles: quick ends
    first = new_game(n, variant, start_seat=rng.randrange(n), hand_sizes=hand_sizes,
                     scenes=tuple(rng.sample(range(15), rules.scenes_for(Variant(variant)))))
    state = apply(initial_state(rules), first)
    assert isinstance(state, State)
    return state


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(3, 7), variant=variants,
       interp=interpretations)
def test_random_legal_playouts_of_whole_games(seed: int, n: int, variant: str,
                                              interp: Interpretations) -> None:
    rng = random.Random(seed)
    playout(rng, start(rng, n, variant, interp))


@settings(max_examples=800, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(3, 7), variant=variants,
       interp=interpretations, short=st.lists(st.integers(0, 3), min_size=3, max_size=3))
@pytest.mark.slow
def test_random_legal_playouts_with_short_piles(seed: int, n: int, variant: str,
                                                interp: Interpretations,
                                                short: list[int]) -> None:
    """Games dealt so that a few piles are tiny: they end within a few rounds, so many of
    them cover the end game, ties and replacements."""
    rng = random.Random(seed)
    k = Rules().empty_piles_for(n)
    sizes = [0] * n
    seats = rng.sample(range(n), k)
    for seat, size in zip(seats, short, strict=False):
        sizes[seat] = size
    rest = [s for s in range(n) if s not in seats]
    left = 66 - sum(sizes)
    for i, seat in enumerate(rest):
        sizes[seat] = left // len(rest) + (1 if i < left % len(rest) else 0)
    playout(rng, start(rng, n, variant, interp, hand_sizes=tuple(sizes)))


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(3, 7), variant=variants,
       recall=st.floats(0.0, 1.0), find=st.floats(0.0, 1.0))
def test_simulated_tables_always_finish(seed: int, n: int, variant: str, recall: float,
                                        find: float) -> None:
    table = SimTable.generate(random.Random(seed), n, Variant(variant),
                              memory=Memory(recall=recall, find=find))
    state = initial_state()
    for _ in range(MAX_STEPS):
        if is_over(state):
            break
        event = table.propose(state)
        nxt = apply(state, event)
        assert isinstance(nxt, State), f"{event!r} rejected: {nxt}"
        check_invariants(state, nxt)
        state = nxt
    assert is_over(state)
    assert state.outcome is not None


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(3, 7), variant=variants,
       undo_at=st.sets(st.integers(3, 150), max_size=3), end_at=st.integers(20, 400))
def test_journal_replays_exactly(seed: int, n: int, variant: str, undo_at: set[int],
                                 end_at: int) -> None:
    table = SimTable.generate(random.Random(seed), n, Variant(variant))
    with tempfile.TemporaryDirectory() as tmp, mock.patch("os.fsync"):
        path = Path(tmp) / "game.jsonl"
        game = JournaledGame.create(path)
        steps = 0
        while not is_over(game.state) and steps < MAX_STEPS:
            steps += 1
            if steps in undo_at:
                game.undo()
                continue
            if steps == end_at:
                game.submit(EndGame(at_ms=game.state.now_ms))
                continue
            result = game.submit(table.propose(game.state))
            assert isinstance(result, State), result
        assert is_over(game.state)
        assert replay(path) == game.state
