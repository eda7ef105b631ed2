"""The league board: subscribes to every table, keeps results in SQLite, serves the café's page.

Web framework: Starlette served by uvicorn. Why: the board is a JSON API plus a few static files
and an SVG per game; Starlette does exactly that, is small (a Pi Zero 2 serves it), well kept
(the base of FastAPI), and needs no template engine or ORM; uvicorn is its standard server.
Everything the page needs (HTML, JS, CSS, the charts, and the box's own Traditional Chinese
font subset, for screens without a CJK font) is served by the board itself: no CDN, since a
café may have no internet. The page polls ``/api/board`` every second (works on every
phone and through any proxy; SSE would save little at this size).

Routes: ``/`` (the page), ``/static/*``, ``/api/board`` (tables now, tonight's and the season's
league per game, finished games), ``/games/<id>/chart.svg``, ``/games/<id>/bgstats.json``,
``/export/bgstats.json``, ``/export/results.csv``.
"""

from __future__ import annotations

import errno
import html
import json
import logging
import queue
import socket
import sqlite3
import sys
import threading
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from tablekeeper.cafe import export, messages, topics
from tablekeeper.cafe.settings import BoardSettings, SettingsError, make_client
from tablekeeper.cafe.store import Store, league, now_ms, teams, verdict

log = logging.getLogger("tablekeeper.cafe.board")
STATIC = Path(__file__).parent / "static"
COLOURS = ("#d62728", "#e6b800", "#1f77b4", "#2ca02c", "#8c564b", "#9467bd", "#ff7f0e",
           "#17becf")


