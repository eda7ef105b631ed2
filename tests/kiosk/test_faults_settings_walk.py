"""Fault suite, every settings key: each key of each settings table the kiosk's config holds
([table], [screen], [cafe], [firmware] and its sub-tables, [camera], [vision] and its
sub-tables), given a wrong type and wrong values, read the way the kiosk reads its config.

The keys are not listed here: they are asked of the parsers themselves
(:func:`tablekeeper.kiosk.config_sections`; each parser names its known keys when given an
unknown one), so a key or a section added later is walked too.

What the kiosk does with a refused value (tablekeeper/config.py, ``check_config``):

- ``[table] state_dir`` and ``[screen] rotate`` stop it: exit 78, ONE line (the only line on
  stderr, the unit's log; also the unit's status) naming the file, the key and what is
  wanted. A default games folder would hide the unfinished game; a turned panel with an
  unturned picture is unplayable.
- every other key is reported (file, line, section, key, what is wanted) and takes its
  default alone; the kiosk goes on (exit 0) with the problem on the screen's banner. This is
  deliberate: a café's box with a mistyped camera setting still referees the game.
"""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tablekeeper.kiosk import config_sections, read_config

#: a key no settings table has: the parsers answer with their known keys
PROBE = "zz_not_a_key"
_KNOWN = re.compile(r"\(known: ([^)]*)\)")
#: keys whose refusal stops the kiosk (exit 78); the others fall back alone
FATAL = {("table", "state_dir"), ("screen", "rotate")}
#: values a key of each kind may still refuse (the kind: its default's, in the parser's
#: ``to_dict``): out of range, unknown names, empty, too short
WRONG_VALUES: dict[str, tuple[Any, ...]] = {
    "number": (-1_000_000_000, -1.0e9, 1.0e300),
    "str": ("zz-no-such-value", "", "\\u0000"),
    "list": ([], [-1, -1], ["zz"]),
}
#: keys with a default of a kind above that take every value of the walk's list of that kind:
#: free text or paths (any string names a file or a folder, checked when it is used; "" means
#: "not set")
ANY_VALUE = {("table", "items_deck"), ("cafe", "ca_file"), ("camera", "folder"),
             ("cafe", "broker_host"), ("firmware", "sound", "device")}


def _kind(value: Any) -> str | None:
    if isinstance(value, bool):
        return None  # only true or false: a wrong type is all there is
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "str"
    return "list" if isinstance(value, list) else None


def _defaults() -> dict[tuple[str, ...], str | None]:
    """Each key's kind, from its default as the parser writes it (absent: optional keys)."""
    out: dict[tuple[str, ...], str | None] = {}

    def put(prefix: tuple[str, ...], d: Mapping[str, Any]) -> None:
        for key, value in d.items():
            if isinstance(value, Mapping):
                put((*prefix, key), value)
            else:
                out[(*prefix, key)] = _kind(value)

    for section, parser in config_sections().items():
        built = parser({})
        to_dict = getattr(built, "to_dict", None)
        put((section,), to_dict() if to_dict else dataclasses.asdict(built))  # type: ignore[call-overload]
    return out


KINDS = _defaults()


def _nest(path: tuple[str, ...], leaf: Any) -> dict[str, Any]:
    out: Any = leaf
    for key in reversed(path):
        out = {key: out}
    return dict(out)


def _known(parser: Callable[[Mapping[str, Any]], object], path: tuple[str, ...]) -> list[str]:
    """The keys the parser knows at ``path`` (empty: ``path`` is not a table of keys)."""
    try:
        parser(_nest(path, {PROBE: 1}))
    except ValueError as exc:
        found = _KNOWN.search(str(exc))
        return [k.strip() for k in found.group(1).split(",")] if found else []
    return []


def walk() -> Iterator[tuple[tuple[str, ...], bool]]:
    """Every key path (section first) and whether it is a table of keys itself."""
    for section, parser in config_sections().items():
        for key in _known(parser, ()):
            sub = _known(parser, (key,))
            yield (section, key), bool(sub)
            for inner in sub:
                yield (section, key, inner), False


KEYS = list(walk())


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    return repr(value)


def _text(path: tuple[str, ...], value: Any, state: Path) -> str:
    head = f'[table]\nstate_dir = "{state}"\n' if path != ("table", "state_dir") else ""
    if path[0] == "table":
        return f"[table]\n{path[-1]} = {_toml(value)}\n" + (
            f'state_dir = "{state}"\n' if path[1] != "state_dir" else "")
    return f"{head}[{'.'.join(path[:-1])}]\n{path[-1]} = {_toml(value)}\n"


