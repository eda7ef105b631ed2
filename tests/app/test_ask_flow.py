"""Ask, don't guess (issue 37): a card the camera found but could not name is put to the host
over the game; one press names it, and it enters the game as the camera's card would.

The real screen (SDL's dummy driver), loop, referee and The Game's kit; the host buttons on
gpiozero's ``MockFactory`` pins; the camera a scripted source whose questions are
:class:`vision.tracker.UnsureCard` values as the watcher makes them.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from display.input import HostAction
from engine.the_game import Phase
from firmware.box import build
from firmware.config import FirmwareConfig
from firmware.devices import HostButton
from firmware.mock import mock_factory
from tablekeeper import games
from tablekeeper.app import Loop
from tablekeeper.ask import Asks
from tablekeeper.clock import FakeClock
from tablekeeper.games.the_game import host
from tablekeeper.journal import JournaledGame, read
from tablekeeper.referee import CardSeen, Referee
from tablekeeper.screen import LONG_PRESS_NS, PygameScreen
from vision.tracker import UnsureCard

MS = 1_000_000
CFG = FirmwareConfig.from_dict({"backend": "gpio", "sound": {"kind": "none"}})


def unsure(key: int, ids: tuple[str, ...], at: tuple[float, float] = (320.0, 240.0),
           zone: str = "row1") -> UnsureCard:
    x, y = at
    corners = ((x - 40, y - 60), (x + 40, y - 60), (x + 40, y + 60), (x - 40, y + 60))
    crop = np.full((360, 240, 3), 200, np.uint8)
    return UnsureCard(t_ns=5 * MS, seq=3, zone=zone, corners=corners, first_seen_ns=4 * MS,
                      candidates=tuple((c, 0.8 - 0.05 * i) for i, c in enumerate(ids)),
                      crop=crop, gate="min_score", key=key,
                      template=np.full((300, 200, 3), 180, np.uint8))


class Cards:
    """A camera that names nothing itself: its questions are queued by the test."""

    def __init__(self) -> None:
        self.unsure: list[UnsureCard] = []
        self.named: list[CardSeen] = []
        self.status = None

    def poll(self, now_ns: int) -> list[CardSeen]:
        out, self.named = self.named, []
        return out

    def questions(self) -> list[Any]:
        out, self.unsure = self.unsure, []
        return out

    def close(self) -> None:
        pass


class Box:
    def __init__(self, folder: Path, size: tuple[int, int] = (800, 480)) -> None:
        self.clock = FakeClock()
        self.factory = mock_factory()
        self.firmware = build(CFG, self.factory, rng=random.Random(5), clock=self.clock.now_ns)
        kit = games.load("the-game")
        deck = kit.deck(None)
        self.path = folder / "game.jsonl"
        referee = Referee(JournaledGame.create(self.path, game=kit.engine.name), self.firmware,
                          self.clock.now_ns(), kit=kit, **kit.table_options(deck))
        self.screen = PygameScreen(size=size, rng=random.Random(1),
                                   cards=kit.card_infos(deck))
        self.cards = Cards()
        self.loop = Loop(referee, self.clock, cards=self.cards, screen=self.screen)
        self.loop.asks = Asks()
        referee.submit(host.new_game(["A", "B", "C"], ["red", "blue", "green"], "normal", 0,
                                     referee.at_ms(self.clock.now_ns())))
        self.step()
        self.presses = 0

    def step(self, ms: int = 40) -> None:
        self.clock.advance(ms * MS)
        self.loop.step()

    def press(self, button: HostButton) -> None:
        pin = self.factory.pin(getattr(CFG.pins, button.value))
        pin.press(self.clock.now_ns())
        self.step(60)
        pin.release(self.clock.now_ns())
        self.step()
        self.step()
        self.presses += 1

    def long_back(self) -> None:
        pin = self.factory.pin(CFG.pins.back)
        pin.press(self.clock.now_ns())
        self.step()
        self.step(LONG_PRESS_NS // MS + 100)
        pin.release(self.clock.now_ns())
        self.step()

    @property
    def focused(self) -> tuple[str, Any]:
        button = self.screen.renderer.focused
        assert button is not None
        return button.action.name, button.action.arg

    def shown(self) -> tuple[str, ...]:
        """The candidates on the question's page shown."""
        return tuple(str(b.action.arg) for b in self.screen.renderer.buttons
                     if b.action.name == "ask.pick")

    def notes(self) -> list[Any]:
        return [r.note for r in read(self.path).records if r.note is not None]


