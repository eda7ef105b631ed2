"""Three complete games of 什麼不見啦, written out event by event, every score change checked.

- 3 players, easy (4 scenes): ends when Ann reaches 20 points.
- 5 players, standard (5 scenes): short piles; ends when the third pile runs out, shared win.
- 7 players, advanced (6 scenes): a full memory card, a swap, scene replacements; piles end it.
"""

from __future__ import annotations

from sm_helpers import new_game, ok, rejected

from engine.core import Event
from engine.something_missing import (
    Bet,
    BuzzWon,
    CardRevealed,
    CheckResult,
    CheckTimeUp,
    DeclineReplacement,
    DeclineSwap,
    EndReason,
    HourglassTurned,
    NoBuzz,
    Pass,
    Phase,
    ReplaceScene,
    Rules,
    State,
    SwapScenes,
    ViewingStarted,
    ViewingTimeUp,
    initial_state,
    is_over,
)


class Table:
    """Plays events at a steadily advancing clock and checks what the engine says."""

    def __init__(self, n: int, variant: str, start_seat: int,
                 hand_sizes: tuple[int, ...] | None = None,
                 scenes: tuple[int, ...] | None = None) -> None:
        self.t = 0
        # short piles end a written-out game in a few rounds: a deal the seed would not make
        rules = Rules(max_deal_spread=66) if hand_sizes else None
        self.state = ok(initial_state(rules), new_game(n, variant, start_seat, scenes=scenes,
                                                  hand_sizes=hand_sizes))
        self.do(ViewingStarted(at_ms=self.t))  # the host's "ready"
        while self.state.phase is Phase.VIEWING:
            assert self.state.deadline_ms is not None
            self.t = self.state.deadline_ms
            self.do(ViewingTimeUp(at_ms=self.t))

    def tick(self, ms: int = 1000) -> int:
        self.t += ms
        return self.t

    def do(self, event: Event) -> State:
        self.state = ok(self.state, event)
        return self.state

    def reveal(self, seat: int, card: int) -> None:
        assert self.state.phase in (Phase.REVEAL, Phase.BUZZ)
        self.do(CardRevealed(at_ms=self.tick(), card=card, seat=seat))
        assert self.state.revealer == seat and self.state.top_card == card

    def buzz(self, seat: int) -> None:
        self.do(BuzzWon(at_ms=self.tick(700), seat=seat, margin_us=40_000, tie=False))

    def bets(self, *plan: tuple[int, int | None]) -> None:
        for seat, pos in plan:
            assert self.state.to_act == seat
            self.do(Pass(at_ms=self.tick(), seat=seat) if pos is None
                    else Bet(at_ms=self.tick(), seat=seat, position=pos))

    def check(self, pos: int, found: bool | None, deltas: dict[int, int]) -> None:
        """found None: the 30 s run out."""
        assert self.state.phase is Phase.CHECK and self.state.check is not None
        assert self.state.check.position == pos
        before = len(self.state.last_changes)
        if found is None:  # a player not betting turns the hourglass; it runs out
            self.do(HourglassTurned(at_ms=self.tick(2_000)))
            assert self.state.check is not None and self.state.check.deadline_ms == self.t + 30_000
            self.t = self.state.check.deadline_ms
            self.do(CheckTimeUp(at_ms=self.t))
        else:
            self.do(CheckResult(at_ms=self.tick(9_000), position=pos, found=found))
        got = {c.seat: c.delta for c in self.state.last_changes[before:]}
        assert got == deltas

    def at(self, phase: Phase, to_act: int | None) -> None:
        assert (self.state.phase, self.state.to_act) == (phase, to_act)

    def scores(self, *expected: int) -> None:
        assert self.state.scores == expected


