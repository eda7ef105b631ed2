"""The game seam: a game is one engine module plus one kit; the rest of the app knows no game.

A **kit** (:class:`Kit`) is everything the composition root needs to referee one game at a real
table, in one place:

- ``engine`` -- the game's pure rules (:class:`engine.core.Engine`);
- ``setup`` -- the setup spec (:class:`SetupSpec`): player range, variants, colours, defaults;
- ``table(referee)`` -- the table adapter (:class:`TableAdapter`): how camera cards, buzzer
  decisions and host choices become the game's events, when to arm the buzzers and for which
  seats, which vision zones to watch, and any transient state of the table (a held card) that
  goes away with it (Mission Pinball Framework's modes own their handlers the same way);
- ``screen()`` -- the game's part of the screen (:class:`ScreenPart`): the host's actions as
  events, what the screen shows, its screens for the renderer;
- ``demo(...)`` -- its simulated players, for ``tablekeeper demo --game NAME``.

Kits are registered by name in :data:`KITS` as ``"module:attribute"`` strings and imported only
when chosen (gpiozero names its pin factories the same way), so adding a game is one line here.
A kit module must stay cheap to import: it imports pygame, OpenCV or the simulator inside the
functions that need them.

The journal names a game by its engine's name (``something_missing``); the CLI and the config
by the kit's (``something-missing``). :func:`engine_for` finds a journal's engine.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from engine.core import Engine, Event, Rejection

if TYPE_CHECKING:
    from firmware.arbiter import Decision
    from tablekeeper.seen import CardSeen


def lazy(target: str) -> Callable[..., Any]:
    """A kit's factory by name, ``"module:callable"``: imported when first called, so the kit
    stays cheap to import (the journal imports every kit to find a game's engine)."""
    module_name, _, name = target.partition(":")

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module_name), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


#: Every game the box referees: kit name -> "module:attribute" of its :class:`Kit`.
KITS: Mapping[str, str] = {
    "something-missing": "tablekeeper.games.something_missing:KIT",
    "the-game": "tablekeeper.games.the_game:KIT",
    "wink": "tablekeeper.games.wink:KIT",
    "eselsbruecke": "tablekeeper.games.eselsbruecke:KIT",
}

DEFAULT_GAME = "something-missing"


@dataclass(frozen=True)
class SetupSpec:
    """What the host chooses before a game, and the defaults (one place per game)."""

    min_players: int
    max_players: int
    #: the variant names the setup screen offers (setup-form names), the default first
    variants: tuple[str, ...] = ()
    default_variant: str = ""
    #: the game's player colours (keys of :mod:`display.colours`), in the box's order
    colours: tuple[str, ...] = ()
    default_players: int = 4
    #: the demo's table (None: ``default_players``)
    demo_players: int | None = None

    def problems(self) -> list[str]:
        out = []
        if not 1 <= self.min_players <= self.default_players <= self.max_players:
            out.append(f"players {self.min_players} <= {self.default_players} <= "
                       f"{self.max_players} does not hold")
        if self.variants and self.default_variant not in self.variants:
            out.append(f"default variant {self.default_variant!r} is not one of "
                       f"{self.variants}")
        if len(self.colours) < self.max_players:
            out.append(f"{len(self.colours)} colours for up to {self.max_players} players")
        return out


class TableAdapter(Protocol):
    """One game's reading of the table, owned by the referee (and gone with it).

    The referee calls these in the app loop's thread; each returns the engine's answer (a
    Rejection is logged and shown, never raised)."""

    def card_seen(self, seen: CardSeen) -> Any | Rejection:
        """The camera saw a card settle in a zone (``seen.zone``)."""
        ...

    def decision(self, decision: Decision) -> None:
        """The buzzer arbiter decided a race (polled each tick)."""
        ...

    def changed(self, before: Any, after: Any, event: Event | None) -> None:
        """The state changed (``event`` None: an undo): re-arm or disarm the buzzers, forget
        transient table state that no longer applies."""
        ...

    def watching(self, state: Any) -> bool:
        """Whether the camera is read in ``state`` (cards are being laid)."""
        ...

    def resync(self, now_ns: int) -> None:
        """The journal could not be written for a while (events were refused, a buzz among
        them perhaps): arm or disarm the buzzers again as the state says."""
        ...

    # Optional: ``asks(state) -> bool``: whether a card the camera found but could not name
    # is put to the host now (issue 37; default: while ``watching``). 眨眨眼 asks only while
    # the grid is laid: in play its face-down cards are found and named by no one.


