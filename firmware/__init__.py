"""GPIO: seat buttons, seat lamps, host buttons, sounds, and the fair first-press arbiter.

Everything is on one clock: ``int`` nanoseconds, CLOCK_MONOTONIC (``time.monotonic_ns()``,
lgpio's kernel edge timestamps, picamera2's frame timestamps). Seats are numbered 1..seats.

Public API (for the integrator)::

    from firmware.config import FirmwareConfig        # the [firmware] section
    cfg = FirmwareConfig.from_dict(toml["firmware"])  # ValueError naming the key

    from firmware.box import build, Firmware
    fw = build(cfg, pin_factory=None)   # None = gpiozero's default (lgpio on the Pi; a clear
                                        # RuntimeError if another factory is active); tests pass
                                        # firmware.mock.mock_factory() (gpiozero's MockFactory)
    # backend "keyboard": no pins; the app feeds pygame keys (1-8 seats, Enter/Backspace/Space
    # = confirm/back/next):
    fw.key_event(pygame.key.name(ev.key), ev.type == pygame.KEYDOWN, time.monotonic_ns())
    fw.seat_event(seat_input.seat + 1, seat_input.pressed, t_ns)  # display's SeatInput (0-based)
    # NB: firmware seats are 1..seats; the engine's seats are 0..n-1: BuzzWon(seat=winner - 1).

    # Inputs: seat edges go straight to the arbiter (from the callback thread) and every event
    # is queued: firmware.devices.SeatEdge(seat, pressed, t_ns) | HostPress(action, t_ns),
    # action a HostButton (CONFIRM, BACK, NEXT).
    for event in fw.hub.drain(): ...          # or fw.hub.get(timeout)
    # build(..., also=callback) also calls callback(event) for each event, in the input thread.

    # The arbiter (firmware.arbiter.Arbiter):
    fw.arbiter.arm(frame_t_ns, exclude=())    # the instant the card was seen (may be past)
    decision = fw.update(now_ns)   # each frame: arbiter.poll + win sound + lamps; returns the
                                   # Decision once, when taken (else None)
    fw.arbiter.disarm()
    fw.arbiter.status(now_ns)      # ArbiterStatus: phase, pressed, locked_out, stuck seats
    # Decision: winner, t_ns, armed_ns, decided_ns, runner_up, runner_up_t_ns, margin_us,
    #           tie, tied, locked_out, held, reaction_ms

    # Lamps and sound, if driven by hand rather than by update():
    fw.lamps.show(LampState(armed=True, winner=None, locked_out=frozenset({3})))
    fw.lamp_modes                  # tuple of LampMode per seat, for drawing virtual lamps
    fw.sound.play()                # build() already called fw.sound.prepare() (mixer start)
    fw.close()

    # Simulated hardware (demo, tests): gpiozero's MockFactory with timestamped pins.
    from firmware.mock import mock_factory
    factory = mock_factory()
    fw = build(cfg, factory)
    factory.pin(cfg.pins.seats[seat - 1]).press(t_ns)     # .release(t_ns); or .drive_low()

    # Journal/log: Decision.to_dict() gives JSON-ready values.

Modules: ``arbiter`` (pure logic), ``config``, ``devices`` (gpiozero buttons, keyboard, hub),
``lamps``, ``sound``, ``box`` (build), ``mock`` (stamped MockPins), ``bench``, ``calibrate``,
``cli`` (``tablekeeper bench buzzer``, ``tablekeeper buzzer calibrate|test``).
"""
