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

    from tablekeeper.vision_link import camera_pipeline

    clock = MonotonicClock()
    try:
        cards_source, deck = camera_pipeline(config, clock, simulate=args.simulate_camera,
                                             threaded=True)
    except ValueError as exc:  # a bad [camera]/[vision] section or an unusable deck
        config_problem = config_problem or str(exc)
        log.error("camera/vision: %s; using the defaults", exc)
        cards_source, deck = camera_pipeline(Config(), clock, simulate=args.simulate_camera,
                                             threaded=True)

    from tablekeeper.games import kit_for

    folder = games_dir(config)
    game, journal_problem = open_game(folder)
    kit = kit_for(game.journal.header.game)
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

    def new_game() -> None:
        archive(folder, loop.referee.game)
        fresh = JournaledGame.create(folder / CURRENT, game=kit.engine.name)
        loop.referee = Referee(fresh, firmware, clock.now_ns(), kit=kit,
                               game_id=Path(fresh.journal.path).stem, **kit.table_options(deck))
        screen.setup = None

    screen.on_new_game = new_game

    def watchdog() -> None:
        notifier.tick(time.monotonic())

    loop.watchdog = watchdog
    notifier.ready("screen, buttons and camera up")
    try:
        run_realtime(loop, linger_s=float("inf"), run_for_s=args.run_for)
    finally:
        notifier.stopping()
        cards_source.close()
        screen.close()
        firmware.close()
    return 0