class ScreenPart(Protocol):
    """One game's part of the kiosk screen (see :mod:`tablekeeper.screen`).

    A part may also have ``back(screen, loop, now_ns) -> bool``: the host's *back* while an
    entry of its own is under way (True: taken; False: *back* undoes as usual)."""

    def host_action(self, screen: Any, loop: Any, name: str, arg: Any, now_ns: int) -> bool:
        """A host choice in a running game; True if this game handled it."""
        ...

    def seat_pressed(self, screen: Any, loop: Any, seat: int, t_ns: int) -> None:
        ...

    def start(self, screen: Any, loop: Any, form: Any, now_ns: int, rng: Any) -> Event:
        """The game's first event from a ready setup form (``rng``: the table's shuffles)."""
        ...

    def snapshot_parts(self, screen: Any, loop: Any) -> dict[str, Any]:
        """The game's fields of the screen's snapshot (``last_card``, ``held_card``...)."""
        ...

    def shot_key(self, state: Any, screen_name: str) -> tuple[Any, ...]:
        """What makes a headless PNG a new one (the round, the pile ...)."""
        ...

    # Optional: ``asking(screen, loop) -> bool``: the game asks the host a question now (a
    # card's question, a claim to confirm); its clocks pause until it is answered
    # (:meth:`tablekeeper.screen.PygameScreen.modal`).
    # Optional: ``moment(screen, loop) -> tuple``: the moment of the game a message belongs
    # to (the turn, the recall ...); a refusal's banner stays until the host acts or this
    # changes (:meth:`tablekeeper.screen.PygameScreen.moment`; default: any event ends it).


@dataclass(frozen=True)
class Kit:
    """One game as the app sees it. See the module docstring."""

    #: the CLI's and the config's name, e.g. ``"something-missing"``
    name: str
    #: the game's title by language (``zh-TW``, ``en``)
    title: Mapping[str, str]
    engine: Engine[Any]
    setup: SetupSpec
    #: ``table(referee, now_ns, **table_options)`` -> the game's :class:`TableAdapter`
    table: Callable[..., TableAdapter]
    #: ``screen()`` -> the game's :class:`ScreenPart`
    screen: Callable[[], ScreenPart]
    #: ``deck(path)`` -> the game's enrolled deck (a folder; None: its demo deck)
    deck: Callable[[str | None], Any]
    #: ``card_infos(deck)`` -> what the screen shows of each card (names, template)
    card_infos: Callable[[Any], Mapping[str, Any]]
    #: ``table_options(deck)`` -> keyword arguments of ``table`` for this deck
    table_options: Callable[[Any], dict[str, Any]]
    #: ``demo(out, *, seed, players, variant, clock, camera, screen, deck, threaded)`` ->
    #: :class:`tablekeeper.demo.DemoParts`
    demo: Callable[..., Any]
    #: ``demo_summary(parts)`` -> the game's figures of a finished demo (JSON-able)
    demo_summary: Callable[[Any], dict[str, Any]]
    #: ``scoreboard(state)`` -> the scores for the terminal (demo, replay)
    scoreboard: Callable[[Any], str]
    #: ``display()`` -> the game's display part (:class:`display.games.GameDisplay`)
    display: Callable[[], Any] = field(default=lambda: None)
    #: ``text_demo(args)`` -> ``tablekeeper demo --text`` (None: the game has none)
    text_demo: Callable[[argparse.Namespace], int] | None = None
    #: the calibrated vision zones whose cards the game takes, in order of preference
    #: (None: any card in view)
    zones: tuple[str, ...] | None = None
    #: the set-up's "Show the box the table" (issue 28): the cards the host lays where the
    #: zones are, as ``vision calibrate --layout`` names them (``pile``, ``rows:4``,
    #: ``grid:6x6``, ``area``), and the zones' names (empty: the layout's own); None: the
    #: game has no zones to show
    zone_layout: str | None = None
    zone_names: tuple[str, ...] = ()
    #: the set-up's marker colours: ``"grid"`` (Wink's markers on the grid's cells),
    #: ``"ring"`` (什麼不見啦's tokens on the ring's memory cards); None: none
    markers: str | None = None
    #: the set-up steps the game needs, by key (:data:`tablekeeper.tablesetup.step.
    #: STEP_KEYS`); None: the set-up area's default for what the game ``uses``
    setup_steps: tuple[str, ...] | None = None
    #: what the box needs for this game: "camera", "buzzers", "seat buttons"
    uses: tuple[str, ...] = field(default=())
    #: ``watcher(context)`` -> what the kiosk's camera feeds frames (``process(frame)`` ->
    #: events or ``CardSeen`` values; ``forget()``), given a
    #: :class:`tablekeeper.vision_link.CameraContext`; None: the card recogniser
    watcher: Callable[[Any], Any] | None = None
    #: the width (px) the camera frame is searched for cards at for this game, where the
    #: game's table area is too big for the default (``FindParams.work_width``, 640): its
    #: cards must be at least the floor of ``tablekeeper bench pixels`` wide there
    #: (hardware.md section 3). None: ``[vision.find] work_width``, which also wins when the
    #: config sets it
    search_width: int | None = None
    #: the host action of the game's screen part that opens its entry by hand (The Game's
    #: keypad, Wink's grid, a tile or a card entered unnamed): where a question about a
    #: card the camera could not name (issue 37) goes when the host says "none of these".
    #: None: the question just closes
    hand_entry: str | None = None

    def title_in(self, lang: str) -> str:
        return self.title.get(lang) or self.title.get("en") or self.name


