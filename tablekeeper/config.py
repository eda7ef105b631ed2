"""The box's configuration: one TOML file, composed of each subsystem's own section.

```toml
[table]              # this module: the host's table settings
game = "something-missing"          # the game the home screen points at (a registered kit)
roster = ["志強", "美玲", "怡君", "Ann"]   # the table's regulars: typed here once, picked on
                                    # the setup screen with a touch (a Pi has no Chinese input)
variant = "standard"  # the variant the setup form starts with (the game's own names)
language = "zh-TW"    # zh-TW | en
state_dir = "/var/lib/tablekeeper"   # journals live under state_dir/games/
items_deck = "/var/lib/tablekeeper/decks/items"   # the enrolled item cards ("": demo deck)
markers = "markers.json"   # 眨眨眼's marker colours, `vision calibrate-markers` (the default:
                           # next to this file, where its [[vision.zones]] are)

[table.decks]        # each game's enrolled deck (a folder; absent or "": the game's demo deck)
the-game = "/var/lib/tablekeeper/decks/the-game"    # (items_deck is 什麼不見啦's, the older name)

[screen]             # this module
size = [1920, 1080]   # ignored when fullscreen picks the display's own mode
fullscreen = true
```

Subsystems parse their own sections (``firmware`` reads ``[firmware]``, ``vision`` reads
``[camera]`` and ``[vision]``); each raises ``ValueError`` naming the key. :func:`load_config`
stops at the first problem (for tools); the kiosk reads with :func:`check_config`, which reports
every problem at once (file, line, section, key), lets a refused key alone take its default,
names unknown sections and keys (with the near name meant), and never lets ``state_dir`` fall
back (see there). A missing file means "all defaults" (unless it was named explicitly).
Writing goes through :func:`tablekeeper.atomic.write_atomic` (temp file, fsync, rename), so
a power cut never leaves half a config.
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

from ground.files import NotAFile, printable, read_regular, read_text
from tablekeeper.atomic import write_atomic
from tablekeeper.names import bad_character

#: the longest config file read (a real one is a few kB)
MAX_CONFIG_BYTES = 1024 * 1024

COLOURS: tuple[str, ...] = ("red", "yellow", "blue", "green", "orange", "brown", "purple")
LANGUAGES: tuple[str, ...] = ("zh-TW", "en")


class ConfigError(ValueError):
    """A config file that cannot be used, with a message a host can act on."""


def _expect(value: Any, kind: type | tuple[type, ...], key: str) -> Any:
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise ValueError(f"{key}: expected {names}, got {value!r}")
    return value


def _unknown_keys(d: Mapping[str, Any], known: set[str], section: str) -> None:
    extra = sorted(set(d) - known)
    if extra:
        raise ValueError(f"{section}: unknown key(s) {', '.join(extra)} "
                         f"(known: {', '.join(sorted(known))})")


#: where a user's games go when neither the config nor the service names a folder
USER_STATE_DIR = "~/.local/state/tablekeeper"
#: set by the kiosk's unit (systemd sets it from ``StateDirectory=tablekeeper``)
SERVICE_STATE_ENV = "STATE_DIRECTORY"
#: set by hand (a second box image, a test) to name the folder the same way
STATE_ENV = "TABLEKEEPER_STATE_DIR"


def default_state_dir(environ: Mapping[str, str] | None = None) -> tuple[str, str]:
    """The games' folder when the config does not name one, and where that was decided:

    1. ``$STATE_DIRECTORY``: systemd sets it for the kiosk's unit from its
       ``StateDirectory=tablekeeper`` (``/var/lib/tablekeeper``: the folder the service was
       installed with; the first, if it lists several);
    2. ``$TABLEKEEPER_STATE_DIR``;
    3. ``~/.local/state/tablekeeper`` (a laptop, a developer's run).

    So an empty, truncated or unparsable config on the box never moves the games elsewhere.
    """
    env = os.environ if environ is None else environ
    service = env.get(SERVICE_STATE_ENV, "").split(":")[0].strip()
    if service:
        return service, f"the service's folder, ${SERVICE_STATE_ENV}"
    own = env.get(STATE_ENV, "").strip()
    if own:
        return own, f"${STATE_ENV}"
    return USER_STATE_DIR, "the default for a user's own runs"


#: the game whose deck ``[table] items_deck`` names (the older key of ``[table.decks]``)
ITEMS_GAME = "something-missing"

#: the longest name the setup form keeps (display.setup.MAX_NAME)
MAX_NAME = 12


@dataclass(frozen=True)
class TableConfig:
    """``players`` and ``colours`` are the older form of ``roster`` (names in seat order, and
    their colours): read still, their names join the roster."""

    players: tuple[str, ...] = ()
    colours: tuple[str, ...] = ()
    variant: str = ""
    language: str = "zh-TW"
    #: the config's ``state_dir``; absent: :func:`default_state_dir` (the service's folder)
    state_dir: str = field(default_factory=lambda: default_state_dir()[0])
    items_deck: str = ""
    game: str = "something-missing"
    roster: tuple[str, ...] = ()
    #: each game's enrolled deck folder by kit name (``[table.decks]``); ``items_deck`` is the
    #: older name of 什麼不見啦's
    decks: Mapping[str, str] = field(default_factory=dict)
    #: the marker colours of this table (眨眨眼; ``vision calibrate-markers``), a JSON file; a
    #: relative path is read from the config file's folder; "": ``markers.json`` there
    markers: str = ""

    def deck_for(self, game: str) -> str | None:
        """The enrolled deck folder of ``game`` (a kit name); None: its demo deck."""
        if game == ITEMS_GAME and self.items_deck:
            return self.items_deck
        return self.decks.get(game) or None

    @property
    def names(self) -> tuple[str, ...]:
        """The roster, then the older ``players`` not already in it."""
        return (*self.roster, *(p for p in self.players if p not in self.roster))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self:
        from tablekeeper import games

        _unknown_keys(d, {"players", "colours", "variant", "language", "state_dir",
                          "items_deck", "game", "roster", "decks", "markers"}, "table")
        game = _expect(d.get("game", cls.game), str, "table.game")
        if game not in games.names():
            raise ValueError(f"table.game: {game!r} is not a game of this box "
                             f"({', '.join(games.names())})")
        roster = tuple(_expect(p, str, f"table.roster[{i}]").strip()
                       for i, p in enumerate(_expect(d.get("roster", []), list, "table.roster")))
        if any(not p for p in roster):
            raise ValueError("table.roster: a name is empty")
        if len(set(roster)) != len(roster):
            raise ValueError("table.roster: a name is there twice")
        if any(len(p) > MAX_NAME for p in roster):
            raise ValueError(f"table.roster: a name is longer than {MAX_NAME} characters")
        players = tuple(_expect(p, str, f"table.players[{i}]")
                        for i, p in enumerate(_expect(d.get("players", list(cls.players)),
                                                      list, "table.players")))
        if any(not p.strip() for p in players):
            raise ValueError("table.players: a player name is empty")
        for key, names in (("roster", roster), ("players", players)):
            for i, name in enumerate(names):
                bad = bad_character(name)
                if bad is not None:  # it would reach the screen, terminals and exports raw
                    raise ValueError(f"table.{key}[{i}]: the name holds {bad}; names are "
                                     "plain text")
        default_colours = list(COLOURS[: len(players)])
        colours = tuple(_expect(c, str, f"table.colours[{i}]")
                        for i, c in enumerate(_expect(d.get("colours", default_colours), list,
                                                      "table.colours")))
        if len(colours) != len(players):
            raise ValueError(f"table.colours: {len(colours)} colours for {len(players)} players")
        for i, c in enumerate(colours):
            if c not in COLOURS:
                raise ValueError(f"table.colours[{i}]: {c!r} is not one of {', '.join(COLOURS)}")
        if len(set(colours)) != len(colours):
            raise ValueError("table.colours: two players have the same colour")
        variant = _expect(d.get("variant", cls.variant), str, "table.variant")
        variants = games.load(game).setup.variants
        if variant and variant not in variants:
            raise ValueError(f"table.variant: {variant!r} is not one of {', '.join(variants)}")
        language = _expect(d.get("language", cls.language), str, "table.language")
        if language not in LANGUAGES:
            raise ValueError(f"table.language: {language!r} is not one of {', '.join(LANGUAGES)}")
        state_dir = _expect(d.get("state_dir", default_state_dir()[0]), str, "table.state_dir")
        if not state_dir.strip():
            raise ValueError("table.state_dir: empty (the games folder must be named)")
        if "\0" in state_dir:
            raise ValueError("table.state_dir: a NUL character (\\u0000) cannot be in a "
                             "folder's name")
        items_deck = _expect(d.get("items_deck", cls.items_deck), str, "table.items_deck")
        decks: dict[str, str] = {}
        for name, folder in _expect(d.get("decks", {}), dict, "table.decks").items():
            if name not in games.names():
                known = list(games.names())
                raise ValueError(f"table.decks: {name!r} is not a game of this box "
                                 f"({', '.join(known)}){_did_you_mean(name, known)}")
            decks[name] = _expect(folder, str, f"table.decks.{name}").strip()
        if items_deck and decks.get(ITEMS_GAME) and decks[ITEMS_GAME] != items_deck:
            raise ValueError(f"table.decks.{ITEMS_GAME}: {decks[ITEMS_GAME]!r}, but "
                             f"table.items_deck says {items_deck!r}: name the deck once")
        markers = _expect(d.get("markers", cls.markers), str, "table.markers").strip()
        if markers and not markers.endswith(".json"):
            raise ValueError(f"table.markers: {markers!r} is not a .json file (the marker "
                             "calibration that vision calibrate-markers writes)")
        return cls(players, colours, variant, language, state_dir, items_deck, game, roster,
                   decks, markers)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "language": self.language,
                               "state_dir": self.state_dir, "items_deck": self.items_deck}
        if self.roster:
            out["roster"] = list(self.roster)
        if self.decks:
            out["decks"] = dict(self.decks)
        if self.variant:
            out["variant"] = self.variant
        if self.markers:
            out["markers"] = self.markers
        if self.players:
            out["players"] = list(self.players)
            out["colours"] = list(self.colours)
        return out


def markers_file(table: TableConfig, config_path: Path | None) -> Path:
    """Where this table's marker calibration is (``[table] markers``): a relative path (and
    the default, ``markers.json``) lies in the config file's folder, next to the grid's
    ``[[vision.zones]]``; without a config file, in ``state_dir``
    (:func:`vision.markers.markers_path`, which ``vision calibrate-markers`` writes to)."""
    from vision.markers import markers_path

    return markers_path(table.markers, config_path, table.state_dir)


@dataclass(frozen=True)
class ScreenConfig:
    size: tuple[int, int] = (1920, 1080)
    fullscreen: bool = True
    #: degrees clockwise the picture is turned on the panel, touch alike (display.rotation):
    #: 180 for a Touch Display mounted upside down
    rotate: int = 0

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self:
        from display.rotation import check_rotation

        _unknown_keys(d, {"size", "fullscreen", "rotate"}, "screen")
        raw = _expect(d.get("size", list(cls.size)), list, "screen.size")
        if len(raw) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw):
            raise ValueError(f"screen.size: expected [width, height] in pixels, got {raw!r}")
        w, h = raw
        if not (320 <= w <= 7680 and 240 <= h <= 4320):
            raise ValueError(f"screen.size: {w}x{h} is not a plausible screen size")
        fullscreen = _expect(d.get("fullscreen", cls.fullscreen), bool, "screen.fullscreen")
        rotate = check_rotation(d.get("rotate", cls.rotate))
        return cls((w, h), fullscreen, rotate)

    def to_dict(self) -> dict[str, Any]:
        return {"size": list(self.size), "fullscreen": self.fullscreen, "rotate": self.rotate}


@dataclass(frozen=True)
class Config:
    table: TableConfig = field(default_factory=TableConfig)
    screen: ScreenConfig = field(default_factory=ScreenConfig)
    #: Sections owned by other subsystems, kept as parsed TOML until they are built.
    sections: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self:
        table = TableConfig.from_dict(_expect(d.get("table", {}), dict, "table"))
        screen = ScreenConfig.from_dict(_expect(d.get("screen", {}), dict, "screen"))
        others = {k: v for k, v in d.items() if k not in ("table", "screen")}
        for key, value in others.items():
            _expect(value, dict, key)
        return cls(table, screen, others)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"table": self.table.to_dict(), "screen": self.screen.to_dict()}
        out.update({k: dict(v) for k, v in self.sections.items()})
        return out


def load_config(path: Path | None) -> Config:
    """Read ``path`` (None or a missing file: defaults); errors name the file and the key."""
    if path is None or not path.exists():
        return Config()
    try:
        data = tomllib.loads(read_regular(path, MAX_CONFIG_BYTES).decode("utf-8"))
    except NotAFile as exc:
        raise ConfigError(f"{printable(path)}: not a config file ({exc.kind})") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc.strerror}") from exc
    try:
        return Config.from_dict(data)
    except ValueError as exc:
        raise ConfigError(f"{path}: {exc}") from exc


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")


def dumps(config: Config) -> str:
    lines: list[str] = ["# tablekeeper configuration (see README: Configuration)"]
    for section, values in config.to_dict().items():
        lines.append(f"\n[{section}]")
        lines.extend(f"{k} = {_toml_value(v)}" for k, v in values.items())
    return "\n".join(lines) + "\n"


def save_config(config: Config, path: Path) -> None:
    """Write atomically: temp file in the same folder, fsync, rename, fsync the folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, dumps(config))


