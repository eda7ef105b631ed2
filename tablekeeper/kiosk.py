"""``tablekeeper kiosk``: the referee at a real table, full screen, started by systemd.

Start-up: read the config (every problem is shown on screen and logged, each refused key takes
its default alone, the file is left alone; a config that does not say for sure where the games
are stops the kiosk with the reason, exit 78), build the buttons and lamps (lgpio on a Pi;
``--keyboard`` for a laptop),
the camera (reconnecting with back-off when it is unplugged) and the item deck, open the screen
full screen (KMSDRM on a Pi without a desktop), and resume the unfinished game in
``<state_dir>/games/current.jsonl`` if there is one. Then tell systemd READY=1 and run the loop,
pinging the watchdog from the render loop itself.

A finished game's journal is kept as ``games/<game id>.jsonl`` when the host starts the next
game; ``tablekeeper replay`` prints any of them.

Faults the kiosk lives through (tests/kiosk/test_faults_*.py):

- one kiosk per games folder: the folder's lock (:mod:`tablekeeper.folderlock`, a kernel
  ``flock`` that dies with its process) is taken before the buttons, the camera or any file;
  a second kiosk says who holds it (pid, since when, command) and exits 78, writing nothing;

- a journal that cannot be read, whatever the damage, is set aside as
  ``damaged-<n>-<date>.jsonl`` (a counter: never overwriting one kept before) and a new game
  starts; the reason is on the screen (a problem banner) and in the log;
- a write that fails (a full disk, a state folder that cannot be written or created) pauses
  the game: the event is refused, nothing is acknowledged, the reason is on the screen and in
  systemd's status line; every second the kiosk tries again and the banner goes when writing
  works (:class:`GuardedGame`);
- a ``.current.jsonl.<pid>.new`` left by a crash during a create is removed at start-up;
- SIGTERM (``systemctl stop``, a shutdown) at any moment -- before READY=1, in play, SDL
  started (SDL would take the signal as a quit event nothing reads), stuck writing to a log
  stream nobody reads -- ends the kiosk within the unit's ``TimeoutStopSec``: the clean stop
  (every ``finally``, exit 0), else :class:`StopGuard` after :data:`STOP_GRACE_S`.

Interpretations:

- [I] kiosk-pause-clock: a paused game's clock runs on (the engine's deadlines are game time;
  the kiosk cannot stop them without events it cannot write); a time-up that falls in the
  pause is written when writing works again, at its deadline. A card the camera saw or a buzz
  the arbiter decided during the pause is refused (the screen says why); the buzzers are armed
  again when the game resumes in the buzz phase, and a card can be turned by hand.
- every path is just a path (:mod:`ground.files`): a FIFO, a socket, a device, a
  directory, a link to one or a dangling link where ``current.jsonl`` should be is renamed
  aside as ``damaged-<n>-<date>.jsonl`` (never opened, never followed, never deleted) with one
  line saying what it was; something that is not a folder where the games folder should be
  pauses the game with its reason (retried every second); a config that is not a regular file
  stops the kiosk (exit 78); nothing is read without a bound;
- a config that says nothing (empty, truncated, only comments, unreadable TOML) is said on the
  screen and in the log; the games stay in the service's folder (``$STATE_DIRECTORY``, from
  the unit's ``StateDirectory=``: :func:`tablekeeper.config.default_state_dir`).

- [I] kiosk-config-stop: the issue's "never for state_dir" is read as: whenever the file names
  a ``state_dir`` that cannot be taken as written (not TOML, not a non-empty string, set twice,
  outside ``[table]``, in a misspelled section), and when an explicit ``--config`` does not
  exist or cannot be read, the kiosk stops (exit 78) instead of using the default folder.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import logging
import os
import random
import re
import secrets
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.core import Rejection
from ground.files import kind_of, printable
from tablekeeper.app import Loop
from tablekeeper.atomic import fsync_directory
from tablekeeper.clock import MonotonicClock
from tablekeeper.config import (
    Config,
    ConfigError,
    ConfigReport,
    ScreenConfig,
    SectionCheck,
    TableConfig,
    check_config,
    load_config,
)
from tablekeeper.folderlock import FolderLock, FolderLocked
from tablekeeper.journal import (
    Contents,
    Header,
    Journal,
    JournaledGame,
    JournalError,
    game_spec,
    read,
)
from tablekeeper.referee import Referee

log = logging.getLogger("tablekeeper.kiosk")

CURRENT = "current.jsonl"

#: How the reason of a paused game begins (on the screen and in the log).
PAUSED = "paused: nothing is recorded / 暫停（無法記錄）"

#: The exit status of a kiosk that must not start (the games folder is not known): the unit
#: does not restart it (``RestartPreventExitStatus=``), the host reads why on the screen.
EXIT_CONFIG = 78


def games_dir(config: Config) -> Path:
    return Path(os.path.expanduser(config.table.state_dir)) / "games"


def open_game(folder: Path, new: str | None = None) -> tuple[JournaledGame, str | None]:
    """The unfinished game to resume (whichever game its journal names), or a new one of
    ``new`` (an engine name; None: the default game). A journal that cannot be read is moved
    aside (never deleted) and a new game starts; the problem is returned for the screen.
    A folder that cannot be written gives a paused new game (:class:`GuardedGame`)."""
    odd = odd_folder(folder)
    if odd is not None:  # a file, a FIFO, a device ... where the folder should be: left alone
        log.error("%s", odd)
        return paused_game(folder / CURRENT, NotADirectoryError(errno.ENOTDIR, odd), new), odd
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return paused_game(folder / CURRENT, exc, new), None
    except ValueError as exc:  # a NUL in the name (the config refuses it first)
        error = NotADirectoryError(errno.EINVAL, str(exc), printable(folder))
        return paused_game(folder / CURRENT, error, new), f"{printable(folder)}: {exc}"
    remove_stale_temporaries(folder)
    path = folder / CURRENT
    problem = None
    kind = kind_of(path)
    if kind is not None:  # a FIFO, a socket, a device, a directory, a link to one, a dangling
        try:              # link: never opened, never followed, never deleted: renamed aside
            aside = set_aside(folder, path, rename=True)
        except OSError as exc:
            problem = (f"{printable(path)} is {kind}, not a journal, and cannot be moved "
                       f"aside: {describe(exc)}")
            log.error("%s", problem)
            return paused_game(path, exc, new), problem
        log.error("%s was %s, not a journal: kept as %s; a new game starts", printable(path),
                  kind, aside.name)
        problem = (f"games/{CURRENT} was {kind}, not a journal — kept as {aside.name} / "
                   "遊戲記錄檔不是一般檔案，已保留並開新局")
    if path.exists():
        try:
            game = GuardedGame.open(path)
        except JournalError as exc:
            try:
                aside = set_aside(folder, path)
            except OSError as move_exc:
                problem = f"{exc} — and it cannot be moved aside: {describe(move_exc)}"
                log.error("journal unreadable: %s", problem)
                return paused_game(path, move_exc), problem
            problem = f"{exc} — kept as {aside.name}"
            log.error("journal unreadable: %s", problem)
        else:
            if game.journal.torn_tail is not None:
                problem = ("the last event was cut off by a power cut before it was confirmed "
                           "and is dropped; everything before it is kept")
                log.warning("%s: %s", path, problem)
            if not game.journal.spec.is_over(game.state):
                log.info("resuming the unfinished game in %s", path)
                return game, problem
            try:
                archive(folder, game)
            except OSError as exc:  # the finished game stays on the screen; "new game" retries
                problem = f"the finished game cannot be put away: {describe(exc)}"
                log.error("%s", problem)
                return game, problem
    return new_journaled_game(path, new), problem


def archive(folder: Path, game: JournaledGame) -> Path:
    """Move the current journal to ``games/<created>.jsonl`` (kept for replay/export)."""
    path = Path(game.journal.path)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(path.stat().st_mtime))
    target = folder / f"game-{stamp}.jsonl"
    n = 1
    while target.exists():
        n += 1
        target = folder / f"game-{stamp}-{n}.jsonl"
    path.rename(target)
    log.info("finished game kept as %s", target)
    return target


class Terminated(SystemExit):
    """SIGTERM (systemd stopping the unit): raised in the main thread wherever it is -- the
    start-up, the loop -- so every ``finally`` runs (the camera, the screen, the buttons and
    the folder's lock are let go) and the kiosk exits 0 well within ``TimeoutStopSec``."""


_STOPPING: list[bool] = []


def _on_sigterm(signum: int, frame: Any) -> None:
    if _STOPPING:  # a second SIGTERM: the clean stop under way goes on
        return
    _STOPPING.append(True)
    log.warning("SIGTERM: the kiosk stops")
    raise Terminated(0)


def handle_sigterm() -> None:
    """Make SIGTERM end the kiosk (:class:`Terminated`). Called before pygame starts and
    again once the screen is up: SDL installs its own handler for SIGTERM at its start, which
    only queues a quit event that nothing reads until the loop runs (``SDL_NO_SIGNAL_HANDLERS``
    asks it not to; the second call makes sure)."""
    os.environ["SDL_NO_SIGNAL_HANDLERS"] = "1"
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _on_sigterm)


