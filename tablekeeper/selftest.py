"""``tablekeeper selftest``: walk through the box's hardware and print pass/fail per item.

Run it on the Pi with the kiosk stopped (the kiosk owns the GPIO lines, the camera and the
screen while it runs)::

    sudo systemctl stop tablekeeper-kiosk
    sudo -u tablekeeper /opt/tablekeeper/venv/bin/tablekeeper selftest \\
        --config /var/lib/tablekeeper/config.toml
    sudo systemctl start tablekeeper-kiosk

Interactive (the default), a person at the box is asked to act and to say what they saw:

- **seat buttons and lamps**: lamp N alone is lit and the person presses button N; a press
  of another seat fails the item and names it (swapped wires), no press within the timeout
  fails it too; then "was only lamp N lit?";
- **host buttons**: press confirm / back / next;
- **sound**: the win tone plays; "did you hear it?";
- **camera**: the person lays the test card in the middle; a frame is checked for
  brightness, clipping (exposure) and sharpness (focus), and the card must be recognised;
- **screen**: a test pattern (colour bars and 什麼不見啦 in the TC font); "do you see it?".

``--auto`` runs only what needs nobody: buttons read *released* at rest (a stuck button or
a short to GND fails), lamp outputs switch, the sound plays without error, the camera frame
and card check on whatever is in view, the screen opens and the font has every glyph.
Items that need a person are reported as SKIP. The exit code is 1 if any item failed, 78 if
a setting of the config is bad (one line on stderr naming the file, the key and what is
wanted, as the units' exit 78; nothing is checked until it is fixed), 2 for a bad option.

The logic takes its parts (firmware, camera, screen, a person) as parameters, so the tests run
it against gpiozero's ``MockFactory``, the simulated camera and the dummy SDL driver.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ground.files import SETTINGS_BYTES, read_regular

if TYPE_CHECKING:
    import numpy as np

    from firmware.box import Firmware

__all__ = [
    "CameraThresholds",
    "FrameQuality",
    "Person",
    "Result",
    "SelfTest",
    "TerminalPerson",
    "Verdict",
    "frame_quality",
    "register",
]


class Verdict(Enum):
    PASS = "PASS"
    FAIL = "FAIL"
    SKIP = "SKIP"
    WARN = "WARN"  # works, but not as the box should run (exit code 0)


@dataclass(frozen=True)
class Result:
    item: str
    outcome: Verdict
    detail: str

    def line(self) -> str:
        return f"{self.outcome.value:<4}  {self.item:<24} {self.detail}"


class Person(Protocol):
    """Whoever stands at the box during an interactive self-test."""

    def tell(self, text: str) -> None:
        """Show an instruction ("press the lit button")."""

    def ask(self, question: str) -> bool | None:
        """A yes/no question; None when there is no answer."""


class TerminalPerson:
    """A person at the terminal: instructions printed, answers read from stdin."""

    def __init__(self, out: Callable[[str], None] = print,
                 read: Callable[[str], str] = input) -> None:
        self._out = out
        self._read = read

    def tell(self, text: str) -> None:
        self._out(text)

    def ask(self, question: str) -> bool | None:
        while True:
            try:
                answer = self._read(f"{question} [y/n] ").strip().lower()
            except EOFError:
                return None
            if answer in ("y", "yes", "是", "對"):
                return True
            if answer in ("n", "no", "否", "不"):
                return False
            self._out("請回答 y 或 n / please answer y or n")


@dataclass(frozen=True)
class CameraThresholds:
    """What a usable frame looks like (measured on the simulated table: ``tests/kiosk``)."""

    #: the brightest 1 % (a white card) must reach this grey level: else too dark
    min_highlights: float = 100.0
    #: at most this share of pixels at 250-255 (blown out: glare, over-exposure)
    max_blown: float = 0.02
    #: edge steepness (see :func:`frame_quality`); a card in focus gives 0.3-0.4, a blur of
    #: 3 px at 640 px width about 0.1
    min_focus: float = 0.2


@dataclass(frozen=True)
class FrameQuality:
    brightness: float  # mean grey level
    highlights: float  # 99th percentile grey level
    crushed: float  # share of pixels at 0-5
    blown: float  # share of pixels at 250-255
    focus: float  # edge steepness, 0 (no edges) .. about 0.5 (a perfect step)


def frame_quality(grey: np.ndarray[Any, Any]) -> FrameQuality:
    """Exposure and focus figures of a greyscale frame (resized to 640 px wide first, so the
    focus figure does not depend on the camera's resolution).

    Focus is the steepness of the strongest edges: the 99.5th percentile of the Sobel gradient
    magnitude divided by 8x the frame's contrast (99.9th minus 0.1th percentile; 8 is the
    Sobel kernel's gain for a one-pixel step). It needs an edge in view (a card), does not
    depend on exposure or on the table's colour, and sensor noise hardly moves it (a
    Laplacian-variance measure rises with noise).
    """
    import cv2
    import numpy as np

    if grey.ndim != 2 or grey.size == 0:
        raise ValueError(f"frame_quality: expected a greyscale image, got shape {grey.shape}")
    h, w = grey.shape
    if w != 640:
        grey = cv2.resize(grey, (640, max(1, round(h * 640 / w))), interpolation=cv2.INTER_AREA)
    g = grey.astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    lo, hi, top = np.percentile(g, [0.1, 99.9, 99.0])
    contrast = max(float(hi - lo), 1.0)
    n = grey.size
    return FrameQuality(
        brightness=float(g.mean()),
        highlights=float(top),
        crushed=float(np.count_nonzero(grey <= 5)) / n,
        blown=float(np.count_nonzero(grey >= 250)) / n,
        focus=float(np.percentile(np.hypot(gx, gy), 99.5)) / (8 * contrast),
    )


class Screen(Protocol):
    def open(self) -> str:
        """Open the display; a description (driver, size). Raises on failure."""

    def show_test_pattern(self) -> str:
        """Draw colour bars and TC text; return the font's description. Raises if the font
        lacks glyphs (with the missing characters named)."""

    def close(self) -> None: ...


def _screen_text() -> str:
    """What the screen check draws: strings the screens show (the UI table of
    :mod:`display.i18n`, both languages) and the digits of the scores and timers."""
    from display.i18n import tr

    return " ".join([tr("game.title", "zh-TW"), tr("btn.new_game", "zh-TW"),
                     tr("game.title", "en"), "0123456789"])


#: Text the screen check draws; every character must be in the font.
SCREEN_TEXT = _screen_text()


class SelftestScreen:
    """The real screen: pygame's display (KMSDRM on the Pi) and display.fonts' TC face."""

    def __init__(self, size: tuple[int, int] | None = None, rotate: int = 0) -> None:
        self.size = size
        #: ``[screen] rotate``: the pattern is drawn upright and turned onto the panel, as the
        #: kiosk draws its screens (display.rotation)
        self.rotate = rotate
        self._surface: Any = None
        self._panel: Any = None

    def open(self) -> str:
        import pygame

        from display.rotation import logical_size

        pygame.display.init()
        flags = 0 if self.size else pygame.FULLSCREEN
        self._panel = pygame.display.set_mode(self.size or (0, 0), flags)
        w, h = self._panel.get_size()
        self._surface = (pygame.Surface(logical_size((w, h), self.rotate)) if self.rotate
                         else self._panel)
        turned = f", picture turned {self.rotate} degrees ([screen] rotate)" if self.rotate else ""
        return f"{pygame.display.get_driver()} {w}x{h}{turned}"

    def show_test_pattern(self) -> str:
        import pygame

        from display.fonts import FontBook

        surface = self._surface
        w, h = surface.get_size()
        bars = [(255, 255, 255), (255, 255, 0), (0, 255, 255), (0, 255, 0), (255, 0, 255),
                (255, 0, 0), (0, 0, 255), (0, 0, 0)]
        for i, colour in enumerate(bars):
            pygame.draw.rect(surface, colour, (i * w // 8, 0, w // 8 + 1, h * 2 // 3))
        surface.fill((20, 20, 20), (0, h * 2 // 3, w, h - h * 2 // 3))
        book = FontBook()
        face = book.faces["bold"]
        missing = book.missing_glyphs(SCREEN_TEXT)
        if missing:
            codes = ", ".join(f"U+{ord(c):04X}" for c in missing)
            raise RuntimeError(f"font {face.name} ({face.source}) has no glyph for {missing} "
                               f"({codes}): install fonts-noto-cjk")
        font = book.font("bold", max(16, h // 14))
        font.render_to(surface, (w // 20, h * 2 // 3 + h // 12), SCREEN_TEXT, (240, 240, 240))
        if self.rotate:
            from display.rotation import to_panel

            self._panel.blit(to_panel(surface, self.rotate), (0, 0))
        pygame.display.flip()
        return f"{face.name} ({face.source})"

    def close(self) -> None:
        import pygame

        pygame.display.quit()


@dataclass
class SelfTest:
    """The checks; each part is optional (None: its items are reported as SKIP)."""

    firmware: Firmware | None = None
    camera: Any = None  # a vision.camera.Camera, unstarted
    screen: Screen | None = None
    #: None: --auto (nobody at the box)
    person: Person | None = None
    #: card id -> recognised? ``recognise(frame) -> card id or None``
    recognise: Callable[[Any], str | None] | None = None
    test_card: str | None = None
    timeout_s: float = 15.0
    thresholds: CameraThresholds = field(default_factory=CameraThresholds)
    #: frames to take before the one that is judged (exposure settles)
    frames: int = 5

    def run(self, only: Sequence[str] = ("buttons", "host", "sound", "camera", "screen")
            ) -> list[Result]:
        results: list[Result] = []
        steps: dict[str, Callable[[], list[Result]]] = {
            "buttons": self.check_seats, "host": self.check_host, "sound": self.check_sound,
            "camera": self.check_camera, "screen": self.check_screen,
        }
        for name in only:
            try:
                results.extend(steps[name]())
            except Exception as exc:  # one broken part must not hide the others' report
                results.append(Result(name, Verdict.FAIL, f"{type(exc).__name__}: {exc}"))
        return results

    # --- GPIO ------------------------------------------------------------------------------

    def _gpio(self) -> Any:
        """The GpioButtons, or None (no firmware or the keyboard backend)."""
        from firmware.devices import GpioButtons

        if self.firmware is None or not isinstance(self.firmware.buttons, GpioButtons):
            return None
        return self.firmware.buttons

    def _wait(self, accept: Callable[[Any], bool | None]) -> tuple[bool | None, Any]:
        """Wait for an input event that ``accept`` decides on (True/False); None: ignore it.
        Returns (decision or None on timeout, the event)."""
        assert self.firmware is not None
        deadline = time.monotonic() + self.timeout_s
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None, None
            event = self.firmware.hub.get(timeout=left)
            if event is None:
                return None, None
            verdict = accept(event)
            if verdict is not None:
                return verdict, event

    def check_seats(self) -> list[Result]:
        from firmware.devices import SeatEdge

        buttons = self._gpio()
        if buttons is None:
            why = "no firmware" if self.firmware is None else "keyboard backend: no GPIO"
            return [Result("seat buttons", Verdict.SKIP, why)]
        assert self.firmware is not None
        leds: list[Any] = list(self.firmware.lamps.leds)
        for led in leds:
            led.off()
        results: list[Result] = []
        seats = len(buttons.seats)
        jumpers = jumper_result(self.firmware)
        if jumpers is not None:
            results.append(jumpers)
        if self.person is None:
            held = buttons.pressed_seats()
            for seat in range(1, seats + 1):
                if seat in held:
                    results.append(Result(f"seat {seat} button at rest", Verdict.FAIL,
                                          "reads pressed with nobody pressing: stuck switch, "
                                          "NC instead of NO, or a short to GND"))
                else:
                    results.append(Result(f"seat {seat} button at rest", Verdict.PASS,
                                          "released (a press needs a person: run without "
                                          "--auto)"))
            for seat, led in enumerate(leds, start=1):
                led.on()
                on = bool(led.is_lit)
                led.off()
                off = not led.is_lit
                results.append(Result(
                    f"seat {seat} lamp output", Verdict.PASS if on and off else Verdict.FAIL,
                    "switches on and off (the lamp itself needs a person to see it)"
                    if on and off else "the output did not follow"))
            if not leds:
                results.append(Result("seat lamps", Verdict.SKIP, "no lamp pins configured"))
            return results
        person = self.person
        for seat in range(1, seats + 1):
            lamp = leds[seat - 1] if seat <= len(leds) else None
            if lamp is not None:
                lamp.on()
            self.firmware.hub.drain()
            person.tell(f"座位 {seat}：請按下亮著的按鈕 / seat {seat}: press the lit button")

            def accept(event: Any, seat: int = seat) -> bool | None:
                if isinstance(event, SeatEdge) and event.pressed:
                    return event.seat == seat
                return None

            verdict, event = self._wait(accept)
            if verdict is None:
                results.append(Result(f"seat {seat} button", Verdict.FAIL,
                                      f"no press within {self.timeout_s:g} s: check the wiring, "
                                      "the pin in [firmware.pins] and the gpio group"))
            elif verdict:
                results.append(Result(f"seat {seat} button", Verdict.PASS, "pressed"))
            else:
                results.append(Result(
                    f"seat {seat} button", Verdict.FAIL,
                    f"seat {event.seat}'s button answered instead: wires or pins of seats "
                    f"{seat} and {event.seat} swapped?"))
            if lamp is None:
                results.append(Result(f"seat {seat} lamp", Verdict.SKIP,
                                      "no lamp pin configured for this seat"))
            else:
                seen = person.ask(f"只有燈 {seat} 亮嗎？ / was only lamp {seat} lit?")
                results.append(self._answer(f"seat {seat} lamp", seen, "lit alone",
                                            "not lit alone: check the driver channel, the "
                                            "12 V supply and the joined grounds"))
                lamp.off()
        return results

    def check_host(self) -> list[Result]:
        from firmware.devices import HostButton, HostPress

        if self._gpio() is None:
            return [Result("host buttons", Verdict.SKIP,
                           "no firmware" if self.firmware is None else "keyboard backend")]
        if self.person is None:
            return [Result("host buttons", Verdict.SKIP, "a press needs a person (--auto)")]
        names = {HostButton.CONFIRM: "確認 confirm", HostButton.BACK: "返回 back",
                 HostButton.NEXT: "下一步 next"}
        results = []
        assert self.firmware is not None
        for action in HostButton:
            self.firmware.hub.drain()
            self.person.tell(f"請按主持人按鈕「{names[action]}」/ press the host button "
                             f"{action.value}")

            def accept(event: Any, action: HostButton = action) -> bool | None:
                return event.action is action if isinstance(event, HostPress) else None

            verdict, event = self._wait(accept)
            item = f"host {action.value}"
            if verdict is None:
                results.append(Result(item, Verdict.FAIL,
                                      f"no press within {self.timeout_s:g} s"))
            elif verdict:
                results.append(Result(item, Verdict.PASS, "pressed"))
            else:
                results.append(Result(item, Verdict.FAIL,
                                      f"the {event.action.value} button answered instead"))
        return results

    # --- sound -----------------------------------------------------------------------------

    def check_sound(self) -> list[Result]:
        if self.firmware is None:
            return [Result("sound", Verdict.SKIP, "no firmware")]
        kind = self.firmware.config.sound.kind
        if kind not in ("pygame", "piezo"):
            return [Result("sound", Verdict.SKIP, f"sound.kind = {kind!r}: no sound")]
        self.firmware.sound.play()
        if kind == "pygame":
            import pygame

            device = self.firmware.config.sound.device
            if pygame.mixer.get_init() is None:
                named = (f"[firmware.sound] device = {device!r} could not be opened (`aplay "
                         "-L` lists ALSA's devices)" if device else
                         "no sound device (a USB adapter is not ALSA's default: name it in "
                         "[firmware.sound] device)")
                return [Result("sound", Verdict.FAIL,
                               f"the audio mixer did not start: {named}, or the user is not "
                               "in the audio group")]
            from firmware.sound import opened, output_names

            how = opened[0] if opened else "an output opened elsewhere"
            names = output_names()
            results = [Result("sound device", Verdict.PASS,
                              f"plays on {how}; outputs: {', '.join(names) or 'none listed'}"
                              " ([firmware.sound] device names one)")]
        else:
            results = []
        where = "the audio output" if kind == "pygame" else "the piezo"
        if self.person is None:
            return [*results, Result("sound", Verdict.PASS,
                                     f"played on {where} without error (hearing it needs a "
                                     "person)")]
        heard = self.person.ask("聽到提示音了嗎？ / did you hear the tone?")
        return [*results, self._answer("sound", heard, f"heard on {where}",
                                       "not heard: speaker, volume, or the HDMI/USB audio "
                                       "device ([firmware.sound] device)")]

    # --- camera ----------------------------------------------------------------------------

    def check_camera(self) -> list[Result]:
        import cv2

        if self.camera is None:
            return [Result("camera", Verdict.SKIP, "no camera configured")]
        if self.person is not None:
            card = f" ({self.test_card})" if self.test_card else ""
            self.person.tell(f"請把測試卡{card}放在桌子中央 / lay the test card{card} in the "
                             "middle of the table")
            ready = self.person.ask("放好了嗎？ / is it there?")
            if not ready:
                return [Result("camera", Verdict.SKIP, "no test card laid down")]
        cam = self.camera
        try:
            cam.configure()
            cam.start()
        except Exception as exc:
            return [Result("camera", Verdict.FAIL,
                           f"did not start: {exc} (cable, camera_auto_detect, video group)")]
        try:
            frame = None
            for _ in range(max(1, self.frames)):
                frame = cam.capture()
        except Exception as exc:
            cam.close()
            return [Result("camera", Verdict.FAIL, f"no frame: {exc}")]
        cam.close()
        assert frame is not None
        mode = camera_mode_result(cam)
        grey = frame.grey if frame.grey is not None else cv2.cvtColor(frame.image,
                                                                       cv2.COLOR_BGR2GRAY)
        q = frame_quality(grey)
        t = self.thresholds
        h, w = frame.image.shape[:2]
        results = [Result("camera frame", Verdict.PASS, f"{w}x{h}, frame {frame.seq}")]
        if mode is not None:
            results.append(mode)
        levels = f"mean {q.brightness:.0f}, highlights {q.highlights:.0f}, {q.blown:.1%} blown out"
        if q.highlights < t.min_highlights:
            results.append(Result("camera exposure", Verdict.FAIL,
                                  f"too dark ({levels}): more light on the table, lens cap?"))
        elif q.blown > t.max_blown:
            results.append(Result("camera exposure", Verdict.FAIL,
                                  f"blown out ({levels}): glare or a lamp in view?"))
        else:
            results.append(Result("camera exposure", Verdict.PASS, levels))
        if q.focus >= t.min_focus:
            results.append(Result("camera focus", Verdict.PASS, f"edge steepness {q.focus:.2f}"))
        else:
            results.append(Result("camera focus", Verdict.FAIL,
                                  f"blurred (edge steepness {q.focus:.2f} < {t.min_focus:g}): "
                                  "focus the lens, or no card in view"))
        if self.recognise is None:
            results.append(Result("test card", Verdict.SKIP, "no deck to recognise it with"))
        else:
            seen = self.recognise(frame)
            if seen is None:
                results.append(Result("test card", Verdict.FAIL, "no card recognised"))
            elif self.test_card is not None and seen != self.test_card:
                results.append(Result("test card", Verdict.FAIL,
                                      f"recognised {seen!r}, expected {self.test_card!r}"))
            else:
                results.append(Result("test card", Verdict.PASS, f"recognised {seen!r}"))
        return results

    # --- screen ----------------------------------------------------------------------------

    def check_screen(self) -> list[Result]:
        if self.screen is None:
            return [Result("screen", Verdict.SKIP, "no screen")]
        try:
            described = self.screen.open()
        except Exception as exc:
            return [Result("screen", Verdict.FAIL,
                           f"did not open: {exc} (vc4-kms-v3d overlay, video/render groups, "
                           "another program on the screen?)")]
        results = [Result("screen", Verdict.PASS, described)]
        try:
            font = self.screen.show_test_pattern()
            results.append(Result("screen font", Verdict.PASS, font))
        except Exception as exc:
            results.append(Result("screen font", Verdict.FAIL, str(exc)))
        if self.person is not None:
            seen = self.person.ask("看到彩色條紋和「什麼不見啦」嗎？ / do you see colour bars "
                                   "and 什麼不見啦?")
            results.append(self._answer("screen picture", seen, "seen",
                                        "not seen: the HDMI port next to the power socket?"))
        self.screen.close()
        return results

    @staticmethod
    def _answer(item: str, yes: bool | None, ok: str, bad: str) -> Result:
        if yes is None:
            return Result(item, Verdict.SKIP, "no answer")
        return Result(item, Verdict.PASS if yes else Verdict.FAIL, ok if yes else bad)


def jumper_result(firmware: Firmware, out_pin: int | None = None,
                  sleep: Callable[[float], None] = time.sleep) -> Result | None:
    """The calibration jumpers (hardware.md section 4) are off: the calibration output is
    driven low for a moment and no seat may read pressed with it (seats already pressed at
    rest are left to their own line). Left on, a press of seat 1 pulls seat 2 low too: every
    buzz of either a tie. None when the box has no such output (keyboard buttons, fewer than
    two seats, or the output's pin taken by the config)."""
    from firmware.bootconfig import configured_pins
    from firmware.calibrate import DEFAULT_OUT_PIN, JumperOutput
    from firmware.devices import GpioButtons

    pin = DEFAULT_OUT_PIN if out_pin is None else out_pin
    buttons = firmware.buttons
    config = firmware.config
    if not isinstance(buttons, GpioButtons) or len(buttons.seats) < 2:
        return None
    if pin in {gpio for gpio, _key in configured_pins(config.pins.to_dict(), config.seats,
                                                      config.sound.kind == "piezo")}:
        return None
    item = "calibration jumpers"
    at_rest = buttons.pressed_seats()
    output = JumperOutput(buttons.pin_factory, pin)
    try:
        output(False)
        sleep(0.01)
        followed = sorted(buttons.pressed_seats() - at_rest)
        output(True)
    except Exception as exc:  # the pin busy (another program), a driver error
        return Result(item, Verdict.FAIL, f"could not drive GPIO {pin}: {exc}")
    finally:
        output.close()
    if followed:
        seats = ", ".join(map(str, followed))
        return Result(item, Verdict.FAIL,
                      f"still fitted: GPIO {pin} pulls seat {seats} with it (GPIO 7 is header "
                      "pin 26): remove the jumpers (hardware.md section 4), or a press of one seat "
                      "presses the other")
    return Result(item, Verdict.PASS, f"off: GPIO {pin} pulled low, no seat followed it")


def camera_mode_result(source: Any) -> Result | None:
    """The sensor mode a started picamera2 source asked for and got (None for other sources):
    PASS when it sees the whole field (``vision.sensors.choose_mode``, the kiosk's choice),
    FAIL when picamera2 configured another mode, WARN when the box could not choose."""
    from vision.camera import mode_report
    from vision.sensors import ModeChoice

    line = mode_report(source)
    if line is None:
        return None
    mode = getattr(source, "mode", None)
    if not isinstance(mode, ModeChoice):
        return Result("camera mode", Verdict.WARN, line)
    used = getattr(source, "mode_used", None)
    if (used is not None and used != (mode.mode.size, mode.mode.bit_depth)) or mode.crop < 0.95:
        return Result("camera mode", Verdict.FAIL, line + ": the frame may see only part of "
                      "the field (hardware.md section 3, The sensor mode)")
    return Result("camera mode", Verdict.PASS, line)


def deck_recogniser(deck: Any, vision_config: Any = None) -> Callable[[Any], str | None]:
    """Recognition the way the kiosk does it: vision's card finder and deck matcher, with the
    ``[vision]`` config's thresholds for this deck. Returns the first card recognised in a
    frame, or None."""
    from vision.config import VisionConfig
    from vision.find import CardFinder
    from vision.match import DeckMatcher

    vc = vision_config if vision_config is not None else VisionConfig()
    finder = CardFinder(deck.size, vc.find)
    matcher = DeckMatcher.from_deck(deck, vc.match_params(deck.id))

    def recognise(frame: Any) -> str | None:
        for _found, patch in finder.find_and_warp(frame.image):
            match = matcher.match(patch)
            if match.card_id is not None:
                return str(match.card_id)
        return None

    return recognise


def report(results: Sequence[Result]) -> str:
    failed = sum(r.outcome is Verdict.FAIL for r in results)
    passed = sum(r.outcome is Verdict.PASS for r in results)
    skipped = sum(r.outcome is Verdict.SKIP for r in results)
    warned = sum(r.outcome is Verdict.WARN for r in results)
    lines = ["tablekeeper self-test 自我檢測", *[r.line() for r in results],
             f"{passed} passed, {failed} failed, {skipped} skipped"
             + (f", {warned} warning(s)" if warned else "")]
    return "\n".join(lines)


# --- the command ----------------------------------------------------------------------------

PARTS = ("config", "buttons", "host", "sound", "camera", "screen")

#: Where systemd/install.sh keeps the box's config (its TK_STATE_DIR, /var/lib/tablekeeper).
INSTALLED_STATE_DIR = Path("/var/lib/tablekeeper")


def installed_config(environ: Mapping[str, str] | None = None) -> Path | None:
    """The installed box's config (``$TK_STATE_DIR/config.toml``, as the installer names the
    folder; else /var/lib/tablekeeper/config.toml) when there is one: what ``selftest`` checks
    without ``--config``, so that it tests the box's pins, not the defaults."""
    env = os.environ if environ is None else environ
    path = Path(env.get("TK_STATE_DIR") or INSTALLED_STATE_DIR) / "config.toml"
    return path if os.path.lexists(path) else None


def installed_config_name() -> str:
    return str(Path(os.environ.get("TK_STATE_DIR") or INSTALLED_STATE_DIR) / "config.toml")


def check_config(config_path: Path | None) -> list[Result]:
    """The builder's side of what the kiosk shows players as a short message: each problem
    of the config (file, line, key, why), and the table's calibrations a game needs (Wink's
    grid and markers) with the command that makes them."""
    from tablekeeper.config import markers_file
    from tablekeeper.kiosk import read_config
    from vision.markers import MarkerFileError, grid_zones, load_markers

    report = read_config(config_path, explicit=config_path is not None)
    results = [Result("config", Verdict.FAIL, line) for line in report.problems]
    if report.fatal is not None:
        return [*results, Result("config", Verdict.FAIL, report.fatal)]
    if not results:
        results.append(Result("config", Verdict.PASS, str(config_path or "defaults")))
    config = report.config
    from vision.config import VisionConfig

    try:
        zones = grid_zones(VisionConfig.from_dict(config.sections.get("vision", {})).zones)
    except ValueError as exc:
        return [*results, Result("wink grid", Verdict.FAIL, str(exc))]
    if not zones:
        # not a fault of the box: Wink is not set up at this table yet (its grid and
        # accusations are entered by hand until it is)
        results.append(Result("wink grid", Verdict.WARN, "the 6x6 grid is not calibrated: "
                              "tablekeeper vision calibrate --layout grid:6x6"))
        return results
    results.append(Result("wink grid", Verdict.PASS, f"{len(zones)} cells"))
    from vision.camera import CameraConfig

    path = markers_file(config.table, config_path)
    try:
        size = CameraConfig.from_dict(config.sections.get("camera", {})).size
        load_markers(path, (int(size[0]), int(size[1])))
    except MarkerFileError as exc:
        results.append(Result("wink markers", Verdict.FAIL,
                              f"{exc}: tablekeeper vision calibrate-markers"))
    else:
        results.append(Result("wink markers", Verdict.PASS, str(path)))
    return results


def bad_settings(config_path: Path | None) -> str | None:
    """The one line ``selftest`` stops with (exit 78) when a setting of the config is bad:
    the first problem (file, line, section, key, what is wanted) and the others after it; None
    when every setting can be used (an empty file is no bad setting: its defaults are)."""
    from tablekeeper.kiosk import read_config

    report = read_config(config_path, explicit=config_path is not None)
    bad = [p for p in report.problems if "the config file is empty:" not in p]
    if report.fatal is not None and report.fatal not in bad:
        bad.insert(0, report.fatal)
    if not bad:
        return None
    more = f" (+{len(bad) - 1} more: {'; '.join(bad[1:])})" if len(bad) > 1 else ""
    return f"tablekeeper selftest: bad settings / 設定有誤: {bad[0]}{more}"


def register(commands: Any, benches: Any) -> None:
    p = commands.add_parser(
        "selftest", help="check the box's buttons, lamps, sound, camera and screen",
        description="Walk through every seat button and lamp, the host buttons, the sound, "
                    "the camera and the screen, and print PASS/FAIL per item. Stop the kiosk "
                    "first (it owns the hardware). Exit code 1 if anything failed; 78 (one "
                    "line naming the file, the key and what is wanted) if a setting is bad.")
    p.add_argument("--config", help="the box's config (TOML); default: the installed box's, "
                                    f"{INSTALLED_STATE_DIR}/config.toml (TK_STATE_DIR), if "
                                    "there is one, else all defaults (said in the config line)")
    p.add_argument("--auto", action="store_true",
                   help="only what needs nobody at the box (presses and looking are skipped)")
    p.add_argument("--only", default=",".join(PARTS),
                   help=f"comma-separated parts to check (default: {','.join(PARTS)})")
    p.add_argument("--timeout", type=float, default=15.0,
                   help="seconds to wait for each press (default 15)")
    p.add_argument("--deck", help="recognise the test card with this deck: a deck folder, or "
                                   "a demo deck name (the-game, wink, ...)")
    p.add_argument("--test-card", help="the id of the card laid down as the test card "
                                       "(default: any card of the deck)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--boot-config", default="/boot/firmware/config.txt", metavar="FILE",
                   help="the Pi's config.txt, checked for interfaces (I2S, SPI, 1-wire ...) "
                        "that take the configured pins (default /boot/firmware/config.txt)")
    p.set_defaults(func=_selftest)


def _parse_only(text: str) -> list[str]:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    bad = [p for p in parts if p not in PARTS]
    if bad or not parts:
        raise ValueError(f"--only: {', '.join(bad) or 'nothing'} is not one of "
                         f"{', '.join(PARTS)}")
    return parts


def _selftest(args: argparse.Namespace) -> int:
    from tablekeeper.config import ConfigError, load_config
    from tablekeeper.kiosk import EXIT_CONFIG

    config_results: list[Result] = []
    path = Path(args.config) if args.config else installed_config()
    try:
        only = _parse_only(args.only)
        if args.timeout <= 0:
            raise ValueError(f"--timeout: {args.timeout:g} is not a positive number of seconds")
    except ValueError as exc:
        print(f"tablekeeper selftest: {exc}", file=sys.stderr)
        return 2
    bad = bad_settings(path)
    if bad is not None:  # as the units do: one line, exit 78 (a restart cannot fix it)
        print(bad, file=sys.stderr)
        return EXIT_CONFIG
    try:
        if "config" in only:  # every problem the kiosk only sums up for the players
            config_results = check_config(path)
            if path is None:
                config_results = [Result("config", Verdict.WARN, (
                    f"no --config and no {installed_config_name()}: every setting is the "
                    "default (the default pins, not necessarily this box's)")),
                    *[r for r in config_results if r.item != "config"]]
            only = [p for p in only if p != "config"]
        config = load_config(path)
    except (ValueError, ConfigError) as exc:  # (bad_settings has seen every bad setting)
        print(f"tablekeeper selftest: bad settings / 設定有誤: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    test = SelfTest(person=None if args.auto else TerminalPerson(), timeout_s=args.timeout,
                    test_card=args.test_card)
    results: list[Result] = list(config_results)
    try:
        if "buttons" in only or "host" in only or "sound" in only:
            try:
                results.append(boot_config_result(config, args.boot_config))
            except Exception as exc:
                results.append(Result("pins vs config.txt", Verdict.FAIL,
                                      f"could not check: {exc}"))
            try:
                from firmware.box import build
                from firmware.config import FirmwareConfig

                test.firmware = build(FirmwareConfig.from_dict(
                    config.sections.get("firmware", {})))
            except Exception as exc:
                results.append(Result("firmware", Verdict.FAIL, f"could not start: {exc}"))
        if "camera" in only:
            try:
                from vision.camera import CameraConfig, open_camera
                from vision.config import VisionConfig

                deck = _load_deck(args.deck) if args.deck else None
                if deck is not None and args.test_card and args.test_card not in deck.ids:
                    raise ValueError(f"--test-card: {args.test_card!r} is not a card of deck "
                                     f"{deck.id}")
                camera_config = CameraConfig.from_dict(config.sections.get("camera", {}))
                test.camera = open_camera(camera_config, deck=deck)
                if deck is not None:
                    test.recognise = deck_recogniser(
                        deck, VisionConfig.from_dict(config.sections.get("vision", {})))
            except Exception as exc:
                results.append(Result("camera", Verdict.FAIL, f"could not open: {exc}"))
        if "camera" in only:
            try:
                results.extend(game_deck_results(config))
            except Exception as exc:
                results.append(Result("deck", Verdict.FAIL, f"could not check: {exc}"))
        if "screen" in only:
            test.screen = SelftestScreen(None if config.screen.fullscreen
                                         else config.screen.size, config.screen.rotate)
        results.extend(test.run([p for p in only
                                 if not any(r.item == p for r in results)]))
    finally:
        if test.firmware is not None:
            test.firmware.close()
    if args.json:
        print(json.dumps([{**asdict(r), "outcome": r.outcome.value} for r in results],
                         ensure_ascii=False))
    else:
        print(report(results))
    return 1 if any(r.outcome is Verdict.FAIL for r in results) else 0


def boot_config_result(config: Any, path: Any) -> Result:
    """``[firmware.pins]`` against the interfaces ``path`` (the Pi's config.txt) enables:
    FAIL naming each clash (:mod:`firmware.bootconfig`), PASS, or SKIP without the file."""
    from pathlib import Path

    from firmware.bootconfig import clashes, configured_pins
    from firmware.config import FirmwareConfig

    file = Path(path)
    try:
        text = read_regular(file, SETTINGS_BYTES).decode("utf-8", "replace")
    except FileNotFoundError:
        return Result("pins vs config.txt", Verdict.SKIP, f"no {file} (not a Pi?)")
    except OSError as exc:
        return Result("pins vs config.txt", Verdict.FAIL, f"{file}: {exc.strerror or exc}")
    fw = FirmwareConfig.from_dict(config.sections.get("firmware", {}))
    used = configured_pins(fw.pins.to_dict(), fw.seats, fw.sound.kind == "piezo")
    found = clashes(text, used)
    if found:
        return Result("pins vs config.txt", Verdict.FAIL,
                      "; ".join(c.text() for c in found))
    return Result("pins vs config.txt", Verdict.PASS,
                  f"no interface in {file} takes the {len(used)} configured pins")


def game_deck_results(config: Any) -> list[Result]:
    """:func:`game_deck_result` for the config's game and every game in ``[table.decks]``."""
    wanted = [config.table.game, *config.table.decks]
    return [game_deck_result(config, g) for g in dict.fromkeys(wanted)]


def game_deck_result(config: Any, game: str | None = None) -> Result:
    """The deck of ``game`` (default: the config's game) as the kiosk would load it
    (``[table.decks]``): FAIL when the enrolled deck cannot be read (a missing folder, a file
    the service user may not read), WARN when a real camera would watch the demo deck, PASS
    otherwise."""
    from tablekeeper import games
    from tablekeeper.vision_link import demo_deck_warning
    from vision.camera import CameraConfig

    kit = games.load(game or config.table.game)
    folder = config.table.deck_for(kit.name)
    try:
        deck = kit.deck(folder)
    except (ValueError, OSError) as exc:
        return Result(f"deck {kit.name}", Verdict.FAIL, f"{folder}: {exc}")
    source = CameraConfig.from_dict(config.sections.get("camera", {})).source
    warning = demo_deck_warning(deck, source, kit.name)
    if warning:
        return Result(f"deck {kit.name}", Verdict.WARN, warning)
    what = "the demo deck" if deck.demo else f"{deck.id} from {folder}"
    return Result(f"deck {kit.name}", Verdict.PASS, f"{what}, {len(deck.ids)} cards")


def _load_deck(name_or_path: str) -> Any:
    """A deck folder, or the name of a demo deck."""
    from vision.deck import load_deck
    from vision.demo_decks import DEMO_DECKS, demo_deck

    if name_or_path in DEMO_DECKS:
        return load_deck(demo_deck(name_or_path))
    return load_deck(name_or_path)
