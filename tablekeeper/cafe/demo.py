"""``tablekeeper demo --tables N`` and ``tablekeeper bench cafe``: N simulated tables (one
process each: the simulated game writing its journal, the publisher reading it) into one
broker (a local Mosquitto started for the run) and one board, then the count of what arrived.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tablekeeper.cafe.broker import LocalBroker, free_port
from tablekeeper.cafe.simtable import DEMO_GAMES
from tablekeeper.cafe.topics import BOARD_USER

log = logging.getLogger("tablekeeper.cafe.demo")


@dataclass
class CafeRun:
    tables: int
    games_per_table: int = 1
    pace_ms: float = 30.0
    #: after the games, keep the board up this long; None: until Ctrl-C (the demo)
    linger_s: float | None = 0.0
    timeout_s: float = 300.0
    nice: int = 0


def publisher_toml(table: str, journals: Path, state: Path, broker: LocalBroker) -> str:
    b = broker.settings_for(table)
    return (f'[publisher]\ntable = "{table}"\njournals = "{journals}"\n'
            f'state_file = "{state}"\npoll_s = 0.05\n\n'
            f'[broker]\nhost = "{b.host}"\nport = {b.port}\nca_file = "{b.ca_file}"\n'
            f'password_file = "{b.password_file}"\n')


def run_cafe(run: CafeRun, out: Path, echo: Any = print,
             done: Any = None) -> dict[str, Any]:
    """The café at ``run.tables`` tables; ``done(summary)`` is called when the games are over,
    before the board's lingering (``run.linger_s``)."""
    from tablekeeper.cafe.board import Subscriber, WebServer, make_app
    from tablekeeper.cafe.publisher import wait_until
    from tablekeeper.cafe.settings import BoardSettings
    from tablekeeper.cafe.store import Store, percentile

    out.mkdir(parents=True, exist_ok=True)
    names = [f"t{i}" for i in range(1, run.tables + 1)]
    broker = LocalBroker(out / "broker", names)
    broker.start()
    store = Store(out / "board.sqlite")
    settings = BoardSettings(db=out / "board.sqlite", broker=broker.settings_for(BOARD_USER))
    sub = Subscriber(settings, store)
    web = WebServer(make_app(store), "127.0.0.1", free_port())
    procs: list[tuple[str, subprocess.Popen[str]]] = []
    try:
        sub.start()
        web.start()
        if not sub.connected.wait(15):
            raise RuntimeError(f"the board could not connect to the broker: {broker.log_tail()}")
        echo(f"board: {web.url}")
        started = time.monotonic()
        for i, table in enumerate(names):
            folder = out / "tables" / table
            folder.mkdir(parents=True, exist_ok=True)
            settings_file = folder / "publisher.toml"
            settings_file.write_text(publisher_toml(table, folder / "games",
                                                    folder / "publisher-state.json", broker))
            plan = ",".join(f"{DEMO_GAMES[(i + k) % len(DEMO_GAMES)]}:{i * 10 + k + 1}"
                            for k in range(run.games_per_table))
            argv = [sys.executable, "-m", "tablekeeper.cafe.simtable", "--table", table,
                    "--journals", str(folder / "games"), "--games", plan,
                    "--pace-ms", str(run.pace_ms), "--publisher", str(settings_file)]
            procs.append((table, subprocess.Popen(
                argv, stdout=subprocess.PIPE, stderr=open(folder / "stderr.log", "w"),  # noqa: SIM115
                text=True, preexec_fn=(lambda: os.nice(run.nice)) if run.nice else None)))
        finished = 0
        sent = 0
        acked = 0
        records = 0
        for table, proc in procs:
            try:
                stdout, _ = proc.communicate(timeout=max(1.0, run.timeout_s
                                                         - (time.monotonic() - started)))
            except subprocess.TimeoutExpired:
                proc.kill()
                stdout, _ = proc.communicate()
                log.warning("table %s did not finish in time", table)
            for line in stdout.splitlines():
                if line.startswith("{"):
                    d = json.loads(line)
                    finished += int(d["games_finished"])
                    sent += int(d["messages_sent"])
                    acked += int(d["results_acknowledged"])
                    records += int(d["records"])
        # every result the broker acknowledged must reach the board: nothing lost
        wait_until(lambda: len(store.results()) >= acked, 30)
        elapsed = time.monotonic() - started
        lat = store.latencies_ms()
        stats = store.stats()
        results = len(store.results())
        summary = {
            "tables": run.tables, "games_finished": finished,
            "results_acknowledged": acked, "results_on_board": results,
            "duplicates": stats["duplicates"], "bad_messages": stats["bad_messages"],
            "messages_sent": sent, "messages_received": stats["messages"],
            "messages_per_s": round(stats["messages"] / elapsed, 1),
            "journal_records": records, "records_per_s": round(records / elapsed, 1),
            "seconds": round(elapsed, 1),
            "latency_ms_p50": _round(percentile(lat, 0.5)),
            "latency_ms_p95": _round(percentile(lat, 0.95)),
            "board": web.url, "out": str(out)}
        if done is not None:
            done(summary)
        if run.linger_s is None:
            echo(f"the games are over; the board stays up at {web.url} until you press "
                 "Ctrl-C")
            try:
                while True:
                    time.sleep(3600)
            except KeyboardInterrupt:
                echo("Ctrl-C: the board stops")
        elif run.linger_s > 0:
            echo(f"the games are over; the board stays up {run.linger_s:g} s at {web.url} "
                 "(--linger)")
            time.sleep(run.linger_s)
        return summary
    finally:
        for _, proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        sub.stop()
        web.stop()
        store.close()
        broker.stop()


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def run_demo_tables(args: Any) -> int:
    from tablekeeper.cafe.broker import BrokerUnavailable

    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="tablekeeper-cafe-"))
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    run = CafeRun(tables=args.tables, games_per_table=args.games_per_table,
                  pace_ms=args.pace_ms, linger_s=args.linger)

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt  # SIGTERM (systemd, kill) stops it as Ctrl-C does: cleaned up

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even when started in background
    try:
        summary = run_cafe(run, out, echo=lambda s: print(s, flush=True),
                           done=lambda d: print(json.dumps(d, ensure_ascii=False), flush=True))
    except BrokerUnavailable as exc:
        print(f"tablekeeper demo: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # before the games were over
        print("tablekeeper demo: stopped (Ctrl-C)", file=sys.stderr)
        return 130
    return 0 if summary["results_on_board"] == summary["games_finished"] else 1


def run_bench(args: Any) -> int:
    """``tablekeeper bench cafe``: the café at N tables for each N given."""
    rows = []
    for n in args.tables:
        with tempfile.TemporaryDirectory(prefix=f"tk-cafe-bench-{n}-") as tmp:
            run = CafeRun(tables=n, games_per_table=args.games_per_table,
                          pace_ms=args.pace_ms, nice=args.nice, timeout_s=args.timeout)
            summary = run_cafe(run, Path(tmp), echo=lambda s: None)
        summary.pop("board")
        summary.pop("out")
        # lost: acknowledged by the broker, never on the board (must be 0); behind: games the
        # publishers had not yet had acknowledged when the run's time was up
        summary["lost"] = summary["results_acknowledged"] - summary["results_on_board"]
        summary["behind"] = summary["games_finished"] - summary["results_acknowledged"]
        print(json.dumps(summary), flush=True)
        rows.append(summary)
    print(f"{'tables':>6} {'games':>6} {'on board':>8} {'lost':>5} {'behind':>6} {'dups':>5} "
          f"{'records/s':>9} {'msg/s':>7} {'p50 ms':>7} {'p95 ms':>7}")
    for r in rows:
        print(f"{r['tables']:>6} {r['games_finished']:>6} {r['results_on_board']:>8} "
              f"{r['lost']:>5} {r['behind']:>6} {r['duplicates']:>5} {r['records_per_s']:>9} "
              f"{r['messages_per_s']:>7} "
              f"{r['latency_ms_p50']!s:>7} {r['latency_ms_p95']!s:>7}")
    return 0 if all(r["lost"] == 0 and r["behind"] == 0 for r in rows) else 1
