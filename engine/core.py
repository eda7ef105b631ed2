"""What every rules engine shares: rejections, outcomes, events and their JSON form, seats.

An engine is a pure reducer ``apply(state, event) -> State | Rejection``. This module holds the
vocabulary the game modules have in common:

- :class:`Rejection` -- an illegal event is answered with a value (a machine ``code`` and a human
  ``reason``), never an exception into the kiosk loop;
- :class:`Outcome` -- how a finished game ended (a reason enum) and who won;
- :class:`Source` and :class:`Event` -- every event carries ``at_ms`` (the game clock the app
  supplies) and declares where it comes from (host, buzzer, camera, clock), so a journal can
  undo "the last host-entered event";
- :class:`EventRegistry` -- each game's event types by name, with versioned JSON
  (de)serialisation: ``{"type": "bet", "v": 1, "at_ms": 1200, "seat": 2, "position": 0}``;
- seat helpers (seats are numbered ``0..n-1`` clockwise; "to the left" is the next seat).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar, Union


@dataclass(frozen=True)
class Rejection:
    """An event the engine refused: ``code`` is for machines, ``reason`` for people."""

    code: str
    reason: str

    def __str__(self) -> str:
        return f"rejected ({self.code}): {self.reason}"


class Source(enum.Enum):
    """Where an event comes from."""

    HOST = "host"  # entered by the host on the host buttons / touch screen
    BUZZER = "buzzer"  # produced by the firmware's first-press arbiter
    CAMERA = "camera"  # recognised by the vision pipeline
    CLOCK = "clock"  # a deadline in the state passed (the app sends the time-up)


R = TypeVar("R", bound=enum.Enum)


@dataclass(frozen=True)
class Outcome(Generic[R]):
    """How a finished game ended: the reason, the winning seats (ties share) and final scores."""

    reason: R
    winners: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True)
class Event:
    """Base of all events: ``at_ms`` is the time on the game clock, in milliseconds.

    Subclasses are frozen dataclasses registered with an :class:`EventRegistry`; they set the
    class variables ``type_name`` (the JSON ``type``) and ``source``.
    """

    at_ms: int

    type_name: ClassVar[str] = ""
    source: ClassVar[Source] = Source.HOST
    #: version of this event's JSON form; bump it when a field changes meaning.
    version: ClassVar[int] = 1

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"type": ..., "v": ..., "at_ms": ..., <fields>}``."""
        out: dict[str, Any] = {"type": self.type_name, "v": self.version}
        for f in dataclasses.fields(self):
            out[f.name] = _to_json(getattr(self, f.name))
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild this event type from its JSON form; ``ValueError`` naming what is wrong."""
        if not isinstance(data, Mapping):
            raise ValueError(f"an event must be a JSON object, got {data!r}")
        name = data.get("type")
        if name != cls.type_name:
            raise ValueError(f"expected a {cls.type_name!r} event, got type {name!r}")
        version = data.get("v", 1)
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise ValueError(f"{name}: bad version {version!r}")
        if version > cls.version:
            raise ValueError(
                f"{name}: event version {version} is newer than this engine reads "
                f"({cls.version})")
        hints = _hints(cls)
        fields = {f.name: f for f in dataclasses.fields(cls)}
        unknown = set(data) - set(fields) - {"type", "v"}
        if unknown:
            raise ValueError(f"{name}: unknown field(s) {sorted(unknown)}")
        kwargs: dict[str, Any] = {}
        for fname, f in fields.items():
            if fname not in data:
                if (f.default is dataclasses.MISSING
                        and f.default_factory is dataclasses.MISSING):
                    raise ValueError(f"{name}: missing field {fname!r}")
                continue
            kwargs[fname] = _check(data[fname], hints[fname], f"{name}.{fname}")
        return cls(**kwargs)

    def problem(self) -> str | None:
        """What is wrong with the types of this event's fields (None: nothing)."""
        hints = _hints(type(self))
        for f in dataclasses.fields(self):
            try:
                _check(getattr(self, f.name), hints[f.name], f"{self.type_name}.{f.name}",
                       strict=True)
            except ValueError as exc:
                return str(exc)
        return None


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


