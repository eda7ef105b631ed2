"""``tablekeeper bench display`` and ``tablekeeper display shots``.

* ``bench display``: render time per frame (CPU time of the process, so a busy machine does not
  inflate it) of every sample screen at 1920×1080 and 800×480: the first frame (cold caches), a
  new snapshot (static layer redrawn) and a render-loop frame (static layer cached: a timer
  tick); CPU use of the real render loop while the scoreboard sits idle; the peak RSS of
  rendering the whole sequence of screens; and the peak RSS of a whole demo game (``tablekeeper
  demo --headless``: screen, simulated camera and recognition), run as a separate process so
  the bench's own memory does not count.
* ``display shots DIR``: every sample screen, both sizes, both languages, as PNG files.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FRAME_TARGET_MS = 4.0
IDLE_CPU_TARGET = 0.02
RSS_TARGET_MB = 200.0
SIZES: tuple[tuple[int, int], ...] = ((1920, 1080), (800, 480))


def register(commands: Any, benches: Any) -> None:
    bench = benches.add_parser("display", help="render time per screen, idle CPU, peak RSS")
    bench.add_argument("--repeat", type=int, default=30, help="redraws per screen and size")
    bench.add_argument("--idle-seconds", type=float, default=3.0,
                       help="how long the idle scoreboard loop runs")
    bench.add_argument("--size", action="append", default=None,
                       help="WxH (default: 1920x1080 and 800x480; the first is the target's)")
    bench.add_argument("--no-demo-game", action="store_true",
                       help="skip the peak RSS of a demo game (it plays one, ~20 s of CPU)")
    bench.set_defaults(func=run_bench)
    display = commands.add_parser("display", help="screen tools (headless renders)")
    sub = display.add_subparsers(dest="display_command", required=True, metavar="ACTION")
    shots = sub.add_parser("shots", help="render every sample screen to PNG files")
    shots.add_argument("out", type=Path, help="directory for the PNG files")
    shots.add_argument("--size", action="append", default=None,
                       help="WxH (default: 1920x1080 and 800x480)")
    shots.add_argument("--only", action="append", default=None,
                       help="only the samples whose name contains this (repeatable)")
    shots.add_argument("--rotate", type=int, choices=(0, 90, 180, 270), default=0,
                       help="a panel mounted turned ([screen] rotate): each --size is the "
                            "panel's, the screens are drawn upright and turned onto it, as the "
                            "panel shows them (default 0)")
    shots.set_defaults(func=run_shots)


def _headless() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def _sizes(values: list[str] | None) -> list[tuple[int, int]]:
    if not values:
        return list(SIZES)
    out = []
    for value in values:
        try:
            w, h = (int(v) for v in value.lower().split("x"))
        except ValueError:
            raise SystemExit(f"--size {value!r}: expected WxH, e.g. 1920x1080") from None
        if w < 160 or h < 120:
            raise SystemExit(f"--size {value!r}: too small (at least 160x120)")
        out.append((w, h))
    return out


def run_shots(args: argparse.Namespace) -> int:
    _headless()
    import pygame

    from display.fonts import FontBook
    from display.i18n import LANGS
    from display.renderer import Renderer
    from display.samples import snapshots

    pygame.display.init()
    fonts = FontBook()
    count = 0
    for w, h in _sizes(args.size):
        surface = pygame.Surface((w, h))
        turned = f"-rotate{args.rotate}" if args.rotate else ""
        for lang in LANGS:
            for name, snap in snapshots(lang):
                if args.only and not any(part in name for part in args.only):
                    continue
                renderer = Renderer(surface, fonts=fonts, rotate=args.rotate)
                renderer.render(snap)
                renderer.save_png(args.out / f"{w}x{h}{turned}-{lang}-{name}.png", panel=True)
                count += 1
    print(f"{count} PNG files in {args.out}")
    return 0


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


@dataclass(frozen=True)
class DemoGameMemory:
    """What a headless demo game reported: its peak RSS and how much of the game it played."""

    peak_rss_mb: float
    cards_laid: int
    cards_recognised: int
    camera_frames: int
    seconds: float


DEMO_GAME_ARGS: tuple[str, ...] = ("--seed", "1")  # the demo's defaults: 1280x720, 5 players


def demo_game_memory(args: tuple[str, ...] = DEMO_GAME_ARGS) -> DemoGameMemory:
    """Play ``tablekeeper demo --headless ARGS`` in a new process and read the summary it
    prints last. A separate process, so that only the game's own memory is measured. Raises
    RuntimeError saying what went wrong if the game fails or prints no summary."""
    with tempfile.TemporaryDirectory(prefix="tablekeeper-bench-demo-") as out:
        command = [sys.executable, "-m", "tablekeeper", "demo", "--headless", "--out", out,
                   *args]
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        seconds = time.perf_counter() - start
    if done.returncode != 0:
        tail = " | ".join(done.stderr.strip().splitlines()[-3:])
        raise RuntimeError(f"the demo game failed (exit {done.returncode}): {tail}")
    for line in reversed(done.stdout.strip().splitlines()):
        try:
            summary = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(summary, dict) and "peak_rss_mb" in summary:
            return DemoGameMemory(float(summary["peak_rss_mb"]), int(summary["cards_laid"]),
                                  int(summary["cards_recognised"]),
                                  int(summary["camera_frames"]), seconds)
    raise RuntimeError("the demo game printed no summary with peak_rss_mb")


def run_bench(args: argparse.Namespace) -> int:
    _headless()
    import pygame

    from display.fonts import FontBook
    from display.renderer import Renderer
    from display.samples import snapshots

    sizes = _sizes(args.size)
    pygame.display.init()
    fonts = FontBook()
    print(f"fonts: {fonts.faces['bold'].name} ({fonts.faces['bold'].source})")
    rss_start = _peak_rss_mb()
    samples = snapshots()
    # Per screen and size: the first frame (cold caches), a new snapshot on the same screen
    # (static layer re-rendered, text cache warm) and a frame of the render loop (the static
    # layer cached: what a running timer or score animation costs each tick).
    results: dict[str, dict[tuple[int, int], tuple[float, float, float]]] = {}
    repeat = max(1, args.repeat)
    for size in sizes:
        surface = pygame.Surface(size)
        for name, snap in samples:
            renderer = Renderer(surface, fonts=fonts)
            start = time.process_time()
            renderer.render(snap)
            first = (time.process_time() - start) * 1000
            layer, frame = [], []
            for _ in range(repeat):
                renderer.invalidate(layers=True)
                start = time.process_time()
                renderer.render(snap)
                layer.append((time.process_time() - start) * 1000)
                renderer.invalidate()
                start = time.process_time()
                renderer.render(snap)
                frame.append((time.process_time() - start) * 1000)
            results.setdefault(name, {})[size] = (
                first, statistics.median(layer), statistics.median(frame))
    # CPU time of this process, not wall time: the figures stay meaningful on a busy machine.
    print("CPU ms per frame: first (cold) / new snapshot (static layer redrawn) / "
          "render-loop frame (layer cached); medians of", repeat)
    print(f"{'screen':<22}" + "".join(f"{f'{w}x{h}':>30}" for w, h in sizes))
    worst = 0.0
    for name, by_size in results.items():
        row = f"{name:<22}"
        for size in sizes:
            first, layer_ms, frame_ms = by_size[size]
            row += f"{first:>12.2f} /{layer_ms:>6.2f} /{frame_ms:>6.2f}"
        worst = max(worst, by_size[sizes[0]][2])
        print(row)
    verdict = "ok" if worst <= FRAME_TARGET_MS else "OVER TARGET"
    print(f"slowest {sizes[0][0]}x{sizes[0][1]} render-loop frame: {worst:.2f} ms "
          f"(target ≤ {FRAME_TARGET_MS} ms): {verdict}")

    # Idle scoreboard in the real loop pattern: render(snapshot) each tick at 60 Hz.
    surface = pygame.Surface(sizes[0])
    renderer = Renderer(surface, fonts=fonts)
    scoring = dict(samples)["scoring"]
    drawn = 0
    ticks = 0
    clock = pygame.time.Clock()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    while time.perf_counter() - wall0 < args.idle_seconds:
        now_ms = scoring.now_ms + int((time.perf_counter() - wall0) * 1000)
        snap = type(scoring)(**{**scoring.__dict__, "now_ms": now_ms})
        if renderer.render(snap):
            drawn += 1
        ticks += 1
        clock.tick(60)
    cpu = time.process_time() - cpu0
    wall = time.perf_counter() - wall0
    share = cpu / wall
    verdict = "ok" if share <= IDLE_CPU_TARGET else "OVER TARGET"
    print(f"idle scoreboard: {ticks} ticks in {wall:.1f} s, {drawn} frames drawn, "
          f"CPU {share * 100:.2f} % of a core (target ≤ {IDLE_CPU_TARGET * 100:.0f} %): {verdict}")
    peak = _peak_rss_mb()
    verdict = "ok" if peak <= RSS_TARGET_MB else "OVER TARGET"
    print(f"peak RSS: {peak:.0f} MB after all screens at every size "
          f"({rss_start:.0f} MB before rendering; target ≤ {RSS_TARGET_MB:.0f} MB): {verdict}")
    if args.no_demo_game:
        return 0
    try:
        game = demo_game_memory()
    except RuntimeError as e:
        print(f"peak RSS of a demo game: not measured, {e}")
        return 1
    verdict = "ok" if game.peak_rss_mb <= RSS_TARGET_MB else "OVER TARGET"
    print(f"peak RSS of a demo game (tablekeeper demo --headless {' '.join(DEMO_GAME_ARGS)}: "
          f"1280x720 screen, simulated camera, recognition; its own process): "
          f"{game.peak_rss_mb:.0f} MB (target ≤ {RSS_TARGET_MB:.0f} MB): {verdict}; "
          f"{game.cards_recognised} of {game.cards_laid} cards laid recognised in "
          f"{game.camera_frames} frames, {game.seconds:.0f} s")
    return 0
