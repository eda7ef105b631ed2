"""Fonts: the Traditional Chinese face of Noto Sans CJK, a bundled subset, or a Latin fallback.

Noto Sans CJK ships as a TrueType collection (``NotoSansCJK-*.ttc``) with several faces; face 0 is
Japanese, whose glyphs for many shared characters differ from Taiwan's standard forms. We open
the face whose name is ``Noto Sans CJK TC …`` (found by asking each face its name, not by a
hard-coded index; it is index 3 in Debian's and Pi OS's package).

Search order, per weight (``bold`` for titles and numbers, ``regular`` for the rest):

1. the system's Noto Sans CJK collection (Debian/Pi OS package ``fonts-noto-cjk``), unless the
   environment says ``TABLEKEEPER_SYSTEM_FONTS=0`` (:data:`SYSTEM_FONTS_ENV`);
2. the subset TC font bundled in ``display/fonts/`` (built by ``display/fonts/make_subset.py``;
   it covers every string of the code — the translation tables, the demo's names, the decks'
   card names, what screens draw —, Big5 level 1 (5,401 characters), Latin-1, and the symbols
   of ``display/fonts/extra_text.txt``);
3. pygame's built-in Latin font, with one clear log line: Chinese text will show as boxes.

``TABLEKEEPER_SYSTEM_FONTS=0`` makes a machine with ``fonts-noto-cjk`` look like a fresh one:
the test suite sets it for every test (``tests/conftest.py``, with an empty fontconfig
configuration), so no result depends on what happens to be installed; a developer can set it
to see what a Pi before its installer ran shows. It is read each time a :class:`FontBook` is
made. Passing ``system_patterns`` explicitly overrides it.

:class:`FontBook` caches ``pygame.freetype.Font`` objects by (face, size).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pygame
import pygame.freetype

_log = logging.getLogger(__name__)

Weight = Literal["bold", "regular"]
WEIGHTS: tuple[Weight, ...] = ("bold", "regular")

TC_FAMILY = "Noto Sans CJK TC"

#: Where Linux distributions put the Noto CJK collections ({weight} is Bold or Regular).
SYSTEM_CJK_PATTERNS: tuple[str, ...] = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-{weight}.ttc",  # Debian, Pi OS
    "/usr/share/fonts/truetype/noto/NotoSansCJK-{weight}.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-{weight}.ttc",  # Arch
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-{weight}.ttc",  # Fedora
)

#: Environment variable: "0" (or "false", "no", "off") hides the system fonts.
SYSTEM_FONTS_ENV = "TABLEKEEPER_SYSTEM_FONTS"

BUNDLED_DIR = Path(__file__).resolve().parent / "fonts"
BUNDLED_FILES: dict[Weight, str] = {
    "bold": "NotoSansCJKtc-Bold-subset.otf",
    "regular": "NotoSansCJKtc-Regular-subset.otf",
}
MAX_FACES = 16


@dataclass(frozen=True)
class Face:
    """One font face: a file, the face index inside it, and where it came from."""

    path: str | None  # None: pygame's built-in font
    index: int
    name: str
    source: Literal["system", "bundled", "fallback"]

    @property
    def cjk(self) -> bool:
        return self.source != "fallback"


def system_fonts_allowed() -> bool:
    """Whether the system's fonts may be used (:data:`SYSTEM_FONTS_ENV` is not "0")."""
    value = os.environ.get(SYSTEM_FONTS_ENV, "1").strip().lower()
    return value not in ("0", "false", "no", "off")


def default_system_patterns() -> tuple[str, ...]:
    """:data:`SYSTEM_CJK_PATTERNS`, or none when :data:`SYSTEM_FONTS_ENV` hides them."""
    return SYSTEM_CJK_PATTERNS if system_fonts_allowed() else ()


def _ensure_freetype() -> None:
    if not pygame.freetype.get_init():
        pygame.freetype.init()


def face_names(path: str) -> list[str]:
    """The names of the faces in a font file or collection, in index order."""
    _ensure_freetype()
    names: list[str] = []
    for index in range(MAX_FACES):
        try:
            font = pygame.freetype.Font(path, 12, font_index=index)
        except (OSError, pygame.error):
            break
        names.append(str(font.name))
    return names


def tc_face_index(path: str) -> int | None:
    """The index of the proportional "Noto Sans CJK TC" face in ``path``, or None."""
    return _tc_index(face_names(path))


def _tc_index(names: Sequence[str]) -> int | None:
    for index, name in enumerate(names):
        if name.startswith(TC_FAMILY):
            return index
    return None


def _tc_face(path: str, source: Literal["system", "bundled"]) -> Face | None:
    names = face_names(path)
    index = _tc_index(names)
    return None if index is None else Face(path, index, names[index], source)


def find_face(
    weight: Weight,
    *,
    system_patterns: Sequence[str] | None = None,
    bundled_dir: Path | None = BUNDLED_DIR,
) -> Face:
    """The best face for ``weight``: system TC, bundled subset TC, then built-in Latin.

    ``system_patterns`` None: :func:`default_system_patterns` (the environment decides).
    """
    if system_patterns is None:
        system_patterns = default_system_patterns()
    for pattern in system_patterns:
        path = pattern.format(weight=weight.capitalize())
        face = _tc_face(path, "system") if Path(path).is_file() else None
        if face is not None:
            return face
    if bundled_dir is not None:
        path = str(bundled_dir / BUNDLED_FILES[weight])
        face = _tc_face(path, "bundled") if Path(path).is_file() else None
        if face is not None:
            return face
    return Face(None, 0, "pygame default (Latin only)", "fallback")


class FontBook:
    """Finds the faces once and hands out cached ``Font`` objects by (weight, size)."""

    def __init__(
        self,
        *,
        system_patterns: Sequence[str] | None = None,
        bundled_dir: Path | None = BUNDLED_DIR,
    ) -> None:
        _ensure_freetype()
        if system_patterns is None:
            system_patterns = default_system_patterns()
        self.faces: dict[Weight, Face] = {
            w: find_face(w, system_patterns=system_patterns, bundled_dir=bundled_dir)
            for w in WEIGHTS
        }
        if not any(face.cjk for face in self.faces.values()):
            hidden = "" if system_fonts_allowed() else f", {SYSTEM_FONTS_ENV}=0 hides the system's"
            _log.warning(
                "display: no CJK font found (no fonts-noto-cjk%s, no bundled subset in %s); "
                "Chinese text will show as boxes — install fonts-noto-cjk",
                hidden, bundled_dir,
            )
        self._cache: dict[tuple[Face, int], pygame.freetype.Font] = {}

    @property
    def cjk(self) -> bool:
        """Whether Chinese text can be rendered."""
        return self.faces["bold"].cjk

    def font(self, weight: Weight, size: int) -> pygame.freetype.Font:
        """A font of ``weight`` at ``size`` pixels (cached)."""
        face = self.faces[weight]
        size = max(1, int(size))
        key = (face, size)
        font = self._cache.get(key)
        if font is None:
            font = pygame.freetype.Font(face.path, size, font_index=face.index)
            font.pad = False
            self._cache[key] = font
        return font

    def missing_glyphs(self, text: str, weight: Weight = "bold") -> str:
        """The characters of ``text`` that the ``weight`` face has no glyph for."""
        font = self.font(weight, 16)
        missing = []
        for ch in sorted(set(text)):
            if ch.isspace():
                continue
            metrics = font.get_metrics(ch)
            if not metrics or metrics[0] is None:
                missing.append(ch)
        return "".join(missing)
