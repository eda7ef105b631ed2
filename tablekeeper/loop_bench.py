"""``tablekeeper bench loop``: how long one step of the app loop takes while cards are being
revealed, with the camera read inline (:class:`tablekeeper.vision_link.WatchedCamera`) and by
its background thread (:class:`tablekeeper.vision_link.CameraThread`), in the same process.

Each mode plays the demo table in real time (a real monotonic clock, sped up ``--speed``
times, as the windowed demo does) on the screen (SDL's dummy driver unless
``SDL_VIDEODRIVER`` says otherwise), stepping at 30 steps a second like
:func:`tablekeeper.screen.run_realtime`, until ``--cards`` cards were recognised. Every
``Loop.step`` is timed; the steps taken while the loop watched the camera are what a player
sees freeze while a card is recognised.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class Figures:
    mode: str
    watched_ms: list[float]  # the duration of each step taken while the camera was watched
    other_ms: list[float]  # every other step
    seen_ms: list[float]  # from the start of the step a card was laid in to the end of the
    # step the referee had it in
    cards: int
    relaid: int
    frames: int
    seconds: float
    cpu_s: float

    def row(self) -> str:
        w = sorted(self.watched_ms)
        if not w:
            return f"{self.mode:>9}  no step watched the camera"
        p95 = w[min(len(w) - 1, round(0.95 * (len(w) - 1)))]
        other = statistics.median(self.other_ms) if self.other_ms else float("nan")
        other_max = max(self.other_ms) if self.other_ms else float("nan")
        seen = statistics.median(self.seen_ms) if self.seen_ms else float("nan")
        return (f"{self.mode:>9} {len(w):>7} {statistics.median(w):>7.2f} {p95:>7.2f} "
                f"{w[-1]:>7.2f} {other:>7.2f} {other_max:>7.2f} {self.cards:>5} "
                f"{seen:>7.0f} {self.relaid:>6} {self.frames:>6} {self.seconds:>6.1f} "
                f"{self.cpu_s:>5.1f}")


HEADER = (f"{'':>9} {'steps':>7} {'steps while watching, ms':^23} {'other, ms':^15} "
          f"{'':>5} {'laid->':>7}\n"
          f"{'mode':>9} {'watched':>7} {'median':>7} {'p95':>7} {'max':>7} {'median':>7} "
          f"{'max':>7} {'cards':>5} {'seen ms':>7} {'relaid':>6} {'frames':>6} {'wall s':>6} "
          f"{'cpu s':>5}")


def _cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def measure(mode: str, deck: Any, args: argparse.Namespace) -> Figures:
    """Play the demo table in real time with the camera read ``mode`` ("inline" or
    "threaded") until ``args.cards`` cards were recognised or ``args.seconds`` passed."""
    from tablekeeper.clock import MonotonicClock
    from tablekeeper.games.something_missing.demo import build_demo
    from tablekeeper.screen import PygameScreen, ScaledClock
    from tablekeeper.vision_link import item_cards

    watched: list[float] = []
    other: list[float] = []
    seen: list[float] = []
    with tempfile.TemporaryDirectory(prefix="tablekeeper-bench-loop-") as tmp:
        clock = ScaledClock(MonotonicClock(), args.speed)
        screen = PygameScreen(size=tuple(args.size), fullscreen=False, lang="zh-TW",
                              title=f"bench loop: {mode}", cards=item_cards(deck))
        parts = build_demo(Path(tmp), seed=args.seed, players=args.players, variant="standard",
                           clock=clock, screen=screen, deck=deck, threaded=mode == "threaded")
        loop, cards = parts.loop, parts.loop.cards
        assert cards is not None
        period_ns = 1_000_000_000 // 30
        cpu0, begin = _cpu_s(), time.monotonic_ns()
        laid_at: int | None = None  # when the card being waited for was (last) laid
        laid, pile = parts.table.placed, len(loop.referee.state.pile)
        try:
            while (getattr(cards, "events", 0) < args.cards and not loop.over
                   and time.monotonic_ns() - begin < args.seconds * 1e9):
                started = time.monotonic_ns()
                watching = loop.watching(clock.now_ns())
                t0 = time.perf_counter_ns()
                loop.step()
                took = (time.perf_counter_ns() - t0) / 1e6
                # a card laid during the step is watched within it
                watching = watching or loop.watching(clock.now_ns())
                (watched if watching else other).append(took)
                now = time.monotonic_ns()
                if parts.table.placed != laid:  # laid during this step
                    laid, laid_at = parts.table.placed, laid_at or started
                if len(loop.referee.state.pile) != pile:
                    pile = len(loop.referee.state.pile)
                    if laid_at is not None:
                        seen.append((now - laid_at) / 1e6)
                    laid_at = None
                rest = period_ns - (time.monotonic_ns() - started)
                if rest > 0:
                    time.sleep(rest / 1e9)
        finally:
            cards.close()
            screen.close()
            parts.firmware.close()
        seconds = (time.monotonic_ns() - begin) / 1e9
        return Figures(mode, watched, other, seen, getattr(cards, "events", 0), parts.table.relaid,
                       getattr(cards, "frames", 0), seconds, _cpu_s() - cpu0)


def run_bench(args: argparse.Namespace) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from tablekeeper.vision_link import load_items_deck

    deck = load_items_deck(None)  # one copy for every mode, as the demo does
    print(f"bench loop: demo table, seed {args.seed}, {args.players} players, speed "
          f"{args.speed:g}, {args.size[0]}x{args.size[1]}, until {args.cards} cards are "
          f"recognised (at most {args.seconds:g} s a mode); Loop.step durations")
    figures = {}
    print(HEADER, flush=True)
    for mode in args.modes:
        figures[mode] = measure(mode, deck, args)
        print(figures[mode].row(), flush=True)
    if "inline" in figures and "threaded" in figures:
        a, b = figures["inline"].watched_ms, figures["threaded"].watched_ms
        if a and b:
            print(f"threaded / inline, steps while watching: median "
                  f"{statistics.median(b) / statistics.median(a):.3g}, max "
                  f"{max(b) / max(a):.3g}")
    return 0

