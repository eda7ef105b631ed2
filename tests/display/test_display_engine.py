"""The screens drawn straight from the engine's 什麼不見啦 state, through a played round."""

from __future__ import annotations

import pygame
import pytest
from display_testing import book

from display.fonts import FontBook
from display.games.something_missing import DISPLAY
from display.games.something_missing.view import ViewPhase, game_view
from display.input import HostAction
from display.model import BuzzView, PlayerInfo, Snapshot
from display.renderer import Renderer
from engine.core import Event, Rejection
from engine.something_missing import (
    Bet,
    BuzzWon,
    CardRevealed,
    CheckResult,
    CheckTimeUp,
    EndGame,
    HourglassTurned,
    NewGame,
    NoBuzz,
    Pass,
    ReplaceScene,
    Rules,
    State,
    SwapScenes,
    ViewingStarted,
    ViewingTimeUp,
    apply,
    initial_state,
)
from engine.something_missing import Phase as EnginePhase

NAMES = ("小明", "阿美", "Alice", "志明")
COLOURS = ("red", "yellow", "blue", "green")


@pytest.fixture
def fonts() -> FontBook:
    return book()


def ok(state: State, event: Event) -> State:
    result = apply(state, event)
    assert not isinstance(result, Rejection), result
    return result


class Table:
    """Plays events into the engine and renders every state at both sizes."""

    def __init__(self, fonts: FontBook, rules: Rules | None = None) -> None:
        self.state = initial_state(rules)
        self.renderers = [Renderer(pygame.Surface(size), fonts=fonts, strict=True, game=DISPLAY)
                          for size in ((1920, 1080), (800, 480))]
        self.buzz: BuzzView | None = None

    def play(self, event: Event) -> str:
        self.state = ok(self.state, event)
        return self.show(event.at_ms)

    def show(self, now: int) -> str:
        screens = set()
        for r in self.renderers:
            r.render(Snapshot(state=self.state, now_ms=now, buzz=self.buzz))
            for t in r.texts:
                assert t.box.contains(t.rect), (r.screen, t.text)
            screens.add(r.screen)
        assert len(screens) == 1
        return screens.pop()

    def texts(self) -> list[str]:
        return [t.text for t in self.renderers[1].texts]


def test_a_round_from_setup_to_swap(fonts: FontBook) -> None:
    table = Table(fonts)
    assert table.show(0) == "title"  # SETUP: no game yet
    t = 1000
    new = NewGame(at_ms=t, names=NAMES, colours=COLOURS, variant="standard", start_seat=0,
                  scenes=(0, 1, 2, 3, 4))
    assert table.play(new) == "viewing"
    view = game_view(table.state)
    assert view is not None and view.timer_ms == 5000 and view.viewing_passes >= 5
    assert "小明" not in table.texts()  # viewing shows the countdown, not the players
    assert "準備好就開始計時" in table.texts()  # the first pass waits for "ready"
    assert [b for b in table.renderers[1].buttons if b.action.name == "start_timer"]
    table.play(ViewingStarted(at_ms=1000))
    first = table.state.deadline_ms
    assert first is not None
    t = first
    table.play(ViewingTimeUp(at_ms=t))
    assert table.show(t + 500) == "viewing" and "傳給左邊！" in table.texts()  # the beat
    while table.state.phase is EnginePhase.VIEWING:
        assert table.state.deadline_ms is not None
        t = table.state.deadline_ms
        screen = table.play(ViewingTimeUp(at_ms=t))
    assert screen == "reveal" and "輪到 小明" in table.texts()
    t += 2000
    assert table.play(CardRevealed(at_ms=t, card=16, seat=0)) == "reveal"
    assert "小明 翻開了" in table.texts()
    assert "沒人搶答就換 阿美" in table.texts()
    # Nobody buzzed: the next player reveals.
    t += 3000
    assert table.play(NoBuzz(at_ms=t)) == "reveal" and "輪到 阿美" in table.texts()
    t += 1000
    table.play(CardRevealed(at_ms=t, card=5, seat=1))
    t += 800
    table.buzz = BuzzView(winner=2, at_ms=t, margin_us=3200)
    assert table.play(BuzzWon(at_ms=t, seat=2, margin_us=3200)) == "buzz"
    assert "領先 3.2 毫秒" in table.texts()
    t += 3000  # the buzz screen has been up long enough
    assert table.show(t) == "betting"
    assert "Alice 必須投注" in table.texts()
    (pass_button,) = [b for b in table.renderers[1].buttons if b.action.name == "pass"]
    assert not pass_button.enabled
    table.play(Bet(at_ms=t + 1, seat=2, position=1))
    table.play(Bet(at_ms=t + 2, seat=3, position=1))
    table.play(Pass(at_ms=t + 3, seat=0))
    assert "不投注" in table.texts() and "投 B" in table.texts()
    view = game_view(table.state)
    assert view is not None and view.bets[1] == (2, 3) and view.passed == (0,)
    t += 10
    assert table.play(Bet(at_ms=t, seat=1, position=3)) == "checking"
    view = game_view(table.state)
    assert view is not None and view.checking_scene == 1 and view.timer_ms == 30_000
    assert "沒投這張的人可以翻沙漏" in table.texts()  # untimed until the hourglass is turned
    assert "Alice、志明：翻開場景，指出物品" in table.texts()  # who checks, by name
    assert [b for b in table.renderers[1].buttons if b.action.name == "start_timer"]
    assert table.play(HourglassTurned(at_ms=t)) == "checking"
    assert table.show(t + 12_000) == "checking" and "18" in table.texts()
    screen = table.play(CheckResult(at_ms=t + 15_000, position=1, found=True))
    assert screen == "checking"  # now scene D
    view = game_view(table.state)
    assert view is not None and view.checking_scene == 3 and view.results[1] is True
    assert table.state.deadline_ms is None
    table.play(HourglassTurned(at_ms=t + 16_000))
    assert table.state.deadline_ms is not None
    t = table.state.deadline_ms
    assert table.show(t) == "checking" and "時間到！" in table.texts()
    # time's up counts as not found: "found" is no longer offered (an undo would bring it back)
    assert not [b for b in table.renderers[1].buttons if b.action.name in ("found", "not_found")]
    # Time up on D: the round is scored -> the scoring screen for a while, then the swap.
    assert table.play(CheckTimeUp(at_ms=t)) == "scoring"
    assert "+4" in table.texts()  # 4 players, first of two bettors on B
    assert table.show(t + 10_000) == "swap"
    view = game_view(table.state)
    assert view is not None and view.swap_scenes == (1, 3)
    assert view.results[1] is True and view.results[3] is False
    assert any(b.action.name == "swap" and b.action.arg == (1, 3)
               for b in table.renderers[1].buttons)
    assert table.play(SwapScenes(at_ms=t + 11_000, seat=table.state.to_act or 0, a=1,
                                 b=3)) == "reveal"
    assert table.play(EndGame(at_ms=t + 12_000)) == "over"
    assert "主持人結束了遊戲" in table.texts()


