"""Headless pygame for the display tests."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from collections.abc import Iterator

import pygame
import pytest

from display.fonts import FontBook


@pytest.fixture(scope="session", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.display.init()
    yield
    pygame.quit()


@pytest.fixture(scope="session")
def fonts(_pygame: None) -> FontBook:
    return FontBook()
