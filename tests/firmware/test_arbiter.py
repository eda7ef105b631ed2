"""The first-press arbiter, on a fake clock: winner by edge time, never by callback order."""

from __future__ import annotations

import random
import threading
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.arbiter import Arbiter, ArbiterPhase, Decision
from firmware.config import ArbiterConfig

MS = 1_000_000
US = 1_000
T0 = 1_000_000 * MS  # an arbitrary CLOCK_MONOTONIC instant (1000 s after boot)
CFG = ArbiterConfig()  # settle 10 ms, tie 100 us, lockout 250 ms, debounce 20 ms, stuck 5 s
WAIT = CFG.settle_ns + CFG.tie_window_ns


class FakeClock:
    def __init__(self, now: int = T0) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


def make(seats: int = 8, seed: int = 1, **cfg: float) -> tuple[Arbiter, FakeClock]:
    clock = FakeClock()
    config = ArbiterConfig(**cfg) if cfg else CFG
    return Arbiter(seats, config, rng=random.Random(seed), clock=clock), clock


def press(arb: Arbiter, seat: int, t: int, hold: int = 100 * MS) -> None:
    arb.edge(seat, True, t)
    arb.edge(seat, False, t + hold)


def decide(arb: Arbiter, at: int) -> Decision:
    decision = arb.poll(at)
    assert decision is not None
    return decision


def test_single_press_waits_for_the_settle_window() -> None:
    arb, _ = make()
    arb.arm(T0)
    arb.edge(3, True, T0 + 5 * MS)
    assert arb.poll(T0 + 5 * MS) is None
    assert arb.poll(T0 + 5 * MS + WAIT - 1) is None
    d = decide(arb, T0 + 5 * MS + WAIT)
    assert (d.winner, d.t_ns, d.runner_up, d.margin_us, d.tie) == (3, T0 + 5 * MS, None, None,
                                                                    False)
    assert d.reaction_ms == pytest.approx(5.0)
    assert arb.phase is ArbiterPhase.DECIDED


def test_callback_order_opposite_to_edge_order() -> None:
    arb, _ = make()
    arb.arm(T0)
    # Seat 2's callback arrives first, but seat 1's edge is 300 us earlier.
    arb.edge(2, True, T0 + 1_300 * US)
    arb.edge(1, True, T0 + 1_000 * US)
    d = decide(arb, T0 + 20 * MS)
    assert (d.winner, d.runner_up, d.margin_us) == (1, 2, 300.0)


