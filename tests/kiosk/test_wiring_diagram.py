"""docs/wiring.svg is what tools/wiring_diagram.py draws (issue 31): the picture in the
repository cannot drift from its script, and it shows the parts hardware.md sizes."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SVG = ROOT / "docs" / "wiring.svg"


def test_the_committed_picture_is_the_scripts(tmp_path: Path) -> None:
    if importlib.util.find_spec("schemdraw") is None:
        pytest.skip("schemdraw is not installed (a dev dependency: pip install -e '.[dev]')")
    out = tmp_path / "wiring.svg"
    got = subprocess.run([sys.executable, str(ROOT / "tools" / "wiring_diagram.py"), str(out)],
                         capture_output=True, text=True, timeout=120)
    assert got.returncode == 0, got.stderr
    assert out.read_bytes() == SVG.read_bytes(), (
        "docs/wiring.svg differs from what tools/wiring_diagram.py draws: run it")


def test_the_picture_names_the_parts_of_section_2() -> None:
    text = SVG.read_text(encoding="utf-8")
    for part in ("ULN2803A", "AO3400A", "100 kΩ", "220 Ω", "GPIO 18 (pin 12)",
                 "GPIO 26 (pin 37)", "host: confirm", "host: back", "host: next", "T500 mA"):
        assert part in text, part
    assert "docs/wiring.svg" in (ROOT / "hardware.md").read_text(encoding="utf-8")


def _draw() -> object:
    if importlib.util.find_spec("schemdraw") is None:
        pytest.skip("schemdraw is not installed (a dev dependency: pip install -e '.[dev]')")
    spec = importlib.util.spec_from_file_location("wiring_diagram",
                                                  ROOT / "tools" / "wiring_diagram.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.draw()


def test_the_supply_s_long_plate_is_at_the_plus_12_v_rail() -> None:
    """A cell's long plate is its +: it must face the +12 V rail (the supply's start, where
    the fuse comes in), the short plate the − rail (issue 38: it was drawn reversed)."""
    import schemdraw.segments

    supply = _draw().supply  # type: ignore[attr-defined]
    plates = []
    for seg in supply.segments:
        if not isinstance(seg, schemdraw.segments.Segment) or len(seg.path) != 2:
            continue
        (x1, y1), (x2, y2) = (supply.transform.transform(p) for p in seg.path)
        if abs(y1 - y2) < 1e-9:  # a plate of a vertical cell is horizontal
            plates.append((abs(x1 - x2), (y1 + y2) / 2))
    assert len(plates) == 2, plates
    (_, long_y), (_, short_y) = sorted(plates, reverse=True)
    plus_y = supply.absanchors["start"][1]  # the end wired to the fuse and the +12 V rail
    minus_y = supply.absanchors["end"][1]
    assert plus_y > minus_y
    assert abs(long_y - plus_y) < abs(short_y - plus_y), "the long (+) plate faces ground"


def test_the_picture_grounds_the_lamps_on_the_supply_and_names_the_fet_pins() -> None:
    text = SVG.read_text(encoding="utf-8")
    for part in ("supply − rail", "one thin reference wire", "G (1)", "S (2)", "D (3)",
                 "filament bulbs: ≥ 5 A", "DC jack: centre pin +", "GND (pin 14)"):
        assert part in text, part
    assert "every ground symbol is the Pi's GND" not in text
