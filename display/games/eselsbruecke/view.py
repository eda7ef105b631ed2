"""What the screens of 驢橋 read: :class:`GameView`, and reading the engine's state into it.

The one place that knows the engine's field names: ``engine.eselsbruecke.State`` ->
``GameView``. Engine phases map to screens as follows: STORY -> story (the tiles laid, large);
DEAL -> deal (the story told, its tiles face down); GUESS -> guess (the 15 s ring); ROUND_OVER
-> round_over; OVER -> over; a story's end shows ``penalties`` for a while (the renderer's
scoring screen: ``history`` grows by one per recall).

Hidden information: while a story is recalled (DEAL, GUESS) the view holds **no tile of it**:
only how many there are and how many are named. Every story's tiles reach the view at the end
(``recap``), never before.

Tile names and pictures come from the deck the screen holds (:func:`learn_tiles`, called by
the kit's screen part); a tile the screen's deck does not know shows its id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from display.model import PlayerInfo
from engine import eselsbruecke as eb


class ViewPhase(StrEnum):
    STORY = "story"  # the storyteller lays the round's tiles and tells the story
    DEAL = "deal"  # the story is told; the recalled slot's tiles are dealt
    GUESS = "guess"  # a player names a keyword; the 15 s ring drains
    ROUND_OVER = "round_over"  # the donkey moves on
    OVER = "over"


@dataclass(frozen=True)
class TileView:
    """A keyword tile as the screen shows it (``image``: RGB array-like or None)."""

    tile_id: str
    name_zh: str
    name_en: str
    image: Any = field(default=None, compare=False, repr=False)

    def name(self, lang: str) -> str:
        return self.name_en if lang == "en" else self.name_zh

    @property
    def unnamed(self) -> bool:
        return self.tile_id == eb.UNKNOWN


@dataclass(frozen=True)
class SeatView:
    """One seat in the story under recall, and its score pile."""

    pile: int = 1
    stops: int = 0
    held: int = 0
    face_up: int = 0
    out: bool = False
    listening: bool = False
    stories: int = 0  # slots filled


@dataclass(frozen=True)
class PenaltyView:
    seat: int
    due: int
    lost: int
    stopped: bool
    banked: int


@dataclass(frozen=True)
class RecallView:
    """How the last story's recall ended (the penalties screen)."""

    teller: int
    slot: int
    round_no: int
    failed: tuple[int, ...] = ()
    penalties: tuple[PenaltyView, ...] = ()
    stop_tile: bool = False
    named: int = 0
    tiles: int = 0


@dataclass(frozen=True)
class StoryView:
    """One story of the recap (the end screen)."""

    seat: int
    slot: int
    tiles: tuple[TileView, ...]


@dataclass(frozen=True)
class GameView:
    """A display-shaped summary of one 驢橋 state. Seats are 0-based; slots and rounds are
    shown 1-based. Times are milliseconds on the app's clock (``Snapshot.now_ms``)."""

    phase: ViewPhase
    scores: tuple[int, ...]
    round_no: int = 1
    rounds: int = 6
    side: str = "standard"
    teller: int | None = None
    start_seat: int = 0
    #: STORY: the tiles to lay this round, those laid, the slot they go to
    to_draw: int = 0
    laid: tuple[TileView, ...] = ()
    story_slot: int = 0
    #: DEAL / GUESS: the story recalled, as counts only
    recall_slot: int | None = None
    recall_round: int = 0
    recall_tiles: int = 0
    named: int = 0
    actor: int | None = None
    answered: bool = False
    deadline_ms: int | None = None
    timer_ms: int = 15_000
    seats: tuple[SeatView, ...] = ()
    last_recall: RecallView | None = None
    #: the scores before the first story's end, then after each
    history: tuple[tuple[int, ...], ...] = ()
    stops_left: int = 30
    winners: tuple[int, ...] = ()
    end_reason: str = ""  # "last_round" | "host" | ""
    recap: tuple[StoryView, ...] = ()
    names: tuple[PlayerInfo, ...] = ()
    #: show the penalties screen (the renderer shows it for a while after each story's end;
    #: a prepared view -- the samples -- asks for it with this)
    penalties: bool = False

    @property
    def players(self) -> int:
        return len(self.scores)

    @property
    def over(self) -> bool:
        return self.phase is ViewPhase.OVER

    @property
    def stops(self) -> tuple[int, ...]:
        return tuple(s.stops for s in self.seats)


#: tile id -> (zh, en, image) as the deck on the screen says (see :func:`learn_tiles`)
_TILES: dict[str, tuple[str, str, Any]] = {}


