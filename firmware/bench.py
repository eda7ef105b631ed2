"""``tablekeeper bench buzzer``: many simulated races through the real arbiter.

Each race: 2-8 of 8 seats press. The gap between the first and the second press is drawn
log-uniformly from 1 us to 50 ms (so tiny gaps, the hard cases, are common); the other seats press
up to 100 ms after the second. Every press bounces (0-5 extra contact pairs, 20-800 us apart) and
so does its release 40-250 ms later. Every edge's callback is delivered 0-5 ms late, independently,
so callbacks arrive in a random order (also within one seat). The arbiter is armed by a call up to
30 ms after the arming instant it is given (the camera saw the card a frame ago), and polled just
before every delivery, as the app's loop would, then once at the end.

A race is *decidable* when the gap is above the tie window; its decision is *correct* when the
winner is the seat that pressed first and no tie is claimed. A race inside the tie window must be
reported as a tie naming exactly the seats inside the window. The overhead is the arbiter's CPU
time (edge + poll + arm calls; process CPU time, so other load on the machine does not inflate it)
per press, minus the same loop driving a do-nothing arbiter, measured in the same process.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from firmware.arbiter import Arbiter, Decision
from firmware.config import ArbiterConfig

US = 1_000
MS = 1_000_000
T0 = 10_000 * 1_000 * MS  # an arbitrary CLOCK_MONOTONIC start (10000 s after boot)
RACE_SPACING = 1_000 * MS
SEATS = 8

#: An event: (delivery time, seat, edge time, pressed). Seat 0 is the arm() call.
Event = tuple[int, int, int, bool]


@dataclass(frozen=True)
class Race:
    armed_ns: int
    events: list[Event]
    first_seat: int
    gap_ns: int
    tied: tuple[int, ...]  # seats within the tie window of the first (one seat = no tie)
    presses: int


@dataclass(frozen=True)
class BenchResult:
    races: int
    decidable: int
    correct: int
    ties: int
    ties_ok: int
    undecided: int
    presses: int
    edges: int
    polls: int
    arbiter_s: float
    baseline_s: float
    failures: tuple[str, ...]

    @property
    def overhead_us(self) -> float:
        return max(0.0, self.arbiter_s - self.baseline_s) * 1e6 / max(1, self.presses)

    def line(self) -> str:
        return (f"races={self.races} decidable={self.decidable} correct={self.correct} "
                f"ties={self.ties} overhead_us={self.overhead_us:.2f}")


def _bounces(rng: random.Random, t: int, first_level: bool, events: list[tuple[int, bool]]
             ) -> int:
    """Append a bounce train after an edge at ``t``; return the time of its last edge."""
    level = first_level
    rand = rng.random
    for _ in range(int(rand() * 6) * 2):
        level = not level
        t += 20 * US + int(rand() * 780 * US)
        events.append((t, level))
    return t


def make_race(rng: random.Random, index: int, tie_window_ns: int) -> Race:
    base = T0 + index * RACE_SPACING
    n = rng.randint(2, SEATS)
    seats = rng.sample(range(1, SEATS + 1), n)
    first = base + rng.randrange(0, 300 * MS)
    gap = round(math.exp(rng.uniform(math.log(1 * US), math.log(50 * MS))))
    second = first + gap
    times = [first, second] + [second + rng.randrange(0, 100 * MS) for _ in range(n - 2)]
    events: list[Event] = [(base + rng.randrange(0, 30 * MS), 0, base, True)]
    for seat, t in zip(seats, times, strict=True):
        edges: list[tuple[int, bool]] = [(t, True)]
        _bounces(rng, t, True, edges)
        release = t + rng.randrange(40 * MS, 250 * MS)
        edges.append((release, False))
        _bounces(rng, release, False, edges)
        rand = rng.random
        events += [(te + int(rand() * 5 * MS), seat, te, level) for te, level in edges]
    events.sort()
    tied = tuple(sorted(s for s, t in zip(seats, times, strict=True)
                        if t - first <= tie_window_ns))
    return Race(base, events, seats[0], gap, tied, n)


class _FakeClock:
    __slots__ = ("now",)

    def __init__(self) -> None:
        self.now = 0

    def __call__(self) -> int:
        return self.now


class _NullArbiter:
    """The same interface doing nothing: the baseline for the overhead figure."""

    def edge(self, seat: int, pressed: bool, t_ns: int) -> None:
        pass

    def poll(self, now_ns: int | None = None) -> Decision | None:
        return None

    def arm(self, at_ns: int | None = None) -> None:
        pass


def _drive(races: list[Race], arb: Arbiter | _NullArbiter, clock: _FakeClock
           ) -> tuple[list[Decision | None], float, int]:
    """Run races through ``arb``; return the decisions, the seconds spent and the poll count."""
    out: list[Decision | None] = []
    polls = 0
    edge, poll, arm = arb.edge, arb.poll, arb.arm
    start = time.process_time()
    for race in races:
        decision = None
        for deliver, seat, t, pressed in race.events:
            clock.now = deliver
            d = poll(deliver)
            if d is not None:
                decision = d
            if seat:
                edge(seat, pressed, t)
            else:
                arm(t)
        polls += len(race.events) + 1
        d = poll(race.armed_ns + RACE_SPACING - 1)
        out.append(d if d is not None else decision)
    return out, time.process_time() - start, polls


def run(races: int = 100_000, seed: int = 1, config: ArbiterConfig | None = None,
        chunk: int = 2_000, progress: Callable[[int], None] | None = None) -> BenchResult:
    cfg = config if config is not None else ArbiterConfig()
    rng = random.Random(seed)
    clock = _FakeClock()
    arb = Arbiter(SEATS, cfg, rng=random.Random(seed + 1), clock=clock)
    null = _NullArbiter()
    decidable = correct = ties = ties_ok = undecided = presses = edges = polls = 0
    arbiter_s = baseline_s = 0.0
    failures: list[str] = []
    done = 0
    while done < races:
        batch = [make_race(rng, done + i, cfg.tie_window_ns)
                 for i in range(min(chunk, races - done))]
        decisions, seconds, n_polls = _drive(batch, arb, clock)
        _, base_seconds, _ = _drive(batch, null, clock)
        arbiter_s += seconds
        baseline_s += base_seconds
        polls += n_polls
        for race, d in zip(batch, decisions, strict=True):
            presses += race.presses
            edges += len(race.events) - 1
            if d is None:
                undecided += 1
                failures.append(f"race at {race.armed_ns}: no decision")
                continue
            if d.tie:
                ties += 1
            if race.gap_ns > cfg.tie_window_ns:
                decidable += 1
                if d.winner == race.first_seat and not d.tie:
                    correct += 1
                else:
                    failures.append(f"race at {race.armed_ns}: gap {race.gap_ns} ns, "
                                    f"first {race.first_seat}, decided {d}")
            elif d.tie and d.tied == race.tied and d.winner in race.tied:
                ties_ok += 1
            else:
                failures.append(f"race at {race.armed_ns}: tie {race.tied} expected, "
                                f"decided {d}")
        done += len(batch)
        if progress is not None:
            progress(done)
    return BenchResult(races, decidable, correct, ties, ties_ok, undecided, presses, edges,
                       polls, arbiter_s, baseline_s, tuple(failures[:20]))
