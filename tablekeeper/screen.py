"""The pygame side of the app loop: a window (or the kiosk's full screen) and its inputs.

:class:`PygameScreen` owns the pygame display and a :class:`display.renderer.Renderer`. Each
tick it turns pygame events into host commands and seat presses (the keyboard's 1-8 stand in for
seat buttons on a laptop), builds the :class:`display.model.Snapshot` of the moment, lets the
renderer draw it if anything changed, draws the three-button highlight, and flips.
Headless runs (SDL's dummy driver) write a PNG of every screen the game passes through.

It knows no game: what is common (language, undo, the setup form, the three-button highlight,
the banner) is here; the host's choices in play and the game's fields of the snapshot are the
game kit's screen part (:class:`tablekeeper.games.ScreenPart`, ``loop.referee.kit.screen()``).
"""

from __future__ import annotations

import dataclasses
import logging
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from display.ask import AskView
from display.home import GameChoice, HomeMenu
from display.hostmenu import MenuItem, MenuView
from display.i18n import STRINGS
from display.input import REST, HostAction, SeatInput, TextInput
from display.model import CardView, Notice, PlayerInfo, Snapshot
from display.setup import ROSTER_GROUP, SetupForm
from engine.core import Rejection
from firmware.arbiter import ArbiterPhase
from firmware.devices import HOST_KEYS, HostButton, HostPress, KeyboardButtons, SeatEdge
from tablekeeper import ask, hostmenu, table_players
from tablekeeper import choices as host
from tablekeeper.ask import Question
from tablekeeper.clock import Clock
from tablekeeper.referee import CardSeen

if TYPE_CHECKING:
    from tablekeeper.app import Loop
    from tablekeeper.tablesetup.area import SetupArea

log = logging.getLogger("tablekeeper.screen")

NS_PER_MS = 1_000_000
#: *back* held this long opens the host menu; a shorter press is *back* (undo)
LONG_PRESS_NS = 800 * NS_PER_MS
#: the volume steps of the host menu (0..MAX_VOLUME)
MAX_VOLUME = 10


@dataclass(frozen=True)
class CardInfo:
    """What the screen shows of an item card: names and the enrolled template (RGB)."""

    name_zh: str
    name_en: str
    image: Any = None


