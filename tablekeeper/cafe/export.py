"""Finished games as BG Stats JSON (its "play file") and as CSV.

BG Stats (Board Game Stats, eerko.nl) opens a JSON "play file" through its share / open-in /
import function. Its layout, as in the files the app itself writes: ``about`` (a sentence),
``players`` (``uuid``, ``id``, ``name``, ``isAnonymous``, ``modificationDate``,
``bggUsername``), ``locations`` (``uuid``, ``id``, ``name``, ``modificationDate``), ``games``
(``uuid``, ``id``, ``name``, ``modificationDate``, ``cooperative``, ``highestWins``,
``noPoints``, ``usesTeams``, ``bggId``...) and ``plays``: ``uuid``, ``modificationDate``,
``entryDate``, ``playDate`` (``YYYY-MM-DD HH:MM:SS``), ``usesTeams``, ``durationMin``,
``ignored``, ``manualWinner``, ``rounds``, ``locationRefId``, ``gameRefId``, ``board``,
``playerScores`` (``score`` as text, ``winner``, ``newPlayer``, ``startPlayer``,
``playerRefId``, ``rank``, ``seatOrder``, ``role``). The ``...RefId`` fields point at the
``id`` of the player, game and location entries in the same file. UUIDs here are derived from
the game id and the names (uuid5), so exporting the same game twice gives the same file and
BG Stats recognises a play it already has.
"""

from __future__ import annotations

import csv
import io
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from ground.files import printable
from tablekeeper.cafe.store import team_won

NAMESPACE = uuid.UUID("6f1c3a4e-1d2b-5c3a-9e55-7461626c656b")  # "tablekeeper" namespace
ABOUT = ("This is a Play file that can be read by Board Game Stats. If you see this text, "
         "try to use a share, export or open-in function to open it with Board Game Stats. "
         "Written by tablekeeper.")

def game_titles() -> dict[str, dict[str, str]]:
    """Journal game name -> its titles by language (``zh-TW``, ``en``), from the game kits: the
    one place a game's name is written."""
    from tablekeeper.games import kits

    return {kit.engine.name: {lang: kit.title_in(lang) for lang in ("zh-TW", "en")}
            for kit in kits()}


def title_of(game: str) -> str:
    """The title a play-logging app lists ``game`` under: both languages, Chinese first."""
    titles = game_titles().get(game)
    return f"{titles['zh-TW']} ({titles['en']})" if titles else game


def _uid(*parts: str) -> str:
    return str(uuid.uuid5(NAMESPACE, "/".join(parts)))


def _when(result: dict[str, Any]) -> datetime:
    created = result.get("created")
    if isinstance(created, str):
        try:
            dt = datetime.fromisoformat(created)
            return dt if dt.tzinfo else dt.replace(tzinfo=UTC)
        except ValueError:
            pass
    written = result.get("written_ms")
    try:
        return datetime.fromtimestamp(int(written or 0) / 1000, UTC)
    except (ValueError, OverflowError, OSError, TypeError):  # a time no calendar has
        return datetime(1970, 1, 1, tzinfo=UTC)


def _stamp(dt: datetime) -> str:
    return dt.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")


def bgstats(results: list[dict[str, Any]], location: str = "tablekeeper café") -> dict[str, Any]:
    """One BG Stats play file holding every result given (finished games)."""
    players: dict[str, dict[str, Any]] = {}
    games: dict[str, dict[str, Any]] = {}
    loc = {"uuid": _uid("location", location), "id": 1, "name": location,
           "modificationDate": ""}
    plays: list[dict[str, Any]] = []
    newest = datetime(1970, 1, 1, tzinfo=UTC)
    for r in results:
        start = _when(r)
        try:
            end = start + timedelta(milliseconds=int(r.get("duration_ms") or 0))
        except OverflowError:  # a start at the calendar's very end
            end = start
        newest = max(newest, end)
        title = title_of(r["game"])
        game = games.setdefault(r["game"], {
            "uuid": _uid("game", r["game"]), "id": len(games) + 1, "name": title,
            "modificationDate": _stamp(end), "cooperative": bool(r.get("cooperative")),
            "highestWins": r["game"] != "the_game", "noPoints": False, "usesTeams": False,
            "bggId": 0})
        scores = []
        ranked = sorted({p["score"] for p in r["players"] if p["score"] is not None},
                        reverse=game["highestWins"])
        for seat, p in enumerate(r["players"]):
            player = players.setdefault(p["name"], {
                "uuid": _uid("player", p["name"]), "id": len(players) + 1, "name": p["name"],
                "isAnonymous": False, "modificationDate": _stamp(end), "bggUsername": ""})
            won = p["name"] in r["winners"]
            if r.get("cooperative"):
                won = team_won(r)
            scores.append({
                "score": "" if p["score"] is None else str(p["score"]), "winner": won,
                "newPlayer": False, "startPlayer": seat == 0, "playerRefId": player["id"],
                "rank": ranked.index(p["score"]) + 1 if p["score"] in ranked else 0,
                "seatOrder": seat + 1, "role": ""})
        plays.append({
            "uuid": _uid("play", r["game_id"]), "modificationDate": _stamp(end),
            "entryDate": _stamp(end), "playDate": _stamp(start), "usesTeams": False,
            "durationMin": max(1, round(int(r.get("duration_ms") or 0) / 60000)),
            "ignored": False, "manualWinner": False, "rounds": 0,
            "locationRefId": loc["id"], "gameRefId": game["id"],
            "board": f"{r['table']} · {r['game_id']}", "playerScores": scores})
    loc["modificationDate"] = _stamp(newest)
    return {"about": ABOUT, "players": list(players.values()), "locations": [loc],
            "games": list(games.values()), "plays": plays}


CSV_FIELDS = ("game_id", "table", "game", "date", "duration_min", "seat", "player", "score",
              "winner", "reason")


#: a cell starting with one of these is a formula to a spreadsheet (OWASP, CSV injection)
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def cell(text: str) -> str:
    """A text cell a spreadsheet shows as text: one that would start a formula gets a leading
    apostrophe, as OWASP advises (the csv module quotes and doubles the quotes); a control or
    bidi-override character (an old journal's name) is written as its escape."""
    text = printable(text)
    return "'" + text if text.startswith(FORMULA_START) else text


def csv_text(results: list[dict[str, Any]]) -> str:
    """One row per player per finished game; every text cell neutralised (:func:`cell`)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\r\n")
    writer.writeheader()
    for r in results:
        for seat, p in enumerate(r["players"]):
            writer.writerow({
                "game_id": cell(r["game_id"]), "table": cell(r["table"]),
                "game": cell(r["game"]), "date": _stamp(_when(r)),
                "duration_min": round(int(r.get("duration_ms") or 0) / 60000, 1),
                "seat": seat + 1, "player": cell(p["name"]),
                "score": "" if p["score"] is None else p["score"],
                "winner": "yes" if (team_won(r) if r.get("cooperative")
                                    else p["name"] in r["winners"]) else "no",
                "reason": cell(r.get("reason") or "")})
    return out.getvalue()
