"""One test per rule of a 什麼不見啦 round: reveal, buzz, bet, check, score, reset, end."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import pytest
from sm_helpers import new_game, ok, rejected, started

from engine.core import Event, Rejection, Source
from engine.something_missing import (
    EVENTS,
    Bet,
    BuzzWon,
    CardRevealed,
    CardTurnedByHand,
    ChangeReason,
    CheckResult,
    CheckTimeUp,
    DeclineReplacement,
    DeclineSwap,
    EndGame,
    EndReason,
    HourglassTurned,
    Interpretations,
    NewGame,
    NoBuzz,
    Pass,
    Phase,
    ReplaceScene,
    Rules,
    State,
    SwapScenes,
    ViewingStarted,
    ViewingTimeUp,
    apply,
    initial_state,
    is_over,
    legal_actions,
    next_deadline,
    next_revealer,
    outcome,
)


def with_scores(state: State, *scores: int) -> State:
    players = tuple(dataclasses.replace(p, score=s)
                    for p, s in zip(state.players, scores, strict=True))
    return dataclasses.replace(state, players=players)


def with_cards(state: State, *cards: int) -> State:
    players = tuple(dataclasses.replace(p, cards_left=c)
                    for p, c in zip(state.players, cards, strict=True))
    return dataclasses.replace(state, players=players)


def to_bet(state: State, card: int = 0, buzzer: int = 1) -> State:
    seat = state.to_act
    t = state.now_ms
    return ok(state, CardRevealed(at_ms=t + 100, card=card, seat=seat),
              BuzzWon(at_ms=t + 600, seat=buzzer, margin_us=1200, tie=False))


# --- reveal ------------------------------------------------------------------------------

def test_reveal_puts_the_card_on_top_and_takes_it_from_the_pile() -> None:
    state = started(4)
    before = state.players[0].cards_left
    state = ok(state, CardRevealed(at_ms=10_000_000, card=42, seat=0))
    assert state.phase is Phase.BUZZ and state.top_card == 42 and state.revealer == 0
    assert state.players[0].cards_left == before - 1


def test_reveal_by_the_wrong_player_or_a_seen_card_is_rejected() -> None:
    state = started(4)
    rejected(state, CardRevealed(at_ms=state.now_ms, card=1, seat=2), "not_your_turn")
    rejected(state, CardRevealed(at_ms=state.now_ms, card=66, seat=0), "bad_card")
    state = ok(state, CardRevealed(at_ms=state.now_ms, card=1), NoBuzz(at_ms=state.now_ms))
    rejected(state, CardRevealed(at_ms=state.now_ms, card=1), "card_already_revealed")


def test_a_card_nobody_named_plays_as_any_card() -> None:
    # The host says a card is up that the camera did not recognise: it takes the turn and
    # the revealer's card like any other, and it may come again (nobody knows which it was).
    state = started(4)
    before = state.players[0].cards_left
    state = ok(state, CardTurnedByHand(at_ms=state.now_ms, seat=0))
    assert state.phase is Phase.BUZZ and state.revealer == 0 and state.pile == (None,)
    assert state.top_card is None and state.players[0].cards_left == before - 1
    rejected(state, CardTurnedByHand(at_ms=state.now_ms, seat=3), "not_your_turn")
    assert CardTurnedByHand.source is Source.HOST  # (the host's to undo)
    state = ok(state, CardTurnedByHand(at_ms=state.now_ms), NoBuzz(at_ms=state.now_ms))
    assert state.phase is Phase.REVEAL and state.pile == (None, None)
    state = ok(state, CardRevealed(at_ms=state.now_ms, card=5))
    assert state.top_card == 5 and state.pile == (None, None, 5)
    rejected(state, CardRevealed(at_ms=state.now_ms, card=5), "card_already_revealed")


def test_nobody_buzzes_the_next_player_reveals() -> None:
    state = started(4, start_seat=2)
    state = ok(state, CardRevealed(at_ms=state.now_ms, card=1), NoBuzz(at_ms=state.now_ms))
    assert state.phase is Phase.REVEAL and state.to_act == 3 and state.round == 1
    assert state.pile == (1,)


def test_next_reveal_implies_no_buzz_by_default() -> None:
    state = started(4, start_seat=3)
    state = ok(state, CardRevealed(at_ms=state.now_ms, card=1))
    assert next_revealer(state) == 0
    state = ok(state, CardRevealed(at_ms=state.now_ms, card=2))
    assert state.phase is Phase.BUZZ and state.revealer == 0 and state.pile == (1, 2)


def test_implied_no_buzz_can_be_switched_off() -> None:
    rules = Rules(interpretations=Interpretations(reveal_implies_no_buzz=False))
    state = started(4, rules=rules)
    state = ok(state, CardRevealed(at_ms=state.now_ms, card=1))
    rejected(state, CardRevealed(at_ms=state.now_ms, card=2), "wrong_phase")


def test_empty_piles_are_skipped_in_the_reveal_order() -> None:
    state = with_cards(started(5, start_seat=0), 5, 0, 0, 5, 5)
    state = ok(state, CardRevealed(at_ms=state.now_ms, card=1), NoBuzz(at_ms=state.now_ms))
    assert state.to_act == 3


def test_first_revealer_skips_an_empty_start_pile() -> None:
    state = ok(initial_state(Rules(max_deal_spread=66)),
               new_game(3, "easy", start_seat=1, hand_sizes=(33, 0, 33)),
               ViewingStarted(at_ms=0))
    while state.phase is Phase.VIEWING:
        assert state.deadline_ms is not None
        state = ok(state, ViewingTimeUp(at_ms=state.deadline_ms))
    assert state.to_act == 2


def test_next_round_starts_left_of_the_hourglass_taker() -> None:
    state = to_bet(started(4, start_seat=0), buzzer=2)
    state = ok(state, Bet(at_ms=state.now_ms, seat=2, position=0), Pass(at_ms=state.now_ms, seat=3),
               Pass(at_ms=state.now_ms, seat=0), Pass(at_ms=state.now_ms, seat=1),
               CheckResult(at_ms=state.now_ms, position=0, found=True))
    assert state.round == 2 and state.phase is Phase.REVEAL and state.to_act == 3
    assert state.last_taker == 2


def test_next_round_starts_left_of_the_taker_skipping_empty_piles() -> None:
    state = with_cards(to_bet(started(4, start_seat=0), buzzer=2), 5, 5, 5, 0)
    state = ok(state, Bet(at_ms=state.now_ms, seat=2, position=0), Pass(at_ms=state.now_ms, seat=3),
               Pass(at_ms=state.now_ms, seat=0), Pass(at_ms=state.now_ms, seat=1),
               CheckResult(at_ms=state.now_ms, position=0, found=True))
    assert state.to_act == 0


# --- buzz --------------------------------------------------------------------------------

def test_buzz_winner_takes_the_hourglass_and_bets_first() -> None:
    state = to_bet(started(5), buzzer=3)
    assert state.phase is Phase.BET and state.to_act == 3
    assert state.buzz is not None and state.buzz.seat == 3 and state.buzz.margin_us == 1200
    assert state.bet_order == (3, 4, 0, 1, 2)


def test_buzz_before_the_card_or_from_nowhere_is_rejected() -> None:
    state = started(4)
    rejected(state, BuzzWon(at_ms=state.now_ms, seat=1, margin_us=0, tie=False), "wrong_phase")
    state = ok(state, CardRevealed(at_ms=state.now_ms, card=3))
    rejected(state, BuzzWon(at_ms=state.now_ms, seat=4, margin_us=0, tie=False), "bad_seat")
    rejected(state, BuzzWon(at_ms=state.now_ms, seat=1, margin_us=-1, tie=False), "bad_buzz")


def test_a_tie_broken_by_lot_is_recorded() -> None:
    state = started(4)
    state = ok(state, CardRevealed(at_ms=state.now_ms, card=3))
    state = ok(state, BuzzWon(at_ms=state.now_ms + 1, seat=2, margin_us=0, tie=True))
    assert state.buzz is not None and state.buzz.tie


# --- bet ---------------------------------------------------------------------------------

def test_the_buzz_winner_must_bet() -> None:
    state = to_bet(started(4), buzzer=1)
    rejected(state, Pass(at_ms=state.now_ms, seat=1), "must_bet")
    assert all(not isinstance(a, Pass) for a in legal_actions(state))


def test_betting_goes_clockwise_from_the_winner_one_bet_each() -> None:
    state = to_bet(started(4), buzzer=2)
    rejected(state, Bet(at_ms=state.now_ms, seat=3, position=0), "not_your_turn")
    state = ok(state, Bet(at_ms=state.now_ms, seat=2, position=0))
    assert state.to_act == 3
    rejected(state, Bet(at_ms=state.now_ms, seat=2, position=1), "not_your_turn")
    state = ok(state, Pass(at_ms=state.now_ms, seat=3), Bet(at_ms=state.now_ms, seat=0, position=4))
    assert state.to_act == 1


def test_bet_on_a_scene_that_is_not_there_is_rejected() -> None:
    state = to_bet(started(4, "easy"), buzzer=0)
    rejected(state, Bet(at_ms=state.now_ms, seat=0, position=4), "bad_position")


def test_memory_card_slots_fill_in_order() -> None:
    state = to_bet(started(7), buzzer=0)
    for seat in range(6):
        state = ok(state, Bet(at_ms=state.now_ms, seat=seat, position=2 if seat != 1 else 4))
    assert [(b.seat, b.position, b.slot) for b in state.bets] == [
        (0, 2, 1), (1, 4, 1), (2, 2, 2), (3, 2, 3), (4, 2, 4), (5, 2, 5)]


def test_a_full_memory_card_takes_no_more_bets() -> None:
    state = to_bet(started(7), buzzer=0)
    for seat in range(6):
        state = ok(state, Bet(at_ms=state.now_ms, seat=seat, position=1))
    assert state.tokens_on(1) == 6
    rejected(state, Bet(at_ms=state.now_ms, seat=6, position=1), "memory_card_full")
    assert Bet(at_ms=state.now_ms, seat=6, position=1) not in legal_actions(state)


# --- check and score ---------------------------------------------------------------------

def bets(state: State, plan: Mapping[int, int | None]) -> State:
    """Everyone decides in order: plan[seat] = position or None (pass)."""
    while state.phase is Phase.BET:
        seat = state.to_act
        assert seat is not None
        pos = plan.get(seat)
        ev = Pass(at_ms=state.now_ms, seat=seat) if pos is None else Bet(
            at_ms=state.now_ms, seat=seat, position=pos)
        state = ok(state, ev)
    return state


def test_tied_scenes_start_at_the_takers_scene_when_the_switch_says() -> None:
    plan = {0: 4, 1: 1, 2: 4, 3: 1}  # 0 takes the hourglass; B and E hold two tokens each
    state = bets(to_bet(started(4), buzzer=0), plan)
    assert state.check is not None and state.check.position == 1  # the lowest of B, E
    rules = Rules(interpretations=Interpretations(check_ties_start_at_takers_scene=True))
    state = bets(to_bet(started(4, rules=rules), buzzer=0), plan)
    assert state.check is not None and state.check.position == 4  # the taker's scene
    assert state.checks_left == (1,)  # then clockwise round the ring


def test_check_starts_with_the_most_tokens_then_clockwise() -> None:
    state = bets(to_bet(started(5), buzzer=0), {0: 1, 1: 4, 2: 4, 3: 0})
    assert state.phase is Phase.CHECK
    assert state.check is not None and state.check.position == 4
    assert state.check.bettors == (1, 2)
    assert state.checks_left == (0, 1)


def test_check_order_tie_goes_to_the_lowest_position() -> None:
    state = bets(to_bet(started(4), buzzer=0), {0: 3, 1: 1})
    assert state.check is not None and state.check.position == 1
    assert state.checks_left == (3,)


#: the box times every check from when its scene is turned up (check_timer_on_press off)
AUTO_TIMER = Rules(interpretations=Interpretations(check_timer_on_press=False))


def test_a_check_is_untimed_until_the_hourglass_is_turned() -> None:
    state = bets(to_bet(started(4), buzzer=0), {0: 3})
    start = state.now_ms
    assert next_deadline(state) is None and state.check is not None
    assert state.check.deadline_ms is None
    rejected(state, CheckTimeUp(at_ms=start + 60_000), "no_hourglass")
    assert ok(state, CheckResult(at_ms=start + 90_000, position=3, found=True)).scores[0] > 0
    state = ok(state, HourglassTurned(at_ms=start + 5_000))  # by a player not betting
    assert next_deadline(state) == start + 35_000 and state.check is not None
    assert state.check.deadline_ms == start + 35_000
    rejected(state, HourglassTurned(at_ms=start + 6_000), "hourglass_running")
    rejected(state, CheckTimeUp(at_ms=start + 34_999), "too_early")
    rejected(state, CheckResult(at_ms=start + 35_000, position=3, found=True), "deadline_passed")


def test_the_box_can_time_every_check_from_the_turned_up_scene() -> None:
    state = bets(to_bet(started(4, rules=AUTO_TIMER), buzzer=0), {0: 3})
    start = state.now_ms
    assert next_deadline(state) == start + 30_000
    assert state.check is not None and state.check.deadline_ms == start + 30_000
    rejected(state, CheckTimeUp(at_ms=start + 29_999), "too_early")
    rejected(state, CheckResult(at_ms=start + 30_000, position=3, found=True), "deadline_passed")
    rejected(state, CheckResult(at_ms=start + 10, position=2, found=True), "not_current_check")
    rejected(state, HourglassTurned(at_ms=start + 10), "hourglass_running")


def test_timeout_counts_as_not_found() -> None:
    state = with_scores(bets(to_bet(started(4), buzzer=0), {0: 3}), 5, 0, 0, 0)
    state = ok(state, HourglassTurned(at_ms=state.now_ms),
               CheckTimeUp(at_ms=state.now_ms + 30_000))
    assert state.players[0].score == 3
    assert state.last_changes[0].reason is ChangeReason.TIME_UP


def test_each_check_gets_its_own_30_seconds() -> None:
    state = bets(to_bet(started(4, rules=AUTO_TIMER), buzzer=0), {0: 3, 1: 1})
    t = state.now_ms
    state = ok(state, CheckResult(at_ms=t + 20_000, position=1, found=True))
    assert state.check is not None and state.check.position == 3
    assert state.deadline_ms == t + 50_000
    state = bets(to_bet(started(4), buzzer=0), {0: 3, 1: 1})  # on a press: untimed again
    state = ok(state, HourglassTurned(at_ms=t), CheckResult(at_ms=t + 20_000, position=1,
                                                            found=True))
    assert state.check is not None and state.check.position == 3 and state.deadline_ms is None


@pytest.mark.parametrize(("n", "expected"), [
    (4, [4, 3, 3, 2]),
    (7, [7, 6, 6, 5, 4, 4]),
])
def test_scoring_table_by_slot(n: int, expected: list[int]) -> None:
    state = to_bet(started(n), buzzer=0)
    plan = {seat: 2 for seat in range(min(n, 6))}
    state = bets(state, plan)
    state = ok(state, CheckResult(at_ms=state.now_ms, position=2, found=True))
    got = {c.seat: c.delta for c in state.last_changes}
    assert [got[seat] for seat in range(min(n, 6))] == expected


def test_lone_bettor_scores_n_plus_one() -> None:
    state = bets(to_bet(started(5), buzzer=2), {2: 0})
    state = ok(state, CheckResult(at_ms=state.now_ms, position=0, found=True))
    assert state.players[2].score == 6


def test_lone_bettor_is_read_per_scene() -> None:
    state = bets(to_bet(started(5), buzzer=2), {2: 0, 3: 1, 4: 1})
    state = ok(state, CheckResult(at_ms=state.now_ms, position=1, found=True),
               CheckResult(at_ms=state.now_ms, position=0, found=True))
    assert state.scores == (0, 0, 6, 5, 4)


def test_lone_bettor_per_round_interpretation() -> None:
    rules = Rules(interpretations=Interpretations(lone_bettor_per_scene=False))
    state = bets(to_bet(started(5, rules=rules), buzzer=2), {2: 0, 3: 1})
    state = ok(state, CheckResult(at_ms=state.now_ms, position=0, found=True),
               CheckResult(at_ms=state.now_ms, position=1, found=True))
    assert state.scores == (0, 0, 5, 5, 0)


def test_wrong_scene_costs_two() -> None:
    state = with_scores(bets(to_bet(started(4), buzzer=1), {1: 0, 2: 0}), 0, 7, 9, 0)
    state = ok(state, CheckResult(at_ms=state.now_ms, position=0, found=False))
    assert state.scores == (0, 5, 7, 0)
    assert {c.reason for c in state.last_changes} == {ChangeReason.NOT_FOUND}


def test_score_never_goes_below_zero() -> None:
    state = with_scores(bets(to_bet(started(4), buzzer=1), {1: 0, 2: 0}), 0, 1, 0, 0)
    state = ok(state, CheckResult(at_ms=state.now_ms, position=0, found=False))
    assert state.scores == (0, 0, 0, 0)
    assert [(c.points, c.delta) for c in state.last_changes] == [(-2, -1), (-2, 0)]


def test_score_history_has_a_row_per_round() -> None:
    state = bets(to_bet(started(4), buzzer=1), {1: 0})
    state = ok(state, CheckResult(at_ms=state.now_ms, position=0, found=True))
    assert state.score_history == ((0, 0, 0, 0), (0, 5, 0, 0))


# --- reset: the swap ---------------------------------------------------------------------

def test_swap_offered_to_the_lowest_scorer_when_two_scenes_were_turned_up() -> None:
    state = with_scores(bets(to_bet(started(4), buzzer=0), {0: 1, 1: 3}), 9, 9, 2, 9)
    state = ok(state, CheckResult(at_ms=state.now_ms, position=1, found=True),
               CheckResult(at_ms=state.now_ms, position=3, found=True))
    assert state.phase is Phase.SWAP and state.to_act == 2
    assert state.turned_up == (1, 3)
    rejected(state, SwapScenes(at_ms=state.now_ms, seat=0, a=1, b=3), "not_your_turn")
    rejected(state, SwapScenes(at_ms=state.now_ms, seat=2, a=1, b=2), "bad_swap")
    rejected(state, SwapScenes(at_ms=state.now_ms, seat=2, a=1, b=1), "bad_swap")
    scenes = state.scenes
    state = ok(state, SwapScenes(at_ms=state.now_ms, seat=2, a=3, b=1))
    assert state.scenes[1] == scenes[3] and state.scenes[3] == scenes[1]
    assert state.phase is Phase.REVEAL and state.round == 2


def _three_turned_up(rules: Rules | None = None) -> State:
    """Four players; scenes 0, 1 and 3 checked (found) this round; Cat (seat 2) lowest."""
    state = with_scores(bets(to_bet(started(4, rules=rules), buzzer=0), {0: 1, 1: 3, 3: 0}),
                        9, 9, 2, 9)
    while state.phase is Phase.CHECK:
        assert state.check is not None
        state = ok(state, CheckResult(at_ms=state.now_ms, position=state.check.position,
                                      found=True))
    assert state.phase is Phase.SWAP and sorted(state.turned_up) == [0, 1, 3]
    return state


def test_with_three_scenes_up_every_exchange_is_legal() -> None:
    state = _three_turned_up()
    swaps = {(e.a, e.b) for e in legal_actions(state) if isinstance(e, SwapScenes)}
    assert all(a != b for a, b in swaps)  # (a, b) and (b, a): the same exchange, both accepted
    assert {frozenset(p) for p in swaps} == {frozenset(p) for p in ((0, 1), (0, 3), (1, 3))}


def test_the_swap_rearranges_the_turned_up_scenes_in_up_to_k_minus_1_exchanges() -> None:
    state = _three_turned_up()
    seat = state.to_act
    before = state.scenes
    state = ok(state, SwapScenes(at_ms=state.now_ms, seat=2, a=0, b=1))
    assert state.phase is Phase.SWAP and state.to_act == seat  # may exchange again
    rejected(state, SwapScenes(at_ms=state.now_ms, seat=1, a=0, b=3), "not_your_turn")
    state = ok(state, SwapScenes(at_ms=state.now_ms, seat=2, a=1, b=3))
    # 0,1,3 held A,B,D: after (0 1) B,A,D; after (1 3) B,D,A -- any order is reachable
    assert (state.scenes[0], state.scenes[1], state.scenes[3]) == (before[1], before[3],
                                                                   before[0])
    assert state.phase is Phase.REVEAL and state.round == 2  # two of three: done by itself
    assert state.swaps_made == 0


def test_done_after_one_exchange_ends_the_swap() -> None:
    state = _three_turned_up()
    state = ok(state, SwapScenes(at_ms=state.now_ms, seat=2, a=3, b=0))
    state = ok(state, DeclineSwap(at_ms=state.now_ms, seat=2))
    assert state.phase is Phase.REVEAL and state.round == 2


def test_the_single_exchange_is_a_switch() -> None:
    rules = Rules(interpretations=Interpretations(swap_rearranges=False))
    state = _three_turned_up(rules)
    state = ok(state, SwapScenes(at_ms=state.now_ms, seat=2, a=0, b=1))
    assert state.phase is Phase.REVEAL


def test_a_journal_from_before_the_switch_replays_with_one_exchange() -> None:
    old = Rules().to_dict()
    del old["interpretations"]["swap_rearranges"]
    assert Rules.from_dict(old).interpretations.swap_rearranges is False
    assert Rules.from_dict({}).interpretations.swap_rearranges is True  # a new game
    assert Rules.from_dict(Rules().to_dict()) == Rules()


def test_swap_can_be_declined() -> None:
    state = bets(to_bet(started(4), buzzer=0), {0: 1, 1: 3})
    state = ok(state, CheckResult(at_ms=state.now_ms, position=1, found=True),
               CheckResult(at_ms=state.now_ms, position=3, found=True))
    scenes = state.scenes
    state = ok(state, DeclineSwap(at_ms=state.now_ms, seat=state.to_act or 0))
    assert state.scenes == scenes and state.phase is Phase.REVEAL


def test_no_swap_with_one_scene_turned_up() -> None:
    state = bets(to_bet(started(4), buzzer=0), {0: 1, 1: 1})
    state = ok(state, CheckResult(at_ms=state.now_ms, position=1, found=True))
    assert state.phase is Phase.REVEAL


@pytest.mark.parametrize(("includes_taker", "chooser"), [(True, 3), (False, 4)])
def test_swap_tie_nearest_after_the_hourglass_taker(includes_taker: bool, chooser: int) -> None:
    rules = Rules(interpretations=Interpretations(tie_break_includes_taker=includes_taker))
    state = bets(to_bet(started(5, rules=rules), buzzer=3), {3: 1, 4: 2})
    state = ok(state, CheckResult(at_ms=state.now_ms, position=1, found=False),
               CheckResult(at_ms=state.now_ms, position=2, found=False))
    assert state.scores == (0, 0, 0, 0, 0)
    assert state.phase is Phase.SWAP and state.to_act == chooser


def test_swap_tie_counts_from_the_taker_round_the_table() -> None:
    state = with_scores(bets(to_bet(started(5), buzzer=3), {3: 1, 4: 2}), 4, 1, 1, 9, 9)
    state = ok(state, CheckResult(at_ms=state.now_ms, position=1, found=True),
               CheckResult(at_ms=state.now_ms, position=2, found=True))
    assert state.to_act == 1  # 4 -> 0 -> 1: seat 1 is the first of the lowest after seat 3


# --- the end -----------------------------------------------------------------------------

@pytest.mark.parametrize(("n", "target"), [(3, 20), (4, 20), (5, 35), (7, 35)])
def test_game_ends_at_the_target_score(n: int, target: int) -> None:
    state = with_scores(bets(to_bet(started(n), buzzer=0), {0: 0}), target - n - 2,
                        *([0] * (n - 1)))
    state = ok(state, CheckResult(at_ms=state.now_ms, position=0, found=True))
    assert state.scores[0] == target - 1 and not is_over(state)
    state = with_scores(to_bet(state, card=9, buzzer=0), *state.scores)
    state = bets(state, {0: 0, 1: 0})
    state = ok(state, CheckResult(at_ms=state.now_ms, position=0, found=True))
    assert is_over(state)
    result = outcome(state)
    assert result is not None and result.reason is EndReason.SCORE_REACHED
    assert result.winners == (0,)


@pytest.mark.parametrize(("n", "empties"), [(3, 2), (4, 2), (5, 3), (6, 3)])
def test_game_ends_when_enough_piles_run_out(n: int, empties: int) -> None:
    state = started(n)
    cards = [5] * n
    for seat in range(1, empties):
        cards[seat] = 0
    cards[0] = 1
    state = with_cards(state, *cards)
    state = ok(state, CardRevealed(at_ms=state.now_ms, card=0, seat=0))
    assert state.empty_piles == empties and not is_over(state)  # the last card is played
    state = bets(ok(state, BuzzWon(at_ms=state.now_ms, seat=2, margin_us=5, tie=False)),
                 {2: 0})
    state = ok(state, CheckResult(at_ms=state.now_ms, position=0, found=True))
    assert is_over(state)
    assert state.outcome is not None and state.outcome.reason is EndReason.PILES_EMPTY


def test_piles_running_out_with_no_buzz_ends_the_game() -> None:
    state = with_cards(started(3), 1, 0, 5)
    state = ok(state, CardRevealed(at_ms=state.now_ms, card=0, seat=0), NoBuzz(at_ms=state.now_ms))
    assert state.outcome is not None and state.outcome.reason is EndReason.PILES_EMPTY


def test_ending_at_once_when_the_last_card_round_is_not_played() -> None:
    rules = Rules(interpretations=Interpretations(last_card_round_is_played=False))
    state = with_cards(started(3, rules=rules), 1, 0, 5)
    state = ok(state, CardRevealed(at_ms=state.now_ms, card=0, seat=0))
    assert is_over(state)


def test_winners_share_a_tie() -> None:
    state = with_scores(started(4), 3, 8, 8, 1)
    state = ok(state, EndGame(at_ms=state.now_ms))
    assert state.outcome is not None
    assert state.outcome.reason is EndReason.HOST_ENDED and state.outcome.winners == (1, 2)


def test_nothing_is_accepted_after_the_end() -> None:
    state = started(4)
    state = ok(state, EndGame(at_ms=state.now_ms))
    rejected(state, CardRevealed(at_ms=state.now_ms, card=1), "game_over")
    assert legal_actions(state) == ()


def test_end_game_before_any_game_is_rejected() -> None:
    rejected(initial_state(), EndGame(at_ms=0), "wrong_phase")


# --- time --------------------------------------------------------------------------------

def test_time_never_goes_back() -> None:
    state = ok(started(4), CardRevealed(at_ms=100_000, card=1))
    rejected(state, NoBuzz(at_ms=99_999), "clock_went_back")


def test_an_event_of_the_wrong_phase_is_rejected_with_a_reason() -> None:
    state = started(4)
    for ev in (Bet(at_ms=state.now_ms, seat=0, position=0), NoBuzz(at_ms=state.now_ms),
               CheckTimeUp(at_ms=state.now_ms), ViewingTimeUp(at_ms=state.now_ms)):
        result = apply(state, ev)
        assert isinstance(result, Rejection) and result.code == "wrong_phase" and result.reason


def test_sources() -> None:
    assert BuzzWon.source is Source.BUZZER and CardRevealed.source is Source.CAMERA
    assert CheckTimeUp.source is Source.CLOCK and ViewingTimeUp.source is Source.CLOCK
    assert {Bet.source, Pass.source, CheckResult.source, NoBuzz.source, SwapScenes.source,
            ReplaceScene.source, DeclineReplacement.source} == {Source.HOST}


# --- advanced: scene replacement ---------------------------------------------------------

def test_advanced_replacement_after_a_pile_runs_out() -> None:
    state = with_scores(with_cards(started(4, "advanced"), 1, 5, 5, 5), 3, 0, 2, 2)
    state = ok(state, CardRevealed(at_ms=state.now_ms, card=7, seat=0))
    assert state.replacements_due == 1
    state = bets(ok(state, BuzzWon(at_ms=state.now_ms, seat=2, margin_us=9, tie=False)), {2: 0})
    state = ok(state, CheckResult(at_ms=state.now_ms, position=0, found=True))
    assert state.phase is Phase.REPLACE and state.to_act == 1  # lowest score
    rejected(state, ReplaceScene(at_ms=state.now_ms, seat=1, position=2, scene=state.scenes[0]),
             "scene_used")
    rejected(state, ReplaceScene(at_ms=state.now_ms, seat=1, position=6, scene=0), "bad_position")
    rejected(state, ReplaceScene(at_ms=state.now_ms, seat=1, position=2, scene=15), "bad_scene")
    rejected(state, ReplaceScene(at_ms=state.now_ms, seat=0, position=2, scene=0), "not_your_turn")
    t = state.now_ms
    state = ok(state, ReplaceScene(at_ms=t, seat=1, position=2, scene=0))
    assert state.phase is Phase.VIEW_REPLACEMENT and next_deadline(state) == t + 20_000
    assert state.scenes[2] != 0  # not laid down before the 20 s
    rejected(state, ViewingTimeUp(at_ms=t + 19_999), "too_early")
    state = ok(state, ViewingTimeUp(at_ms=t + 20_000))
    assert state.scenes[2] == 0 and state.phase is Phase.REVEAL and state.round == 2
    assert state.replacements_due == 0 and 0 in state.used_scenes


def test_the_replacement_chooser_is_the_lowest_scorer_when_the_pile_ran_out() -> None:
    # Ben (1) is lowest when Ann's last card is revealed; Ben's right bet lifts him above Cat
    state = with_scores(with_cards(started(4, "advanced"), 1, 5, 5, 5), 3, 0, 2, 2)
    state = ok(state, CardRevealed(at_ms=state.now_ms, card=7, seat=0))
    assert state.replacement_choosers == (1,)
    state = bets(ok(state, BuzzWon(at_ms=state.now_ms, seat=1, margin_us=9, tie=False)), {1: 0})
    state = ok(state, CheckResult(at_ms=state.now_ms, position=0, found=True))
    assert state.scores == (3, 5, 2, 2)
    assert state.phase is Phase.REPLACE and state.to_act == 1  # lowest *then*, not now (Cat)
    state = ok(state, DeclineReplacement(at_ms=state.now_ms, seat=1))
    assert state.replacement_choosers == () and state.phase is Phase.REVEAL


def test_the_chooser_after_the_scoring_is_a_switch() -> None:
    rules = Rules(interpretations=Interpretations(replacement_chooser_when_pile_empties=False))
    state = with_scores(with_cards(started(4, "advanced", rules=rules), 1, 5, 5, 5), 3, 0, 2, 2)
    state = ok(state, CardRevealed(at_ms=state.now_ms, card=7, seat=0))
    state = bets(ok(state, BuzzWon(at_ms=state.now_ms, seat=1, margin_us=9, tie=False)), {1: 0})
    state = ok(state, CheckResult(at_ms=state.now_ms, position=0, found=True))
    assert state.phase is Phase.REPLACE and state.to_act == 2  # Cat, lowest after the round


def test_switches_added_later_replay_old_journals_by_the_old_rule() -> None:
    from engine.something_missing import ADDED_SWITCHES

    old = Rules().to_dict()
    for key in ADDED_SWITCHES:
        del old["interpretations"][key]
    inter = Rules.from_dict(old).interpretations
    assert all(getattr(inter, k) is v for k, v in ADDED_SWITCHES.items())
    assert all(getattr(Interpretations(), k) is not v for k, v in ADDED_SWITCHES.items())


def test_advanced_replacement_after_no_buzz_then_play_goes_on() -> None:
    state = with_cards(started(4, "advanced"), 1, 5, 5, 5)
    state = ok(state, CardRevealed(at_ms=state.now_ms, card=7, seat=0),
               NoBuzz(at_ms=state.now_ms))
    assert state.phase is Phase.REPLACE and state.to_act == 0  # all 0: from the start player
    rejected(state, CardRevealed(at_ms=state.now_ms, card=8), "wrong_phase")
    state = ok(state, DeclineReplacement(at_ms=state.now_ms, seat=0))
    assert state.phase is Phase.REVEAL and state.to_act == 1 and state.round == 1


def test_no_replacement_outside_the_advanced_variant() -> None:
    state = with_cards(started(4, "standard"), 1, 5, 5, 5)
    state = ok(state, CardRevealed(at_ms=state.now_ms, card=7, seat=0),
               NoBuzz(at_ms=state.now_ms))
    assert state.phase is Phase.REVEAL and state.replacements_due == 0


# --- malformed events --------------------------------------------------------------------

@pytest.mark.parametrize("event", [
    Bet(at_ms=0, seat="1", position=0),  # type: ignore[arg-type]
    Bet(at_ms=0, seat=True, position=0),
    NoBuzz(at_ms=1.5),  # type: ignore[arg-type]
    CardRevealed(at_ms=0, card=None),  # type: ignore[arg-type]
])
def test_an_event_with_fields_of_the_wrong_type_is_rejected(event: Event) -> None:
    state = to_bet(started(4), buzzer=1)
    result = apply(state, event)
    assert isinstance(result, Rejection) and result.code == "bad_event" and result.reason


def test_a_new_game_with_lists_instead_of_tuples_is_rejected() -> None:
    ev = dataclasses.replace(new_game(3), names=["A", "B", "C"])  # type: ignore[arg-type]
    rejected(initial_state(), ev, "bad_event")


def test_a_foreign_object_is_rejected() -> None:
    result = apply(started(3), "bet")  # type: ignore[arg-type]
    assert isinstance(result, Rejection) and result.code == "unknown_event"


def test_event_json_round_trip_and_errors() -> None:
    ev = new_game(3, hand_sizes=(22, 22, 22))
    assert NewGame.from_dict(ev.to_dict()) == ev
    assert EVENTS.from_dict(ev.to_dict()) == ev
    with pytest.raises(ValueError, match="expected a 'bet' event"):
        Bet.from_dict(ev.to_dict())
    with pytest.raises(ValueError, match=r"new_game\.names\[1\]: expected a string"):
        NewGame.from_dict({**ev.to_dict(), "names": ["A", 2, "C"]})
    with pytest.raises(ValueError, match="bad version"):
        NoBuzz.from_dict({"type": "no_buzz", "v": 0, "at_ms": 0})
    assert CardRevealed.from_dict({"type": "card_revealed", "at_ms": 5, "card": 3}) == \
        CardRevealed(at_ms=5, card=3, seat=None)  # optional fields default; v defaults to 1


# --- what the screen reads ---------------------------------------------------------------

def test_state_keeps_passes_results_and_timer_lengths_for_the_screen() -> None:
    state = to_bet(started(4), buzzer=1)
    assert state.timer_ms is None and state.target_score == 20
    state = bets(state, {1: 0, 2: None, 3: 2, 0: None})
    assert state.passed == (2, 0)
    assert state.timer_ms == 30_000
    state = ok(state, CheckResult(at_ms=state.now_ms, position=0, found=True))
    assert state.results == ((0, True),)
    state = ok(state, HourglassTurned(at_ms=state.now_ms),
               CheckTimeUp(at_ms=state.now_ms + 30_000))
    assert state.results == ((0, True), (2, False))
    assert state.phase is Phase.SWAP  # results stay up for the swap and the next reveal
    state = ok(state, DeclineSwap(at_ms=state.now_ms, seat=state.to_act or 0))
    assert state.results == ((0, True), (2, False)) and state.passed == ()
    state = to_bet(state, card=50, buzzer=0)
    assert state.results == () and state.last_changes == ()


@pytest.mark.parametrize("sizes", [(22, 22, 22), (17, 17, 16, 16), (14, 13, 13, 13, 13)])
def test_a_deal_round_the_table_is_accepted(sizes: tuple[int, ...]) -> None:
    ok(initial_state(), new_game(len(sizes), hand_sizes=sizes))


@pytest.mark.parametrize("sizes", [(23, 22, 21), (33, 0, 33), (30, 30, 5, 1)])
def test_a_deal_no_table_makes_is_refused(sizes: tuple[int, ...]) -> None:
    result = rejected(initial_state(), new_game(len(sizes), hand_sizes=sizes), "bad_setup")
    assert "more than 1 more" in result.reason


def test_hand_sizes_must_add_up_to_66() -> None:
    result = rejected(initial_state(), new_game(3, hand_sizes=(22, 22, 21)), "bad_setup")
    assert "adding up to 66" in result.reason and "[22, 22, 21]" in result.reason
    with pytest.raises(ValueError, match="max_deal_spread"):
        Rules.from_dict({"max_deal_spread": 0})


def test_every_switch_is_in_the_rules_document() -> None:
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    for f in dataclasses.fields(Interpretations):
        assert f"`{f.name}`" in text, f"docs/rules.md does not name the switch {f.name}"
    for name in ("viewing_beat_ms", "max_deal_spread"):
        assert f"`{name}`" in text
