"""What the set-up steps save into the box's config file, edited in place (issue 28).

The zones (``[[vision.zones]]``) and the buzzer's tie window (``[firmware.arbiter]
tie_window_us``) are written into the config file the kiosk reads, the way issue 27 writes
the roster (:func:`tablekeeper.config.save_roster`): tomlkit edits the document -- the host's
comments, the order of the keys and every other key stay as they were -- and the new text
replaces the old atomically (:func:`tablekeeper.atomic.write_atomic`: a power cut leaves the
old file or the new one, never half; a config that is a symbolic link has its target
replaced, the link stays). Each save reads the file again and changes only the keys the
screen changed, so a hand edit made meanwhile is kept; where the file's value of that very key
changed since the box read it, the save says so (:func:`put`: the screen's value is saved, the
file's is logged, and the screen shows ``setup.config.clash``). The zones are compared zone by
zone (by name): one the host moved, added or removed in the file since the set-up step read it,
and that the screen now saves, is a clash too (:func:`save_zones`).

Nothing is written when the file cannot be used: not valid TOML, a section that is not a
table, or the edit would make the ``[vision]`` section unreadable (:class:`ConfigEditError`,
``kind`` "broken"); a file or folder the box may not write (``kind`` "unwritable"). The set-up
screen says which, in the host's language, and keeps what was measured, so the host can fix
the file and save again.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ground.files import read_text
from tablekeeper.atomic import write_atomic
from vision.config import VisionConfig, Zone

#: Which of :class:`ConfigEditError`'s kinds a screen may see.
BROKEN = "broken"
UNWRITABLE = "unwritable"


class ConfigEditError(Exception):
    """The config file was not changed: ``kind`` is :data:`BROKEN` (the file cannot be read
    as a config: the host's text is left alone) or :data:`UNWRITABLE` (the box may not
    write it); ``detail`` says what exactly, naming the file."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


