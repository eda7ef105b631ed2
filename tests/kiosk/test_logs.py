"""Structured logging: journald fields under systemd, readable fields elsewhere."""

from __future__ import annotations

import io
import logging
import os
import sys
import tempfile
import types
from collections.abc import Iterator
from typing import Any

import pytest

from tablekeeper import logs
from tablekeeper.logs import FieldsFormatter, game_logger, setup_logging, stderr_is_journal


@pytest.fixture(autouse=True)
def _restore_root() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.fixture
def journal_file() -> Iterator[tuple[io.TextIOWrapper, dict[str, str]]]:
    """A real file standing in for the journal stream, and the $JOURNAL_STREAM naming it."""
    with tempfile.TemporaryFile("w+", encoding="utf-8") as fh:
        st = os.fstat(fh.fileno())
        yield fh, {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"}


def _ours() -> list[logging.Handler]:
    return [h for h in logging.getLogger().handlers if h.get_name() == logs.HANDLER_NAME]


def test_stderr_lines_show_the_fields() -> None:
    out = io.StringIO()
    assert setup_logging("info", environ={}, stream=out) == "stderr"
    log = game_logger("tablekeeper.app", "g-1")
    log.info("buzz accepted", extra={"EVENT": "buzz", "SEAT": 3})
    logging.getLogger("x").debug("hidden at INFO")
    text = out.getvalue()
    assert "INFO tablekeeper.app: buzz accepted [EVENT=buzz GAME_ID=g-1 SEAT=3]" in text
    assert text[2] == ":" and text[5] == ":"  # starts with HH:MM:SS.mmm
    assert "hidden" not in text


def test_setup_twice_replaces_its_handler() -> None:
    setup_logging("DEBUG", environ={}, stream=io.StringIO())
    setup_logging(logging.WARNING, environ={}, stream=io.StringIO())
    assert len(_ours()) == 1
    assert logging.getLogger().level == logging.WARNING


def test_bad_level_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="'loud' is not one of DEBUG"):
        setup_logging("loud", environ={}, stream=io.StringIO())


def test_stderr_is_journal_compares_device_and_inode(
        journal_file: tuple[io.TextIOWrapper, dict[str, str]]) -> None:
    fh, env = journal_file
    assert stderr_is_journal(env, fh)
    assert not stderr_is_journal({}, fh)
    assert not stderr_is_journal({"JOURNAL_STREAM": "1:2"}, fh)
    assert not stderr_is_journal(env, io.StringIO())  # no file descriptor at all


def test_under_systemd_without_python3_systemd_prefixes_priorities(
        journal_file: tuple[io.TextIOWrapper, dict[str, str]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    fh, env = journal_file
    monkeypatch.setattr(logs, "_journal_send", lambda: None)
    assert setup_logging("INFO", environ=env, stream=fh) == "journal-text"
    log = logging.getLogger("tablekeeper.kiosk")
    log.warning("camera slow", extra={"EVENT": "camera"})
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        log.exception("frame failed")
    for h in _ours():
        h.flush()
    fh.seek(0)
    lines = fh.read().splitlines()
    assert lines[0] == "<4>WARNING tablekeeper.kiosk: camera slow [EVENT=camera]"
    assert lines[1] == "<3>ERROR tablekeeper.kiosk: frame failed"
    assert all(line.startswith("<3>") for line in lines[1:])
    assert any("RuntimeError: boom" in line for line in lines)


def test_under_systemd_with_python3_systemd_sends_fields(
        journal_file: tuple[io.TextIOWrapper, dict[str, str]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With python3-systemd, records go to ``systemd.journal.send`` with their fields."""
    fh, env = journal_file
    sent: list[tuple[str, dict[str, Any]]] = []
    journal = types.ModuleType("systemd.journal")

    def send(message: str, **fields: Any) -> None:
        sent.append((message, fields))

    journal.send = send  # type: ignore[attr-defined]
    package = types.ModuleType("systemd")
    package.journal = journal  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "systemd", package)
    monkeypatch.setitem(sys.modules, "systemd.journal", journal)
    assert setup_logging("INFO", environ=env, stream=fh) == "journal"
    game_logger("tablekeeper.app", "g-7").info("seat %d buzzed", 2,
                                              extra={"EVENT": "buzz", "SEAT": 2, "lower": "x"})
    assert len(sent) == 1
    message, fields = sent[0]
    assert message == "seat 2 buzzed"
    assert fields["GAME_ID"] == "g-7" and fields["EVENT"] == "buzz" and fields["SEAT"] == "2"
    assert fields["PRIORITY"] == "6"
    assert fields["SYSLOG_IDENTIFIER"] == "tablekeeper"
    assert fields["LOGGER"] == "tablekeeper.app"
    assert "LOWER" not in fields and "lower" not in fields  # only UPPER-CASE extras are fields
    fh.seek(0)
    assert fh.read() == ""  # nothing doubled on the text stream


def test_journal_handler_survives_a_failing_send(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    def send(message: str, **fields: Any) -> None:
        raise OSError("journald gone")

    handler = logs.JournalFieldsHandler(send)
    monkeypatch.setattr(logging, "raiseExceptions", False)
    handler.emit(logging.makeLogRecord({"msg": "x"}))  # must not raise into the render loop


def test_formatter_without_fields_or_timestamp() -> None:
    record = logging.makeLogRecord({"msg": "plain %s", "args": ("text",), "levelno": 20,
                                    "levelname": "INFO", "name": "t"})
    assert FieldsFormatter(timestamps=False).format(record) == "INFO t: plain text"