def test_three_players_easy_to_twenty_points() -> None:
    g = Table(3, "easy", start_seat=0)  # Ann 0, Ben 1, Cat 2; Ann is the youngest
    # 4 scenes >= 3 players: 4 passes of 5 s, with 2 s between to hand the scenes on
    assert g.state.viewing_passes == 4 and g.t == 4 * 5_000 + 3 * 2_000
    # round 1: Ben buzzes alone and is right: N+1 = 4
    g.reveal(0, 10)
    g.buzz(1)
    rejected(g.state, Pass(at_ms=g.t, seat=1), "must_bet")
    g.bets((1, 2), (2, None), (0, None))
    g.check(2, True, {1: 4})
    g.scores(0, 4, 0)
    assert g.state.round == 2 and g.state.to_act == 2  # left of Ben
    # round 2: nobody buzzes on Cat's card; Ann reveals the next one and Cat buzzes
    g.reveal(2, 20)
    g.reveal(0, 21)  # the next reveal means nobody buzzed on 20
    g.buzz(2)
    g.bets((2, 0), (0, 0), (1, 1))
    assert [(b.seat, b.slot) for b in g.state.bets if b.position == 0] == [(2, 1), (0, 2)]
    g.check(0, True, {2: 3, 0: 2})  # most tokens first: slot 1 = N, slot 2 = N-1
    g.check(1, False, {1: -2})
    g.scores(2, 2, 3)
    # two scenes turned up: lowest (Ann, Ben tied at 2) nearest from taker Cat -> Ann
    assert g.state.phase is Phase.SWAP and g.state.to_act == 0
    scenes = g.state.scenes
    g.do(SwapScenes(at_ms=g.tick(), seat=0, a=0, b=1))
    assert g.state.scenes == (scenes[1], scenes[0], *scenes[2:])
    # round 3: everyone on scene 3, the hourglass runs out: -2 each, clamped at 0
    assert g.state.to_act == 0  # left of Cat
    g.reveal(0, 30)
    g.buzz(1)
    g.bets((1, 3), (2, 3), (0, 3))
    g.check(3, None, {1: -2, 2: -2, 0: -2})
    g.scores(0, 0, 1)
    # round 4..7: Ann's memory wakes up
    g.reveal(2, 31)
    g.buzz(0)
    g.bets((0, 1), (1, None), (2, None))
    g.check(1, True, {0: 4})
    g.scores(4, 0, 1)
    g.reveal(1, 32)
    g.buzz(0)
    g.bets((0, 2), (1, None), (2, None))
    g.check(2, True, {0: 4})
    g.reveal(1, 33)
    g.buzz(0)
    g.bets((0, 0), (1, None), (2, None))
    g.check(0, True, {0: 4})
    g.scores(12, 0, 1)
    g.reveal(1, 34)
    g.buzz(0)
    g.bets((0, 0), (1, 0), (2, None))
    g.check(0, True, {0: 3, 1: 2})
    g.scores(15, 2, 1)
    # round 8: one token on each of two scenes: the lower position is checked first
    g.reveal(1, 35)
    g.buzz(2)
    g.bets((2, 2), (0, 1), (1, None))
    g.check(1, True, {0: 4})
    g.check(2, True, {2: 4})
    g.scores(19, 2, 5)
    assert g.state.phase is Phase.SWAP and g.state.to_act == 1
    g.do(DeclineSwap(at_ms=g.tick(), seat=1))
    # round 9: Ann reaches 20 and wins
    assert g.state.to_act == 0 and g.state.round == 9
    g.reveal(0, 36)
    g.buzz(0)
    g.bets((0, 3), (1, None), (2, None))
    g.check(3, True, {0: 4})
    g.scores(23, 2, 5)
    assert is_over(g.state)
    assert g.state.outcome is not None
    assert g.state.outcome.reason is EndReason.SCORE_REACHED and g.state.outcome.winners == (0,)
    assert len(g.state.score_history) == 10  # the start and 9 scored rounds
    assert sum(p.cards_left for p in g.state.players) + len(g.state.pile) == 66


def test_five_players_standard_ends_on_three_empty_piles_with_a_shared_win() -> None:
    g = Table(5, "standard", start_seat=3, hand_sizes=(1, 1, 1, 31, 32))
    assert g.state.viewing_passes == 5 and g.state.to_act == 3  # Dan is the youngest
    # round 1: three on scene 4, one on scene 2 (Ben, already at 0: the -2 costs nothing)
    g.reveal(3, 0)
    g.buzz(4)
    g.bets((4, 4), (0, 4), (1, 2), (2, 4), (3, None))
    g.check(4, True, {4: 5, 0: 4, 2: 4})
    g.check(2, False, {1: 0})
    g.scores(4, 0, 4, 0, 5)
    # lowest: Ben and Dan at 0; nearest from taker Eve (4): 4, 0, 1 -> Ben
    assert g.state.phase is Phase.SWAP and g.state.to_act == 1
    g.do(SwapScenes(at_ms=g.tick(), seat=1, a=2, b=4))
    # round 2: left of Eve is Ann, whose only card goes; nobody buzzes; Ben's only card
    assert g.state.to_act == 0
    g.reveal(0, 1)
    g.do(NoBuzz(at_ms=g.tick(3_000)))
    assert g.state.to_act == 1 and g.state.empty_piles == 1
    g.reveal(1, 2)
    g.buzz(1)
    g.bets((1, 0), (2, 0), (3, 1), (4, 0), (0, None))
    g.check(0, True, {1: 5, 2: 4, 4: 4})
    g.check(1, None, {3: 0})
    g.scores(4, 5, 8, 0, 9)
    assert g.state.to_act == 3  # Dan, lowest, decides the swap
    g.do(DeclineSwap(at_ms=g.tick(), seat=3))
    # round 3: Cat's only card empties the third pile; the round is still played
    assert g.state.to_act == 2
    g.reveal(2, 3)
    assert g.state.empty_piles == 3 and not is_over(g.state)
    g.buzz(3)
    g.bets((3, 3), (4, 1), (0, 3), (1, None), (2, None))
    g.check(3, True, {3: 5, 0: 4})
    g.check(1, False, {4: -2})
    g.scores(8, 5, 8, 5, 7)
    assert is_over(g.state) and g.state.outcome is not None
    assert g.state.outcome.reason is EndReason.PILES_EMPTY
    assert g.state.outcome.winners == (0, 2)  # Ann and Cat share the win