class Subscriber:
    """The board's MQTT side: a persistent session (the broker keeps the QoS 1 results for it
    while it is away), every table's topics, each message checked before it is stored, and a
    result acknowledged to the broker only once its SQLite commit is done (paho's manual
    acknowledgement). A store that is busy (another process holds the file) or full is tried
    again (``retry_s``, doubling up to 5 s) until it works: the result stays unacknowledged
    meanwhile, so a board stopped then gets it again from the broker."""

    def __init__(self, settings: BoardSettings, store: Store, retry_s: float = 0.2) -> None:
        self.settings = settings
        self.store = store
        self.retry_s = retry_s
        self.connected = threading.Event()
        self.client = make_client(settings.broker, client_id=settings.client_id, clean=False,
                                  manual_ack=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self._inbox: queue.Queue[Any] = queue.Queue()
        self._stop = threading.Event()
        self._worker = threading.Thread(target=self._work, name="board-store", daemon=True)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if getattr(reason, "is_failure", False):
            log.warning("broker refused the board: %s", reason)
            return
        # live states: QoS 0, the broker keeps the latest (retained) and queues none while the
        # board is away; results: QoS 1, queued for the board's persistent session
        client.subscribe([(f"{messages.ROOT}/+/state", 0),
                          (f"{messages.ROOT}/+/results/+", 1)])
        client.publish(topics.EPOCH_TOPIC, json.dumps({"epoch": self.store.epoch}), qos=1,
                       retain=True)
        log.info("board subscribed at %s:%s", self.settings.broker.host,
                 self.settings.broker.port)
        self.connected.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self.connected.clear()
        if getattr(reason, "is_failure", True):
            log.warning("board disconnected from the broker (%s); retrying", reason)

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        # paho's network thread: hand over and return (a busy store must not stall it)
        self._inbox.put(msg)

    def _work(self) -> None:
        while not self._stop.is_set():
            try:
                msg = self._inbox.get(timeout=0.2)
            except queue.Empty:
                continue
            if self._handle(msg):
                self.client.ack(msg.mid, msg.qos)

    def _handle(self, msg: Any) -> bool:
        """Check and store one message; True once it may be acknowledged (stored, or refused
        as bad), False when the board stops before it could be stored."""
        try:
            message = messages.parse(msg.topic, msg.payload)
        except messages.BadMessage as exc:
            log.warning("ignored a bad message on %.120s: %s", msg.topic, exc)
            try:
                self.store.count_bad()
            except sqlite3.Error as db_exc:
                log.warning("could not count it: %s", db_exc)
            return True
        delay = self.retry_s
        failing = False
        while True:
            try:
                self.store.add(message)
            except sqlite3.Error as exc:  # locked by another process, a full disk...
                if not failing:
                    log.error("could not store %s (%s): not acknowledged, trying again",
                              message["id"], exc)
                    failing = True
                if self._stop.wait(delay):
                    return False
                delay = min(delay * 2, 5.0)
                continue
            if failing:
                log.info("stored %s after all", message["id"])
            return True

    def start(self) -> None:
        b = self.settings.broker
        self._worker.start()
        self.client.connect_async(b.host, b.port, keepalive=b.keepalive)
        self.client.loop_start()

    def stop(self) -> None:
        self._stop.set()
        self._worker.join(10)
        self.client.disconnect()
        self.client.loop_stop()


def evening_start_ms(now: datetime, hour: int) -> int:
    """When "tonight" began: the last local ``hour`` o'clock (a café's evening runs past
    midnight)."""
    start = now.replace(hour=hour, minute=0, second=0, microsecond=0)
    if start > now:
        start -= timedelta(days=1)
    return int(start.timestamp() * 1000)


def board_data(store: Store, evening_hour: int, now: datetime | None = None) -> dict[str, Any]:
    """Everything the page shows (computed anew; :class:`BoardCache` keeps it between
    results)."""
    now = now or datetime.now().astimezone()
    season = store.results()
    since = evening_start_ms(now, evening_hour)
    tonight = [r for r in season if r["received_ms"] >= since]
    games = [{k: r[k] for k in ("game_id", "table", "game", "players", "winners", "reason",
                                "created", "duration_ms", "cooperative")}
             | {"verdict": verdict(r)} for r in reversed(season[-50:])]
    return {"tables": store.live(), "league_tonight": league(tonight),
            "league_season": league(season), "teams_tonight": teams(tonight),
            "teams_season": teams(season), "games": games, "stats": store.stats(),
            "results": len(season), "titles": export.game_titles()}


class BoardCache:
    """``/api/board``'s answer, made once per change: the leagues when a result arrives (or
    the evening starts), the tables when a state arrives. Every poll in between is answered
    from here; one poll makes it while the others wait for that one."""

    def __init__(self, store: Store, evening_hour: int) -> None:
        self.store = store
        self.evening_hour = evening_hour
        self._lock = threading.Lock()
        self._key: tuple[int, int] | None = None
        self._leagues: dict[str, Any] = {}
        self._answer_key: tuple[int, int, int] | None = None
        self._answer = b""
        self.builds = 0

    def answer(self, now: datetime | None = None) -> bytes:
        now = now or datetime.now().astimezone()
        since = evening_start_ms(now, self.evening_hour)
        with self._lock:
            version, live_version = self.store.version, self.store.live_version
            key = (version, live_version, since)
            if key == self._answer_key:
                return self._answer
            if self._key != (version, since):
                data = board_data(self.store, self.evening_hour, now)
                self._leagues = {k: v for k, v in data.items() if k not in ("tables", "stats")}
                self._key = (version, since)
                self.builds += 1
            data = {"tables": self.store.live(), "stats": self.store.stats(), **self._leagues}
            self._answer = json.dumps(data, ensure_ascii=False).encode("utf-8")
            self._answer_key = key
            return self._answer


def _short(name: str, limit: int = 18) -> str:
    return name if len(name) <= limit else name[:limit - 1] + "…"


def chart_svg(result: dict[str, Any], width: int = 480) -> str:
    """The score of every player over the game, as an SVG (no script, no font of its own:
    the page puts it inline, so its text has the page's font), legible on a phone's width
    (axis labels 18 px and a legend of 22 px under the plot in a 480 px wide drawing), one
    line per player (a cooperative game: one line, the team's cards left)."""
    points = result.get("timeline") or []
    players = result.get("players") or []
    coop = bool(result.get("cooperative"))
    series: list[tuple[str, int]] = [("團隊 Team", 0)] if coop and players else [
        (str(p.get("name", "")), seat) for seat, p in enumerate(players)]
    left, right, top = 56, 12, 16
    plot_h = 200
    legend_top = top + plot_h + 60
    height = legend_top + 30 * len(series) + 8
    plot_w = width - left - right
    max_t = float(max([int(p[1]) for p in points] + [1]))
    scores = [s for p in points for s in p[2] if isinstance(s, int)]
    lo, hi = min([0, *scores]), max([1, *scores])
    esc = html.escape

    def x(t: float) -> float:
        return left + plot_w * t / max_t

    def y(v: float) -> float:
        return float(top + plot_h * (1 - (v - lo) / (hi - lo)))

    label = "剩下的牌 cards left" if coop else "分數 score"
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" role="img" '
             f'aria-label="{esc(str(result.get("game_id", "")))}">',
             f'<rect width="{width}" height="{height}" fill="#fff"/>',
             f'<line x1="{left}" y1="{y(lo):.1f}" x2="{width - right}" y2="{y(lo):.1f}" '
             'stroke="#888"/>',
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#888"/>',
             f'<text x="{left - 8}" y="{top + 16}" font-size="18" text-anchor="end">{hi}</text>',
             f'<text x="{left - 8}" y="{y(lo):.1f}" font-size="18" text-anchor="end">{lo}</text>',
             f'<text x="{left}" y="{top + plot_h + 28}" font-size="18">{label}</text>',
             f'<text x="{width - right}" y="{top + plot_h + 28}" font-size="18" '
             f'text-anchor="end">{round(max_t / 60000)} 分鐘 min</text>']
    for n, (name, seat) in enumerate(series):
        colour = COLOURS[n % len(COLOURS)]
        line = [(float(p[1]), p[2][seat]) for p in points
                if seat < len(p[2]) and isinstance(p[2][seat], int)]
        if not coop:  # every player starts at 0; a team's cards left do not
            line.insert(0, (0.0, 0))
        coords = " ".join(f"{x(t):.1f},{y(v):.1f}" for t, v in line)
        if len(line) == 1:  # one point known (a cooperative game's end): a dot
            parts.append(f'<circle cx="{x(line[0][0]):.1f}" cy="{y(line[0][1]):.1f}" r="6" '
                         f'fill="{colour}"/>')
        final = players[seat].get("score") if seat < len(players) else None
        parts.append(f'<polyline class="player" fill="none" stroke="{colour}" '
                     f'stroke-width="3" points="{coords}"><title>{esc(name)}'
                     '</title></polyline>')
        ly = legend_top + 30 * n
        parts.append(f'<rect x="{left}" y="{ly - 16}" width="22" height="18" fill="{colour}"/>')
        parts.append(f'<text x="{left + 32}" y="{ly}" font-size="22">{esc(_short(name))}: '
                     f'{"" if final is None else final}</text>')
    parts.append("</svg>")
    return "".join(parts)