E = TypeVar("E", bound=Event)


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    return value


def _check(value: Any, hint: Any, where: str, strict: bool = False) -> Any:
    """Check ``value`` against a type hint; returns it with lists as tuples.

    ``strict``: the value must already be of the hinted type (tuples stay tuples), as for an
    event built in the process; otherwise JSON lists are accepted for tuples.
    """
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        errors = []
        for alt in typing.get_args(hint):
            try:
                return _check(value, alt, where, strict)
            except ValueError as exc:
                errors.append(str(exc))
        raise ValueError(f"{where}: {value!r} does not fit {hint}")
    if hint is type(None):
        if value is not None:
            raise ValueError(f"{where}: expected null, got {value!r}")
        return None
    if origin is tuple:
        if not isinstance(value, tuple if strict else list | tuple):
            raise ValueError(f"{where}: expected a {'tuple' if strict else 'list'}, "
                             f"got {value!r}")
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_check(v, args[0], f"{where}[{i}]", strict)
                         for i, v in enumerate(value))
        if len(args) != len(value):
            raise ValueError(f"{where}: expected {len(args)} items, got {len(value)}")
        return tuple(_check(v, a, f"{where}[{i}]", strict)
                     for i, (v, a) in enumerate(zip(args, value, strict=True)))
    if hint is bool:
        if not isinstance(value, bool):
            raise ValueError(f"{where}: expected true/false, got {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{where}: expected an integer, got {value!r}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise ValueError(f"{where}: expected a string, got {value!r}")
        return value
    raise ValueError(f"{where}: unsupported field type {hint}")  # pragma: no cover


class EventRegistry:
    """One game's event types by JSON ``type`` name."""

    def __init__(self, game: str) -> None:
        self.game = game
        self._types: dict[str, type[Event]] = {}

    def register(self, cls: type[E]) -> type[E]:
        """Class decorator: add an event type (its ``type_name`` must be unique)."""
        if not cls.type_name:
            raise TypeError(f"{cls.__name__} has no type_name")
        if cls.type_name in self._types:
            raise TypeError(f"{self.game}: event type {cls.type_name!r} registered twice")
        self._types[cls.type_name] = cls
        return cls

    @property
    def types(self) -> Mapping[str, type[Event]]:
        return dict(self._types)

    def from_dict(self, data: Mapping[str, Any]) -> Event:
        """Rebuild an event from its JSON form; raises ``ValueError`` naming what is wrong."""
        if not isinstance(data, Mapping):
            raise ValueError(f"an event must be a JSON object, got {data!r}")
        name = data.get("type")
        cls = self._types.get(name) if isinstance(name, str) else None
        if cls is None:
            raise ValueError(f"{self.game}: unknown event type {name!r}")
        return cls.from_dict(data)


# --- seats -------------------------------------------------------------------------------


def left_of(seat: int, n: int, step: int = 1) -> int:
    """The seat ``step`` places to the left (clockwise) of ``seat`` at a table of ``n``."""
    return (seat + step) % n


def clockwise_from(start: int, n: int) -> tuple[int, ...]:
    """All ``n`` seats in clockwise order, beginning with ``start``."""
    return tuple((start + i) % n for i in range(n))


def first_clockwise(start: int, n: int, accept: Callable[[int], bool]) -> int | None:
    """The first seat clockwise from ``start`` (inclusive) for which ``accept`` is true."""
    for seat in clockwise_from(start, n):
        if accept(seat):
            return seat
    return None


def highest(scores: tuple[int, ...]) -> tuple[int, ...]:
    """The seats with the highest score (a tie shares)."""
    if not scores:
        return ()
    top = max(scores)
    return tuple(i for i, s in enumerate(scores) if s == top)
