"""The app's commands: ``tablekeeper demo`` (simulated table) and ``tablekeeper kiosk``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tablekeeper.commands import players_arg


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected WIDTHxHEIGHT, e.g. 1280x720; got {text!r}") from None
    if not (320 <= w <= 7680 and 240 <= h <= 4320):
        raise argparse.ArgumentTypeError(f"{w}x{h} is not a plausible screen size")
    return w, h


#: The windowed demo's fastest pace. The camera thread recognises a card a few frames after
#: it shows, in real time; sped up, that is longer on the game clock, and the buzzers keep
#: presses for 2 s of it (firmware.arbiter.MAX_ARM_AGE_NS): at more than this, a card's frame
#: could be too old to arm at.
MAX_SPEED = 8.0


def _speed(text: str) -> float:
    try:
        speed = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, e.g. 2; got {text!r}") from None
    if not 0.1 <= speed <= MAX_SPEED:
        raise argparse.ArgumentTypeError(
            f"{text} is not a pace the demo can keep: 0.1 to {MAX_SPEED:g} times real time")
    return speed


def register(commands: Any, benches: Any) -> None:
    from tablekeeper import games

    demo = commands.add_parser(
        "demo", help="play a complete simulated game (window, or PNGs headless)",
        description="Simulated players lay cards under a simulated camera and press mock GPIO "
                    "buttons; the real vision, arbiter, engine, journal and screen referee it. "
                    "In the window the host's keys work (Enter OK, Esc back, U undo, L "
                    "language ...); Ctrl+Q, or closing the window, quits.")
    demo.add_argument("--headless", action="store_true",
                      help="no window: SDL's dummy driver on a simulated clock, as fast as "
                           "possible, a PNG of every screen (automatic without a display)")
    demo.add_argument("--out", metavar="DIR",
                      help="where the PNGs and the journal go (default: a new temp folder)")
    demo.add_argument("--game", choices=games.names(), default=games.DEFAULT_GAME,
                      help=f"which game (default {games.DEFAULT_GAME})")
    demo.add_argument("--seed", type=int, default=1, help="the table's random seed (1)")
    demo.add_argument("--players", type=players_arg, default=None,
                      help="how many (the game's range; default: the game's demo table, "
                           "什麼不見啦 5)")
    demo.add_argument("--variant", default=None,
                      help="the game's variant (什麼不見啦: easy, standard, advanced; default: "
                           "the game's own)")
    demo.add_argument("--lang", choices=("zh-TW", "en"), default="zh-TW")
    demo.add_argument("--size", type=_size, default=(1280, 720), metavar="WxH",
                      help="window / PNG size (default 1280x720)")
    demo.add_argument("--speed", type=_speed, default=1.0,
                      help=f"with a window: play this many times faster than real time "
                           f"(0.1-{MAX_SPEED:g})")
    demo.add_argument("--no-camera", action="store_true",
                      help="skip the camera simulation and recognition (cards are reported "
                           "as seen directly)")
    demo.add_argument("--text", action="store_true",
                      help="no screen, camera or buttons: print the play-by-play and the "
                           "scoreboard of a quick simulated game")
    demo.add_argument("--journal", metavar="PATH",
                      help="--text: also write the game's journal to PATH (a new file)")
    demo.add_argument("--lines", type=int, default=24,
                      help="--text: play-by-play lines to print (24; 0: none, -1: all)")
    demo.add_argument("--from-scratch", action="store_true",
                      help="start from a box with no deck and no zones: the simulated host "
                           "goes through the set-up screens with the host buttons (teaching "
                           "every card of the game), then the game is played on the deck "
                           "it made; always headless (DIR gets the deck, the config, the "
                           "journal and the screens)")
    demo.add_argument("--no-compare", action="store_true",
                      help="--from-scratch: skip the recognition comparison of the new deck "
                           "against the demo deck's")
    demo.set_defaults(func=_demo)

    kiosk = commands.add_parser(
        "kiosk", help="referee a real table: full screen, GPIO buttons, camera",
        description="The box's main program, started by systemd (systemd/tablekeeper-kiosk."
                    "service). Resumes the unfinished game on start.")
    kiosk.add_argument("--config", metavar="FILE", help="the box's TOML config file")
    kiosk.add_argument("--window", action="store_true", help="a window instead of full screen")
    kiosk.add_argument("--size", type=_size, metavar="WxH",
                       help="a window of this size (e.g. 800x480, the Pi's touchscreen; "
                            "implies --window; default: the config's [screen] size)")
    kiosk.add_argument("--keyboard", action="store_true",
                       help="keys 1-8 as seat buttons, Enter/Backspace/Space as host buttons "
                            "(no GPIO)")
    kiosk.add_argument("--simulate-camera", action="store_true",
                       help="a simulated table instead of the camera (try it on a laptop)")
    kiosk.add_argument("--simulate-players", action="store_true",
                       help="with --simulate-camera: simulated players play the game picked on "
                            "the home screen, laying cards, tiles and markers on the simulated "
                            "table as the demo's players do (a newcomer sees the camera at work)")
    kiosk.add_argument("--log-level", default="INFO")
    kiosk.add_argument("--run-for", type=float, metavar="SECONDS",
                       help="stop after this long (smoke tests, trying a setup)")
    kiosk.set_defaults(func=_kiosk)

    bench = benches.add_parser(
        "loop", help="app loop step times while cards are revealed: the camera read inline "
                     "vs by its own thread")
    bench.add_argument("--cards", type=int, default=10,
                       help="cards to recognise in each mode (10)")
    bench.add_argument("--seconds", type=float, default=120.0,
                       help="at most this long a mode (120)")
    bench.add_argument("--speed", type=_speed, default=3.0,
                       help="the demo table's speed against real time (3)")
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--players", type=players_arg, default=5)
    bench.add_argument("--size", type=_size, default=(1280, 720), metavar="WxH")
    bench.add_argument("--modes", nargs="+", choices=("inline", "threaded"),
                       default=["inline", "threaded"], help="which to run, in this order")
    bench.set_defaults(func=_bench_loop)

    bench = benches.add_parser(
        "ask", help="real table photos through the screen's ask flow: host presses per "
                    "card, and what learning at the table gains (issue 37)")
    bench.set_defaults(func=_bench_ask)

    bench = benches.add_parser(
        "tilt", help="cards in the far half of a table seen by a camera leaning back, "
                     "against the near half, per finder setting (the simulated table; "
                     "issue 37)")
    bench.set_defaults(func=_bench_tilt)


def _demo(args: argparse.Namespace) -> int:
    from tablekeeper import games

    kit = games.load(args.game)
    if args.text:
        if kit.text_demo is None:
            print(f"tablekeeper demo: {kit.name} has no --text demo", file=sys.stderr)
            return 2
        try:
            options = games.demo_options(kit, players=args.players, variant=args.variant)
        except ValueError as exc:
            print(f"tablekeeper demo: {exc}", file=sys.stderr)
            return 2
        args.players, args.variant = options["players"], options["variant"]
        return kit.text_demo(args)
    if args.from_scratch:
        from tablekeeper.tablesetup.scratch import run_from_scratch

        return run_from_scratch(args)
    from tablekeeper.demo import run_demo

    return run_demo(args)


def _kiosk(args: argparse.Namespace) -> int:
    from tablekeeper.kiosk import run_kiosk

    return run_kiosk(args)


def _bench_loop(args: argparse.Namespace) -> int:
    from tablekeeper.loop_bench import run_bench

    return run_bench(args)


def _bench_tilt(args: argparse.Namespace) -> int:
    from vision.tiltbench import main

    return main()


def _bench_ask(args: argparse.Namespace) -> int:
    from tablekeeper.askbench import main

    return main()
