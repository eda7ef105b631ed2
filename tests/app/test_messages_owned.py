"""Messages outlive nothing (issue 41): each message of a moment is owned by the state the event
that made it produced, and is gone once that state ends. Every game's demo is walked through
the real screen (the kiosk's PygameScreen and the game's screen part); each time the game's
state changes, no message of the moment drawn in the state before may still be drawn (Wink's
「8號夥伴，我在找你！」 and 「藍色 抓到了 8 號」 stayed into the next player's turn; a
refusal's banner stayed after the camera's next card)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display.i18n import LANGS, STRINGS
from tablekeeper import games
from tablekeeper.clock import FakeClock
from tablekeeper.screen import PygameScreen


def _refusals() -> frozenset[str]:
    """The messages of a moment every game shares: a refusal's banner (``reject.*``: the box's
    and, once its display part is loaded, the game's own)."""
    return frozenset({"status.refused"} | {k for k in STRINGS if k.startswith("reject.")})


def _pattern(keys: frozenset[str]) -> re.Pattern[str]:
    """The texts these messages can say, in either language (placeholders: anything)."""
    texts = []
    for key in sorted(keys):
        for lang in LANGS:
            template = STRINGS[key][lang]
            parts = re.split(r"\{\w+\}", template)
            texts.append(".+".join(re.escape(part) for part in parts))
    return re.compile("^(?:" + "|".join(texts) + ")$")


def _walk(kit: games.Kit, out: Path, seed: int,
          frame_ms: int | None = None) -> tuple[int, int, list[str]]:
    """Run the demo; return (moments seen, messages seen, stale messages). The loop steps to
    its next wake (the demo's way), or every ``frame_ms`` as the kiosk's loop does (30 a
    second: the camera's frames, the host's presses and the players' acts fall between the
    frames drawn as they come, not each on a frame of its own)."""
    options = games.demo_options(kit, players=None, variant=None)
    deck = kit.deck(None)
    clock = FakeClock()
    screen = PygameScreen(size=(800, 480), cards=kit.card_infos(deck), lang="zh-TW")
    parts = kit.demo(out, seed=seed, clock=clock, camera=True, screen=screen, deck=deck,
                     threaded=False, **options)
    display = kit.display()
    pattern = _pattern(frozenset(display.messages) | _refusals())
    loop = parts.loop
    before: Any = None
    shown: set[str] = set()
    states = messages = 0
    stale: list[str] = []
    try:
        while not loop.over and loop.ticks < 600_000:
            loop.step()
            state = loop.referee.state
            # (the moment of the game a message belongs to: the game's screen part says)
            moment = screen.moment(loop)
            drawn = {t.text for t in screen.renderer.texts if pattern.match(t.text)}
            if moment != before:
                states += 1
                stale.extend(f"{kit.name} turn {getattr(state, 'turn', '?')}: {text}"
                             for text in sorted(drawn & shown))
                before, shown = moment, set()
            shown |= drawn
            messages += len(drawn)
            now = clock.now_ns()
            clock.advance(frame_ms * 1_000_000 if frame_ms is not None
                          else loop.next_wake(now) - now)
    finally:
        screen.close()
        parts.firmware.close()
    assert loop.over, kit.name
    return states, messages, stale


@pytest.mark.slow
@pytest.mark.parametrize("name", games.names())
def test_no_message_outlives_its_state(tmp_path: Path, name: str) -> None:
    kit = games.load(name)
    states, messages, stale = _walk(kit, tmp_path, seed=3)
    assert states > 20, (name, states)
    if kit.display().messages:
        assert messages > 0, (name, "the demo showed none of its messages: the test is blind")
    assert not stale, stale[:10]


@pytest.mark.slow
def test_winks_call_ends_with_its_moment_at_the_kiosks_pace(tmp_path: Path) -> None:
    """The same walk, the loop stepping 30 times a second as the kiosk's does (the demo walk
    passed while the live kiosk showed Wink's last call past its moment: the camera's
    confirmations of a cell, several to a frame, made the moment the call was first drawn
    in a later one). Wink's calls must be drawn, and each only in its own moment."""
    kit = games.load("wink")
    states, messages, stale = _walk(kit, tmp_path, seed=3, frame_ms=33)
    assert states > 20 and messages > 0
    assert not stale, stale[:10]
