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