@pytest.fixture
def box(tmp_path: Path) -> Box:
    return Box(tmp_path)


def test_one_press_names_the_card_and_the_engine_plays_it(box: Box) -> None:
    assert box.loop.referee.state.phase is Phase.PLAY
    box.cards.unsure.append(unsure(1, ("n42", "n47", "n12")))
    box.step()
    assert box.screen.renderer.screen == "ask" and box.loop.asks is not None
    assert box.loop.asks.open
    assert box.focused == ("ask.pick", "n42")  # the best candidate, focused
    box.press(HostButton.CONFIRM)
    assert box.presses == 1
    state = box.loop.referee.state
    assert 42 in state.played and state.rows[0].top == 42
    assert not box.loop.asks.pending and box.screen.renderer.screen != "ask"
    (note,) = [n for n in box.notes() if n.kind == "asked"]
    assert note.fields["chosen"] == "n42" and note.fields["by"] == "host"
    assert [c for c, _ in note.fields["candidates"]] == ["n42", "n47", "n12"]
    assert note.fields["card"]["zone"] == "row1"


def test_next_walks_the_others_then_none_of_these_opens_the_keypad(box: Box) -> None:
    box.cards.unsure.append(unsure(1, ("n42", "n47", "n12")))
    box.step()
    walked = [box.focused]
    for _ in range(4):
        box.press(HostButton.NEXT)
        walked.append(box.focused)
    assert walked == [("ask.pick", "n42"), ("ask.pick", "n47"), ("ask.pick", "n12"),
                      ("ask.none", None), ("ask.later", None)]
    for _ in range(8):  # (the language switch) and round again, to "none of these"
        box.press(HostButton.NEXT)
        if box.focused == ("ask.none", None):
            break
    assert box.focused == ("ask.none", None)
    box.press(HostButton.CONFIRM)
    assert box.loop.asks is not None and not box.loop.asks.pending
    assert box.screen.part(box.loop).entry is not None  # The Game's keypad, as today
    (note,) = [n for n in box.notes() if n.kind == "asked"]
    assert note.fields["chosen"] is None
    assert not box.loop.referee.state.played


def test_back_and_the_menu_never_pass_it_silently(box: Box) -> None:
    box.cards.unsure.append(unsure(1, ("n42", "n47")))
    box.step()
    box.long_back()  # the host menu over the question ...
    assert box.screen.menu_open and box.screen.renderer.screen == "menu"
    box.press(HostButton.CONFIRM)  # ... back to the game: the question again
    assert box.screen.renderer.screen == "ask"
    box.press(HostButton.BACK)  # later: it stays pending, and the banner says so
    asks = box.loop.asks
    assert asks is not None and asks.pending and asks.deferred and not asks.open
    assert box.screen.renderer.screen != "ask"
    banner = " ".join(r.text for r in box.screen.renderer.banner_texts)
    assert "待確認" in banner  # 「1 張卡待確認：選單 → 確認卡片」
    assert not box.loop.referee.state.played
    # the host menu offers it, one *next* away
    box.long_back()
    box.press(HostButton.NEXT)
    assert box.focused == ("menu.pick", "ask")
    box.press(HostButton.CONFIRM)
    assert box.screen.renderer.screen == "ask" and box.focused == ("ask.pick", "n42")
    box.press(HostButton.CONFIRM)
    assert 42 in box.loop.referee.state.played


