"""``tablekeeper kiosk``: the referee at a real table, full screen, started by systemd.

Start-up: read the config (a broken config is shown on screen and the defaults are used; the
file is left alone), build the buttons and lamps (lgpio on a Pi; ``--keyboard`` for a laptop),
the camera (reconnecting with back-off when it is unplugged) and the item deck, open the screen
full screen (KMSDRM on a Pi without a desktop), and resume the unfinished game in
``<state_dir>/games/current.jsonl`` if there is one. Then tell systemd READY=1 and run the loop,
pinging the watchdog from the render loop itself.

A finished game's journal is kept as ``games/<game id>.jsonl`` when the host starts the next
game; ``tablekeeper replay`` prints any of them.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import secrets
import sys
import time
from pathlib import Path
from typing import Any

from tablekeeper.app import Loop
from tablekeeper.clock import MonotonicClock
from tablekeeper.config import Config, ConfigError, load_config
from tablekeeper.journal import JournaledGame, JournalError
from tablekeeper.referee import Referee

log = logging.getLogger("tablekeeper.kiosk")

CURRENT = "current.jsonl"


def games_dir(config: Config) -> Path:
    return Path(os.path.expanduser(config.table.state_dir)) / "games"


def open_game(folder: Path, new: str | None = None) -> tuple[JournaledGame, str | None]:
    """The unfinished game to resume (whichever game its journal names), or a new one of
    ``new`` (an engine name; None: the default game). A journal that cannot be read is moved
    aside (never deleted) and a new game starts; the problem is returned for the screen."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / CURRENT
    problem = None
    if path.exists():
        try:
            game = JournaledGame.open(path)
        except JournalError as exc:
            aside = folder / f"damaged-{int(time.time())}.jsonl"
            path.rename(aside)
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
            archive(folder, game)
    return JournaledGame.create(path, game=new), problem


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


def run_kiosk(args: argparse.Namespace) -> int:
    from tablekeeper.logs import setup_logging
    from tablekeeper.sdnotify import Notifier

    setup_logging(args.log_level)
    notifier = Notifier.from_environ(os.environ, os.getpid())
    config_problem = None
    config_path = Path(args.config) if args.config else None
    try:
        config = load_config(config_path)
    except ConfigError as exc:
        config_problem = str(exc)
        log.error("%s; using the defaults (the file is left as it is)", exc)
        config = Config()

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
        print(f"tablekeeper kiosk: {exc}\n(on a machine without GPIO, try --keyboard)",
              file=sys.stderr)
        return 2

    from tablekeeper import games
    from tablekeeper.vision_link import camera_pipeline

    clock = MonotonicClock()
    folder = games_dir(config)
    game, journal_problem = open_game(folder)
    kit = games.kit_for(game.journal.header.game)
    resumed = kit.engine.started(game.state)

    def camera_for(kit: games.Kit) -> tuple[Any, Any]:
        """The camera watching ``kit``'s deck in its zones."""
        nonlocal config_problem
        deck = kit.deck(config.table.items_deck or None) if kit.name == games.DEFAULT_GAME \
            else kit.deck(None)
        zones = kit.zones
        try:
            return camera_pipeline(config, clock, simulate=args.simulate_camera,
                                   threaded=True, deck=deck, zones=zones)
        except ValueError as exc:  # a bad [camera]/[vision] section or an unusable deck
            config_problem = config_problem or str(exc)
            log.error("camera/vision: %s; using the defaults", exc)
            return camera_pipeline(Config(), clock, simulate=args.simulate_camera,
                                   threaded=True, zones=zones)

    cards_source, deck = camera_for(kit)
    referee = Referee(game, firmware, clock.now_ns(), kit=kit,
                      game_id=Path(game.journal.path).stem, **kit.table_options(deck))

    from tablekeeper.screen import PygameScreen, run_realtime

    screen = PygameScreen(size=config.screen.size,
                          fullscreen=config.screen.fullscreen and not args.window,
                          lang=config.table.language, title="tablekeeper",
                          cards=kit.card_infos(deck), rng=random.Random(secrets.randbits(64)))
    for problem in (config_problem, journal_problem):
        if problem:
            screen.show_problem(problem)
    loop = Loop(referee, clock, cards=cards_source, screen=screen)

    def fresh_game(new_kit: games.Kit) -> None:
        """A new journal for ``new_kit``'s game, and the camera watching its deck."""
        nonlocal kit, deck
        if new_kit is not kit:
            if loop.cards is not None:
                loop.cards.close()
            loop.cards, deck = camera_for(new_kit)
            screen.cards = dict(new_kit.card_infos(deck))
            kit = new_kit
        fresh = JournaledGame.create(folder / CURRENT, game=kit.engine.name)
        loop.referee = Referee(fresh, firmware, clock.now_ns(), kit=kit,
                               game_id=Path(fresh.journal.path).stem, **kit.table_options(deck))

    def new_game() -> None:
        """The game is over and the host goes on: it is archived; the home screen."""
        archive(folder, loop.referee.game)
        fresh_game(kit)
        screen.show_home(games.home_choices(), chosen=kit.name)

    def choose_game(name: str) -> None:
        """The host picked a game on the home screen; nothing is played yet, so the empty
        journal of the one set up before is replaced (it holds no event)."""
        chosen = games.load(name)
        if chosen is kit:
            return
        current = loop.referee.game
        if current.journal.active():  # never drop an acknowledged event
            log.error("a game was started before the host chose another; keeping it")
            return
        Path(current.journal.path).unlink()
        fresh_game(chosen)

    screen.on_new_game = new_game
    screen.on_choose_game = choose_game
    if not resumed:
        screen.show_home(games.home_choices(), chosen=kit.name)

    def watchdog() -> None:
        notifier.tick(time.monotonic())

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
