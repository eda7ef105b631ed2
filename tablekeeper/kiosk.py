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

from engine.something_missing import is_over
from tablekeeper.app import Loop
from tablekeeper.clock import MonotonicClock
from tablekeeper.config import Config, ConfigReport, check_config
from tablekeeper.journal import JournaledGame, JournalError
from tablekeeper.referee import Referee

log = logging.getLogger("tablekeeper.kiosk")

CURRENT = "current.jsonl"

#: The exit status of a kiosk that must not start (the games folder is not known): the unit
#: does not restart it (``RestartPreventExitStatus=``), the host reads why on the screen.
EXIT_CONFIG = 78


def games_dir(config: Config) -> Path:
    return Path(os.path.expanduser(config.table.state_dir)) / "games"


def open_game(folder: Path) -> tuple[JournaledGame, str | None]:
    """The unfinished game to resume, or a new one. A journal that cannot be read is moved
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
            if not is_over(game.state):
                log.info("resuming the unfinished game in %s", path)
                return game, problem
            archive(folder, game)
    return JournaledGame.create(path), problem


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
    config_path = Path(args.config) if args.config else None
    report = read_config(config_path, explicit=args.config is not None)
    for config_line in report.problems:
        log.error("config: %s", config_line)
    if report.fatal is not None:
        return stop_for(report.fatal, args, notifier)
    config = report.config
    config_problem: str | None = config_summary(report.problems)

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

    from tablekeeper.vision_link import camera_pipeline, item_cards

    clock = MonotonicClock()
    try:
        cards_source, deck = camera_pipeline(config, clock, simulate=args.simulate_camera,
                                             threaded=True)
    except ValueError as exc:  # a bad [camera]/[vision] section or an unusable deck
        config_problem = config_problem or str(exc)
        log.error("camera/vision: %s; using the defaults", exc)
        cards_source, deck = camera_pipeline(Config(), clock, simulate=args.simulate_camera,
                                             threaded=True)

    folder = games_dir(config)
    game, journal_problem = open_game(folder)
    referee = Referee(game, firmware, clock.now_ns(), card_ids=item_card_ids(deck),
                      game_id=Path(game.journal.path).stem)

    from tablekeeper.screen import PygameScreen, run_realtime

    screen = PygameScreen(size=config.screen.size,
                          fullscreen=config.screen.fullscreen and not args.window,
                          lang=config.table.language, title="tablekeeper",
                          cards=item_cards(deck), rng=random.Random(secrets.randbits(64)))
    for problem in (config_problem, journal_problem):
        if problem:
            screen.show_problem(problem)
    loop = Loop(referee, clock, cards=cards_source, screen=screen)

    def new_game() -> None:
        archive(folder, loop.referee.game)
        fresh = JournaledGame.create(folder / CURRENT)
        loop.referee = Referee(fresh, firmware, clock.now_ns(), card_ids=referee.card_ids,
                               game_id=Path(fresh.journal.path).stem)
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


def item_card_ids(deck: Any) -> dict[str, int]:
    """Deck card id -> engine item number, for the item cards of a 什麼不見啦 deck, in deck
    order (the engine numbers the 66 item cards 0..65)."""
    ids = [c.id for c in deck.cards if c.kind == "item"] if deck is not None else []
    if not ids:
        return {f"i{i + 1:02d}": i for i in range(66)}
    return {cid: i for i, cid in enumerate(ids)}


def read_config(path: Path | None, *, explicit: bool) -> ConfigReport:
    """The config with every subsystem's section checked key by key (see
    :func:`tablekeeper.config.check_config`)."""
    from firmware.config import FirmwareConfig
    from vision.camera import CameraConfig
    from vision.config import VisionConfig

    return check_config(path, explicit=explicit,
                        sections={"firmware": FirmwareConfig.from_dict,
                                  "camera": CameraConfig.from_dict,
                                  "vision": VisionConfig.from_dict})


def config_summary(problems: tuple[str, ...] | list[str], shown: int = 4) -> str | None:
    """The config's problems as one screen notice (the log has them all)."""
    if not problems:
        return None
    head = list(problems[:shown])
    if len(problems) > shown:
        head.append(f"… {len(problems) - shown} more in the log (journalctl -u "
                    "tablekeeper-kiosk) / 另有 {len(problems) - shown} 項，見日誌")
    return "設定檔有誤 / config problems:\n" + "\n".join(head)


def stop_for(reason: str, args: argparse.Namespace, notifier: Any) -> int:
    """Stop before any game is opened: the reason goes to the log, to systemd's status line,
    to stderr and onto the screen (held there for ``--run-for`` seconds, or until the window
    is closed or Esc is pressed). Returns :data:`EXIT_CONFIG`."""
    text = f"tablekeeper kiosk stopped / 已停止: {reason}"
    log.critical("%s", text)
    # READY (with the reason as the status) so systemd neither times the start out nor
    # restarts the unit while the reason is on the screen; the watchdog is fed meanwhile.
    notifier.ready(text[:200])
    print(text, file=sys.stderr)
    try:
        show_fatal(text, fullscreen=not args.window, hold_s=args.run_for,
                   tick=lambda: notifier.tick(time.monotonic()))
    except Exception as exc:  # no display: the log and stderr still have it
        log.warning("the reason could not be shown on screen: %s", exc)
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
