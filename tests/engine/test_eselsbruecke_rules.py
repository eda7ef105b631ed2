"""One test per rule of 驢橋 Eselsbrücke: setup, stories, the deal, the recall and its clock,
special cases 1 and 2, penalties, stop tiles, the end; and each [I] switch."""

from __future__ import annotations

import dataclasses
from itertools import count

import pytest

from engine.core import Event, Rejection, Source
from engine.eselsbruecke import (
    COLOURS,
    ENGINE,
    EVENTS,
    STOP,
    UNKNOWN,
    AnswerGiven,
    AnswerTimeUp,
    EndGame,
    EndReason,
    GuessResult,
    GuessRight,
    GuessWrong,
    Interpretations,
    NewGame,
    NextRound,
    Phase,
    Rules,
    Seat,
    State,
    StoryTold,
    TileEntered,
    TilesDealt,
    TileSeen,
    TileWithdrawn,
    apply,
    deadline,
    initial_state,
    legal_actions,
    recalled_slot,
    summary,
    winners,
)

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
_ids = count()


def new_game(n: int = 4, side: str = "standard", start: int = 0, **kw: object) -> NewGame:
    return NewGame(at_ms=0, names=NAMES[:n], colours=tuple(COLOURS)[:n], side=side,
                   start_seat=start, **kw)  # type: ignore[arg-type]


def ok(state: State, *events: Event) -> State:
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


def start(n: int = 4, side: str = "standard", first: int = 0, rules: Rules | None = None,
          **kw: object) -> State:
    return ok(initial_state(rules), new_game(n, side, first, **kw))


def tell(state: State) -> State:
    """The storyteller lays the round's tiles (fresh ids) and tells the story."""
    assert state.phase is Phase.STORY
    t = state.now_ms
    for _ in range(state.to_draw):
        state = ok(state, TileSeen(at_ms=t, tile=f"x{next(_ids)}"))
    return ok(state, StoryTold(at_ms=t))


def story_rounds(state: State, rounds: int = 2) -> State:
    """Every seat tells its story in each of ``rounds`` rounds without recall (rounds 1-2)."""
    for _ in range(rounds):
        while state.phase is Phase.STORY:
            state = tell(state)
        assert state.phase is Phase.ROUND_OVER
        state = ok(state, NextRound(at_ms=state.now_ms))
    return state


def at_recall(n: int = 4, rules: Rules | None = None, first: int = 0, **kw: object) -> State:
    """Round 3, the start player has told their story and dealt round 1's slot."""
    state = tell(story_rounds(start(n, first=first, rules=rules, **kw)))  # type: ignore[arg-type]
    assert state.phase is Phase.DEAL
    return ok(state, TilesDealt(at_ms=state.now_ms))


def with_piles(state: State, *piles: tuple[str, ...]) -> State:
    seats = tuple(dataclasses.replace(s, pile=p) for s, p in zip(state.seats, piles,
                                                                   strict=True))
    return dataclasses.replace(state, seats=seats)


def right(state: State, holder: int, tile: str | None = None) -> State:
    assert state.to_act is not None
    return ok(state, GuessRight(at_ms=state.now_ms + 1000, seat=state.to_act, holder=holder,
                                tile=tile))


def wrong(state: State) -> State:
    assert state.to_act is not None
    return ok(state, GuessWrong(at_ms=state.now_ms + 1000, seat=state.to_act))


def time_up(state: State) -> State:
    assert state.deadline_ms is not None
    return ok(state, AnswerTimeUp(at_ms=state.deadline_ms))


# --- setup ---------------------------------------------------------------------------------


def test_setup_gives_each_seat_a_face_down_base_tile_and_the_start_player_begins() -> None:
    state = start(5, first=3)
    assert [s.pile for s in state.seats] == [(UNKNOWN,)] * 5
    assert state.scores == (1,) * 5
    assert state.bag == 180 - 5 and state.stops_left == 30
    assert state.phase is Phase.STORY and state.round == 1 and state.teller == 3
    assert state.to_draw == 3


