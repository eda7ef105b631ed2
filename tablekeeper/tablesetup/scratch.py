"""``tablekeeper demo --game G --from-scratch``: set a table up from nothing, then play on it.

A box with no deck and no zones: the screen starts in the set-up area; the simulated host
(:class:`tablekeeper.tablesetup.simhost.SimHost`) goes through the set-up screens with the
three host buttons only (gpiozero mock pins), and the simulated table lays what each step
wants (:class:`~tablekeeper.tablesetup.simhost.SimHands`) under the simulated camera. The
steps are driven through the step protocol only, so a step added later (the zones) joins
without changes here. Then the game is played at the same simulated table, its cards
recognised with the deck set-up just made.

``--out DIR`` gets the new deck (``deck/``), the config set-up wrote (``config.toml``), the
journal of the game (``game.jsonl``, ``tablekeeper replay`` replays it) and the screens of the
set-up and of the game (``screens/``). The closing JSON line is the demo's, with
``cards_enrolled``, ``deck``, the set-up's figures (``setup``: host presses, shots, simulated
and wall seconds) and the recognition on the new deck against the demo deck's, same frames
(``recognition``).
"""

from __future__ import annotations

import json
import os
import random
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

NS_PER_S = 1_000_000_000

CONFIG_HEAD = """# tablekeeper's config, written by `tablekeeper demo --from-scratch`
# (the set-up screens add what they learn below: the deck of each game ...)
"""


def recognition(real: Any, decks: dict[str, Any], *, frames: int = 40, seed: int = 0,
                ) -> dict[str, dict[str, Any]]:
    """Recognise the same simulated frames (``real``'s cards, 1-3 a frame, in random light)
    with each of ``decks``: per deck the cards right, wrong and not recognised."""
    from vision.find import CardFinder
    from vision.match import DeckMatcher
    from vision.simtable import Conditions, SimulatedTable
    from vision.tracker import recognise

    rng = random.Random(seed)
    shots = []
    ids = list(real.ids)
    for n in range(frames):
        table = SimulatedTable(real, seed=seed * 1000 + n,
                               conditions=Conditions.random(rng, None))
        for k in range(rng.randint(1, 3)):
            where = ("west", "centre", "east")[k]
            table.place(rng.choice(ids), where)
        frame = table.capture().image
        truth = [t for t in table.truth(0.95) if t.in_deck]
        shots.append((frame, truth))
    out: dict[str, dict[str, Any]] = {}
    for name, deck in decks.items():
        finder = CardFinder(deck.size)
        matcher = DeckMatcher.from_deck(deck)
        right = wrong = unknown = 0
        t0 = time.perf_counter()
        for frame, truth in shots:
            seen = recognise(finder, matcher, frame)
            for t in truth:
                centre = t.corners.mean(axis=0)
                hit = next((m for f, m in seen
                            if float(((f.corners.mean(axis=0) - centre) ** 2).sum()) ** 0.5
                            < 0.25 * float(abs(t.corners[1] - t.corners[0]).sum())), None)
                if hit is None or hit.card_id is None:
                    unknown += 1
                elif hit.card_id == t.card_id:
                    right += 1
                else:
                    wrong += 1
        cards = right + wrong + unknown
        out[name] = {"cards": cards, "right": right, "wrong": wrong, "unknown": unknown,
                     "right_pct": round(100 * right / max(1, cards), 1),
                     "ms_per_frame": round(1000 * (time.perf_counter() - t0) / max(1, frames),
                                           1)}
    return out


