"""``tablekeeper buzzer test``: presses shown live in the terminal, races decided as they come.

On the GPIO backend it uses the real buttons and lamps; on the keyboard backend it reads the
terminal (keys 1-8; Enter, Backspace, Space), where each key is a press and an immediate release.
The arbiter is armed at start and re-armed 2 s after each decision.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from firmware.arbiter import Decision
from firmware.box import Firmware, build
from firmware.config import FirmwareConfig
from firmware.devices import InputEvent, SeatEdge

REARM_NS = 2_000_000_000


def describe(event: InputEvent, t0_ns: int) -> str:
    t = (event.t_ns - t0_ns) / 1e6
    if isinstance(event, SeatEdge):
        what = "down" if event.pressed else "up"
        return f"{t:12.3f} ms  seat {event.seat} {what}"
    return f"{t:12.3f} ms  host {event.action.value}"


def describe_decision(d: Decision) -> str:
    text = f"WINNER seat {d.winner} after {d.reaction_ms:.1f} ms"
    if d.tie:
        text += f" (tie between seats {', '.join(map(str, d.tied))}, drawn by lot)"
    if d.runner_up is not None and d.margin_us is not None:
        text += f"; runner-up seat {d.runner_up} by {d.margin_us:.0f} us"
    if d.locked_out:
        text += f"; locked out: {', '.join(map(str, d.locked_out))}"
    if d.held:
        text += f"; held down at arming: {', '.join(map(str, d.held))}"
    return text


def session(fw: Firmware, *, now: Callable[[], int], out: Callable[[str], None],
            keys: Callable[[], list[str]] | None = None, seconds: float = 0.0,
            wait: Callable[[], None] = lambda: time.sleep(0.005)) -> int:
    """The loop, with its clock, output and key source injected (tested with a fake clock)."""
    t0 = now()
    fw.arbiter.arm(t0)
    out("armed: press a seat button (Ctrl-C to stop)")
    rearm_at: int | None = None
    reported_stuck: frozenset[int] = frozenset()
    while seconds <= 0 or now() - t0 < seconds * 1e9:
        if keys is not None:
            for key in keys():
                t = now()
                fw.key_event(key, True, t)
                fw.key_event(key, False, t + 1)
        for event in fw.hub.drain():
            out(describe(event, t0))
        t = now()
        decision = fw.update(t)
        if decision is not None:
            out(describe_decision(decision))
            rearm_at = t + REARM_NS
        stuck = fw.status(t).stuck
        if stuck != reported_stuck and stuck:
            out(f"stuck button(s): seat {', '.join(map(str, sorted(stuck)))}")
        reported_stuck = stuck
        if rearm_at is not None and t >= rearm_at:
            fw.arbiter.arm(t)
            rearm_at = None
            out("armed again")
        wait()
    return 0


_TERMINAL_KEYS = {"\r": "return", "\n": "return", "\x7f": "backspace", "\b": "backspace",
                  " ": "space"}


class NoTerminal(RuntimeError):
    """The keyboard backend was asked to read keys where standard input is not a terminal."""


def run(config: FirmwareConfig, seconds: float = 0.0, pin_factory: Any | None = None) -> int:
    if config.backend == "keyboard" and not _is_terminal(sys.stdin):
        raise NoTerminal("the keyboard backend reads the keys 1-8 (seats) and Enter / Esc / "
                         "→ (host) from a terminal, and standard input is not one: run it in "
                         "a terminal, or with backend = \"gpio\" on the box")
    with build(config, pin_factory) as fw:
        if config.backend != "keyboard":
            return session(fw, now=time.monotonic_ns, out=print, seconds=seconds)
        import select
        import termios
        import tty

        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)

        def keys() -> list[str]:
            got = []
            while select.select([fd], [], [], 0)[0]:
                ch = sys.stdin.read(1)
                got.append(_TERMINAL_KEYS.get(ch, ch))
            return got

        tty.setcbreak(fd)
        try:
            return session(fw, now=time.monotonic_ns, out=print, keys=keys, seconds=seconds)
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, ValueError, OSError):  # closed, or no real file
        return False
