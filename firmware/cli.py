"""Firmware commands: ``tablekeeper bench buzzer``, ``tablekeeper buzzer calibrate|test``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from firmware.config import ArbiterConfig
from ground.files import read_text

Subcommands = Any  # argparse._SubParsersAction[argparse.ArgumentParser]


def register(commands: Subcommands, benches: Subcommands) -> None:
    bench = benches.add_parser(
        "buzzer", help="simulate many buzzer races through the arbiter",
        description="Simulate races (random gaps 1 us-50 ms, bounces, late callbacks in random "
                    "order) through the real arbiter; the last line is "
                    "'races= decidable= correct= ties= overhead_us='.")
    bench.add_argument("--races", type=int, default=100_000, help="races (default 100000)")
    bench.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    bench.add_argument("--settle-ms", type=float, default=ArbiterConfig.settle_ms,
                       help="the arbiter's settle window (default %(default)s)")
    bench.add_argument("--tie-window-us", type=float, default=ArbiterConfig.tie_window_us,
                       help="the arbiter's tie window (default %(default)s)")
    bench.set_defaults(func=bench_buzzer)

    buzzer = commands.add_parser("buzzer", help="buzzer hardware tools (calibrate, test)")
    sub = buzzer.add_subparsers(dest="buzzer_command", required=True, metavar="ACTION")
    cal = sub.add_parser(
        "calibrate", help="measure the edge-timestamp spread of two jumpered seat inputs",
        description="Wire one output pin to two seat inputs (see hardware.md, 'Buzzer "
                    "calibration'), toggle it many times and print the distribution of the "
                    "timestamp differences and a suggested tie window. Needs the Pi.")
    cal.add_argument("--out", type=int, default=7,
                     help="BCM pin driving the jumper (default 7, header pin 26)")
    cal.add_argument("--seats", type=int, nargs=2, default=(1, 2), metavar=("A", "B"),
                     help="the two seats whose inputs are jumpered (default 1 2)")
    cal.add_argument("--toggles", type=int, default=2000, help="presses to make (default 2000)")
    cal.add_argument("--config", help="a TOML file with a [firmware] section (default wiring "
                                      "if not given)")
    cal.set_defaults(func=buzzer_calibrate)
    test = sub.add_parser("test", help="show seat and host presses live in the terminal")
    test.add_argument("--config", help="a TOML file with a [firmware] section")
    test.add_argument("--seconds", type=float, default=0.0,
                      help="stop after this long (default: until Ctrl-C)")
    test.set_defaults(func=buzzer_test)


def bench_buzzer(args: argparse.Namespace) -> int:
    from firmware import bench

    if args.races < 1:
        print("bench buzzer: --races must be at least 1", file=sys.stderr)
        return 2
    try:
        cfg = ArbiterConfig(settle_ms=args.settle_ms, tie_window_us=args.tie_window_us)
    except ValueError as exc:
        print(f"bench buzzer: {exc}", file=sys.stderr)
        return 2
    result = bench.run(args.races, args.seed, cfg)
    print(f"arbiter: settle {cfg.settle_ms:g} ms, tie window {cfg.tie_window_us:g} us, "
          f"lockout {cfg.lockout_ms:g} ms, debounce {cfg.debounce_ms:g} ms")
    print(f"edges={result.edges} polls={result.polls} presses={result.presses} "
          f"arbiter_cpu_s={result.arbiter_s:.3f} baseline_cpu_s={result.baseline_s:.3f} "
          f"per_call_us={result.arbiter_s * 1e6 / max(1, result.edges + result.polls):.3f} "
          f"ratio_to_baseline={result.arbiter_s / max(1e-9, result.baseline_s):.1f}")
    print(f"tie races reported exactly: {result.ties_ok}/{result.races - result.decidable}, "
          f"undecided: {result.undecided}")
    for failure in result.failures:
        print(f"FAIL {failure}")
    print(result.line())
    ok = result.correct == result.decidable and not result.failures
    return 0 if ok else 1


def _load_config(path: str | None) -> Any:
    import tomllib

    from firmware.config import FirmwareConfig

    if path is None:
        return FirmwareConfig()
    data = tomllib.loads(read_text(path))
    return FirmwareConfig.from_dict(data.get("firmware", {}))


def buzzer_calibrate(args: argparse.Namespace) -> int:
    from firmware import calibrate, devices

    try:
        config = _load_config(args.config)
        factory = devices.default_pin_factory()
        report = calibrate.run(config, factory, out_pin=args.out, seats=tuple(args.seats),
                               toggles=args.toggles)
    except (ValueError, RuntimeError, OSError) as exc:
        print(f"buzzer calibrate: {exc}", file=sys.stderr)
        return 1
    print(report.text())
    return 0


def buzzer_test(args: argparse.Namespace) -> int:
    from firmware import live

    try:
        config = _load_config(args.config)
        return live.run(config, seconds=args.seconds)
    except (ValueError, RuntimeError, OSError) as exc:
        print(f"buzzer test: {exc}", file=sys.stderr)
        return 1
