"""Simulated players of 致命遊戲 The Game: a bot that plays legally and sensibly, with no
table talk, for the demo and the bench.

The bot (:func:`choose`) sees only its own hand and the four rows. Each step it takes the
card and row with the smallest *cost*: the gap the card leaves on the row (``card - top`` on an
ascending row, ``top - card`` on a descending one), an exact 10-back costing ``-10``; a play
that lets another card of the same hand go exactly 10 back right after is cheaper by 5 (it
plays the pair). It must play the turn's minimum; beyond that it plays on only while the
cheapest play costs at most ``extra_gap`` (a 10-back always qualifies). Ties go to the lowest
row, then the lowest card: deterministic, so a seed replays the same game.

Two ways to play it:

- :func:`play_fast` plays a whole game on plain lists (no engine), for ``tablekeeper bench
  the-game``: thousands of games a second;
- :class:`SimTable` deals a game for the engine (``NewGame`` with the hands and the draw pile:
  a game the box's own simulation dealt, so the engine knows the hands) and proposes the next
  event for any state (:meth:`SimTable.propose`), for the demo and the tests. The tests check
  that both give the same cards left for the same deal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine import the_game as tg
from engine.core import Event, Rejection

#: The published simulations (RULES.md section 2): the share of games with fewer than 10 cards
#: left, for 1-5 players.
PUBLISHED_BEST_NO_TALK: tuple[int, ...] = (31, 65, 49, 63, 63)  # RobertWeinmeister
PUBLISHED_ANALYZER: tuple[int, ...] = (45, 75, 59, 73, 76)  # matthewdrees

#: a 10-back, and a pair the hand can play as one
BACKWARD_COST = -10
PAIR_BONUS = 5


@dataclass(frozen=True)
class Policy:
    """The bot's one knob: how large a gap it accepts for a card beyond the minimum."""

    extra_gap: int = 3


def _cost(up: bool, top: int, card: int, step: int) -> int | None:
    if up:
        if card > top:
            return card - top
        return BACKWARD_COST if card == top - step else None
    if card < top:
        return top - card
    return BACKWARD_COST if card == top + step else None


def choose(hand: Sequence[int], tops: Sequence[int], ups: Sequence[bool],
           step: int = 10) -> tuple[int, int, int] | None:
    """The bot's best play: (cost, row, card), or None when no card of ``hand`` may go on any
    row."""
    best: tuple[int, int, int] | None = None
    held = set(hand)
    for row, (top, up) in enumerate(zip(tops, ups, strict=True)):
        for card in sorted(hand):
            cost = _cost(up, top, card, step)
            if cost is None:
                continue
            if cost > 0 and (card - step if up else card + step) in held:
                cost -= PAIR_BONUS
            cand = (cost, row, card)
            if best is None or cand < best:
                best = cand
    return best


def wants(choice: tuple[int, int, int] | None, played: int, minimum: int,
          policy: Policy) -> bool:
    """Whether the bot plays ``choice`` now (it must below the minimum)."""
    if choice is None:
        return False
    return played < minimum or choice[0] <= policy.extra_gap


# --- the fast game (the bench) -------------------------------------------------------------


def play_fast(n_players: int, rng: random.Random, *, expert: bool = False,
              policy: Policy = Policy(), rules: tg.Rules | None = None) -> int:
    """One whole game by ``n_players`` bots on plain lists: the cards left at the end."""
    rules = rules or tg.Rules()
    deck = list(rules.cards)
    rng.shuffle(deck)
    variant = tg.Variant.EXPERT if expert else tg.Variant.STANDARD
    size = rules.hand_size(n_players, variant)
    hands = [sorted(deck[i * size:(i + 1) * size]) for i in range(n_players)]
    pile = deck[n_players * size:]
    return play_dealt(hands, pile, expert=expert, policy=policy, rules=rules)


def play_dealt(hands: Sequence[Sequence[int]], pile: Sequence[int], *, expert: bool = False,
               start_seat: int = 0, policy: Policy = Policy(),
               rules: tg.Rules | None = None) -> int:
    """A game from a given deal (the draw pile from its top card down): the cards left."""
    rules = rules or tg.Rules()
    variant = tg.Variant.EXPERT if expert else tg.Variant.STANDARD
    n = len(hands)
    size = rules.hand_size(n, variant)
    ups = [d == "up" for d in rules.row_directions]
    tops = [rules.ascending_start if up else rules.descending_start for up in ups]
    hs = [list(h) for h in hands]
    draw = list(pile)
    step = rules.backward_step
    seat = start_seat
    while True:
        hand = hs[seat]
        minimum = rules.minimum(variant, not draw)
        played = 0
        while hand:
            c = choose(hand, tops, ups, step)
            if not wants(c, played, minimum, policy):
                break
            assert c is not None
            _, row, card = c
            tops[row] = card
            hand.remove(card)
            played += 1
        if played < minimum and hand:
            return len(draw) + sum(len(h) for h in hs)  # cannot play the minimum
        if not draw and not any(hs):
            return 0
        want = size - len(hand)
        hand.extend(draw[:want])
        del draw[:want]
        hand.sort()
        nxt = next(((seat + k) % n for k in range(1, n + 1) if hs[(seat + k) % n]), None)
        if nxt is None:
            return 0
        seat = nxt