def edit_config(path: Path, change: Callable[[Any], None]) -> None:
    """Apply ``change`` to the tomlkit document of the config at ``path`` (a missing file is
    an empty one) and write it back atomically; :class:`ConfigEditError` and nothing
    written where the file cannot be read or written, or the changed text would not load."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        text = read_text(path)
    except FileNotFoundError:
        text = ""
    except UnicodeDecodeError as exc:
        raise ConfigEditError(BROKEN, f"{path}: not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise ConfigEditError(UNWRITABLE, f"{path}: cannot be read: "
                                          f"{exc.strerror or exc}") from None
    try:
        doc = tomlkit.parse(text)
        change(doc)
        out = tomlkit.dumps(doc)
        data = tomllib.loads(out)
    except (TOMLKitError, tomllib.TOMLDecodeError) as exc:
        raise ConfigEditError(BROKEN, f"{path}: not valid TOML ({exc})") from None
    except (TypeError, ValueError) as exc:
        raise ConfigEditError(BROKEN, f"{path}: {exc}") from None
    try:
        VisionConfig.from_dict(data.get("vision", {}))
    except ValueError as exc:
        raise ConfigEditError(BROKEN, f"{path}: {exc}") from None
    try:
        write_atomic(path, out)
    except OSError as exc:
        raise ConfigEditError(UNWRITABLE, f"{path}: cannot be written: "
                                          f"{exc.strerror or exc}") from None


def section(doc: Any, key: str, where: str, *, super_table: bool = False) -> Any:
    """``doc[key]``, made (empty) if absent; ValueError if it is there but not a table."""
    import tomlkit

    if key not in doc:
        doc[key] = tomlkit.table(is_super_table=super_table)
    table = doc[key]
    if not isinstance(table, dict):
        raise ValueError(f"'{where}' is not a table")
    return table


def _zone_table(zone: Zone) -> Any:
    import tomlkit

    t = tomlkit.table()
    t["name"] = zone.name
    polygon = tomlkit.array()
    polygon.extend([[round(x, 1), round(y, 1)] for x, y in zone.polygon])
    t["polygon"] = polygon
    return t


def set_zones(doc: Any, zones: Sequence[Zone], replaces: Callable[[str], bool]) -> None:
    """In the tomlkit document ``doc``: drop the ``[[vision.zones]]`` whose name
    ``replaces`` says the new ones stand for, keep every other zone (another game's) as it
    was, and add ``zones`` (edited in place: the host's comments and blank lines stay)."""
    import tomlkit
    from tomlkit.items import AoT

    vision = section(doc, "vision", "vision", super_table=True)
    old = vision.get("zones")
    if old is not None and not isinstance(old, list):
        raise ValueError("'vision.zones' is not a list of zones")
    if not isinstance(old, AoT):  # none yet, or an inline array: made a list of tables
        kept = [z for z in (old or []) if not (isinstance(z, dict)
                                              and replaces(str(z.get("name", ""))))]
        aot = tomlkit.aot()
        for z in kept:
            aot.append(z)
        if "zones" in vision:
            del vision["zones"]
        vision["zones"] = aot
        old = vision["zones"]
    for i in reversed(range(len(old))):
        z = old[i]
        if isinstance(z, dict) and replaces(str(z.get("name", ""))):
            del old[i]
    for zone in zones:
        table = _zone_table(zone)
        table.add(tomlkit.nl())
        old.append(table)


def _polygons(doc: Any, which: Callable[[str], bool]) -> dict[str, Any]:
    """The file's zones that ``which`` names, as plain values: name -> its polygon (as the
    file holds it; a hand-broken zone too, compared as it is)."""
    vision = doc.get("vision") if isinstance(doc, dict) else None
    zones = vision.get("zones") if isinstance(vision, dict) else None
    out: dict[str, Any] = {}
    for z in zones if isinstance(zones, list) else ():
        if isinstance(z, dict) and which(str(z.get("name", ""))):
            raw: Any = z.get("polygon")
            unwrap = getattr(raw, "unwrap", None)
            raw = unwrap() if callable(unwrap) else raw
            out[str(z.get("name", ""))] = _rounded(raw)
    return out


def _rounded(polygon: Any) -> Any:
    """A polygon as saved (each coordinate to 0.1 px), or what the file has if it is none."""
    try:
        return tuple((round(float(x), 1), round(float(y), 1)) for x, y in polygon)
    except (TypeError, ValueError):
        return polygon


def _said(polygon: Any) -> str:
    """A polygon as the file writes it (``[[x, y], ...]``), or "no such zone"."""
    if polygon is None:
        return "no such zone"
    try:
        return "[" + ", ".join(f"[{x}, {y}]" for x, y in polygon) + "]"
    except (TypeError, ValueError):
        return repr(polygon)


def save_zones(path: Path, zones: Sequence[Zone],
               replaces: Callable[[str], bool] = lambda name: False,
               base: Sequence[Zone] | None = None) -> list[str]:
    """Write ``zones`` into the config at ``path``, atomically, keeping the rest: a zone of
    the same name as a new one, or one ``replaces`` names (a ring of another size's
    ``scene6``), goes (see :func:`set_zones`). ``base``: the zones as the file held them
    when the screen read it; a zone this save replaces that the file changed since (moved,
    added or removed by hand) is a clash, returned (as :func:`put`'s) for the screen and the
    log: the screen's zones are saved."""
    names = {z.name for z in zones}
    which: Callable[[str], bool] = lambda n: n in names or replaces(n)  # noqa: E731
    clashes: list[str] = []

    def change(doc: Any) -> None:
        clashes.clear()
        if base is not None:
            was = {z.name: _rounded(z.polygon) for z in base if which(z.name)}
            now = _polygons(doc, which)
            new = {z.name: _rounded(z.polygon) for z in zones}
            for name in sorted(set(was) | set(now)):
                held, read = now.get(name), was.get(name)
                if held != read and held != new.get(name):
                    clashes.append(
                        f"vision.zones {name!r}: the file had {_said(held)} (edited since "
                        f"the box read {_said(read)}); {_said(new.get(name))} set here is "
                        "saved")
        set_zones(doc, zones, which)

    edit_config(path, change)
    return clashes


def put(table: Any, key: str, value: Any, base: Any, where: str,
        clashes: list[str]) -> None:
    """``table[key] = value``; where the file's value is neither ``base`` (what the screen
    started from) nor ``value`` -- the file was edited by hand on this key since the box read
    it -- the clash is added to ``clashes`` (``where.key``: the file's value, replaced), for
    the screen and the log. ``base`` None: nothing is compared."""
    if base is not None and key in table:
        held = table[key]
        held = held.unwrap() if hasattr(held, "unwrap") else held
        if held != base and held != value:
            clashes.append(f"{where}.{key}: the file had {held!r} (edited since the box read "
                           f"{base!r}); {value!r} set here is saved")
    table[key] = value


def save_tie_window(path: Path, tie_window_us: float,
                    base: float | None = None) -> list[str]:
    """Write ``[firmware.arbiter] tie_window_us`` into the config at ``path``, atomically,
    keeping the rest (the file is read again now: keys edited by hand meanwhile stay).
    ``base``: the tie window the screen started from; returns the clashes (:func:`put`)."""
    if not 0 <= tie_window_us <= 100_000:
        raise ValueError(f"tie_window_us: {tie_window_us} is not in 0..100000")
    clashes: list[str] = []

    def change(doc: Any) -> None:
        clashes.clear()
        firmware = section(doc, "firmware", "firmware", super_table=True)
        arbiter = section(firmware, "arbiter", "firmware.arbiter")
        put(arbiter, "tie_window_us", float(tie_window_us),
            None if base is None else float(base), "firmware.arbiter", clashes)

    edit_config(path, change)
    return clashes


def save_deck_path(path: Path, game: str, folder: Path,
                   base: str | None = None) -> list[str]:
    """Name ``folder`` as ``game``'s deck (``[table.decks]``; 什麼不見啦's ``[table]
    items_deck`` where the config uses that older key). ``base``: the deck folder the screen
    started from; returns the clashes (:func:`put`)."""
    from tablekeeper.config import ITEMS_GAME

    clashes: list[str] = []

    def change(doc: Any) -> None:
        clashes.clear()
        table = section(doc, "table", "table")
        if game == ITEMS_GAME and str(table.get("items_deck", "")):
            put(table, "items_deck", str(folder), base, "table", clashes)
        else:
            put(section(table, "decks", "table.decks"), game, str(folder), base,
                "table.decks", clashes)

    edit_config(path, change)
    return clashes


def fresh_section(config_path: Path | None, parsed: Any, section: str) -> dict[str, Any]:
    """The config file's ``section`` as the file holds it now (a step may have written it
    since the box read it: the zones before the markers); where the file cannot be read,
    the parsed config's (``parsed``: a :class:`tablekeeper.config.Config`)."""
    if config_path is not None:
        try:
            data = tomllib.loads(read_text(config_path))
        except FileNotFoundError:
            data = {}
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            data = None
        if data is not None:
            value = data.get(section, {})
            return dict(value) if isinstance(value, dict) else {}
    return dict(parsed.sections.get(section, {})) if parsed is not None else {}


def fresh_zones(config_path: Path | None, parsed: Any) -> tuple[Zone, ...]:
    """The zones (``[[vision.zones]]``) as the config file holds them now; () where its
    ``[vision]`` cannot be read."""
    try:
        return VisionConfig.from_dict(fresh_section(config_path, parsed, "vision")).zones
    except ValueError:
        return ()
