"""Headless pygame for the display tests (imported first by each display test module).

A helper module instead of a ``conftest.py``: mypy checks ``tests/`` as loose modules, and a
second ``conftest`` module (``tests/vision`` has one) is a duplicate-module error.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from functools import cache

import pygame

from display.fonts import FontBook

SIZES = [(1920, 1080), (800, 480)]


@cache
def book() -> FontBook:
    """One FontBook for the whole test session (finding faces opens the font files)."""
    pygame.display.init()
    return FontBook()