@pytest.mark.parametrize("n", [2, 7])
def test_three_to_six_seats(n: int) -> None:
    names = tuple(f"P{i}" for i in range(n))
    ev = NewGame(at_ms=0, names=names, colours=("red",) * n, side="standard", start_seat=0)
    rejected(initial_state(), ev, "bad_setup")


def test_a_seat_may_be_a_team_of_two_but_not_three() -> None:
    state = start(3, members=(("Ann", "Al"), ("Ben",), ("Cat", "Cy")))
    assert state.seats[0].members == ("Ann", "Al")
    rejected(initial_state(), new_game(3, members=(("a", "b", "c"), ("d",), ("e",))),
             "bad_setup")
    rejected(initial_state(), new_game(3, members=(("a",), ("d",))), "bad_setup")


def test_setup_rejects_bad_side_colour_and_start_seat() -> None:
    rejected(initial_state(), new_game(3, side="back"), "bad_setup")
    rejected(initial_state(), new_game(3, start=3), "bad_setup")
    ev = NewGame(at_ms=0, names=NAMES[:3], colours=("red", "red", "blue"), side="standard",
                 start_seat=0)
    rejected(initial_state(), ev, "bad_setup")


def test_standard_side_draws_3_3_4_5_then_none_and_recalls_two_rounds_back() -> None:
    state = start(3)
    assert state.draws == (3, 3, 4, 5, 0, 0) and state.rounds == 6
    assert state.penalties == (1, 1, 2, 2)
    assert [recalled_slot(state.draws, 2, r) for r in range(1, 7)] == [None, None, 0, 1, 2, 3]


def test_advanced_side_has_seven_rounds_stories_1_to_5_recall_3_to_7() -> None:
    state = start(3, side="advanced")
    assert state.rounds == 7 and sum(1 for d in state.draws if d) == 5
    assert len(state.penalties) == 5
    assert [recalled_slot(state.draws, 2, r) for r in range(1, 8)] == \
        [None, None, 0, 1, 2, 3, 4]


def test_the_unconfirmed_values_are_settable_at_setup() -> None:
    state = start(3, draws=(2, 2, 3, 0, 0), penalties=(1, 3, 7))
    assert state.to_draw == 2 and state.penalties == (1, 3, 7)
    rejected(initial_state(), new_game(3, penalties=(1, 2)), "bad_setup")
    rules = Rules.from_dict({"standard_penalties": [2, 2, 3, 3], "answer_ms": 20000})
    state = start(3, rules=rules)
    assert state.penalties == (2, 2, 3, 3)


def test_rules_from_dict_names_the_bad_key() -> None:
    with pytest.raises(ValueError, match=r"rules\.answer_ms"):
        Rules.from_dict({"answer_ms": "15"})
    with pytest.raises(ValueError, match=r"rules\.bogus"):
        Rules.from_dict({"bogus": 1})
    with pytest.raises(ValueError, match="standard_penalties"):
        Rules.from_dict({"standard_penalties": [1, 1]})
    with pytest.raises(ValueError, match=r"interpretations\.stop_tile_is_kept"):
        Rules.from_dict({"interpretations": {"stop_tile_is_kept": 1}})
    assert Rules.from_dict(Rules().to_dict()) == Rules()


# --- stories ---------------------------------------------------------------------------------


def test_storytellers_go_clockwise_from_the_start_player_every_round() -> None:
    state = start(4, first=2)
    tellers = []
    while state.phase is Phase.STORY:
        tellers.append(state.teller)
        state = tell(state)
    assert tellers == [2, 3, 0, 1]
    assert state.phase is Phase.ROUND_OVER
    state = ok(state, NextRound(at_ms=0))
    assert state.round == 2 and state.teller == 2


