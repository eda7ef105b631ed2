"""Logging for the kiosk: structured journald fields on the Pi, readable lines everywhere else.

Log with ordinary :mod:`logging` calls and put the facts in ``extra`` under UPPER-CASE names;
they become journal fields you can filter on::

    log.info("buzz accepted", extra={"GAME_ID": game_id, "EVENT": "buzz", "SEAT": 3})
    # on the Pi:  journalctl -u tablekeeper-kiosk GAME_ID=g-20261129-1 SEAT=3
    # elsewhere:  11:02:03.456 INFO tablekeeper.app: buzz accepted [GAME_ID=... EVENT=buzz SEAT=3]

:func:`game_logger` binds ``GAME_ID`` once so every line of a game carries it.

Where the lines go (:func:`setup_logging`):

* **journald, natively** — when python3-systemd is importable and the process's stderr is the
  journal (``$JOURNAL_STREAM`` names it, as systemd sets it for ``StandardError=journal``).
  Each record is sent with :func:`systemd.journal.send`: ``MESSAGE``, ``PRIORITY``,
  ``SYSLOG_IDENTIFIER=tablekeeper``, ``LOGGER``, ``CODE_FILE/LINE/FUNC``, the exception text,
  and every UPPER-CASE extra. (``systemd.journal.JournalHandler`` itself forwards extras only in
  newer python-systemd releases — older ones keep just ``MESSAGE_ID`` — so the handler here calls
  ``send`` directly to get the same fields on every Pi OS.)
* **the journal, as text** — under systemd without python3-systemd: one line per record with a
  ``<N>`` syslog priority prefix, which journald turns into the PRIORITY field; no timestamp
  (the journal has its own).
* **stderr** — anywhere else: a timestamped line with the fields in brackets.
"""

from __future__ import annotations

import importlib
import logging
import os
import re
import sys
from collections.abc import Callable, Mapping, MutableMapping
from typing import Any, TextIO

__all__ = ["FieldsFormatter", "GameLogger", "JournalFieldsHandler", "game_logger",
           "journal_fields", "setup_logging", "stderr_is_journal"]

IDENTIFIER = "tablekeeper"
#: The name of the one root handler setup_logging installs (and replaces on a second call).
HANDLER_NAME = "tablekeeper"
_FIELD = re.compile(r"^[A-Z][A-Z0-9_]*$")
#: Attributes every LogRecord has; an extra never uses these names.
_RECORD_ATTRS = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


def journal_fields(record: logging.LogRecord) -> dict[str, str]:
    """The record's UPPER-CASE extras (``GAME_ID``, ``EVENT``, ``SEAT``...), as strings."""
    return {k: str(v) for k, v in vars(record).items()
            if k not in _RECORD_ATTRS and _FIELD.match(k) and v is not None}


def _syslog_priority(levelno: int) -> int:
    if levelno >= logging.CRITICAL:
        return 2
    if levelno >= logging.ERROR:
        return 3
    if levelno >= logging.WARNING:
        return 4
    if levelno >= logging.INFO:
        return 6
    return 7


class FieldsFormatter(logging.Formatter):
    """``HH:MM:SS.mmm LEVEL logger: message [KEY=value ...]`` (timestamp optional).

    ``syslog_prefix=True`` starts each line with ``<N>`` (N the syslog priority) for a stderr
    that journald reads, so warnings still show in ``journalctl -p warning``.
    """

    def __init__(self, *, timestamps: bool = True, syslog_prefix: bool = False) -> None:
        super().__init__()
        self.timestamps = timestamps
        self.syslog_prefix = syslog_prefix

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        fields = journal_fields(record)
        line = f"{record.levelname} {record.name}: {message}"
        if fields:
            line += " [" + " ".join(f"{k}={v}" for k, v in sorted(fields.items())) + "]"
        if self.timestamps:
            ms = int(record.msecs)
            line = f"{self.formatTime(record, '%H:%M:%S')}.{ms:03d} {line}"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        if record.stack_info:
            line += "\n" + self.formatStack(record.stack_info)
        if self.syslog_prefix:
            prefix = f"<{_syslog_priority(record.levelno)}>"
            line = "\n".join(prefix + part for part in line.split("\n"))
        return line


