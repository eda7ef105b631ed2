"""Issue 28: the zones, markers and buttons steps driven with the three host buttons only.

Each step's screen is drawn (its registered draw function, as the set-up area draws it) and
the host buttons act through the one focus (:func:`display.input.focus_order`): *next* walks
the buttons on screen, *confirm* takes the focused one (its action goes to the step's
``act``). The simulated table does what the step wants at the table."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from display.fonts import FontBook
from display.input import HostAction, focus_order
from display.model import Snapshot
from display.paint import Painter, TextCache
from display.screens import Frame
from display.tablesetup import step_screen
from firmware.box import Firmware
from firmware.devices import SeatEdge
from tablekeeper import games
from tablekeeper.config import Config
from tablekeeper.tablesetup import buttons as buttons_step
from tablekeeper.tablesetup.simzones import SimZones
from tablekeeper.tablesetup.step import Step, StepContext
from tablekeeper.tablesetup.zones import ZonePlan, ZonesStep
from vision.camera import CameraConfig
from vision.deck import Deck
from vision.simmarkers import sim_table

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
FRAME_NS = 300_000_000


class HostButtons:
    """The host's three buttons on a step's screen: the focus starts on the first button of
    the focus order each time the screen changes its buttons."""

    def __init__(self, step: Step) -> None:
        pygame.display.init()
        self.step = step
        self.cache = TextCache(FontBook())
        self.focus = 0
        self.presses = 0
        self._labels: tuple[str, ...] = ()

    def buttons(self) -> list[Any]:
        p = Painter(pygame.Surface((800, 480)), self.cache, "zh-TW")
        draw = step_screen(self.step.key)
        assert draw is not None
        draw(p, Frame(Snapshot(state=None, now_ms=0, lang="zh-TW"), None, 0), self.step.view())
        order = focus_order(p.buttons)
        labels = tuple(b.action.name for b in order)
        if labels != self._labels:
            self._labels, self.focus = labels, 0
        return order

    def take(self, action: str, now_ns: int) -> None:
        """*next* until the focus is on ``action``'s button, then *confirm*."""
        order = self.buttons()
        names = [b.action.name for b in order]
        assert action in names, f"{action} not on screen ({names})"
        while names[self.focus % len(names)] != action:
            self.focus += 1
            self.presses += 1
        self.presses += 1
        self.step.act(order[self.focus % len(names)].action, now_ns)


def test_zones_with_the_host_buttons_only(tmp_path: Path,
                                          demo_decks: Callable[[str], Deck]) -> None:
    deck = demo_decks("the-game")
    table = sim_table(deck, CameraConfig.from_dict({"sim_seed": 5}))
    step = ZonesStep(ZonePlan("rows:4"), deck.size, tmp_path / "config.toml")
    host = HostButtons(step)
    hands = SimZones(table, "rows:4", deck.ids)
    t = 0
    for _ in range(30):
        if step.done:
            break
        t += FRAME_NS
        step.frame(table.capture().image, t)
        want = step.wants()
        if want.kind == "confirm":
            host.take(want.action, t)
        else:
            hands.act(want)
    assert step.done and host.presses == 2  # take the zones, save them: focus on each
    # adjusting: choose row2, move it right, save -- still with the three buttons
    step2 = ZonesStep(ZonePlan("rows:4"), deck.size, tmp_path / "config.toml")
    host2 = HostButtons(step2)
    for i in range(3):
        step2.frame(table.capture().image, (i + 1) * FRAME_NS)
    host2.take("confirm", 0)
    before = step2.zones
    host2.take("zones.pick", 0)
    host2.take("zones.pick", 0)
    host2.take("zones.right", 0)
    assert step2.zones[0] == before[0] and step2.zones[1] != before[1]
    host2.take("confirm", 0)
    assert step2.done