def make_app(store: Store, evening_hour: int = 12) -> Any:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    cache = BoardCache(store, evening_hour)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    def api_board(request: Request) -> Response:
        return Response(cache.answer(), media_type="application/json; charset=utf-8",
                        headers={"Cache-Control": "no-store"})

    def _game(request: Request) -> dict[str, Any] | None:
        return store.result(str(request.path_params["table"]),
                            str(request.path_params["game_id"]))

    def chart(request: Request) -> Response:
        result = _game(request)
        if result is None:
            return JSONResponse({"error": "no such game"}, status_code=404)
        return Response(chart_svg(result), media_type="image/svg+xml")

    def _download(body: str, name: str, media: str) -> Response:
        return Response(body, media_type=media,
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    def game_bgstats(request: Request) -> Response:
        result = _game(request)
        if result is None:
            return JSONResponse({"error": "no such game"}, status_code=404)
        return _download(json.dumps(export.bgstats([result]), ensure_ascii=False),
                         f"{result['table']}-{result['game_id']}.bgsplay", "application/json")

    def all_bgstats(request: Request) -> Response:
        return _download(json.dumps(export.bgstats(store.results()), ensure_ascii=False),
                         "tablekeeper-results.bgsplay", "application/json")

    def all_csv(request: Request) -> Response:
        return _download(export.csv_text(store.results()), "tablekeeper-results.csv",
                         "text/csv; charset=utf-8")

    async def font(request: Request) -> Response:
        from display.fonts import BUNDLED_DIR, BUNDLED_FILES

        name = BUNDLED_FILES.get(request.path_params["weight"])
        if name is None:
            return JSONResponse({"error": "no such font"}, status_code=404)
        return FileResponse(BUNDLED_DIR / name, media_type="font/otf",
                            headers={"Cache-Control": "public, max-age=604800"})

    # the sync routes run in Starlette's thread pool: an export of a season never holds up
    # the polls (answered from the cache on the event loop)
    routes = [Route("/", index), Route("/fonts/{weight}.otf", font), Route("/api/board", api_board),
              Route("/games/{table}/{game_id}/chart.svg", chart),
              Route("/games/{table}/{game_id}/bgstats.json", game_bgstats),
              Route("/export/bgstats.json", all_bgstats),
              Route("/export/results.csv", all_csv),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    return Starlette(routes=routes)


class WebServer:
    """uvicorn in a thread (the demo, the tests); ``tablekeeper cafe board`` runs it in the
    main thread."""

    def __init__(self, app: Any, host: str, port: int) -> None:
        import uvicorn

        self.server = uvicorn.Server(uvicorn.Config(app, host=host, port=port,
                                                    log_level="warning", lifespan="off"))
        self.thread = threading.Thread(target=self.server.run, name="board-web", daemon=True)
        self.url = f"http://{host}:{port}/"

    def start(self, timeout: float = 10.0) -> None:
        self.thread.start()
        deadline = now_ms() + timeout * 1000
        while not self.server.started and now_ms() < deadline:
            threading.Event().wait(0.02)
        if not self.server.started:
            raise RuntimeError(f"the board's web server did not start at {self.url}")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


class PortBusy(OSError):
    """The board's port is held by another process (an old board still stopping): not a
    bad setting, so the unit tries again (exit 1, one line)."""


def listen(settings: BoardSettings) -> socket.socket:
    """The board's listening socket, bound before anything else starts: a host that is no
    address of this machine, or a port it may not take, is a bad setting
    (:class:`SettingsError` naming ``[board] listen_host`` or ``listen_port``)."""
    host, port = settings.listen_host, settings.listen_port
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise SettingsError(f"[board] listen_host: {host!r} is no address of this machine "
                            f"({exc}); an address of it (127.0.0.1, 0.0.0.0, ::) or its "
                            "name is wanted") from exc
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise PortBusy(exc.errno, f"port {port} on {host} is in use by another program"
                           ) from exc
        if exc.errno in (errno.EACCES, errno.EPERM):
            raise SettingsError(f"[board] listen_port: {port} may not be taken by this user "
                                f"({exc.strerror}); a port from 1024 to 65535 is wanted") \
                from exc
        raise SettingsError(f"[board] listen_host: cannot listen on {host!r} "
                            f"({exc.strerror or exc}); an address of this machine is wanted") \
            from exc
    sock.set_inheritable(True)
    return sock


def run_board(settings: BoardSettings) -> int:
    import uvicorn

    try:
        sock = listen(settings)
    except PortBusy as exc:
        print(f"tablekeeper cafe board: {exc.strerror}; trying again", file=sys.stderr,
              flush=True)
        return 1
    try:
        store = Store(settings.db)
    except (OSError, sqlite3.Error) as exc:  # a folder it may not write, a file locked for good
        sock.close()
        raise SettingsError(f"[board] db: cannot open {settings.db} "
                            f"({getattr(exc, 'strerror', None) or exc}); a database file in a "
                            "folder the board may write is wanted") from exc
    sub = Subscriber(settings, store)
    sub.start()
    log.info("board at http://%s:%s/ (results in %s)", settings.listen_host,
             settings.listen_port, settings.db)
    try:
        server = uvicorn.Server(uvicorn.Config(make_app(store, settings.evening_starts),
                                               log_level="warning"))
        server.run(sockets=[sock])
    finally:
        sub.stop()
        store.close()
        sock.close()
    return 0
