"""The simulated host and table of the set-up area (``tablekeeper demo --from-scratch``, tests).

:class:`SimHands` does at a :class:`vision.simtable.SimulatedTable` what a step's
:class:`~tablekeeper.tablesetup.step.Want` asks, without knowing the step: lays a card alone
(a little elsewhere, under a slightly different light, for each shot), takes the cards away.
The wants of other kinds are done by the modules named in :data:`HANDS` (imported by name:
the zones step's ``cards_in_zones``, the markers' ``marker``, the buttons' ``seat``), where
they are installed.

:class:`SimHost` is the host's fingers on the three host buttons (gpiozero mock pins): for a
``confirm`` want it walks the focus with *next* until the focused button's action is the one
wanted, then presses *confirm*. It is a :class:`tablekeeper.app.Table` (the loop plans and
runs it), so the set-up goes through the real screen and loop.
"""

from __future__ import annotations

import importlib
import logging
import random
from collections.abc import Callable
from typing import Any

from tablekeeper.tablesetup.step import Want

log = logging.getLogger("tablekeeper.tablesetup.simhost")

NS_PER_MS = 1_000_000

#: want kind -> "module:function" doing it on the simulated table, ``f(table, want, rng)``
#: (returns whether the table changed); kinds not here and not installed are not done
HANDS: dict[str, str] = {
    "cards_in_zones": "tablekeeper.tablesetup.simzones:lay_zones",
    "marker": "tablekeeper.tablesetup.simzones:lay_marker",
}


class SimHands:
    """Lays and takes away cards on a simulated table as the step wants."""

    def __init__(self, table: Any, rng: random.Random | None = None) -> None:
        self.table = table
        self.rng = rng or random.Random(0)
        self.laid: tuple[str | None, int] | None = None  # (card, shot) lying now
        self.shots = 0  # cards laid for a shot
        self.moves = 0  # every change made at the table

    def do(self, want: Want) -> bool:
        """Do ``want`` at the table; True if the table changed."""
        if want.kind == "card_alone":
            return self._card_alone(want.card_id, want.shot)
        target = HANDS.get(want.kind)
        if target is None:
            return False
        module_name, _, name = target.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            return False
        changed = bool(getattr(module, name)(self.table, want, self.rng))
        self.moves += changed
        return changed

    def _card_alone(self, card_id: str | None, shot: int) -> bool:
        table = self.table
        if card_id is None:
            if self.laid is None and not table.truth():
                return False
            table.clear()
            self.laid = None
            self.moves += 1
            return True
        if self.laid == (card_id, shot):
            return False
        from vision.simtable import Pose

        table.clear()
        w, h = table.size
        rng = self.rng
        pose = Pose(w * (0.5 + rng.uniform(-0.08, 0.08)), h * (0.5 + rng.uniform(-0.08, 0.08)),
                    angle=rng.uniform(-12, 12),
                    width=w * rng.uniform(0.2, 0.24))
        table.set_light(exposure=rng.uniform(0.9, 1.08))
        table.place(card_id, pose)
        self.laid = (card_id, shot)
        self.shots += 1
        self.moves += 1
        return True


class SimHost:
    """The simulated host at the set-up screens: host buttons only (a ``Table`` for the
    loop). ``press(button, down)`` presses (``down``) or releases a host button (a mock
    pin; released at the next tick);
    ``area()`` is the set-up area shown (None: left); ``focused()`` the action of the
    button the focus is on."""

    def __init__(self, hands: SimHands, press: Callable[[Any, bool], None],
                 area: Callable[[], Any], focused: Callable[[], tuple[str, Any] | None], *,
                 frame_ns: int = 33_333_333, think_ns: int = 400 * NS_PER_MS) -> None:
        self.hands = hands
        self.press = press
        self.area = area
        self.focused = focused
        self.frame_ns = frame_ns
        self.think_ns = think_ns
        self.presses = 0
        self._now = 0
        self._next_press = 0
        self._walked = 0
        self._held: Any = None

    # --- the loop's Table ---------------------------------------------------------------
    def plan(self, now_ns: int) -> None:
        self._now = now_ns

    def run_due(self, now_ns: int) -> None:
        from firmware.devices import HostButton

        if self._held is not None:  # (released a tick after it went down)
            self.press(self._held, False)
            self._held = None
            return
        area = self.area()
        if area is None:
            return
        want = area.wants()
        if want.kind != "confirm":
            self._walked = 0
            self.hands.do(want)
            return
        if now_ns < self._next_press:
            return
        self._next_press = now_ns + self.think_ns
        focused = self.focused()
        if focused is not None and focused[0] == want.action:
            self._walked = 0
            self._push(HostButton.CONFIRM)
            return
        self._walked += 1
        if self._walked > 40:  # the wanted button is not on the screen: a bug, say it
            raise RuntimeError(f"set-up: no button {want.action!r} to confirm on the screen "
                               f"(focus on {focused})")
        self._push(HostButton.NEXT)

    def _push(self, button: Any) -> None:
        self.press(button, True)
        self._held = button
        self.presses += 1

    def next_time(self) -> int | None:
        if self._held is not None:
            return self._now + self.frame_ns
        area = self.area()
        if area is None:
            return None
        if area.wants().kind == "confirm":
            return max(self._now + self.frame_ns, self._next_press)
        return self._now + self.frame_ns

    def wants_frames(self, now_ns: int) -> bool:
        return False  # (the set-up area reads its own frames; no game is watched yet)