def _strings(value: Any) -> list[str]:
    """The non-empty names of a list as a config holds it (anything else: none)."""
    if not isinstance(value, list):
        return []
    return [str(n).strip() for n in value if isinstance(n, str) and str(n).strip()]


def merge_roster(now: tuple[str, ...], base: tuple[str, ...],
                 mine: tuple[str, ...]) -> tuple[str, ...]:
    """The roster in the file (``now``) with the screen's own changes applied: the names the
    screen added since ``base`` (what it started from) are added, the names it removed are
    removed, a name the screen renamed is renamed in place; names typed into the file
    meanwhile stay."""
    removed = [n for n in base if n not in mine]
    added = [n for n in mine if n not in base]
    out = list(now)
    # a rename on the screen is one name out and one in at the same place: keep its place
    for old in removed:
        if old in out:
            i = out.index(old)
            new = next((n for n in added if mine.index(n) == base.index(old)), None)
            if new is not None and new not in out:
                out[i] = new
                added.remove(new)
            else:
                del out[i]
    out.extend(n for n in added if n not in out)
    return tuple(out)


def save_roster(path: Path, roster: tuple[str, ...],
                base: tuple[str, ...] | None = None) -> tuple[tuple[str, ...], bool]:
    """Write ``[table] roster`` into the config file at ``path``, keeping everything else as
    the host wrote it (comments, order, other keys: tomlkit edits the document, it does not
    re-dump it), atomically; through a symbolic link, its target. A missing file is created
    with just the roster.

    ``base``: the roster the screen started from. The file is read again now and only the
    screen's changes since ``base`` are applied to the roster it holds (:func:`merge_roster`):
    a name typed into the file meanwhile is kept. Returns the roster saved and whether the
    file's roster had been changed by hand meanwhile (the screen says so). Without ``base``
    the roster is written as given. Raises ``OSError`` (cannot read or write) or
    ``ValueError`` (the file is not valid TOML, or ``table`` is not a table: then nothing is
    written)."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    names = tuple(name.strip() for name in roster)
    if any(not n for n in names) or len(set(names)) != len(names):
        raise ValueError("table.roster: a name is empty or there twice")
    if any(len(n) > MAX_NAME for n in names):
        raise ValueError(f"table.roster: a name is longer than {MAX_NAME} characters")
    try:
        text = read_text(path)
    except FileNotFoundError:
        text = ""
    edited = False
    try:
        doc = tomlkit.parse(text)
        table = doc.get("table")
        if table is None:
            table = tomlkit.table()
            doc["table"] = table
        if not isinstance(table, dict):
            raise ValueError(f"{path}: 'table' is not a table; the roster is not saved")
        if base is not None:  # the file's names now, as the kiosk reads them (Table.names)
            held = [*_strings(table.get("roster")), *_strings(table.get("players"))]
            now = tuple(dict.fromkeys(n for n in held if len(n) <= MAX_NAME))
            edited = now != tuple(base)
            names = merge_roster(now, tuple(base), names)
        array = tomlkit.array()
        array.extend(names)
        table["roster"] = array
        out = tomlkit.dumps(doc)
    except TOMLKitError as exc:
        raise ValueError(f"{path}: {exc}; the roster is not saved") from exc
    write_atomic(path, out)
    return names, edited


# --- the kiosk's reading: every problem at once, a bad key falls back alone ----------------

#: A subsystem's section parser (``FirmwareConfig.from_dict`` ...): raises ``ValueError``
#: naming the key, as ``section.key: ...``, ``key: ...`` or ``section: unknown key(s) a, b``.
SectionCheck = Callable[[Mapping[str, Any]], object]

#: what decoding puts for bytes that are not UTF-8 (a marker looked for, never shown)
_REPLACED = chr(0xFFFD)
_HEADER = re.compile(r"^\s*\[\[?\s*([^\[\]#]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY_LINE = re.compile(r"^\s*([A-Za-z0-9_\-]+|\"[^\"]*\")\s*(?:\.\s*[A-Za-z0-9_\-]+\s*)*=")
_TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)")
_UNKNOWN = re.compile(r"unknown key(?:\(s\))? ([^()]+?)(?: \(known: ([^)]*)\))?$")
_KNOWN = re.compile(r"\(known: ([^)]*)\)")
_STATE_DIR = re.compile(r"^\s*\"?state_dir\"?\s*=")


@dataclass(frozen=True)
class ConfigReport:
    """What the kiosk reads: the config to run with, every problem found (each naming the
    file, the section and the key), and ``fatal`` when the games folder (``table.state_dir``)
    is not known for sure -- then the kiosk must not start a game anywhere else."""

    config: Config
    problems: tuple[str, ...] = ()
    fatal: str | None = None


def _section_of(header: str) -> tuple[str, ...]:
    return tuple(part.strip().strip('"') for part in header.split("."))


def _chunks(lines: list[str]) -> list[tuple[int, str | None, list[str]]]:
    """The text cut at its table headers: (first line number, header line, body lines)."""
    chunks: list[tuple[int, str | None, list[str]]] = [(1, None, [])]
    for n, line in enumerate(lines, start=1):
        if _HEADER.match(line):
            chunks.append((n, line, []))
        else:
            chunks[-1][2].append(line)
    return chunks


def _merge(into: dict[str, Any], more: Mapping[str, Any], where: tuple[str, ...],
           clashes: list[tuple[str, ...]]) -> None:
    for key, value in more.items():
        old = into.get(key)
        if isinstance(old, dict) and isinstance(value, dict):
            _merge(old, value, (*where, key), clashes)
        elif isinstance(old, list) and isinstance(value, list):
            old.extend(value)  # [[array of tables]] cut into chunks
        elif key in into:
            clashes.append((*where, key))
        else:
            into[key] = value


@dataclass
class _Reading:
    path: Path
    lines: list[str]
    problems: list[tuple[int, str]] = field(default_factory=list)  # (line or 0, message)
    #: key paths whose value was lost (a broken line, an unknown section or key, a bad value)
    lost: list[tuple[str, ...]] = field(default_factory=list)

    def line_of(self, key_path: tuple[str, ...]) -> int | None:
        """The line that sets ``key_path`` (for the message), if it can be found."""
        section: tuple[str, ...] = ()
        for n, line in enumerate(self.lines, start=1):
            header = _HEADER.match(line)
            if header:
                section = _section_of(header.group(1))
                if section == key_path:
                    return n
                continue
            key = _KEY_LINE.match(line)
            if key and (*section, key.group(1).strip('"')) == key_path[: len(section) + 1]:
                return n
        for n, line in enumerate(self.lines, start=1):  # the section header itself
            header = _HEADER.match(line)
            if header and _section_of(header.group(1))[: len(key_path)] == key_path:
                return n
        return None

    def say(self, key_path: tuple[str, ...], message: str, *, line: int | None = None) -> None:
        line = line if line is not None else self.line_of(key_path)
        where = f"{self.path}:{line}" if line else str(self.path)
        section = ".".join(key_path[:1]) or "(top level)"
        key = ".".join(key_path[1:])
        self.problems.append((line or 0, f"{where}: [{section}]{' ' + key if key else ''}: "
                                         f"{message}"))

    def lose(self, key_path: tuple[str, ...], message: str, *, line: int | None = None) -> None:
        self.lost.append(key_path)
        self.say(key_path, message, line=line)


def _parse(reading: _Reading, text: str) -> dict[str, Any]:
    """The TOML of ``text``; a chunk (one table) that is not valid TOML is read line by line,
    and only the lines that cannot be read alone are lost (and reported)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        pass
    data: dict[str, Any] = {}
    clashes: list[tuple[str, ...]] = []
    for start, header, body in _chunks(reading.lines):
        head = [header] if header is not None else []
        section = _section_of(m.group(1)) if header and (m := _HEADER.match(header)) else ()
        first_body = start + 1 if header is not None else start
        try:
            part = tomllib.loads("\n".join(head + body))
        except tomllib.TOMLDecodeError as exc:
            detail = _TOML_AT.sub("", str(exc)).strip()
            kept: list[str] = []
            for n, line in enumerate(body, start=first_body):
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                try:
                    _merge(data, tomllib.loads("\n".join([*head, line])), (), clashes)
                    kept.append(line)
                except tomllib.TOMLDecodeError:
                    key = _KEY_LINE.match(line)
                    name = key.group(1).strip('"') if key else None
                    what = (f"not valid TOML ({detail}); the default is used" if name
                            else f"not valid TOML ({detail}); this line is ignored")
                    if name:
                        reading.lose((*section, name), what, line=n)
                    else:
                        reading.say(section, what, line=n)
            if header is not None and not kept:
                try:
                    _merge(data, tomllib.loads(header), (), clashes)
                except tomllib.TOMLDecodeError:
                    reading.lose(section, f"not a valid table header ({detail})", line=start)
        else:
            _merge(data, part, (), clashes)
    for clash in clashes:
        reading.lose(clash, "set twice; the first value is used")
    return data


