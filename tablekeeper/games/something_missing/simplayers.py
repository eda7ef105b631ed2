"""Simulated players and table for 什麼不見啦: what happens on the table, as proposed events.

The engine only observes; this module plays the table. :class:`SimTable` holds a ground truth
it generated from an injected ``random.Random`` -- the order of every player's face-down pile
and which item cards appear in which scene cards -- and a simple memory model of the players.
Given a state it *proposes* the next table action as an engine event (a policy, not a loop)::

    rng = random.Random(7)
    table = SimTable.generate(rng, n_players=5, variant=Variant.STANDARD)
    state = apply(initial_state(), table.new_game(at_ms=0))
    while not is_over(state):
        state = apply(state, table.propose(state))

Pieces a richer harness can use on their own: :meth:`SimTable.next_card` (what the camera
will see), :meth:`SimTable.buzz_presses` (who presses and how many microseconds after the
card appeared -- feed them to the real arbiter), :meth:`SimTable.decide_bet`,
:meth:`SimTable.check_outcome`. Every decision draws from the injected rng only, so a seed
replays the same game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.core import Event
from engine.something_missing import (
    COLOURS,
    Bet,
    BuzzWon,
    CardRevealed,
    CheckResult,
    CheckTimeUp,
    DeclineReplacement,
    DeclineSwap,
    HourglassTurned,
    NewGame,
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
    deal_counts,
    next_revealer,
)

#: Names for simulated players (Traditional Chinese, with a romanisation).
SIM_NAMES: tuple[str, ...] = ("阿明 A-Ming", "小華 Xiao-Hua", "美玲 Mei-Ling", "志強 Chih-Chiang",
                              "怡君 Yi-Chun", "家豪 Chia-Hao", "淑芬 Shu-Fen")


@dataclass(frozen=True)
class Memory:
    """How well the simulated players remember (probabilities, 0..1)."""

    #: a player who saw the item in a scene remembers it (and may buzz / bet right)
    recall: float = 0.55
    #: a player wrongly believes an absent item was in some scene
    false_memory: float = 0.06
    #: a non-buzzing player who remembers the right scene joins the bet
    join_bet: float = 0.7
    #: a non-buzzing player who does not remember bets anyway (a guess)
    guess_bet: float = 0.08
    #: bettors on a right scene find the item within the 30 s
    find: float = 0.9


@dataclass(frozen=True)
class SimTable:
    """Ground truth of one simulated table and the players' behaviour."""

    rng: random.Random
    names: tuple[str, ...]
    colours: tuple[str, ...]
    variant: Variant
    start_seat: int
    #: the scene ids drawn, by ring position at the start
    scenes: tuple[int, ...]
    #: each seat's face-down pile of item card ids, top card first
    piles: tuple[tuple[int, ...], ...]
    #: for each scene id (0..14), the item card ids that appear in it
    items_in_scene: tuple[frozenset[int], ...]
    memory: Memory = Memory()
    #: each check's outcome, decided once: (round, pile size, scene) -> (found, ms taken)
    checks: dict[tuple[int, int, int], tuple[bool | None, int]] = field(
        default_factory=dict, compare=False, repr=False)

    @classmethod
    def generate(cls, rng: random.Random, n_players: int, variant: Variant,
                 rules: Rules | None = None, memory: Memory | None = None,
                 items_per_scene: int = 14) -> SimTable:
        """Shuffle and deal a table: piles, scenes drawn, and what each scene shows."""
        rules = rules or Rules()
        if not rules.min_players <= n_players <= rules.max_players:
            raise ValueError(f"{n_players} players: 什麼不見啦 takes "
                             f"{rules.min_players}-{rules.max_players}")
        start = rng.randrange(n_players)
        deck = list(range(rules.item_cards))
        rng.shuffle(deck)
        counts = deal_counts(n_players, start, rules.item_cards)
        piles, i = [], 0
        for c in counts:
            piles.append(tuple(deck[i:i + c]))
            i += c
        items = tuple(frozenset(rng.sample(range(rules.item_cards), items_per_scene))
                      for _ in range(rules.scene_cards))
        scenes = tuple(rng.sample(range(rules.scene_cards), rules.scenes_for(variant)))
        return cls(rng=rng, names=SIM_NAMES[:n_players], colours=tuple(COLOURS)[:n_players],
                   variant=variant, start_seat=start, scenes=scenes, piles=tuple(piles),
                   items_in_scene=items, memory=memory or Memory())

    # --- what the table does ------------------------------------------------------------

    def new_game(self, at_ms: int = 0) -> NewGame:
        return NewGame(at_ms=at_ms, names=self.names, colours=self.colours,
                       variant=self.variant.value, start_seat=self.start_seat,
                       scenes=self.scenes, hand_sizes=tuple(len(p) for p in self.piles))

    def next_card(self, state: State) -> tuple[int, int]:
        """(seat, card) the camera will see next: the top of the revealer's pile."""
        seat = next_revealer(state)
        if seat is None:
            raise ValueError(f"nobody reveals in phase {state.phase.value}")
        done = state.dealt[seat] - state.players[seat].cards_left
        return seat, self.piles[seat][done]

    def present_in(self, state: State, card: int) -> tuple[int, ...]:
        """Scene positions in play that truly show ``card``."""
        return tuple(pos for pos, sid in enumerate(state.scenes)
                     if card in self.items_in_scene[sid])

    def believes(self, state: State, seat: int, card: int) -> int | None:
        """The scene position ``seat`` thinks shows ``card`` (None: no idea). Drawn afresh."""
        m = self.memory
        truth = self.present_in(state, card)
        if truth and self.rng.random() < m.recall:
            return self.rng.choice(truth)
        if self.rng.random() < m.false_memory:
            return self.rng.randrange(len(state.scenes))
        return None

    def buzz_presses(self, state: State) -> tuple[tuple[int, int], ...]:
        """Who presses the buzzer for the top card, with microseconds after it appeared."""
        card = state.top_card
        assert card is not None
        presses = []
        for seat in range(state.n_players):
            if self.believes(state, seat, card) is not None:
                presses.append((seat, self.rng.randint(250_000, 1_800_000)))
        return tuple(sorted(presses, key=lambda p: p[1]))

    def decide_bet(self, state: State, seat: int) -> int | None:
        """The scene position ``seat`` bets on, or None to pass (the buzz winner must bet)."""
        card = state.top_card
        assert card is not None and state.buzz is not None
        open_positions = [pos for pos in range(len(state.scenes))
                          if state.tokens_on(pos) < state.rules.memory_slots]
        belief = self.believes(state, seat, card)
        if seat == state.buzz.seat:
            if belief is None or belief not in open_positions:
                belief = self.rng.choice(open_positions)
            return belief
        if belief is not None and belief in open_positions:
            return belief if self.rng.random() < self.memory.join_bet else None
        if self.rng.random() < self.memory.guess_bet:
            return self.rng.choice(open_positions)
        return None

    def check_outcome(self, state: State) -> tuple[bool | None, int]:
        """(found, ms taken): found True/False is the host's entry; None means the 30 s ran
        out."""
        check, card = state.check, state.top_card
        assert check is not None and card is not None
        present = check.position in self.present_in(state, card)
        if present and self.rng.random() < self.memory.find:
            return True, self.rng.randint(2_000, 25_000)
        if self.rng.random() < 0.5:
            return None, state.rules.check_ms
        return False, self.rng.randint(8_000, 29_000)

    # --- the policy -----------------------------------------------------------------------

    def propose(self, state: State) -> Event:
        """The next thing that happens on the table, as an event for the engine."""
        now = state.now_ms
        rng = self.rng
        phase = state.phase
        if phase is Phase.SETUP:
            return self.new_game(now)
        if phase is Phase.VIEWING and state.deadline_ms is None:
            return ViewingStarted(at_ms=now + rng.randint(1_500, 4_000))  # "ready"
        if phase in (Phase.VIEWING, Phase.VIEW_REPLACEMENT):
            assert state.deadline_ms is not None
            return ViewingTimeUp(at_ms=state.deadline_ms)
        if phase is Phase.REVEAL:
            seat, card = self.next_card(state)
            return CardRevealed(at_ms=now + rng.randint(800, 2_500), card=card, seat=seat)
        if phase is Phase.BUZZ:
            presses = self.buzz_presses(state)
            if not presses:
                return NoBuzz(at_ms=now + rng.randint(2_000, 4_000))
            return arbitrate(presses, now, rng)
        if phase is Phase.BET:
            seat = _actor(state)
            pos = self.decide_bet(state, seat)
            at = now + rng.randint(500, 3_000)
            return Pass(at_ms=at, seat=seat) if pos is None else Bet(at_ms=at, seat=seat,
                                                                      position=pos)
        if phase is Phase.CHECK:
            check = state.check
            assert check is not None
            key = (state.round, len(state.pile), check.position)
            if key not in self.checks:
                self.checks[key] = self.check_outcome(state)
            found, took = self.checks[key]
            if check.deadline_ms is None:  # untimed until a player not betting turns it
                if found is None or took > 15_000:
                    return HourglassTurned(at_ms=now + rng.randint(3_000, 8_000))
                return CheckResult(at_ms=now + took, position=check.position, found=found)
            if found is None:
                return CheckTimeUp(at_ms=check.deadline_ms)
            took = min(took, check.deadline_ms - now - 1)
            return CheckResult(at_ms=now + took, position=check.position, found=found)
        if phase is Phase.SWAP:
            seat = _actor(state)
            if rng.random() < 0.5:
                a, b = rng.sample(state.turned_up, 2)
                return SwapScenes(at_ms=now + 2_000, seat=seat, a=a, b=b)
            return DeclineSwap(at_ms=now + 1_000, seat=seat)
        if phase is Phase.REPLACE:
            seat = _actor(state)
            free = [s for s in range(state.rules.scene_cards) if s not in state.used_scenes]
            if free and rng.random() < 0.7:
                return ReplaceScene(at_ms=now + 3_000, seat=seat,
                                    position=rng.randrange(len(state.scenes)),
                                    scene=rng.choice(free))
            return DeclineReplacement(at_ms=now + 1_000, seat=seat)
        raise ValueError(f"nothing happens on the table in phase {phase.value}")