_loaded: dict[str, Kit] = {}


class UnknownGame(ValueError):
    """A game name that no kit is registered for."""


def names() -> tuple[str, ...]:
    """The registered games, in the order of :data:`KITS`."""
    return tuple(KITS)


def load(name: str) -> Kit:
    """The kit registered as ``name`` (imported on first use)."""
    kit = _loaded.get(name)
    if kit is not None:
        return kit
    target = KITS.get(name) or KITS.get(name.replace("_", "-"))
    if target is None:
        raise UnknownGame(f"unknown game {name!r} (known: {', '.join(KITS)})")
    module_name, _, attr = target.partition(":")
    module = importlib.import_module(module_name)
    kit = getattr(module, attr)
    if not isinstance(kit, Kit):
        raise TypeError(f"{target} is not a Kit")
    _loaded[name] = kit
    return kit


def kits() -> tuple[Kit, ...]:
    """Every registered kit (imports them all: the home screen lists them)."""
    return tuple(load(name) for name in KITS)


def engine_for(game: str) -> Engine[Any]:
    """The engine a journal header's ``game`` names (an engine name or a kit name)."""
    for name in KITS:
        kit = load(name)
        if game in (kit.engine.name, kit.name):
            return kit.engine
    raise UnknownGame(f"unknown game {game!r} (known: "
                      f"{', '.join(load(n).engine.name for n in KITS)})")


def kit_for(game: str) -> Kit:
    """The kit of a journal header's ``game`` (an engine name or a kit name)."""
    for name in KITS:
        kit = load(name)
        if game in (kit.engine.name, kit.name):
            return kit
    raise UnknownGame(f"unknown game {game!r} (known: {', '.join(KITS)})")


def home_choices() -> tuple[Any, ...]:
    """The home screen's games: every registered kit, with its titles and player range."""
    from display.home import GameChoice

    return tuple(GameChoice(kit.name, kit.title_in("zh-TW"), kit.title_in("en"),
                            kit.setup.min_players, kit.setup.max_players) for kit in kits())


def demo_options(kit: Kit, *, players: int | None, variant: str | None) -> dict[str, Any]:
    """Players and variant for a demo of ``kit``, with the setup spec's defaults."""
    spec = kit.setup
    n = players if players is not None else (spec.demo_players or spec.default_players)
    if not spec.min_players <= n <= spec.max_players:
        raise ValueError(f"--players: {kit.title_in('zh-TW')} takes {spec.min_players}-"
                         f"{spec.max_players} players, not {n}")
    v = spec.default_variant if variant is None else variant
    if spec.variants and v not in spec.variants:
        raise ValueError(f"--variant: {kit.name} has no variant {v!r} "
                         f"({', '.join(spec.variants)})")
    return {"players": n, "variant": v}
