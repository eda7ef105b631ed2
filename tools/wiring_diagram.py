#!/usr/bin/env python3
"""Draw hardware.md's wiring picture, docs/wiring.svg, with schemdraw (a dev dependency).

    .venv/bin/python tools/wiring_diagram.py [OUT.svg]

What it shows (hardware.md section 2 sizes the parts): the Raspberry Pi header's pins used by
seat 1, the host buttons and the piezo; seat 1's arcade button (COM to GND, NO to GPIO 4, the
optional 1 kOhm) and its 12 V LED lamp switched by a ULN2803A channel; the alternative for a
filament bulb, one AO3400A logic-level MOSFET per lamp (100 Ohm gate, 100 kOhm gate to GND);
the three host buttons; the passive piezo disc through 220 Ohm; the 12 V supply through its
fuse, its negative joined to the Pi's GND. Seats 2-8 repeat seat 1 on their own pins.
tests/kiosk/test_wiring_diagram.py checks that the committed SVG is what this script draws.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "docs" / "wiring.svg"


def draw() -> Any:
    import schemdraw
    import schemdraw.elements as elm

    schemdraw.config(fontsize=11, unit=2.0, lw=1.2)
    schemdraw.svgconfig.text = "text"  # real text in the SVG (searchable, small)
    d = schemdraw.Drawing(show=False, margin=0.5)
    pins = ["GPIO 18 (pin 12)", "GPIO 26 (pin 37)", "GPIO 11 (pin 23)", "GPIO 9 (pin 21)",
            "GPIO 10 (pin 19)", "GPIO 4 (pin 7)", "GND (pin 6, 9, 14 ...)"]
    pi = elm.Ic(pins=[elm.IcPin(name=n, side="right") for n in pins], pinspacing=1.6,
                edgepadW=3.2, edgepadH=0.6)
    d += pi
    d += elm.Label().at((pi.absanchors["GND (pin 6, 9, 14 ...)"][0] - 7.0,
                         pi.absanchors["GND (pin 6, 9, 14 ...)"][1] + 1.3)).label(
        "Raspberry Pi 40-pin header (BCM numbers)", fontsize=12, halign="left")
    a = pi.absanchors
    x_end = a["GPIO 4 (pin 7)"][0]

    # ground: one rail; every ground symbol below is this one GND
    d += elm.Line().at(a["GND (pin 6, 9, 14 ...)"]).right(1.0)
    d += elm.Ground()
    d += elm.Label().at((x_end + 1.6, a["GND (pin 6, 9, 14 ...)"][1] + 0.5)).label(
        "every ground symbol is the Pi's GND;\njoin the 12 V supply's − to it (one wire)",
        fontsize=9, halign="left")

    # seat 1's button: GPIO 4 -> [1k] -> NO ... COM -> GND
    d += elm.Line().at(a["GPIO 4 (pin 7)"]).right(0.5)
    d += elm.Resistor().right().label("1 kΩ (optional)", loc="top", fontsize=9)
    d += elm.Button().right().label("seat 1 button: NO, COM", loc="top", fontsize=9)
    d += elm.Ground()

    # host buttons
    for pin, name in (("GPIO 10 (pin 19)", "host: confirm"), ("GPIO 9 (pin 21)", "host: back"),
                      ("GPIO 11 (pin 23)", "host: next")):
        d += elm.Line().at(a[pin]).right(2.5)
        d += elm.Button().right().label(name, loc="top", fontsize=9)
        d += elm.Ground()

    # piezo through 220 Ohm
    d += elm.Line().at(a["GPIO 26 (pin 37)"]).right(0.5)
    d += elm.Resistor().right().label("220 Ω", loc="top", fontsize=9)
    d += elm.Speaker().right().label("passive piezo disc", loc="top", fontsize=9)
    d += elm.Ground().at(d.elements[-1].absanchors["in2"])

    # seat 1's lamp on a ULN2803A channel
    y18 = a["GPIO 18 (pin 12)"][1]
    d += elm.Line().at(a["GPIO 18 (pin 12)"]).right(8.0)
    uln = elm.Ic(pins=[elm.IcPin(name="IN1 (1)", side="left"),
                       elm.IcPin(name="GND (9)", side="bottom"),
                       elm.IcPin(name="OUT1 (18)", side="right"),
                       elm.IcPin(name="COM (10)", side="top")],
                 edgepadW=3.4, edgepadH=1.0, pinspacing=1.2, fontsize=9)

    d += uln.anchor("IN1 (1)")
    d += elm.Ground().at(uln.absanchors["GND (9)"])
    d += elm.Label().at((uln.absanchors["IN1 (1)"][0] + 0.1,
                         uln.absanchors["GND (9)"][1] - 0.4)).label(
        "ULN2803A", fontsize=11, halign="left")
    d += elm.Line().at(uln.absanchors["OUT1 (18)"]).right(1.0)
    d += elm.Lamp().up(2.4).label("seat 1 lamp\n(12 V LED)", loc="bottom", fontsize=9)
    lamp_top = d.here
    y_rail = lamp_top[1] + 0.01
    d += elm.Line().at(uln.absanchors["COM (10)"]).up(y_rail - uln.absanchors["COM (10)"][1])
    com_top = d.here
    d += elm.Line().at(com_top).right(lamp_top[0] - com_top[0])
    # the +12 V rail out to the supply and its fuse
    d += elm.Line().at(lamp_top).right(2.5)
    d += elm.Fuse().right().label("fuse T500 mA\n(filament: T3.15 A)", loc="top", fontsize=9)
    d += elm.Line().right(0.5)
    d += elm.BatteryCell().down().reverse().label("12 V DC supply\n(LED lamps: 1 A)",
                                                  loc="bottom", fontsize=9)
    d += elm.Ground()
    d += elm.Label().at((com_top[0], y_rail + 0.6)).label("+12 V", fontsize=9)
    d += elm.Label().at((x_end + 0.5, y18 - 1.6)).label(
        "seats 2-8: GPIO 23, 24, 25, 12, 16, 20, 21 -> IN2...IN8;\n"
        "buttons GPIO 17, 27, 22, 5, 6, 13, 19 (hardware.md section 2)", fontsize=9,
        halign="left")

    # the alternative for filament bulbs: one AO3400A per lamp
    x0 = lamp_top[0] + 10.0
    d += elm.Label().at((x0, y_rail + 1.4)).label(
        "filament bulbs (0.25 A each) instead:\none AO3400A MOSFET per lamp", fontsize=10)
    d += elm.Dot().at((x0, y_rail)).label("+12 V", loc="top", fontsize=9)
    d += elm.Lamp().down(2.2).label("seat N bulb", loc="bottom", fontsize=9)
    fet = elm.NFet().right().anchor("drain").label("AO3400A", loc="left", fontsize=9)
    d += fet
    d += elm.Ground().at(fet.source)
    d += elm.Resistor().at(fet.gate).right().label("100 Ω", loc="top", fontsize=9)
    d += elm.Dot()
    gate = d.here
    d += elm.Line().right(1.0)
    d += elm.Label().label("lamp GPIO", loc="right", fontsize=9, halign="left")
    d += elm.Resistor().at(gate).down().label("100 kΩ", loc="bottom", fontsize=9)
    d += elm.Ground()
    return d


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else OUT
    try:
        d = draw()
    except ImportError:
        print("wiring_diagram: needs schemdraw (pip install -e '.[dev]')", file=sys.stderr)
        return 2
    out.write_bytes(d.get_imagedata("svg"))
    print(f"written {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