#: SIGTERM's clean stop (every ``finally``) must be over within this many seconds, else the
#: kiosk ends without it (:class:`StopGuard`). Below the unit's ``TimeoutStopSec`` (15 s), after
#: which systemd would send SIGKILL (tests/kiosk/test_faults_sigterm.py checks the two).
STOP_GRACE_S = 10.0


class StopGuard:
    """The last resort of a SIGTERM: the kiosk ends within :data:`STOP_GRACE_S` even when its
    main thread cannot run the Python handler or cannot finish the clean stop -- stuck in a
    write to a log stream nobody reads (journald wedged: each ``write`` blocks again after the
    signal), or in C code that retries the interrupted call.

    Python's C-level signal handler writes the signal's number to a wakeup fd
    (:func:`signal.set_wakeup_fd`) whatever the main thread is doing; a side thread reads it
    and, if the clean stop has not ended the process within the grace, ends it with
    ``os._exit(0)``. Nothing acknowledged is lost that way: every journal line is complete and
    fsynced before it is acknowledged (a power cut's tests, docs/journal.md); the folder's lock
    is the kernel's. :meth:`close` (the clean stop is over, or the kiosk ran inside another
    program) stands it down and gives back the previous wakeup fd."""

    def __init__(self, grace_s: float = STOP_GRACE_S) -> None:
        self.grace_s = grace_s
        self._done = threading.Event()
        self._r, self._w = os.pipe()
        os.set_blocking(self._w, False)
        self._before = signal.set_wakeup_fd(self._w, warn_on_full_buffer=False)
        self._thread = threading.Thread(target=self._watch, name="sigterm-guard", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while True:
            try:
                got = os.read(self._r, 64)
            except OSError:
                return
            if not got or self._done.is_set():
                return
            if signal.SIGTERM in got and not self._done.wait(self.grace_s):
                _last_line(f"tablekeeper kiosk: SIGTERM: the clean stop did not end within "
                           f"{self.grace_s:g} s; ended without it (every acknowledged journal "
                           "line is on disk)")
                os._exit(0)

    def close(self) -> None:
        self._done.set()
        with contextlib.suppress(ValueError, OSError):
            signal.set_wakeup_fd(self._before)
        os.close(self._w)  # (the side thread reads the end of the pipe and returns)
        self._thread.join(1.0)
        os.close(self._r)


def _last_line(text: str) -> None:
    """One line on stderr that never waits: the log stream may be the very thing stuck."""
    with contextlib.suppress(OSError, ValueError):
        os.set_blocking(2, False)
        os.write(2, (text + "\n").encode("utf-8", "replace"))


def run_kiosk(args: argparse.Namespace) -> int:
    from tablekeeper.logs import setup_logging
    from tablekeeper.sdnotify import Notifier

    main_thread = threading.current_thread() is threading.main_thread()
    before = signal.getsignal(signal.SIGTERM) if main_thread else None
    handle_sigterm()
    _STOPPING.clear()
    guard = StopGuard() if main_thread else None
    try:
        return _run_kiosk_main(args, setup_logging, Notifier)
    except Terminated:
        return 0
    finally:
        if guard is not None:
            guard.close()
        if main_thread:  # (a kiosk run inside another program, a test: its handler again)
            signal.signal(signal.SIGTERM, before if before is not None else signal.SIG_DFL)


def _run_kiosk_main(args: argparse.Namespace, setup_logging: Any, Notifier: Any) -> int:

    setup_logging(args.log_level)
    if getattr(args, "simulate_players", False):
        args.simulate_camera = True  # (the players lay their cards on the simulated table)
    notifier = Notifier.from_environ(os.environ, os.getpid())
    config_path = Path(args.config) if args.config else None
    report = read_config(config_path, explicit=args.config is not None)
    if report.fatal is not None:  # one line says it all (the other problems in it too)
        return stop_for(one_line(report.fatal, report.problems), args, notifier)
    for config_line in report.problems:
        log.error("config: %s", config_line)
    config = report.config
    config_problem: str | None = config_summary(report.problems, config_path)
    # One kiosk per games folder, decided before anything else is opened (a second kiosk
    # must not hold the buttons or the camera either): exit 78, which systemd does not retry.
    folder = games_dir(config)
    try:
        lock = lock_folder(folder)
    except FolderLocked as exc:
        text = f"tablekeeper kiosk not started / 未啟動: {exc}"
        print(printable_line(text), file=sys.stderr, flush=True)  # the one line: no log line
        notifier.status(text[:200])
        return EXIT_CONFIG
    try:
        return _run_kiosk(args, config, config_path, config_problem, notifier, lock)
    finally:
        lock.release()


def _run_kiosk(args: argparse.Namespace, config: Config, config_path: Path | None,
               config_problem: str | None, notifier: Any, lock: FolderLock) -> int:
    from firmware.box import build
    from firmware.config import FirmwareConfig

    fw_section = dict(config.sections.get("firmware", {}))
    if args.keyboard:
        fw_section["backend"] = "keyboard"
    try:
        fw_config = FirmwareConfig.from_dict(fw_section)
    except ValueError as exc:
        config_problem = config_problem or f"{config_path}: {exc}"
        log.error("firmware config: %s; using the defaults", exc)
        fw_config = FirmwareConfig.from_dict({"backend": "keyboard" if args.keyboard else "gpio"})
    try:
        firmware = build(fw_config)
    except RuntimeError as exc:
        print(printable_line(f"tablekeeper kiosk: {exc} (on a machine without GPIO, try "
                             "--keyboard)"), file=sys.stderr)
        return 2

    clock = MonotonicClock()
    return _run_locked(args, config, config_path, config_problem, firmware, notifier, clock,
                       lock)


def lock_folder(folder: Path) -> FolderLock:
    """The games folder's lock (:mod:`tablekeeper.folderlock`), taken before anything is
    written there; raises :class:`FolderLocked` (who holds it) when another kiosk does."""
    with contextlib.suppress(OSError, ValueError):  # open_game says why it cannot be made
        folder.mkdir(parents=True, exist_ok=True)
    lock = FolderLock.acquire(folder)
    if lock.problem:
        log.warning("%s", lock.problem)
    return lock


def _run_locked(args: argparse.Namespace, config: Config, config_path: Path | None,
                config_problem: str | None, firmware: Any, notifier: Any, clock: MonotonicClock,
                lock: FolderLock) -> int:
    from tablekeeper import games

    folder = lock.folder
    from tablekeeper.vision_link import camera_pipeline

    game, journal_problem = open_game(folder, games.load(config.table.game).engine.name)
    kit = games.kit_for(game.journal.header.game)
    resumed = kit.engine.started(game.state)

    shown: list[Callable[..., None]] = []  # the screen's show_problem, once it exists
    early: list[str] = []  # problems told before the screen exists
    early_keys: dict[str, tuple[str | None, str | None]] = {}

    def tell(problem: str, key: str | None = None, game: str | None = None) -> None:
        """A problem: the builder's account to the log, the players' message (``key``) to
        the screen, shown while ``game`` (None: any) is the table's."""
        log.error("%s", problem)
        if shown:
            shown[0](problem, key=key, game=game)
        elif problem not in early:
            early.append(problem)
            early_keys[problem] = (key, game)

    def camera_for(kit: games.Kit) -> tuple[Any, Any]:
        """The camera watching ``kit``'s deck (``[table.decks]``) in its zones, through the
        kit's own watcher if it has one (眨眨眼: cells and markers, ``[table] markers``)."""
        zones = kit.zones
        folder = config.table.deck_for(kit.name)

        def tell_game(problem: str, key: str | None = None) -> None:
            tell(problem, key or "problem.camera", kit.name)

        try:
            deck = kit.deck(folder)
        except ValueError as exc:  # the enrolled deck is missing or damaged
            tell(f"deck {folder}: {exc}; the demo deck is used", "problem.deck", kit.name)
            deck = kit.deck(None)
        # the cards the host names at the table are learnt (issue 37), kept apart until the
        # evening's end (the deck folder's learnt/)
        from vision.learnt import LearningDeck

        deck = LearningDeck(deck)
        for problem in deck.problems:
            log.warning("learnt templates: %s", problem)
        try:
            return camera_pipeline(config, clock, simulate=args.simulate_camera,
                                   threaded=True, deck=deck, zones=zones, watcher=kit.watcher,
                                   config_path=config_path, tell=tell_game,
                                   search_width=kit.search_width)
        except ValueError as exc:  # a bad [camera]/[vision] section or an unusable deck
            tell(f"camera/vision: {exc}; the defaults are used", "problem.config", None)
            return camera_pipeline(Config(), clock, simulate=args.simulate_camera,
                                   threaded=True, deck=kit.deck(None), zones=zones,
                                   watcher=kit.watcher, config_path=config_path,
                                   tell=tell_game)

    cards_source, deck = camera_for(kit)
    pause_banner: list[str] = []
    referee = Referee(game, firmware, clock.now_ns(), kit=kit,
                      game_id=Path(game.journal.path).stem, **kit.table_options(deck))

    from tablekeeper import table_players
    from tablekeeper.screen import PygameScreen, run_realtime

    size = getattr(args, "size", None)  # --size WxH: a window of that size
    screen = PygameScreen(size=size or config.screen.size,
                          fullscreen=config.screen.fullscreen and not args.window and not size,
                          lang=config.table.language, title="tablekeeper",
                          cards=kit.card_infos(deck), rng=random.Random(secrets.randbits(64)),
                          roster=config.table.names,
                          table_file=folder / table_players.FILE_NAME,
                          config_path=config_path, rotate=config.screen.rotate)
    handle_sigterm()  # (SDL has started: its handler must not be the one that answers)
    if config.table.variant:
        screen.variants[config.table.game] = config.table.variant
    if config_problem:  # the lines are in the log and in ``tablekeeper selftest``
        screen.show_problem(config_problem, key="problem.config")
    for problem in (journal_problem, *early):
        if problem:
            key, owner = early_keys.get(problem, (None, None))
            screen.show_problem(problem, key=key, game=owner)
    shown.append(screen.show_problem)
    loop = Loop(referee, clock, cards=cards_source, screen=screen)
    from tablekeeper.ask import Asks

    loop.asks = Asks()  # a card the camera cannot name is put to the host (issue 37)
    loop.learning = deck  # ... and what the host names it is learnt

    def on_pause(banner: str | None) -> None:
        show_pause(screen.problems, pause_banner, banner)
        notifier.status((banner or "the game goes on: the journal is written again")[:200])
        if banner is None:
            loop.referee.table.resync(clock.now_ns())

    watch_pauses(game, on_pause, lock)  # (the loop's referee plays ``game`` until a new game)
    referee_log = logging.getLogger("tablekeeper.referee")
    if not any(isinstance(f, PauseLogFilter) for f in referee_log.filters):
        referee_log.addFilter(PauseLogFilter())

    def fresh_game(new_kit: games.Kit, fresh: JournaledGame | None = None) -> None:
        """A new journal for ``new_kit``'s game (paused if it cannot be written), and the
        camera watching its deck."""
        nonlocal kit, deck
        if new_kit is not kit:
            if loop.cards is not None:
                loop.cards.close()
            loop.cards, deck = camera_for(new_kit)
            loop.learning = deck
            screen.cards = dict(new_kit.card_infos(deck))
            kit = new_kit
        if fresh is None:
            fresh = new_journaled_game(folder / CURRENT, kit.engine.name)
        watch_pauses(fresh, on_pause, lock)
        if loop.asks is not None:
            loop.asks.clear()  # (the last game's cards)
        loop.referee = Referee(fresh, firmware, clock.now_ns(), kit=kit,
                               game_id=Path(fresh.journal.path).stem, **kit.table_options(deck))
        loop.table = None

    def simulated_players(new_kit: games.Kit) -> None:
        """``--simulate-players``: the game's own demo table (its kit's ``demo``, the same
        simulated players as ``tablekeeper demo``) plays the game the host picked, laying
        its cards, tiles and markers on the simulated camera's table and pressing the seat
        buttons through the box's firmware; the host's three buttons stay the host's."""
        nonlocal kit, deck
        if loop.cards is not None:
            loop.cards.close()
        kit = new_kit
        deck = kit.deck(None)  # (the simulated table shows the demo deck)
        try:
            options = games.demo_options(kit, players=None,
                                         variant=screen.variants.get(kit.name))
        except ValueError:
            options = games.demo_options(kit, players=None, variant=None)
        parts = kit.demo(folder, seed=secrets.randbelow(2**31), clock=clock, camera=True,
                         screen=screen, deck=deck, threaded=True, journal_name=CURRENT,
                         firmware=firmware, **options)
        loop.referee, loop.cards, loop.table = parts.loop.referee, parts.loop.cards, parts.table
        screen.cards = dict(kit.card_infos(deck))
        # what the real camera path said of this game (no marker calibration, no enrolled
        # deck) is not true of the simulated table: its banner would outlive its moment
        screen.forget_problems(kit.name)
        log.info("simulated players play %s at the simulated table", kit.name)

    def new_game() -> None:
        """The game is over and the host goes on: it is archived (if it cannot be, the host
        goes on with it and the reason is shown); then the home screen."""
        fresh = next_game(folder, loop.referee.game, screen.show_problem, kit.engine.name)
        if fresh is None:
            return
        fresh_game(kit, fresh)
        screen.show_home(games.home_choices(), chosen=kit.name)

    def choose_game(name: str) -> None:
        """The host picked a game on the home screen; nothing is played yet, so the empty
        journal of the one set up before is replaced (it holds no event)."""
        chosen = games.load(name)
        if chosen is kit and not getattr(args, "simulate_players", False):
            return
        current = loop.referee.game
        if current.journal.active():  # never drop an acknowledged event
            log.error("a game was started before the host chose another; keeping it")
            return
        journal = current.journal
        if not (isinstance(journal, DeferredJournal) and not journal.created):
            Path(journal.path).unlink(missing_ok=True)
        if getattr(args, "simulate_players", False):
            simulated_players(chosen)
        else:
            fresh_game(chosen)

    screen.on_new_game = new_game
    screen.on_choose_game = choose_game
    home_games = set_up_area(screen, loop, args, config_path, firmware, clock, tell,
                             camera_for, on_changed=lambda name: changed(name))

    def changed(name: str) -> None:
        """A set-up step saved something for game ``name`` (a deck, zones ...): the config
        is read again and, if it is the game set up now, its camera watches afresh."""
        nonlocal config, deck
        try:
            config = load_config(config_path)
        except ConfigError as exc:  # (the config as it was read at start stays)
            tell(f"config: {exc}", "problem.config", None)
        if name == kit.name and screen.area is None:  # (in the area: once it is left)
            if loop.cards is not None:
                loop.cards.close()
            loop.cards, deck = camera_for(kit)
            screen.cards = dict(kit.card_infos(deck))

    screen.games = home_games()  # home is reachable even after a resumed game
    if not resumed:
        from tablekeeper.tablesetup.readiness import Readiness, fresh_box

        choices = screen.games
        screen.show_home(choices, chosen=kit.name)
        if fresh_box({g.name: Readiness(g.name, g.missing) for g in choices}):
            screen.show_area()  # nothing set up yet: the box starts in the set-up area
    else:  # a game under way when the box stopped: it waits for the host (paused, menu open)
        screen.hold_after_restart(loop, clock.now_ns())

    def watchdog() -> None:
        notifier.tick(time.monotonic())
        current = loop.referee.game
        if isinstance(current, GuardedGame):
            current.watch_lock()
            current.probe()

    loop.watchdog = watchdog
    notifier.ready("screen, buttons and camera up")
    try:
        run_realtime(loop, linger_s=float("inf"), run_for_s=args.run_for)
    finally:
        notifier.stopping()
        if loop.cards is not None:
            loop.cards.close()
        screen.close()
        firmware.close()
    return 0


def set_up_area(screen: Any, loop: Any, args: argparse.Namespace, config_path: Path | None,
                firmware: Any, clock: Any, tell: Callable[..., None],
                camera_for: Callable[[Any], tuple[Any, Any]],
                on_changed: Callable[[str], None]) -> Callable[[], tuple[Any, ...]]:
    """Give the kiosk's screen its set-up area (issue 28): the steps' context (the config
    file, where decks and progress go, the camera's kind), its own camera while it is shown
    (the game's camera thread is closed meanwhile: one reader of the camera), the host
    menu's entry, and the home screen's games with what each lacks. Returns that last."""
    from tablekeeper import games, hostmenu
    from tablekeeper.tablesetup.area import SetupArea
    from tablekeeper.tablesetup.readiness import home_choices
    from tablekeeper.tablesetup.step import StepContext
    from tablekeeper.vision_link import STAND_IN_SOURCES
    from vision.camera import CameraConfig, resilient_camera

    def config_now() -> Config:
        try:
            return load_config(config_path)
        except ConfigError:
            return Config()  # (told at start; the steps see the defaults)

    def context_for(kit: Any) -> StepContext:
        config = config_now()
        state = Path(os.path.expanduser(config.table.state_dir))
        source = str(dict(config.sections.get("camera", {})).get("source", "auto"))
        simulated = bool(args.simulate_camera) or source in STAND_IN_SOURCES
        return StepContext(kit.name, kit, config, config_path, state / "decks" / kit.name,
                           lang=screen.lang,
                           tell=lambda key, **params: tell(f"set-up: {key}", key, None),
                           simulated=simulated, state_dir=state, firmware=firmware)

    camera: list[Any] = []

    def frames() -> Any:
        if not camera:
            section = dict(config_now().sections.get("camera", {}))
            if args.simulate_camera:
                section["source"] = "sim"
            try:
                cam_config = CameraConfig.from_dict(section)
            except ValueError:
                cam_config = CameraConfig()
            kit = screen.area.kit if screen.area is not None else games.load(
                games.DEFAULT_GAME)
            camera.append(resilient_camera(cam_config, deck=kit.deck(None),
                                           clock=clock.now_ns, bounded=True))
        frame = camera[0].capture()
        return None if frame is None else frame.image

    def on_area(shown: bool) -> None:
        if shown and loop.cards is not None:
            loop.cards.close()  # the set-up reads the camera itself meanwhile
            loop.cards = None
        elif not shown:
            for cam in camera:
                cam.close()
            camera.clear()
            on_changed(loop.referee.kit.name)  # the config again, the game's camera back

    def make(game: str | None, step: str | None) -> SetupArea:
        return SetupArea(games.kits(), context_for, game=game, step=step,
                         on_done=lambda name, key: on_changed(name))

    def home_games() -> tuple[Any, ...]:
        return home_choices(games.kits(), context_for)

    screen.area_factory = make
    screen.area_frames = frames
    screen.home_games = home_games
    screen.on_area = on_area
    hostmenu.add_entry(screen.menu_entries, hostmenu.SETUP_ENTRY, before="end")
    return home_games


def config_sections() -> dict[str, SectionCheck]:
    """Every settings table the kiosk's config holds, with the parser that checks it
    (``[table]`` and ``[screen]`` are :mod:`tablekeeper.config`'s own)."""
    from firmware.config import FirmwareConfig
    from tablekeeper.cafe.config import CafeConfig
    from vision.camera import CameraConfig
    from vision.config import VisionConfig

    return {"table": TableConfig.from_dict, "screen": ScreenConfig.from_dict,
            "cafe": CafeConfig.from_dict, "firmware": FirmwareConfig.from_dict,
            "camera": CameraConfig.from_dict, "vision": VisionConfig.from_dict}


def read_config(path: Path | None, *, explicit: bool) -> ConfigReport:
    """The config with every subsystem's section checked key by key (see
    :func:`tablekeeper.config.check_config`)."""
    return check_config(path, explicit=explicit, sections=config_sections())


def config_summary(problems: tuple[str, ...] | list[str],
                   path: Path | None = None) -> str | None:
    """The config's problems as one line of the screen's banner: the first, and how many more
    the log has (journalctl -u tablekeeper-kiosk lists them all)."""
    if not problems:
        return None
    first = problems[0]
    if path is not None and first.startswith(str(path)):
        first = path.name + first[len(str(path)):]
    more = len(problems) - 1
    tail = f" (+{more} more in the log / 另有 {more} 項見日誌)" if more else ""
    return f"設定檔有誤 / config: {first}{tail}"


def one_line(fatal: str, problems: tuple[str, ...] | list[str]) -> str:
    """The stop's reason and, after it, the config's other problems: one line (the unit's
    log gets nothing else from a kiosk that stops for its settings)."""
    said = fatal.replace(_DEFAULT_USED, "")
    others = [p.replace(_DEFAULT_USED, "") for p in problems]
    others = [p for p in others if p not in said]
    if others:
        said += f" (+{len(others)} more / 另有 {len(others)} 項: " + "; ".join(others) + ")"
    return said


_DEFAULT_USED = " (the default is used)"


def printable_line(text: str) -> str:
    """``text`` as one line: a line break or another control character inside it (a path,
    a value quoted from the file) is shown as its escape, never as a second line."""
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def stop_for(reason: str, args: argparse.Namespace, notifier: Any) -> int:
    """Stop before any game is opened: the reason is ONE line on stderr (the unit's log,
    journald's from ``StandardError=journal``; nothing else is written there), systemd's
    status line, and the screen (held there for ``--run-for`` seconds, or until the window is
    closed or Esc is pressed). Returns :data:`EXIT_CONFIG`."""
    text = printable_line(f"tablekeeper kiosk stopped / 已停止: {reason}")
    # READY (with the reason as the status) so systemd neither times the start out nor
    # restarts the unit while the reason is on the screen; the watchdog is fed meanwhile.
    notifier.ready(text[:200])
    print(text, file=sys.stderr, flush=True)
    try:
        show_fatal(text, fullscreen=not (args.window or getattr(args, "size", None)),
                   hold_s=args.run_for,
                   tick=lambda: notifier.tick(time.monotonic()))
    except Exception as exc:  # no display: stderr has the line already (no second one)
        log.debug("the reason could not be shown on screen: %s", exc)
    return EXIT_CONFIG


def show_fatal(text: str, *, fullscreen: bool, hold_s: float | None,
               tick: Any = None) -> None:
    """A plain screen with ``text`` (wrapped), until closed, Esc, or ``hold_s`` seconds."""
    import pygame

    from display.fonts import FontBook

    pygame.display.init()
    try:
        if fullscreen:
            pygame.mouse.set_visible(False)
            surface = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        else:
            surface = pygame.display.set_mode((960, 540))
        font = FontBook().font("bold", max(18, surface.get_height() // 28))
        width = surface.get_width() - 80
        lines: list[str] = []
        for para in text.split("\n"):
            line = ""
            for ch in para:
                if font.get_rect(line + ch).width > width and line:
                    lines.append(line)
                    line = ""
                line += ch
            lines.append(line)
        surface.fill((90, 0, 0))
        y = 40
        for line in lines:
            font.render_to(surface, (40, y), line, (255, 255, 255))
            y += font.get_sized_height(0) + 8
        pygame.display.flip()
        begin = time.monotonic()
        while hold_s is None or time.monotonic() - begin < hold_s:
            for event in pygame.event.get():
                if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN
                                                 and event.key == pygame.K_ESCAPE):
                    return
            if tick is not None:
                tick()
            time.sleep(0.1)
    finally:
        pygame.display.quit()


# --- faults: a damaged journal, a full disk, an unwritable folder, a crash's leftovers ------

_DAMAGED = re.compile(r"^damaged-(\d+)(?:-[^.]*)?\.jsonl$")
_STALE = re.compile(r"^\.(?P<name>.+\.jsonl)\.(?P<pid>\d+)\.new$")


def set_aside(folder: Path, path: Path, *, rename: bool = False) -> Path:
    """Move a journal that cannot be read to ``damaged-<n>-<date>.jsonl``: ``n`` is one more
    than any number there, and the file is linked (which never replaces a file) before its
    old name goes, so nothing kept before is overwritten, whatever the clock says.
    ``rename``: what is not a file (a directory cannot be linked) is renamed to a name that
    is free (the folder's lock keeps other writers away)."""
    used = [int(m.group(1)) for p in folder.iterdir() if (m := _DAMAGED.match(p.name))]
    n = max(used, default=0) + 1
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime())
    while True:
        target = folder / f"damaged-{n:03d}-{stamp}.jsonl"
        if rename:
            if os.path.lexists(target):
                n += 1
                continue
            os.rename(path, target)
            break
        try:
            os.link(path, target)
        except FileExistsError:
            n += 1
            continue
        except PermissionError:  # a file this user may not link (fs.protected_hardlinks:
            rename = True        # not its own and unreadable): renamed instead
            continue
        break
    if not rename:
        path.unlink()
    fsync_directory(folder)
    return target


def odd_folder(folder: Path) -> str | None:
    """Why ``folder`` (or a folder above it) cannot be the games folder, in one line: it is
    a file, a FIFO, a device, a dangling link ...; None when it is a folder or not there yet
    (it is made)."""
    try:
        for p in (folder, *folder.parents):
            if os.path.isdir(p):
                return None
            if os.path.lexists(p):
                kind = kind_of(p) or "a regular file"
                return (f"the games folder {printable(folder)} cannot be made: {printable(p)} "
                        f"is {kind}, not a folder; move it away / 遊戲資料夾的位置被其他檔案佔用")
    except ValueError:
        return f"the games folder {printable(folder)} has a NUL character in its name"
    return None


def remove_stale_temporaries(folder: Path) -> list[Path]:
    """Remove ``.<journal>.<pid>.new`` files of processes that are gone (a crash while a
    journal's header was written: it was never linked into place, so nothing is lost)."""
    removed: list[Path] = []
    try:
        names = list(folder.iterdir())
    except OSError as exc:
        log.warning("cannot look for leftovers in %s: %s", folder, exc)
        return removed
    for p in names:
        m = _STALE.match(p.name)
        if m is None or int(m.group("pid")) == os.getpid():
            continue
        if kind_of(p) is not None or p.is_symlink():  # not what a create leaves: left alone
            log.warning("%s is not a leftover of an interrupted start (it is %s); left alone",
                        printable(p.name), kind_of(p) or "a symbolic link")
            continue
        try:
            p.unlink()
        except FileNotFoundError:
            continue
        except OSError as exc:  # Journal.create removes one of its own pid itself
            log.warning("cannot remove %s, left by an interrupted start: %s", p.name, exc)
            continue
        removed.append(p)
        log.warning("removed %s, left by an interrupted start", p.name)
    return removed


class LockLost(OSError):
    """The games folder is not this kiosk's to write (another holds its lock); the message
    says who."""

    def __init__(self, reason: str) -> None:
        super().__init__(errno.EBUSY, reason)


def what_failed(exc: OSError) -> str:
    """What an ``OSError`` of the journal means at the table, in a few words."""
    if exc.errno == errno.ENOSPC:
        return "the disk is full / 儲存空間已滿"
    if isinstance(exc, LockLost):
        return "another tablekeeper uses the games folder / 遊戲資料夾被另一個 tablekeeper 使用"
    return "the games folder cannot be written / 無法寫入遊戲資料夾"


def describe(exc: OSError) -> str:
    """An ``OSError`` as the host reads it (the log, systemd's status line)."""
    what = what_failed(exc)
    detail = exc.strerror or str(exc)
    where = f" ({exc.filename})" if exc.filename else ""
    return f"{what}: {detail}{where}"


def folder_writable(folder: Path) -> OSError | None:
    """None if a block can be written and fsynced in ``folder`` now; else the error."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=".probe.", dir=folder)
        try:
            view = memoryview(b"\0" * 4096)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
            os.unlink(name)
    except OSError as exc:
        return exc
    return None


class DeferredJournal(Journal):
    """A new game's journal that cannot be created yet (a full disk, a folder that cannot be
    written): it holds no event, and is created on the first write that works."""

    def __init__(self, path: Path, game: str | None = None) -> None:
        spec = game_spec(game)
        if spec is None:
            raise ValueError(f"unknown game {game!r}")
        rules = spec.rules_from_dict({})
        header = Header(game=spec.name, rules=spec.rules_to_dict(rules))
        super().__init__(path, Contents(path=str(path), header=header, spec=spec, rules=rules,
                                        records=(), torn_tail=None, good_bytes=0))
        self.created = False

    def ensure(self) -> None:
        """Create the file now (raises ``OSError`` if that still cannot be done)."""
        if self.created:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        made: Journal | None = None
        if self.path.exists():
            try:  # a header linked before a failed fsync: adopt it
                contents = read(self.path)
            except JournalError:  # the damaged journal that could not be moved aside yet
                set_aside(self.path.parent, self.path)
            else:
                if contents.records:
                    raise FileExistsError(errno.EEXIST, "a journal with events is in the way",
                                          str(self.path))
                made = Journal(self.path, contents)
        if made is None:
            made = Journal.create(self.path, game=self.header.game)
        self.header, self.rules = made.header, made.rules
        self._size = made._size
        self.created = True

    def _write(self, record: dict[str, Any]) -> None:
        self.ensure()
        super()._write(record)


class GuardedGame(JournaledGame):
    """A journaled game whose failed writes pause it instead of ending the kiosk.

    An event whose line cannot be written (:class:`OSError`) is refused with the Rejection
    ``journal_unwritable`` (nothing acknowledged; the journal keeps no half line) and the game
    is paused: :attr:`paused` holds the reason (:attr:`banner` in a few words, for the screen),
    ``on_pause(banner)`` is told, and while paused
    an event is refused at once except for one try a second. :meth:`probe` (called from the
    render loop) tries the folder once a second; the first write that works, or a probe that
    does, resumes the game (``on_pause(None)``).
    """

    RETRY_S = 1.0

    def __init__(self, journal: Journal) -> None:
        super().__init__(journal)
        self.paused: str | None = None
        #: the pause's reason in a few words, for the screen's banner
        self.banner: str | None = None
        self.on_pause: Callable[[str | None], None] | None = None
        self._tried = -float("inf")
        #: the games folder's lock (the kiosk's): held before anything is written
        self.lock: FolderLock | None = None
        self._lock_checked = -float("inf")

    def submit(self, event: Any) -> Any:
        return self._guarded(lambda: super(GuardedGame, self).submit(event))

    def undo(self) -> Any:
        return self._guarded(lambda: super(GuardedGame, self).undo())

    def _guarded(self, write: Callable[[], Any]) -> Any:
        now = time.monotonic()
        if self.paused is not None and now - self._tried < self.RETRY_S:
            return Rejection("journal_unwritable", self.paused)
        self._tried = now
        try:
            result = write()
        except OSError as exc:
            return self.pause(exc)
        if not isinstance(result, Rejection):
            self.resume()
        return result

    def pause(self, exc: OSError) -> Rejection:
        reason = (f"{PAUSED}: {describe(exc)}; free space or fix the folder, the game goes "
                  "on by itself")
        if reason != self.paused:
            log.error("%s", reason)
            self.paused = reason
            self.banner = (f"{PAUSED}: {what_failed(exc)} — it goes on by itself when it can "
                           "write / 可寫入時自動繼續")
            if self.on_pause is not None:
                self.on_pause(self.banner)
        return Rejection("journal_unwritable", reason)

    def resume(self) -> None:
        if self.paused is None:
            return
        log.warning("the journal can be written again: the game goes on")
        self.paused = self.banner = None
        if self.on_pause is not None:
            self.on_pause(None)

    def watch_lock(self) -> None:
        """Once a second while the game runs: is the games folder still this kiosk's
        (:meth:`FolderLock.ensure`)? If not -- another kiosk took a folder put in its place --
        the game pauses, saying who holds it, until :meth:`probe` takes the lock back."""
        now = time.monotonic()
        if self.lock is None or self.paused is not None or now - self._lock_checked < 1.0:
            return
        self._lock_checked = now
        problem = self.lock.ensure()
        if problem is not None:
            self.pause(LockLost(problem))

    def probe(self) -> None:
        """While paused, once a second: can the journal be written again (the games folder
        made, its lock taken, a block written)?"""
        now = time.monotonic()
        if self.paused is None or now - self._tried < self.RETRY_S:
            return
        self._tried = now
        journal = self.journal
        try:
            if self.lock is not None:  # (a kiosk that started without one takes it now)
                Path(journal.path).parent.mkdir(parents=True, exist_ok=True)
                held = self.lock.ensure()
                if held is not None:
                    raise LockLost(held)
            if isinstance(journal, DeferredJournal):
                journal.ensure()
            problem = folder_writable(Path(journal.path).parent)
            if problem is not None:
                raise problem
        except OSError as exc:
            self.pause(exc)
            return
        self.resume()


def new_journaled_game(path: Path, game: str | None = None) -> GuardedGame:
    """A new game of ``game`` (an engine name; None: the default) at ``path``; paused (a
    :class:`DeferredJournal`) if it cannot be created."""
    try:
        return GuardedGame.create(path, game=game)  # type: ignore[return-value]
    except FileExistsError:
        raise
    except OSError as exc:
        return paused_game(path, exc, game)


def paused_game(path: Path, exc: OSError, game: str | None = None) -> GuardedGame:
    paused = GuardedGame(DeferredJournal(path, game))
    paused.pause(exc)
    return paused


def watch_pauses(game: JournaledGame, on_pause: Callable[[str | None], None],
                 lock: FolderLock | None = None) -> None:
    """Tell ``on_pause`` when ``game`` pauses and resumes (now too, if it is paused); ``lock``:
    the games folder's, which the game holds before it writes (:meth:`GuardedGame.watch_lock`)."""
    if isinstance(game, GuardedGame):
        game.on_pause = on_pause
        game.lock = lock
        if lock is not None and not lock.held and game.paused is None:
            game.watch_lock()
        if game.banner is not None:
            on_pause(game.banner)


