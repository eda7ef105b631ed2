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
import ssl
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ground.files import printable, read_text
from tablekeeper.cafe.topics import check_table

#: the longest settings file read (a real one is a few hundred bytes)
MAX_SETTINGS_BYTES = 64 * 1024
#: the longest broker password file read
MAX_PASSWORD_BYTES = 4096
#: the longest CA certificate file read (a café's CA is one certificate, about 2 kB)
MAX_CA_BYTES = 256 * 1024

log = logging.getLogger("tablekeeper.cafe")

CREDENTIAL = "mqtt-password"


class SettingsError(ValueError):
    """A setting the unit cannot run with: one line naming the section and the key and what
    is wanted (the command puts the settings file's name before it, and exits 78)."""


_KEEPALIVE = (5, 3600)


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
            where = ("[broker] password_file: " if self.password_file and
                     path == Path(self.password_file) else f"the credential {CREDENTIAL}: ")
            try:
                return read_text(path, MAX_PASSWORD_BYTES).strip()
            except UnicodeDecodeError as exc:
                raise SettingsError(f"{where}{printable(path)} is not UTF-8 text (byte "
                                    f"{exc.start}); a readable password file is wanted") \
                    from exc
            except OSError as exc:
                if path == candidates[-1]:
                    raise SettingsError(f"{where}cannot read {printable(path)} "
                                        f"({exc.strerror or exc}); a readable password file "
                                        "is wanted") from exc
        return None

    def tls_context(self) -> ssl.SSLContext:
        """The TLS context trusting ``ca_file`` (read bounded, without blocking; a file that
        is not a PEM certificate: :class:`SettingsError` naming ``[broker] ca_file``)."""
        path = self.ca_file or ""
        try:
            pem = read_text(path, MAX_CA_BYTES)
            return ssl.create_default_context(cadata=pem)
        except (ValueError, ssl.SSLError) as exc:  # not UTF-8, not a certificate
            raise SettingsError(f"[broker] ca_file: {printable(path)} holds no PEM "
                                "certificate; the café's CA certificate is wanted") from exc
        except OSError as exc:
            raise SettingsError(f"[broker] ca_file: cannot read {printable(path)} "
                                f"({exc.strerror or exc}); the café's CA certificate (PEM) "
                                "is wanted") from exc


#: bounds of the publisher's polling (a Pi's core must not spin; a board must not wait long)
POLL_S = (0.05, 10.0)


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
    #: the state file could not be written (a full card): try again after this long
    pause_s: float = 5.0


@dataclass
class BoardSettings:
    db: Path
    broker: BrokerSettings = field(default_factory=BrokerSettings)
    listen_host: str = "127.0.0.1"
    listen_port: int = 8080
    client_id: str = "tablekeeper-board"
    #: the café's evening starts at this local hour ("tonight" = since the last one)
    evening_starts: int = 12


class _Check:
    """Reads one section's keys, each checked: a bad one raises :class:`SettingsError` naming
    it (``[section] key: what is wrong``); unknown keys are named too."""

    def __init__(self, d: dict[str, Any], section: str, known: set[str]) -> None:
        self.d, self.section = d, section
        extra = set(d) - known
        if extra:
            raise SettingsError(f"[{section}] {', '.join(sorted(extra))}: unknown key"
                                f"{'s' if len(extra) > 1 else ''} (known: "
                                f"{', '.join(sorted(known))})")

    def _fail(self, key: str, what: str) -> SettingsError:
        return SettingsError(f"[{self.section}] {key}: {what}, got "
                             f"{printable(repr(self.d[key]))[:60]}")

    def text(self, key: str, default: str | None) -> str | None:
        value = self.d.get(key, default)
        if value is not None and (not isinstance(value, str) or not value.strip()
                                  or len(value) > 4096 or "\0" in value):
            raise self._fail(key, "expected a non-empty string")
        return value

    def path(self, key: str, default: str | None) -> str | None:
        """A file or folder's name: a non-empty string and absolute (a unit runs in ``/``:
        a relative name would be a guess)."""
        value = self.text(key, default)
        if value is not None and not os.path.isabs(value):
            raise self._fail(key, "expected an absolute path (starting with /)")
        return value

    def integer(self, key: str, default: int, lo: int, hi: int) -> int:
        value = self.d.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise self._fail(key, f"expected a whole number from {lo} to {hi}")
        return value

    def number(self, key: str, default: float, lo: float, hi: float) -> float:
        value = self.d.get(key, default)
        if not isinstance(value, int | float) or isinstance(value, bool) \
                or not lo <= value <= hi:
            raise self._fail(key, f"expected a number of seconds from {lo:g} to {hi:g}")
        return float(value)

    def flag(self, key: str, default: bool) -> bool:
        value = self.d.get(key, default)
        if not isinstance(value, bool):
            raise self._fail(key, "expected true or false")
        return value


