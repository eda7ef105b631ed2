"""The synthetic demo decks: counts, ids, distinct templates, caching and the CLI command."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablekeeper.cli import main
from vision import demo_decks as gen
from vision.deck import Deck, load_deck
from vision.demo_decks import STAMP, build_demo_deck, default_cache_dir, demo_deck

DemoDecks = Callable[[str], Deck]


def _normalised_grey(deck: Deck, rotate: bool = False) -> np.ndarray:
    rows = []
    for cid in deck.ids:
        g = cv2.cvtColor(deck.template(cid), cv2.COLOR_BGR2GRAY).astype(np.float32)
        if rotate:
            g = g[::-1, ::-1]
        v = g.ravel() - g.mean()
        rows.append(v / np.linalg.norm(v))
    return np.stack(rows)


def _max_cross_correlation(deck: Deck, rotate: bool = False) -> float:
    a = _normalised_grey(deck)
    c = (_normalised_grey(deck, rotate) if rotate else a) @ a.T
    np.fill_diagonal(c, -1.0)
    return float(c.max())


def test_the_game(demo_decks: DemoDecks) -> None:
    deck = demo_decks("the-game")
    numbers = [c for c in deck.cards if c.kind == "number"]
    assert sorted(c.value for c in numbers if c.value is not None) == list(range(2, 100))
    assert {c.id: (c.value, c.copies) for c in deck.cards if c.kind != "number"} == {
        "row-up": (1, 2), "row-down": (100, 2)}
    assert sum(c.copies for c in deck.cards) == 98 + 4
    assert (deck.game, deck.shape, deck.size, deck.demo) == ("the-game", "card", (200, 300), True)


def test_wink(demo_decks: DemoDecks) -> None:
    deck = demo_decks("wink")
    assert [c.value for c in deck.cards] == list(range(1, 37))
    assert all(c.copies == 2 for c in deck.cards)  # black-back and white-back sets
    assert deck.use_colour


def test_something_missing(demo_decks: DemoDecks) -> None:
    items = demo_decks("something-missing-items")
    scenes = demo_decks("something-missing-scenes")
    assert len(items.cards) == 66 and len(scenes.cards) == 15
    assert all(c.kind == "item" for c in items.cards)
    assert len({c.name_zh for c in items.cards}) == 66
    assert len({c.name_en for c in items.cards}) == 66
    assert any(c.name_zh == "大同電鍋" for c in items.cards)
    for s in scenes.cards:
        assert s.kind == "scene"
        assert len(s.contains) == gen.ITEMS_PER_SCENE
        assert set(s.contains) <= set(items.ids)
    assert "示範" in items.title_zh and "demo" in items.title_en


def test_eselsbruecke(demo_decks: DemoDecks) -> None:
    deck = demo_decks("eselsbruecke")
    keywords = [c for c in deck.cards if c.kind == "keyword"]
    assert len(keywords) == 180
    assert len({c.name_en for c in keywords}) == 180
    assert len({c.name_zh for c in keywords}) == 180
    assert deck.card("stop").copies == 30
    assert (deck.shape, deck.size) == ("square", (200, 200))


@pytest.mark.parametrize("name", list(gen.DEMO_DECKS))
def test_templates_are_distinct(demo_decks: DemoDecks, name: str) -> None:
    """Normalised grey correlation between different faces stays below a bound (The Game's
    faces differ only by their digits, like the real ones, so its bound is the highest)."""
    deck = demo_decks(name)
    assert len(set(deck.ids)) == len(deck.ids)
    bound = 0.975 if name == "the-game" else 0.95
    assert _max_cross_correlation(deck) < bound
    # upside down, no face looks like another (68 vs 89): corner indices and underline
    assert _max_cross_correlation(deck, rotate=True) < 0.85


def test_generation_is_deterministic() -> None:
    a, b = build_demo_deck("wink"), build_demo_deck("wink")
    assert a.cards == b.cards
    assert all(np.array_equal(a.template(i), b.template(i)) for i in a.ids)


def test_unknown_demo_deck(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown demo deck 'chess'"):
        demo_deck("chess", tmp_path)
    with pytest.raises(ValueError, match="known: the-game"):
        build_demo_deck("chess")


def test_cache_is_reused_and_regenerated_on_new_version(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path = demo_deck("something-missing-scenes", tmp_path)
    assert path == tmp_path / "something-missing-scenes"
    marker = path / "marker"
    marker.write_text("still the same folder")
    assert demo_deck("something-missing-scenes", tmp_path) == path
    assert marker.exists()  # reused, not regenerated
    monkeypatch.setattr(gen, "GENERATOR_VERSION", gen.GENERATOR_VERSION + 1)
    assert demo_deck("something-missing-scenes", tmp_path) == path
    assert not marker.exists()  # regenerated
    assert str(gen.GENERATOR_VERSION) in (path / STAMP).read_text()
    assert len(load_deck(path).cards) == 15
    assert [p.name for p in tmp_path.iterdir()] == ["something-missing-scenes"]


def test_damaged_cache_is_regenerated(tmp_path: Path) -> None:
    path = demo_deck("something-missing-scenes", tmp_path)
    (path / STAMP).write_text("garbage")
    (path / "s01.png").write_bytes(b"")
    assert load_deck(demo_deck("something-missing-scenes", tmp_path)).card("s01")


def test_default_cache_dir() -> None:
    assert default_cache_dir({"XDG_CACHE_HOME": "/c", "HOME": "/h"}) == Path(
        "/c/tablekeeper/decks")
    assert default_cache_dir({"HOME": "/h"}) == Path("/h/.cache/tablekeeper/decks")


def test_cli_make_demo_decks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision", "make-demo-decks", str(tmp_path), "--deck",
                 "something-missing-scenes"]) == 0
    assert "15 cards" in capsys.readouterr().out
    assert len(load_deck(tmp_path / "something-missing-scenes").cards) == 15


def test_cli_make_demo_decks_unknown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision", "make-demo-decks", str(tmp_path), "--deck", "chess"]) == 2
    assert "unknown demo deck(s): chess" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())
