"""The host menu's entries: what each is called, when it is offered, what it does.

The menu is a list (:data:`ENTRIES`) so another feature adds an entry without touching the
screen: ``PygameScreen.menu_entries`` starts as a copy of it, and e.g. a "Set up this table"
entry (issue 28) is one more :class:`Entry` inserted there (``screen.menu_entries.insert(...)``
or :func:`add_entry`). The first entry is the menu's default focus and *back* closes the menu,
so it is always the harmless "back to the game".

Leaving to home with a game under way ends it (journalled as the game's own ``end_game`` event,
after a yes/no question): the box keeps one current game, and an unfinished one left behind
would be resumed at the next start and stop the host from choosing another game; its journal,
with the result so far, is kept like any finished game's (``tablekeeper replay``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from display.renderer import Renderer
    from tablekeeper.app import Loop


class MenuScreen(Protocol):
    """What the entries use of the screen (:class:`tablekeeper.screen.PygameScreen`, which
    holds the entries: the menu is below it and names only this, so the two do not import
    each other). An entry that needs more of the screen adds it here."""

    lang: str
    volume: int
    muted: bool
    menu_page: str
    focus: int

    @property
    def renderer(self) -> Renderer: ...

    @property
    def home(self) -> object: ...

    @property
    def area(self) -> object: ...

    @property
    def area_factory(self) -> object: ...

    def close_menu(self) -> None: ...

    @property
    def asks_waiting(self) -> int: ...

    def end_game(self, loop: Loop, now_ns: int) -> Any: ...

    def go_home(self, loop: Loop) -> None: ...

    def can_go_home(self) -> bool: ...

    def set_volume(self, loop: Loop, volume: int, *, muted: bool) -> None: ...

    def set_lang(self, lang: str) -> None: ...

    def show_area(self, game: str | None = None, step: str | None = None) -> bool: ...


#: ``run(screen, loop, now_ns)``: what the entry does when the host takes it
Run = Callable[["MenuScreen", "Loop", int], None]
#: ``shown(screen, loop)``: whether the entry is offered now
Shown = Callable[["MenuScreen", "Loop"], bool]


@dataclass(frozen=True)
class Entry:
    """One entry of the host menu. ``label`` is an i18n key (``params(screen)`` fills its
    placeholders); ``confirm`` an i18n question asked first (yes/no, "no" the default);
    ``risky``: it ends the game or discards data (never a default)."""

    key: str
    label: str
    run: Run
    shown: Shown = lambda screen, loop: True
    confirm: str = ""
    risky: bool = False
    params: Callable[[MenuScreen], dict[str, Any]] = lambda screen: {}


def _playing(screen: MenuScreen, loop: Loop) -> bool:
    referee = loop.referee
    return bool(referee.engine.started(referee.state)) and not referee.over


def _resume(screen: MenuScreen, loop: Loop, now_ns: int) -> None:
    screen.close_menu()


def _rules(screen: MenuScreen, loop: Loop, now_ns: int) -> None:
    screen.menu_page = "rules"
    screen.focus = 0


def _end(screen: MenuScreen, loop: Loop, now_ns: int) -> None:
    screen.close_menu()
    screen.end_game(loop, now_ns)


def _home(screen: MenuScreen, loop: Loop, now_ns: int) -> None:
    screen.close_menu()
    if _playing(screen, loop):
        screen.end_game(loop, now_ns)
    screen.go_home(loop)


def _volume(step: int) -> Run:
    def run(screen: MenuScreen, loop: Loop, now_ns: int) -> None:
        screen.set_volume(loop, screen.volume + step, muted=False)
    return run


def _mute(screen: MenuScreen, loop: Loop, now_ns: int) -> None:
    screen.set_volume(loop, screen.volume, muted=not screen.muted)


def _lang(screen: MenuScreen, loop: Loop, now_ns: int) -> None:
    screen.set_lang("en" if screen.lang == "zh-TW" else "zh-TW")


def _asks_waiting(screen: MenuScreen, loop: Loop) -> bool:
    asks = loop.asks
    return asks is not None and bool(asks.pending) and asks.deferred and _playing(screen, loop)


def _ask(screen: MenuScreen, loop: Loop, now_ns: int) -> None:
    screen.close_menu()
    if loop.asks is not None:
        loop.asks.reopen()


#: The entries in the order they are drawn and walked (the risky ones last, so the focus
#: walks them in the order the host sees them).
ENTRIES: list[Entry] = [
    Entry("resume", "menu.resume", _resume),
    # cards the camera could not name, put off by the host (issue 37): one *next* away
    Entry("ask", "menu.ask", _ask, shown=_asks_waiting,
          params=lambda s: {"n": s.asks_waiting}),
    Entry("rules", "menu.rules", _rules),
    Entry("volume_down", "menu.volume_down", _volume(-1),
          params=lambda s: {"n": 0 if s.muted else s.volume}),
    Entry("volume_up", "menu.volume_up", _volume(+1),
          params=lambda s: {"n": 0 if s.muted else s.volume}),
    Entry("mute", "menu.mute", _mute),
    Entry("lang", "btn.lang", _lang),
    Entry("end", "menu.end", _end, shown=_playing, confirm="menu.end_q", risky=True),
    Entry("home", "menu.home", _home, shown=lambda s, lp: s.can_go_home() and s.home is None,
          confirm="menu.home_q", risky=True),
]


def _set_up(screen: MenuScreen, loop: Loop, now_ns: int) -> None:
    screen.close_menu()
    screen.show_area(loop.referee.kit.name)


#: "Set up this box" (issue 28): the set-up area, for the game set up now; offered where the
#: box has a set-up area and no game is under way (the kiosk adds it with :func:`add_entry`)
SETUP_ENTRY = Entry("setup", "menu.setup", _set_up,
                    shown=lambda s, lp: s.area_factory is not None and s.area is None
                    and not _playing(s, lp))


def add_entry(entries: list[Entry], entry: Entry, *, before: str = "end") -> None:
    """Put ``entry`` into ``entries`` before the entry ``before`` (at the end if absent)."""
    index = next((i for i, e in enumerate(entries) if e.key == before), len(entries))
    entries.insert(index, entry)
