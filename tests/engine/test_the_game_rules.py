"""One test per rule of 致命遊戲 The Game: setup, rows, backward trick, minimum, drawing,
skipping, the end, the verdicts, hidden hands, house rules, and the JSON forms.

The helpers at the top are shared with ``test_the_game_games.py`` and
``test_the_game_properties.py``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

import pytest

from engine.core import Event, Rejection, Source
from engine.the_game import (
    ENGINE,
    EVENTS,
    SUGGEST_EXPERT_TEXT,
    VERDICT_TEXT,
    CannotPlay,
    CardEntered,
    CardPlayed,
    Direction,
    EndGame,
    EndReason,
    HouseRulePlay,
    Interpretations,
    NewGame,
    Phase,
    Row,
    Rules,
    State,
    TurnEnded,
    Verdict,
    apply,
    initial_state,
    legal_actions,
    outcome,
    playable,
    summary,
    verdict,
    why_illegal,
)

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")
COLOURS = ("red", "yellow", "blue", "green", "orange")


def new_game(n: int = 3, variant: str = "standard", start_seat: int = 0, at_ms: int = 0,
             hands: Sequence[Sequence[int]] | None = None,
             draw_pile: Sequence[int] | None = None) -> NewGame:
    return NewGame(at_ms=at_ms, names=NAMES[:n], colours=COLOURS[:n], variant=variant,
                   start_seat=start_seat,
                   hands=None if hands is None else tuple(tuple(h) for h in hands),
                   draw_pile=None if draw_pile is None else tuple(draw_pile))


def ok(state: State, *events: Event) -> State:
    """Apply events that must be accepted."""
    for ev in events:
        result = apply(state, ev)
        assert not isinstance(result, Rejection), f"{ev!r} rejected: {result}"
        state = result
    return state


def rejected(state: State, event: Event, code: str) -> Rejection:
    result = apply(state, event)
    assert isinstance(result, Rejection), f"{event!r} was accepted"
    assert result.code == code, result
    assert result.reason
    return result


def started(n: int = 3, variant: str = "standard", start_seat: int = 0,
            rules: Rules | None = None) -> State:
    """A hidden-hands game (the box knows counts only)."""
    return ok(initial_state(rules), new_game(n, variant, start_seat))


def dealt(hands: Sequence[Sequence[int]], variant: str = "standard", start_seat: int = 0,
          rules: Rules | None = None, pile: Sequence[int] | None = None) -> State:
    """A game the box dealt: ``hands`` as given, the draw pile the rest in ascending order
    (or ``pile``)."""
    used = {c for h in hands for c in h}
    draw = list(pile) if pile is not None else [c for c in range(2, 100) if c not in used]
    return ok(initial_state(rules), new_game(len(hands), variant, start_seat, hands=hands,
                                             draw_pile=draw))


def play(state: State, row: int, card: int, seat: int | None = None) -> State:
    t = state.now_ms + 100
    return ok(state, CardPlayed(at_ms=t, row=row, card=card, seat=seat))


def end_turn(state: State) -> State:
    assert state.to_act is not None
    return ok(state, TurnEnded(at_ms=state.now_ms + 100, seat=state.to_act))


def with_rows(state: State, *tops: int) -> State:
    """Rows with the given tops (as if those cards had been played; hidden game only)."""
    rows = tuple(dataclasses.replace(r, cards=(t,)) if t != r.start else r
                 for r, t in zip(state.rows, tops, strict=True))
    played = frozenset(t for r, t in zip(state.rows, tops, strict=True) if t != r.start)
    return dataclasses.replace(state, rows=rows, played=state.played | played)


def with_draw(state: State, draw_count: int) -> State:
    return dataclasses.replace(state, draw_count=draw_count)


# --- setup --------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "size"), [(1, 8), (2, 7), (3, 6), (4, 6), (5, 6)])
def test_hand_size_by_player_count(n: int, size: int) -> None:
    state = started(n)
    assert state.hand_counts == (size,) * n
    assert state.draw_count == 98 - n * size
    assert state.cards_left == 98
    assert state.phase is Phase.PLAY and state.to_act == 0 and state.turn == 1


def test_expert_hand_sizes_default_to_the_normal_ones_and_are_settable() -> None:
    assert started(3, "expert").hand_counts == (6, 6, 6)
    rules = Rules(expert_hand_sizes=(7, 6, 5, 5, 5))
    assert started(3, "expert", rules=rules).hand_counts == (5, 5, 5)


def test_player_count_is_one_to_five() -> None:
    s0 = initial_state()
    assert ENGINE.min_players == 1 and ENGINE.max_players == 5
    rejected(s0, NewGame(at_ms=0, names=(), colours=()), "bad_setup")
    rejected(s0, NewGame(at_ms=0, names=(*NAMES, "Fay"), colours=(*COLOURS, "brown")),
             "bad_setup")


@pytest.mark.parametrize("bad", [
    dict(colours=("red", "red", "blue")),
    dict(colours=("red", "pink", "blue")),
    dict(colours=("red", "blue")),
    dict(names=("Ann", " ", "Cat")),
    dict(variant="easy"),
    dict(start_seat=3),
])
def test_bad_setups_are_rejected(bad: dict[str, Any]) -> None:
    ev = dataclasses.replace(new_game(3), **bad)
    rejected(initial_state(), ev, "bad_setup")


def test_rows_start_two_ascending_from_1_two_descending_from_100() -> None:
    state = started()
    assert [r.direction for r in state.rows] == [Direction.UP, Direction.UP,
                                                Direction.DOWN, Direction.DOWN]
    assert state.tops == (1, 1, 100, 100)
    assert [r.label for r in state.rows] == ["↑1", "↑1", "↓100", "↓100"]


def test_start_seat_acts_first() -> None:
    assert started(4, start_seat=2).to_act == 2


def test_a_dealt_game_needs_both_hands_and_pile_and_every_card_once() -> None:
    s0 = initial_state()
    hands = [[2, 3, 4, 5, 6, 7, 8]]
    rejected(s0, new_game(1, hands=[[2, 3, 4, 5, 6, 7, 8, 9]]), "bad_setup")
    rejected(s0, new_game(1, hands=hands, draw_pile=range(9, 100)), "bad_setup")  # 7 cards
    eight = [2, 3, 4, 5, 6, 7, 8, 9]
    rejected(s0, new_game(1, hands=[eight], draw_pile=range(10, 99)), "bad_setup")
    rejected(s0, new_game(1, hands=[eight], draw_pile=[*range(10, 99), 10]), "bad_setup")
    state = ok(s0, new_game(1, hands=[eight[::-1]], draw_pile=range(10, 100)))
    assert state.hands == ((2, 3, 4, 5, 6, 7, 8, 9),) and state.hands_known


# --- the rows -----------------------------------------------------------------------------


def test_ascending_row_takes_a_higher_card() -> None:
    state = play(started(), 0, 40)
    assert state.tops[0] == 40 and state.played_this_turn == 1
    assert state.hand_counts[0] == 5
    rej = rejected(state, CardPlayed(at_ms=1000, row=0, card=35), "illegal_play")
    assert rej.reason == "35 cannot go on ↑40"


def test_descending_row_takes_a_lower_card() -> None:
    state = play(started(), 2, 60)
    assert state.tops[2] == 60
    rej = rejected(state, CardPlayed(at_ms=1000, row=2, card=65), "illegal_play")
    assert rej.reason == "65 cannot go on ↓60"


def test_gaps_do_not_matter() -> None:
    state = play(play(started(), 0, 2), 0, 98)
    assert state.tops[0] == 98


def test_backward_trick_exactly_ten_lower_on_an_ascending_row() -> None:
    state = with_rows(started(), 47, 1, 100, 100)
    after = play(state, 0, 37)
    assert after.tops[0] == 37 and after.plays[-1].backward
    rej = rejected(state, CardPlayed(at_ms=1000, row=0, card=36), "illegal_play")
    assert rej.reason == "36 cannot go on ↑47"


def test_backward_trick_exactly_ten_higher_on_a_descending_row() -> None:
    state = with_rows(started(), 1, 1, 65, 100)
    after = play(state, 2, 75)
    assert after.tops[2] == 75 and after.plays[-1].backward
    rejected(state, CardPlayed(at_ms=1000, row=2, card=74), "illegal_play")


def test_any_number_of_backward_tricks_on_any_rows_in_a_turn() -> None:
    state = with_rows(started(), 55, 66, 44, 33)
    state = ok(state, *(CardPlayed(at_ms=100 * i, row=r, card=c) for i, (r, c) in
                        enumerate([(0, 45), (1, 56), (0, 35), (2, 54), (3, 43)], start=1)))
    assert state.tops == (35, 56, 54, 43)
    assert sum(p.backward for p in state.plays) == 5


def test_a_card_already_played_is_rejected() -> None:
    state = play(started(), 0, 40)
    rej = rejected(state, CardPlayed(at_ms=1000, row=1, card=40), "card_already_played")
    assert "40" in rej.reason


def test_no_such_card_or_row() -> None:
    state = started()
    rejected(state, CardPlayed(at_ms=1, row=4, card=40), "bad_row")
    rejected(state, CardPlayed(at_ms=1, row=-1, card=40), "bad_row")
    rejected(state, CardPlayed(at_ms=1, row=0, card=1), "bad_card")
    rejected(state, CardPlayed(at_ms=1, row=2, card=100), "bad_card")


def test_why_illegal_is_the_same_check_for_the_screen() -> None:
    state = with_rows(started(), 45, 1, 100, 100)
    assert why_illegal(state, 0, 37) == "37 cannot go on ↑45"
    assert why_illegal(state, 0, 35) is None
    assert why_illegal(state, 0, 46) is None
    assert why_illegal(state, 0, 45) == "45 has already been played"
    assert why_illegal(state, 7, 50) is not None


def test_row_accepts_is_the_rule_of_the_row() -> None:
    up, down = Row(Direction.UP, 1, (45,)), Row(Direction.DOWN, 100, (45,))
    assert [c for c in range(2, 100) if up.accepts(c, 10)] == [35, *range(46, 100)]
    assert [c for c in range(2, 100) if down.accepts(c, 10)] == [*range(2, 45), 55]


def test_the_play_must_be_by_the_player_to_act() -> None:
    state = started()
    rejected(state, CardPlayed(at_ms=1, row=0, card=40, seat=1), "not_your_turn")
    rejected(state, CardPlayed(at_ms=1, row=0, card=40, seat=9), "bad_seat")
    assert play(state, 0, 40, seat=0).plays[-1].seat == 0
    assert play(state, 0, 40).plays[-1].seat == 0  # no seat: the player to act


def test_host_entry_is_a_play_like_the_cameras() -> None:
    state = started()
    a = ok(state, CardEntered(at_ms=10, row=0, card=40))
    b = ok(state, CardPlayed(at_ms=10, row=0, card=40))
    assert a == b
    assert CardEntered.source is Source.HOST and CardPlayed.source is Source.CAMERA
    rejected(state, CardEntered(at_ms=10, row=2, card=100), "bad_card")


# --- hidden hands and the box's own deal ------------------------------------------------


def test_hidden_hands_keep_counts_only() -> None:
    state = play(started(), 0, 40)
    assert state.hands is None and state.draw_pile is None
    assert state.hand_counts == (5, 6, 6) and state.played == frozenset({40})


def test_in_a_dealt_game_the_card_must_be_in_the_hand() -> None:
    state = dealt([[10, 20, 30, 40, 50, 60], [11, 21, 31, 41, 51, 61],
                   [12, 22, 32, 42, 52, 62]])
    rej = rejected(state, CardPlayed(at_ms=1, row=0, card=11), "not_in_hand")
    assert "Ann" in rej.reason
    state = play(state, 0, 10)
    assert state.hands is not None and state.hands[0] == (20, 30, 40, 50, 60)


def test_a_player_with_no_cards_cannot_play() -> None:
    state = with_draw(started(1, rules=Rules(interpretations=Interpretations(
        empty_hand_ends_turn=False))), 0)
    state = dataclasses.replace(state, players=(dataclasses.replace(state.players[0],
                                                                    hand_count=1),))
    state = play(state, 0, 50)
    rejected(state, CardPlayed(at_ms=10_000, row=0, card=60), "no_cards")


# --- the minimum and the end of a turn -----------------------------------------------------


def test_at_least_two_cards_a_turn() -> None:
    state = play(started(), 0, 10)
    rej = rejected(state, TurnEnded(at_ms=1000, seat=0), "below_minimum")
    assert rej.reason == "1 of the 2 cards this turn needs played"
    assert state.min_to_play == 2 and not state.minimum_met
    assert end_turn(play(state, 0, 20)).to_act == 1


def test_expert_at_least_three_cards_a_turn() -> None:
    state = play(play(started(variant="expert"), 0, 10), 0, 20)
    assert state.min_to_play == 3
    rejected(state, TurnEnded(at_ms=1000, seat=0), "below_minimum")
    assert end_turn(play(state, 0, 30)).to_act == 1


def test_more_than_the_minimum_may_be_played() -> None:
    state = started()
    for i, c in enumerate((10, 20, 30, 40, 50)):
        state = play(state, i % 2, c)
    assert end_turn(state).turn == 2


def test_one_card_a_turn_once_the_draw_pile_is_empty() -> None:
    for variant in ("standard", "expert"):
        state = with_draw(started(variant=variant), 0)
        assert state.min_to_play == 1
        state = end_turn(play(state, 0, 10))
        assert state.to_act == 1


def test_the_empty_pile_minimum_is_settable() -> None:
    state = with_draw(started(rules=Rules(min_play_empty_pile=2)), 0)
    assert state.min_to_play == 2


def test_only_the_player_to_act_ends_the_turn() -> None:
    state = play(play(started(), 0, 10), 0, 20)
    rejected(state, TurnEnded(at_ms=1000, seat=1), "not_your_turn")
    rejected(state, TurnEnded(at_ms=1000, seat=5), "bad_seat")


def test_drawing_back_up_at_the_end_of_a_turn() -> None:
    state = play(play(play(started(), 0, 10), 0, 20), 2, 90)
    assert state.hand_counts == (3, 6, 6) and state.draw_count == 80
    state = end_turn(state)
    assert state.hand_counts == (6, 6, 6) and state.draw_count == 77
    assert state.cards_left == 95


def test_drawing_only_while_the_pile_lasts() -> None:
    state = with_draw(play(play(play(started(), 0, 10), 0, 20), 2, 90), 2)
    state = end_turn(state)
    assert state.hand_counts == (5, 6, 6) and state.draw_count == 0
    assert state.min_to_play == 1


def test_a_dealt_game_draws_from_the_top_of_the_pile() -> None:
    state = dealt([[10, 20, 30, 40, 50, 60, 70, 80]],
                  pile=[c for c in range(99, 1, -1) if c % 10 or c == 90])
    state = end_turn(play(play(state, 0, 10), 0, 20))
    assert state.hands == ((30, 40, 50, 60, 70, 80, 98, 99),)
    assert state.draw_pile is not None and state.draw_pile[0] == 97


def test_a_player_with_no_cards_is_skipped() -> None:
    state = with_draw(started(3), 0)
    players = tuple(dataclasses.replace(p, hand_count=c)
                    for p, c in zip(state.players, (6, 0, 6), strict=True))
    state = dataclasses.replace(state, players=players)
    state = end_turn(play(state, 0, 10))
    assert state.to_act == 2


def test_playing_out_the_hand_ends_the_turn_by_itself() -> None:
    state = with_draw(started(2), 0)
    players = tuple(dataclasses.replace(p, hand_count=c)
                    for p, c in zip(state.players, (2, 3), strict=True))
    state = dataclasses.replace(state, players=players)
    state = play(play(state, 0, 10), 0, 20)
    assert state.to_act == 1 and state.played_this_turn == 0 and state.turn == 2


def test_playing_out_the_hand_waits_for_the_button_when_switched_off() -> None:
    rules = Rules(interpretations=Interpretations(empty_hand_ends_turn=False))
    state = with_draw(started(2, rules=rules), 0)
    players = tuple(dataclasses.replace(p, hand_count=c)
                    for p, c in zip(state.players, (1, 3), strict=True))
    state = play(dataclasses.replace(state, players=players), 0, 10)
    assert state.to_act == 0 and state.minimum_met
    assert end_turn(state).to_act == 1


# --- the end ---------------------------------------------------------------------------------


def test_cannot_play_ends_the_game_and_counts_the_cards_left() -> None:
    state = play(started(), 0, 10)
    state = ok(state, CannotPlay(at_ms=1000, seat=0))
    assert state.phase is Phase.OVER
    out = outcome(state)
    assert out is not None and out.reason is EndReason.CANNOT_PLAY
    assert state.cards_left == 97 and out.scores == (97, 97, 97) and out.winners == ()
    assert verdict(state) is Verdict.LOSS
    assert legal_actions(state) == ()
    rejected(state, CardPlayed(at_ms=2000, row=0, card=20), "game_over")


def test_cannot_play_only_by_the_player_to_act_and_below_the_minimum() -> None:
    state = started()
    rejected(state, CannotPlay(at_ms=1, seat=1), "not_your_turn")
    state = play(play(state, 0, 10), 0, 20)
    rejected(state, CannotPlay(at_ms=1000, seat=0), "minimum_played")


def test_in_a_dealt_game_cannot_play_is_refused_while_a_card_fits() -> None:
    state = dealt([[10, 20, 30, 40, 50, 60], [11, 21, 31, 41, 51, 61],
                   [12, 22, 32, 42, 52, 62]])
    rej = rejected(state, CannotPlay(at_ms=1, seat=0), "can_play")
    assert "can still go on" in rej.reason
    off = Rules(interpretations=Interpretations(cannot_play_checked_in_dealt_games=False))
    state = dealt([[10, 20, 30, 40, 50, 60], [11, 21, 31, 41, 51, 61],
                   [12, 22, 32, 42, 52, 62]], rules=off)
    assert ok(state, CannotPlay(at_ms=1, seat=0)).phase is Phase.OVER


def test_fewer_than_ten_left_every_player_wins() -> None:
    state = dataclasses.replace(with_draw(started(3), 0), players=tuple(
        dataclasses.replace(p, hand_count=c) for p, c in zip(started(3).players, (4, 3, 2),
                                                            strict=True)))
    state = ok(state, CannotPlay(at_ms=1, seat=0))
    out = outcome(state)
    assert out is not None and out.winners == (0, 1, 2) and out.scores == (9, 9, 9)
    assert verdict(state) is Verdict.WIN
    assert summary(state)["outcome"]["text_en"] == VERDICT_TEXT[Verdict.WIN][1]


def test_ten_left_is_a_loss() -> None:
    state = dataclasses.replace(with_draw(started(2), 0), players=tuple(
        dataclasses.replace(p, hand_count=5) for p in started(2).players))
    state = ok(state, CannotPlay(at_ms=1, seat=0))
    assert verdict(state) is Verdict.LOSS and outcome(state) is not None
    assert state.outcome is not None and state.outcome.winners == ()


def test_all_98_played_super_winners_and_the_expert_suggestion() -> None:
    state = with_rows(with_draw(started(1), 0), 1, 1, 100, 100)
    state = dataclasses.replace(
        state, players=(dataclasses.replace(state.players[0], hand_count=1),),
        played=frozenset(range(3, 100)))
    state = play(state, 1, 2)
    assert state.phase is Phase.OVER and state.cards_left == 0
    out = outcome(state)
    assert out is not None and out.reason is EndReason.ALL_PLAYED and out.winners == (0,)
    assert verdict(state) is Verdict.SUPER_WIN
    s = summary(state)["outcome"]
    assert s["suggest_expert"] and SUGGEST_EXPERT_TEXT[1] in s["text_en"]
    assert SUGGEST_EXPERT_TEXT[0] in s["text_zh"]


def test_no_expert_suggestion_after_an_expert_super_win() -> None:
    state = with_draw(started(1, variant="expert"), 0)
    state = dataclasses.replace(
        state, players=(dataclasses.replace(state.players[0], hand_count=1),),
        played=frozenset(range(3, 100)))
    state = play(state, 0, 2)
    assert verdict(state) is Verdict.SUPER_WIN and not summary(state)["outcome"]["suggest_expert"]


def test_the_host_ends_the_game_early() -> None:
    rejected(initial_state(), EndGame(at_ms=0), "wrong_phase")
    state = ok(started(), EndGame(at_ms=5))
    assert state.outcome is not None and state.outcome.reason is EndReason.HOST_ENDED
    assert verdict(state) is Verdict.LOSS
    off = Rules(interpretations=Interpretations(host_end_is_judged=False))
    state = ok(started(rules=off), EndGame(at_ms=5))
    assert verdict(state) is Verdict.NOT_JUDGED and summary(state)["outcome"]["winners"] == []


# --- house rules ---------------------------------------------------------------------------


def test_the_host_overrides_an_illegal_play_as_a_house_rule() -> None:
    state = with_rows(started(), 45, 1, 100, 100)
    rejected(state, CardPlayed(at_ms=1, row=0, card=37), "illegal_play")
    after = ok(state, HouseRulePlay(at_ms=2, row=0, card=37))
    assert after.tops[0] == 37 and after.plays[-1].house_rule
    assert after.played_this_turn == 1
    assert summary(after)["house_rule_plays"] == 1


def test_a_house_rule_is_only_for_an_illegal_play() -> None:
    state = started()
    rejected(state, HouseRulePlay(at_ms=1, row=0, card=37), "not_illegal")
    state = play(state, 0, 40)
    rejected(state, HouseRulePlay(at_ms=200, row=0, card=40), "card_already_played")


def test_a_house_rule_play_need_not_count_towards_the_minimum() -> None:
    rules = Rules(interpretations=Interpretations(house_rule_plays_count=False))
    state = with_rows(started(rules=rules), 45, 1, 100, 100)
    state = ok(state, HouseRulePlay(at_ms=2, row=0, card=37))
    assert state.played_this_turn == 0 and state.hand_counts[0] == 5


def test_a_house_rule_play_must_be_in_the_hand_of_a_dealt_game() -> None:
    state = dealt([[10, 20, 30, 40, 50, 60, 70], [11, 21, 31, 41, 51, 61, 71]])
    state = play(state, 0, 30)
    rejected(state, HouseRulePlay(at_ms=1000, row=0, card=21), "not_in_hand")
    rejected(state, HouseRulePlay(at_ms=1000, row=0, card=20), "not_illegal")  # 10 back
    assert ok(state, HouseRulePlay(at_ms=1000, row=0, card=10)).tops[0] == 10


# --- legal actions ---------------------------------------------------------------------------


def test_legal_actions_of_a_dealt_game() -> None:
    state = dealt([[10, 20, 30, 40, 50, 60, 70], [11, 21, 31, 41, 51, 61, 71]])
    acts = legal_actions(state)
    plays = {(a.row, a.card) for a in acts if isinstance(a, CardPlayed)}
    assert plays == {(r, c) for r in range(4) for c in (10, 20, 30, 40, 50, 60, 70)}
    assert CannotPlay(at_ms=0, seat=0) not in acts and TurnEnded(at_ms=0, seat=0) not in acts
    state = play(play(state, 0, 50), 2, 20)
    acts = legal_actions(state)
    assert TurnEnded(at_ms=state.now_ms, seat=0) in acts
    house = {(a.row, a.card) for a in acts if isinstance(a, HouseRulePlay)}
    assert house == {(0, 10), (0, 30), (2, 40), (2, 60), (2, 70)}  # 40 on ↑50, 30 on ↓20: back


def test_stuck_in_a_dealt_game_only_cannot_play_is_left() -> None:
    state = dealt([[14, 15, 16, 17, 18, 19, 20, 21]])
    state = with_rows_dealt(state, (99, 98, 2, 3))
    assert playable(state) == ()
    kinds = {type(a) for a in legal_actions(state)}
    assert kinds == {HouseRulePlay, CannotPlay}


def with_rows_dealt(state: State, tops: tuple[int, ...]) -> State:
    """Rows with these tops, taken out of the draw pile (a dealt game)."""
    assert state.draw_pile is not None
    rows = tuple(dataclasses.replace(r, cards=(t,)) for r, t in zip(state.rows, tops,
                                                                     strict=True))
    pile = tuple(c for c in state.draw_pile if c not in tops)
    return dataclasses.replace(state, rows=rows, played=frozenset(tops), draw_pile=pile,
                               draw_count=len(pile))


def test_legal_actions_of_a_hidden_game_are_every_unplayed_card() -> None:
    state = with_rows(started(), 45, 1, 100, 100)
    plays = {(a.row, a.card) for a in legal_actions(state) if isinstance(a, CardPlayed)}
    assert (0, 35) in plays and (0, 37) not in plays and (1, 45) not in plays
    assert len([p for p in plays if p[0] == 1]) == 97
    assert CannotPlay(at_ms=0, seat=0) in legal_actions(state)


def test_no_timer_runs() -> None:
    assert ENGINE.deadline(started()) is None


# --- rules and events as data ----------------------------------------------------------------


def test_rules_round_trip_through_json() -> None:
    rules = Rules(expert_hand_sizes=(7, 6, 5, 5, 5), interpretations=Interpretations(
        empty_hand_ends_turn=False, host_end_is_judged=False))
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    assert Rules.from_dict({}) == Rules()


@pytest.mark.parametrize(("d", "key"), [
    ({"hand_sizes": [8, 7, 6]}, "hand_sizes"),
    ({"hand_sizes": [8, 7, 1, 6, 6]}, "hand_sizes"),
    ({"hand_sizes": "8"}, "hand_sizes"),
    ({"expert_hand_sizes": [8, 7, 2, 6, 6]}, "expert_hand_sizes"),
    ({"min_play": True}, "min_play"),
    ({"min_play_empty_pile": 0}, "min_play_empty_pile"),
    ({"row_directions": ["up", "sideways"]}, "row_directions"),
    ({"lowest_card": 1}, "lowest_card"),
    ({"colour": 1}, "colour"),
    ({"interpretations": {"empty_hand_ends_turn": 1}}, "empty_hand_ends_turn"),
    ({"interpretations": {"nope": True}}, "nope"),
])
def test_bad_rules_name_the_key(d: dict[str, object], key: str) -> None:
    with pytest.raises(ValueError, match=key):
        Rules.from_dict(d)


def test_every_event_round_trips_through_json() -> None:
    events: list[Event] = [
        new_game(2, hands=[[2, 3, 4, 5, 6, 7, 8], [9, 10, 11, 12, 13, 14, 15]],
                 draw_pile=range(16, 100)),
        new_game(5, "expert", 3),
        CardPlayed(at_ms=1, row=2, card=50), CardPlayed(at_ms=1, row=2, card=50, seat=1),
        CardEntered(at_ms=2, row=0, card=3), HouseRulePlay(at_ms=3, row=1, card=4, seat=0),
        TurnEnded(at_ms=4, seat=1), CannotPlay(at_ms=5, seat=0), EndGame(at_ms=6)]
    assert set(EVENTS.types) == {type(e).type_name for e in events}
    for ev in events:
        assert EVENTS.from_dict(json.loads(json.dumps(ev.to_dict()))) == ev


def test_a_malformed_event_is_rejected() -> None:
    rejected(started(), CardPlayed(at_ms=1, row="0", card=40), "bad_event")  # type: ignore[arg-type]
    rejected(play(started(), 0, 40), CardPlayed(at_ms=1, row=0, card=50), "clock_went_back")
