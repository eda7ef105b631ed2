"""Pins that the Pi's ``/boot/firmware/config.txt`` hands to something else.

An I2S sound card or amplifier takes GPIO 18-21 (lamp 1, seat 8's button, lamps 7 and 8 by
default), 1-wire takes GPIO 4 (seat 1's button), SPI0 takes GPIO 7-11 (the host buttons): a
line the kernel gives to a driver cannot be read by gpiozero, or reads what the driver does.
:func:`clashes` reads the file's ``dtparam=``/``dtoverlay=`` lines and names every configured
pin (``[firmware.pins]``) that an enabled interface uses, with the key to move it.
``tablekeeper selftest`` prints it (``--boot-config`` names another file; hardware.md
section 2 lists the clashes).

Only what is known is reported: the interfaces below with their documented default pins and
the ``gpiopin=``/``pin=``/``pins_18_19`` parameters that move them. Conditional sections
(``[pi4]``, ``[all]`` ...) are read as if all applied (a clash in any is worth a look).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

#: Where Raspberry Pi OS Bookworm keeps it.
DEFAULT_PATH = Path("/boot/firmware/config.txt")

_I2S = (18, 19, 20, 21)
#: Overlays of I2S sound cards and amplifiers (by name prefix): GPIO 18-21.
_I2S_PREFIXES = ("hifiberry", "iqaudio", "max98357a", "i2s", "justboom", "allo",
                 "audioinjector", "googlevoicehat", "adau", "pcm5102a", "wm8960", "rpi-dac",
                 "rpi-digiampplus", "dionaudio", "merus-amp", "applepi-dac", "pisound",
                 "fe-pi-audio", "voicehat", "seeed-")
#: Fixed-pin interfaces: overlay (or dtparam) name -> the GPIOs it takes.
_FIXED: Mapping[str, tuple[int, ...]] = {
    "spi": (7, 8, 9, 10, 11),  # dtparam=spi=on: SPI0 CE1 CE0 MISO MOSI SCLK
    "i2s": _I2S,  # dtparam=i2s=on
    "i2c_arm": (2, 3),
    "spi0-1cs": (8, 9, 10, 11), "spi0-2cs": (7, 8, 9, 10, 11),
    "spi1-1cs": (18, 19, 20, 21), "spi1-2cs": (17, 18, 19, 20, 21),
    "spi1-3cs": (16, 17, 18, 19, 20, 21),
    "uart2": (0, 1), "uart3": (4, 5), "uart4": (8, 9), "uart5": (12, 13),
    "pwm-2chan": (18, 19),
}


@dataclass(frozen=True)
class Clash:
    """A configured pin that an enabled interface of config.txt also takes."""

    gpio: int
    key: str  # the [firmware.pins] key that names it ("lamps[1]": its first; "confirm")
    line_no: int
    line: str
    what: str  # the interface ("I2S sound (GPIO 18-21)" ...)

    def text(self) -> str:
        return (f"GPIO {self.gpio} ([firmware.pins] {self.key}) is taken by {self.what}: "
                f"config.txt line {self.line_no} `{self.line}`; move the pin in "
                f"[firmware.pins] or remove/move that line")


def _params(rest: str) -> dict[str, str]:
    out = {}
    for part in rest.split(","):
        key, _, value = part.strip().partition("=")
        if key:
            out[key.strip()] = value.strip()
    return out


def interfaces(text: str) -> list[tuple[int, str, str, tuple[int, ...]]]:
    """Every enabled interface in config.txt ``text`` that takes header GPIOs:
    (line number, line, what, pins)."""
    out: list[tuple[int, str, str, tuple[int, ...]]] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        m = re.fullmatch(r"(dtoverlay|dtparam)\s*=\s*(.+)", line)
        if not m:
            continue
        kind, rest = m.group(1), m.group(2)
        if kind == "dtparam":
            for key, value in _params(rest).items():
                if key in ("spi", "i2s", "i2c_arm") and value.lower() in ("on", "true", "1",
                                                                          "yes", ""):
                    out.append((n, line, f"dtparam {key}", _FIXED[key]))
            continue
        name, _, tail = rest.partition(",")
        name = name.strip()
        params = _params(tail)
        pins: tuple[int, ...] = ()
        what = f"overlay {name}"
        if name.startswith(_I2S_PREFIXES):
            pins, what = _I2S, f"the I2S sound overlay {name} (GPIO 18-21)"
        elif name in _FIXED:
            pins = _FIXED[name]
        elif name in ("w1-gpio", "w1-gpio-pullup"):
            pins = (int(params.get("gpiopin", "4")),)
            what = f"1-wire ({name})"
        elif name == "audremap":
            pins = (18, 19) if "pins_18_19" in params else (12, 13)
            what = "PWM audio (audremap)"
        elif name == "pwm":
            pins = (int(params.get("pin", "18")),)
        elif name in ("gpio-shutdown", "gpio-key", "gpio-poweroff", "gpio-fan", "gpio-led"):
            default = {"gpio-shutdown": "3", "gpio-poweroff": "26", "gpio-fan": "12"}
            pin = params.get("gpio_pin", params.get("gpiopin", default.get(name, "")))
            pins = (int(pin),) if pin.isdigit() else ()
        if pins:
            out.append((n, line, what, pins))
    return out


def configured_pins(pins: Mapping[str, object], seats: int,
                    piezo: bool) -> list[tuple[int, str]]:
    """(gpio, config key) of every pin the firmware will claim."""
    out: list[tuple[int, str]] = []
    for key in ("seats", "lamps"):
        values = pins.get(key) or []
        assert isinstance(values, Iterable)
        for i, gpio in enumerate(list(values)[:seats]):
            out.append((int(gpio), f"{key}[{i + 1}]"))
    for key in ("confirm", "back", "next") + (("piezo",) if piezo else ()):
        value = pins.get(key)
        if isinstance(value, int):
            out.append((value, key))
    return out


def clashes(text: str, used: Iterable[tuple[int, str]]) -> list[Clash]:
    """The configured pins (``used``: (gpio, key)) that config.txt ``text`` gives away."""
    found = interfaces(text)
    out = []
    for gpio, key in used:
        for n, line, what, pins in found:
            if gpio in pins:
                out.append(Clash(gpio, key, n, line, what))
    return out
