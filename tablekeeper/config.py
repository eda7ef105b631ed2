"""The box's configuration: one TOML file, composed of each subsystem's own section.

```toml
[table]              # this module: the host's table settings
players = ["阿明", "小華", "Ann"]   # names, in seat order (seat 1 first)
colours = ["red", "yellow", "blue"]
variant = "standard"  # easy | standard | advanced
language = "zh-TW"    # zh-TW | en
state_dir = "/var/lib/tablekeeper"   # journals live under state_dir/games/
items_deck = "/var/lib/tablekeeper/decks/items"   # the enrolled item cards ("": demo deck)

[screen]             # this module
size = [1920, 1080]   # ignored when fullscreen picks the display's own mode
fullscreen = true
```

Subsystems parse their own sections (``firmware`` reads ``[firmware]``, ``vision`` reads
``[camera]`` and ``[vision]``); each raises ``ValueError`` naming the key, and the kiosk shows
it with the file's name. A missing file means "all defaults".
Writing goes through :func:`tablekeeper.atomic.write_atomic` (temp file, fsync, rename), so
a power cut never leaves half a config.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

from tablekeeper.atomic import write_atomic

COLOURS: tuple[str, ...] = ("red", "yellow", "blue", "green", "orange", "brown", "purple")
VARIANTS: tuple[str, ...] = ("easy", "standard", "advanced")
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


@dataclass(frozen=True)
class TableConfig:
    players: tuple[str, ...] = ("紅", "黃", "藍", "綠")
    colours: tuple[str, ...] = ("red", "yellow", "blue", "green")
    variant: str = "standard"
    language: str = "zh-TW"
    state_dir: str = "~/.local/state/tablekeeper"
    items_deck: str = ""

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self:
        _unknown_keys(d, {"players", "colours", "variant", "language", "state_dir",
                          "items_deck"}, "table")
        players = tuple(_expect(p, str, f"table.players[{i}]")
                        for i, p in enumerate(_expect(d.get("players", list(cls.players)),
                                                      list, "table.players")))
        if not 3 <= len(players) <= 7:
            raise ValueError(f"table.players: 什麼不見啦 needs 3-7 players, got {len(players)}")
        if any(not p.strip() for p in players):
            raise ValueError("table.players: a player name is empty")
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
        if variant not in VARIANTS:
            raise ValueError(f"table.variant: {variant!r} is not one of {', '.join(VARIANTS)}")
        language = _expect(d.get("language", cls.language), str, "table.language")
        if language not in LANGUAGES:
            raise ValueError(f"table.language: {language!r} is not one of {', '.join(LANGUAGES)}")
        state_dir = _expect(d.get("state_dir", cls.state_dir), str, "table.state_dir")
        items_deck = _expect(d.get("items_deck", cls.items_deck), str, "table.items_deck")
        return cls(players, colours, variant, language, state_dir, items_deck)

    def to_dict(self) -> dict[str, Any]:
        return {"players": list(self.players), "colours": list(self.colours),
                "variant": self.variant, "language": self.language, "state_dir": self.state_dir,
                "items_deck": self.items_deck}


@dataclass(frozen=True)
class ScreenConfig:
    size: tuple[int, int] = (1920, 1080)
    fullscreen: bool = True

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self:
        _unknown_keys(d, {"size", "fullscreen"}, "screen")
        raw = _expect(d.get("size", list(cls.size)), list, "screen.size")
        if len(raw) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw):
            raise ValueError(f"screen.size: expected [width, height] in pixels, got {raw!r}")
        w, h = raw
        if not (320 <= w <= 7680 and 240 <= h <= 4320):
            raise ValueError(f"screen.size: {w}x{h} is not a plausible screen size")
        fullscreen = _expect(d.get("fullscreen", cls.fullscreen), bool, "screen.fullscreen")
        return cls((w, h), fullscreen)

    def to_dict(self) -> dict[str, Any]:
        return {"size": list(self.size), "fullscreen": self.fullscreen}


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
        data = tomllib.loads(path.read_text(encoding="utf-8"))
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
