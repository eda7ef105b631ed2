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

from display.home import GameChoice, HomeMenu
from display.hostmenu import MenuItem, MenuView
from display.i18n import STRINGS
from display.input import HostAction, SeatInput, TextInput
from display.model import CardView, Notice, Snapshot
from display.setup import SetupForm
from engine.core import Rejection
from firmware.arbiter import ArbiterPhase
from firmware.devices import HOST_KEYS, HostButton, HostPress, SeatEdge
from tablekeeper import choices as host
from tablekeeper import hostmenu
from tablekeeper.clock import Clock

if TYPE_CHECKING:
    from tablekeeper.app import Loop

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
                 roster: tuple[str, ...] = (), quit_key: bool = False) -> None:
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
        self.renderer = Renderer(surface, present=False)
        self.lang = lang
        self.png_dir = png_dir
        self.cards = dict(cards or {})
        self.rng = rng or random.Random()
        self.on_new_game = on_new_game
        #: the host picked a game on the home screen (its kit's name): set the table up for it
        self.on_choose_game = on_choose_game
        #: the table's known names, offered on the setup screen (the config's roster)
        self.roster = tuple(roster)
        #: the variant a game's setup form starts with (kit name -> variant; the config's)
        self.variants: dict[str, str] = {}
        #: the home screen's game picker while it is shown (None: not shown)
        self.home: HomeMenu | None = None
        self._menu: HomeMenu | None = None  # the last menu shown (setup's "other game")
        self.setup: SetupForm | None = None
        self.focus = 0
        self.saved: list[Path] = []
        self.notice: Notice | None = None
        self._notice_until = 0
        self._last_shot: tuple[Any, ...] | None = None
        self._card_surfaces: dict[str, pygame.Surface] = {}
        self.quit_requested = False
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
        #: when *back* went down (a long press opens the menu), None: not held
        self._back_down: int | None = None
        self.volume: int = MAX_VOLUME * 7 // 10
        self.muted: bool = False
        from display.sound import Sounds
        #: no audio device: a small permanent sign says so
        self.silent = not Sounds().available()

    def show_home(self, games: tuple[GameChoice, ...], chosen: str | None = None) -> None:
        """Show the home screen: the host picks the game (``chosen``: the one focused)."""
        index = next((i for i, g in enumerate(games) if g.name == chosen), 0)
        self.home = self._menu = HomeMenu(games=games, chosen=index)
        self.games = self.games or games
        self.setup = None
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
        kit = loop.referee.kit
        titles = (kit.title_in("zh-TW"), kit.title_in("en"))
        if self.menu_page == "rules":
            rules = getattr(kit.display(), "rules", {}) or {}
            return MenuView(page="rules", titles=titles,
                            rules=(tuple(rules.get("zh-TW", ())), tuple(rules.get("en", ()))))
        if self.menu_page == "confirm" and self.menu_asking is not None:
            asked = self.menu_asking
            return MenuView(page="confirm", titles=titles, question=asked.confirm,
                            items=(MenuItem("no", "menu.no_keep"),
                                   MenuItem("yes", "menu.yes_end", risky=True)))
        items = []
        for entry in self.menu_items(loop):
            label = "menu.unmute" if entry.key == "mute" and self.muted else entry.label
            params = tuple(entry.params(self).items())
            items.append(MenuItem(entry.key, label, params, entry.risky))
        return MenuView(page="main", titles=titles, items=tuple(items))

    def menu_action(self, loop: Loop, name: str, arg: Any, now_ns: int) -> None:
        """A choice in the open menu: ``confirm`` is the page's harmless default (back to
        the game, "no", back from the rules); ``menu.pick`` an entry (or "yes")."""
        if self.menu_page == "rules":
            self.menu_page = "main"
            self.focus = 0
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
            if (event.type in (pygame.KEYDOWN, pygame.KEYUP) and not self.renderer.text_focus
                    and pygame.key.name(event.key) in HOST_KEYS
                    and loop.referee.firmware.key_event(
                        pygame.key.name(event.key), event.type == pygame.KEYDOWN, now)):
                continue  # --keyboard: Space / Enter / Backspace are the three host buttons
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
            if self.menu_page != "main":
                self.menu_page, self.menu_asking = "main", None
                self.focus = 0
                self.renderer.invalidate()
            else:
                self.close_menu()
            return
        if self.home is not None:
            return
        if self.setup is not None and self.setup.focus is not None:  # typing a name: done
            self.setup = self.setup.apply(HostAction("setup.focus", None))
            return
        self.host_action(loop, HostAction("undo"), now_ns)

    def seat_pressed(self, loop: Loop, seat: int, t_ns: int) -> None:
        """A seat button (1..8) went down: on the setup screen it marks that seat as the
        youngest player, who starts; in play it may be the runner-up of a buzz."""
        if self.home is not None:
            return
        if not loop.referee.engine.started(loop.referee.state):
            form = self.setup if self.setup is not None else self.new_form(loop)
            self.setup = form.apply(HostAction("setup.start", seat - 1))
        else:
            loop.referee.note_press(seat, t_ns)

    def gpio_button(self, loop: Loop, action: HostButton, t_ns: int) -> None:
        """The three host buttons: next moves the highlight, confirm takes it, back undoes."""
        if action is HostButton.BACK:
            self._back_down = t_ns  # short or long: told when it is released or held
            self._back_held(loop, t_ns)
            return
        choices = self._choices()
        if action is HostButton.NEXT:
            if choices:
                self.focus = (self.focus + 1) % len(choices)
                if self.home is not None and not self.menu_open:
                    picked = choices[self.focus]
                    if picked.name == "home.pick" and isinstance(picked.arg, int):
                        self.home = self.home.apply(HostAction("home.point", picked.arg))
                self.renderer.invalidate()
            return
        if choices:
            chosen = choices[self.focus % len(choices)]
            self.host_action(loop, HostAction(chosen.name, chosen.arg), t_ns)
        else:
            self.host_action(loop, HostAction("confirm"), t_ns)

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
        if name == "lang":
            self.lang = "en" if self.lang == "zh-TW" else "zh-TW"
            self.renderer.invalidate(layers=True)
            return
        if name == "menu":
            self.open_menu()
            return
        if self.menu_open:
            self.menu_action(loop, name, arg, now_ns)
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
        self.part(loop).host_action(self, loop, name, arg, now_ns)

    def _home_action(self, action: HostAction) -> None:
        menu = self.home
        assert menu is not None
        if action.name == "home.pick" and isinstance(action.arg, int):
            self._choose(action.arg)
        elif action.name == "confirm":
            choices = self._choices()
            chosen = choices[self.focus % len(choices)] if choices else None
            if chosen is not None and chosen.name == "menu":
                self.open_menu()
            elif chosen is not None and chosen.name == "home.pick" and isinstance(chosen.arg,
                                                                                  int):
                self._choose(chosen.arg)
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
                                  can_go_home=self.can_go_home(), roster=self.roster)
        variant = self.variants.get(kit.name)
        return form.apply(HostAction("setup.variant", variant)) if variant else form

    def _setup_action(self, loop: Loop, action: HostAction, now_ns: int) -> None:
        if self.setup is None:
            self.setup = self.new_form(loop)
        if action.name == "confirm" and self.setup.focus is None:
            if not self.setup.ready:
                return
            event = self.part(loop).start(self, loop, self.setup, now_ns, self.rng)
            self.show_result(loop.referee.submit(event), now_ns)
            return
        self.setup = self.setup.apply(action)

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
        now_ms = (now_ns - referee.epoch_ns) // NS_PER_MS
        notices: list[Notice] = []
        for text in self.problems:
            key, game = self.problem_of.get(text, (None, None))
            if game is not None and (game != referee.kit.name or self.home is not None):
                continue  # another game's, or the home screen: not this table's problem now
            notices.append(Notice(key=key) if key is not None else Notice(text=text))
        if self.notice is not None and now_ns < self._notice_until:
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
        if self.menu_open:
            extra["menu"] = self.menu_view(loop)
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
        snap = self.snapshot(loop, now_ns)
        result = self.renderer.render(snap)
        if not result.drawn:
            return False
        if self.png_dir is None:
            pygame.display.flip()
            return True
        state = loop.referee.state
        started = loop.referee.engine.started(state)
        game_key = self.part(loop).shot_key(state, result.screen) if started else ()
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

