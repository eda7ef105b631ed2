"""Build the bundled Traditional Chinese font subsets in this folder (a developer tool).

The kiosk prefers the system's Noto Sans CJK (``fonts-noto-cjk``); when that is missing (a fresh
laptop, CI, a Pi before its installer ran) it uses the subsets built here. They hold:

- **every string the code holds**: every string literal (docstrings too) of every runtime
  package named in ``pyproject.toml``'s ``[tool.setuptools.packages.find] include`` — the
  translation tables (``display/i18n.py`` and any other), what screens draw directly (the text
  cursor, dashes, ``?``), the demo's and simulated players' names, the demo decks' card and
  deck names, default names in the config. Read as source text, nothing imported, so a string
  added anywhere is picked up by re-running this script;
- **every translation** of :data:`display.i18n.STRINGS`, imported as well (in case a table is
  ever built at run time rather than written out);
- **Big5 level 1** (常用字, 0xA440-0xC67E: 5,401 characters, taken from Python's ``big5``
  codec). The Ministry of Education's 常用國字標準字體表 (4,808 characters) is not shipped in
  any package we can depend on; Big5 level 1 was drawn up from that same list (plus a few
  hundred more common characters), so for practical purposes it covers it. This is what lets a
  host type any everyday name, not just the demo's;
- **Latin-1** (U+0020-U+007E, U+00A0-U+00FF): accented Latin names;
- ``extra_text.txt`` beside this script: symbols and name characters worth having although no
  code holds them yet (see its comments);
- the names in any deck manifests given on the command line (every JSON string in them).

Characters Noto Sans CJK has no glyph for are reported; the build fails unless they are listed
in :data:`KNOWN_ABSENT` with the reason they may be absent. ``tests/display/test_display_fonts.py``
gathers the same characters and fails when the bundled files miss one: re-run this script after
adding UI text, then commit the two ``.otf`` files and ``charset.txt`` (the list of what is in
them). Both weights together must stay under 8 MB (:data:`MAX_BYTES`).

It needs fontTools (a build-time tool, not a runtime dependency of tablekeeper) and the system
collection, from the repository's root::

    sudo apt-get install fonts-noto-cjk
    .venv/bin/pip install fonttools
    .venv/bin/python display/fonts/make_subset.py [path/to/deck/manifest.json ...]

(then ``sudo apt-get remove fonts-noto-cjk`` if you want to see what a fresh machine sees).
Or, without installing a system CJK font (which would hide from the tests what a fresh machine
sees), unpack Debian's package into a folder and name it::

    apt-get download fonts-noto-cjk && dpkg -x fonts-noto-cjk_*.deb /tmp/noto
    noto=/tmp/noto/usr/share/fonts/opentype/noto
    .venv/bin/python display/fonts/make_subset.py --source-dir "$noto"
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import json
import sys
import tomllib
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
if str(ROOT) not in sys.path:  # run as a script: make ``display`` importable
    sys.path.insert(0, str(ROOT))

TC_FAMILY = "Noto Sans CJK TC"
WEIGHTS = ("Bold", "Regular")
#: what the two bundled files may weigh together (issue 15: at most 8 MB in the repository)
MAX_BYTES = 8_000_000
#: Big5 level 1 (常用字), lead bytes 0xA4-0xC6
BIG5_LEVEL1 = (0xA440, 0xC67E)
#: Unicode categories that are never drawn (controls, format, surrogates, private use,
#: unassigned, line/paragraph separators)
NOT_DRAWN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: Characters the code holds that Noto Sans CJK has no glyph for, and why that is acceptable.
KNOWN_ABSENT: dict[str, str] = {}  # (tr's missing-key marker is 〈〉, which Noto draws)


def _json_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _json_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _json_strings(v)


def python_strings(path: Path) -> list[str]:
    """Every string literal in a Python source file (the constant parts of f-strings too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)]


def runtime_packages(root: Path = ROOT) -> list[Path]:
    """The top-level packages ``pyproject.toml`` installs (its packages.find include list)."""
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    patterns: list[str] = config["tool"]["setuptools"]["packages"]["find"]["include"]
    return sorted(p for p in root.iterdir()
                  if (p / "__init__.py").is_file()
                  and any(fnmatch.fnmatch(p.name, pat) for pat in patterns))


def code_strings(root: Path = ROOT) -> dict[str, str]:
    """{source file (relative): its string literals joined} for every runtime package."""
    out: dict[str, str] = {}
    for package in runtime_packages(root):
        for path in sorted(package.rglob("*.py")):
            out[str(path.relative_to(root))] = "".join(python_strings(path))
    return out