def test_a_story_takes_exactly_the_rounds_tiles() -> None:
    state = start(3)
    state = ok(state, TileSeen(at_ms=0, tile="t001"), TileSeen(at_ms=0, tile="t002"))
    rejected(state, StoryTold(at_ms=0), "story_incomplete")
    state = ok(state, TileEntered(at_ms=0, tile=None))
    rejected(state, TileSeen(at_ms=0, tile="t003"), "story_full")
    assert state.laid == ("t001", "t002", UNKNOWN) and state.bag == 180 - 3 - 3


def test_a_tile_cannot_be_drawn_twice_and_the_host_can_correct_a_misread() -> None:
    state = ok(start(3), TileSeen(at_ms=0, tile="t001"))
    rejected(state, TileSeen(at_ms=0, tile="t001"), "tile_already_played")
    rejected(state, TileSeen(at_ms=0, tile=STOP), "bad_tile")
    rejected(state, TileWithdrawn(at_ms=0, tile="t009"), "tile_not_laid")
    state = ok(state, TileWithdrawn(at_ms=0, tile="t001"), TileEntered(at_ms=0, tile="t100"))
    assert state.laid == ("t100",) and "t001" not in state.played


def test_the_story_goes_face_down_to_the_next_free_slot() -> None:
    state = story_rounds(start(3))
    assert all(len(s.slots) == 2 for s in state.seats)
    assert [len(t) for t in state.seats[0].slots] == [3, 3]
    state = tell(state)
    assert len(state.seats[0].slots) == 3 and len(state.seats[0].slots[2]) == 4
    assert state.phase is Phase.DEAL and state.recall_slot == 0


# --- the deal ------------------------------------------------------------------------------


def test_the_recalled_slot_is_dealt_one_each_clockwise_leftovers_to_the_storyteller() -> None:
    state = at_recall(3)  # round 1's slot: 3 tiles, 2 others
    assert [s.held for s in state.seats] == [1, 1, 1]
    state = at_recall(3, draws=(4, 4, 4, 0), penalties=(1, 1, 1))
    assert [s.held for s in state.seats] == [2, 1, 1]


def test_with_more_players_than_tiles_the_last_seats_get_none_and_listen() -> None:
    state = at_recall(6, first=1)  # teller 1; 3 tiles for 5 others: 2, 3, 4 get one
    assert [s.held for s in state.seats] == [0, 0, 1, 1, 1, 0]
    assert [s.listening for s in state.seats] == [True, False, False, False, False, True]


def test_rounds_without_stories_start_with_the_deal() -> None:
    state = story_rounds(start(3), rounds=2)
    for _ in range(2):  # rounds 3 and 4: all right
        while state.phase is not Phase.ROUND_OVER:
            if state.phase is Phase.STORY:
                state = tell(state)
            elif state.phase is Phase.DEAL:
                state = ok(state, TilesDealt(at_ms=state.now_ms))
            else:
                holder = next(i for i, s in enumerate(state.seats)
                              if s.held and i != state.to_act)
                state = right(state, holder)
        state = ok(state, NextRound(at_ms=state.now_ms))
    assert state.round == 5 and state.phase is Phase.DEAL and state.recall_slot == 2


# --- the recall ----------------------------------------------------------------------------


def test_guessing_starts_left_of_the_storyteller_and_skips_them() -> None:
    state = at_recall(4, first=2)  # tiles dealt to 3, 0, 1
    assert state.teller == 2 and state.to_act == 3
    state = wrong(state)
    assert state.to_act == 0
    state = wrong(state)
    assert state.to_act == 1
    state = right(state, holder=3)
    assert state.to_act == 1  # 3 and 0 are out, the storyteller is skipped: 1 again


def test_the_clock_runs_15_s_from_each_turn() -> None:
    state = at_recall(4)
    t = state.now_ms
    assert state.deadline_ms == t + 15_000
    d = deadline(state)
    assert d is not None and d.event == AnswerTimeUp(at_ms=t + 15_000)
    assert d.event.source is Source.CLOCK
    state = right(state, holder=2)
    assert state.deadline_ms == state.now_ms + 15_000