SIX = ("n42", "n47", "n12", "n24", "n72", "n17")


def test_next_walks_on_to_the_second_page_then_none_of_these(box: Box) -> None:
    """Six candidates, two pages: *next* walks the best 3, then the next 3 (the page turns),
    then "none of these" and "later", then round again from the best card."""
    box.cards.unsure.append(unsure(1, SIX))
    box.step()
    walked = [box.focused]
    shown = [box.shown()]
    for _ in range(7):
        box.press(HostButton.NEXT)
        walked.append(box.focused)
        shown.append(box.shown())
    assert walked == [("ask.pick", c) for c in SIX] + [("ask.none", None), ("ask.later", None)]
    assert shown[:3] == [SIX[:3]] * 3 and shown[3:] == [SIX[3:]] * 5
    for _ in range(4):  # (the menu's button) and round again
        box.press(HostButton.NEXT)
        if box.focused == ("ask.pick", "n42"):
            break
    assert box.focused == ("ask.pick", "n42")


@pytest.mark.parametrize(("right", "presses"), [
    ("n42", 1), ("n47", 2), ("n12", 3), ("n24", 2), ("n72", 3), ("n17", 4)])
def test_any_of_the_best_six_is_at_most_four_presses_away(box: Box, right: str,
                                                          presses: int) -> None:
    """*back* turns to the other page, its first card focused: the 4th best is *back*,
    *confirm*; the 6th *back*, *next*, *next*, *confirm*."""
    box.cards.unsure.append(unsure(1, SIX))
    box.step()
    if right in SIX[3:]:
        box.press(HostButton.BACK)
        assert box.loop.asks is not None and box.loop.asks.open  # (not put off)
    while box.focused != ("ask.pick", right):
        box.press(HostButton.NEXT)
    box.press(HostButton.CONFIRM)
    assert box.presses == presses
    assert int(right[1:]) in box.loop.referee.state.played
    (note,) = [n for n in box.notes() if n.kind == "asked"]
    assert note.fields["chosen"] == right and len(note.fields["candidates"]) == 6


def test_back_turns_the_page_and_back_again_and_none_of_these_is_five_presses(
        box: Box) -> None:
    box.cards.unsure.append(unsure(1, SIX))
    box.step()
    box.press(HostButton.BACK)
    assert box.focused == ("ask.pick", "n24")
    box.press(HostButton.BACK)
    assert box.focused == ("ask.pick", "n42")  # the best 3 again
    box.press(HostButton.BACK)
    for _ in range(3):
        box.press(HostButton.NEXT)
    focused = box.screen.renderer.focused
    assert focused is not None and focused.action == HostAction("ask.none")
    assert box.presses == 6
    box.press(HostButton.CONFIRM)
    assert box.screen.part(box.loop).entry is not None  # The Game's keypad
    assert not box.loop.referee.state.played