@dataclass(frozen=True)
class BenchRow:
    players: int
    games: int
    below_10: int
    zero: int

    @property
    def below_10_pct(self) -> float:
        return 100.0 * self.below_10 / max(self.games, 1)

    @property
    def zero_pct(self) -> float:
        return 100.0 * self.zero / max(self.games, 1)


def bench(games: int, seed: int = 1, *, expert: bool = False,
          policy: Policy = Policy(), players: Sequence[int] = (1, 2, 3, 4, 5)
          ) -> list[BenchRow]:
    """``games`` fast games per player count: how many ended with fewer than 10 / 0 left."""
    out = []
    for n in players:
        rng = random.Random(seed * 1000 + n)
        below = zero = 0
        for _ in range(games):
            left = play_fast(n, rng, expert=expert, policy=policy)
            below += left < 10
            zero += left == 0
        out.append(BenchRow(n, games, below, zero))
    return out


# --- the engine's game (the demo, the tests) -----------------------------------------------


@dataclass(frozen=True)
class SimTable:
    """A dealt table of bots: the deal (for ``NewGame``) and the bots' policy."""

    names: tuple[str, ...]
    colours: tuple[str, ...]
    variant: str
    hands: tuple[tuple[int, ...], ...]
    draw_pile: tuple[int, ...]
    start_seat: int = 0
    policy: Policy = Policy()

    @classmethod
    def generate(cls, rng: random.Random, players: int, variant: str = "standard",
                 rules: tg.Rules | None = None) -> SimTable:
        rules = rules or tg.Rules()
        deck = list(rules.cards)
        rng.shuffle(deck)
        size = rules.hand_size(players, tg.Variant(variant))
        hands = tuple(tuple(sorted(deck[i * size:(i + 1) * size])) for i in range(players))
        names = ("小明", "阿美", "Alice", "志明", "春嬌")[:players]
        return cls(names=names, colours=tuple(tg.COLOURS)[:players], variant=variant,
                   hands=hands, draw_pile=tuple(deck[players * size:]),
                   start_seat=rng.randrange(players))

    def new_game(self, at_ms: int = 0) -> tg.NewGame:
        return tg.NewGame(at_ms=at_ms, names=self.names, colours=self.colours,
                          variant=self.variant, start_seat=self.start_seat, hands=self.hands,
                          draw_pile=self.draw_pile)

    def choice(self, state: tg.State) -> tuple[int, int, int] | None:
        """The acting bot's best play in ``state`` (None: no card may go anywhere)."""
        seat = state.to_act
        if seat is None or state.hands is None:
            return None
        ups = [r.direction is tg.Direction.UP for r in state.rows]
        return choose(state.hands[seat], state.tops, ups, state.rules.backward_step)

    def propose(self, state: tg.State) -> Event:
        """The next event the table makes in ``state`` (PLAY only): a card on a row, the
        turn's end (a short press), or "I cannot play" (a long press the host confirmed)."""
        seat = state.to_act
        assert state.phase is tg.Phase.PLAY and seat is not None
        at = state.now_ms
        c = self.choice(state)
        if wants(c, state.played_this_turn, state.min_to_play, self.policy):
            assert c is not None
            return tg.CardPlayed(at_ms=at, row=c[1], card=c[2])
        if state.minimum_met:
            return tg.TurnEnded(at_ms=at, seat=seat)
        return tg.CannotPlay(at_ms=at, seat=seat)


def play_engine(table: SimTable, rules: tg.Rules | None = None,
                step_ms: int = 1_000) -> tg.State:
    """Play ``table`` through the engine to its end (a test's and the text demo's game)."""
    state = tg.initial_state(rules)
    result = tg.apply(state, table.new_game(0))
    assert not isinstance(result, Rejection), result
    state = result
    while not tg.is_over(state):
        ev = table.propose(state)
        ev = type(ev)(**{**ev.__dict__, "at_ms": state.now_ms + step_ms})
        result = tg.apply(state, ev)
        if isinstance(result, Rejection):
            raise AssertionError(f"the engine refused the bot's {ev}: {result}")
        state = result
    return state


def describe(before: tg.State, event: Event, after: tg.State) -> str | None:
    """One play-by-play line (the text demo)."""
    if isinstance(event, tg.CardPlayed | tg.CardEntered | tg.HouseRulePlay):
        seat = before.to_act
        name = before.players[seat].name if seat is not None else "?"
        play = after.plays[-1]
        back = "  (10 back!)" if play.backward else ""
        return (f"  turn {before.turn:>2} {name:<6} {event.card:>2} on "
                f"{before.rows[event.row].label:<4}{back}")
    if isinstance(event, tg.TurnEnded):
        return (f"  turn {before.turn:>2} ends; draw pile {after.draw_count}, "
                f"cards left {after.cards_left}")
    if isinstance(event, tg.CannotPlay):
        return f"  {before.players[event.seat].name} cannot play: the game ends"
    return None