def test_a_right_guess_takes_the_tile_face_up() -> None:
    state = at_recall(4)
    tile = state.recall_tiles[0]
    state = right(state, holder=3, tile=tile)
    assert state.seats[1].face_up == (tile,) and state.seats[3].held == 0
    assert state.named == (tile,)
    assert state.guesses[-1].result is GuessResult.RIGHT


def test_a_guesser_cannot_name_their_own_tile_or_a_tile_nobody_holds() -> None:
    state = at_recall(4)
    rejected(state, GuessRight(at_ms=1, seat=1, holder=1), "own_tile")
    rejected(state, GuessRight(at_ms=1, seat=1, holder=0), "holder_has_no_tile")
    rejected(state, GuessRight(at_ms=1, seat=1, holder=9), "bad_seat")
    rejected(state, GuessRight(at_ms=1, seat=2, holder=3), "not_your_turn")
    rejected(state, GuessRight(at_ms=1, seat=1, holder=3, tile="nope"), "bad_tile")


def test_a_wrong_guess_puts_the_guesser_out_for_this_story() -> None:
    state = wrong(at_recall(4))
    assert state.seats[1].out and state.to_act == 2


def test_fifteen_seconds_without_an_answer_puts_the_guesser_out() -> None:
    state = at_recall(4)
    assert state.deadline_ms is not None
    rejected(state, AnswerTimeUp(at_ms=state.deadline_ms - 1), "too_early")
    rejected(state, GuessWrong(at_ms=state.deadline_ms, seat=1), "deadline_passed")
    state = time_up(state)
    assert state.seats[1].out and state.guesses[-1].result is GuessResult.TIME_UP


def test_the_seat_button_stops_the_clock_and_the_host_judges_later() -> None:
    state = at_recall(4)
    state = ok(state, AnswerGiven(at_ms=state.now_ms + 5_000, seat=1))
    assert state.answered and deadline(state) is None
    rejected(state, AnswerGiven(at_ms=state.now_ms, seat=1), "already_answered")
    rejected(state, AnswerTimeUp(at_ms=state.now_ms + 60_000), "no_timer")
    state = ok(state, GuessRight(at_ms=state.now_ms + 60_000, seat=1, holder=2))
    assert state.to_act == 2 and not state.answered


def test_guessing_goes_round_again_and_again_and_a_lone_player_guesses_again() -> None:
    state = at_recall(4)  # 3 tiles at seats 1, 2, 3
    state = wrong(wrong(state))  # 1 and 2 out; 3 is alone
    assert state.to_act == 3
    state = right(state, holder=1)
    assert state.to_act == 3  # the same player again
    state = right(state, holder=2)  # the only keyword left is seat 3's own: special case 2
    r = state.last_recall
    assert r is not None and r.failed == (1, 2) and len(r.named) == 3
    assert state.seats[3].score == 4


def test_the_story_ends_when_everyone_is_out() -> None:
    state = at_recall(4)
    state = wrong(wrong(wrong(state)))
    assert state.teller == 1 and state.phase is Phase.STORY
    r = state.last_recall
    assert r is not None and r.failed == (1, 2, 3) and r.unnamed == 3 and not r.stop_tile
    assert state.discarded == 3 + 3  # 3 unnamed tiles leave play, 3 base tiles discarded


# --- special cases -------------------------------------------------------------------------


def test_special_case_1_a_listener_waits_until_someone_fails() -> None:
    state = at_recall(6)  # teller 0; tiles at 1, 2, 3; 4 and 5 listen
    state = right(state, holder=2)
    assert state.to_act == 2
    state = right(state, holder=3)
    assert state.to_act == 3  # not the listeners: nobody has failed
    state = right(state, holder=1)
    assert state.phase is Phase.STORY
    r = state.last_recall
    assert r is not None and r.failed == () and r.stop_tile
    assert {g.seat for g in r.penalties} == set()