def big5_level1() -> str:
    """The 5,401 characters of Big5 level 1 (常用字), from Python's ``big5`` codec."""
    lo, hi = BIG5_LEVEL1
    chars = []
    for code in range(lo, hi + 1):
        try:
            chars.append(code.to_bytes(2, "big").decode("big5"))
        except UnicodeDecodeError:  # trail bytes 0x7F-0xA0 are not assigned
            continue
    return "".join(chars)


def latin1() -> str:
    """Printable ASCII and the Latin-1 supplement (U+00A0-U+00FF)."""
    return "".join(map(chr, [*range(0x20, 0x7F), *range(0xA0, 0x100)]))


def extra_text() -> str:
    """``extra_text.txt`` without its comment lines."""
    path = HERE / "extra_text.txt"
    if not path.is_file():
        return ""
    lines = path.read_text(encoding="utf-8").splitlines()
    return "".join(line for line in lines if not line.lstrip().startswith("#"))


def ui_strings() -> str:
    """Every translation of the UI table, both languages."""
    from display.i18n import all_text

    return all_text()


def drawable(text: Iterable[str]) -> str:
    """The distinct characters of ``text`` a font must draw, sorted (spaces kept)."""
    return "".join(sorted({ch for ch in text if unicodedata.category(ch) not in NOT_DRAWN}))


def needed_text(manifests: Sequence[Path] = (), root: Path = ROOT) -> str:
    """Every character the subset must hold (before :data:`KNOWN_ABSENT` is taken out)."""
    parts = [ui_strings(), *code_strings(root).values(), big5_level1(), latin1(), extra_text()]
    for manifest in manifests:
        parts.extend(_json_strings(json.loads(manifest.read_text(encoding="utf-8"))))
    return drawable("".join(parts))


def source_collection(weight: str, source_dir: Path | None = None) -> str | None:
    """The Noto Sans CJK collection of ``weight`` ("Bold" or "Regular") in ``source_dir``, or
    else the system's; None when there is none."""
    from display.fonts import SYSTEM_CJK_PATTERNS

    if source_dir is not None:
        given = source_dir / f"NotoSansCJK-{weight}.ttc"
        return str(given) if given.is_file() else None
    for pattern in SYSTEM_CJK_PATTERNS:
        path = pattern.format(weight=weight)
        if Path(path).is_file():
            return path
    return None


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


def build(source: str, text: str, out: Path) -> tuple[int, str]:
    """Write the subset of ``source``'s TC face holding ``text``; (bytes, characters absent
    from the source)."""
    from fontTools import subset  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from fontTools.ttLib import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
        TTFont,
    )

    font = TTFont(source, fontNumber=tc_font_number(source))
    cmap = font.getBestCmap()
    absent = "".join(ch for ch in text if ord(ch) not in cmap)
    options = subset.Options()
    # pygame.freetype draws glyph by glyph from the cmap (no shaping): the OpenType layout
    # features would only add glyphs never drawn (other regions' forms, vertical forms).
    options.layout_features = []
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = True
    subsetter = subset.Subsetter(options=options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    font.save(str(out))
    return out.stat().st_size, absent


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("manifests", nargs="*", type=Path, help="deck manifests (JSON)")
    parser.add_argument("--source-dir", type=Path, default=None,
                        help="a folder holding NotoSansCJK-{Bold,Regular}.ttc (e.g. Debian's "
                             "fonts-noto-cjk unpacked with dpkg -x); default: the system's")
    args = parser.parse_args(argv)
    text = "".join(ch for ch in needed_text(args.manifests) if ch not in KNOWN_ABSENT)
    sources = {weight: source_collection(weight, args.source_dir) for weight in WEIGHTS}
    if any(source is None for source in sources.values()):
        where = args.source_dir or "the system"
        print(f"the Noto Sans CJK collections are missing in {where}: apt-get install "
              "fonts-noto-cjk, or unpack it and give --source-dir", file=sys.stderr)
        return 1
    total = 0
    for weight, source in sources.items():
        assert source is not None
        out = HERE / f"NotoSansCJKtc-{weight}-subset.otf"
        size, absent = build(source, text, out)
        if absent:
            codes = ", ".join(f"{ch} U+{ord(ch):04X}" for ch in absent)
            print(f"{source}: no glyph for {codes}: use other characters, or add them to "
                  "KNOWN_ABSENT with the reason", file=sys.stderr)
            return 1
        total += size
        print(f"{out.name}: {len(text)} characters, {size / 1e6:.2f} MB")
    width = 80
    lines = [text[i:i + width] for i in range(0, len(text), width)]
    (HERE / "charset.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"both weights: {total / 1e6:.2f} MB (limit {MAX_BYTES / 1e6:.0f} MB)")
    if total > MAX_BYTES:
        print("over the limit: drop characters (extra_text.txt) before committing",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