def test_decline_swap_and_names_from_the_engine(fonts: FontBook) -> None:
    table = Table(fonts)
    table.play(NewGame(at_ms=0, names=NAMES[:3], colours=("purple", "brown", "orange"),
                       variant="easy", start_seat=1, scenes=(3, 4, 5, 6)))
    view = game_view(table.state)
    assert view is not None and view.phase is ViewPhase.VIEWING and view.scene_count == 4
    assert view.names == (PlayerInfo("小明", "purple"), PlayerInfo("阿美", "brown"),
                          PlayerInfo("Alice", "orange"))


def test_setup_state_is_no_game() -> None:
    assert game_view(initial_state()) is None
    assert game_view(None) is None
    with pytest.raises(TypeError):
        game_view("a string")


def test_advanced_replacement_screens(fonts: FontBook) -> None:
    table = Table(fonts, Rules(max_deal_spread=66))  # seat 0 holds 1 card: its pile empties
    table.play(NewGame(at_ms=0, names=NAMES, colours=COLOURS, variant="advanced", start_seat=0,
                       scenes=(0, 1, 2, 3, 4, 5), hand_sizes=(1, 21, 22, 22)))
    table.play(ViewingStarted(at_ms=0))
    while table.state.phase is EnginePhase.VIEWING:
        assert table.state.deadline_ms is not None
        table.play(ViewingTimeUp(at_ms=table.state.deadline_ms))
    t = table.state.now_ms + 1000
    table.play(CardRevealed(at_ms=t, card=3, seat=0))  # seat 0's pile is now empty
    assert table.play(NoBuzz(at_ms=t + 1000)) == "replace"
    chooser = table.state.to_act
    assert chooser is not None
    assert f"{NAMES[chooser]} 可以換一張場景" in table.texts()
    actions = {b.action for b in table.renderers[1].buttons}
    assert HostAction("replace", 5) in actions and HostAction("no_replace") in actions
    screen = table.play(ReplaceScene(at_ms=t + 2000, seat=chooser, position=2, scene=9))
    assert screen == "replace"
    view = game_view(table.state)
    assert view is not None and view.timer_ms == 20_000 and view.deadline_ms == t + 22_000
    assert table.show(t + 7000) == "replace" and "15" in table.texts()
    assert "新場景卡換下場景 C" in table.texts()  # which scene the new card replaces
    assert table.play(ViewingTimeUp(at_ms=t + 22_000)) == "reveal"
