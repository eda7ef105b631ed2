"""Each game's part of the display: how its engine state reads into a view, and its screens.

A game's display part is a :class:`GameDisplay`, in its own module here
(``display/games/<game>/``): the :class:`display.renderer.Renderer` draws any game through it,
and the screens every game shares (home, title, setup, the buzz) are :mod:`display.screens`'.
The game's kit (:mod:`tablekeeper.games`) names its display part; nothing here lists the games.

A view is whatever the game's screens read, with the few things the renderer itself needs
(:class:`View`): the scores (animated when they change), the history of scores by round (a
round scored shows the scoring screen for a while), the running timer's deadline, and whether
the game is over.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from display.paint import Painter

Draw = Callable[[Painter, Any], None]


class View(Protocol):
    """What the renderer reads of any game's view."""

    @property
    def scores(self) -> tuple[int, ...]: ...

    @property
    def history(self) -> tuple[tuple[int, ...], ...]: ...

    @property
    def deadline_ms(self) -> int | None: ...

    @property
    def over(self) -> bool: ...


@dataclass(frozen=True)
class GameDisplay:
    """One game's screens and how to read its state (see the module docstring)."""

    #: the engine's name of the game, e.g. ``"something_missing"``
    game: str
    #: engine state -> the game's view (None: no game yet); a view passes through
    view: Callable[[Any], Any]
    #: screen name -> (static part, moving part or None); the renderer caches the static part
    screens: Mapping[str, tuple[Draw, Draw | None]]
    #: the view -> the name of the screen that shows it
    screen_of: Callable[[Any], str]
    #: screens whose timer runs (redrawn every frame while it does)
    timer_screens: frozenset[str] = frozenset()
    #: screens that animate changing scores
    score_screens: frozenset[str] = frozenset()
    #: the screen shown for a while after a round was scored ("": none)
    scoring_screen: str = ""
    #: the type of a prepared view (tests and samples may put one into ``Snapshot.state``)
    view_type: type | None = None
    #: sample snapshots for ``display shots`` and the tests: (name, snapshot) by language
    samples: Callable[[str], list[tuple[str, Any]]] | None = field(default=None)
    #: the game's own words on the shared screens: shared i18n key -> the game's key (the
    #: race's shout and winner line, its variants' names). A shared key a game does not map
    #: shows the box's neutral wording.
    phrases: Mapping[str, str] = field(default_factory=dict)
    #: the game's rules in short, for the host menu: language -> lines (``rules.py``)
    rules: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: the host's actions that judge a player (right, wrong, held it, found, caught ...):
    #: never the focus's default (:func:`display.input.focus_order`)
    judgments: frozenset[str] = frozenset()
    #: the view -> whether the event the judgments judge has happened (the answer given):
    #: before it, no judgment is offered (tests/display/test_judgments.py checks every
    #: sample screen)
    judging: Callable[[Any], bool] = field(default=lambda view: True)
    #: the game's messages of a moment (i18n keys): each is owned by the state the event
    #: that made it produced, and gone once that state ends (tests/app/test_messages_owned.py
    #: walks every game's demo and fails on one shown after its state)
    messages: frozenset[str] = frozenset()


def displays() -> tuple[GameDisplay, ...]:
    """Every game display in this package (``display/games/<game>/``'s ``DISPLAY``), found
    by looking, so a new game adds its folder and nothing else here."""
    import importlib
    import pkgutil

    found = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        display = getattr(module, "DISPLAY", None)
        if isinstance(display, GameDisplay):
            found.append(display)
    return tuple(found)
