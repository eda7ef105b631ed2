"""Configuration shared by the whole test suite (the root conftest: pytest imports it before any
test module, in every xdist worker).

Sections:

- **fonts**: the system's fonts are invisible to every test process;
- **vision: demo decks**: moved verbatim from ``tests/vision/conftest.py``. mypy checks
  ``tests/`` as loose modules (no ``__init__.py``), so two ``conftest.py`` files are one module
  twice, an error that stops the type check: the root conftest has to be the only one.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from vision.deck import Deck, load_deck
from vision.demo_decks import demo_deck

# --- fonts: what happens to be installed must not change a result ----------------------------
#
# A machine with fonts-noto-cjk passed tests that a fresh one (CI, a new laptop) failed: the
# bundled subset lacked characters the system font had. So every test sees what a fresh machine
# sees, set here at import, before any test module imports pygame:
#
# - TABLEKEEPER_SYSTEM_FONTS=0: display.fonts skips its hard-coded system paths (it reads the
#   variable whenever a FontBook is made) and uses the bundled subset;
# - FONTCONFIG_FILE: an empty fontconfig configuration (no font folders), so nothing that asks
#   fontconfig (pygame.font.SysFont / pygame.sysfont via fc-list, SDL) finds a system font.
#
# Child processes (the CLI and power-cut tests start `python -m tablekeeper`) inherit both.
# tests/display/test_display_fonts.py checks that this holds, and that the bundled font alone
# has every glyph the UI draws.

SYSTEM_FONTS_ENV = "TABLEKEEPER_SYSTEM_FONTS"  # display.fonts.SYSTEM_FONTS_ENV
EMPTY_FONTCONFIG = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<!-- tablekeeper's tests: no font folders, so fontconfig knows no fonts -->
<fontconfig></fontconfig>
"""


def hide_system_fonts() -> Path:
    """Point fontconfig at an empty configuration and switch display.fonts' system fonts off;
    returns the configuration file."""
    folder = Path(tempfile.gettempdir()) / f"tablekeeper-tests-{os.getuid()}"
    folder.mkdir(exist_ok=True)
    path = folder / "fonts-empty.conf"
    if not path.is_file() or path.read_text(encoding="utf-8") != EMPTY_FONTCONFIG:
        part = folder / f"fonts-empty.conf.{os.getpid()}"
        part.write_text(EMPTY_FONTCONFIG, encoding="utf-8")
        part.replace(path)  # atomic: xdist workers may race here
    os.environ["FONTCONFIG_FILE"] = str(path)
    os.environ[SYSTEM_FONTS_ENV] = "0"
    return path


EMPTY_FONTCONFIG_FILE = hide_system_fonts()


# --- vision: demo decks, generated once per test session --------------------------------------

@pytest.fixture(scope="session")
def demo_deck_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache folder of demo decks shared by the session (decks are made on first use)."""
    return tmp_path_factory.mktemp("demo-decks")


@pytest.fixture(scope="session")
def demo_decks(demo_deck_cache: Path) -> Callable[[str], Deck]:
    """``demo_decks("wink")`` -> the loaded demo deck, generated once per session."""
    loaded: dict[str, Deck] = {}

    def get(name: str) -> Deck:
        if name not in loaded:
            loaded[name] = load_deck(demo_deck(name, demo_deck_cache))
        return loaded[name]

    return get
