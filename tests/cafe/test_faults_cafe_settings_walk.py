"""Fault suite, every settings key of the café's units: the publisher's ``[publisher]`` and
``[broker]``, the board's ``[board]`` and ``[broker]`` (what ``tablekeeper cafe publish`` and
``tablekeeper cafe board`` parse: their units' ExecStart), each key given a wrong type and
wrong values. Every refusal is the unit's exit 78 with exactly ONE line on stderr naming the
settings file, the section and key, and what is wanted.

The sections and keys are not listed here: they are asked of the loaders themselves (each
names its known sections and keys when given an unknown one), so a key added later is walked
too. The kiosk's own config is walked in tests/kiosk/test_faults_settings_walk.py; the first
test below checks that those two walks cover every unit in systemd/.

The fast tier runs the real entry point (``tablekeeper.cli.main``) in this process for every
refused value and, per section, a real process; the slow tier runs a real process for every
refused value (``pytest -m slow tests/cafe/test_faults_cafe_settings_walk.py``).
"""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tablekeeper.cafe.board import PortBusy, listen
from tablekeeper.cafe.broker import make_certificates
from tablekeeper.cafe.settings import SettingsError, load_board, load_publisher
from tablekeeper.cafe.store import Store
from tablekeeper.cli import main

ROOT = Path(__file__).resolve().parents[2]
PROBE = "zz_not_a_key"
#: an absolute path that can never be made, whoever asks (root too): /dev/null is no folder
NOWHERE = "/dev/null/zz-no-such-value"
_KNOWN = re.compile(r"\(known: ([^)]*)\)")
#: the units' commands and what each parses (a new unit must be walked too: see the test)
WALKED = {"kiosk": "tests/kiosk/test_faults_settings_walk.py",
          "cafe publish": __file__, "cafe board": __file__}
LOADERS: dict[str, Callable[[Path], Any]] = {"publish": load_publisher, "board": load_board}
WRONG_VALUES: dict[str, tuple[Any, ...]] = {
    "number": (-1_000_000_000, -1.0e9, 1.0e300),
    "str": ("zz-no-such-value", "", "\\u0000", NOWHERE),
}
#: free text: any name is taken ("zz-no-such-value" is a fine host name to try, user name,
#: client id); a host that does not answer is the network's fault, retried, not a setting
TAKES = {("broker", "host"): {"zz-no-such-value", NOWHERE},
         ("broker", "username"): {"zz-no-such-value", NOWHERE},
         ("board", "client_id"): {"zz-no-such-value", NOWHERE},
         # the kiosk's folder and the publisher's state: waited for, and said in the log, while
         # they cannot be made (a fresh box's kiosk has not run yet; a full card)
         ("publisher", "journals"): {NOWHERE}, ("publisher", "state_file"): {NOWHERE}}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("cafe-walk")
    ca, _, _ = make_certificates(folder / "tls")
    password = folder / "password"
    password.write_text("secret\n", encoding="utf-8")
    return {"ca": ca, "password": password, "folder": folder}


def _base(verb: str, files: dict[str, Path]) -> dict[str, dict[str, Any]]:
    """Good settings for ``verb``: every key a value it takes (the real CA and password)."""
    folder = files["folder"]
    broker = {"host": "127.0.0.1", "port": 21399, "ca_file": str(files["ca"]), "tls": True,
              "username": "t1", "password_file": str(files["password"]), "keepalive": 30}
    if verb == "publish":
        return {"publisher": {"table": "t1", "journals": str(folder / "games"),
                              "state_file": str(folder / "state.json"), "poll_s": 0.2,
                              "state_interval_s": 0.5, "pause_s": 5.0,
                              "ack_timeout_s": 10.0}, "broker": broker}
    return {"board": {"db": str(folder / "board.sqlite"), "listen_host": "127.0.0.1",
                      "listen_port": 21398, "client_id": "board", "evening_starts": 12},
            "broker": broker}


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value + '"'
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    return repr(value)


def _text(d: dict[str, Any]) -> str:
    out = [f"{k} = {_toml(v)}" for k, v in d.items() if not isinstance(v, dict)]
    for name, section in d.items():
        if isinstance(section, dict):
            out.append(f"[{name}]")
            out.extend(f"{k} = {_toml(v)}" for k, v in section.items())
    return "\n".join(out) + "\n"


def _known(message: str) -> list[str]:
    found = _KNOWN.search(message)
    assert found, message
    return [k.strip() for k in found.group(1).split(",")]


def _ask(verb: str, d: dict[str, Any], path: Path) -> str:
    """The loader's refusal of ``d`` (it must refuse)."""
    path.write_text(_text(d), encoding="utf-8")
    with pytest.raises(SettingsError) as refused:
        LOADERS[verb](path)
    return str(refused.value)


def walk(files: dict[str, Path], folder: Path) -> Iterator[tuple[str, str, str, Any]]:
    """(verb, section, key, the key's good value) for every key of every section."""
    for verb in LOADERS:
        base = _base(verb, files)
        sections = _known(_ask(verb, {**base, PROBE: {}}, folder / "probe.toml"))
        assert set(sections) == set(base), sections  # the base names every section
        for section in sections:
            keys = _known(_ask(verb, {**base, section: {**base[section], PROBE: 1}},
                               folder / "probe.toml"))
            assert set(keys) == set(base[section]), (section, keys)
            for key in keys:
                yield verb, section, key, base[section][key]


