"""Who sits at the table: the names and colours of the last game's players, kept for the next.

A host who switches games or plays again expects the same people at the table: the setup form
starts from them (:meth:`display.setup.SetupForm.for_spec`, within the new game's player range).
They are also kept in the games folder (``table.json``, written atomically), so that after a
restart (a power cut mid-evening) the table is set up as it was. A file that cannot be read is
reported and ignored: the form starts empty, nothing else is lost.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from display.model import PlayerInfo
from ground.files import read_json
from tablekeeper.atomic import write_atomic

log = logging.getLogger("tablekeeper.table")

FILE_NAME = "table.json"


def load(path: Path) -> tuple[tuple[PlayerInfo, ...], str | None]:
    """The players kept in ``path`` and a problem to report (None: fine, or no file yet)."""
    try:
        data = read_json(path)
    except FileNotFoundError:
        return (), None
    except OSError as exc:
        return (), f"{path}: cannot be read ({exc.strerror or exc}); the table starts empty"
    except ValueError as exc:
        return (), f"{path}: not a table of players ({exc}); the table starts empty"
    try:
        players = tuple(PlayerInfo(str(p["name"]), str(p["colour"]))
                        for p in data["players"])
    except (ValueError, KeyError, TypeError) as exc:
        return (), f"{path}: not a table of players ({exc!r}); the table starts empty"
    return players, None


def save(path: Path, players: tuple[PlayerInfo, ...]) -> str | None:
    """Keep ``players`` in ``path``; a problem to report (None: written)."""
    data = {"players": [{"name": p.name, "colour": p.colour} for p in players]}
    try:
        write_atomic(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    except OSError as exc:
        return f"{path}: cannot be written ({exc.strerror or exc}); the names stay until a restart"
    return None
