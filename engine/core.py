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
- seat helpers (seats are numbered ``0..n-1`` clockwise; "to the left" is the next seat);
- the seam every game is seen through: :class:`Engine` (name, player range, events, rules,
  ``initial_state``, ``apply``, ``legal_actions``, ``outcome``, and the next :class:`Deadline`
  with the time-up event to send), and :class:`Reducer`, the common guard of ``apply`` (an
  unknown event, a game that is over, a malformed event, a clock that went back, an event the
  phase does not expect: each a :class:`Rejection`), written once for every game.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, Union


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


# --- static rules as JSON (the journal header's "rules") -----------------------------------

D = TypeVar("D")


def rules_to_dict(obj: Any) -> dict[str, Any]:
    """A frozen dataclass of static rules as JSON: tuples as lists, nested dataclasses as
    tables, and a table by number (``tuple[tuple[int, int], ...]``) as ``{"3": 8, ...}``."""
    out: dict[str, Any] = {}
    hints = _hints(type(obj))
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if dataclasses.is_dataclass(value):
            out[f.name] = rules_to_dict(value)
        elif _is_table(hints[f.name]):
            out[f.name] = {str(k): v for k, v in value}
        elif isinstance(value, tuple):
            out[f.name] = list(value)
        else:
            out[f.name] = value
    return out


def rules_from_dict(cls: type[D], data: Any, where: str = "rules") -> D:
    """The frozen dataclass ``cls`` from its JSON form (:func:`rules_to_dict`): missing keys
    take the defaults; an unknown key or a bad value is a ``ValueError`` naming it
    (``rules.interpretations.x: expected true/false``). Fields may be ``int``, ``bool``,
    ``str``, ``tuple[int, ...]``, ``tuple[str, ...]``, a table by number, or a nested
    dataclass. When the result has a ``problems()`` method, the first problem it names is
    raised too."""
    if not isinstance(data, Mapping):
        raise ValueError(f"{where}: expected a table, got {data!r}")
    assert dataclasses.is_dataclass(cls)
    hints = _hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        if key not in names:
            raise ValueError(f"{where}.{key}: unknown key")
        kwargs[key] = _rule_value(hints[key], value, f"{where}.{key}")
    result = cls(**kwargs)
    problems = getattr(result, "problems", None)
    if callable(problems):
        found = problems()
        if found:
            raise ValueError(found[0])
    return result


def _is_table(hint: Any) -> bool:
    if typing.get_origin(hint) is not tuple:
        return False
    args = typing.get_args(hint)
    return (len(args) == 2 and args[1] is Ellipsis and typing.get_origin(args[0]) is tuple
            and typing.get_args(args[0]) == (int, int))


def _rule_value(hint: Any, value: Any, where: str) -> Any:
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return rules_from_dict(hint, value, where)
    if _is_table(hint):
        if not isinstance(value, Mapping):
            raise ValueError(f"{where}: expected a table of numbers, got {value!r}")
        out = []
        for k, v in value.items():
            try:
                n = int(k)
            except (TypeError, ValueError):
                raise ValueError(f"{where}: {k!r} is not a number") from None
            if isinstance(v, bool) or not isinstance(v, int):
                raise ValueError(f"{where}.{k}: expected an integer, got {v!r}")
            out.append((n, v))
        return tuple(sorted(out))
    if typing.get_origin(hint) is tuple:
        item = typing.get_args(hint)[0]
        if item is str:
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise ValueError(f"{where}: expected a list of strings, got {value!r}")
            return tuple(value)
        if not isinstance(value, list | tuple) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise ValueError(f"{where}: expected a list of integers, got {value!r}")
        return tuple(value)
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
    raise ValueError(f"{where}: unsupported rule type {hint}")  # pragma: no cover


# --- seats -------------------------------------------------------------------------------


def seating_problem(game: str, names: tuple[str, ...], colours: tuple[str, ...],
                    start_seat: int, *, min_players: int, max_players: int,
                    known_colours: Collection[str], seat: str = "player") -> Rejection | None:
    """What is wrong with a table's players (``bad_setup``), the same words in every game:
    how many, a name each, a known colour each and no colour twice, a start seat at the
    table. ``seat``: what the game calls a place at the table ("player", "seat")."""
    n = len(names)
    if not min_players <= n <= max_players:
        return Rejection("bad_setup", f"{n} {seat}s; {game} takes {min_players}-{max_players}")
    if len(colours) != n:
        return Rejection("bad_setup", f"{len(colours)} colours for {n} {seat}s")
    if any(not name.strip() for name in names):
        return Rejection("bad_setup", f"every {seat} needs a name")
    for c in colours:
        if c not in known_colours:
            return Rejection("bad_setup",
                             f"unknown colour {c!r} (one of {', '.join(known_colours)})")
    if len(set(colours)) != n:
        return Rejection("bad_setup", f"two {seat}s have the same colour")
    if not 0 <= start_seat < n:
        return Rejection("bad_setup", f"start seat {start_seat} is not a seat (0-{n - 1})")
    return None


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


