"""The fair first-press arbiter: who buzzed first, decided by the edges' own timestamps.

Pure logic: no gpiozero, no threads of its own, time comes in as data. Feed it every seat edge
(``edge(seat, pressed, t_ns)``, from any thread, in any order, late), arm it when the card is
seen, and poll it from the app's loop. All times are ``int`` nanoseconds on the
CLOCK_MONOTONIC basis (``time.monotonic_ns()``, lgpio's edge ticks, the camera's frame times).

The rules, as a function of the *set* of edges (so the order in which callbacks arrive never
matters):

* A **press** is a falling edge (``pressed=True``) of a seat whose previous edge was a release at
  least ``debounce`` earlier (or that has no earlier edge). Any other press edge is contact bounce
  (or the tail of a release's bounce) and is ignored. The press's time is its *first* edge, so
  bounce never moves it; gpiozero's ``bounce_time`` is not used (it would).
* **Armed** at ``armed_ns`` (the instant the card was seen; may be in the past). Presses at or
  after ``armed_ns`` race.
* **Early press.** A press before ``armed_ns`` locks that seat out until ``lockout`` after it;
  a press while locked out restarts the lockout. Presses during a lockout do not race.
* **Held across arming.** A button that is down at ``armed_ns`` has not pressed: it must be
  released and pressed again (its release bounce is not a press, see above).
* **Winner** = the seat with the earliest racing press. Every seat whose press is within
  ``tie_window`` of the earliest is tied with it; a tie is broken by a fair draw with the
  injected ``random.Random`` (never by seat or pin number).
* **Settle.** The decision is taken by the first ``poll(now)`` with
  ``now >= earliest + tie_window + settle``, so an earlier edge whose callback comes up to
  ``settle`` late still counts. Once decided, the decision never changes.
* **Stuck.** A button down for longer than ``stuck`` is reported by ``status()``; being held
  across arming, it takes no part until released.

``Decision.margin_us`` is the gap to the runner-up (the next seat's racing press known at the
decision), in microseconds, or ``None`` if no other seat pressed within the settle window.
"""

from __future__ import annotations

import random
import threading
import time
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from firmware.config import ArbiterConfig

#: How far in the past ``arm()`` may place the arming instant.
MAX_ARM_AGE_NS = 2_000_000_000
#: Per-seat edge lists longer than this are pruned while idle.
_PRUNE_AT = 256


class ArbiterPhase(Enum):
    IDLE = "idle"
    ARMED = "armed"
    DECIDED = "decided"


# Module constants: looking up an Enum member on its class costs far more in the hot path.
_IDLE, _ARMED, _DECIDED = ArbiterPhase.IDLE, ArbiterPhase.ARMED, ArbiterPhase.DECIDED


@dataclass(frozen=True)
class Decision:
    """Who won one armed race, and why.

    Seats are numbered 1..seats. ``tied`` lists every tied seat (the winner included) when
    ``tie`` is true, else it is empty. ``locked_out`` are seats that were locked out during the
    race (pressed early, or pressed again while locked); ``held`` are seats that were held down
    across the arming instant.
    """

    winner: int
    t_ns: int
    armed_ns: int
    decided_ns: int
    runner_up: int | None
    runner_up_t_ns: int | None
    margin_us: float | None
    tie: bool
    tied: tuple[int, ...]
    locked_out: tuple[int, ...]
    held: tuple[int, ...]

    @property
    def reaction_ms(self) -> float:
        """Time from arming to the winner's press, in milliseconds."""
        return (self.t_ns - self.armed_ns) / 1e6

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values, for the journal and the log."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        for key in ("tied", "locked_out", "held"):
            d[key] = list(d[key])
        return d


@dataclass(frozen=True)
class ArbiterStatus:
    """A snapshot for lamps, screen and log (see ``Arbiter.status``)."""

    phase: ArbiterPhase
    armed_ns: int | None
    pressed: frozenset[int]
    locked_out: frozenset[int]
    stuck: frozenset[int]
    decision: Decision | None


class _Seat:
    """One seat's edge history (sorted by time) and its cached scan result."""

    __slots__ = ("candidate", "dirty", "held", "levels", "lock_until", "locked", "prune_at",
                 "times")

    def __init__(self) -> None:
        self.times: list[int] = []
        self.levels: list[bool] = []
        self.dirty = True
        self.candidate: int | None = None
        self.lock_until = 0
        self.locked = False
        self.held = False
        self.prune_at = _PRUNE_AT