def _section(d: dict[str, Any], name: str) -> dict[str, Any]:
    value = d.get(name, {})
    if not isinstance(value, dict):
        raise SettingsError(f"[{name}]: a table of keys is wanted (a line [{name}], its "
                            f"keys below it), got {printable(repr(value))[:60]}")
    return value


def _broker(d: dict[str, Any]) -> BrokerSettings:
    c = _Check(d, "broker", {"host", "port", "ca_file", "tls", "username", "password_file",
                             "keepalive"})
    b = BrokerSettings(host=c.text("host", "127.0.0.1") or "127.0.0.1",
                       port=c.integer("port", 8883, 1, 65535),
                       ca_file=c.path("ca_file", None), tls=c.flag("tls", True),
                       username=c.text("username", None),
                       password_file=c.path("password_file", None),
                       keepalive=c.integer("keepalive", 30, *_KEEPALIVE))
    if b.tls and not b.ca_file:
        raise SettingsError("[broker] ca_file: needed for TLS (say tls = false only on a "
                            "trusted loopback)")
    if b.tls:
        b.tls_context()  # the file is there and is a certificate: said now, in one line
    return b


def _load(path: Path) -> dict[str, Any]:
    """The file's TOML, read bounded and without blocking (a FIFO, a device, a folder or a
    file longer than :data:`MAX_SETTINGS_BYTES` is refused, in one line)."""
    try:
        return tomllib.loads(read_text(path, MAX_SETTINGS_BYTES))
    except OSError as exc:
        raise SettingsError(f"cannot be read: {exc.strerror or exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"not valid TOML: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise SettingsError(f"not UTF-8 text: {exc}") from exc


def _top(d: dict[str, Any], sections: set[str]) -> None:
    extra = set(d) - sections
    if extra:
        raise SettingsError(f"unknown section(s) {', '.join(sorted(extra))} "
                            f"(known: {', '.join(sorted(sections))})")


def load_publisher(path: Path) -> PublisherSettings:
    """``path``'s publisher settings, every key checked (:class:`SettingsError`: one line)."""
    d = _load(path)
    _top(d, {"publisher", "broker"})
    c = _Check(_section(d, "publisher"), "publisher",
               {"table", "journals", "state_file", "poll_s", "state_interval_s", "pause_s",
                "ack_timeout_s"})
    if "table" not in c.d:
        raise SettingsError("[publisher] table: missing (this table's name)")
    table = c.text("table", None) or ""
    try:
        check_table(table)
    except ValueError as exc:
        raise SettingsError(f"[publisher] table: expected this table's name ({exc})") \
            from None
    settings = PublisherSettings(
        table=table,
        journals=Path(c.path("journals", "/var/lib/tablekeeper/games") or ""),
        state_file=Path(c.path("state_file", "/var/lib/tablekeeper-publisher/state.json")
                        or ""),
        poll_s=c.number("poll_s", 0.2, *POLL_S),
        state_interval_s=c.number("state_interval_s", 0.5, 0.0, 60.0),
        pause_s=c.number("pause_s", 5.0, 0.1, 600.0),
        ack_timeout_s=c.number("ack_timeout_s", 10.0, 0.5, 120.0),
        broker=_broker(_section(d, "broker")))
    if settings.broker.username is None:
        settings.broker.username = table
    return settings


def load_board(path: Path) -> BoardSettings:
    """``path``'s board settings, every key checked (:class:`SettingsError`: one line)."""
    d = _load(path)
    _top(d, {"board", "broker"})
    c = _Check(_section(d, "board"), "board",
               {"db", "listen_host", "listen_port", "client_id", "evening_starts"})
    settings = BoardSettings(
        db=Path(c.path("db", "/var/lib/tablekeeper-board/board.sqlite") or ""),
        listen_host=c.text("listen_host", "127.0.0.1") or "",
        listen_port=c.integer("listen_port", 8080, 1, 65535),
        client_id=c.text("client_id", "tablekeeper-board") or "",
        evening_starts=c.integer("evening_starts", 12, 0, 23),
        broker=_broker(_section(d, "broker")))
    if settings.broker.username is None:
        settings.broker.username = "board"
    return settings


def make_client(broker: BrokerSettings, client_id: str, clean: bool = True,
                manual_ack: bool = False) -> Any:
    """A paho-mqtt 2.x client for ``broker`` (TLS, user, password), not yet connected.
    ``clean=False``: a persistent session, so the broker keeps QoS 1 messages while away.
    ``manual_ack``: a QoS 1 message is acknowledged only by ``client.ack`` (once stored)."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    client = mqtt.Client(callback_api_version=CallbackAPIVersion.VERSION2,
                         client_id=client_id, clean_session=clean,
                         protocol=mqtt.MQTTv311, manual_ack=manual_ack)
    if broker.tls:
        client.tls_set_context(broker.tls_context())
    if broker.username:
        client.username_pw_set(broker.username, broker.password())
    client.reconnect_delay_set(min_delay=1, max_delay=10)
    client.max_inflight_messages_set(20)
    return client
