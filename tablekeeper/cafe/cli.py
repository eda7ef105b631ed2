"""The café's commands: ``cafe publish|board|settings|acl``, ``export``, ``bench cafe`` and
``demo --tables N`` (options added to the ``demo`` command of :mod:`tablekeeper.app_commands`).
paho-mqtt, Starlette and uvicorn are imported inside the commands only."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tablekeeper.cafe.settings import SettingsError


def _tables(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of tables") from None
    if not 1 <= n <= 64:
        raise argparse.ArgumentTypeError(f"{n} tables: 1 to 64")
    return n


def register(commands: Any, benches: Any) -> None:
    cafe = commands.add_parser("cafe", help="many tables, one café: the MQTT publisher and "
                                            "the league board (docs/cafe.md)")
    sub = cafe.add_subparsers(dest="cafe_command", required=True, metavar="COMMAND")
    pub = sub.add_parser("publish", help="publish this table's games from its journals "
                                         "(the tablekeeper-publisher unit)")
    pub.add_argument("--settings", type=Path, required=True, metavar="FILE")
    pub.add_argument("--run-for", type=float, metavar="SECONDS")
    pub.add_argument("--log-level", default="INFO")
    pub.set_defaults(func=_publish)
    board = sub.add_parser("board", help="the league board: subscribe, store, serve the page "
                                         "(the tablekeeper-board unit)")
    board.add_argument("--settings", type=Path, required=True, metavar="FILE")
    board.add_argument("--log-level", default="INFO")
    board.set_defaults(func=_board)
    settings = sub.add_parser("settings", help="write the publisher's settings from the box's "
                                               "config.toml [cafe] (used by install.sh)")
    settings.add_argument("--config", type=Path, required=True, metavar="FILE")
    settings.add_argument("--journals", type=Path, default=Path("/var/lib/tablekeeper/games"))
    settings.add_argument("--state-file", type=Path,
                          default=Path("/var/lib/tablekeeper-publisher/state.json"))
    settings.set_defaults(func=_settings)
    acl = sub.add_parser("acl", help="print the broker ACL a café uses (Mosquitto acl_file)")
    acl.set_defaults(func=_acl)

    export = commands.add_parser("export", help="finished games as BG Stats JSON or CSV")
    export.add_argument("journals", nargs="+", metavar="JOURNAL", type=Path)
    export.add_argument("--format", choices=("bgstats", "csv"), default="bgstats")
    export.add_argument("--table", default="box", help="the table's name in the export")
    export.add_argument("--out", type=Path, metavar="FILE", help="default: standard output")
    export.set_defaults(func=_export)

    bench = benches.add_parser("cafe", help="N simulated tables into one broker and board: "
                                            "messages/s, latency p50/p95, nothing lost")
    bench.add_argument("--tables", type=_tables, nargs="+", default=[1, 2, 4, 8])
    bench.add_argument("--games-per-table", type=int, default=2)
    bench.add_argument("--pace-ms", type=float, default=10.0,
                       help="between two journal records of a table (10)")
    bench.add_argument("--timeout", type=float, default=600.0)
    bench.add_argument("--nice", type=int, default=0)
    bench.set_defaults(func=_bench)

    board_bench = benches.add_parser(
        "cafe-board", help="the board under load: a season of stored games, N phones "
                           "polling the real board process, results arriving: latency p50/p95")
    board_bench.add_argument("--games", type=int, default=3000)
    board_bench.add_argument("--clients", type=int, default=50)
    board_bench.add_argument("--seconds", type=float, default=20.0)
    board_bench.add_argument("--interval", type=float, default=1.0,
                             help="each client's polling interval (the page's: 1 s)")
    board_bench.add_argument("--result-every", type=float, default=2.0, metavar="SECONDS",
                             help="a new result arrives this often during the run (2)")
    board_bench.add_argument("--nice", type=int, default=0)
    board_bench.set_defaults(func=_board_bench)

    demo = commands.choices.get("demo")
    if demo is not None:
        demo.add_argument("--tables", type=_tables, default=None, metavar="N",
                          help="a café: N tables' simulated games at once into a local "
                               "broker (started for the run) and the league board")
        demo.add_argument("--games-per-table", type=int, default=1,
                          help="--tables: games each table plays (1)")
        demo.add_argument("--pace-ms", type=float, default=30.0,
                          help="--tables: between two journal records (30)")
        demo.add_argument("--linger", type=float, default=None, metavar="SECONDS",
                          help="--tables: after the games, the board stays up until Ctrl-C; "
                               "with this, only this long (scripts and tests)")
        one_table: Callable[[argparse.Namespace], int] = demo.get_default("func")
        demo.set_defaults(func=lambda args: _demo(args, one_table))


def _demo(args: argparse.Namespace, one_table: Callable[[argparse.Namespace], int]) -> int:
    if args.tables is None:
        return one_table(args)
    from tablekeeper.cafe.demo import run_demo_tables

    return run_demo_tables(args)


def _logging(level: str) -> None:
    logging.basicConfig(level=level.upper(), format="%(levelname)s %(name)s: %(message)s")


def _publish(args: argparse.Namespace) -> int:
    from tablekeeper.cafe.publisher import run_publisher
    from tablekeeper.cafe.settings import SettingsError, load_publisher

    _logging(args.log_level)
    try:
        settings = load_publisher(args.settings)
        settings.broker.password()  # fail now, clearly, if it cannot be read
    except SettingsError as exc:
        return _stop("publish", args.settings, exc)
    return run_publisher(settings, run_for=args.run_for)


def _stop(verb: str, path: Path, exc: SettingsError) -> int:
    """The unit's one line for a setting it cannot run with (the settings file, the key,
    what is wanted) and exit 78 (EX_CONFIG: the unit does not restart it)."""
    from ground.files import printable

    print(printable(f"tablekeeper cafe {verb} stopped: {path}: {exc}"), file=sys.stderr,
          flush=True)
    return 78


def _board(args: argparse.Namespace) -> int:
    from tablekeeper.cafe.board import run_board
    from tablekeeper.cafe.settings import SettingsError, load_board

    _logging(args.log_level)
    try:
        settings = load_board(args.settings)
        settings.broker.password()
        return run_board(settings)
    except SettingsError as exc:
        return _stop("board", args.settings, exc)


def _settings(args: argparse.Namespace) -> int:
    import tomllib

    from ground.files import printable, read_text
    from tablekeeper.cafe.config import CafeConfig
    from tablekeeper.config import MAX_CONFIG_BYTES

    try:  # bounded, never blocking: a FIFO or a device in its place is refused in one line
        data = tomllib.loads(read_text(args.config, MAX_CONFIG_BYTES))
        cafe = CafeConfig.from_dict(data.get("cafe", {}))
        text = cafe.publisher_toml(args.journals, args.state_file)
    except OSError as exc:
        print(f"tablekeeper cafe settings: {printable(args.config)}: cannot be read: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return 78  # EX_CONFIG, as every bad setting
    except (tomllib.TOMLDecodeError, ValueError) as exc:  # (UnicodeDecodeError included)
        print(f"tablekeeper cafe settings: {printable(args.config)}: {exc}", file=sys.stderr)
        return 78
    sys.stdout.write(text)
    return 0


def _acl(args: argparse.Namespace) -> int:
    from tablekeeper.cafe.broker import acl_text

    sys.stdout.write(acl_text())
    return 0


def _export(args: argparse.Namespace) -> int:
    from tablekeeper.cafe import export, messages
    from tablekeeper.journal import JournalError

    try:
        messages.check_table(args.table)
    except ValueError as exc:
        print(f"tablekeeper export: --table: {exc}", file=sys.stderr)
        return 2
    results = []
    for path in args.journals:
        try:
            view = messages.read_view(args.table, path, timeline=True)
        except JournalError as exc:
            print(f"tablekeeper export: {exc}", file=sys.stderr)
            return 1
        if not view.over:
            print(f"tablekeeper export: {path}: the game is not finished (seq {view.seq}); "
                  "only finished games are exported", file=sys.stderr)
            return 1
        results.append(messages.result_message(view, 0))
    text = (json.dumps(export.bgstats(results), ensure_ascii=False, indent=1)
            if args.format == "bgstats" else export.csv_text(results))
    if args.out is None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    else:
        try:
            args.out.write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"tablekeeper export: cannot write {args.out}: {exc.strerror}",
                  file=sys.stderr)
            return 1
    return 0


def _bench(args: argparse.Namespace) -> int:
    from tablekeeper.cafe.demo import run_bench

    return run_bench(args)


def _board_bench(args: argparse.Namespace) -> int:
    from tablekeeper.cafe.boardbench import run_board_bench

    return run_board_bench(args)