def _named_path(message: str, section: str, d: Mapping[str, Any]) -> tuple[str, ...] | None:
    """The key (path inside the section) a subsystem's message names, if it is in ``d``."""
    token = message.split(":", 1)[0].strip()
    parts = [re.sub(r"\[.*?\]", "", p) for p in token.split(".")]
    if parts and parts[0] == section:
        parts = parts[1:]
    path: list[str] = []
    node: Any = d
    for part in parts:
        if isinstance(node, Mapping) and part in node:
            path.append(part)
            node = node[part]
        else:
            break
    return tuple(path) or None


def _drop(d: dict[str, Any], path: tuple[str, ...]) -> None:
    node = d
    for part in path[:-1]:
        node = node[part]
    del node[path[-1]]


def _copy(d: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _copy(v) if isinstance(v, Mapping) else v for k, v in d.items()}


def _did_you_mean(name: str, known: list[str]) -> str:
    near = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return f"; did you mean {near[0]!r}?" if near else ""


def _check_section(reading: _Reading, section: str, raw: Mapping[str, Any],
                   check: SectionCheck) -> tuple[dict[str, Any], object]:
    """The section with every key its parser refuses taken out (each reported), and what
    the parser builds of the rest."""
    good = _copy(raw)
    for _ in range(200):  # each turn drops a key (or the section): this ends
        try:
            return good, check(good)
        except ValueError as exc:
            message = str(exc)
        unknown = _UNKNOWN.search(message)
        path = _named_path(message, section, good)
        if unknown:
            known_m = _KNOWN.search(message)
            known = [k.strip() for k in known_m.group(1).split(",")] if known_m else []
            names = [n.strip() for n in unknown.group(1).split(",")]
            prefix = path if path is not None and names[0] not in (path or ()) else ()
            if path is not None and path[-1] in names:
                prefix = path[:-1]
            dropped = False
            for name in names:
                key_path = (*prefix, name)
                if _named_path(".".join(key_path), "", good) == key_path:
                    reading.lose((section, *key_path),
                                 f"unknown key{_did_you_mean(name, known)} (ignored)")
                    _drop(good, key_path)
                    dropped = True
            if dropped:
                continue
        if path is not None:
            detail = message.split(":", 1)[1].strip() if ":" in message else message
            if detail.startswith("unknown key"):
                known_m = _KNOWN.search(message)
                known = [k.strip() for k in known_m.group(1).split(",")] if known_m else []
                detail = f"unknown key{_did_you_mean(path[-1], known)} (ignored)"
            else:
                detail += " (the default is used)"
            reading.lose((section, *path), detail)
            _drop(good, path)
            continue
        reading.lose((section,), f"{message} (the whole section takes its defaults)")
        good = {}
        return good, check(good)
    raise AssertionError("unreachable")  # pragma: no cover