def run_from_scratch(args: Any) -> int:
    from firmware.box import build
    from firmware.config import FirmwareConfig
    from firmware.devices import HostButton
    from firmware.mock import mock_factory
    from tablekeeper import games
    from tablekeeper.app import Loop
    from tablekeeper.clock import FakeClock
    from tablekeeper.config import load_config
    from tablekeeper.journal import JournaledGame
    from tablekeeper.referee import Referee
    from tablekeeper.tablesetup.area import SetupArea
    from tablekeeper.tablesetup.readiness import home_choices
    from tablekeeper.tablesetup.simhost import SimHands, SimHost
    from tablekeeper.tablesetup.step import StepContext
    from vision.deck import load_deck
    from vision.simtable import SimulatedTable

    kit = games.load(args.game)
    try:
        options = games.demo_options(kit, players=args.players, variant=args.variant)
    except ValueError as exc:
        print(f"tablekeeper demo: {exc}", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="tablekeeper-setup-"))
    out.mkdir(parents=True, exist_ok=True)
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    clock = FakeClock()
    wall0 = time.perf_counter()
    config_path = out / "config.toml"
    if not config_path.exists():
        config_path.write_text(CONFIG_HEAD, encoding="utf-8")
    deck_dir = out / "deck"
    state_dir = out / "box"
    printed = kit.deck(None)  # the cards on the simulated table (the demo deck's faces)

    from tablekeeper.screen import PygameScreen

    screen = PygameScreen(size=tuple(args.size), fullscreen=False, lang=args.lang,
                          png_dir=out, title="tablekeeper demo --from-scratch",
                          cards=kit.card_infos(printed), quit_key=True)

    def context_for(k: games.Kit) -> StepContext:
        return StepContext(k.name, k, load_config(config_path), config_path, deck_dir,
                           lang=args.lang, tell=lambda key, **params: None, simulated=True,
                           state_dir=state_dir)

    screen.area_factory = lambda game, step: SetupArea([kit], context_for, game=game,
                                                       step=step)
    # (once set up, the home screen offers the game, marked with what it still lacks)
    screen.home_games = lambda: tuple(
        c for c in home_choices([kit], context_for) if c.name == kit.name)
    sim = SimulatedTable(printed, seed=args.seed, clock=clock.now_ns)
    screen.area_frames = lambda: sim.capture().image
    factory = mock_factory()
    fw_config = FirmwareConfig.from_dict({"backend": "gpio", "sound": {"kind": "none"}})
    firmware = build(fw_config, factory, rng=random.Random(args.seed), clock=clock.now_ns)

    def press(button: HostButton, down: bool) -> None:
        pin = factory.pin(getattr(fw_config.pins, button.value))
        if down:
            pin.press(clock.now_ns())
        else:
            pin.release(clock.now_ns())

    def focused() -> tuple[str, Any] | None:
        b = screen.renderer.focused
        return (b.action.name, b.action.arg) if b is not None else None

    hands = SimHands(sim, random.Random(args.seed + 7))
    host = SimHost(hands, press, lambda: screen.area, focused)
    scratch = Path(tempfile.mkdtemp(prefix="tablekeeper-setup-journal-"))
    try:
        journal = JournaledGame.create(scratch / "setup.jsonl", game=kit.engine.name)
        referee = Referee(journal, firmware, clock.now_ns(), kit=kit,
                          **kit.table_options(printed))
        loop = Loop(referee, clock, screen=screen, table=host)
        screen.show_area(kit.name)  # a fresh box: nothing set up, it starts in the set-up area
        t0 = clock.now_ns()
        print(f"tablekeeper demo --from-scratch: {kit.title_in('zh-TW')} {kit.title_in('en')}: "
              f"setting the table up (headless); writing to {out}", file=sys.stderr)
        loop.run_simulated(max_ticks=2_000_000, until=lambda lp: screen.area is None)
        setup_ns = clock.now_ns() - t0
    finally:
        firmware.close()
        shutil.rmtree(scratch, ignore_errors=True)
    setup_wall = time.perf_counter() - wall0
    setup_screens = len(screen.saved)
    try:
        deck = load_deck(deck_dir)
    except ValueError as exc:
        print(f"tablekeeper demo --from-scratch: set-up made no deck: {exc}", file=sys.stderr)
        return 1
    # the game, at the same table, recognised with the deck just made
    screen.area_factory = None
    screen.home = None
    screen.setup = None
    screen.focus = 0
    screen.cards = dict(kit.card_infos(deck))
    # (every kit's demo takes ``recognise``: the deck its camera recognises with)
    parts = kit.demo(out, seed=args.seed, clock=clock, camera=True, screen=screen,
                     deck=printed, threaded=False, recognise=deck, **options)
    try:
        parts.loop.run_simulated()
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
    summary.setdefault("cards_recognised",
                       getattr(cards, "events", summary.get("cards_revealed", 0)))
    summary["cards_enrolled"] = sum(1 for c in deck.cards)
    summary["deck"] = str(deck_dir)
    summary["templates"] = sum(len(deck.templates_of(c.id)) for c in deck.cards)
    summary["setup"] = {"presses": host.presses, "shots": hands.shots,
                        "table_moves": hands.moves, "seconds": round(setup_ns / NS_PER_S, 1),
                        "wall_s": round(setup_wall, 1), "screens": setup_screens}
    if not getattr(args, "no_compare", False):
        summary["recognition"] = recognition(printed, {"set_up": deck, "demo": printed},
                                             seed=args.seed)
    summary["camera_frames"] = getattr(cards, "frames", 0)
    summary["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    summary["screens"] = len(screen.saved)
    print(json.dumps(summary, ensure_ascii=False))
    return 0
