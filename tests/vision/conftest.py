"""Shared fixtures of the vision tests: demo decks generated once per test session."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from vision.deck import Deck, load_deck
from vision.demo_decks import demo_deck


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