def check_config(path: Path | None, *, explicit: bool = False,
                 sections: Mapping[str, SectionCheck] | None = None) -> ConfigReport:
    """Read the config the way the kiosk needs it: never give up on the whole file.

    Every problem is reported (each naming the file, the line where it can be found, the
    section and the key); a key whose value is refused takes its default alone; an unknown
    section or key is reported (with the near name it may have meant). ``sections`` are the
    other subsystems' parsers (``{"firmware": FirmwareConfig.from_dict, ...}``), whose keys
    are checked the same way; the returned config holds only what they accept.

    ``table.state_dir`` never falls back: the default folder would hide the unfinished game
    (and start another). If its value is refused, lost in a broken line or a misspelled
    section, or the file cannot be read (an explicit ``path`` that does not exist included),
    ``fatal`` says why and the caller must stop.
    """
    checks: dict[str, SectionCheck] = {"table": TableConfig.from_dict,
                                       "screen": ScreenConfig.from_dict}
    checks.update(sections or {})
    if path is None:
        return ConfigReport(Config())
    if not os.path.lexists(path):
        if explicit:
            message = (f"{path}: the config file does not exist, so the games folder "
                       "(table.state_dir) it names is not known")
            return ConfigReport(Config(), (message,), fatal=message)
        return ConfigReport(Config())
    try:
        data = read_regular(path, MAX_CONFIG_BYTES)
    except OSError as exc:  # a FIFO, a device, a directory, a dangling link, unreadable ...
        what = exc.kind if isinstance(exc, NotAFile) else (
            "a dangling symbolic link" if isinstance(exc, FileNotFoundError)
            else exc.strerror or str(exc))
        message = (f"{printable(path)}: cannot be read as a config file ({what}), so the "
                   "games folder (table.state_dir) it names is not known")
        return ConfigReport(Config(), (message,), fatal=message)
    text = data.decode("utf-8", errors="replace")
    reading = _Reading(path, text.splitlines())
    if _REPLACED in text and _REPLACED not in data.decode("utf-8", errors="ignore"):
        section: tuple[str, ...] = ()
        for n, line in enumerate(reading.lines, start=1):
            header = _HEADER.match(line)
            if header:
                section = _section_of(header.group(1))
            if _REPLACED in line:
                key = _KEY_LINE.match(line)
                reading.lines[n - 1] = ""
                reading.lose((*section, key.group(1)) if key else section,
                             "not UTF-8 text; this line is ignored", line=n)
        text = "\n".join(reading.lines)
    parsed = _parse(reading, text)
    built: dict[str, object] = {}
    others: dict[str, Mapping[str, Any]] = {}
    known = sorted(checks)
    for name, value in parsed.items():
        if not isinstance(value, dict):
            reading.lose((name,), f"a value outside any section{_did_you_mean(name, known)} "
                                  "(ignored)")
            continue
        check = checks.get(name)
        if check is None:
            reading.lose((name,), f"unknown section{_did_you_mean(name, known)} (ignored; "
                                  f"known: {', '.join(known)})")
            continue
        good, built[name] = _check_section(reading, name, value, check)
        if name not in ("table", "screen"):
            others[name] = good
    table = built.get("table")
    screen = built.get("screen")
    config = Config(table if isinstance(table, TableConfig) else TableConfig(),
                    screen if isinstance(screen, ScreenConfig) else ScreenConfig(), others)
    fatal = None
    mentioned = any(_STATE_DIR.match(line) for line in reading.lines)
    table_raw = parsed.get("table")
    configured = table_raw.get("state_dir") if isinstance(table_raw, dict) else None
    lost = any(p and p[-1] == "state_dir" for p in reading.lost)
    if lost or (mentioned and not (isinstance(configured, str) and configured.strip()
                                  and configured == config.table.state_dir)):
        # the one line says the key's own problem (what is wanted), when there is one
        said = next((t for _, t in reading.problems if "] state_dir" in t), None)
        why = f" ({said.replace(' (the default is used)', '')})" if said else ""
        fatal = (f"{path}: the games folder (table.state_dir) cannot be read from this "
                 f"file{why}; the kiosk does not start a game elsewhere (that would hide the "
                 "unfinished one). Fix the file and restart")
    if fatal is None and ("screen", "rotate") in reading.lost:
        # a turned panel with the picture not turned: upside-down text and touches that hit
        # the wrong buttons; stop, saying so, rather than play on it
        said = next((t for _, t in reading.problems if "rotate" in t), "[screen] rotate")
        said = said.replace(" (the default is used)", "")
        fatal = f"{said}: the picture and touch would not match the panel; fix it and restart"
    if not parsed and fatal is None:
        folder, where = default_state_dir()
        said = "unreadable" if reading.problems else "empty"
        reading.problems.append((0, f"{path}: the config file is {said}: nothing is set, every "
                                    f"setting takes its default; the games stay in {folder} "
                                    f"({where}) / 設定檔是空的或無法讀取，全部使用預設值"))
    problems = tuple(text for _, text in sorted(reading.problems, key=lambda p: p[0]))
    return ConfigReport(config, problems, fatal)
