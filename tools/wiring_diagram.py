#!/usr/bin/env python3
"""Draw hardware.md's wiring picture, docs/wiring.svg, with schemdraw (a dev dependency).

    .venv/bin/python tools/wiring_diagram.py [OUT.svg]

What it shows (hardware.md section 2 sizes the parts): the Raspberry Pi header's pins used by
seat 1, the host buttons and the piezo; seat 1's arcade button (COM to GND, NO to GPIO 4, the
optional 1 kOhm) and its 12 V LED lamp switched by a ULN2803A channel; the alternative for a
filament bulb, one AO3400A logic-level MOSFET per lamp (100 Ohm gate, 100 kOhm gate to GND);
the three host buttons; the passive piezo disc through 220 Ohm; the 12 V supply through its
fuse (its long plate, +, at the +12 V rail); the lamps' heavy returns (the ULN2803A's pin 9,
the MOSFETs' sources) on their own rail straight to the supply's −, joined to the Pi's GND by
one thin reference wire. Seats 2-8 repeat seat 1 on their own pins.
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
    pins = ["GND (pin 14)", "GPIO 18 (pin 12)", "GPIO 26 (pin 37)", "GPIO 11 (pin 23)",
            "GPIO 9 (pin 21)", "GPIO 10 (pin 19)", "GPIO 4 (pin 7)", "GND (pin 6, 9 ...)"]
    pi = elm.Ic(pins=[elm.IcPin(name=n, side="right") for n in pins], pinspacing=1.6,
                edgepadW=3.2, edgepadH=0.6)
    d += pi
    d += elm.Label().at((pi.absanchors["GND (pin 6, 9 ...)"][0] - 7.0,
                         pi.absanchors["GND (pin 6, 9 ...)"][1] + 1.3)).label(
        "Raspberry Pi 40-pin header (BCM numbers)", fontsize=12, halign="left")
    a = pi.absanchors
    x_end = a["GPIO 4 (pin 7)"][0]

    # the Pi's ground: the buttons and the piezo (signal currents only)
    d += elm.Line().at(a["GND (pin 6, 9 ...)"]).right(1.0)
    d += elm.Ground()
    d += elm.Label().at((x_end + 1.6, a["GND (pin 6, 9 ...)"][1] + 0.5)).label(
        "this ground symbol is the Pi's GND (buttons, piezo: a few mA);\n"
        "the lamps' current returns on the 12 V supply's − rail below, never through the Pi",
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
    d += elm.Line().at(a["GPIO 18 (pin 12)"]).right(8.0)
    uln = elm.Ic(pins=[elm.IcPin(name="IN1 (1)", side="left"),
                       elm.IcPin(name="GND (9)", side="bottom"),
                       elm.IcPin(name="OUT1 (18)", side="right"),
                       elm.IcPin(name="COM (10)", side="top")],
                 edgepadW=3.4, edgepadH=1.0, pinspacing=1.2, fontsize=9)

    d += uln.anchor("IN1 (1)")
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
    # the supply: its long plate (+) at the +12 V rail, the short one (−) at the − rail
    supply = elm.BatteryCell().down().label(
        "12 V DC supply: + on top\nLED lamps: 1 A\nfilament bulbs: ≥ 5 A\n"
        "DC jack: centre pin +", loc="bottom", fontsize=9)
    d += supply
    x_supply = d.here[0]
    d += elm.Label().at((com_top[0], y_rail + 0.6)).label("+12 V", fontsize=9)

    # the − rail: heavy returns straight to the supply's −
    y_minus = uln.absanchors["GND (9)"][1] - 2.2
    d += elm.Line().at(uln.absanchors["GND (9)"]).down(uln.absanchors["GND (9)"][1] - y_minus)
    rail_left = d.here
    d += elm.Line().at(supply.end).down(supply.end[1] - y_minus)

    # the alternative for filament bulbs: one AO3400A per lamp (SOT-23: 1 gate, 2 source,
    # 3 drain)
    x0 = lamp_top[0] + 10.0
    d += elm.Label().at((x0, y_rail + 1.4)).label(
        "filament bulbs (0.25 A each) instead:\none AO3400A MOSFET per lamp", fontsize=10)
    d += elm.Dot().at((x0, y_rail)).label("+12 V", loc="top", fontsize=9)
    d += elm.Lamp().down(2.2).label("seat N bulb", loc="bottom", fontsize=9)
    fet = elm.NFet().right().anchor("drain").label("AO3400A\n(SOT-23)", loc="left",
                                                   fontsize=9)
    d += fet
    d += elm.Label().at((fet.drain[0] + 0.15, fet.drain[1] + 0.25)).label(
        "D (3)", fontsize=8, halign="left")
    d += elm.Label().at((fet.source[0] + 0.15, fet.source[1] - 0.25)).label(
        "S (2)", fontsize=8, halign="left")
    d += elm.Label().at((fet.gate[0] + 0.1, fet.gate[1] - 0.3)).label(
        "G (1)", fontsize=8, halign="left")
    d += elm.Line().at(fet.source).down(fet.source[1] - y_minus)
    d += elm.Resistor().at(fet.gate).right().label("100 Ω", loc="top", fontsize=9)
    d += elm.Dot()
    gate = d.here
    d += elm.Line().right(1.0)
    d += elm.Label().label("lamp GPIO", loc="right", fontsize=9, halign="left")
    d += elm.Resistor().at(gate).down().label("100 kΩ\n(gate to source)", loc="bottom",
                                               fontsize=9)
    d += elm.Line().down(d.here[1] - y_minus)
    rail_right = d.here
    d += elm.Line().at(rail_left).right(rail_right[0] - rail_left[0]).label(
        "supply − rail: ULN2803A pin 9 and every MOSFET source straight to the supply's − "
        "(heavy wire)", loc="bottom", fontsize=9)
    d += elm.Dot().at((x_supply, y_minus))
    d += elm.Dot().at((uln.absanchors["GND (9)"][0], y_minus))

    # one thin reference wire from the − rail to a Pi GND pin (no lamp current on it)
    x_ref = x_end + 1.2
    d += elm.Line().at(a["GND (pin 14)"]).right(x_ref - x_end)
    d += elm.Line().down(a["GND (pin 14)"][1] - y_minus)
    d += elm.Line().right(rail_left[0] - x_ref).label(
        "one thin reference wire (e.g. 0.14 mm²)", loc="top", fontsize=9)
    d += elm.Label().at((x_end + 0.5, y_minus - 1.6)).label(
        "seats 2-8: GPIO 23, 24, 25, 12, 16, 20, 21 -> IN2...IN8;\n"
        "buttons GPIO 17, 27, 22, 5, 6, 13, 19 (hardware.md section 2)", fontsize=9,
        halign="left")
    d.supply = supply  # type: ignore[attr-defined]  # for the polarity test
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
