"""The publisher's and the board's settings (TOML), and their MQTT client.

A settings file holds no secret: the broker password is read from ``password_file`` or, under
systemd, from the credential ``mqtt-password`` (``LoadCredential=``, a root-only file on disk,
``$CREDENTIALS_DIRECTORY/mqtt-password`` to the service). Example (``publisher.toml``)::

    [publisher]
    table = "t1"
    journals = "/var/lib/tablekeeper/games"
    state_file = "/var/lib/tablekeeper-publisher/state.json"

    [broker]
    host = "cafe-board.local"
    port = 8883
    ca_file = "/etc/tablekeeper/cafe-ca.crt"
    # username: the table's name by default; password: the credential mqtt-password
"""

from __future__ import annotations

import logging
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablekeeper.cafe.messages import check_table

log = logging.getLogger("tablekeeper.cafe")

CREDENTIAL = "mqtt-password"


class SettingsError(ValueError):
    pass


@dataclass
class BrokerSettings:
    host: str = "127.0.0.1"
    port: int = 8883
    ca_file: str | None = None  # None: no TLS (refused unless tls = false is said)
    tls: bool = True
    username: str | None = None
    password_file: str | None = None
    keepalive: int = 30

    def password(self) -> str | None:
        """From ``password_file``, else systemd's credential; None if neither exists."""
        candidates = []
        if self.password_file:
            candidates.append(Path(self.password_file))
        creds = os.environ.get("CREDENTIALS_DIRECTORY")
        if creds:
            candidates.append(Path(creds) / CREDENTIAL)
        for path in candidates:
            try:
                return path.read_text(encoding="utf-8").strip()
            except OSError as exc:
                if path == candidates[-1]:
                    raise SettingsError(f"cannot read the broker password from {path}: "
                                        f"{exc.strerror or exc}") from exc
        return None


@dataclass
class PublisherSettings:
    table: str
    journals: Path
    state_file: Path
    broker: BrokerSettings = field(default_factory=BrokerSettings)
    poll_s: float = 0.2
    ack_timeout_s: float = 10.0
    #: the current game's journal is read again at most this often (its state is live to a
    #: board polled once a second; reading it at every append would cost a Pi's CPU)
    state_interval_s: float = 0.5


@dataclass
class BoardSettings:
    db: Path
    broker: BrokerSettings = field(default_factory=BrokerSettings)
    listen_host: str = "127.0.0.1"
    listen_port: int = 8080
    client_id: str = "tablekeeper-board"
    #: the café's evening starts at this local hour ("tonight" = since the last one)
    evening_starts: int = 12


def _section(d: dict[str, Any], name: str) -> dict[str, Any]:
    value = d.get(name, {})
    if not isinstance(value, dict):
        raise SettingsError(f"[{name}] must be a table")
    return value


def _broker(d: dict[str, Any]) -> BrokerSettings:
    known = {"host", "port", "ca_file", "tls", "username", "password_file", "keepalive"}
    extra = set(d) - known
    if extra:
        raise SettingsError(f"[broker]: unknown key(s) {', '.join(sorted(extra))} "
                            f"(known: {', '.join(sorted(known))})")
    b = BrokerSettings(**d)
    if not isinstance(b.port, int) or not 1 <= b.port <= 65535:
        raise SettingsError(f"[broker] port: {b.port!r} is not a port number")
    if b.tls and not b.ca_file:
        raise SettingsError("[broker]: ca_file is needed for TLS (say tls = false only on a "
                            "trusted loopback)")
    return b


def _load(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as exc:
        raise SettingsError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path}: not valid TOML: {exc}") from exc


def load_publisher(path: Path) -> PublisherSettings:
    d = _load(path)
    pub = _section(d, "publisher")
    try:
        table = check_table(str(pub["table"]))
        journals = Path(pub.get("journals", "/var/lib/tablekeeper/games"))
        state = Path(pub.get("state_file", "/var/lib/tablekeeper-publisher/state.json"))
    except (KeyError, ValueError) as exc:
        raise SettingsError(f"{path}: [publisher] {exc}") from exc
    broker = _broker(_section(d, "broker"))
    if broker.username is None:
        broker.username = table
    return PublisherSettings(table=table, journals=journals, state_file=state, broker=broker,
                             poll_s=float(pub.get("poll_s", 0.2)),
                             state_interval_s=float(pub.get("state_interval_s", 0.5)))


def load_board(path: Path) -> BoardSettings:
    d = _load(path)
    board = _section(d, "board")
    broker = _broker(_section(d, "broker"))
    if broker.username is None:
        broker.username = "board"
    return BoardSettings(db=Path(board.get("db", "/var/lib/tablekeeper-board/board.sqlite")),
                         broker=broker, listen_host=str(board.get("listen_host", "127.0.0.1")),
                         listen_port=int(board.get("listen_port", 8080)),
                         client_id=str(board.get("client_id", "tablekeeper-board")),
                         evening_starts=int(board.get("evening_starts", 12)))


def make_client(broker: BrokerSettings, client_id: str, clean: bool = True) -> Any:
    """A paho-mqtt 2.x client for ``broker`` (TLS, user, password), not yet connected.
    ``clean=False``: a persistent session, so the broker keeps QoS 1 messages while away."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    client = mqtt.Client(callback_api_version=CallbackAPIVersion.VERSION2,
                         client_id=client_id, clean_session=clean,
                         protocol=mqtt.MQTTv311)
    if broker.tls:
        client.tls_set(ca_certs=broker.ca_file)
    if broker.username:
        client.username_pw_set(broker.username, broker.password())
    client.reconnect_delay_set(min_delay=1, max_delay=10)
    client.max_inflight_messages_set(20)
    return client