def _problems(tmp_path: Path, path: tuple[str, ...], value: Any) -> tuple[list[str], str | None]:
    config = tmp_path / "tablekeeper.toml"
    config.write_text(_text(path, value, tmp_path / "state"), encoding="utf-8")
    report = read_config(config, explicit=True)  # raises nothing, whatever the value
    return list(report.problems), report.fatal


def _said(line: str, config: Path, path: tuple[str, ...]) -> bool:
    """The line names the file, the section and the key, and says something after them."""
    where = f"[{path[0]}] {'.'.join(path[1:])}: "
    return str(config) in line and where in line and len(line.split(where, 1)[1]) > 8


def test_the_walk_finds_every_settings_table() -> None:
    sections = {p[0] for p, _ in KEYS}
    assert sections >= {"table", "screen", "cafe", "firmware", "camera", "vision"}
    assert len(KEYS) > 80 and all(len(p) >= 2 for p, _ in KEYS)
    assert ("firmware", "arbiter", "tie_window_us") in {p for p, _ in KEYS}
    assert {p for p, _ in KEYS} >= FATAL | ANY_VALUE  # no stale names here
    assert sum(k is not None for k in KINDS.values()) > 60


@pytest.mark.parametrize(("path", "table"), KEYS, ids=[".".join(p) for p, _ in KEYS])
def test_every_key_refuses_a_wrong_type_and_wrong_values_by_name(
        tmp_path: Path, record_property: Callable[[str, object], None],
        path: tuple[str, ...], table: bool) -> None:
    config = tmp_path / "tablekeeper.toml"
    wrong_type: Any = "not a table" if table else {PROBE: "a table"}
    problems, fatal = _problems(tmp_path, path, wrong_type)
    assert len(problems) == 1 and _said(problems[0], config, path), problems
    assert (fatal is not None) == (path in FATAL), fatal
    kind = KINDS.get(path)
    # a key of known kind: the wrong values of its kind; an optional key: every one of them
    values = () if table else WRONG_VALUES[kind] if kind else sum(WRONG_VALUES.values(), ())
    refused = 0
    for value in values:
        problems, fatal = _problems(tmp_path, path, value)
        if not problems:  # a value this key takes
            continue
        refused += 1
        assert len(problems) == 1 and _said(problems[0], config, path), (value, problems)
        assert (fatal is not None) == (path in FATAL), (value, fatal)
        if fatal is not None:  # the one line the kiosk stops with says the key's problem
            assert problems[0].replace(" (the default is used)", "") in fatal, fatal
    if kind is not None:
        assert (refused > 0) != (path in ANY_VALUE), (path, refused)
    record_property("faults", 1 + len(values))


def _kiosk(config: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "HOME": str(home), "PYTHONPATH": str(Path(__file__).parents[2])}
    env.pop("STATE_DIRECTORY", None)
    env.pop("TABLEKEEPER_STATE_DIR", None)
    return subprocess.run(
        [sys.executable, "-m", "tablekeeper", "kiosk", "--config", str(config), "--keyboard",
         "--simulate-camera", "--window", "--run-for", "0.3"],
        capture_output=True, text=True, timeout=120, env=env, check=False)


# (key, a bad value, the exit code): through the real kiosk process, end to end
REAL: list[tuple[tuple[str, ...], Any, int]] = [
    (("table", "state_dir"), 5, 78),
    (("screen", "rotate"), 45, 78),
    (("camera", "fps"), "fast", 0),
    (("firmware", "arbiter", "tie_window_us"), -1.0e9, 0),
]


@pytest.mark.parametrize(("path", "value", "code"), REAL, ids=[".".join(p) for p, _, _ in REAL])
def test_the_real_kiosk_exits_78_or_goes_on_naming_the_key(
        tmp_path: Path, record_property: Callable[[str, object], None],
        path: tuple[str, ...], value: Any, code: int) -> None:
    record_property("faults", 1)
    config = tmp_path / "tablekeeper.toml"
    config.write_text(_text(path, value, tmp_path / "state"), encoding="utf-8")
    done = _kiosk(config, tmp_path / "home")
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr
    named = [line for line in done.stderr.splitlines()
             if str(config) in line and f"[{path[0]}] {'.'.join(path[1:])}: " in line]
    assert named, done.stderr
    if code == 78:  # ONE line on stderr (the unit's log), the one that says it all
        assert len(done.stderr.splitlines()) == 1, done.stderr
        line = done.stderr.splitlines()[0]
        assert line.startswith("tablekeeper kiosk stopped") and line in named, done.stderr
        assert not (tmp_path / "state").exists()  # no game started anywhere
