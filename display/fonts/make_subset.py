"""Build the bundled Traditional Chinese font subsets in this folder.

The kiosk prefers the system's Noto Sans CJK (``fonts-noto-cjk``); when that is missing it uses
the subsets built here, which hold only the characters the UI needs: every translation in
``display/i18n.py``, printable ASCII, ``extra_text.txt`` beside this script, every string
literal in the demo decks' generator ``vision/demo_decks.py`` (card and deck names; read as text,
not imported), and the names in any deck manifests given on the command line (every JSON string
value in them).

Re-run it whenever UI strings or deck names change (``tests/display/test_display_fonts.py``
fails when the subset misses a character). It needs fontTools (a build-time tool, not a
runtime dependency) and the system collection::

    apt-get install fonts-noto-cjk
    .venv/bin/pip install fonttools
    PYTHONPATH=. .venv/bin/python display/fonts/make_subset.py [path/to/deck/manifest.json ...]
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEMO_DECKS_SOURCE = HERE.parent.parent / "vision" / "demo_decks.py"
SOURCES = {
    "Bold": "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "Regular": "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
}
TC_FAMILY = "Noto Sans CJK TC"


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def python_strings(path: Path) -> list[str]:
    """Every string literal in a Python source file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)]


def needed_text(manifests: Sequence[Path] = ()) -> str:
    """Every character the subset must hold."""
    from display.i18n import all_text

    parts = [all_text(), "".join(chr(c) for c in range(0x20, 0x7F))]
    extra = HERE / "extra_text.txt"
    if extra.is_file():
        parts.append(extra.read_text(encoding="utf-8"))
    if DEMO_DECKS_SOURCE.is_file():
        parts.extend(python_strings(DEMO_DECKS_SOURCE))
    for manifest in manifests:
        parts.extend(_strings(json.loads(manifest.read_text(encoding="utf-8"))))
    return "".join(sorted(set("".join(parts)) - {"\n", "\r", "\t"}))


def tc_font_number(path: str) -> int:
    from fontTools.ttLib import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
        TTCollection,
    )

    collection = TTCollection(path)
    for number, font in enumerate(collection.fonts):
        family = font["name"].getDebugName(1) or ""
        if family.startswith(TC_FAMILY) and "Mono" not in family:
            return number
    raise SystemExit(f"{path}: no {TC_FAMILY!r} face in this collection")


def build(weight: str, source: str, text: str, out: Path) -> int:
    from fontTools import subset  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from fontTools.ttLib import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
        TTFont,
    )

    font = TTFont(source, fontNumber=tc_font_number(source))
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = False
    subsetter = subset.Subsetter(options=options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    font.save(str(out))
    return out.stat().st_size


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("manifests", nargs="*", type=Path, help="deck manifests (JSON)")
    args = parser.parse_args(argv)
    text = needed_text(args.manifests)
    (HERE / "charset.txt").write_text(text + "\n", encoding="utf-8")
    for weight, source in SOURCES.items():
        if not Path(source).is_file():
            print(f"{source} is missing: apt-get install fonts-noto-cjk", file=sys.stderr)
            return 1
        out = HERE / f"NotoSansCJKtc-{weight}-subset.otf"
        size = build(weight, source, text, out)
        print(f"{out.name}: {len(text)} characters, {size / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
