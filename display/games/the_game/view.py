"""What the screens of 致命遊戲 The Game read: :class:`GameView` (the engine's state) and
:class:`TableView` (the table's transient state: a refused play, a pending "I cannot play",
the host's by-hand entry; ``Snapshot.table``).

The one place that knows the engine's field names: ``engine.the_game.State`` -> ``GameView``.
Phases: PLAY -> the play screen; OVER -> the end screen; SETUP -> no game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from display.model import PlayerInfo
from engine import the_game as tg


@dataclass(frozen=True)
class RowView:
    """One row: its direction (``"up"``/``"down"``), start card, and cards played (top last)."""

    direction: str
    start: int
    cards: tuple[int, ...] = ()

    @property
    def up(self) -> bool:
        return self.direction == "up"

    @property
    def top(self) -> int:
        return self.cards[-1] if self.cards else self.start

    @property
    def arrow(self) -> str:
        return "↑" if self.up else "↓"

    @property
    def label(self) -> str:
        return f"{self.arrow}{self.top}"


@dataclass(frozen=True)
class PickView:
    """One choice of the by-hand entry's picker: a card (``first == last``) or a range of the
    cards the row can take (``count`` of them, ``first`` nearest the row's top) that opens;
    ``backward``: the row's exact 10-back; ``focus``: the highlight starts here."""

    first: int
    last: int
    count: int = 1
    backward: bool = False
    focus: bool = False

    @property
    def card(self) -> int | None:
        return self.first if self.count == 1 else None


@dataclass(frozen=True)
class PlayView:
    """One card played (the end screen's chart)."""

    row: int
    card: int
    turn: int
    backward: bool = False
    house_rule: bool = False


@dataclass(frozen=True)
class GameView:
    """A display-shaped summary of one state of The Game. Seats and rows are 0-based."""

    phase: str  # "play" | "over"
    rows: tuple[RowView, ...]
    hand_counts: tuple[int, ...]
    to_act: int | None = None
    turn: int = 1
    played_this_turn: int = 0
    min_to_play: int = 2
    draw_count: int = 0
    cards_left: int = 0
    variant: str = "standard"
    hands_known: bool = False
    plays: tuple[PlayView, ...] = ()
    #: the end: "super_win" | "win" | "loss" | "not_judged" ("": running)
    verdict: str = ""
    end_reason: str = ""  # "cannot_play" | "all_played" | "host_ended"
    suggest_expert: bool = False
    names: tuple[PlayerInfo, ...] = ()
    deadline_ms: int | None = None  # no timer in The Game
    history: tuple[tuple[int, ...], ...] = ()

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's hand count (the renderer animates none: no score screens)."""
        return self.hand_counts

    @property
    def players(self) -> int:
        return len(self.hand_counts)

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def last_play(self) -> PlayView | None:
        return self.plays[-1] if self.plays else None


@dataclass(frozen=True)
class TableView:
    """The table's transient state, as the kit's screen part reports it."""

    #: the refused play: row, card, the row's label then ("↑45"), the engine's code
    refused_row: int | None = None
    refused_card: int = 0
    refused_label: str = ""
    refused_code: str = ""
    #: a long press said "I cannot play" (seat), waiting for the host
    claim_seat: int | None = None
    #: a refused button press: seat, the engine's code and reason
    said_seat: int | None = None
    said_code: str = ""
    said_reason: str = ""
    #: the host's by-hand entry while it is open: the row chosen (None: not yet), the digits
    #: typed on the pad (touch), the picker's line on screen (its choices in the order *next*
    #: walks them, and how many ranges deep: 0 is the row's own line)
    entry_open: bool = False
    entry_row: int | None = None
    entry_digits: str = ""
    entry_picks: tuple[PickView, ...] = ()
    entry_depth: int = 0

    @property
    def refused(self) -> bool:
        return self.refused_row is not None


def game_view(state: Any) -> GameView | None:
    """The view of ``state``: an engine state is read; a GameView passes through; None (and
    an engine state still in SETUP) is no game."""
    if state is None or isinstance(state, GameView):
        return state
    if not isinstance(state, tg.State):
        raise TypeError(f"display cannot read a {type(state).__name__}")
    return from_the_game(state)


def from_the_game(state: tg.State) -> GameView | None:
    if state.phase is tg.Phase.SETUP:
        return None
    verdict = tg.verdict(state)
    reason = state.outcome.reason.value if state.outcome is not None else ""
    return GameView(
        phase="over" if state.phase is tg.Phase.OVER else "play",
        rows=tuple(RowView(r.direction.value, r.start, r.cards) for r in state.rows),
        hand_counts=state.hand_counts,
        to_act=state.to_act if state.phase is tg.Phase.PLAY else None,
        turn=max(1, state.turn),
        played_this_turn=state.played_this_turn,
        min_to_play=state.min_to_play,
        draw_count=state.draw_count,
        cards_left=state.cards_left,
        variant=state.variant.value,
        hands_known=state.hands_known,
        plays=tuple(PlayView(p.row, p.card, p.turn, p.backward, p.house_rule)
                    for p in state.plays),
        verdict=verdict.value if verdict is not None else "",
        end_reason=reason,
        suggest_expert=(verdict is tg.Verdict.SUPER_WIN
                        and state.variant is tg.Variant.STANDARD),
        names=tuple(PlayerInfo(p.name, p.colour) for p in state.players),
    )


def row_tops_over_time(view: GameView) -> list[list[int]]:
    """Each row's top after each play (index 0: the start), for the end screen's chart."""
    tops = [r.start for r in view.rows]
    out = [[t] for t in tops]
    for play in view.plays:
        if 0 <= play.row < len(tops):
            tops[play.row] = play.card
        for i, t in enumerate(tops):
            out[i].append(t)
    return out
