"""What the screens of 什麼不見啦 read: :class:`GameView`, and reading the engine's state into it.

The one place that knows the engine's field names: ``engine.something_missing.State`` →
``GameView``. Engine phases map to screens as follows: VIEWING → viewing; REVEAL and BUZZ →
reveal (BUZZ: a card is up, buzzers live, "nobody buzzed" offered); BET → betting; CHECK →
checking; SWAP → swap; REPLACE and VIEW_REPLACEMENT → replace; OVER → over; SETUP → no game.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from display.model import PlayerInfo
from engine import something_missing as sm


@dataclass(frozen=True)
class RingLine:
    """What the camera makes of the ring (``Snapshot.table``): whether it reads the bets and
    the scenes turned up (the screens then say to lay a token / turn the scene), and the last
    reading the host must settle, in both languages (None: none)."""

    reads: bool = False
    note_zh: str | None = None
    note_en: str | None = None

    def note(self, lang: str) -> str | None:
        return self.note_zh if lang == "zh-TW" else self.note_en


class ViewPhase(StrEnum):
    """The parts of a game of 什麼不見啦 the screen distinguishes."""

    VIEWING = "viewing"  # setup: everyone studies the scenes, 5 s per pass
    REPLACE = "replace"  # advanced variant: a new scene replaces one, 20 s to look
    REVEAL = "reveal"  # players flip item cards in turn; buzzers are live
    BETTING = "betting"  # from the hourglass holder, each bets on a scene or passes
    CHECKING = "checking"  # bet-on scenes are turned up; 30 s hourglass; found / not found
    SCORING = "scoring"  # the scores of this round are shown
    SWAP = "swap"  # the lowest scorer may swap the turned-up scenes
    OVER = "over"  # game over


@dataclass(frozen=True)
class GameView:
    """A display-shaped summary of one 什麼不見啦 state. Seats are 0-based; scenes are 0-based
    (drawn as A, B, C …). Times are milliseconds on the app's clock (``Snapshot.now_ms``)."""

    phase: ViewPhase
    scores: tuple[int, ...]
    round_no: int = 1
    scene_count: int = 5
    cards_left: tuple[int, ...] = ()
    actor: int | None = None  # whose turn / decision it is
    awaiting_buzz: bool = False  # REVEAL: a new card is up and the buzzers are live
    revealer: int | None = None  # who flipped the card on top
    hourglass: int | None = None  # who holds the hourglass (won the buzz) this round
    bets: tuple[tuple[int, ...], ...] = ()  # per scene: seats in slot order
    passed: tuple[int, ...] = ()  # seats that decided not to bet this round
    checking_scene: int | None = None
    results: tuple[bool | None, ...] = ()  # per scene: found / not found / not checked
    deadline_ms: int | None = None  # the running timer's end
    timer_ms: int = 0  # the running timer's full length
    viewing_pass: int = 0  # 0-based pass of the scene viewing
    viewing_passes: int = 0
    swap_scenes: tuple[int, ...] = ()  # scenes turned up this round (swap decision)
    swaps_made: int = 0  # exchanges made so far in this swap decision
    replaced_scene: int | None = None  # the scene position a new card replaces (the 20 s look)
    history: tuple[tuple[int, ...], ...] = ()  # scores after each round, round 1 first
    winners: tuple[int, ...] = ()
    target: int = 35
    end_reason: str = ""  # "score" | "cards" | "host" | ""
    end_count: int = 0  # the threshold that ended it (points or players out of cards)
    names: tuple[PlayerInfo, ...] = ()  # the game's own names/colours (Snapshot.players wins)

    @property
    def players(self) -> int:
        return len(self.scores)

    @property
    def over(self) -> bool:
        return self.phase is ViewPhase.OVER