def _kind(value: Any) -> str | None:
    if isinstance(value, bool):
        return None
    return "number" if isinstance(value, int | float) else "str"


def _check(verb: str, path: Path) -> str | None:
    """What the unit refuses before it runs (None: it would run): the settings, the
    password, the board's listening address."""
    try:
        settings = LOADERS[verb](path)
        settings.broker.password()
        if verb == "board":
            listen(settings).close()
            Store(settings.db).close()
    except (OSError, sqlite3.Error) as exc:  # the board's database: exit 78 as well
        return str(exc)
    except SettingsError as exc:
        return str(exc)
    except PortBusy:
        return None
    return None


def _said(line: str, path: Path, section: str, key: str) -> bool:
    """The line names the file and the key, and says what is wanted after them."""
    where = f"[{section}] {key}: "
    return (line.startswith("tablekeeper cafe ") and f" stopped: {path}: " in line
            and where in line and len(line.split(where, 1)[1]) > 12
            and re.search(r"want|expected|needed", line) is not None)


def _cases(files: dict[str, Path], folder: Path
           ) -> Iterator[tuple[str, str, str, Any, Path]]:
    """Every (verb, section, key, bad value, settings file the unit refuses)."""
    n = 0
    for verb, section, key, good in walk(files, folder):
        values: list[Any] = [{PROBE: "a table"}, *WRONG_VALUES.get(_kind(good) or "", ())]
        for value in values:
            d: dict[str, Any] = _base(verb, files)
            d[section] = {**d[section], key: value}
            n += 1
            path = folder / f"{verb}-{n}.toml"
            path.write_text(_text(d), encoding="utf-8")
            if _check(verb, path) is None:
                assert value in TAKES.get((section, key), set()), (section, key, value)
                continue
            yield verb, section, key, value, path
    for verb in LOADERS:  # a file that is no certificate in place of the CA's
        d = _base(verb, files)
        d["broker"]["ca_file"] = str(files["password"])
        path = folder / f"{verb}-not-a-ca.toml"
        path.write_text(_text(d), encoding="utf-8")
        yield verb, "broker", "ca_file", "not a certificate", path
    for verb in LOADERS:  # a section that is not a table
        for section in _base(verb, files):
            d = {**_base(verb, files), section: "not a table"}
            path = folder / f"{verb}-{section}-not-a-table.toml"
            path.write_text(_text(d), encoding="utf-8")
            yield verb, section, "", "not a table", path


def _said_section(line: str, path: Path, section: str) -> bool:
    return f" stopped: {path}: [{section}]: a table of keys is wanted" in line


def test_every_unit_in_systemd_is_walked() -> None:
    commands = set()
    for unit in sorted((ROOT / "systemd").glob("*.service")):
        found = re.search(r"^ExecStart=\S*tablekeeper ((?:cafe )?\w+) ",
                          unit.read_text(encoding="utf-8"), re.M)
        assert found, f"{unit.name}: its ExecStart is not one the walks know"
        commands.add(found.group(1))
    assert commands == set(WALKED), commands


def test_every_key_of_every_cafe_unit_refuses_a_wrong_type_and_wrong_values(
        files: dict[str, Path], tmp_path: Path, capfd: pytest.CaptureFixture[str],
        record_property: Callable[[str, object], None]) -> None:
    """The real entry point in this process, every refused value: exit 78, one line."""
    cases = list(_cases(files, tmp_path))
    walked = {(v, s, k) for v, s, k, _, _ in cases if k}
    assert len(walked) >= 26 and ("board", "board", "listen_host") in walked, walked
    capfd.readouterr()
    for verb, section, key, value, path in cases:
        code = main(["cafe", verb, "--settings", str(path)])
        err = capfd.readouterr().err.splitlines()
        assert code == 78 and len(err) == 1, (section, key, value, code, err)
        ok = _said_section(err[0], path, section) if not key else \
            _said(err[0], path, section, key)
        assert ok, (section, key, value, err[0])
    record_property("faults", len(cases))


def _real(verb: str, path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablekeeper", "cafe", verb, "--settings",
                           str(path)], capture_output=True, text=True, timeout=120,
                          check=False, cwd=ROOT)


def _one_per_section(cases: list[tuple[str, str, str, Any, Path]]
                     ) -> list[tuple[str, str, str, Any, Path]]:
    seen: set[tuple[str, str]] = set()
    out = []
    for case in cases:
        if case[2] and case[:2] not in seen:
            seen.add(case[:2])
            out.append(case)
    return out


@pytest.mark.parametrize("every", [
    False, pytest.param(True, marks=pytest.mark.slow)], ids=["a-key-a-section", "every-value"])
def test_the_real_units_exit_78_with_one_line(
        files: dict[str, Path], tmp_path: Path, every: bool,
        record_property: Callable[[str, object], None]) -> None:
    """The real process (what systemd runs): a key per section, or (slow) every value."""
    cases = list(_cases(files, tmp_path))
    chosen = cases if every else _one_per_section(cases)
    assert len(chosen) >= 4
    for verb, section, key, value, path in chosen:
        done = _real(verb, path)
        err = done.stderr.splitlines()
        assert done.returncode == 78 and len(err) == 1, (section, key, value, done.stderr)
        ok = _said_section(err[0], path, section) if not key else \
            _said(err[0], path, section, key)
        assert ok, (section, key, value, err[0])
    record_property("faults", len(chosen))