def show_pause(problems: list[str], banner: list[str], reason: str | None) -> None:
    """Put the pause's reason in the screen's problem list (``banner`` remembers which line is
    the pause's), or take it out when the game resumes."""
    for line in banner:
        if line in problems:
            problems.remove(line)
    banner.clear()
    if reason is not None:  # first: the banner shows three lines
        problems.insert(0, reason)
        banner.append(reason)


def next_game(folder: Path, game: JournaledGame, problem: Callable[[str], None],
              new: str | None = None) -> JournaledGame | None:
    """The host starts a new game: keep the current one (archived) and open a fresh journal,
    paused if it cannot be created. None (and the reason said) if the current one cannot be
    kept: the host goes on with it."""
    journal = game.journal
    if not (isinstance(journal, DeferredJournal) and not journal.created):
        try:
            archive(folder, game)
        except OSError as exc:
            reason = f"a new game cannot be started / 無法開新局: {describe(exc)}"
            log.error("%s", reason)
            problem(reason)
            return None
    return new_journaled_game(folder / CURRENT, new)


class PauseLogFilter(logging.Filter):
    """While the game is paused the referee logs every refused event (a time-up is tried at
    each frame): keep one such line every ``every_s`` seconds."""

    def __init__(self, every_s: float = 10.0) -> None:
        super().__init__()
        self.every_s = every_s
        self._last = -float("inf")

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args if isinstance(record.args, tuple) else ()
        if not any(isinstance(a, str) and a.startswith(PAUSED) for a in args):
            return True
        now = time.monotonic()
        if now - self._last < self.every_s:
            return False
        self._last = now
        return True