def _actor(state: State) -> int:
    if state.to_act is None:
        raise ValueError(f"nobody's decision in phase {state.phase.value}")
    return state.to_act


def arbitrate(presses: Sequence[tuple[int, int]], card_at_ms: int,
              rng: random.Random) -> BuzzWon:
    """A stand-in for the firmware arbiter: the earliest press wins; an exact tie by lot."""
    first = min(us for _, us in presses)
    tied = [seat for seat, us in presses if us == first]
    later = sorted(us for _, us in presses if us > first)
    winner = rng.choice(tied)
    margin = 0 if len(tied) > 1 or not later else later[0] - first
    return BuzzWon(at_ms=card_at_ms + first // 1000 + 1, seat=winner, margin_us=margin,
                   tie=len(tied) > 1)


# --- play-by-play ------------------------------------------------------------------------


def describe(before: State, event: Event, after: State) -> str | None:
    """One line of play-by-play (Traditional Chinese and English) for notable events: scenes
    by their letters round the ring (A, B, ... as the screen shows them), the demo deck's
    items and scene cards by name."""
    from vision.demo_decks import ITEMS, SCENE_NAMES

    def name(seat: int) -> str:
        return after.players[seat].name

    def scene(position: int) -> str:
        return f"場景 {chr(ord('A') + position)}"

    def item(card: int | None) -> str:
        if card is None or not 0 <= card < len(ITEMS):
            return "a card 一張卡"
        zh, en = ITEMS[card]
        return f"{zh} {en}"

    def scene_card(card: int) -> str:
        zh, en = SCENE_NAMES[card] if 0 <= card < len(SCENE_NAMES) else ("?", f"#{card}")
        return f"{zh} {en}"

    if isinstance(event, NewGame):
        ring = ", ".join(f"{chr(ord('A') + i)} {scene_card(c)}" for i, c in enumerate(event.scenes))
        return (f"新遊戲 New game: {len(event.names)} players, {event.variant}, "
                f"scenes {ring}; start player {name(event.start_seat)}")
    if isinstance(event, CardRevealed) and after.revealer is not None:
        return f"第{after.round}回合 Round {after.round}: {name(after.revealer)} reveals " \
               f"{item(event.card)}"
    if isinstance(event, NoBuzz):
        return "  沒人搶 nobody buzzes"
    if isinstance(event, BuzzWon):
        tie = " (tie broken by lot 平手抽籤)" if event.tie else ""
        return f"  什麼不見啦! {name(event.seat)} takes the hourglass " \
               f"(+{event.margin_us / 1000:.0f} ms){tie}"
    if isinstance(event, Bet):
        slot = next(b.slot for b in after.bets if b.seat == event.seat)
        return f"  {name(event.seat)} bets on {scene(event.position)} (slot {slot})"
    if isinstance(event, CheckResult | CheckTimeUp) and before.check is not None:
        what = ("找到了 found" if isinstance(event, CheckResult) and event.found
                else "時間到 time up" if isinstance(event, CheckTimeUp) else "沒找到 not found")
        changes = [c for c in after.last_changes if c.position == before.check.position]
        deltas = ", ".join(f"{name(c.seat)} {c.delta:+d}" for c in changes)
        return f"  {scene(before.check.position)}: {what} -> {deltas}"
    if isinstance(event, HourglassTurned):
        return "  沙漏翻轉 the hourglass is turned: 30 s to find it"
    if isinstance(event, SwapScenes):
        return f"  {name(event.seat)} swaps {scene(event.a)} and {scene(event.b)}"
    if isinstance(event, ReplaceScene):
        return f"  {name(event.seat)} replaces {scene(event.position)} with " \
               f"{scene_card(event.scene)} (20 s to look)"
    return None
