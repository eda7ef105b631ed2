"""``tablekeeper demo``: a complete simulated game through the real code paths.

The game's kit (``--game NAME``, :mod:`tablekeeper.games`) builds its simulated table: for
什麼不見啦, simulated players lay item cards under a simulated camera
(:class:`vision.simtable.SimulatedTable`), the real vision pipeline recognises them, the players
press gpiozero mock buttons with human reaction times (and sometimes too early), the real
arbiter picks the first edge, the engine referees, the journal records every event, and the
screen shows it all.

With a display it opens a window and plays in real time (``--speed`` to hurry it); with
``--headless``, or where no display exists, it runs on SDL's dummy driver on a simulated clock
as fast as the machine allows, writing a PNG of every screen it passes through and the journal
into ``--out`` (default: a new folder it names).
"""

from __future__ import annotations

import json
import os
import resource
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware.box import Firmware
from tablekeeper.app import Loop
from tablekeeper.clock import Clock, FakeClock, MonotonicClock


def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


@dataclass
class DemoParts:
    """What a kit's demo builds: the loop, the simulated table that plays it (``table``:
    its driver through the hardware seams; ``sim``: what the simulated players decide), the
    firmware, the journal's path and the simulated camera (None without one)."""

    loop: Loop
    table: Any
    sim: Any
    firmware: Firmware
    journal_path: Path
    camera: Any | None


def run_demo(args: Any) -> int:
    from tablekeeper import games

    kit = games.load(args.game)
    try:
        options = games.demo_options(kit, players=args.players, variant=args.variant)
    except ValueError as exc:
        print(f"tablekeeper demo: {exc}", file=sys.stderr)
        return 2
    headless = bool(args.headless) or not has_display()
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="tablekeeper-demo-"))
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    clock: Clock
    if headless:
        clock = FakeClock()
    else:
        from tablekeeper.screen import ScaledClock

        clock = ScaledClock(MonotonicClock(), args.speed)
    from tablekeeper.screen import PygameScreen

    deck = kit.deck(None)  # one copy, shared by the screen and the simulated camera
    screen = PygameScreen(size=tuple(args.size), fullscreen=False, lang=args.lang,
                          png_dir=out if headless else None, title="tablekeeper demo",
                          cards=kit.card_infos(deck), quit_key=True)
    parts: DemoParts = kit.demo(out, seed=args.seed, clock=clock, camera=not args.no_camera,
                                screen=screen, deck=deck, threaded=not headless, **options)
    print(f"tablekeeper demo: {kit.title_in('zh-TW')} {kit.title_in('en')}, "
          f"{options['players']} players, {options['variant']}, seed {args.seed}"
          f"{' (headless)' if headless else ''}; writing to {out}"
          f"{'' if headless else '; Ctrl+Q quits'}", file=sys.stderr)
    try:
        if headless:
            parts.loop.run_simulated()
        else:
            from tablekeeper.screen import run_realtime

            run_realtime(parts.loop)
    finally:
        if parts.loop.cards is not None:
            parts.loop.cards.close()
        screen.close()
        parts.firmware.close()
    print(kit.scoreboard(parts.loop.referee.state))
    cards = parts.loop.cards
    summary: dict[str, Any] = {"game": kit.name, "journal": str(parts.journal_path),
                               "out": str(out)}
    summary.update(kit.demo_summary(parts))
    # (a kit whose camera reports more than cards -- 什麼不見啦's ring -- counts its own)
    summary.setdefault("cards_recognised",
                       getattr(cards, "events", summary.get("cards_revealed", 0)))
    summary["camera_frames"] = getattr(cards, "frames", 0)
    summary["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    summary["screens"] = len(screen.saved)
    print(json.dumps(summary, ensure_ascii=False))
    return 0


class HubPin:
    """A seat button a simulated player presses on a box whose buttons are not mock pins (the
    kiosk's ``--simulate-players``: its keyboard or GPIO firmware): the edges go through the
    firmware's input hub, as a key 1-8 does (the arbiter at once, the loop's queue)."""

    def __init__(self, firmware: Firmware, seat: int) -> None:
        self.firmware = firmware
        self.seat = seat

    def press(self, t_ns: int | None = None) -> None:
        self._edge(True, t_ns)

    def release(self, t_ns: int | None = None) -> None:
        self._edge(False, t_ns)

    def _edge(self, pressed: bool, t_ns: int | None) -> None:
        import time

        from firmware.devices import SeatEdge

        # (the simulated tables always say when; a bare press is now, on the box's clock)
        self.firmware.hub(SeatEdge(self.seat, pressed,
                                   t_ns if t_ns is not None else time.monotonic_ns()))


def demo_firmware(firmware: Firmware | None, clock: Clock,
                  seed: int) -> tuple[Firmware, list[Any]]:
    """The firmware a demo's table plays on and its seat buttons (seat 1 first): gpiozero's
    mock pins on a firmware of its own, or, given the box's ``firmware`` (the kiosk's), its
    input hub (:class:`HubPin`)."""
    if firmware is not None:
        return firmware, [HubPin(firmware, seat) for seat in range(1, 9)]
    import random

    from firmware.box import build
    from firmware.config import FirmwareConfig
    from firmware.mock import mock_factory

    factory = mock_factory()
    config = FirmwareConfig.from_dict({"backend": "gpio", "sound": {"kind": "none"}})
    built = build(config, factory, rng=random.Random(seed + 1), clock=clock.now_ns)
    return built, [factory.pin(p) for p in config.pins.seats]
