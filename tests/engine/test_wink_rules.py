"""One test per rule of 眨眨眼 Wink: setup, placing and calling, naming, accusations, the end,
scores and tie-breaks, the camera's confirmations, and every [I] switch both ways."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine.core import Event, Rejection, Source
from engine.wink import (
    COLOURS,
    ENGINE,
    EVENTS,
    HAND_CARDS_CONFIDENCE,
    AccusationByHand,
    AccusationEntered,
    AccusationWithdrawn,
    AccusationWon,
    AreaCard,
    Cell,
    CellFace,
    CellSeen,
    EndGame,
    EndReason,
    GridEntered,
    GridSeen,
    Interpretations,
    MarkerPlaced,
    MarkerPlacedByHand,
    NewGame,
    NoPlacement,
    Origin,
    PartnerNamed,
    Phase,
    PlacementKind,
    Rules,
    State,
    TieBreak,
    apply,
    deadline,
    initial_state,
    legal_actions,
    may_accuse,
    ranking,
    summary,
)

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
#: the grid used here: cell (r, c) holds number r * 6 + c + 1
GRID = tuple(range(1, 37))


def rc(number: int) -> tuple[int, int]:
    """Row and column of ``number`` on GRID."""
    return divmod(number - 1, 6)


def new_game(n: int = 4, start_seat: int = 0, extra_card: bool = False,
             hand_size: int | None = None, at_ms: int = 0) -> NewGame:
    return NewGame(at_ms=at_ms, names=NAMES[:n], colours=tuple(COLOURS)[:n],
                   start_seat=start_seat, extra_card=extra_card, hand_size=hand_size)


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


def started(n: int = 4, rules: Rules | None = None, start_seat: int = 0,
            hand_size: int | None = None) -> State:
    state = ok(initial_state(rules), new_game(n, start_seat, hand_size=hand_size))
    return ok(state, GridSeen(at_ms=0, numbers=GRID))


def place(state: State, seat: int, number: int) -> State:
    row, col = rc(number)
    return ok(state, MarkerPlaced(at_ms=state.now_ms + 10, colour=state.players[seat].colour,
                                  row=row, col=col))


def first_round(state: State, *numbers: int) -> State:
    """Every player in turn places on the given numbers, from the active player on."""
    for number in numbers:
        assert state.active is not None
        state = place(state, state.active, number)
    return state


def interp(**kw: bool) -> Rules:
    return Rules(interpretations=Interpretations(**kw))


def accuse(state: State, accuser: int, accused: int, number: int, right: bool) -> State:
    t = state.now_ms + 10
    return ok(state, AccusationWon(at_ms=t, seat=accuser, margin_us=50),
              AccusationEntered(at_ms=t + 10, accused=accused, number=number, right=right))


# --- setup ------------------------------------------------------------------------------

def test_eight_colours_with_their_chinese_names() -> None:
    assert dict(COLOURS) == {"red": "紅", "yellow": "黃", "blue": "藍", "green": "綠",
                             "brown": "棕", "purple": "紫", "black": "黑", "white": "白"}


@pytest.mark.parametrize(("n", "cards"), [(3, 8), (4, 7), (5, 6), (6, 5), (7, 4), (8, 4)])
def test_hand_sizes_by_player_count_and_four_accusation_cards(n: int, cards: int) -> None:
    state = ok(initial_state(), new_game(n))
    assert state.phase is Phase.LAYOUT
    assert [p.hand for p in state.players] == [cards] * n
    assert [p.accusations for p in state.players] == [4] * n
    assert state.removed == 36 - n * cards
    assert n in HAND_CARDS_CONFIDENCE


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_the_extra_card_with_four_to_seven_players(n: int) -> None:
    state = ok(initial_state(), new_game(n, extra_card=True))
    assert state.hand_size == Rules().hand_size_for(n) + 1 and state.extra_card
    assert state.removed >= 0


@pytest.mark.parametrize("n", [3, 8])
def test_no_extra_card_with_three_or_eight_players(n: int) -> None:
    rejected(initial_state(), new_game(n, extra_card=True), "bad_setup")


def test_the_table_may_say_how_many_cards_it_dealt() -> None:
    state = ok(initial_state(), new_game(5, hand_size=3))
    assert [p.hand for p in state.players] == [3] * 5
    rejected(initial_state(), new_game(5, hand_size=8), "bad_setup")  # 40 > 36
    rejected(initial_state(), new_game(5, hand_size=0), "bad_setup")


@pytest.mark.parametrize("ev", [
    new_game(2), NewGame(at_ms=0, names=(*NAMES, "Ivy"), colours=(*COLOURS, "red")),
    NewGame(at_ms=0, names=NAMES[:3], colours=("red", "red", "blue")),
    NewGame(at_ms=0, names=NAMES[:3], colours=("red", "orange", "blue")),
    NewGame(at_ms=0, names=NAMES[:3], colours=("red", "blue")),
    NewGame(at_ms=0, names=("Ann", " ", "Cat"), colours=("red", "yellow", "blue")),
    new_game(3, start_seat=3),
])
def test_bad_setups_are_rejected(ev: NewGame) -> None:
    rejected(initial_state(), ev, "bad_setup")


def test_the_grid_holds_each_number_once() -> None:
    state = ok(initial_state(), new_game(4))
    rejected(state, GridSeen(at_ms=0, numbers=GRID[:-1]), "bad_grid")
    rejected(state, GridSeen(at_ms=0, numbers=(*GRID[:-1], 1)), "bad_grid")
    rejected(state, GridSeen(at_ms=0, numbers=(0, *GRID[1:])), "bad_grid")
    rejected(state, MarkerPlaced(at_ms=0, colour="red", row=0, col=0), "wrong_phase")


def test_the_grid_by_camera_or_by_hand_starts_the_first_turn() -> None:
    layout = ok(initial_state(), new_game(4, start_seat=2))
    numbers = tuple(reversed(GRID))
    for ev in (GridSeen(at_ms=5, numbers=numbers), GridEntered(at_ms=5, numbers=numbers)):
        state = ok(layout, ev)
        assert state.phase is Phase.PLACE and state.active == 2 and state.turn == 1
        assert [c.number for c in state.grid] == list(numbers)
        assert all(c.face is CellFace.UP for c in state.grid)
    assert GridSeen.source is Source.CAMERA and GridEntered.source is Source.HOST


# --- the first round: place and call ----------------------------------------------------

def test_placing_records_the_marker_the_call_and_the_claim() -> None:
    state = place(started(4), 0, 14)
    p = state.players[0]
    assert p.marker == 13 and p.claims == (14,)
    call = state.call
    assert call is not None and (call.seat, call.number, call.kind) == (0, 14,
                                                                       PlacementKind.CAMERA)
    assert state.active == 1 and state.phase is Phase.PLACE and state.turn == 2


def test_only_the_active_players_marker_may_be_placed() -> None:
    state = started(4)
    rejected(state, MarkerPlaced(at_ms=1, colour="yellow", row=0, col=0), "not_your_turn")
    rejected(state, MarkerPlaced(at_ms=1, colour="white", row=0, col=0), "unknown_marker")
    rejected(state, MarkerPlacedByHand(at_ms=1, seat=2, row=0, col=0), "not_your_turn")
    rejected(state, MarkerPlacedByHand(at_ms=1, seat=9, row=0, col=0), "bad_seat")
    rejected(state, MarkerPlaced(at_ms=1, colour="red", row=6, col=0), "bad_cell")


def test_no_marker_on_a_card_that_has_one() -> None:
    state = place(started(4), 0, 14)
    row, col = rc(14)
    rejected(state, MarkerPlaced(at_ms=20, colour="yellow", row=row, col=col),
             "cell_has_marker")


def test_a_host_entered_placement_waits_for_the_camera() -> None:
    state = started(4)
    row, col = rc(20)
    state = ok(state, MarkerPlacedByHand(at_ms=1, seat=0, row=row, col=col))
    assert state.placements[-1].kind is PlacementKind.HOST and state.unconfirmed == (19,)
    state = ok(state, CellSeen(at_ms=2, row=row, col=col, face="up", number=20,
                               marker="red"))
    assert state.unconfirmed == ()


def test_the_first_round_is_placing_only() -> None:
    state = first_round(started(4), 1, 2, 3)
    assert state.active == 3 and state.phase is Phase.PLACE
    state = place(state, 3, 4)
    assert state.active == 0 and state.phase is Phase.NAME


# --- later rounds: name the partner, then place again ------------------------------------

def test_a_marker_must_be_named_for_before_it_moves() -> None:
    state = first_round(started(3), 1, 2, 3)
    row, col = rc(9)
    rejected(state, MarkerPlaced(at_ms=99, colour="red", row=row, col=col), "name_first")
    rejected(state, NoPlacement(at_ms=99, seat=0), "name_first")


def test_naming_right_scores_the_grid_card_and_the_partners_card() -> None:
    state = first_round(started(3), 1, 2, 3)
    state = ok(state, PartnerNamed(at_ms=99, seat=2, right=True))
    me, partner = state.players[0], state.players[2]
    assert len(me.area) == 1 and me.area[0].number == 1
    assert me.area[0].origin is Origin.GRID_FOUND and me.marker is None
    assert partner.area[0].number == 1 and partner.area[0].origin is Origin.HAND_FOUND
    assert partner.hand == 7 and state.players[1].hand == 8
    assert state.grid[0].face is CellFace.EMPTY
    assert state.phase is Phase.PLACE and state.active == 0  # then place again
    assert state.scores == (5, 4, 5)


def test_naming_wrong_turns_the_card_down_for_good() -> None:
    state = first_round(started(3), 1, 2, 3)
    state = ok(state, PartnerNamed(at_ms=99, seat=1, right=False))
    assert state.grid[0].face is CellFace.DOWN and state.players[0].marker is None
    assert state.players[1].denials == (1,) and state.scores == (4, 4, 4)
    assert state.namings[-1].right is False and state.namings[-1].number == 1
    rejected(state, MarkerPlaced(at_ms=100, colour="red", row=0, col=0), "card_not_up")


def test_the_named_player_is_someone_else_who_holds_a_card() -> None:
    state = first_round(started(3), 1, 2, 3)
    rejected(state, PartnerNamed(at_ms=99, seat=0, right=True), "names_self")
    rejected(state, PartnerNamed(at_ms=99, seat=3, right=True), "bad_seat")
    players = list(state.players)
    players[1] = dataclasses.replace(players[1], hand=0)
    empty = dataclasses.replace(state, players=tuple(players))
    rejected(empty, PartnerNamed(at_ms=99, seat=1, right=True), "empty_hand")
    ok(empty, PartnerNamed(at_ms=99, seat=1, right=False))


def test_a_taken_card_cannot_take_a_marker() -> None:
    state = first_round(started(3), 1, 2, 3)
    state = ok(state, PartnerNamed(at_ms=99, seat=2, right=True))
    rejected(state, MarkerPlaced(at_ms=100, colour="red", row=0, col=0), "card_not_up")


def test_with_no_free_card_the_turn_passes() -> None:
    # three cards left face up, each under a marker; seat 0 names and is left with none free
    state = first_round(started(4), 1, 2, 3, 4)
    grid = tuple(Cell(c.number, CellFace.UP if c.number <= 4 else CellFace.DOWN)
                 for c in state.grid)
    state = dataclasses.replace(state, grid=grid)
    state = ok(state, PartnerNamed(at_ms=99, seat=1, right=False))
    # no free card for seat 0: the turn passed to seat 1, who names
    assert state.placements[-1].cell is None
    assert state.placements[-1].kind is PlacementKind.NONE_FREE
    assert state.active == 1 and state.phase is Phase.NAME


def test_no_placement_by_a_player_holding_every_free_number() -> None:
    state = first_round(started(4), 1, 2, 3, 4)
    grid = tuple(Cell(c.number, CellFace.UP if c.number <= 6 else CellFace.DOWN)
                 for c in state.grid)
    state = ok(dataclasses.replace(state, grid=grid), PartnerNamed(at_ms=99, seat=1,
                                                                   right=False))
    assert state.phase is Phase.PLACE and state.free_cells() == (4, 5)
    players = list(state.players)
    players[0] = dataclasses.replace(players[0], hand=1)
    short = dataclasses.replace(state, players=tuple(players))
    rejected(short, NoPlacement(at_ms=100, seat=0), "can_place")
    rejected(state, NoPlacement(at_ms=100, seat=1), "not_your_turn")
    state = ok(state, NoPlacement(at_ms=100, seat=0))
    assert state.placements[-1].kind is PlacementKind.HOLDS_ALL and state.active == 1


# --- accusations ------------------------------------------------------------------------

def test_an_accusation_makes_the_turn_wait() -> None:
    state = first_round(started(4), 1, 2)  # seat 2 to place
    state = ok(state, AccusationWon(at_ms=50, seat=3, margin_us=50))
    assert state.phase is Phase.ACCUSATION and state.resume is Phase.PLACE
    assert state.pending is not None and state.pending.margin_us == 50
    rejected(state, MarkerPlaced(at_ms=51, colour="blue", row=2, col=2), "accusation_pending")
    rejected(state, AccusationWon(at_ms=51, seat=1), "accusation_pending")
    rejected(state, PartnerNamed(at_ms=51, seat=1, right=True), "accusation_pending")
    state = ok(state, AccusationEntered(at_ms=52, accused=2, number=1, right=False))
    assert state.phase is Phase.PLACE and state.active == 2


def test_a_right_accusation_takes_the_grid_card_and_the_accused_card() -> None:
    state = first_round(started(4), 1, 2)
    state = accuse(state, 3, 2, 1, right=True)  # seat 2 held 1, seat 0's number
    acc = state.players[3]
    assert [(a.number, a.origin) for a in acc.area] == [(1, Origin.GRID_CAUGHT),
                                                        (1, Origin.HAND_CAUGHT)]
    assert acc.accusations == 3 and state.players[2].hand == 6 and state.players[2].area == ()
    assert state.grid[0].face is CellFace.EMPTY
    assert state.players[0].marker == 0  # the seeker's marker stays where it is
    assert state.players[0].area == ()
    assert state.scores == (4, 4, 4, 5)
    last = state.last_accusation
    assert last is not None and last.seeker == 0 and last.right and last.margin_us == 50


def test_a_wrong_accusation_only_spends_the_card() -> None:
    state = first_round(started(4), 1, 2)
    state = accuse(state, 3, 2, 1, right=False)
    assert state.players[3].accusations == 3 and state.players[3].area == ()
    assert state.grid[0].face is CellFace.UP and state.players[2].denials == (1,)
    assert state.scores == (4, 4, 4, 3)


def test_accusing_at_any_moment_including_ones_own_turn() -> None:
    state = first_round(started(4), 1, 2, 3, 4)  # seat 0 names now
    state = accuse(state, 0, 2, 2, right=False)  # seat 0 accuses during its own turn
    assert state.phase is Phase.NAME and state.active == 0


def test_no_accusation_without_cards_or_without_a_seeker() -> None:
    state = started(4)
    rejected(state, AccusationWon(at_ms=1, seat=1), "nobody_to_accuse")
    state = place(state, 0, 1)
    rejected(state, AccusationWon(at_ms=20, seat=0), "nobody_to_accuse")  # only its own
    rejected(state, AccusationWon(at_ms=20, seat=4), "bad_seat")
    rejected(state, AccusationWon(at_ms=20, seat=1, margin_us=-1), "bad_buzz")
    for _ in range(4):
        state = accuse(state, 2, 3, 1, right=False)
    assert state.players[2].accusations == 0 and not may_accuse(state, 2)
    rejected(state, AccusationWon(at_ms=state.now_ms, seat=2), "no_accusation_cards")


def test_whom_an_accusation_may_point_at() -> None:
    state = first_round(started(4), 1, 2)
    state = ok(state, AccusationWon(at_ms=50, seat=3))
    t = 51
    rejected(state, AccusationEntered(at_ms=t, accused=3, number=1, right=True),
             "accuses_self")
    rejected(state, AccusationEntered(at_ms=t, accused=0, number=1, right=True),
             "accuses_seeker")
    rejected(state, AccusationEntered(at_ms=t, accused=1, number=3, right=True),
             "nobody_seeks")
    rejected(state, AccusationEntered(at_ms=t, accused=1, number=37, right=True),
             "bad_number")
    rejected(state, AccusationEntered(at_ms=t, accused=4, number=1, right=True), "bad_seat")


def test_a_player_does_not_accuse_their_own_pair_by_default() -> None:
    state = first_round(started(4), 1, 2)
    state = ok(state, AccusationWon(at_ms=50, seat=0))  # seat 0 may accuse seat 1's pair
    rejected(state, AccusationEntered(at_ms=51, accused=2, number=1, right=True), "own_pair")
    ok(state, AccusationEntered(at_ms=51, accused=2, number=2, right=True))


def test_switch_a_player_may_accuse_their_own_pair() -> None:
    state = first_round(started(4, rules=interp(accuser_may_be_in_pair=True)), 1)
    state = ok(state, AccusationWon(at_ms=50, seat=0),
               AccusationEntered(at_ms=51, accused=2, number=1, right=True))
    assert len(state.players[0].area) == 2 and state.players[0].marker == 0


def test_a_caught_marker_is_taken_back_at_its_owners_next_turn() -> None:
    state = first_round(started(4), 1, 2)
    state = accuse(state, 3, 2, 1, right=True)
    state = first_round(state, 3, 4)
    assert state.active == 0 and state.phase is Phase.PLACE  # no naming: the card is gone
    assert state.players[0].marker is None and 0 in state.unconfirmed


def test_switch_a_caught_marker_goes_back_at_once() -> None:
    state = first_round(started(4, rules=interp(caught_marker_stays=False)), 1, 2)
    state = accuse(state, 3, 2, 1, right=True)
    assert state.players[0].marker is None


def test_catching_the_active_players_pair_skips_their_naming() -> None:
    state = first_round(started(4), 1, 2, 3, 4)
    assert state.phase is Phase.NAME and state.active == 0
    state = accuse(state, 3, 1, 1, right=True)
    assert state.phase is Phase.PLACE and state.active == 0


def test_switch_play_goes_on_with_the_accuser() -> None:
    state = first_round(started(4, rules=interp(accusation_resumes_turn=False)), 1, 2)
    before = state.turn
    state = accuse(state, 3, 2, 1, right=False)
    assert state.active == 3 and state.phase is Phase.PLACE and state.turn == before + 1
    state = place(state, 3, 9)
    assert state.active == 0 and state.phase is Phase.NAME


def test_a_withdrawn_accusation_spends_the_card() -> None:
    state = first_round(started(4), 1, 2)
    state = ok(state, AccusationByHand(at_ms=50, seat=3), AccusationWithdrawn(at_ms=51))
    assert state.players[3].accusations == 3 and state.phase is Phase.PLACE
    last = state.last_accusation
    assert last is not None and last.accused is None and last.card_spent


def test_switch_a_withdrawn_accusation_costs_nothing() -> None:
    state = first_round(started(4, rules=interp(withdrawn_accusation_spends_card=False)), 1)
    state = ok(state, AccusationWon(at_ms=50, seat=3), AccusationWithdrawn(at_ms=51))
    assert state.players[3].accusations == 4


def test_a_yes_after_a_no_is_a_contradiction_recorded() -> None:
    state = first_round(started(4), 1, 2)
    state = accuse(state, 3, 2, 1, right=False)  # seat 2 said it does not hold 1
    state = first_round(state, 3, 4)
    state = ok(state, PartnerNamed(at_ms=state.now_ms, seat=2, right=True))
    assert [(c.seat, c.number, c.kind) for c in state.contradictions] == [(2, 1, "denial")]


def test_switch_a_contradicted_yes_is_rejected() -> None:
    state = first_round(started(4, rules=interp(reject_contradicted_answers=True)), 1, 2)
    state = accuse(state, 3, 2, 1, right=False)
    state = first_round(state, 3, 4)
    rejected(state, PartnerNamed(at_ms=state.now_ms, seat=2, right=True), "contradiction")
    assert PartnerNamed(at_ms=state.now_ms, seat=2, right=True) not in legal_actions(state)


# --- the end ----------------------------------------------------------------------------

def test_one_empty_hand_ends_the_game() -> None:
    state = first_round(started(4, hand_size=1), 1, 2, 3, 4)
    state = ok(state, PartnerNamed(at_ms=99, seat=1, right=True))
    assert state.phase is Phase.OVER and state.outcome is not None
    assert state.outcome.reason is EndReason.HANDS_EMPTY


@pytest.mark.parametrize("n", [7, 8])
def test_more_than_six_players_end_with_two_empty_hands(n: int) -> None:
    state = first_round(started(n, hand_size=1), *range(1, n + 1))
    state = ok(state, PartnerNamed(at_ms=99, seat=1, right=True))
    assert state.phase is Phase.PLACE and state.empty_hands == 1
    state = accuse(state, 5, 2, 2, right=True)
    assert state.outcome is not None and state.outcome.reason is EndReason.HANDS_EMPTY


def test_no_face_up_card_ends_the_game() -> None:
    state = first_round(started(3), 1, 2, 3)
    grid = tuple(Cell(c.number, CellFace.UP if c.number == 1 else CellFace.DOWN)
                 for c in state.grid)
    state = dataclasses.replace(state, grid=grid)
    state = ok(state, PartnerNamed(at_ms=99, seat=1, right=False))
    assert state.outcome is not None and state.outcome.reason is EndReason.GRID_CLEARED


def test_the_host_may_end_the_game() -> None:
    rejected(initial_state(), EndGame(at_ms=0), "wrong_phase")
    state = ok(first_round(started(3), 1), EndGame(at_ms=50))
    assert state.outcome is not None and state.outcome.reason is EndReason.HOST_ENDED
    rejected(state, PartnerNamed(at_ms=60, seat=1, right=True), "game_over")


# --- scores and tie-breaks --------------------------------------------------------------

def with_counts(state: State, *counts: tuple[int, int, int]) -> State:
    """(area cards, accusation cards, hand cards) per seat."""
    players = tuple(dataclasses.replace(
        p, area=tuple(AreaCard(i + 1, Origin.GRID_FOUND) for i in range(area)),
        accusations=acc, hand=hand)
        for p, (area, acc, hand) in zip(state.players, counts, strict=True))
    return dataclasses.replace(state, players=players)


def test_score_is_scoring_area_cards_plus_unused_accusation_cards() -> None:
    state = with_counts(started(3), (5, 2, 1), (3, 4, 1), (0, 0, 8))
    assert state.scores == (7, 7, 0)


@pytest.mark.parametrize(("counts", "winners", "by"), [
    (((5, 2, 1), (2, 4, 0), (1, 1, 1)), (0,), TieBreak.SCORE),
    (((5, 2, 3), (3, 4, 0), (1, 1, 1)), (0,), TieBreak.ACCUSATION_CARDS),
    (((5, 2, 3), (5, 2, 2), (1, 1, 1)), (1,), TieBreak.HAND_CARDS),
    (((5, 2, 2), (5, 2, 2), (1, 1, 1)), (0, 1), TieBreak.SHARED),
])
def test_ties_fewest_accusation_cards_then_fewest_hand_cards(
        counts: tuple[tuple[int, int, int], ...], winners: tuple[int, ...],
        by: TieBreak) -> None:
    state = with_counts(started(3), *counts)
    assert ranking(state) == (winners, by)
    over = ok(state, EndGame(at_ms=1))
    assert over.outcome is not None and over.outcome.winners == winners
    assert over.tie_break is by and over.outcome.scores == state.scores


# --- the camera's confirmations ---------------------------------------------------------

def test_the_camera_confirms_a_host_entry() -> None:
    state = first_round(started(3), 1, 2, 3)
    state = ok(state, PartnerNamed(at_ms=99, seat=1, right=False))
    assert state.unconfirmed == (0,)
    state = ok(state, CellSeen(at_ms=100, row=0, col=0, face="down"))
    assert state.unconfirmed == () and state.mismatches == ()


def test_a_disagreement_is_kept_until_the_camera_agrees() -> None:
    state = first_round(started(3), 1, 2, 3)
    state = ok(state, PartnerNamed(at_ms=99, seat=2, right=True))
    before = (state.grid, state.players)
    state = ok(state, CellSeen(at_ms=100, row=0, col=0, face="up", number=1, marker="red"))
    assert (state.grid, state.players) == before  # never silently resolved
    assert [m.cell for m in state.mismatches] == [0] and state.unconfirmed == (0,)
    m = state.mismatches[0]
    assert m.expected_face is CellFace.EMPTY and m.seen_face == "up"
    state = ok(state, CellSeen(at_ms=101, row=0, col=0, face="empty"))
    assert state.mismatches == () and state.unconfirmed == ()


def test_the_camera_sees_a_wrong_number_or_marker() -> None:
    state = place(started(3), 0, 5)
    row, col = rc(5)
    s1 = ok(state, CellSeen(at_ms=50, row=row, col=col, face="up", number=6, marker="red"))
    s2 = ok(state, CellSeen(at_ms=50, row=row, col=col, face="up", number=5, marker="blue"))
    s3 = ok(state, CellSeen(at_ms=50, row=row, col=col, face="up", marker="red"))
    assert len(s1.mismatches) == 1 and len(s2.mismatches) == 1 and s3.mismatches == ()


def test_bad_camera_cells_are_rejected() -> None:
    rejected(ok(initial_state(), new_game(3)), CellSeen(at_ms=0, row=0, col=0, face="up"),
             "wrong_phase")
    state = started(3)
    rejected(state, CellSeen(at_ms=0, row=0, col=6, face="up"), "bad_cell")
    rejected(state, CellSeen(at_ms=0, row=0, col=0, face="sideways"), "bad_face")
    rejected(state, CellSeen(at_ms=0, row=0, col=0, face="up", marker="pink"),
             "unknown_marker")


# --- the engine seam, events and rules as data ------------------------------------------

def test_no_timer_runs() -> None:
    assert deadline(started(3)) is None and ENGINE.deadline(started(3)) is None


def test_the_engine_seam() -> None:
    assert ENGINE.name == "wink" and (ENGINE.min_players, ENGINE.max_players) == (3, 8)
    state = ENGINE.replay(Rules(), [new_game(3), GridSeen(at_ms=0, numbers=GRID)])
    assert ENGINE.summary(state)["active"] == {"seat": 0, "name": "Ann"}
    json.dumps(summary(state))


def test_legal_actions_in_each_phase() -> None:
    state = started(3)
    acts = legal_actions(state)
    assert len([a for a in acts if isinstance(a, MarkerPlaced)]) == 36
    state = first_round(state, 1, 2, 3)
    acts = legal_actions(state)
    assert PartnerNamed(at_ms=state.now_ms, seat=1, right=True) in acts
    assert PartnerNamed(at_ms=state.now_ms, seat=0, right=True) not in acts
    assert AccusationWon(at_ms=state.now_ms, seat=0) in acts
    state = ok(state, AccusationWon(at_ms=state.now_ms, seat=0))
    acts = legal_actions(state)
    assert AccusationWithdrawn(at_ms=state.now_ms) in acts
    # seat 0 may accuse seat 2 of 2 (seat 1's) or seat 1 of 3 (seat 2's), not its own pair
    entered = {(a.accused, a.number) for a in acts if isinstance(a, AccusationEntered)}
    assert entered == {(2, 2), (1, 3)}


def test_every_event_round_trips_through_json() -> None:
    events: list[Event] = [
        new_game(5, extra_card=True), GridSeen(at_ms=1, numbers=GRID),
        GridEntered(at_ms=1, numbers=GRID), MarkerPlaced(at_ms=2, colour="red", row=1, col=2),
        MarkerPlacedByHand(at_ms=2, seat=1, row=0, col=5), NoPlacement(at_ms=3, seat=2),
        PartnerNamed(at_ms=3, seat=1, right=True), AccusationWon(at_ms=4, seat=2, margin_us=50),
        AccusationByHand(at_ms=4, seat=0), AccusationWithdrawn(at_ms=4),
        AccusationEntered(at_ms=5, accused=1, number=17, right=False),
        CellSeen(at_ms=6, row=1, col=1, face="up", number=8, marker="white"),
        EndGame(at_ms=7),
    ]
    assert {type(e) for e in events} == set(EVENTS.types.values())
    for e in events:
        assert EVENTS.from_dict(json.loads(json.dumps(e.to_dict()))) == e


def test_rules_round_trip_and_name_a_bad_key() -> None:
    rules = Rules(hand_cards=((3, 6), (4, 6), (5, 6), (6, 5), (7, 4), (8, 4)),
                  interpretations=Interpretations(caught_marker_stays=False))
    data = json.loads(json.dumps(rules.to_dict()))
    assert data["hand_cards"]["3"] == 6
    assert Rules.from_dict(data) == rules and Rules.from_dict({}) == Rules()
    with pytest.raises(ValueError, match=r"rules\.colour"):
        Rules.from_dict({"colour": 1})
    with pytest.raises(ValueError, match=r"rules\.hand_cards\.4"):
        Rules.from_dict({"hand_cards": {"3": 8, "4": 10, "5": 6, "6": 5, "7": 4, "8": 4}})
    with pytest.raises(ValueError, match=r"rules\.hand_cards"):
        Rules.from_dict({"hand_cards": {"3": 8}})
    with pytest.raises(ValueError, match=r"rules\.interpretations\.nope"):
        Rules.from_dict({"interpretations": {"nope": True}})
    with pytest.raises(ValueError, match=r"rules\.accusation_cards"):
        Rules.from_dict({"accusation_cards": "4"})
    with pytest.raises(ValueError, match=r"rules\.extra_card_players"):
        Rules.from_dict({"extra_card_players": 4})