def test_a_late_callback_inside_the_settle_window_still_wins() -> None:
    arb, _ = make()
    arb.arm(T0)
    arb.edge(2, True, T0 + 1 * MS)
    assert arb.poll(T0 + 1 * MS + WAIT // 2) is None
    arb.edge(5, True, T0 + 900 * US)  # delivered ~6 ms late
    d = decide(arb, T0 + 1 * MS + WAIT)
    assert (d.winner, d.runner_up) == (5, 2)
    assert d.margin_us == 100.0


def test_decision_is_returned_once_and_never_changes() -> None:
    seen: list[Decision] = []
    arb, _ = make()
    arb.on_decision = seen.append
    arb.arm(T0)
    arb.edge(4, True, T0 + 2 * MS)
    d = decide(arb, T0 + 50 * MS)
    arb.edge(1, True, T0 + 1 * MS)  # far later than the settle window: too late to count
    assert arb.poll(T0 + 60 * MS) is None
    assert arb.decision == d and seen == [d]
    arb.disarm()
    assert arb.phase is ArbiterPhase.IDLE and arb.decision == d and arb.poll(T0 + 70 * MS) is None
    arb.arm(T0 + 100 * MS)
    assert arb.decision is None


def test_bounce_trains_do_not_move_or_add_presses() -> None:
    arb, _ = make()
    arb.arm(T0)
    # Seat 1 bounces for 1 ms from its first contact; seat 2 lands in the middle of it.
    t1 = T0 + 10 * MS
    for k in range(6):
        arb.edge(1, k % 2 == 0, t1 + k * 200 * US)
    arb.edge(1, True, t1 + 1_200 * US)
    arb.edge(2, True, t1 + 500 * US)
    d = decide(arb, t1 + 30 * MS)
    assert (d.winner, d.t_ns, d.runner_up, d.margin_us) == (1, t1, 2, 500.0)


def test_release_bounce_of_an_earlier_press_is_not_a_press() -> None:
    arb, _ = make()
    t = T0 - 600 * MS
    arb.edge(1, True, t)
    arb.edge(1, False, T0 + 1 * MS)  # released after arming ...
    arb.edge(1, True, T0 + 1_200 * US)  # ... bouncing
    arb.edge(1, False, T0 + 1_400 * US)
    arb.arm(T0)
    arb.edge(2, True, T0 + 40 * MS)
    d = decide(arb, T0 + 80 * MS)
    assert d.winner == 2 and d.runner_up is None and d.held == (1,)


def test_button_held_across_arming_is_not_a_press_until_pressed_again() -> None:
    arb, _ = make()
    arb.edge(1, True, T0 - 1_000 * MS)
    arb.arm(T0)
    arb.edge(2, True, T0 + 300 * MS)
    arb.edge(1, False, T0 + 100 * MS)
    arb.edge(1, True, T0 + 200 * MS)  # a real second press: 100 ms after the release
    d = decide(arb, T0 + 400 * MS)
    assert (d.winner, d.runner_up, d.held) == (1, 2, (1,))
    assert d.margin_us == 100_000.0


def test_early_press_locks_the_seat_out() -> None:
    arb, _ = make()
    press(arb, 1, T0 - 100 * MS, hold=50 * MS)  # before the card: locked until T0 + 150 ms
    arb.arm(T0)
    press(arb, 1, T0 + 100 * MS)  # locked: restarts the lockout
    status = arb.status(T0 + 110 * MS)
    assert status.locked_out == {1} and status.phase is ArbiterPhase.ARMED
    arb.edge(2, True, T0 + 120 * MS)
    d = decide(arb, T0 + 200 * MS)
    assert (d.winner, d.runner_up, d.locked_out) == (2, None, (1,))


def test_lockout_restarts_with_each_early_press_and_then_expires() -> None:
    arb, _ = make()
    press(arb, 1, T0 - 100 * MS, hold=30 * MS)
    arb.arm(T0)
    press(arb, 1, T0 + 100 * MS, hold=30 * MS)  # locked until T0 + 350 ms
    press(arb, 1, T0 + 300 * MS, hold=30 * MS)  # locked until T0 + 550 ms
    assert arb.poll(T0 + 549 * MS) is None
    assert arb.status(T0 + 549 * MS).locked_out == {1}
    arb.edge(1, True, T0 + 560 * MS)  # now free
    d = decide(arb, T0 + 600 * MS)
    assert (d.winner, d.t_ns, d.locked_out) == (1, T0 + 560 * MS, (1,))


def test_early_press_long_enough_before_arming_does_not_lock() -> None:
    arb, _ = make()
    press(arb, 1, T0 - 260 * MS, hold=30 * MS)
    arb.arm(T0)
    arb.edge(1, True, T0 + 20 * MS)
    d = decide(arb, T0 + 50 * MS)
    assert d.winner == 1 and d.locked_out == ()


def test_press_exactly_at_arming_counts_one_ns_before_is_early() -> None:
    arb, _ = make()
    arb.edge(1, True, T0 - 1)
    arb.edge(2, True, T0)
    arb.arm(T0)
    d = decide(arb, T0 + WAIT)
    assert (d.winner, d.locked_out, d.held) == (2, (1,), (1,))


def test_lockout_is_shown_while_idle_too() -> None:
    arb, _ = make()
    press(arb, 6, T0, hold=10 * MS)
    assert arb.status(T0 + 100 * MS).locked_out == {6}
    assert arb.status(T0 + 251 * MS).locked_out == frozenset()


def test_arming_in_the_past_counts_presses_since_then() -> None:
    arb, clock = make()
    arb.edge(3, True, T0 + 20 * MS)
    clock.now = T0 + 80 * MS
    arb.arm(T0)  # the camera saw the card 80 ms ago
    d = decide(arb, clock.now)
    assert d.winner == 3 and d.armed_ns == T0


def test_stuck_button_is_reported_and_ignored_until_released() -> None:
    arb, _ = make()
    arb.edge(7, True, T0 - 10_000 * MS)
    assert arb.status(T0).stuck == {7}
    assert arb.status(T0 - 6_000 * MS).stuck == frozenset()
    arb.arm(T0)
    assert arb.poll(T0 + 1_000 * MS) is None
    arb.edge(7, False, T0 + 1_100 * MS)
    assert arb.status(T0 + 1_100 * MS).stuck == frozenset()
    arb.edge(7, True, T0 + 1_500 * MS)
    d = decide(arb, T0 + 1_600 * MS)
    assert d.winner == 7 and d.held == (7,)


def test_exact_tie_reports_the_tied_seats() -> None:
    arb, _ = make()
    arb.arm(T0)
    for seat in (6, 2):
        arb.edge(seat, True, T0 + 3 * MS)
    arb.edge(4, True, T0 + 3 * MS + 101 * US)  # just outside the tie window
    d = decide(arb, T0 + 30 * MS)
    assert d.tie and d.tied == (2, 6) and d.winner in (2, 6)
    assert (d.runner_up, d.margin_us) == ({2: 6, 6: 2}[d.winner], 0.0)


def test_presses_within_the_tie_window_are_a_tie_and_just_outside_are_not() -> None:
    arb, _ = make(tie_window_us=50)
    arb.arm(T0)
    press(arb, 1, T0 + 1 * MS)
    press(arb, 2, T0 + 1 * MS + 50 * US)
    d = decide(arb, T0 + 30 * MS)
    assert d.tie and d.tied == (1, 2)
    arb.arm(T0 + 1_000 * MS)
    arb.edge(1, True, T0 + 1_001 * MS + 51 * US)
    arb.edge(2, True, T0 + 1_001 * MS)
    d = decide(arb, T0 + 1_030 * MS)
    assert not d.tie and d.tied == () and d.winner == 2 and d.margin_us == 51.0


def test_tie_draw_is_fair() -> None:
    rng = random.Random(20261129)
    wins: Counter[int] = Counter()
    draws = 3000
    for _ in range(draws):
        clock = FakeClock()
        arb = Arbiter(8, CFG, rng=rng, clock=clock)
        arb.arm(T0)
        for seat in (1, 4, 8):
            arb.edge(seat, True, T0 + 7 * MS)
        d = decide(arb, T0 + 50 * MS)
        assert d.tie and d.tied == (1, 4, 8)
        wins[d.winner] += 1
    assert set(wins) == {1, 4, 8}
    for seat in (1, 4, 8):  # expected 1000 each; 4.5 sigma is about +-116
        assert abs(wins[seat] - draws / 3) < 120, wins


def test_tie_draw_is_reproducible_with_a_seed() -> None:
    def run(seed: int) -> list[int]:
        arb, _ = make(seed=seed)
        out = []
        for k in range(20):
            base = T0 + k * 1_000 * MS
            arb.arm(base)
            press(arb, 3, base + MS)
            press(arb, 5, base + MS)
            out.append(decide(arb, base + 100 * MS).winner)
        return out
    assert run(7) == run(7)
    assert set(run(7)) == {3, 5}


def test_all_eight_seats_in_shuffled_delivery_order() -> None:
    rng = random.Random(3)
    for _ in range(50):
        arb, _ = make()
        arb.arm(T0)
        times = rng.sample(range(1 * MS, 5 * MS, 137 * US), 8)
        order = list(range(1, 9))
        rng.shuffle(order)
        for seat in order:
            arb.edge(seat, True, T0 + times[seat - 1])
        d = decide(arb, T0 + 100 * MS)
        ranked = sorted(range(1, 9), key=lambda s: times[s - 1])
        assert (d.winner, d.runner_up) == (ranked[0], ranked[1])
        assert d.margin_us == (times[ranked[1] - 1] - times[ranked[0] - 1]) / 1000


def test_excluded_seats_cannot_win() -> None:
    arb, _ = make()
    arb.arm(T0, exclude=[1])
    arb.edge(1, True, T0 + 1 * MS)
    arb.edge(2, True, T0 + 2 * MS)
    assert decide(arb, T0 + 30 * MS).winner == 2


def test_edges_from_many_threads_at_once() -> None:
    """Eight threads deliver bounce trains concurrently, each in reverse order."""
    for round_ in range(5):
        arb, _ = make(seed=round_)
        arb.arm(T0)
        rng = random.Random(round_)
        firsts = {seat: T0 + rng.randrange(1 * MS, 3 * MS) for seat in range(1, 9)}
        barrier = threading.Barrier(8)

        def deliver(seat: int, t: int, arb: Arbiter = arb,
                    barrier: threading.Barrier = barrier) -> None:
            edges = [(k % 2 == 0, t + k * 10 * US) for k in range(201)]
            barrier.wait()
            for pressed, te in reversed(edges):
                arb.edge(seat, pressed, te)
                arb.poll(T0)

        threads = [threading.Thread(target=deliver, args=(s, firsts[s])) for s in range(1, 9)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        d = decide(arb, T0 + 100 * MS)
        ranked = sorted(firsts, key=lambda s: (firsts[s], s))
        if firsts[ranked[1]] - firsts[ranked[0]] > CFG.tie_window_ns:
            assert (d.winner, d.t_ns) == (ranked[0], firsts[ranked[0]])
        else:
            assert d.tie and d.winner in d.tied


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 200_000), min_size=1, max_size=8),
       st.randoms(use_true_random=False))
