"""Seat/host buttons on gpiozero's MockFactory, the keyboard stand-in, and the input hub."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest
from gpiozero.pins import Factory

from firmware.arbiter import Arbiter
from firmware.config import FirmwareConfig
from firmware.devices import (
    GpioButtons,
    HostButton,
    HostPress,
    InputHub,
    KeyboardButtons,
    SeatEdge,
    check_pin_factory,
    ticks_to_ns,
)
from firmware.mock import StampedMockPin, mock_factory

MS = 1_000_000
US = 1_000
CFG = FirmwareConfig()


class FakeClock:
    def __init__(self, now: int) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


def rig(config: FirmwareConfig = CFG) -> tuple[Any, GpioButtons, InputHub, Arbiter, FakeClock]:
    factory = mock_factory()
    clock = FakeClock(time.monotonic_ns())
    arbiter = Arbiter(config.seats, config.arbiter, rng=random.Random(5), clock=clock)
    hub = InputHub(arbiter)
    buttons = GpioButtons(config, hub, factory)
    return factory, buttons, hub, arbiter, clock


def seat_pin(factory: Any, seat: int, config: FirmwareConfig = CFG) -> StampedMockPin:
    pin: StampedMockPin = factory.pin(config.pins.seats[seat - 1])
    return pin


def test_ticks_round_trip_at_large_uptimes() -> None:
    for t in (0, 1, 123_456_789, 10**15 + 7, 3 * 10**16 + 1):  # up to a year of uptime
        assert abs(ticks_to_ns(t / 1e9) - t) <= 4


def test_callback_order_opposite_to_edge_order_through_gpiozero() -> None:
    factory, buttons, hub, arbiter, clock = rig()
    with buttons:
        t = clock.now
        arbiter.arm(t)
        seat_pin(factory, 2).press(t + 1_300 * US)  # seat 2's callback comes first
        seat_pin(factory, 1).press(t + 1_000 * US)  # but seat 1 pressed 300 us earlier
        d = arbiter.poll(t + 20 * MS)
        assert d is not None and (d.winner, d.runner_up, d.margin_us) == (1, 2, 300.0)
        assert hub.drain() == [SeatEdge(2, True, t + 1_300 * US), SeatEdge(1, True, t + 1_000 * US)]


def test_plain_drive_low_is_stamped_with_the_edge_time() -> None:
    factory, buttons, hub, _, _ = rig()
    with buttons:
        before = time.monotonic_ns()
        seat_pin(factory, 4).drive_low()
        after = time.monotonic_ns()
        seat_pin(factory, 4).drive_high()
        events = hub.drain()
        assert [(e.seat, e.pressed) for e in events if isinstance(e, SeatEdge)] == [
            (4, True), (4, False)]
        assert before - 1_000 <= events[0].t_ns <= after + 1_000


def test_presses_from_two_threads_at_once() -> None:
    for round_ in range(20):
        factory, buttons, _, arbiter, clock = rig()
        with buttons:
            t = clock.now
            arbiter.arm(t)
            stamps = {1: t + 2 * MS, 8: t + 2 * MS + (round_ + 1) * 150 * US}
            barrier = threading.Barrier(2)

            def go(seat: int, factory: Any = factory, barrier: threading.Barrier = barrier,
                   stamps: dict[int, int] = stamps) -> None:
                pin = seat_pin(factory, seat)
                barrier.wait()
                pin.press(stamps[seat])

            threads = [threading.Thread(target=go, args=(s,)) for s in (8, 1)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            d = arbiter.poll(t + 100 * MS)
            assert d is not None and (d.winner, d.runner_up) == (1, 8)
            assert d.margin_us == (round_ + 1) * 150


def test_bounce_train_on_a_pin_keeps_the_first_contact_time() -> None:
    factory, buttons, hub, arbiter, clock = rig()
    with buttons:
        t = clock.now
        arbiter.arm(t)
        pin = seat_pin(factory, 3)
        for k in range(7):  # down, up, down, ... 150 us apart
            (pin.press if k % 2 == 0 else pin.release)(t + 5 * MS + k * 150 * US)
        seat_pin(factory, 6).press(t + 5 * MS + 400 * US)
        d = arbiter.poll(t + 50 * MS)
        assert d is not None and (d.winner, d.t_ns, d.runner_up) == (3, t + 5 * MS, 6)
        assert len(hub.drain()) == 8


def test_early_press_and_held_button_through_gpiozero() -> None:
    factory, buttons, _, arbiter, clock = rig()
    with buttons:
        t = clock.now
        seat_pin(factory, 1).press(t - 100 * MS)  # early: locked out
        seat_pin(factory, 1).release(t - 50 * MS)
        seat_pin(factory, 2).press(t - 3_000 * MS)  # held through arming
        arbiter.arm(t)
        seat_pin(factory, 1).press(t + 10 * MS)
        seat_pin(factory, 5).press(t + 30 * MS)
        d = arbiter.poll(t + 100 * MS)
        assert d is not None and (d.winner, d.locked_out, d.held) == (5, (1,), (2,))


def test_host_buttons_send_host_presses_on_press_only() -> None:
    factory, buttons, hub, _, clock = rig()
    with buttons:
        t = clock.now
        for k, action in enumerate(HostButton):
            pin: StampedMockPin = factory.pin(getattr(CFG.pins, action.value))
            pin.press(t + k)
            pin.release(t + k + 50 * MS)
        assert hub.drain() == [HostPress(HostButton.CONFIRM, t), HostPress(HostButton.BACK, t + 1),
                               HostPress(HostButton.NEXT, t + 2)]


def test_a_seat_held_at_start_is_reported_as_down() -> None:
    factory = mock_factory()
    factory.pin(CFG.pins.seats[6]).held = True  # seat 7 is held (or stuck) before we start
    got: list[Any] = []
    with GpioButtons(CFG, got.append, factory) as buttons:
        assert buttons.pressed_seats() == {7}
        assert [(e.seat, e.pressed) for e in got] == [(7, True)]


def test_only_configured_seats_are_claimed() -> None:
    config = FirmwareConfig.from_dict({"seats": 3})
    factory = mock_factory()
    with GpioButtons(config, lambda e: None, factory) as buttons:
        assert len(buttons.seats) == 3 and len(buttons.host) == 3


def test_a_pin_factory_without_kernel_timestamps_is_refused() -> None:
    class RPiGPIOFactory(Factory):  # type: ignore[misc]  # stands for any non-lgpio factory
        pass

    with pytest.raises(RuntimeError, match=r"pin factory is RPiGPIOFactory; tablekeeper needs "
                                           r"lgpio"):
        check_pin_factory(RPiGPIOFactory())
    with pytest.raises(RuntimeError, match="needs lgpio"):
        GpioButtons(CFG, lambda e: None, RPiGPIOFactory())
    factory = mock_factory()
    assert check_pin_factory(factory) is factory


def test_keyboard_buttons_send_the_same_events() -> None:
    got: list[Any] = []
    kb = KeyboardButtons(4, got.append)
    assert kb.key_event("3", True, 100)
    assert kb.key_event("3", True, 101)  # key repeat: ignored
    assert kb.pressed_seats() == {3}
    assert kb.key_event("3", False, 200)
    assert kb.key_event("[2]", True, 300)  # number pad
    assert kb.key_event("Return", True, 400)
    assert kb.key_event("return", False, 450)
    assert kb.key_event("backspace", True, 500)
    assert kb.key_event("space", True, 600)
    assert not kb.key_event("5", True, 700)  # only 4 seats
    assert not kb.key_event("a", True, 800)
    assert got == [SeatEdge(3, True, 100), SeatEdge(3, False, 200), SeatEdge(2, True, 300),
                   HostPress(HostButton.CONFIRM, 400), HostPress(HostButton.BACK, 500),
                   HostPress(HostButton.NEXT, 600)]


def test_hub_feeds_the_arbiter_and_the_queue_and_a_callback() -> None:
    clock = FakeClock(10**12)
    arbiter = Arbiter(2, rng=random.Random(1), clock=clock)
    seen: list[Any] = []
    hub = InputHub(arbiter, seen.append)
    arbiter.arm(clock.now)
    hub(SeatEdge(2, True, clock.now + MS))
    hub(HostPress(HostButton.NEXT, clock.now + 2 * MS))
    assert hub.get(timeout=0) == SeatEdge(2, True, clock.now + MS)
    assert hub.drain() == [HostPress(HostButton.NEXT, clock.now + 2 * MS)]
    assert hub.get(timeout=0) is None and len(seen) == 2
    d = arbiter.poll(clock.now + 50 * MS)
    assert d is not None and d.winner == 2


def test_keyboard_takes_seat_numbers_directly() -> None:
    got: list[Any] = []
    kb = KeyboardButtons(3, got.append)
    assert kb.seat_event(1, True, 10) and kb.seat_event(1, False, 20)
    assert kb.seat_event(3, True, 30)
    assert not kb.seat_event(4, True, 40) and not kb.seat_event(0, True, 50)
    assert got == [SeatEdge(1, True, 10), SeatEdge(1, False, 20), SeatEdge(3, True, 30)]


def test_realtime_stamped_edges_are_moved_to_the_monotonic_clock(
        caplog: pytest.LogCaptureFixture) -> None:
    factory, buttons, hub, _, _ = rig()
    with buttons, caplog.at_level("WARNING", logger="firmware.devices"):
        before = time.monotonic_ns()
        seat_pin(factory, 1).press(time.time_ns())  # as if the library asked for REALTIME
        after = time.monotonic_ns()
        seat_pin(factory, 1).release(time.time_ns())
        events = hub.drain()
        assert all(before - 50 * MS <= e.t_ns <= after + 50 * MS for e in events[:1])
        assert len(events) == 2 and events[1].t_ns >= events[0].t_ns
    # Arbitrary test times far from both clocks are left alone.
    factory, buttons, hub, _, _ = rig()
    with buttons:
        seat_pin(factory, 1).press(5 * 10**15)
        assert hub.drain()[0].t_ns == 5 * 10**15
