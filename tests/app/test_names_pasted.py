"""Names pasted into the real setup screen (issue 39, "Names"): a right-to-left override and a
terminal's "clear the screen" arrive as SDL text events through ``PygameScreen.handle_events``;
the game the form starts is journalled with names that hold neither, so the journal's entry
(which refuses them) is never what stops a game started on screen.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from display.input import HostAction
from firmware.box import build
from firmware.config import FirmwareConfig
from firmware.mock import mock_factory
from tablekeeper.app import Loop
from tablekeeper.clock import FakeClock
from tablekeeper.journal import JournaledGame, read
from tablekeeper.names import bad_character
from tablekeeper.referee import Referee
from tablekeeper.screen import PygameScreen

MS = 1_000_000
PASTED = ["\u202eAnn\x1b[2J", "Bo\u2066b\x07", "C\u200dy\x00"]


def test_pasted_control_and_bidi_characters_never_reach_the_journal(tmp_path: Path) -> None:
    clock = FakeClock()
    config = FirmwareConfig.from_dict({"backend": "keyboard", "sound": {"kind": "none"}})
    firmware = build(config, mock_factory(), rng=random.Random(5), clock=clock.now_ns)
    path = tmp_path / "game.jsonl"
    referee = Referee(JournaledGame.create(path), firmware, clock.now_ns(), game_id="test")
    screen = PygameScreen(size=(800, 480), rng=random.Random(1))
    loop = Loop(referee, clock, screen=screen)
    try:
        clock.advance(40 * MS)
        loop.step()  # the window is up
        now = clock.now_ns()
        screen.host_action(loop, HostAction("setup.focus", None), now)  # makes the form
        assert screen.setup is not None
        while len(screen.setup.players) > len(PASTED):
            screen.host_action(loop, HostAction("setup.remove", len(screen.setup.players) - 1),
                               now)
        for seat, text in enumerate(PASTED):
            screen.host_action(loop, HostAction("setup.focus", seat), now)
            screen.host_action(loop, HostAction("setup.keyboard"), now)  # Latin
            screen.render(loop, now)  # the name field is on screen, taking text
            assert screen.renderer.text_focus
            pygame.event.clear()
            pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))  # a paste
            for _ in range(2):
                clock.advance(40 * MS)
                loop.step()
            screen.host_action(loop, HostAction("setup.done"), clock.now_ns())
        assert [p.name for p in screen.setup.players] == ["Ann[2J", "Bob", "Cy"]
        screen.host_action(loop, HostAction("confirm"), clock.now_ns())
        records = read(path).active()
        assert records, "the game did not start"
        names = records[0].event.names  # type: ignore[union-attr]
        assert list(names) == ["Ann[2J", "Bob", "Cy"]
        assert all(bad_character(n) is None for n in names)
    finally:
        screen.close()
        firmware.close()