def test_winner_is_the_earliest_whatever_the_delivery_order(
        offsets_us: list[int], rnd: random.Random) -> None:
    arb, _ = make(seed=rnd.randrange(1000))
    arb.arm(T0)
    edges = [(seat, T0 + off * US) for seat, off in enumerate(offsets_us, start=1)]
    rnd.shuffle(edges)
    for seat, t in edges:
        arb.edge(seat, True, t)
    d = decide(arb, T0 + 1_000 * MS)
    first = min(t for _, t in edges)
    tied = sorted(s for s, t in edges if t - first <= CFG.tie_window_ns)
    assert d.t_ns - first <= CFG.tie_window_ns
    if len(tied) == 1:
        assert not d.tie and d.winner == tied[0] and d.t_ns == first
    else:
        assert d.tie and d.tied == tuple(tied) and d.winner in tied


def test_bad_input_is_rejected_with_a_clear_message() -> None:
    arb, _ = make(seats=4)
    with pytest.raises(ValueError, match=r"seat 5 is not a seat number \(1-4\)"):
        arb.edge(5, True, T0)
    with pytest.raises(ValueError, match="seat 0"):
        arb.edge(0, True, T0)
    with pytest.raises(ValueError, match="in the past"):
        arb.arm(T0 - 3_000 * MS)
    with pytest.raises(ValueError, match="exclude: 9"):
        arb.arm(T0, exclude=[9])
    with pytest.raises(ValueError, match=r"seats: 9 is not a seat count"):
        Arbiter(9)
    with pytest.raises(ValueError, match=r"arbiter.lockout_ms"):
        ArbiterConfig(lockout_ms=-1)
    assert arb.phase is ArbiterPhase.IDLE  # nothing was changed by the bad calls