def test_special_case_1_a_listener_joins_after_a_failure() -> None:
    state = at_recall(6)
    state = right(state, holder=2)  # seat 1 right
    state = wrong(state)  # seat 2 wrong: the listeners join
    assert state.to_act == 3
    state = wrong(state)
    assert state.to_act == 4 and state.seats[4].held == 0 and not state.bridges


def test_special_case_1_the_bridge_when_everyone_before_failed() -> None:
    state = at_recall(6)
    state = wrong(wrong(wrong(state)))  # 1, 2, 3 wrong: no keyword named
    assert state.to_act == 4 and state.bridges == ((1, 4),)
    assert state.seats[4].held == 1 and state.seats[1].held == 0
    state = wrong(state)
    assert state.to_act == 5 and state.bridges == ((1, 4), (2, 5))


def test_special_case_1_only_the_first_guessers_tile_under_the_strict_reading() -> None:
    rules = Rules(interpretations=Interpretations(bridge_from_earliest_holder=False))
    state = at_recall(6, rules=rules)
    state = wrong(wrong(wrong(wrong(state))))
    assert state.to_act == 5 and state.bridges == ((1, 4),) and state.seats[5].held == 0


def test_listeners_join_only_when_every_holder_is_out_under_the_other_reading() -> None:
    rules = Rules(interpretations=Interpretations(listeners_join_after_any_failure=False))
    state = at_recall(6, rules=rules)
    state = right(state, holder=2)
    state = wrong(state)  # seat 2 out; seat 3 holds a tile, seat 1 still in
    assert state.to_act == 3
    state = wrong(state)
    assert state.to_act == 1  # the listeners still wait: seat 1 is in (holding none)
    state = wrong(state)
    assert state.to_act == 4


def test_special_case_2_the_holder_of_the_only_keyword_left_scores_it() -> None:
    state = at_recall(4)  # tiles at 1, 2, 3
    state = right(state, holder=2)  # 1 takes 2's
    state = right(state, holder=1)  # 2 names... 1 holds one still
    # only seat 3's keyword is left and it is seat 3's turn: scored at once
    r = state.last_recall
    assert r is not None and r.named and len(r.named) == 3 and r.failed == ()
    assert state.seats[3].score == 2 and state.seats[0].stops == 1


def test_special_case_2_at_once_even_before_the_holders_turn_under_the_other_reading() -> None:
    on_turn = at_recall(5)  # tiles at 1, 2, 3; 4 listens
    on_turn = right(right(on_turn, holder=3), holder=1)
    assert on_turn.to_act == 3  # seat 2 holds the last keyword; seat 3 guesses first
    rules = Rules(interpretations=Interpretations(last_keyword_on_turn=False))
    state = at_recall(5, rules=rules)
    state = right(right(state, holder=3), holder=1)  # seat 2 holds the last one: at once
    assert state.phase is Phase.STORY and state.last_recall is not None
    assert state.last_recall.failed == ()
    assert state.scores == (2, 2, 3, 1, 1)


def test_special_case_2_does_not_score_for_a_player_who_is_out() -> None:
    state = at_recall(4)
    state = wrong(state)  # seat 1 out, holds a tile
    state = right(state, holder=3)  # seat 2 takes seat 3's
    assert state.to_act == 3
    state = right(state, holder=2)  # seat 3 names seat 2's; seat 1's is left, 1 is out
    assert state.to_act == 2
    state = right(state, holder=1)
    assert state.last_recall is not None and state.last_recall.failed == (1,)
    assert state.scores == (1, 0, 3, 2)


# --- after the story -------------------------------------------------------------------------