class PygameScreen:
    """The kiosk's screen and its host inputs."""

    #: headless PNGs show a screen this long after it appeared (animations settled)
    SETTLE_MS = 1_300

    def __init__(self, *, size: tuple[int, ...] = (1280, 720), fullscreen: bool = False,
                 lang: str = "zh-TW", png_dir: Path | None = None,
                 title: str = "tablekeeper", cards: Mapping[str, CardInfo] | None = None,
                 rng: random.Random | None = None,
                 on_new_game: Callable[[], None] | None = None,
                 on_choose_game: Callable[[str], None] | None = None,
                 roster: tuple[str, ...] = (), quit_key: bool = False,
                 table_file: Path | None = None, config_path: Path | None = None,
                 rotate: int = 0) -> None:
        from display.renderer import Renderer

        pygame.display.init()
        pygame.font.init()
        flags = pygame.FULLSCREEN if fullscreen else 0
        if fullscreen:
            pygame.mouse.set_visible(False)
            try:  # vsync where the driver offers it (KMSDRM on the Pi): no tearing
                surface = pygame.display.set_mode((0, 0), flags, vsync=1)
            except pygame.error as exc:
                log.info("no vsync on this display (%s); drawing without it", exc)
                surface = pygame.display.set_mode((0, 0), flags)
        else:
            surface = pygame.display.set_mode((int(size[0]), int(size[1])), flags)
        pygame.display.set_caption(title)
        pygame.key.set_repeat(0)
        self.surface = surface
        #: ``[screen] rotate``: the picture drawn upright off-screen and turned onto the
        #: panel on each flip, touches taken back (display.rotation)
        self.renderer = Renderer(surface, present=False, rotate=rotate)
        self.lang = lang
        self.png_dir = png_dir
        self.cards = dict(cards or {})
        self.rng = rng or random.Random()
        self.on_new_game = on_new_game
        #: the host picked a game on the home screen (its kit's name): set the table up for it
        self.on_choose_game = on_choose_game
        #: the table's known names, offered on the setup screen (the config's roster)
        self.roster = tuple(roster)
        #: the roster as the config file held it when last read or saved (what the screen's
        #: edits are applied against: names typed into the file meanwhile are kept)
        self._roster_base = tuple(roster)
        #: who sits at the table (the last game's players): the next setup starts from them;
        #: kept in ``table_file`` (None: only while the kiosk runs) across restarts
        self.table: tuple[PlayerInfo, ...] = ()
        #: the config file the roster edited on the screen is saved to (None: not saved)
        self.config_path = config_path
        self.table_file = table_file
        if table_file is not None:
            self.table, problem = table_players.load(table_file)
            if problem:
                log.warning("%s", problem)
            # the language the host last chose in the menu outlives a restart
            self.lang = table_players.load_language(table_file) or self.lang
        #: the variant a game's setup form starts with (kit name -> variant; the config's)
        self.variants: dict[str, str] = {}
        #: the home screen's game picker while it is shown (None: not shown)
        self.home: HomeMenu | None = None
        self._menu: HomeMenu | None = None  # the last menu shown (setup's "other game")
        self.setup: SetupForm | None = None
        self.focus = 0
        #: a button the highlight moves to once the next frame is drawn (None: stays)
        self._focus_on: HostAction | None = None
        self.saved: list[Path] = []
        self.notice: Notice | None = None
        self._notice_until = 0
        self._notice_owner: tuple[Notice, Any] | None = None
        self._last_shot: tuple[Any, ...] | None = None
        self._card_surfaces: dict[str, pygame.Surface] = {}
        self.quit_requested = False
        #: a Space was taken as the host's *next* in a name field: its TEXTINPUT is dropped
        self._eat_text = False
        #: Ctrl+Q quits (the windowed demo; the kiosk has no way out by key)
        self.quit_key = quit_key
        self.problems: list[str] = []
        #: a problem's players' message (i18n key) and the game it belongs to
        self.problem_of: dict[str, tuple[str | None, str | None]] = {}
        self._part: Any = None
        self._part_of: Any = None
        #: every game the home screen offers (the kiosk's registry): "home" is always
        #: reachable, even after a restart resumed a game (no home screen shown yet)
        self.games: tuple[GameChoice, ...] = ()
        #: the host menu: open?, its page ("main", "confirm", "rules"), the entry a
        #: question is about, and its entries (a list another feature may extend)
        self.menu_open = False
        self.menu_page = "main"
        self.menu_asking: hostmenu.Entry | None = None
        self.menu_entries: list[hostmenu.Entry] = list(hostmenu.ENTRIES)
        self._focus_before_menu = 0
        #: what else holds the game's clocks (a feature's own question or dialog over the
        #: game: it adds a name while it is open and takes it out when it closes); see
        #: :meth:`modal`
        self.holds: set[str] = set()
        #: when *back* went down (a long press opens the menu), None: not held
        self._back_down: int | None = None
        self.volume: int = MAX_VOLUME * 7 // 10
        self.muted: bool = False
        from display.sound import Sounds
        #: no audio device: a small permanent sign says so
        self.silent = not Sounds().available()
        #: the set-up area while it is shown (issue 28; None: not shown), what makes it
        #: (``area_factory(game, step)``; None: this box offers none), where its steps read
        #: the camera (``area_frames()``: a BGR frame, or None when the camera gives none) and
        #: the home screen's games as they are now (``home_games()``: with what each lacks)
        self.area: SetupArea | None = None
        self.area_factory: Callable[[str | None, str | None], SetupArea] | None = None
        self.area_frames: Callable[[], Any] | None = None
        self.home_games: Callable[[], tuple[GameChoice, ...]] | None = None
        #: told when the set-up area is shown (True) and left (False): the kiosk hands the
        #: camera from the game's reader to the set-up's and back
        self.on_area: Callable[[bool], None] | None = None
        self._area_page: tuple[Any, ...] = ()
        #: the question last shown (its serial): a new one starts with its best card focused
        self._ask_serial = 0
        #: the page of its candidates shown (0: the best ``ask.PAGE``)
        self._ask_page = 0
        self._asks_waiting = 0

    def show_home(self, games: tuple[GameChoice, ...], chosen: str | None = None) -> None:
        """Show the home screen: the host picks the game (``chosen``: the one focused)."""
        index = next((i for i, g in enumerate(games) if g.name == chosen), 0)
        self.home = self._menu = HomeMenu(games=games, chosen=index,
                                          can_set_up=self.area_factory is not None)
        self.games = self.games or games
        self.setup = None
        if self.area is not None:  # (left by the host menu's "home")
            self.area = None
            if self.on_area is not None:
                self.on_area(False)
        self.focus = index  # the games' tiles come first in the focus order
        self.renderer.invalidate()

    def can_go_home(self) -> bool:
        return self._menu is not None or bool(self.games)

    def go_home(self, loop: Loop) -> None:
        """To the home screen: a game that was played is put away first (the kiosk's
        ``on_new_game``); a game only set up is simply left."""
        referee = loop.referee
        played = referee.engine.started(referee.state) or referee.over
        if played and self.on_new_game is not None:
            self.on_new_game()  # (archives it and shows home)
            if self.home is not None:
                return
        menu = self._menu
        games = menu.games if menu is not None else self.games
        current = referee.kit.name
        self.show_home(games, chosen=current if any(g.name == current for g in games)
                       else (menu.choice.name if menu is not None and menu.choice else None))

    def end_game(self, loop: Loop, now_ns: int) -> Any:
        """End the game now, journalled as the game's own ``end_game`` event (every engine
        has one: the host ends the game early; the scores so far decide)."""
        referee = loop.referee
        end = referee.engine.events.types.get("end_game")
        if end is None or not referee.engine.started(referee.state) or referee.over:
            return None
        result = referee.submit(end(at_ms=referee.at_ms(now_ns)))
        self.show_result(result, now_ns)
        self.focus = 0
        return result

    # --- the set-up area (issue 28) ------------------------------------------------------

    def show_area(self, game: str | None = None, step: str | None = None) -> bool:
        """Show the set-up area: its hub (the games, the chosen one's steps), or straight
        the step ``step`` of ``game``. False: this box offers no set-up area."""
        if self.area_factory is None:
            return False
        if self.area is None and self.on_area is not None:
            self.on_area(True)
        self.area = self.area_factory(game, step)
        self.home = None
        self.setup = None
        self.focus = 0
        self._area_page = self._page()
        self.renderer.invalidate()
        return True

    def close_area(self) -> None:
        """Leave the set-up area for the home screen (the games marked afresh)."""
        area = self.area
        chosen = area.kit.name if area is not None else None
        games = self.home_games() if self.home_games is not None else (
            self._menu.games if self._menu is not None else self.games)
        self.games = games or self.games
        self.show_home(games, chosen=chosen)

    def _page(self) -> tuple[Any, ...]:
        """Which page of the area is shown: the focus goes back to its first button when it
        changes (a step opened or left, a step's stage)."""
        area = self.area
        if area is None:
            return ()
        step = area.step
        view = step.view() if step is not None else None
        return (area.chosen, step.key if step is not None else None,
                getattr(view, "stage", None))

    def _area_changed(self) -> None:
        area = self.area
        if area is None:
            return
        if area.closed:
            self.close_area()
            return
        page = self._page()
        if page != self._area_page:
            self._area_page = page
            self.focus = 0
        self.renderer.invalidate()

    def area_action(self, action: HostAction, now_ns: int) -> None:
        area = self.area
        assert area is not None
        if action.name == "undo":
            action = HostAction("back")
        area.act(action, now_ns)
        self._area_changed()

    def area_poll(self, now_ns: int) -> None:
        """The set-up step reads the camera (a frame a tick) and the clock."""
        area = self.area
        if area is None:
            return
        if area.wants_frames() and self.area_frames is not None:
            try:
                image = self.area_frames()
            except Exception as exc:  # a camera that fails is a camera that gives nothing
                log.warning("set-up: the camera gave no frame: %s", exc)
                image = None
            area.frame(image, now_ns)
        area.tick(now_ns)
        self._area_changed()

    # --- pausing: the game's clocks wait while something asks the host ---------------------

    def modal(self, loop: Loop) -> str | None:
        """What is open over the game and holds its clocks (None: nothing): ``"menu"`` (the
        host menu, any of its pages and questions), a name in :attr:`holds`, or
        ``"question"`` while the screen asks about a card the camera could not name
        (:meth:`asking`, not put off with "later") or the game's screen part asks the host
        something (its optional ``asking(screen, loop) -> bool``: a claim to confirm)."""
        if self.menu_open:
            return "menu"
        if self.holds:
            return sorted(self.holds)[0]
        if self.asking(loop) is not None:  # a card the camera could not name (issue 37)
            return "question"
        referee = loop.referee
        if not referee.engine.started(referee.state) or referee.over:
            return None
        asking = getattr(self.part(loop), "asking", None)
        if asking is not None and asking(self, loop):
            return "question"
        return None

    def sync_pause(self, loop: Loop, now_ns: int) -> None:
        """Pause the game clock while :meth:`modal` says something is open, resume it once
        nothing is (the referee journals both; a game paused by a restart stays paused
        until the host leaves the menu it opened in)."""
        referee = loop.referee
        why = self.modal(loop)
        if why is not None:
            if referee.pause(now_ns, why):
                self.renderer.invalidate()
        elif referee.paused and referee.resume(now_ns):
            self.renderer.invalidate()

    def hold_after_restart(self, loop: Loop, now_ns: int) -> None:
        """A game resumed after a restart waits for the host: its clock paused (journalled
        as ``restart``) and the host menu open on it, "back to the game" focused."""
        referee = loop.referee
        # (from the time of its last event: the clock stood still while the box was off)
        if referee.pause(min(now_ns, referee.ns_at(referee.state.now_ms)), "restart"):
            self.open_menu()

    # --- the host menu ---------------------------------------------------------------------

    def open_menu(self) -> None:
        if not self.menu_open:
            self._focus_before_menu = self.focus
        self.menu_open, self.menu_page, self.menu_asking = True, "main", None
        self.focus = 0
        self.renderer.invalidate()

    def close_menu(self) -> None:
        if self.menu_open:
            self.focus = self._focus_before_menu
        self.menu_open, self.menu_page, self.menu_asking = False, "main", None
        self.renderer.invalidate()

    def menu_items(self, loop: Loop) -> list[hostmenu.Entry]:
        return [e for e in self.menu_entries if e.shown(self, loop)]

    def menu_view(self, loop: Loop) -> MenuView:
        # the game on screen: in the set-up area, the game being set up (its kit), not the
        # one the referee last kept
        kit = self.area.kit if self.area is not None else loop.referee.kit
        titles = (kit.title_in("zh-TW"), kit.title_in("en"))
        if self.menu_page == "rules":
            rules = getattr(kit.display(), "rules", {}) or {}
            return MenuView(page="rules", titles=titles,
                            rules=(tuple(rules.get("zh-TW", ())), tuple(rules.get("en", ()))))
        if self.menu_page == "learnt":
            n = loop.learning.learnt if loop.learning is not None else 0
            return MenuView(page="confirm", titles=titles, question="learnt.question",
                            items=(MenuItem("no", "learnt.keep", (("n", n),)),
                                   MenuItem("yes", "learnt.drop", (("n", n),), risky=True)))
        if self.menu_page == "confirm" and self.menu_asking is not None:
            asked = self.menu_asking
            return MenuView(page="confirm", titles=titles, question=asked.confirm,
                            items=(MenuItem("no", "menu.no_keep"),
                                   MenuItem("yes", "menu.yes_end", risky=True)))
        referee = loop.referee
        note = ""
        if referee.paused:
            note = "menu.paused_restart" if referee.paused_why == "restart" else "menu.paused"
        items = []
        for entry in self.menu_items(loop):
            label = "menu.unmute" if entry.key == "mute" and self.muted else entry.label
            if entry.key == "resume" and (self.home is not None or self.area is not None):
                label = "menu.close"  # (no game on screen to go back to)
            params = tuple(entry.params(self).items())
            items.append(MenuItem(entry.key, label, params, entry.risky))
        return MenuView(page="main", titles=titles, items=tuple(items), note=note)

    def menu_action(self, loop: Loop, name: str, arg: Any, now_ns: int) -> None:
        """A choice in the open menu: ``confirm`` is the page's harmless default (back to
        the game, "no", back from the rules); ``menu.pick`` an entry (or "yes")."""
        if self.menu_page == "rules":
            self.menu_page = "main"
            self.focus = 0
            return
        if self.menu_page == "learnt":
            if name == "confirm" or (name == "menu.pick" and arg == "yes"):
                self.learnt_choice(loop, keep=name == "confirm")
            return
        if self.menu_page == "confirm":
            asked = self.menu_asking
            self.menu_page, self.menu_asking = "main", None
            self.focus = 0
            if name == "menu.pick" and arg == "yes" and asked is not None:
                asked.run(self, loop, now_ns)
            return
        if name == "confirm":
            self.close_menu()
            return
        entry = next((e for e in self.menu_items(loop) if e.key == arg), None)
        if entry is None:
            return
        referee = loop.referee
        playing = referee.engine.started(referee.state) and not referee.over
        if entry.confirm and playing:
            self.menu_page, self.menu_asking = "confirm", entry
            self.focus = 0
            return
        entry.run(self, loop, now_ns)

    def set_volume(self, loop: Loop, volume: int, *, muted: bool) -> None:
        """The box's volume (0..MAX_VOLUME) and mute: the game's sounds and the buzzer's."""
        from display.sound import set_gain

        self.volume = max(0, min(MAX_VOLUME, volume))
        self.muted = muted
        gain = 0.0 if muted else self.volume / MAX_VOLUME
        set_gain(gain)
        loop.referee.firmware.set_gain(gain)
        self.renderer.invalidate()

    def _choose(self, index: int) -> None:
        menu = self.home
        if menu is None or not 0 <= index < len(menu.games):
            return
        game = menu.games[index]
        if game.missing and self.show_area(game.name, game.missing[0]):
            return  # not ready at this table: to the step it lacks
        self.home = None
        self.setup = None
        self.focus = 0
        self._menu = HomeMenu(menu.games, index)
        if self.on_choose_game is not None:
            self.on_choose_game(menu.games[index].name)

    def show_problem(self, text: str, *, key: str | None = None,
                     game: str | None = None) -> None:
        """A problem the host must see until the kiosk restarts (a broken config ...).

        ``text`` is the builder's account (the log has it; ``tablekeeper selftest`` finds it
        again); ``key`` the players' message (an i18n id, both languages, no path, command or
        config key): the banner shows it instead of ``text``. ``game`` (a kit's name): the
        problem belongs to that game and is shown only while it is the game set up or
        played, not on the home screen nor in another game."""
        if text not in self.problems:  # (told again when the host picks the game again)
            self.problems.append(text)
        if key is not None or game is not None:
            self.problem_of[text] = (key, game)

    def forget_problems(self, game: str) -> None:
        """The problems told for ``game``'s own camera and deck are no longer true: the
        simulated players' table (``--simulate-players``) replaced that camera and deck."""
        for text, (_key, owner) in list(self.problem_of.items()):
            if owner == game:
                del self.problem_of[text]
                if text in self.problems:
                    self.problems.remove(text)
        self.renderer.invalidate()

    # --- input -----------------------------------------------------------------------------

    def handle_events(self, loop: Loop) -> None:
        now = loop.clock.now_ns()
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (
                    self.quit_key and event.type == pygame.KEYDOWN
                    and event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL):
                self.quit_requested = True
                loop.stop()
                continue
            if event.type in (pygame.WINDOWEXPOSED, pygame.VIDEORESIZE):
                self.renderer.invalidate(layers=True)
                continue
            if event.type == pygame.TEXTINPUT and self._eat_text and event.text == " ":
                self._eat_text = False
                continue  # the Space just taken as *next*: it types nothing
            if (event.type in (pygame.KEYDOWN, pygame.KEYUP)
                    and pygame.key.name(event.key) in HOST_KEYS
                    and loop.referee.firmware.key_event(
                        pygame.key.name(event.key), event.type == pygame.KEYDOWN, now)):
                # --keyboard: Space / Enter / Backspace are the three host buttons, on every
                # screen and in every field (the name field too: Space is *next*, never a
                # space; the on-screen keyboard has its own space key). SDL follows a Space's
                # key-down with its text: that text is dropped.
                self._eat_text = (event.type == pygame.KEYDOWN and event.key == pygame.K_SPACE
                                  and self.renderer.text_focus)
                continue
            action = self.renderer.translate(event)
            if isinstance(action, SeatInput):
                # a laptop key is a seat button: through the hub (the arbiter at once, and
                # queued for this step's drain: the table's ``seat_edge``, ``seat_pressed``)
                loop.referee.firmware.hub(SeatEdge(action.seat + 1, action.pressed, now))
            elif isinstance(action, HostAction | TextInput):
                self.host_action(loop, action, now)
        for item in loop.host_inputs:
            if isinstance(item, HostPress):
                self.gpio_button(loop, item.action, item.t_ns)
        loop.host_inputs.clear()
        self._back_held(loop, now)
        if self.area is not None and not self.menu_open:
            self.area_poll(now)
        self.sync_pause(loop, now)

    def _back_held(self, loop: Loop, now_ns: int) -> None:
        """*back* pressed: released before :data:`LONG_PRESS_NS`, it is *back*; held that
        long, the host menu opens (while it is still held)."""
        down = self._back_down
        if down is None:
            return
        if not loop.referee.firmware.host_held(HostButton.BACK):
            self._back_down = None
            self.back(loop, now_ns)
        elif now_ns - down >= LONG_PRESS_NS:
            self._back_down = None
            self.open_menu()

    def back(self, loop: Loop, now_ns: int) -> None:
        """A short press of *back*: in the menu, one page back (or closed); on the setup
        screen, home; in a game, undo the last host-entered event."""
        if self.menu_open:
            if self.menu_page == "learnt":
                return  # (keep or drop: the evening's learning is decided, not put off)
            if self.menu_page != "main":
                self.menu_page, self.menu_asking = "main", None
                self.focus = 0
                self.renderer.invalidate()
            else:
                self.close_menu()
            return
        if self.area is not None:
            self.area_action(HostAction("back"), now_ns)
            return
        if self.home is not None:
            return
        if self.setup is not None and self.setup.focus is not None:  # typing a name: done
            self.setup = self.setup.apply(HostAction("setup.focus", None))
            return
        referee = loop.referee
        if referee.engine.started(referee.state) and not referee.over:
            # an entry under way takes *back* first (a row picked goes back to the rows, a
            # digit wheel turns down: the game's part says); else it undoes
            hook = getattr(self.part(loop), "back", None)
            if hook is not None and hook(self, loop, now_ns):
                return
        self.host_action(loop, HostAction("undo"), now_ns)

    def seat_pressed(self, loop: Loop, seat: int, t_ns: int) -> None:
        """A seat button (1..8) went down: on the setup screen it marks that seat as the
        youngest player, who starts (said on the screen, with the seat's row lit); in play it
        may be the runner-up of a buzz. In the set-up area, the step shown hears it."""
        if self.area is not None:
            self.area.seat(seat, True, t_ns)
            self._area_changed()
            return
        if self.home is not None:
            return
        if not loop.referee.engine.started(loop.referee.state):
            form = self.setup if self.setup is not None else self.new_form(loop)
            self.setup = form.apply(HostAction("setup.seat_button", seat - 1))
        else:
            loop.referee.note_press(seat, t_ns)

    def gpio_button(self, loop: Loop, action: HostButton, t_ns: int) -> None:
        """The three host buttons: next moves the highlight, confirm takes it, back undoes."""
        if self._naming():
            self._name_button(loop, action, t_ns)
            return
        if action is HostButton.BACK:
            self._back_down = t_ns  # short or long: told when it is released or held
            self._back_held(loop, t_ns)
            return
        choices = self._choices()
        if action is HostButton.NEXT:
            question = self.asking(loop)
            if question is not None:
                self._ask_next(question)
            else:
                self._focus_next(choices)
            return
        if choices:
            chosen = choices[self.focus % len(choices)]
            self.host_action(loop, HostAction(chosen.name, chosen.arg), t_ns)
        else:
            self.host_action(loop, HostAction("confirm"), t_ns)

    def _focus_next(self, choices: list[host.Choice]) -> None:
        """*next*: the focus to the screen's next choice (on the home screen a game's tile is
        highlighted as the focus reaches it: one marker, never two)."""
        if not choices:
            return
        self.focus = (self.focus + 1) % len(choices)
        if self.home is not None and not self.menu_open:
            picked = choices[self.focus]
            if picked.name == "home.pick" and isinstance(picked.arg, int):
                self.home = self.home.apply(HostAction("home.point", picked.arg))
        self.renderer.invalidate()

    def _naming(self) -> bool:
        """The name screen is up (a seat's name has the keyboard)."""
        return self.home is None and self.setup is not None and self.setup.focus is not None

    def _name_button(self, loop: Loop, action: HostButton, t_ns: int) -> None:
        """The host buttons on the name screen: next walks the keys (the candidates first),
        confirm presses the highlighted one, back erases (and leaves an empty name)."""
        form = self.setup
        assert form is not None and form.focus is not None
        if action is HostButton.BACK:
            if form.group is not None:  # a group open: back to the groups
                self.host_action(loop, HostAction("setup.group", None), t_ns)
                return
            empty = not form.syllable and not form.players[form.focus].name
            self.host_action(loop, HostAction("setup.done" if empty else "erase"), t_ns)
            return
        choices = self._choices()
        if action is HostButton.NEXT:
            if choices:
                self.focus = (self.focus + 1) % len(choices)
                self.renderer.invalidate()
            return
        if choices:
            chosen = choices[self.focus % len(choices)]
            self.host_action(loop, HostAction(chosen.name, chosen.arg), t_ns)

    def _choices(self) -> list[host.Choice]:
        return host.focusable(self.renderer.buttons)

    def host_action(self, loop: Loop, action: HostAction | TextInput, now_ns: int) -> None:
        referee = loop.referee
        state = referee.state
        if isinstance(action, TextInput):
            if self.setup is not None:
                self.setup = self.setup.apply(action)
            return
        name, arg = action.name, action.arg
        if self._naming() and name in ("next", "confirm"):
            self._name_button(loop, HostButton.NEXT if name == "next" else HostButton.CONFIRM,
                              now_ns)
            return
        if name == "lang":
            self.set_lang("en" if self.lang == "zh-TW" else "zh-TW")
            return
        if name == "menu":
            self.open_menu()
            return
        if self.menu_open:
            self.menu_action(loop, name, arg, now_ns)
            return
        if self.area is not None:
            self.area_action(action, now_ns)
            return
        question = self.asking(loop)
        if question is not None:
            self._answer(loop, question, name, arg, now_ns)
            return
        if name == "undo":
            if (not referee.engine.started(state) and self.home is None
                    and self.can_go_home()):
                name = "home"  # back from the setup screen: nothing to undo, pick again
            else:
                self.show_result(referee.undo(), now_ns)
                return
        if not referee.engine.started(state):
            if self.home is not None:
                self._home_action(action)
            elif name == "home" and self.can_go_home():
                self.go_home(loop)
            else:
                self._setup_action(loop, action, now_ns)
            return
        if referee.over:
            if name in ("confirm", "next") and self.on_new_game is not None:
                self.on_new_game()
            return
        if name == "confirm":
            choices = self._choices()
            if choices:
                chosen = choices[self.focus % len(choices)]
                name, arg = chosen.name, chosen.arg
            if name == "menu":
                self.open_menu()
                return
        if name == REST:  # nothing chosen yet (a judgment is never assumed): say so
            self.notice = Notice("status.choose_first")
            self._notice_until = now_ns + 4_000 * NS_PER_MS
            self.renderer.invalidate()
            return
        self.part(loop).host_action(self, loop, name, arg, now_ns)

    # --- a card the camera could not name (issue 37) ----------------------------------------

    def asking(self, loop: Loop) -> Question | None:
        """The question on the screen now (modal: the host's buttons answer it), or None:
        none pending, put off ("later"), or the menu, the home screen, the set-up area, a
        game not under way."""
        asks = loop.asks
        if asks is None or not asks.open or self.menu_open or self.area is not None:
            return None
        referee = loop.referee
        if self.home is not None or not referee.engine.started(referee.state) or referee.over:
            return None
        return asks.current

    def _answer(self, loop: Loop, q: Question, name: str, arg: Any, now_ns: int) -> None:
        """The host's answer to ``q``: a candidate (the card enters the game as the camera's
        would), none of them (the game's entry by hand), or later (it stays). *next* walks
        the page's candidates and on to the next page's; *back* turns to the other page
        (with one page: later)."""
        asks = loop.asks
        assert asks is not None
        if name == "confirm":
            choices = self._choices()
            if choices:
                chosen = choices[self.focus % len(choices)]
                name, arg = chosen.name, chosen.arg
        pages = ask.pages(q)
        if name == "next":
            self._ask_next(q)
            return
        if name == "menu":
            self.open_menu()
            return
        if name in (ask.MORE, "undo", "back") and pages > 1:
            self._turn(1 - self._ask_page)  # the other page, its first card focused
            return
        if name in (ask.LATER, "undo", "back"):
            asks.defer()
            self.focus, self._ask_page = 0, 0
            self.renderer.invalidate()
            return
        if name == ask.PICK and arg in q.ids:
            chosen_id: str | None = str(arg)
        elif name == ask.NONE:
            chosen_id = None
        else:
            return
        referee = loop.referee
        referee.note("asked", referee.at_ms(now_ns), card={
            "zone": q.zone, "centre": [round(q.centre[0], 1), round(q.centre[1], 1)],
            "first_seen_ms": referee.at_ms(q.t_ns), "gate": q.gate},
            candidates=[[c, round(v, 4)] for c, v in q.candidates], chosen=chosen_id,
            by="host")
        asks.done(q)
        self.focus, self._ask_page = 0, 0
        self.renderer.invalidate()
        if chosen_id is not None:
            self._learn(loop, chosen_id, q)
            score = next((v for c, v in q.candidates if c == chosen_id), 0.0)
            seen = CardSeen(chosen_id, q.t_ns, score, 0.0, zone=q.zone, centre=q.centre)
            self.show_result(loop.card_seen(seen), now_ns)
            return
        hand = loop.referee.kit.hand_entry
        if hand is not None:
            self.part(loop).host_action(self, loop, hand, None, now_ns)

    def _ask_next(self, q: Question) -> None:
        """*next* on the question: the focus walks the page's candidates and on to the next
        page's (the page turns), then "none of these", "later", and round again from the best
        card."""
        choices = self._choices()
        pages = ask.pages(q)
        at = self.focus % len(choices) if choices else 0
        if pages > 1 and self._ask_page == 0 and choices and choices[at] == host.Choice(
                ask.PICK, ask.page_of(q, 0)[-1]):
            self._turn(1)  # past the best 3: on to the next best (then "none of these")
        elif pages > 1 and self._ask_page > 0 and at == len(choices) - 1:
            self._turn(0)  # round again from the best card
        else:
            self._focus_next(choices)

    def _turn(self, page: int) -> None:
        """The question's page ``page`` of candidates, its first card focused."""
        self._ask_page, self.focus = page, 0
        self.renderer.invalidate()

    def _learn(self, loop: Loop, card_id: str, q: Question) -> None:
        """The card the host named becomes a template of it under tonight's light
        (``vision.learnt``): the camera uses it from its next search. A failure to save it
        is logged; the answer stands."""
        learning = loop.learning
        if learning is None or q.template is None:
            return
        try:
            learning.learn(card_id, q.template)
        except (OSError, ValueError) as exc:
            log.error("the template of %s learnt at the table was not saved: %s", card_id, exc)

    def learnt_choice(self, loop: Loop, keep: bool) -> None:
        """The end of the evening: the templates learnt at the table are kept (they join the
        deck's enrolled ones) or dropped."""
        learning = loop.learning
        self.close_menu()
        if learning is None:
            return
        try:
            n = learning.keep() if keep else learning.drop()
        except (OSError, ValueError) as exc:
            log.error("the learnt templates were not kept: %s", exc)
            self.notice = Notice("status.learnt_not_kept", text=str(exc))
            self._notice_until = loop.clock.now_ns() + 6_000 * NS_PER_MS
            return
        log.info("%d templates learnt at the table %s", n, "kept" if keep else "dropped")

    @property
    def asks_waiting(self) -> int:
        """Questions pending (for the host menu's entry; 0 before the loop first drew)."""
        return self._asks_waiting

    def ask_view(self, loop: Loop, q: Question) -> AskView:
        kit = loop.referee.kit
        asks = loop.asks
        pages = ask.pages(q)
        page = min(self._ask_page, pages - 1)
        return AskView(serial=q.serial,
                       candidates=tuple(self.card_view(c) for c in ask.page_of(q, page)),
                       crop=q.crop, waiting=len(asks.pending) if asks is not None else 1,
                       titles=(kit.title_in("zh-TW"), kit.title_in("en")), page=page,
                       pages=pages)

    def _home_action(self, action: HostAction) -> None:
        menu = self.home
        assert menu is not None
        if action.name == "area.open":
            self.show_area(menu.choice.name if menu.choice is not None else None)
        elif action.name == "home.pick" and isinstance(action.arg, int):
            self._choose(action.arg)
        elif action.name == "next":  # (→ or Tab: the same walk as the host's *next* button)
            self._focus_next(self._choices())
        elif action.name == "confirm":
            choices = self._choices()
            chosen = choices[self.focus % len(choices)] if choices else None
            if chosen is not None and chosen.name == "menu":
                self.open_menu()
            elif chosen is not None and chosen.name == "home.pick" and isinstance(chosen.arg,
                                                                                  int):
                self._choose(chosen.arg)
            elif chosen is not None and chosen.name == "area.open":
                self.show_area(menu.choice.name if menu.choice is not None else None)
            else:
                self._choose(menu.chosen)
        else:
            self.home = menu.apply(action)

    def part(self, loop: Loop) -> Any:
        """The game's part of the screen (its kit's), made once per kit."""
        kit = loop.referee.kit
        if self._part_of is not kit:
            self._part, self._part_of = kit.screen(), kit
        return self._part

    def new_form(self, loop: Loop) -> SetupForm:
        """An empty setup form for the game the referee keeps."""
        kit = loop.referee.kit
        form = SetupForm.for_spec(kit.setup, titles=(kit.title_in("zh-TW"), kit.title_in("en")),
                                  can_go_home=self.can_go_home(), roster=self.roster,
                                  table=self.table)
        variant = self.variants.get(kit.name)
        return form.apply(HostAction("setup.variant", variant)) if variant else form

    def _setup_action(self, loop: Loop, action: HostAction, now_ns: int) -> None:
        if self.setup is None:
            self.setup = self.new_form(loop)
        if action.name == "confirm" and self.setup.focus is None:
            if not self.setup.ready:
                return
            form = self.setup
            event = self.part(loop).start(self, loop, form, now_ns, self.rng)
            result = loop.referee.submit(event)
            self.show_result(result, now_ns)
            if not isinstance(result, Rejection):
                self.remember_table(form.players)
            return
        before = self.setup
        self.setup = self.setup.apply(action)
        self._place_name_focus(before, self.setup)
        if self.setup.roster != before.roster:
            self.save_roster(self.setup.roster, now_ns)

    def save_roster(self, roster: tuple[str, ...], now_ns: int) -> None:
        """The host edited the regulars: every next form offers them, and they are saved to
        the config file (keeping its comments and other keys). The file is read again and only
        the screen's own edits since the roster it last read or saved are applied to the
        roster the file holds now, so names typed into the file meanwhile are kept (and
        offered from now on; the screen says both were kept). A failure is said on the screen
        for a while, and why in the log."""
        from tablekeeper.config import save_roster

        self.roster = tuple(roster)
        if self.config_path is None:
            log.warning("roster: no config file was given (--config); the regulars are kept "
                        "until the kiosk stops")
            problem = "no config file"
        else:
            try:
                saved, edited = save_roster(self.config_path, self.roster, self._roster_base)
            except (OSError, ValueError) as exc:
                log.error("roster: cannot save to %s: %s", self.config_path, exc)
                problem = str(exc)
            else:
                log.info("roster: %d regulars saved to %s", len(saved), self.config_path)
                self._roster_base = saved
                if saved != self.roster:
                    self.roster = saved
                    if self.setup is not None:
                        self.setup = dataclasses.replace(self.setup, roster=saved)
                if edited:
                    log.warning("roster: %s was edited by hand meanwhile; both kept: %s",
                                self.config_path, ", ".join(saved))
                    self.notice = Notice("status.roster_merged")
                    self._notice_until = now_ns + 6_000 * NS_PER_MS
                return
        self.notice = Notice("status.roster_not_saved", text=problem)
        self._notice_until = now_ns + 6_000 * NS_PER_MS

    def _place_name_focus(self, before: SetupForm, after: SetupForm) -> None:
        """Where the highlight goes on the name screen: on "done" when it opens (typing on a
        real keyboard, then Enter, finishes); after a symbol, on the first key of the next
        group (medials, finals, tones); on the first candidate once a tone completes a
        syllable; on "done" once a character is picked."""
        from display import zhuyin

        if after.focus is None:
            if before.focus is not None:
                self.focus = 0  # the name done: on start (one press from the game)
            elif len(after.players) > len(before.players):
                # a player added: the highlight on their name (confirm names them)
                self._focus_on = HostAction("setup.focus", len(after.players) - 1)
                self.renderer.invalidate()
            return
        if before.focus is None:
            # the keyboard opens in the screen's language: Latin letters on an English
            # screen, 注音 on a Chinese one (the host switches with its key)
            wanted = "latin" if self.lang == "en" or not zhuyin.available() else "zhuyin"
            if after.keyboard != wanted:
                self.setup = dataclasses.replace(after, keyboard=wanted, syllable="",
                                                 cand_page=0)
        if before.focus != after.focus:
            self._focus_on = HostAction("setup.done")
        elif ((zhuyin.complete(after.syllable) and not zhuyin.complete(before.syllable))
              or after.cand_page != before.cand_page):
            self.focus, self._focus_on = 0, None  # the candidates (of the page), drawn first
        elif (zhuyin.complete(before.syllable)
              and after.players[after.focus].name != before.players[after.focus].name):
            # done (confirm), or one *next* on: erase, the regulars, ㄅ (the next character)
            self._focus_on = HostAction("setup.done")
        elif after.group == zhuyin.TONE_GROUP and after.group != before.group \
                and zhuyin.tones(after.syllable):
            # the tones opened (after a final, or a sound picked): on the commonest it has
            self._focus_on = HostAction("setup.zhuyin", zhuyin.tones(after.syllable)[0])
        elif after.group is not None and after.group != before.group:
            # a group opened: on its first key (drawn commonest first); the regulars
            # opened: on the first
            keys = (zhuyin.group_keys(after.syllable, after.group)
                    if after.group != ROSTER_GROUP else ())
            self._focus_on = (HostAction("setup.roster", 0) if after.group == ROSTER_GROUP
                              else HostAction("setup.zhuyin", keys[0] if keys
                                              else zhuyin.GROUPS[after.group][0]))
        elif after.syllable and after.syllable != before.syllable:
            nexts = zhuyin.nexts(after.syllable)
            if nexts:  # on the commonest next symbol of the sound (one press types it)
                self._focus_on = HostAction("setup.next", nexts[0])
            else:  # on the group where the syllable's next symbol is
                place = zhuyin.group_of(zhuyin.next_place(after.syllable[-1]))
                self._focus_on = HostAction("setup.group", place)
        elif before.group is not None and after.group is None:
            self._focus_on = HostAction("setup.group", before.group)  # closed: on it
        self.renderer.invalidate()

    def remember_table(self, players: tuple[PlayerInfo, ...]) -> None:
        """These players sit at the table now: the next setup (another game, a replay, after
        a restart) starts from them."""
        self.table = tuple(players)
        self._save_table()

    def set_lang(self, lang: str) -> None:
        """The screen's language, switched by the host (the menu, ``L``): kept in the table
        file, so a restart speaks it too."""
        self.lang = lang
        self.renderer.invalidate(layers=True)
        self._save_table()

    def _save_table(self) -> None:
        if self.table_file is not None:
            problem = table_players.save(self.table_file, self.table, self.lang)
            if problem:
                log.warning("%s", problem)

    def show_result(self, result: Any, now_ns: int) -> None:
        """A rejection is shown for 4 s; anything accepted clears it."""
        if isinstance(result, Rejection):
            # players read a message in their language; the engine's reason (English, for
            # the builder) goes to the log
            log.info("refused (%s): %s", result.code, result.reason)
            key = f"reject.{result.code}"
            self.notice = Notice(key=key if key in STRINGS else "status.refused")
            self._notice_until = now_ns + 4_000 * NS_PER_MS
        else:
            self.notice = None

    # --- drawing ---------------------------------------------------------------------------

    def snapshot(self, loop: Loop, now_ns: int) -> Snapshot:
        referee = loop.referee
        state = referee.state
        now_ms = referee.game_ms(now_ns)  # (standing still while the game is paused)
        notices: list[Notice] = []
        for text in self.problems:
            key, game = self.problem_of.get(text, (None, None))
            if game is not None and (game != referee.kit.name or self.home is not None):
                continue  # another game's, or the home screen: not this table's problem now
            notices.append(Notice(key=key) if key is not None else Notice(text=text))
        if self.notice is not None and now_ns < self._notice_until:
            # a notice belongs to the game's state it was shown in: gone once that state ends
            # (an event from the camera or a button after a refusal), whatever its time left
            owner = self._notice_owner
            if owner is None or owner[0] is not self.notice:
                self._notice_owner = owner = (self.notice, state)
            if owner[1] is state:
                notices.append(self.notice)
        status = referee.firmware.arbiter.status(now_ns)
        notices.extend(Notice("status.button_stuck", seat=seat - 1) for seat in sorted(
            status.stuck))
        # too early in this race: locked out (the lamp blinks); shown while the race is on
        early = tuple((seat - 1, 0) for seat in sorted(status.locked_out - status.stuck))
        if status.phase is ArbiterPhase.ARMED:
            notices.extend(Notice("status.early_press", seat=seat) for seat, _ in early)
        elif referee.last_buzz is not None:  # the race's screen: who was locked out in it
            early = tuple((seat - 1, 0) for seat in referee.last_buzz.decision.locked_out)
        sound = "muted" if self.muted else ("silent" if self.silent
                                            or referee.firmware.silent else "")
        extra: dict[str, Any] = {"sound": sound, "early": early, "focus": self.focus}
        camera_status = loop.cards.status if loop.cards is not None else None
        game = referee.kit.display()
        self._asks_waiting = len(loop.asks.pending) if loop.asks is not None else 0
        if (self.home is not None and not self.menu_open and loop.learning is not None
                and loop.learning.learnt > 0):
            # the evening's end (back home): keep what was learnt at the table, or drop it
            self.open_menu()
            self.menu_page = "learnt"
            extra["focus"] = 0
        if self.menu_open:
            extra["menu"] = self.menu_view(loop)
        question = self.asking(loop)
        if question is not None:
            if question.serial != self._ask_serial:  # a new question: its best card focused
                self._ask_serial, self.focus, self._ask_page = question.serial, 0, 0
                extra["focus"] = 0
            extra["ask"] = self.ask_view(loop, question)
        elif (loop.asks is not None and loop.asks.pending and self.area is None
              and self.home is None and referee.engine.started(state) and not referee.over):
            # put off: it stays pending, and visibly so (the host menu opens it again)
            notices.append(Notice("status.ask_waiting", text=str(len(loop.asks.pending))))
        if self.area is not None:
            return Snapshot(state=None, now_ms=now_ms, lang=self.lang,
                            camera_status=None, notices=tuple(notices),
                            tablesetup=self.area.view(), **extra)
        if not referee.engine.started(state):
            if self.home is not None:
                return Snapshot(state=None, now_ms=now_ms, lang=self.lang,
                                camera_status=camera_status, notices=tuple(notices),
                                home=self.home, game=game, **extra)
            setup = self.setup if self.setup is not None else self.new_form(loop)
            return Snapshot(state=None, now_ms=now_ms, lang=self.lang,
                            camera_status=camera_status, notices=tuple(notices), setup=setup,
                            game=game, **extra)
        parts = self.part(loop).snapshot_parts(self, loop)
        if "players" in parts:  # default names (a seat's colour) in the screen's language
            parts["players"] = tuple(p.shown(self.lang) for p in parts["players"])
        return Snapshot(state=state, now_ms=now_ms, lang=self.lang,
                        camera_status=camera_status, notices=tuple(notices), game=game,
                        **parts, **extra)

    def card_view(self, card_id: str) -> CardView:
        """A card as the screen shows it: its names and template, from the deck."""
        info = self.cards.get(card_id)
        if info is None:
            return CardView(card_id, card_id, card_id)
        return CardView(card_id, info.name_zh, info.name_en, info.image)

    def render(self, loop: Loop, now_ns: int) -> bool:
        # (what this frame shows holds the clocks from this frame on: a question the camera
        # raised during this step pauses the game before it is drawn)
        self.sync_pause(loop, now_ns)
        # the keyboard's letters on the buttons only where the box runs on a keyboard
        # (--keyboard); the box's own three buttons need none
        self.renderer.keycaps = isinstance(getattr(loop.referee.firmware, "buttons", None),
                                           KeyboardButtons)
        snap = self.snapshot(loop, now_ns)
        result = self.renderer.render(snap)
        if not result.drawn:
            return False
        if self._focus_on is not None:  # the highlight waits where the name goes on
            wanted, self._focus_on = self._focus_on, None
            choices = self._choices()
            focus = next((i for i, c in enumerate(choices)
                          if (c.name, c.arg) == (wanted.name, wanted.arg)), self.focus)
            if focus != self.focus:
                self.focus = focus
                self.renderer.invalidate()  # the next frame draws the ring there
        if self.png_dir is None:
            self.renderer.flip()
            return True
        state = loop.referee.state
        started = loop.referee.engine.started(state)
        game_key = self.part(loop).shot_key(state, result.screen) if started else ()
        if self.area is not None:  # each page of the set-up area, and a step's progress
            view = self.area.step.view() if self.area.step is not None else None
            game_key = (*self._page(), getattr(view, "taught", 0) * 4 // max(
                1, getattr(view, "total", 1)))
        shot = (result.screen, *game_key, self.lang)
        if shot != self._last_shot:
            # A new screen: photograph it as players would see it once its animations have
            # settled (the simulated clock may jump past that moment), then carry on.
            self._last_shot = shot
            later = dataclasses.replace(snap, now_ms=snap.now_ms + self.SETTLE_MS)
            self.renderer.render(later)
            rnd = getattr(state, "round", 0)
            name = f"{len(self.saved):04d}-r{rnd:02d}-{result.screen}.png"
            self.saved.append(self.renderer.save_png(self.png_dir / "screens" / name))
            self.renderer.invalidate()
        return True

    def close(self) -> None:
        pygame.display.quit()


class ScaledClock:
    """The real clock, sped up ``speed`` times (the windowed demo's fast-forward)."""

    def __init__(self, base: Clock, speed: float) -> None:
        self.base = base
        self.speed = speed
        self._t0 = base.now_ns()

    def now_ns(self) -> int:
        return self._t0 + int((self.base.now_ns() - self._t0) * self.speed)


def run_realtime(loop: Loop, *, fps: int = 30, linger_s: float = 15.0,
                 run_for_s: float | None = None) -> None:
    """Run the loop against its real clock at ``fps`` until stopped (or ``linger_s`` after the
    game ended, so the final screen can be seen; or after ``run_for_s``)."""
    period = 1.0 / fps
    over_since: float | None = None
    begin = time.monotonic()
    while not loop.stopped:
        started = time.monotonic()
        if run_for_s is not None and started - begin >= run_for_s:
            break
        loop.step()
        if loop.over:
            over_since = over_since or started
            if started - over_since > linger_s:
                break
        time.sleep(max(0.0, period - (time.monotonic() - started)))

