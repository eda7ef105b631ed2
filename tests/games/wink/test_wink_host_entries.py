"""眨眨眼's host entries under way, as pure values: the grid by hand (:class:`host.GridEntry`)
and the accusation's number and seat (:class:`host.AccusationPick`); random entries keep their
invariants, and every answer the pick offers is one the engine accepts."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from engine import wink
from engine.core import Rejection
from tablekeeper.games.wink import host

NUMBERS = tuple(random.Random(4).sample(range(1, 37), 36))


def _ok(result: wink.State | Rejection) -> wink.State:
    assert not isinstance(result, Rejection), result
    return result


def test_numbers_go_to_the_lit_cell_and_the_light_moves_on() -> None:
    e = host.GridEntry.empty()
    assert e.size == 36 and e.filled == 0 and e.numbers() is None
    e = e.pick(7).pick(7)  # the second 7 is refused: it is in the grid already
    assert e.cells[:2] == (7, None) and e.cursor == 1
    e = e.pick(40).pick(0)  # not numbers of the grid
    assert e.filled == 1
    e = e.at(5).pick(9)
    assert e.cells[5] == 9 and e.cursor == 6  # the next empty cell after 5
    e = e.at(35).pick(11)
    assert e.cells[35] == 11 and e.cursor == 1  # ... wrapping round to the first
    e = e.at(5).pick(10)  # a lit cell's number is replaced; 9 is back on the pad
    assert e.cells[5] == 10 and 9 in e.unused() and 10 not in e.unused()


def test_erase_takes_back_the_last_number() -> None:
    e = host.GridEntry.empty().pick(1).pick(2).pick(3)
    assert e.cursor == 3
    e = e.erase()
    assert e.cells[:3] == (1, 2, None) and e.cursor == 2
    e = e.at(0).erase()  # a lit cell with a number: that one
    assert e.cells[:3] == (None, 2, None) and e.cursor == 0
    assert host.GridEntry.empty().erase() == host.GridEntry.empty()


def test_the_whole_grid_and_the_grid_in_order() -> None:
    e = host.GridEntry.empty()
    for n in NUMBERS:
        e = e.pick(n)
    assert e.complete and e.numbers() == NUMBERS and e.unused() == ()
    assert host.in_order() == tuple(range(1, 37))
    ev = host.event_for(_ok(wink.apply(wink.initial_state(), host.new_game(
        ["a", "b", "c"], ["red", "blue", "green"], "basic_deal", 0, 0))), "grid",
        host.in_order(), 1)
    assert isinstance(ev, wink.GridEntered) and ev.numbers == host.in_order()


def test_the_camera_prefill_leaves_out_numbers_read_twice() -> None:
    seen = {0: 5, 1: 6, 2: 5, 7: 30, 40: 3, 8: 99}
    e = host.GridEntry.empty().pick(30).prefill(seen)
    # 5 read twice, 30 entered already, cell 40 and number 99 off the grid
    assert e.cells[:9] == (30, 6, None, None, None, None, None, None, None)
    assert e.cursor == 2


@given(st.lists(st.tuples(st.sampled_from(["pick", "at", "erase", "prefill"]),
                          st.integers(-2, 40)), max_size=120))
def test_random_entries_never_hold_a_number_twice(steps: list[tuple[str, int]]) -> None:
    e = host.GridEntry.empty()
    rng = random.Random(len(steps))
    for name, arg in steps:
        if name == "pick":
            e = e.pick(arg)
        elif name == "at":
            e = e.at(arg)
        elif name == "erase":
            e = e.erase()
        else:
            e = e.prefill({rng.randrange(36): rng.randrange(1, 37) for _ in range(5)})
        numbers = [c for c in e.cells if c is not None]
        assert len(numbers) == len(set(numbers)) == e.filled
        assert all(1 <= n <= 36 for n in numbers) and 0 <= e.cursor < 36
        assert sorted((*numbers, *e.unused())) == list(range(1, 37))
        if e.complete:
            assert sorted(e.numbers() or ()) == list(range(1, 37))


def _accusing(n: int, seed: int, accuser: int) -> wink.State | None:
    """A game with every player's marker down, then ``accuser``'s accusation by hand."""
    rng = random.Random(seed)
    s = _ok(wink.apply(wink.initial_state(), wink.NewGame(
        at_ms=0, names=tuple(f"p{i}" for i in range(n)),
        colours=tuple(wink.COLOURS)[:n])))
    s = _ok(wink.apply(s, wink.GridEntered(at_ms=1, numbers=tuple(rng.sample(range(1, 37),
                                                                              36)))))
    for k in range(n):
        r, c = s.row_col(rng.choice(s.free_cells()))
        s = _ok(wink.apply(s, wink.MarkerPlacedByHand(at_ms=2 + k, seat=k, row=r, col=c)))
    result = wink.apply(s, wink.AccusationByHand(at_ms=50, seat=accuser % n))
    return None if isinstance(result, Rejection) else result


@given(st.integers(3, 8), st.integers(0, 10_000), st.integers(0, 7), st.booleans())
def test_every_pick_the_screen_offers_is_an_answer_the_engine_takes(
        n: int, seed: int, accuser: int, right: bool) -> None:
    state = _accusing(n, seed, accuser)
    assert state is not None  # n markers down: someone else's always to accuse
    pending = state.pending
    assert pending is not None
    pick = host.AccusationPick().valid(state)
    numbers = pick.numbers(state)
    # the numbers sought by the markers of others; one sought: picked already
    assert set(numbers) == {state.grid[p.marker].number for s, p in enumerate(state.players)
                            if p.marker is not None and s != pending.seat}
    assert (pick.number is not None) == (len(numbers) == 1)
    for number in numbers:
        p = pick.apply(state, "pick_number", number)
        seeker = state.marker_on(state.cell_of_number(number) or 0)
        seats = p.seats(state)
        assert set(seats) == set(range(n)) - {pending.seat, seeker}
        for seat in seats:
            q = p.apply(state, "pick_seat", seat)
            arg = q.answer_arg()
            assert arg == (seat, number)
            ev = host.event_for(state, "accused_right" if right else "accused_wrong", arg, 60)
            assert ev is not None and not isinstance(wink.apply(state, ev), Rejection)
        assert p.apply(state, "pick_seat", pending.seat).seat is None  # never the accuser
    assert pick.apply(state, "pick_number", 99).number == pick.number  # nothing sought: kept
