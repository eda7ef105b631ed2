"""``tablekeeper bench cafe-board``: the board under a café's phones.

A season of ``--games`` results (real games played by the simulated players of three kits,
under varied names and ids) is stored in a board database; the real board process
(``tablekeeper cafe board``) serves it, subscribed to a Mosquitto of the run's own; ``--clients``
phones poll ``/api/board`` each at the page's pace (once a second, one request at a time, each
on its own keep-alive connection) for ``--seconds``, while a table sends a new result every
``--result-every`` seconds (each one makes the leagues again). Printed: requests, answer size,
latency p50/p95/max in ms, and how many results arrived during the run.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from tablekeeper.cafe import messages
from tablekeeper.cafe.broker import LocalBroker, free_port
from tablekeeper.cafe.store import Store, percentile
from tablekeeper.cafe.topics import BOARD_USER

NAMES = ("阿明", "小華", "美玲", "志強", "淑芬", "Alice", "Bob", "Chen", "Dana", "Eve", "Femi",
         "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea", "Mo", "Nia", "Oto", "Pia", "Quin", "Ray",
         "Sol")


def season(n: int, seed: int = 1) -> list[dict[str, Any]]:
    """``n`` results: three real games (simulated players, the real engines) under varied
    tables, players and ids."""
    from tablekeeper.cafe.simtable import DEMO_GAMES, simulated_game

    base = [messages.result_message(messages.read_view("t1", simulated_game(kit, 1),
                                                       timeline=True), 0)
            for kit in DEMO_GAMES]
    rng = random.Random(seed)
    out = []
    for i in range(n):
        msg = json.loads(json.dumps(base[i % len(base)]))
        table = f"t{1 + i % 12}"
        names = rng.sample(NAMES, len(msg["players"]))
        rename = {p["name"]: new for p, new in zip(msg["players"], names, strict=True)}
        for p in msg["players"]:
            p["name"] = rename[p["name"]]
        msg["winners"] = [rename[w] for w in msg["winners"]]
        gid = f"{rng.getrandbits(64):016x}"
        msg.update(table=table, game_id=gid, id=f"{gid}:result",
                   written_ms=int(time.time() * 1000) - (n - i) * 60_000)
        out.append(messages.check(msg))
    return out


def _client(host: str, port: int, until: float, interval: float,
            latencies: list[float], sizes: list[int], errors: list[str]) -> None:
    conn = http.client.HTTPConnection(host, port, timeout=30)
    time.sleep(random.random() * interval)  # phones do not poll in step
    while time.monotonic() < until:
        started = time.monotonic()
        try:
            conn.request("GET", "/api/board")
            response = conn.getresponse()
            body = response.read()
            if response.status != 200:
                errors.append(str(response.status))
        except (OSError, http.client.HTTPException) as exc:
            errors.append(type(exc).__name__)
            conn.close()
            conn = http.client.HTTPConnection(host, port, timeout=30)
            continue
        latencies.append((time.monotonic() - started) * 1000)
        sizes.append(len(body))
        time.sleep(max(0.0, interval - (time.monotonic() - started)))
    conn.close()


def run_board_bench(args: Any) -> int:
    from tablekeeper.cafe.publisher import wait_until
    from tablekeeper.cafe.settings import make_client

    with tempfile.TemporaryDirectory(prefix="tk-board-bench-") as tmp:
        folder = Path(tmp)
        made = time.monotonic()
        results = season(args.games + 200)
        stored, extra = results[:args.games], results[args.games:]
        store = Store(folder / "board.sqlite")
        for r in stored:
            store.add(r)
        store.close()
        fill_s = time.monotonic() - made
        broker = LocalBroker(folder / "broker", ["t1"])
        broker.start()
        port = free_port()
        b = broker.settings_for(BOARD_USER)
        settings = folder / "board.toml"
        settings.write_text(
            f'[board]\ndb = "{folder / "board.sqlite"}"\nlisten_port = {port}\n\n'
            f'[broker]\nhost = "{b.host}"\nport = {b.port}\nca_file = "{b.ca_file}"\n'
            f'password_file = "{b.password_file}"\n')
        log = open(folder / "board.log", "wb")  # noqa: SIM115
        board = subprocess.Popen([sys.executable, "-m", "tablekeeper", "cafe", "board",
                                  "--settings", str(settings)], stdout=log,
                                 stderr=subprocess.STDOUT,
                                 preexec_fn=(lambda: os.nice(args.nice)) if args.nice else None)
        table = make_client(broker.settings_for("t1"), "bench-t1")
        try:
            def up() -> bool:
                try:
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                    c.request("GET", "/api/board")
                    ok = c.getresponse().status == 200
                    c.close()
                    return ok
                except OSError:
                    return False

            if not wait_until(up, 120, 0.2):
                print("the board did not answer", file=sys.stderr)
                return 1
            table.connect(broker.host, broker.port)
            table.loop_start()
            latencies: list[float] = []
            sizes: list[int] = []
            errors: list[str] = []
            until = time.monotonic() + args.seconds
            threads = [threading.Thread(target=_client, args=(
                "127.0.0.1", port, until, args.interval, latencies, sizes, errors),
                daemon=True) for _ in range(args.clients)]
            for t in threads:
                t.start()
            sent = 0
            while time.monotonic() < until and sent < len(extra):
                time.sleep(args.result_every)
                r = extra[sent]
                table.publish(messages.result_topic(r["table"], r["game_id"]),
                              messages.encode({**r, "table": "t1"}), qos=1)
                sent += 1
            for t in threads:
                t.join(60)
        finally:
            table.loop_stop()
            board.terminate()
            board.wait(20)
            log.close()
            broker.stop()
    p50, p95 = percentile([round(x) for x in latencies], 0.5), \
        percentile([round(x) for x in latencies], 0.95)
    row = {"games": args.games, "clients": args.clients, "seconds": args.seconds,
           "requests": len(latencies), "requests_per_s": round(len(latencies) / args.seconds, 1),
           "errors": len(errors), "answer_kb": round(max(sizes, default=0) / 1024, 1),
           "results_during_run": sent, "latency_ms_p50": p50, "latency_ms_p95": p95,
           "latency_ms_max": round(max(latencies, default=0.0)),
           "fill_s": round(fill_s, 1)}
    print(json.dumps(row), flush=True)
    print(f"{args.games} games stored, {args.clients} clients polling every "
          f"{args.interval:g} s for {args.seconds:g} s, a new result every "
          f"{args.result_every:g} s: {row['requests']} requests, {row['errors']} errors, "
          f"p50 {p50} ms, p95 {p95} ms, max {row['latency_ms_max']} ms "
          f"({row['answer_kb']} KB an answer)")
    return 0 if not errors and latencies else 1