def test_markers_and_buttons_with_the_host_buttons_only(
        tmp_path: Path, demo_decks: Callable[[str], Deck], factory: Any,
        firmware: Firmware) -> None:
    from tablekeeper.tablesetup.markers import MarkersStep
    from vision.simmarkers import sim_grid_zones

    deck = demo_decks("wink")
    camera = CameraConfig.from_dict({"sim_seed": 2})
    table = sim_table(deck, camera)
    step = MarkersStep(sim_grid_zones(deck, camera), tmp_path / "markers.json")
    host = HostButtons(step)
    hands = SimZones(table, "grid:6x6", deck.ids)
    t = 0
    for _ in range(60):
        if step.done:
            break
        t += FRAME_NS
        step.frame(table.capture().image, t)
        want = step.wants()
        if want.kind == "confirm":
            host.take(want.action, t)
        else:
            hands.act(want)
    assert step.done and (tmp_path / "markers.json").exists()

    path = tmp_path / "config.toml"
    path.write_text("# box\n", encoding="utf-8")
    ctx = StepContext("wink", games.load("wink"), Config(), path, tmp_path / "deck",
                      simulated=True, firmware=firmware)
    bstep = buttons_step.make(ctx)
    bhost = HostButtons(bstep)
    t = 0
    for _ in range(4000):
        if bstep.done:
            break
        t += 1_000_000
        nxt = bstep.next_time()
        if nxt is not None and nxt <= t:
            bstep.tick(t)
        while not firmware.hub.queue.empty():
            event = firmware.hub.queue.get_nowait()
            if isinstance(event, SeatEdge):
                bstep.seat(event.seat, event.pressed, event.t_ns)
        want = bstep.wants()
        if want.kind == "seat" and want.seat is not None:
            pin = factory.pin(firmware.config.pins.seats[want.seat - 1])
            pin.press(t)
            pin.release(t + 1)
        elif want.kind == "confirm":
            bhost.take(want.action, t)
    assert bstep.done and "tie_window_us" in path.read_text("utf-8")
    assert bhost.presses == 4  # every seat answered: done, measure, save, jumpers removed


def test_back_leaves_each_step(tmp_path: Path) -> None:
    step = ZonesStep(ZonePlan("pile"), (200, 300), None)
    host = HostButtons(step)
    host.take("back", 0)
    assert step.left


def test_the_set_up_area_runs_the_zones_and_markers_steps_with_the_simulated_hands(
        tmp_path: Path, demo_decks: Callable[[str], Deck]) -> None:
    """28a's area and simulated hands (simhost.HANDS names simzones' functions) run these
    steps through the protocol alone."""
    from tablekeeper.config import load_config
    from tablekeeper.tablesetup.area import SetupArea, steps_for
    from tablekeeper.tablesetup.simhost import SimHands

    kit = games.load("wink")
    assert steps_for(kit) == ("cards", "zones", "markers", "buttons")
    path = tmp_path / "config.toml"
    path.write_text("# box\n", encoding="utf-8")

    def context_for(k: Any) -> StepContext:
        return StepContext(k.name, k, load_config(path), path, tmp_path / "deck",
                           simulated=True)

    area = SetupArea([kit], context_for, game="wink", step="zones")
    deck = demo_decks("wink")
    table = sim_table(deck, CameraConfig.from_dict({"sim_seed": 4}))
    hands = SimHands(table)
    t = 0
    for _ in range(80):
        t += FRAME_NS
        area.frame(table.capture().image, t)
        want = area.wants()
        if want.kind == "confirm":
            if area.step is None:
                if dict(area.view().game.steps)["markers"] == "done":
                    break
                area.act(HostAction("area.step", "markers"), t)
            else:
                area.act(HostAction(want.action), t)
        else:
            hands.do(want)
    steps = dict(area.view().game.steps)
    assert steps["zones"] == "done" and steps["markers"] == "done"
    assert (tmp_path / "markers.json").exists() and hands.moves >= 10