def learn_tiles(cards: Mapping[str, Any]) -> None:
    """The screen's deck: each card's names (``name_zh``, ``name_en``) and picture."""
    for cid, info in cards.items():
        _TILES[cid] = (getattr(info, "name_zh", cid), getattr(info, "name_en", cid),
                       getattr(info, "image", None))


def tile_view(tile: str) -> TileView:
    """A tile id as the screen shows it (the deck's names; UNKNOWN: entered by hand)."""
    if tile == eb.UNKNOWN:
        return TileView(eb.UNKNOWN, "?", "?")
    known = _TILES.get(tile)
    if known is not None:
        return TileView(tile, known[0], known[1], known[2])
    return TileView(tile, tile, tile)


_PHASES: dict[eb.Phase, ViewPhase] = {
    eb.Phase.STORY: ViewPhase.STORY,
    eb.Phase.DEAL: ViewPhase.DEAL,
    eb.Phase.GUESS: ViewPhase.GUESS,
    eb.Phase.ROUND_OVER: ViewPhase.ROUND_OVER,
    eb.Phase.OVER: ViewPhase.OVER,
}


def game_view(state: Any) -> GameView | None:
    """The view of ``state``: an engine state is read; a GameView passes through; None (and an
    engine state still in SETUP) is no game."""
    if state is None or isinstance(state, GameView):
        return state
    if not isinstance(state, eb.State):
        raise TypeError(f"display cannot read a {type(state).__name__}")
    return from_eselsbruecke(state)


def _round_of_slot(state: eb.State, slot: int) -> int:
    rounds = [i + 1 for i, k in enumerate(eb.story_slots(state.draws)) if k == slot]
    return rounds[0] if rounds else 0


def from_eselsbruecke(state: eb.State) -> GameView | None:
    phase = _PHASES.get(state.phase)
    if phase is None:  # SETUP: no game yet
        return None
    seats = tuple(SeatView(pile=s.score, stops=s.stops, held=s.held, face_up=len(s.face_up),
                           out=s.out, listening=s.listening, stories=len(s.slots))
                  for s in state.seats)
    last = state.last_recall
    last_view = None
    if last is not None:
        last_view = RecallView(
            teller=last.teller, slot=last.slot, round_no=last.round, failed=last.failed,
            penalties=tuple(PenaltyView(p.seat, p.due, p.face_up + p.pile, p.stopped, p.banked)
                            for p in last.penalties),
            stop_tile=last.stop_tile, named=len(last.named),
            tiles=len(last.named) + last.unnamed)
    history: tuple[tuple[int, ...], ...] = ()
    if state.recalls and state.recalls[0].scores_before:
        history = (state.recalls[0].scores_before,
                   *(r.scores_after for r in state.recalls))
    teller = state.teller
    story = phase is ViewPhase.STORY
    story_slot = len(state.seats[teller].slots) if teller is not None else 0
    recalling = phase in (ViewPhase.DEAL, ViewPhase.GUESS)
    slot = state.recall_slot if recalling else None
    winners: tuple[int, ...] = ()
    end_reason = ""
    recap: tuple[StoryView, ...] = ()
    if state.outcome is not None:
        winners = state.outcome.winners
        end_reason = ("host" if state.outcome.reason is eb.EndReason.HOST_ENDED
                      else "last_round")
        recap = tuple(StoryView(i, k, tuple(tile_view(t) for t in tiles))
                      for k in range(max((len(s.slots) for s in state.seats), default=0))
                      for i, s in enumerate(state.seats) if k < len(s.slots)
                      for tiles in (s.slots[k],))
    return GameView(
        phase=phase,
        scores=state.scores,
        round_no=max(1, state.round),
        rounds=state.rounds,
        side=state.side.value,
        teller=teller if phase is not ViewPhase.ROUND_OVER else None,
        start_seat=state.start_seat,
        to_draw=state.to_draw if story else 0,
        laid=tuple(tile_view(t) for t in state.laid) if story else (),
        story_slot=story_slot,
        recall_slot=slot,
        recall_round=_round_of_slot(state, slot) if slot is not None else 0,
        recall_tiles=len(state.recall_tiles) if recalling else 0,
        named=len(state.named) if recalling else 0,
        actor=state.to_act if phase is ViewPhase.GUESS else None,
        answered=state.answered,
        deadline_ms=state.deadline_ms,
        timer_ms=state.rules.answer_ms,
        seats=seats,
        last_recall=last_view,
        history=history,
        stops_left=state.stops_left,
        winners=winners,
        end_reason=end_reason,
        recap=recap,
        names=tuple(PlayerInfo(s.name, s.colour) for s in state.seats),
    )