def test_touch_turns_the_page_too(box: Box) -> None:
    import pygame

    box.cards.unsure.append(unsure(1, SIX))
    box.step()

    def tap(name: str, arg: Any = None) -> None:
        target = next(b for b in box.screen.renderer.buttons
                      if (b.action.name, b.action.arg) == (name, arg))
        x, y, w, h = target.rect
        pos = (x + w // 2, y + h // 2)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
        box.step()
        box.step()

    assert not any(b.action.name == "ask.pick" and b.action.arg == "n72"
                   for b in box.screen.renderer.buttons)
    tap("ask.more")
    tap("ask.pick", "n72")
    assert 72 in box.loop.referee.state.played


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
@pytest.mark.parametrize("lang", ["zh-TW", "en"])
def test_the_focused_answer_is_the_largest_text_on_the_screen(tmp_path: Path, lang: str,
                                                              size: tuple[int, int]) -> None:
    """A host's drive found the focused answer the smallest text of the question at 800x480
    ("This one: ..." squeezed into its button): wherever the focus is, what *confirm* does
    is echoed in the screen's largest text."""
    box = Box(tmp_path, size)
    box.screen.lang = lang
    box.cards.unsure.append(unsure(1, SIX))
    box.step()
    names = {c: box.screen.card_view(c).name(lang) for c in SIX}
    for _ in range(8):
        name, arg = box.focused
        texts = box.screen.renderer.texts
        top = max(texts, key=lambda r: r.px)
        others = [r.px for r in texts if r is not top]
        assert top.px > max(others), (box.focused, top.text)
        if name == "ask.pick":
            assert top.text == names[arg]
        else:
            assert top.text.startswith({"zh-TW": ("都不是", "等一下"),
                                        "en": ("None", "Later")}[lang][name == "ask.later"])
        if name == "ask.later":
            break
        box.press(HostButton.NEXT)


def test_a_card_named_by_the_camera_after_all_withdraws_its_question(box: Box) -> None:
    box.cards.unsure.append(unsure(1, ("n42", "n47")))
    box.step()
    box.press(HostButton.BACK)  # put off
    box.cards.named.append(CardSeen("n42", 6 * MS, zone="row1", centre=(322.0, 238.0)))
    box.step()
    assert box.loop.asks is not None and not box.loop.asks.pending
    assert 42 in box.loop.referee.state.played


def test_touch_answers_too(box: Box) -> None:
    import pygame

    box.cards.unsure.append(unsure(1, ("n42", "n47", "n12")))
    box.step()
    target = next(b for b in box.screen.renderer.buttons
                  if (b.action.name, b.action.arg) == ("ask.pick", "n12"))
    x, y, w, h = target.rect
    pos = (x + w // 2, y + h // 2)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    box.step()
    box.step()
    assert 12 in box.loop.referee.state.played


def test_what_the_host_names_is_learnt_and_home_asks_keep_or_drop(box: Box,
                                                                   tmp_path: Path) -> None:
    from vision.learnt import LearningDeck

    kit = box.loop.referee.kit
    learning = LearningDeck(kit.deck(None), folder=tmp_path / "learnt")
    box.loop.learning = learning
    box.cards.unsure.append(unsure(1, ("n42", "n47")))
    box.step()
    box.press(HostButton.CONFIRM)
    assert learning.learnt == 1 and learning.entries[0].card == "n42"
    assert (tmp_path / "learnt" / "learnt.json").exists()
    box.screen.go_home(box.loop)  # the evening's end: the host chooses, keep first
    box.step()
    assert box.screen.menu_open and box.screen.menu_page == "learnt"
    assert box.focused == ("confirm", None)
    box.press(HostButton.BACK)  # no way past it but an answer
    box.step()
    assert box.screen.menu_page == "learnt"
    box.press(HostButton.NEXT)
    assert tuple(box.focused) == ("menu.pick", "yes")
    box.press(HostButton.CONFIRM)  # drop
    assert learning.learnt == 0 and not (tmp_path / "learnt").exists()
    assert not box.screen.menu_open


def test_the_game_clock_waits_while_a_card_is_asked_about(box: Box) -> None:
    """Issue 41's pause holds for issue 37's question: the clock stands still while the
    question is open, runs while it is put off ("later"), and both are journalled."""
    referee = box.loop.referee
    assert not referee.paused
    box.cards.unsure.append(unsure(1, ("n42", "n47")))
    box.step()
    assert box.screen.renderer.screen == "ask" and referee.paused
    box.press(HostButton.BACK)  # later: the game goes on meanwhile
    assert not referee.paused
    box.long_back()
    box.press(HostButton.NEXT)
    box.press(HostButton.CONFIRM)  # the menu's entry: the question again
    assert box.screen.renderer.screen == "ask" and referee.paused
    box.press(HostButton.CONFIRM)
    assert not referee.paused and 42 in referee.state.played
    kinds = [(n.kind, n.fields.get("why")) for n in box.notes() if n.kind in ("pause", "resume")]
    assert ("pause", "question") in kinds and ("resume", "question") in kinds