def test_history_is_pruned_but_keeps_the_level() -> None:
    arb, _ = make()
    arb.edge(1, True, T0)  # held down from here on
    for k in range(1, 6001):  # a chattering seat 2 while idle, for 6 s
        arb.edge(2, k % 2 == 1, T0 + k * MS)
    assert len(arb._seats[1].times) < 3000  # bounded memory
    arb.arm(T0 + 6_500 * MS)
    arb.edge(2, True, T0 + 6_600 * MS)
    d = decide(arb, T0 + 6_700 * MS)
    assert d.winner == 2 and d.held == (1,)
    assert arb.status(T0 + 6_700 * MS).stuck == {1}


def reference_first_presses(edges: list[tuple[int, int, bool]], armed: int,
                            cfg: ArbiterConfig) -> dict[int, int]:
    """The rules written the plain way: replay all edges in time order, one state per seat."""
    level: dict[int, bool] = {}
    last: dict[int, int] = {}
    lock_until: dict[int, int] = {}
    first: dict[int, int] = {}
    for t, seat, pressed in sorted(edges):
        is_press = (pressed and not level.get(seat, False)
                    and t - last.get(seat, -(10**18)) >= cfg.debounce_ns)
        level[seat], last[seat] = pressed, t
        if not is_press or seat in first:
            continue
        if t < armed or t < lock_until.get(seat, -(10**18)):
            lock_until[seat] = t + cfg.lockout_ns
        else:
            first[seat] = t
    return first


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(
           st.integers(1, 8),
           st.lists(st.integers(-400_000, 400_000), max_size=8, unique=True),
           min_size=1),
       st.randoms(use_true_random=False))
def test_rich_edge_sets_match_the_plain_rules_in_any_delivery_order(
        seats: dict[int, list[int]], rnd: random.Random) -> None:
    """Early presses, lockouts, bounces and held buttons: any delivery order, with polls in
    between, gives the decision of the plain replay."""
    edges = []
    for seat, offsets in seats.items():
        for k, off in enumerate(sorted(offsets)):
            edges.append((T0 + off * US, seat, k % 2 == 0))  # down, up, down, ...
    expected = reference_first_presses(edges, T0, CFG)
    decisions = []
    for _ in range(2):
        arb, _clock = make(seed=11)
        rnd.shuffle(edges)
        cut = rnd.randrange(len(edges) + 1)
        for t, seat, pressed in edges[:cut]:  # some delivered before arming ...
            arb.edge(seat, pressed, t)
        arb.arm(T0)
        for t, seat, pressed in edges[cut:]:  # ... the rest after, polled in between
            arb.edge(seat, pressed, t)
            assert arb.poll(T0 - 1) is None
        decisions.append(arb.poll(T0 + 10_000 * MS))
    assert decisions[0] == decisions[1]
    d = decisions[0]
    if not expected:
        assert d is None
        return
    first = min(expected.values())
    tied = sorted(s for s, t in expected.items() if t - first <= CFG.tie_window_ns)
    assert d is not None and d.t_ns == expected[d.winner]
    assert d.winner in tied and d.tie == (len(tied) > 1)
    assert d.tied == (tuple(tied) if len(tied) > 1 else ())


def test_decision_to_dict_is_plain_data() -> None:
    import json

    arb, _ = make()
    arb.arm(T0)
    arb.edge(2, True, T0 + MS)
    d = decide(arb, T0 + 50 * MS)
    data: dict[str, Any] = json.loads(json.dumps(d.to_dict()))
    assert data["winner"] == 2 and data["tied"] == [] and data["margin_us"] is None
    restored: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v
                                for k, v in data.items()}
    assert Decision(**restored) == d