def test_players_who_never_failed_bank_their_tiles_face_down() -> None:
    state = at_recall(4)
    tiles = state.recall_tiles
    state = right(state, holder=2, tile=tiles[1])  # seat 1
    state = wrong(state)  # seat 2
    state = right(state, holder=1)  # seat 3
    state = right(state, holder=3)  # seat 1 again
    assert state.phase is Phase.STORY
    assert state.seats[1].pile == (UNKNOWN, tiles[1], UNKNOWN)
    assert state.seats[3].pile == (UNKNOWN, UNKNOWN)
    assert state.seats[2].pile == ()  # failed: penalty 1 from the pile


def test_a_failed_player_discards_face_up_tiles_first_then_the_score_pile() -> None:
    rules = Rules(standard_penalties=(2, 2, 2, 2))
    state = at_recall(4, rules=rules)
    state = with_piles(state, ("?",), ("?", "a", "b"), ("?",), ("?",))
    state = right(state, holder=2, tile=state.recall_tiles[0])  # seat 1 wins one face up
    state = wrong(wrong(wrong(state)))  # seats 2, 3, then 1
    r = state.last_recall
    assert r is not None and r.failed == (1, 2, 3)
    pen = {p.seat: p for p in r.penalties}
    assert (pen[1].face_up, pen[1].pile) == (1, 1) and state.seats[1].pile == ("?", "a")
    assert (pen[3].face_up, pen[3].pile) == (0, 1) and state.seats[3].pile == ()


def test_a_stop_tile_stops_the_discard_and_an_empty_pile_costs_nothing() -> None:
    rules = Rules(standard_penalties=(3, 3, 3, 3))
    state = at_recall(4, rules=rules)
    state = with_piles(state, ("?",), ("?", STOP, "a"), (), ("?",))
    state = wrong(wrong(wrong(state)))
    pen = {p.seat: p for p in state.recalls[-1].penalties}
    assert state.seats[1].pile == ("?", STOP) and pen[1].stopped and pen[1].pile == 1
    assert state.seats[2].pile == () and pen[2].pile == 0
    assert state.seats[3].pile == () and pen[3].pile == 1


def test_the_stop_tile_is_discarded_itself_under_the_other_reading() -> None:
    rules = Rules(standard_penalties=(3, 3, 3, 3),
                  interpretations=Interpretations(stop_tile_is_kept=False))
    state = at_recall(4, rules=rules)
    state = with_piles(state, ("?",), ("?", STOP, "a"), (), ("?",))
    state = wrong(wrong(wrong(state)))
    assert state.seats[1].pile == ("?",) and state.discarded_stops == 1


@pytest.mark.parametrize("bank", [True, False])
def test_the_leftover_face_up_tiles_of_a_failed_player(bank: bool) -> None:
    rules = Rules(standard_draws=(4, 0), standard_penalties=(1,), recall_lag=1,
                  interpretations=Interpretations(failed_bank_leftover_face_up=bank))
    state = ok(initial_state(rules), new_game(3))
    while state.phase is Phase.STORY:
        state = tell(state)
    state = ok(state, NextRound(at_ms=0), TilesDealt(at_ms=0))
    assert [s.held for s in state.seats] == [2, 1, 1]
    state = right(state, holder=0)  # seat 1: one face up
    state = wrong(state)  # seat 2 out
    state = right(state, holder=0)  # seat 1 alone: two face up
    state = wrong(state)  # seat 1 out too
    pen = {p.seat: p for p in state.recalls[-1].penalties}
    if bank:
        assert state.seats[1].pile == (UNKNOWN, UNKNOWN) and pen[1].banked == 1
    else:
        assert state.seats[1].pile == (UNKNOWN,) and pen[1].face_up == 2


def test_a_stop_tile_to_the_storyteller_when_nobody_failed() -> None:
    state = at_recall(3)  # 3 tiles, 2 others: the storyteller keeps one
    assert [s.held for s in state.seats] == [1, 1, 1]
    state = right(right(right(state, holder=0), holder=1), holder=2)
    assert state.phase is Phase.STORY and state.seats[0].pile[-1] == STOP
    assert state.stops_left == 29 and state.seats[0].stops == 1


