"""Simulated players of 眨眨眼: hidden hands dealt by the simulation, and what they do.

:class:`SimPlayers` holds the truth the box never sees -- who holds which number -- and
proposes the table's next act from a state: where the active player puts their marker (a free
face-up card whose number they do not hold), whom they name (their partner with probability
``find``, else a guess), and now and then an accusation (the accuser noticed a wink: right
with probability ``accuse_right``), sometimes by two players at once. Every choice draws from
the injected ``random.Random``, so a seed replays the same game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine import wink
from engine.core import Event, Rejection
from engine.wink import (
    AccusationEntered,
    MarkerPlacedByHand,
    NewGame,
    NoPlacement,
    PartnerNamed,
    Phase,
    State,
)

SIM_NAMES: tuple[str, ...] = ("阿明 A-Ming", "小華 Xiao-Hua", "美玲 Mei-Ling", "志強 Chih-Chiang",
                              "怡君 Yi-Chun", "家豪 Chia-Hao", "淑芬 Shu-Fen", "建宏 Chien-Hung")


@dataclass
class SimPlayers:
    rng: random.Random
    n: int
    grid: tuple[int, ...]  # the numbers as laid, row-major
    hands: list[set[int]] = field(default_factory=list)
    find: float = 0.7
    accuse_rate: float = 0.1  # per step, someone shouts 「我要抓！」
    accuse_right: float = 0.6
    double_rate: float = 0.35  # a second accuser presses within a millisecond

    @classmethod
    def deal(cls, rng: random.Random, n: int, hand_size: int | None = None) -> SimPlayers:
        rules = wink.Rules()
        size = hand_size or rules.hand_size_for(n)
        grid = tuple(rng.sample(range(1, rules.cells + 1), rules.cells))
        deck = rng.sample(range(1, rules.cells + 1), rules.cells)
        hands = [set(deck[i * size:(i + 1) * size]) for i in range(n)]
        return cls(rng, n, grid, hands)

    def new_game(self, at_ms: int) -> NewGame:
        return NewGame(at_ms=at_ms, names=SIM_NAMES[:self.n],
                       colours=tuple(wink.COLOURS)[:self.n], start_seat=0)

    def holder(self, number: int) -> int | None:
        return next((s for s, h in enumerate(self.hands) if number in h), None)

    def placement(self, state: State) -> Event:
        """Where the active player puts their marker (a number they do not hold)."""
        seat = state.active
        assert seat is not None
        free = [c for c in state.free_cells() if state.grid[c].number not in self.hands[seat]]
        if not free:
            return NoPlacement(at_ms=state.now_ms, seat=seat)
        cell = self.rng.choice(free)
        row, col = state.row_col(cell)
        return MarkerPlacedByHand(at_ms=state.now_ms, seat=seat, row=row, col=col)

    def naming(self, state: State) -> PartnerNamed:
        seat = state.active
        assert seat is not None
        marker = state.players[seat].marker
        assert marker is not None
        number = state.grid[marker].number
        holder = self.holder(number)
        if holder is not None and self.rng.random() < self.find:
            named = holder
        else:
            named = self.rng.choice([s for s in range(self.n) if s != seat])
        return PartnerNamed(at_ms=state.now_ms, seat=named, right=named == holder)

    def accusers(self, state: State) -> list[tuple[int, int]]:
        """Who shouts 「我要抓！」 now (seat, microseconds after the first): usually nobody."""
        if self.rng.random() >= self.accuse_rate:
            return []
        able = [s for s in range(self.n) if wink.may_accuse(state, s)]
        if not able:
            return []
        first = self.rng.choice(able)
        out = [(first, 0)]
        others = [s for s in able if s != first]
        if others and self.rng.random() < self.double_rate:
            out.append((self.rng.choice(others), self.rng.choice((50, 180, 420, 900))))
        return out

    def accusation(self, state: State) -> AccusationEntered:
        assert state.pending is not None
        accuser = state.pending.seat
        targets = wink.accusation_targets(state, accuser)
        numbers = sorted({n for _, n in targets})
        number = self.rng.choice(numbers)
        holder = self.holder(number)
        pair_ok = [a for a, n in targets if n == number]
        if holder in pair_ok and self.rng.random() < self.accuse_right:
            accused = holder
        else:
            accused = self.rng.choice(pair_ok)
        return AccusationEntered(at_ms=state.now_ms, accused=accused, number=number,
                                 right=accused == holder)

    def settle(self, event: Event) -> None:
        """The truth after an accepted accusation: a caught card leaves its hand."""
        if isinstance(event, AccusationEntered) and event.right:
            self.hands[event.accused].discard(event.number)

    def settle_named(self, state_before: State, event: PartnerNamed) -> None:
        """The truth after a naming: a partner found gives up their card."""
        if event.right and state_before.active is not None:
            marker = state_before.players[state_before.active].marker
            if marker is not None:
                self.hands[event.seat].discard(state_before.grid[marker].number)


def play(rng: random.Random, n: int) -> State:
    """A whole game on the engine alone (no table): the simulation's own check."""
    sim = SimPlayers.deal(rng, n)
    state = wink.apply(wink.initial_state(), sim.new_game(0))
    assert not isinstance(state, Rejection)
    state = _ok(wink.apply(state, wink.GridEntered(at_ms=0, numbers=sim.grid)))
    for _ in range(5000):
        if wink.is_over(state):
            return state
        if state.phase is Phase.ACCUSATION:
            ev: Event = sim.accusation(state)
        elif sim.accusers(state):
            able = [s for s in range(n) if wink.may_accuse(state, s)]
            ev = wink.AccusationByHand(at_ms=state.now_ms, seat=able[0])
        elif state.phase is Phase.NAME:
            ev = named = sim.naming(state)
            sim.settle_named(state, named)
        else:
            ev = sim.placement(state)
        state = _ok(wink.apply(state, ev))
        if isinstance(ev, AccusationEntered):
            sim.settle(ev)
    raise AssertionError("the simulated game did not end")


def _ok(result: State | Rejection) -> State:
    if isinstance(result, Rejection):
        raise AssertionError(result.reason)
    return result