class JournalFieldsHandler(logging.Handler):
    """Sends each record to journald with its UPPER-CASE extras as journal fields.

    ``send`` is :func:`systemd.journal.send` (``send(MESSAGE, **fields)``).
    """

    def __init__(self, send: Callable[..., Any], level: int = logging.NOTSET,
                 identifier: str = IDENTIFIER) -> None:
        super().__init__(level)
        self._send = send
        self.identifier = identifier

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
            fields: dict[str, Any] = {
                "PRIORITY": str(_syslog_priority(record.levelno)),
                "SYSLOG_IDENTIFIER": self.identifier,
                "LOGGER": record.name,
                "CODE_FILE": record.pathname,
                "CODE_LINE": str(record.lineno),
                "CODE_FUNC": record.funcName,
            }
            if record.exc_info:
                fields["EXCEPTION_TEXT"] = logging.Formatter().formatException(record.exc_info)
                message += "\n" + fields["EXCEPTION_TEXT"]
            fields.update(journal_fields(record))
            self._send(message, **fields)
        except Exception:
            self.handleError(record)


class GameLogger(logging.LoggerAdapter[logging.Logger]):
    """A logger whose every line carries the game's fields; per-call extras add to them."""

    def process(self, msg: Any,
                kwargs: MutableMapping[str, Any]) -> tuple[Any, MutableMapping[str, Any]]:
        kwargs["extra"] = {**(self.extra or {}), **kwargs.get("extra", {})}
        return msg, kwargs


def game_logger(name: str, game_id: str) -> GameLogger:
    """``game_logger(__name__, gid).info("buzz", extra={"EVENT": "buzz", "SEAT": 2})``."""
    return GameLogger(logging.getLogger(name), {"GAME_ID": game_id})


def stderr_is_journal(environ: Mapping[str, str], stream: TextIO) -> bool:
    """True when ``stream`` is the journal stream systemd connected (``$JOURNAL_STREAM``)."""
    value = environ.get("JOURNAL_STREAM", "")
    if not value:
        return False
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return value == f"{st.st_dev}:{st.st_ino}"


def _journal_send() -> Callable[..., Any] | None:
    try:
        journal = importlib.import_module("systemd.journal")
    except ImportError:
        return None
    send = getattr(journal, "send", None)
    return send if callable(send) else None


def setup_logging(level: int | str = logging.INFO, *,
                  environ: Mapping[str, str] | None = None,
                  stream: TextIO | None = None) -> str:
    """Configure the root logger once for the process; returns where lines go.

    ``"journal"`` (native fields), ``"journal-text"`` (stderr read by journald) or
    ``"stderr"``. ``environ`` defaults to the process environment and ``stream`` to
    ``sys.stderr``. Calling it again replaces the handler it installed before.
    """
    if isinstance(level, str):
        name = level.upper()
        resolved = logging.getLevelName(name)
        if not isinstance(resolved, int):
            raise ValueError(f"log level {level!r} is not one of DEBUG, INFO, WARNING, "
                             "ERROR, CRITICAL")
        level = resolved
    env = os.environ if environ is None else environ
    out = sys.stderr if stream is None else stream
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == HANDLER_NAME]:
        root.removeHandler(old)
    under_journal = stderr_is_journal(env, out)
    send = _journal_send() if under_journal else None
    handler: logging.Handler
    if send is not None:
        handler, kind = JournalFieldsHandler(send), "journal"
    elif under_journal:
        handler = logging.StreamHandler(out)
        handler.setFormatter(FieldsFormatter(timestamps=False, syslog_prefix=True))
        kind = "journal-text"
    else:
        handler = logging.StreamHandler(out)
        handler.setFormatter(FieldsFormatter())
        kind = "stderr"
    handler.set_name(HANDLER_NAME)
    root.addHandler(handler)
    root.setLevel(level)
    return kind
