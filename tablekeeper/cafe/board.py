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

import html
import json
import logging
import threading
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from tablekeeper.cafe import export, messages
from tablekeeper.cafe.settings import BoardSettings, make_client
from tablekeeper.cafe.store import Store, league, now_ms

log = logging.getLogger("tablekeeper.cafe.board")
STATIC = Path(__file__).parent / "static"
COLOURS = ("#d62728", "#e6b800", "#1f77b4", "#2ca02c", "#8c564b", "#9467bd", "#ff7f0e",
           "#17becf")


class Subscriber:
    """The board's MQTT side: a persistent session (the broker keeps QoS 1 messages for it
    while it is away), every table's topics, each message checked before it is stored."""

    def __init__(self, settings: BoardSettings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.connected = threading.Event()
        self.client = make_client(settings.broker, client_id=settings.client_id, clean=False)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if getattr(reason, "is_failure", False):
            log.warning("broker refused the board: %s", reason)
            return
        client.subscribe([(f"{messages.ROOT}/+/state", 1),
                          (f"{messages.ROOT}/+/results/+", 1)])
        log.info("board subscribed at %s:%s", self.settings.broker.host,
                 self.settings.broker.port)
        self.connected.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self.connected.clear()
        if getattr(reason, "is_failure", True):
            log.warning("board disconnected from the broker (%s); retrying", reason)

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        try:
            message = messages.parse(msg.topic, msg.payload)
        except messages.BadMessage as exc:
            log.warning("ignored a bad message on %s: %s", msg.topic, exc)
            self.store.count_bad()
            return
        try:
            self.store.add(message)
        except Exception:  # a full disk, a locked file: logged; paho's thread must live on
            log.exception("could not store %s", message.get("id"))

    def start(self) -> None:
        b = self.settings.broker
        self.client.connect_async(b.host, b.port, keepalive=b.keepalive)
        self.client.loop_start()

    def stop(self) -> None:
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
    now = now or datetime.now().astimezone()
    season = store.results()
    since = evening_start_ms(now, evening_hour)
    tonight = [r for r in season if r["received_ms"] >= since]
    games = [{k: r[k] for k in ("game_id", "table", "game", "players", "winners", "reason",
                                "created", "duration_ms")} for r in reversed(season[-50:])]
    return {"tables": store.live(), "league_tonight": league(tonight),
            "league_season": league(season), "games": games, "stats": store.stats(),
            "results": len(season), "titles": export.game_titles()}


def chart_svg(result: dict[str, Any], width: int = 480, height: int = 240) -> str:
    """The score of every player over the game, as a small SVG (no script, no fonts
    fetched: the page's own font)."""
    points = result.get("timeline") or []
    players = result.get("players") or []
    left, right, top, bottom = 36, 12, 12, 24
    plot_w, plot_h = width - left - right, height - top - bottom
    max_t = float(max([int(p[1]) for p in points] + [1]))
    scores = [s for p in points for s in p[2] if isinstance(s, int)]
    lo, hi = min([0, *scores]), max([1, *scores])
    esc = html.escape

    def x(t: float) -> float:
        return left + plot_w * t / max_t

    def y(v: float) -> float:
        return float(top + plot_h * (1 - (v - lo) / (hi - lo)))

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" role="img" '
             f'aria-label="{esc(result.get("game_id", ""))}">',
             f'<rect width="{width}" height="{height}" fill="#fff"/>',
             f'<line x1="{left}" y1="{y(lo):.1f}" x2="{width - right}" y2="{y(lo):.1f}" '
             'stroke="#888"/>',
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#888"/>',
             f'<text x="4" y="{top + 10}" font-size="11">{hi}</text>',
             f'<text x="4" y="{y(lo):.1f}" font-size="11">{lo}</text>',
             f'<text x="{width - right}" y="{height - 6}" font-size="11" text-anchor="end">'
             f'{round(max_t / 60000)} min</text>']
    for seat, player in enumerate(players):
        colour = COLOURS[seat % len(COLOURS)]
        line = [(0.0, 0)] + [(float(p[1]), p[2][seat]) for p in points
                             if seat < len(p[2]) and isinstance(p[2][seat], int)]
        coords = " ".join(f"{x(t):.1f},{y(v):.1f}" for t, v in line)
        parts.append(f'<polyline class="player" fill="none" stroke="{colour}" '
                     f'stroke-width="2" points="{coords}"><title>{esc(player["name"])}'
                     '</title></polyline>')
        parts.append(f'<text x="{left + 6}" y="{top + 12 + 13 * seat}" font-size="11" '
                     f'fill="{colour}">{esc(player["name"])}: '
                     f'{"" if player["score"] is None else player["score"]}</text>')
    parts.append("</svg>")
    return "".join(parts)


def make_app(store: Store, evening_hour: int = 12) -> Any:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    def _json(data: Any) -> Response:
        return Response(json.dumps(data, ensure_ascii=False),
                        media_type="application/json; charset=utf-8",
                        headers={"Cache-Control": "no-store"})

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    async def api_board(request: Request) -> Response:
        return _json(board_data(store, evening_hour))

    def _game(request: Request) -> dict[str, Any] | None:
        return store.result(str(request.path_params["game_id"]))

    async def chart(request: Request) -> Response:
        result = _game(request)
        if result is None:
            return JSONResponse({"error": "no such game"}, status_code=404)
        return Response(chart_svg(result), media_type="image/svg+xml")

    def _download(body: str, name: str, media: str) -> Response:
        return Response(body, media_type=media,
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def game_bgstats(request: Request) -> Response:
        result = _game(request)
        if result is None:
            return JSONResponse({"error": "no such game"}, status_code=404)
        return _download(json.dumps(export.bgstats([result]), ensure_ascii=False),
                         f"{result['game_id']}.bgsplay", "application/json")

    async def all_bgstats(request: Request) -> Response:
        return _download(json.dumps(export.bgstats(store.results()), ensure_ascii=False),
                         "tablekeeper-results.bgsplay", "application/json")

    async def all_csv(request: Request) -> Response:
        return _download(export.csv_text(store.results()), "tablekeeper-results.csv",
                         "text/csv; charset=utf-8")

    async def font(request: Request) -> Response:
        from display.fonts import BUNDLED_DIR, BUNDLED_FILES

        name = BUNDLED_FILES.get(request.path_params["weight"])
        if name is None:
            return JSONResponse({"error": "no such font"}, status_code=404)
        return FileResponse(BUNDLED_DIR / name, media_type="font/otf",
                            headers={"Cache-Control": "public, max-age=604800"})

    routes = [Route("/", index), Route("/fonts/{weight}.otf", font), Route("/api/board", api_board),
              Route("/games/{game_id}/chart.svg", chart),
              Route("/games/{game_id}/bgstats.json", game_bgstats),
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


def run_board(settings: BoardSettings) -> int:
    import uvicorn

    store = Store(settings.db)
    sub = Subscriber(settings, store)
    sub.start()
    log.info("board at http://%s:%s/ (results in %s)", settings.listen_host,
             settings.listen_port, settings.db)
    try:
        uvicorn.run(make_app(store, settings.evening_starts), host=settings.listen_host,
                    port=settings.listen_port, log_level="warning")
    finally:
        sub.stop()
        store.close()
    return 0
