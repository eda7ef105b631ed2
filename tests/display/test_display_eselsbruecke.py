"""While the others recall a story, nothing the screen is given names its keywords: not the
view, not the snapshot, not a text drawn. The recap at the end names them all."""

from __future__ import annotations

import random
from dataclasses import dataclass

import display_testing  # noqa: F401  (headless SDL first)
import pygame
import pytest
from display_testing import SIZES, book

from display.games.eselsbruecke import DISPLAY
from display.games.eselsbruecke.view import game_view, learn_tiles
from display.model import PlayerInfo, Snapshot
from display.renderer import Renderer
from engine import eselsbruecke as eb
from engine.core import Rejection
from tablekeeper.games.eselsbruecke.simplayers import SimTable


@dataclass(frozen=True)
class Info:
    name_zh: str
    name_en: str
    image: object = None


NAMES = {f"k{i:03d}": Info(f"詞{i:03d}", f"word{i:03d}") for i in range(1, 181)}


def _states(seed: int = 3) -> list[eb.State]:
    rng = random.Random(seed)
    table = SimTable.generate(rng, 4)
    state = eb.initial_state()
    out = []
    while not eb.is_over(state):
        result = eb.apply(state, table.propose(state))
        assert not isinstance(result, Rejection), result
        state = result
        out.append(state)
    return out


def _words(tiles: tuple[str, ...]) -> set[str]:
    out = set(tiles)
    for t in tiles:
        if t in NAMES:
            out |= {NAMES[t].name_zh, NAMES[t].name_en}
    return out


def _snapshot(state: eb.State, lang: str) -> Snapshot:
    players = tuple(PlayerInfo(s.name, s.colour) for s in state.seats)
    return Snapshot(state=state, now_ms=state.now_ms + 1_000, lang=lang, players=players,
                    game=DISPLAY)


def test_no_recall_turn_shows_the_keywords_being_recalled() -> None:
    learn_tiles(NAMES)
    fonts = book()
    recalls = [s for s in _states() if s.phase in (eb.Phase.DEAL, eb.Phase.GUESS)]
    assert len(recalls) > 20
    for lang in ("zh-TW", "en"):
        renderer = Renderer(pygame.Surface(SIZES[1]), fonts=fonts, strict=True)
        for state in recalls[::3]:
            hidden = _words(state.recall_tiles)
            assert hidden
            view = game_view(state)
            assert view is not None and not view.laid and not view.recap
            assert not any(w in repr(view) for w in hidden), state
            snap = _snapshot(state, lang)
            assert not any(w in repr(snap.last_card) for w in hidden)
            renderer.render(snap)
            assert renderer.screen in ("deal", "guess", "penalties"), renderer.screen
            drawn = " ".join(t.text for t in renderer.texts)
            assert not any(w in drawn for w in hidden if not w.startswith("k")), drawn


def test_the_story_shows_its_tiles_and_the_end_recaps_every_story() -> None:
    learn_tiles(NAMES)
    states = _states()
    story = next(s for s in states if s.phase is eb.Phase.STORY and len(s.laid) == 2)
    view = game_view(story)
    assert view is not None
    assert [t.tile_id for t in view.laid] == list(story.laid)
    assert view.laid[0].name("en") == NAMES[story.laid[0]].name_en
    end = states[-1]
    view = game_view(end)
    assert view is not None and view.over
    told = {t for s in end.seats for tiles in s.slots for t in tiles}
    assert {t.tile_id for st in view.recap for t in st.tiles} == told
    renderer = Renderer(pygame.Surface(SIZES[0]), fonts=book(), strict=True)
    renderer.render(_snapshot(end, "en"))
    assert renderer.screen == "over"
    drawn = " ".join(t.text for t in renderer.texts)
    assert all(NAMES[t].name_en in drawn for t in told)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_answer_ring_drains_and_says_times_up(size: tuple[int, int]) -> None:
    import numpy as np

    from display.colours import ACCENT

    state = next(s for s in _states() if s.phase is eb.Phase.GUESS and not s.answered)
    assert state.deadline_ms is not None
    renderer = Renderer(pygame.Surface(size), fonts=book(), strict=True)
    shares = []
    for left in (14_000, 9_000, 6_000):
        snap = _snapshot(state, "zh-TW")
        renderer.render(Snapshot(**{**snap.__dict__, "now_ms": state.deadline_ms - left}))
        px = pygame.surfarray.pixels3d(renderer.surface)
        shares.append(float(np.all(px == np.array(ACCENT), axis=-1).mean()))
        del px
    assert shares[0] > shares[1] > shares[2] > 0.001
    snap = _snapshot(state, "zh-TW")
    renderer.render(Snapshot(**{**snap.__dict__, "now_ms": state.deadline_ms + 5}))
    assert "時間到！" in [t.text for t in renderer.texts]