_PHASES: dict[sm.Phase, ViewPhase] = {
    sm.Phase.VIEWING: ViewPhase.VIEWING,
    sm.Phase.REVEAL: ViewPhase.REVEAL,
    sm.Phase.BUZZ: ViewPhase.REVEAL,
    sm.Phase.BET: ViewPhase.BETTING,
    sm.Phase.CHECK: ViewPhase.CHECKING,
    sm.Phase.SWAP: ViewPhase.SWAP,
    sm.Phase.REPLACE: ViewPhase.REPLACE,
    sm.Phase.VIEW_REPLACEMENT: ViewPhase.REPLACE,
    sm.Phase.OVER: ViewPhase.OVER,
}
_END: dict[sm.EndReason, str] = {
    sm.EndReason.SCORE_REACHED: "score",
    sm.EndReason.PILES_EMPTY: "cards",
    sm.EndReason.HOST_ENDED: "host",
}


def game_view(state: Any) -> GameView | None:
    """The view of ``state``: an engine state is read; a GameView passes through; None (and an
    engine state still in SETUP) is no game."""
    if state is None or isinstance(state, GameView):
        return state
    if not isinstance(state, sm.State):
        raise TypeError(f"display cannot read a {type(state).__name__}")
    return from_something_missing(state)


def from_something_missing(state: sm.State) -> GameView | None:
    phase = _PHASES.get(state.phase)
    if phase is None:  # SETUP: no game yet
        return None
    rules = state.rules
    n = state.n_players
    k = len(state.scenes)
    bets: list[list[tuple[int, int]]] = [[] for _ in range(k)]
    for bet in state.bets:
        if 0 <= bet.position < k:
            bets[bet.position].append((bet.slot, bet.seat))
    by_scene = tuple(tuple(seat for _, seat in sorted(b)) for b in bets)
    passed: tuple[int, ...] = ()
    if state.phase is sm.Phase.BET:
        bettors = {b.seat for b in state.bets}
        undecided = set(state.bet_order)
        passed = tuple(s for s in range(n) if s not in undecided and s not in bettors)
    results: list[bool | None] = [None] * k
    for change in state.last_changes:
        if 0 <= change.position < k:
            results[change.position] = change.reason is sm.ChangeReason.FOUND
    if state.check is not None and 0 <= state.check.position < k:
        results[state.check.position] = None
    timer_ms = 0
    if state.phase is sm.Phase.VIEWING:
        timer_ms = rules.viewing_pass_ms
    elif state.phase is sm.Phase.CHECK:
        timer_ms = rules.check_ms
    elif state.phase is sm.Phase.VIEW_REPLACEMENT:
        timer_ms = rules.replacement_viewing_ms
    actor = state.to_act
    if state.phase is sm.Phase.BUZZ:
        actor = sm.next_revealer(state)
    end_reason, end_count = "", 0
    winners: tuple[int, ...] = ()
    if state.outcome is not None:
        end_reason = _END.get(state.outcome.reason, "")
        winners = state.outcome.winners
        end_count = (rules.win_score_for(n) if end_reason == "score"
                     else rules.empty_piles_for(n) if end_reason == "cards" else 0)
    return GameView(
        phase=phase,
        scores=state.scores,
        round_no=max(1, state.round),
        scene_count=k,
        cards_left=tuple(p.cards_left for p in state.players),
        actor=actor,
        awaiting_buzz=state.phase is sm.Phase.BUZZ,
        revealer=state.revealer,
        hourglass=state.buzz.seat if state.buzz is not None else None,
        bets=by_scene,
        passed=passed,
        checking_scene=state.check.position if state.check is not None else None,
        results=tuple(results),
        deadline_ms=state.deadline_ms,
        timer_ms=timer_ms,
        viewing_pass=state.viewing_pass,
        viewing_passes=state.viewing_passes,
        swap_scenes=state.turned_up if state.phase is sm.Phase.SWAP else (),
        swaps_made=state.swaps_made,
        replaced_scene=state.replacement.position if state.replacement is not None else None,
        history=state.score_history[1:],
        winners=winners,
        target=rules.win_score_for(n) if n else rules.win_score,
        end_reason=end_reason,
        end_count=end_count,
        names=tuple(PlayerInfo(p.name, p.colour) for p in state.players),
    )