class Arbiter:
    """First-press arbitration for ``seats`` seats, numbered 1..seats. Thread-safe.

    ``rng`` draws ties (default: ``random.SystemRandom()``); ``clock`` gives "now" in
    CLOCK_MONOTONIC ns where a method is not given one; ``on_decision`` is called (in the
    polling thread, outside the lock) with each decision as it is taken.
    """

    def __init__(self, seats: int, config: ArbiterConfig | None = None, *,
                 rng: random.Random | None = None,
                 clock: Callable[[], int] = time.monotonic_ns,
                 on_decision: Callable[[Decision], None] | None = None) -> None:
        if isinstance(seats, bool) or not isinstance(seats, int) or not 1 <= seats <= 8:
            raise ValueError(f"seats: {seats!r} is not a seat count (1-8)")
        self.config = config if config is not None else ArbiterConfig()
        self.seats = seats
        self._rng = rng if rng is not None else random.SystemRandom()
        self._clock = clock
        self.on_decision = on_decision
        self._lock = threading.Lock()
        self._seats = [_Seat() for _ in range(seats)]
        self._phase = _IDLE
        self._armed_ns = 0
        self._eligible: frozenset[int] = frozenset(range(1, seats + 1))
        self._dirty = True
        self._first: int | None = None
        self._decision: Decision | None = None
        cfg = self.config
        self._settle = cfg.settle_ns
        self._tie = cfg.tie_window_ns
        self._lockout = cfg.lockout_ns
        self._debounce = cfg.debounce_ns
        self._stuck = cfg.stuck_ns
        self._wait = self._tie + self._settle
        self._keep = MAX_ARM_AGE_NS + self._lockout + self._debounce

    # -- input -------------------------------------------------------------------------------

    def edge(self, seat: int, pressed: bool, t_ns: int) -> None:
        """Record an edge of ``seat``: ``pressed`` True = button went down, at ``t_ns``.

        Safe to call from any thread, in any order, after the fact.
        """
        if not 0 < seat <= self.seats:
            raise ValueError(f"seat {seat!r} is not a seat number (1-{self.seats})")
        with self._lock:
            s = self._seats[seat - 1]
            times = s.times
            if not times or t_ns >= times[-1]:
                times.append(t_ns)
                s.levels.append(pressed)
            else:
                i = bisect_right(times, t_ns)
                times.insert(i, t_ns)
                s.levels.insert(i, pressed)
            if self._phase is _ARMED:
                # An edge after the seat's racing press cannot change the race.
                c = s.candidate
                if s.dirty or c is None or t_ns <= c:
                    s.dirty = True
                    self._dirty = True
            if len(times) > s.prune_at:
                armed = self._phase is _ARMED
                self._prune(s, (self._armed_ns if armed else times[-1]) - self._keep)
                # Look again after another batch of edges (amortised; also when nothing could
                # go, e.g. a chattering switch during a long race).
                s.prune_at = len(times) + _PRUNE_AT

    # -- control -----------------------------------------------------------------------------

    def arm(self, at_ns: int | None = None, *, exclude: Iterable[int] = ()) -> None:
        """Start a race at ``at_ns`` (default: now). ``exclude`` seats cannot win this race.

        ``at_ns`` may be in the past (the camera frame's time), by at most 2 s.
        """
        now = self._clock()
        if at_ns is None:
            at_ns = now
        elif at_ns < now - MAX_ARM_AGE_NS:
            raise ValueError(f"arm: {(now - at_ns) / 1e9:.3f} s in the past; "
                             f"at most {MAX_ARM_AGE_NS / 1e9:g} s is kept")
        excluded = frozenset(exclude)
        bad = sorted(s for s in excluded if not 0 < s <= self.seats)
        if bad:
            raise ValueError(f"arm: exclude: {bad[0]!r} is not a seat number (1-{self.seats})")
        with self._lock:
            self._phase = _ARMED
            self._armed_ns = at_ns
            self._eligible = frozenset(range(1, self.seats + 1)) - excluded
            self._decision = None
            self._first = None
            horizon = at_ns - self._keep
            for s in self._seats:
                self._prune(s, horizon)
                s.dirty = True
            self._dirty = True

    def disarm(self) -> None:
        """Stop the race (a decision already taken stays readable in ``decision``)."""
        with self._lock:
            self._phase = _IDLE

    def poll(self, now_ns: int | None = None) -> Decision | None:
        """Return the decision once, at the first poll where it can be taken; else None."""
        if now_ns is None:
            now_ns = self._clock()
        with self._lock:
            if self._phase is not _ARMED:
                return None
            if self._dirty:
                self._rescan()
            first = self._first
            if first is None or now_ns < first + self._wait:
                return None
            decision = self._decide(now_ns)
        if self.on_decision is not None:
            self.on_decision(decision)
        return decision

    # -- queries -----------------------------------------------------------------------------

    @property
    def phase(self) -> ArbiterPhase:
        return self._phase

    @property
    def armed_ns(self) -> int | None:
        return self._armed_ns if self._phase is not _IDLE else None

    @property
    def decision(self) -> Decision | None:
        """The last decision taken (kept after ``disarm``, cleared by ``arm``)."""
        return self._decision

    def status(self, now_ns: int | None = None) -> ArbiterStatus:
        """Pressed, locked-out and stuck seats as of ``now_ns``."""
        if now_ns is None:
            now_ns = self._clock()
        with self._lock:
            if self._phase is _ARMED and self._dirty:
                self._rescan()
            pressed: set[int] = set()
            locked: set[int] = set()
            stuck: set[int] = set()
            for seat, s in enumerate(self._seats, start=1):
                levels = s.levels
                if levels and levels[-1]:
                    pressed.add(seat)
                    if now_ns - self._down_since(s) >= self._stuck:
                        stuck.add(seat)
                if self._phase is _ARMED:
                    if s.lock_until > now_ns and s.candidate is None:
                        locked.add(seat)
                elif self._phase is _IDLE:
                    last = self._last_press(s, now_ns - self._lockout)
                    if last is not None and last + self._lockout > now_ns:
                        locked.add(seat)
            return ArbiterStatus(self._phase, self.armed_ns, frozenset(pressed),
                                 frozenset(locked), frozenset(stuck), self._decision)

    # -- internals (called with the lock held) -----------------------------------------------

    @staticmethod
    def _prune(s: _Seat, horizon: int) -> None:
        # Keep the last edge before the horizon: it tells the level there.
        cut = bisect_left(s.times, horizon) - 1
        if cut > 0:
            del s.times[:cut]
            del s.levels[:cut]

    def _rescan(self) -> None:
        first: int | None = None
        for seat, s in enumerate(self._seats, start=1):
            if s.dirty:
                self._scan(s)
            c = s.candidate
            if c is not None and seat in self._eligible and (first is None or c < first):
                first = c
        self._first = first
        self._dirty = False

    def _scan(self, s: _Seat) -> None:
        """Find the seat's first racing press after arming, its lockout, and whether held."""
        times, levels = s.times, s.levels
        arm, lockout, debounce = self._armed_ns, self._lockout, self._debounce
        n = len(times)
        i = bisect_left(times, arm - lockout)
        if i > 0:
            pt, pl = times[i - 1], levels[i - 1]
        else:
            pt, pl = arm - lockout - debounce, False
        lock_until = 0
        locked = False
        candidate: int | None = None
        while i < n:
            t = times[i]
            level = levels[i]
            if level and not pl and t - pt >= debounce:
                if t < arm:
                    lock_until = t + lockout
                    locked = lock_until > arm
                elif t < lock_until:
                    lock_until = t + lockout
                    locked = True
                else:
                    candidate = t
                    break
            pt, pl = t, level
            i += 1
        h = bisect_left(times, arm) - 1
        s.held = h >= 0 and levels[h]
        s.candidate = candidate
        s.lock_until = lock_until
        s.locked = locked
        s.dirty = False

    def _decide(self, now_ns: int) -> Decision:
        first = self._first
        assert first is not None
        racing = sorted((s.candidate, seat) for seat, s in enumerate(self._seats, start=1)
                        if s.candidate is not None and seat in self._eligible)
        tied = [seat for t, seat in racing if t - first <= self._tie]
        winner = self._rng.choice(tied) if len(tied) > 1 else tied[0]
        win_t = next(t for t, seat in racing if seat == winner)
        others = [(t, seat) for t, seat in racing if seat != winner]
        ru_t, ru = others[0] if others else (None, None)
        decision = Decision(
            winner=winner,
            t_ns=win_t,
            armed_ns=self._armed_ns,
            decided_ns=now_ns,
            runner_up=ru,
            runner_up_t_ns=ru_t,
            margin_us=None if ru_t is None else abs(ru_t - win_t) / 1000,
            tie=len(tied) > 1,
            tied=tuple(sorted(tied)) if len(tied) > 1 else (),
            locked_out=tuple(seat for seat, s in enumerate(self._seats, start=1) if s.locked),
            held=tuple(seat for seat, s in enumerate(self._seats, start=1) if s.held),
        )
        self._decision = decision
        self._phase = _DECIDED
        return decision

    def _down_since(self, s: _Seat) -> int:
        levels = s.levels
        j = len(levels) - 1
        while j >= 0 and levels[j]:
            j -= 1
        return s.times[j + 1]

    def _last_press(self, s: _Seat, since: int) -> int | None:
        """The latest press (not bounce) at or after ``since``, if any."""
        times, levels, debounce = s.times, s.levels, self._debounce
        for i in range(len(times) - 1, -1, -1):
            t = times[i]
            if t < since:
                return None
            if levels[i] and (i == 0 or (not levels[i - 1] and t - times[i - 1] >= debounce)):
                return t
        return None
