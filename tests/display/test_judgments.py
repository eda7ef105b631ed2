"""No judgment before its time (issue 41): a judgment about a player (right, wrong, held it,
found, caught ...) is never the focus's default, and is not offered before the event it
judges (the answer given). Checked over every sample screen of every game, both languages;
each game's display names its judgments (``GameDisplay.judgments``) and when they may be
offered (``GameDisplay.judging``)."""

from __future__ import annotations

import os
from dataclasses import replace

import pygame
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from display_testing import book

from display.games import displays
from display.i18n import LANGS
from display.input import REST, Button, HostAction, focus_order
from display.renderer import Renderer
from display.samples import snapshots


@pytest.mark.parametrize("lang", LANGS)
def test_no_sample_screen_defaults_to_or_offers_early_a_judgment(lang: str) -> None:
    judged_screens: dict[str, list[str]] = {d.game: [] for d in displays()}
    for name, snap in snapshots(lang):
        renderer = Renderer(pygame.Surface((1280, 720)), fonts=book(), strict=True)
        renderer.render(replace(snap, focus=0))
        game = renderer.game
        order = focus_order(renderer.buttons)
        if order:
            assert not order[0].judgment, (name, order[0].action)
            assert not order[0].risky, (name, order[0].action)
        assert renderer.focused is None or not renderer.focused.judgment, name
        offered = [b for b in renderer.buttons if b.judgment and b.enabled]
        if not offered:
            continue
        assert game is not None, name
        view = renderer._view_of(snap.state)
        assert game.judging(view), (name, "offers", [b.action for b in offered],
                                    "before the event it judges")
        judged_screens[game.game].append(name)
        # nothing is highlighted until the host walks to a choice: *confirm* assumes nothing
        assert order[0].action.name == REST or not order[0].judgment, name
    # the check can fail: every game that judges a player shows it on some sample
    for judging in ("eselsbruecke", "something_missing", "wink"):
        assert judged_screens[judging], (judging, "no sample screen offers a judgment")


def test_eselsbruecke_offers_the_verdicts_only_once_the_guesser_has_answered() -> None:
    samples = dict(snapshots("zh-TW"))
    eb = next(d for d in displays() if d.game == "eselsbruecke")
    for name, snap in samples.items():
        if not name.startswith("eb-") or snap.state is None:
            continue
        renderer = Renderer(pygame.Surface((800, 480)), fonts=book(), strict=True)
        renderer.render(replace(snap, focus=0))
        if renderer.screen != "guess":
            continue
        view = renderer._view_of(snap.state)
        actions = {b.action.name for b in renderer.buttons if b.enabled}
        if view.answered:
            assert "answered" not in actions and "wrong" in actions, name
            assert renderer.focused is None, name  # resting: press next to choose
        else:
            assert actions.isdisjoint(eb.judgments), (name, actions)
            assert renderer.focused is not None
            assert renderer.focused.action.name == "answered", name


def test_the_resting_focus_comes_first_only_before_judgments() -> None:
    def button(name: str, *, judgment: bool = False) -> Button:
        return Button((0, 0, 10, 10), HostAction(name), judgment=judgment)

    order = focus_order([button("right", judgment=True), button("menu"),
                         button("wrong", judgment=True)])
    assert [b.action.name for b in order] == [REST, "right", "wrong", "menu"]
    order = focus_order([button("right", judgment=True), button("answered")])
    assert [b.action.name for b in order] == ["answered", "right"]
