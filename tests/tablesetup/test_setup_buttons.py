"""Issue 28, "Buttons and lamps": each seat's press lights its lamp (gpiozero's mock pins
through the box's own firmware), a seat that never answers is named, the tie window is
measured through the test jumper with `buzzer calibrate`'s own meter and saved into the
config (comments kept); the faults: no jumper, a broken config, no config file."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from display.input import HostAction
from firmware.box import Firmware
from firmware.devices import SeatEdge
from firmware.lamps import LampMode
from tablekeeper import games
from tablekeeper.clock import FakeClock
from tablekeeper.config import Config
from tablekeeper.tablesetup import buttons as buttons_step
from tablekeeper.tablesetup.buttons import JUMPER_CHECK_NS, QUIET_S, TIE_TOGGLES, ButtonsStep
from tablekeeper.tablesetup.step import StepContext, StepStatus

CONFIG = """\
# the café's box
[firmware]
seats = 8   # all eight wired

[firmware.arbiter]
settle_ms = 10.0   # the host's own
"""


def _ctx(tmp_path: Path, firmware: Firmware | None, *, simulated: bool = True,
         text: str = CONFIG) -> StepContext:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return StepContext("something-missing", games.load("something-missing"), Config(), path,
                       tmp_path / "deck", simulated=simulated, firmware=firmware)


def _drain(firmware: Firmware, step: ButtonsStep) -> None:
    """The loop's part: the hub's seat edges to the step."""
    while not firmware.hub.queue.empty():
        event = firmware.hub.queue.get_nowait()
        if isinstance(event, SeatEdge):
            step.seat(event.seat, event.pressed, event.t_ns)


def _press(factory: Any, firmware: Firmware, seat: int, t_ns: int) -> None:
    pin = factory.pin(firmware.config.pins.seats[seat - 1])
    pin.press(t_ns)
    pin.release(t_ns + 80_000_000)


def _measure(firmware: Firmware, step: ButtonsStep) -> int:
    t = 0
    for _ in range(4 * TIE_TOGGLES):
        if step.phase != "tie_measuring":
            break
        nxt = step.next_time()
        assert nxt is not None
        t = max(t, nxt)
        step.tick(t)
        _drain(firmware, step)
    return t


def test_seats_lamps_and_the_tie_window(tmp_path: Path, factory: Any, firmware: Firmware,
                                        clock: FakeClock) -> None:
    ctx = _ctx(tmp_path, firmware)
    assert buttons_step.status(ctx) is StepStatus.OPTIONAL
    step = buttons_step.make(ctx)
    t = clock.now_ns()
    for seat in (1, 2, 3, 4, 6, 7, 8):  # seat 5's button is not wired
        assert step.wants().kind == "seat"
        _press(factory, firmware, seat, t)
        t += 200_000_000
    _drain(firmware, step)
    firmware.update(t)
    modes = firmware.lamp_modes
    assert [m is LampMode.ON for m in modes] == [True] * 4 + [False] + [True] * 3
    assert step.wants().seat == 5 and step.view().last == 8
    quiet = step.next_time()
    assert quiet is not None and quiet - t < QUIET_S * 1e9
    step.tick(quiet)
    assert step.view().silent == (5,) and step.view().problem == "setup.buttons.silent"
    _press(factory, firmware, 5, quiet + 1)  # rewired: it answers
    _drain(firmware, step)
    assert step.view().silent == () and step.view().problem is None
    assert step.wants().kind == "confirm"
    step.act(HostAction("confirm"), quiet)
    assert step.phase == "tie_ready" and firmware.lamp_test is None  # the arbiter's again
    assert step.wants().kind == "confirm"
    step.act(HostAction("confirm"), quiet)
    _measure(firmware, step)
    view = step.view()
    assert view.phase == "tie_result" and view.figures is not None
    assert view.measured == TIE_TOGGLES and view.missed == 0
    p999, most, suggested = view.figures
    assert suggested >= 10 and suggested >= most and suggested % 10 == 0 and p999 <= most
    step.act(HostAction("confirm"), 0)
    assert step.phase == "jumpers" and not step.done  # saved; now the jumpers come off
    assert step.wants().hint == "setup.buttons.jumpers"
    _check_jumpers(firmware, step)  # the simulated hands take them off
    assert (step.problem, step.params) == (None, {})
    assert _finished(step) and step.view().phase == "done"
    text = ctx.config_path.read_text("utf-8")  # type: ignore[union-attr]
    assert "# the café's box" in text and "settle_ms = 10.0   # the host's own" in text
    assert tomllib.loads(text)["firmware"]["arbiter"]["tie_window_us"] == suggested
    assert buttons_step.status(ctx) is StepStatus.DONE


def test_missing_seats_named_on_done_and_going_on_without(
        tmp_path: Path, factory: Any, firmware: Firmware) -> None:
    step = buttons_step.make(_ctx(tmp_path, firmware))
    for seat in (1, 2, 3):
        _press(factory, firmware, seat, 0)
    _drain(firmware, step)
    step.act(HostAction("confirm"), 0)
    assert step.phase == "missing" and step.view().silent == (4, 5, 6, 7, 8)
    assert step.view().params == {"seats": "4, 5, 6, 7, 8", "count": 5}
    step.act(HostAction("buttons.wait"), 0)
    assert step.phase == "seats"
    step.act(HostAction("confirm"), 0)
    assert step.wants().action == "buttons.without"
    step.act(HostAction("buttons.without"), 0)
    assert step.phase == "tie_ready"
    step.act(HostAction("buttons.skip"), 0)
    assert step.phase == "jumpers"
    _check_jumpers(firmware, step)
    assert step.done and "tie_window_us" not in ctx_text(tmp_path)


def _finished(step: ButtonsStep) -> bool:
    """``step.done`` read afresh (the assertions above narrowed it for mypy)."""
    return step.done


def _check_jumpers(firmware: Firmware, step: ButtonsStep, now: int = 0) -> None:
    """The host presses *Removed*; the output is pulled low, the seats' edges (if any) come
    back through the hub, the check ends at its deadline."""
    step.act(HostAction("confirm"), now)
    if step.phase != "jumper_check":
        return
    assert step.wants().kind == "nothing"
    _drain(firmware, step)
    deadline = step.next_time()
    assert deadline is not None and deadline - now == JUMPER_CHECK_NS
    step.tick(deadline)
    _drain(firmware, step)


def _wire_jumper(factory: Any, firmware: Firmware) -> Any:
    """A real box's jumper, as hardware.md section 4 wires it (not the set-up's simulated
    one, which the simulated hands remove): GPIO 7 to seats 1 and 2."""
    from firmware.mock import JumperMockPin

    inputs = [factory.pin(firmware.config.pins.seats[s - 1]) for s in (1, 2)]
    return factory.pin(7, pin_class=JumperMockPin, inputs=inputs)


def test_the_step_starts_neutral_and_a_seat_that_answers_leaves_the_list(
        tmp_path: Path, factory: Any, firmware: Firmware, clock: FakeClock) -> None:
    """Issue 41 (moved to 38): nobody has pressed yet, so nobody is "not answering", however
    long the screen has been up; once named, a seat that answers leaves the list."""
    step = buttons_step.make(_ctx(tmp_path, firmware))
    assert step.next_time() is None
    step.tick(clock.now_ns() + round(10 * QUIET_S * 1e9))
    view = step.view()
    assert view.silent == () and view.problem is None and view.answered == frozenset()
    assert step.wants().hint == "setup.buttons.press"
    t = clock.now_ns()
    for seat in (1, 2, 3):
        _press(factory, firmware, seat, t)
    _drain(firmware, step)
    deadline = step.next_time()
    assert deadline is not None
    step.tick(deadline)
    assert step.view().silent == (4, 5, 6, 7, 8)
    assert step.view().params == {"seats": "4, 5, 6, 7, 8", "count": 5}
    _press(factory, firmware, 5, deadline + 1)
    _drain(firmware, step)
    assert step.view().silent == (4, 6, 7, 8)
    assert step.view().params == {"seats": "4, 6, 7, 8", "count": 4}
    assert step.view().problem == "setup.buttons.silent"


def test_jumpers_left_on_are_found_and_the_step_waits(
        tmp_path: Path, factory: Any, firmware: Firmware) -> None:
    step = buttons_step.make(_ctx(tmp_path, firmware, simulated=False))
    jumper = _wire_jumper(factory, firmware)
    for seat in range(1, 9):
        step.seat(seat, True, seat)
    step.act(HostAction("confirm"), 0)
    step.act(HostAction("buttons.skip"), 0)  # no measuring: the jumpers are checked anyway
    assert step.phase == "jumpers"
    _check_jumpers(firmware, step)
    assert step.phase == "jumpers" and not step.done
    assert step.problem == "setup.buttons.jumpers_on" and step.params == {"seats": "1, 2"}
    assert firmware.buttons.pressed_seats() == frozenset()  # the output let go of, high
    jumper.inputs = []  # the host pulls them off
    _check_jumpers(firmware, step, now=10**9)
    assert step.done and step.problem is None


def test_a_seat_pressed_at_rest_is_named_before_the_jumper_check(
        tmp_path: Path, factory: Any, firmware: Firmware) -> None:
    step = buttons_step.make(_ctx(tmp_path, firmware, simulated=False))
    for seat in range(1, 9):
        step.seat(seat, True, seat)
    step.act(HostAction("confirm"), 0)
    step.act(HostAction("buttons.skip"), 0)
    stuck = factory.pin(firmware.config.pins.seats[2])
    stuck.drive_low()  # seat 3: NC wired for NO
    _drain(firmware, step)
    _check_jumpers(firmware, step)
    assert step.phase == "jumpers" and step.problem == "setup.buttons.held"
    assert step.params == {"seats": "3", "count": 1}
    stuck.drive_high()
    _drain(firmware, step)
    _check_jumpers(firmware, step, now=10**9)
    assert step.done


def ctx_text(tmp_path: Path) -> str:
    return (tmp_path / "config.toml").read_text("utf-8")


def test_no_jumper_is_said(tmp_path: Path, factory: Any, firmware: Firmware) -> None:
    step = buttons_step.make(_ctx(tmp_path, firmware, simulated=False))  # nothing wired
    step.act(HostAction("confirm"), 0)
    step.act(HostAction("buttons.without"), 0)
    step.act(HostAction("confirm"), 0)
    _measure(firmware, step)
    assert step.phase == "tie_ready" and step.problem == "setup.buttons.no_edges"
    assert step.view().missed == TIE_TOGGLES and step.wants().kind == "nothing"


def test_a_broken_config_keeps_the_measurement(tmp_path: Path, factory: Any,
                                               firmware: Firmware) -> None:
    broken = CONFIG + "[firmware\n"
    ctx = _ctx(tmp_path, firmware, text=broken)
    step = buttons_step.make(ctx)
    for seat in range(1, 9):
        _press(factory, firmware, seat, 0)
    _drain(firmware, step)
    step.act(HostAction("confirm"), 0)
    step.act(HostAction("confirm"), 0)
    _measure(firmware, step)
    step.act(HostAction("confirm"), 0)
    assert step.problem == "setup.config.broken" and not step.done
    assert ctx_text(tmp_path) == broken
    assert step.phase == "tie_result" and step.view().figures is not None


def test_without_firmware_or_config_file(tmp_path: Path) -> None:
    ctx = StepContext("wink", games.load("wink"), Config(), None, tmp_path / "deck")
    step = buttons_step.make(ctx)
    assert step.seats == 8 and not step.view().tie_available
    for seat in range(1, 9):
        step.seat(seat, True, seat)
    step.act(HostAction("confirm"), 0)
    step.act(HostAction("confirm"), 0)  # no output to measure with: done
    assert step.done