def test_seven_players_advanced_with_replacements() -> None:
    g = Table(7, "advanced", start_seat=0, hand_sizes=(1, 1, 1, 15, 16, 16, 16),
              scenes=(0, 1, 2, 3, 4, 5))
    assert g.state.viewing_passes == 7  # 6 scenes < 7 players: 7 passes of 5 s
    assert g.t == 7 * 5_000 + 6 * 2_000
    # round 1: Ann's only card; six tokens fill scene 5's memory card
    g.reveal(0, 40)
    assert g.state.replacements_due == 1
    g.buzz(6)
    g.bets((6, 5), (0, 5), (1, 5), (2, 5), (3, 5), (4, 5))
    rejected(g.state, Bet(at_ms=g.t, seat=5, position=5), "memory_card_full")
    g.bets((5, 0))
    assert [b.slot for b in g.state.bets if b.position == 5] == [1, 2, 3, 4, 5, 6]
    g.check(5, True, {6: 7, 0: 6, 1: 6, 2: 5, 3: 4, 4: 4})
    g.check(0, True, {5: 8})  # alone on scene 0: N+1
    g.scores(6, 6, 5, 4, 4, 8, 7)
    # swap by the lowest (Dan and Eve at 4; from taker Gus: 6, 0, 1, 2, 3 -> Dan)
    g.at(Phase.SWAP, 3)
    g.do(SwapScenes(at_ms=g.tick(), seat=3, a=5, b=0))
    # then Ann's empty pile: the lowest when it ran out may replace a scene (everyone was at
    # 0 then: from the start player, Ann herself -- not Dan, lowest after the scoring)
    g.at(Phase.REPLACE, 0)
    rejected(g.state, ReplaceScene(at_ms=g.t, seat=0, position=2, scene=4), "scene_used")
    rejected(g.state, ReplaceScene(at_ms=g.t, seat=3, position=2, scene=9), "not_your_turn")
    g.do(ReplaceScene(at_ms=g.tick(), seat=0, position=2, scene=9))
    assert g.state.phase is Phase.VIEW_REPLACEMENT and g.state.deadline_ms == g.t + 20_000
    g.t += 20_000
    g.do(ViewingTimeUp(at_ms=g.t))
    assert g.state.scenes[2] == 9 and g.state.replacements_due == 0
    # round 2: left of Gus is Ann, whose pile is empty: Ben reveals his only card
    assert g.state.round == 2 and g.state.to_act == 1
    g.reveal(1, 41)
    g.do(NoBuzz(at_ms=g.tick(3_000)))
    g.at(Phase.REPLACE, 3)  # lowest when Ben's pile ran out: Dan and Eve, from taker Gus
    g.do(DeclineReplacement(at_ms=g.tick(), seat=3))
    # Cat's only card: the third empty pile; her lone wrong bet still counts
    g.reveal(2, 42)
    g.buzz(2)
    g.bets((2, 1), (3, None), (4, None), (5, None), (6, None), (0, None), (1, None))
    g.check(1, False, {2: -2})
    g.scores(6, 6, 3, 4, 4, 8, 7)
    assert is_over(g.state) and g.state.outcome is not None
    assert g.state.outcome.reason is EndReason.PILES_EMPTY
    assert g.state.outcome.winners == (5,)
    assert g.state.used_scenes == (0, 1, 2, 3, 4, 5, 9)
    assert g.state.scenes == (5, 1, 9, 3, 4, 0)
