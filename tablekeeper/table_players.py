"""Who sits at the table: the names and colours of the last game's players, kept for the next.

A host who switches games or plays again expects the same people at the table: the setup form
starts from them (:meth:`display.setup.SetupForm.for_spec`, within the new game's player range).
They are also kept in the games folder (``table.json``, written atomically), so that after a
restart (a power cut mid-evening) the table is set up as it was. The screen's language, as
the host last chose it in the host menu, is kept there too (``"lang"``): after a restart the
screen speaks it, whatever the config's ``[table] language`` (which is the first start's).
A file that cannot be read is reported and ignored: the form starts empty, the config's
language is spoken, nothing else is lost.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from display.i18n import LANGS
from display.model import PlayerInfo
from ground.files import read_json
from tablekeeper.atomic import write_atomic
from tablekeeper.names import bad_character

log = logging.getLogger("tablekeeper.table")

FILE_NAME = "table.json"
#: the largest table file read (eight players' names are a few hundred bytes)
MAX_BYTES = 64 * 1024


def _read(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    try:
        data = read_json(path, MAX_BYTES)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"{path}: cannot be read ({exc.strerror or exc}); the table starts empty"
    except ValueError as exc:
        return None, f"{path}: not a table of players ({exc}); the table starts empty"
    if not isinstance(data, dict):
        return None, f"{path}: not a table of players; the table starts empty"
    return data, None


def load(path: Path) -> tuple[tuple[PlayerInfo, ...], str | None]:
    """The players kept in ``path`` and a problem to report (None: fine, or no file yet)."""
    data, problem = _read(path)
    if data is None:
        return (), problem
    try:
        players = tuple(PlayerInfo(str(p["name"]), str(p["colour"]))
                        for p in data["players"])
    except (ValueError, KeyError, TypeError) as exc:
        return (), f"{path}: not a table of players ({exc!r}); the table starts empty"
    for p in players:
        bad = bad_character(p.name) or bad_character(p.colour)
        if bad is not None:  # a name that would reach terminals and exports with it
            return (), f"{path}: a name holds {bad}; the table starts empty"
    return players, None


def load_language(path: Path) -> str | None:
    """The screen's language kept in ``path`` (None: none kept, or not one the box speaks:
    the config's is spoken)."""
    data, _ = _read(path)
    lang = data.get("lang") if data is not None else None
    return lang if isinstance(lang, str) and lang in LANGS else None


def save(path: Path, players: tuple[PlayerInfo, ...], lang: str | None = None) -> str | None:
    """Keep ``players`` (and the screen's language ``lang``, if given) in ``path``; a
    problem to report (None: written)."""
    data: dict[str, object] = {"players": [{"name": p.name, "colour": p.colour}
                                           for p in players]}
    if lang is not None:
        data["lang"] = lang
    try:
        write_atomic(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    except OSError as exc:
        return f"{path}: cannot be written ({exc.strerror or exc}); the names stay until a restart"
    return None
