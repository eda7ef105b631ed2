"""The café's names: topics, table names and game ids (no third-party import: the kiosk checks
its ``[cafe]`` section with :func:`check_table`).

- ``ROOT/<table>/state``: the table's live game (retained, QoS 0: the broker keeps the latest
  one only, and queues none for a board that is away);
- ``ROOT/<table>/results/<game_id>``: a finished game (QoS 1, queued for the board while it is
  away, acknowledged by the board only once stored).

``<table>`` is the table's broker user: the broker's ACL (``pattern write ROOT/%u/#``) lets a
user write under its own name only, so the topic says which table a message is from. The table
alphabet has no ``-`` or ``/`` (no name is a prefix of another's topic), and ``board`` (the
board's user) is no table's name. A game id is the random ``id`` of its journal's header (16
hex digits); a journal written before headers had one keeps the id it was published under
(``<table>-`` + 12 hex digits of the SHA-256 of its header line). The board keys results by
table *and* game id.
"""

from __future__ import annotations

import hashlib
import re

SCHEMA = "tablekeeper.cafe"
VERSION = 1
ROOT = "tablekeeper/tables"
BOARD_USER = "board"
#: the board's retained announcement of its store's epoch (a random id made with the store):
#: a publisher that knew another one sends its results again (a damaged store started anew)
EPOCH_TOPIC = "tablekeeper/board/epoch"
#: a table's name: its topic prefix and its broker user
TABLE_RE = re.compile(r"^[a-z0-9][a-z0-9_]{0,31}$")
#: a journal header's random id (new games), or the derived id of a journal without one
GAME_ID_RE = re.compile(r"^(?:[0-9a-f]{16}|[a-z0-9][a-z0-9_-]{0,31}-[0-9a-f]{12})$")


def check_table(name: str) -> str:
    if not TABLE_RE.match(name) or name == BOARD_USER:
        raise ValueError(f"table name {name!r:.40}: use 1-32 of a-z, 0-9 and '_', starting "
                         f"with a letter or digit, not {BOARD_USER!r} (it names the table's "
                         "topic prefix and its broker user)")
    return name


def state_topic(table: str) -> str:
    return f"{ROOT}/{table}/state"


def result_topic(table: str, game_id: str) -> str:
    return f"{ROOT}/{table}/results/{game_id}"


def derived_game_id(table: str, header_line: bytes) -> str:
    """The id of a game whose journal header has no ``id`` (written before it had one)."""
    digest = hashlib.sha256(header_line.rstrip(b"\n")).hexdigest()
    return f"{table}-{digest[:12]}"