# --- the seam: what the app sees of a game -------------------------------------------------


@dataclass(frozen=True)
class Deadline:
    """A running timer: at ``at_ms`` on the game clock the app sends ``event`` (a time-up)."""

    at_ms: int
    event: Event


class PhasedState(Protocol):
    """What the common guard reads of a game's state."""

    @property
    def phase(self) -> enum.Enum: ...

    @property
    def now_ms(self) -> int: ...


S = TypeVar("S", bound=PhasedState)
Handler = Callable[[S, Event], "S | Rejection"]


class Reducer(Generic[S]):
    """A game's ``apply``: the checks every game shares, then the handler for the state's phase
    and the event's type (*boardgame.io*'s reducer does the same checks once for every game).

    In order: an event that is not one of this game's is ``unknown_event``; after the end,
    ``game_over``; a field of the wrong type, ``bad_event``; an event stamped before the last,
    ``clock_went_back``; no handler for (phase, type) and none for the type in ``anytime``,
    ``wrong_phase``. A handler gets the state already stamped with the event's time
    (``stamp(state, at_ms)``).
    """

    def __init__(self, game: str, events: EventRegistry,
                 handlers: Mapping[tuple[Any, type[Event]], Handler[S]], *,
                 is_over: Callable[[S], bool], stamp: Callable[[S, int], S],
                 anytime: Mapping[type[Event], Handler[S]] | None = None) -> None:
        self.game = game
        self._types = frozenset(events.types.values())
        self._handlers = dict(handlers)
        self._anytime = dict(anytime or {})
        self._is_over = is_over
        self._stamp = stamp
        for _phase, cls in self._handlers:
            if cls not in self._types:
                raise TypeError(f"{game}: handler for unregistered event {cls.__name__}")

    def __call__(self, state: S, event: Event) -> S | Rejection:
        if not isinstance(event, Event) or type(event) not in self._types:
            return Rejection("unknown_event", f"{event!r} is not an event of {self.game}")
        if self._is_over(state):
            return Rejection("game_over", "the game is over")
        problem = event.problem()
        if problem is not None:
            return Rejection("bad_event", problem)
        if event.at_ms < state.now_ms:
            return Rejection("clock_went_back", f"event at {event.at_ms} ms is before the "
                                                f"last one ({state.now_ms} ms)")
        handler = self._anytime.get(type(event))
        if handler is None:
            handler = self._handlers.get((state.phase, type(event)))
        if handler is None:
            return Rejection("wrong_phase", f"{event.type_name} is not expected in phase "
                                            f"{state.phase.value}")
        return handler(self._stamp(state, event.at_ms), event)


@dataclass(frozen=True)
class Engine(Generic[S]):
    """One game's rules as the app sees them: everything here is a pure function.

    Each game module builds one at its bottom (``ENGINE = Engine(...)``), as OpenSpiel's game
    files register themselves. The journal replays through it; the app's generic referee,
    loop and kiosk know a game only through it and the game's kit.
    """

    #: the journal's game name, e.g. ``"something_missing"``
    name: str
    min_players: int
    max_players: int
    events: EventRegistry
    #: the static rules from the journal header's ``rules`` (defaults for missing keys;
    #: ``ValueError`` naming the key) and back
    rules_from_dict: Callable[[Mapping[str, Any]], Any]
    rules_to_dict: Callable[[Any], dict[str, Any]]
    initial_state: Callable[[Any], S]
    apply: Callable[[S, Event], S | Rejection]
    legal_actions: Callable[[S], tuple[Event, ...]]
    outcome: Callable[[S], Outcome[Any] | None]
    #: the running timer and the time-up event the app must send at its end (None: no timer)
    deadline: Callable[[S], Deadline | None]
    #: the state as one JSON-able object (replay, logs)
    summary: Callable[[S], dict[str, Any]]
    #: the sources of the events an undo takes back, the last of them with everything after
    #: it (the journal's rule). A game whose table is read by the camera and buttons
    #: (The Game: a play is a camera event, a turn's end a button) undoes those too;
    #: otherwise the last host entry, and the camera's reveal after it.
    undoable: frozenset[Source] = frozenset({Source.HOST})

    def is_over(self, state: S) -> bool:
        return self.outcome(state) is not None

    def started(self, state: S) -> bool:
        """Whether the game has begun: every game's first phase, waiting for the host's
        setup event, is named ``"setup"``."""
        return bool(state.phase.value != "setup")

    def replay(self, rules: Any, events: Iterable[Event]) -> S:
        """Fold ``apply`` over ``events`` from the initial state; ``ValueError`` on the first
        rejected one."""
        state = self.initial_state(rules)
        for i, event in enumerate(events):
            result = self.apply(state, event)
            if isinstance(result, Rejection):
                raise ValueError(f"event {i} ({event.type_name}): {result}")
            state = result
        return state