def test_no_stop_tile_when_the_supply_is_empty() -> None:
    state = dataclasses.replace(at_recall(3), stops_left=0)
    state = right(right(right(state, holder=0), holder=1), holder=2)
    assert STOP not in state.seats[0].pile and not state.recalls[-1].stop_tile


def test_unnamed_tiles_back_to_the_bag_under_the_other_reading() -> None:
    rules = Rules(interpretations=Interpretations(unnamed_tiles_return_to_bag=True))
    state = at_recall(4, rules=rules)
    bag = state.bag
    tiles = state.recall_tiles
    state = wrong(wrong(wrong(state)))
    assert state.bag == bag + 3 and not set(tiles) & state.played


# --- the end -------------------------------------------------------------------------------


def test_most_tiles_wins_ties_more_stop_tiles_then_shared() -> None:
    assert winners((3, 4, 4), (0, 0, 1)) == (2,)
    assert winners((3, 4, 4), (0, 1, 1)) == (1, 2)
    assert winners((5, 4, 4), (0, 3, 3)) == (0,)


def test_the_game_ends_after_the_last_round_with_one_point_per_tile_and_stop_tile() -> None:
    rules = Rules(standard_draws=(2, 0), standard_penalties=(1,), recall_lag=1)
    state = ok(initial_state(rules), new_game(3))
    while state.phase is Phase.STORY:
        state = tell(state)
    state = ok(state, NextRound(at_ms=0))
    for _ in range(3):
        state = ok(state, TilesDealt(at_ms=state.now_ms))
        while state.phase is Phase.GUESS:
            holder = next(i for i, s in enumerate(state.seats) if s.held and i != state.to_act)
            state = right(state, holder)
    assert state.phase is Phase.OVER and state.outcome is not None
    assert state.outcome.reason is EndReason.LAST_ROUND
    assert state.scores == (4, 4, 4) and state.stops == (1, 1, 1)
    assert state.outcome.winners == (0, 1, 2)
    rejected(state, NextRound(at_ms=state.now_ms), "game_over")
    assert summary(state)["outcome"]["stops"] == [1, 1, 1]


def test_end_game_ends_early_and_not_before_setup() -> None:
    rejected(initial_state(), EndGame(at_ms=0), "wrong_phase")
    state = ok(start(3), EndGame(at_ms=5))
    assert state.outcome is not None and state.outcome.reason is EndReason.HOST_ENDED


# --- the seam -----------------------------------------------------------------------------


def test_every_event_round_trips_through_json() -> None:
    events: list[Event] = [
        new_game(3, members=(("a", "b"), ("c",), ("d",)), draws=(3, 3, 0, 0),
                 penalties=(1, 2)),
        TileSeen(at_ms=1, tile="t001"), TileEntered(at_ms=1), TileWithdrawn(at_ms=1, tile="?"),
        StoryTold(at_ms=2), TilesDealt(at_ms=3), AnswerGiven(at_ms=4, seat=1),
        GuessRight(at_ms=5, seat=1, holder=2, tile="t001"), GuessWrong(at_ms=6, seat=2),
        AnswerTimeUp(at_ms=7), NextRound(at_ms=8), EndGame(at_ms=9)]
    assert {type(e) for e in events} == set(EVENTS.types.values())
    for e in events:
        assert EVENTS.from_dict(e.to_dict()) == e


def test_legal_actions_are_accepted_and_the_engine_seam() -> None:
    state = at_recall(4)
    for ev in legal_actions(state):
        assert isinstance(apply(state, ev), State), ev
    assert ENGINE.name == "eselsbruecke" and (ENGINE.min_players, ENGINE.max_players) == (3, 6)
    assert isinstance(state.seats[0], Seat)
    rejected(state, StoryTold(at_ms=state.now_ms), "wrong_phase")
    rejected(state, StoryTold(at_ms=state.now_ms - 1), "clock_went_back")
