"""驢橋 Eselsbrücke (3-6 seats, a seat may be a team of two): the rules as a pure reducer.

The game in one paragraph: over six rounds (advanced side: seven) every seat in turn is the
storyteller. In the story rounds the storyteller draws the round's keyword tiles, lays them face
up, tells a story with all of them and stacks them face down on the next free slot of their
board. From round 3 the storyteller then deals the tiles of the slot filled two rounds before,
one to each other player clockwise; from the storyteller's left, clockwise, the others name the
keywords of that old story (not the one they hold). Right: take the tile face up. Wrong, or no
answer within 15 s: out for this story. Afterwards those who never failed bank their tiles, the
others discard by the slot's penalty (face-up tiles first, then the score pile, stopping at a
stop tile), and a story in which nobody failed earns its storyteller a stop tile. Most tiles in
the score pile wins; ties: more stop tiles, then shared. Spec: ``rules/RULES.md`` section 4
and the seed ``rules/seeds/002_5f1f0379a32dad34.txt`` (the seed wins).

API (everything here is a pure function of its arguments)::

    rules = Rules()                      # static facts: sides as data (tiles drawn per round,
                                         # slot penalties), the 15 s clock, every [I] reading
    state = initial_state(rules)         # phase SETUP, waiting for NewGame
    result = apply(state, event)         # -> State, or Rejection(code, reason)
    legal_actions(state)                 # -> tuple of events the state accepts now
    deadline(state)                      # -> Deadline(at_ms, AnswerTimeUp) or None
    is_over(state); outcome(state)       # -> Outcome(reason, winners, scores) or None
    EVENTS.from_dict(d); event.to_dict() # versioned JSON of every event

Seats are ``0..n-1`` clockwise; "left" is the next seat. Rounds are 1-based; slots are 0-based
on the board (slot ``k`` holds the storyteller's ``k``-th story). Tile ids are the deck's
strings (the demo deck is ``t000``..``t179``); a tile laid by hand that nobody named is
``UNKNOWN``. Hidden information: the engine knows each story's tiles (the camera saw them face
up) but not who was dealt which one, so hands are counts and a right guess names the holder
(the host heard the answer). Nothing random happens in here.

Turn flow (phases): SETUP -> per round, per storyteller from the start player clockwise:
[STORY (tiles laid, then StoryTold)] -> [DEAL (TilesDealt) -> GUESS ...] -> next storyteller;
after the round's last storyteller ROUND_OVER (NextRound), after the last round OVER.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Self

from engine.core import (
    Deadline,
    Engine,
    Event,
    EventRegistry,
    Outcome,
    Reducer,
    Rejection,
    Source,
    clockwise_from,
    left_of,
    rules_from_dict,
    rules_to_dict,
    seating_problem,
)

GAME_NAME = "eselsbruecke"

#: Screen colours for the seats (the seed does not tell the boards apart by colour).
COLOURS: Mapping[str, str] = {
    "red": "紅",
    "yellow": "黃",
    "blue": "藍",
    "green": "綠",
    "orange": "橘",
    "purple": "紫",
}

#: A picture tile whose keyword the box does not know (the base of a score pile, a tile the host
#: entered without naming it, a tile won without the host saying which).
UNKNOWN = "?"
#: A stop tile in a score pile.
STOP = "#stop"

#: The demo deck's tile ids (a table enrols its own deck; any other id string is accepted).
DEMO_DECK: tuple[str, ...] = tuple(f"t{i:03d}" for i in range(180))


class Side(enum.Enum):
    STANDARD = "standard"  # 4 slots, 6 rounds
    ADVANCED = "advanced"  # 5 slots, 7 rounds (the back of the boards and the think bubble)


# --- the static game: facts, tables, interpretations -------------------------------------


@dataclass(frozen=True)
class Interpretations:
    """Every reading of an ambiguous rule ([I]), in one place, by name.

    Change a default here (or pass ``Rules(interpretations=Interpretations(...))``, or set it in
    the journal header's ``rules``) to play a table's house reading.
    """

    #: [I] Seed: 「如果輪到一位玩家時，他持有的圖片是唯一尚未被猜到的關鍵詞，他直接獲得這一分」.
    #: On: special case 2 happens when the holder's turn comes (they score without guessing).
    #: Off: the moment the held tile becomes the only keyword left, if its holder is still in.
    last_keyword_on_turn: bool = True
    #: [I] Seed: 「未猜錯的玩家可以把他們所獲得的圖片…放在自己的得分堆上」 and
    #: 「如果你面前有剛得到正面朝上的圖片，優先棄掉他們」. On: a player who failed discards
    #: the penalty (face-up tiles first) and banks the face-up tiles left over. Off: they
    #: lose every face-up tile, and the penalty beyond them comes from the score pile.
    failed_bank_leftover_face_up: bool = True
    #: [I] Seed: 「若得分堆中出現了停止板塊，你立即停止扣分」 and 「一張停止板塊也算作一分，並且有機
    #: 會幫玩家減少失分」. On: the stop tile stops the discard and stays in the pile. Off: it is
    #: discarded itself (as one of the penalty) and the discard stops after it.
    stop_tile_is_kept: bool = True
    #: [I] Seed: 「也可能他之前的玩家都猜錯，此時，他必須拿取第一位猜測的玩家手中的圖片來當他的
    #: 「驢橋」」. With two listeners the first guesser's tile may already be someone's bridge. On:
    #: the bridge comes from the earliest guesser of this story who still holds a tile. Off: only
    #: the first guesser's tile; if it is gone, the listener guesses without a bridge.
    bridge_from_earliest_holder: bool = True
    #: [I] The seed is silent on the tiles of a story nobody named (everyone was out). Off: they
    #: leave the game with the discards. On: they go back into the bag (and may be drawn again).
    unnamed_tiles_return_to_bag: bool = False
    #: [I] Seed: 「如果有玩家猜錯，他就有機會參與猜測」. On: once anybody has failed in this story,
    #: the players dealt no tile take their turns in the clockwise order. Off: they only join
    #: when every player holding a tile is out.
    listeners_join_after_any_failure: bool = True
    #: [I] Readings that are not switches: every round begins with the start player (seed:
    #: 「再次輪到起始玩家時，他將驢子放在…下一個數字上」); the deal starts at the storyteller's
    #: left; "everyone before them failed" (special case 1) means no keyword has been named yet
    #: in this story; the answer clock starts at each turn, the first once the host says the
    #: tiles are dealt; the stop tile of a story nobody failed in is taken only while the 30 last.


@dataclass(frozen=True)
class Rules:
    """The static facts of 驢橋: components, the answer clock and the two sides as data."""

    min_players: int = 3
    max_players: int = 6
    max_team_size: int = 2
    picture_tiles: int = 180
    stop_tiles: int = 30
    #: each seat's score pile starts with this many face-down picture tiles
    base_tiles: int = 1
    answer_ms: int = 15_000
    #: round ``r`` recalls the story of round ``r - recall_lag`` (the seed's 「上上回合」)
    recall_lag: int = 2
    #: tiles drawn per story, by round (0: no story that round); the number of rounds is the
    #: length (external: 2012 edition reviews)
    standard_draws: tuple[int, ...] = (3, 3, 4, 5, 0, 0)
    #: discard per failure, by slot (unconfirmed default)
    standard_penalties: tuple[int, ...] = (1, 1, 2, 2)
    #: advanced side: stories in rounds 1-5 (unconfirmed default 3, 3, 4, 5, 5)
    advanced_draws: tuple[int, ...] = (3, 3, 4, 5, 5, 0, 0)
    #: advanced slot penalties (unconfirmed default)
    advanced_penalties: tuple[int, ...] = (1, 1, 2, 2, 3)
    interpretations: Interpretations = field(default_factory=Interpretations)

    def draws_for(self, side: Side) -> tuple[int, ...]:
        return self.standard_draws if side is Side.STANDARD else self.advanced_draws

    def penalties_for(self, side: Side) -> tuple[int, ...]:
        return self.standard_penalties if side is Side.STANDARD else self.advanced_penalties

    def to_dict(self) -> dict[str, Any]:
        return rules_to_dict(self)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self:
        """Defaults for missing keys; ``ValueError`` naming the key for a bad value."""
        return rules_from_dict(cls, d)

    def problems(self) -> list[str]:
        out = []
        if not 2 <= self.min_players <= self.max_players <= len(COLOURS):
            out.append(f"rules.min_players/max_players: {self.min_players}..{self.max_players}"
                       f" must lie within 2..{len(COLOURS)}")
        for key in ("max_team_size", "picture_tiles", "answer_ms", "recall_lag"):
            if getattr(self, key) <= 0:
                out.append(f"rules.{key}: must be positive, got {getattr(self, key)}")
        for key in ("stop_tiles", "base_tiles"):
            if getattr(self, key) < 0:
                out.append(f"rules.{key}: must not be negative, got {getattr(self, key)}")
        for side in Side:
            prefix = side.value
            problem = side_problem(self, self.draws_for(side), self.penalties_for(side),
                                   self.max_players)
            if problem:
                out.append(f"rules.{prefix}_draws/{prefix}_penalties: {problem}")
        return out


def side_problem(rules: Rules, draws: tuple[int, ...], penalties: tuple[int, ...],
                 n_players: int) -> str | None:
    """What is wrong with a side's round table for ``n_players`` seats (None: nothing)."""
    if not draws:
        return "no rounds"
    if any(d < 0 for d in draws):
        return f"negative tiles drawn in {list(draws)}"
    stories = sum(1 for d in draws if d > 0)
    if stories == 0:
        return "no story in any round"
    if len(penalties) != stories:
        return f"{len(penalties)} slot penalties for {stories} story rounds"
    if any(p < 0 for p in penalties):
        return f"negative penalty in {list(penalties)}"
    need = n_players * (rules.base_tiles + sum(draws))
    if need > rules.picture_tiles:
        return f"{n_players} seats need {need} picture tiles, the bag has {rules.picture_tiles}"
    return None


def story_slots(draws: tuple[int, ...]) -> tuple[int | None, ...]:
    """The slot each round's story goes to (None: no story that round), by round index."""
    out: list[int | None] = []
    k = 0
    for d in draws:
        if d > 0:
            out.append(k)
            k += 1
        else:
            out.append(None)
    return tuple(out)


def recalled_slot(draws: tuple[int, ...], lag: int, rnd: int) -> int | None:
    """The slot recalled in round ``rnd`` (1-based): the story of round ``rnd - lag``."""
    src = rnd - lag
    if src < 1:
        return None
    return story_slots(draws)[src - 1]


# --- events ------------------------------------------------------------------------------

EVENTS = EventRegistry(GAME_NAME)


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class NewGame(Event):
    """The host starts a game: seat names (a seat may be a team: ``members`` gives its one or
    two people), colours, the side of the boards, the most stubborn player's seat, and
    optionally the round table printed on the table's own components."""

    type_name = "new_game"
    source = Source.HOST
    names: tuple[str, ...]
    colours: tuple[str, ...]
    side: str
    start_seat: int
    members: tuple[tuple[str, ...], ...] | None = None
    draws: tuple[int, ...] | None = None
    penalties: tuple[int, ...] | None = None


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class TileSeen(Event):
    """The camera recognised a keyword tile the storyteller laid face up in the story."""

    type_name = "tile_seen"
    source = Source.CAMERA
    tile: str


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class TileEntered(Event):
    """The host: a tile is laid in the story (the camera is down or missed it); ``tile`` is
    its id, or None if the host does not name it."""

    type_name = "tile_entered"
    source = Source.HOST
    tile: str | None = None


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class TileWithdrawn(Event):
    """The host corrects the story: ``tile`` is not in it after all (a misread); it goes back
    to the bag."""

    type_name = "tile_withdrawn"
    source = Source.HOST
    tile: str


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class StoryTold(Event):
    """The host: the story is told; its tiles go face down onto the next free slot."""

    type_name = "story_told"
    source = Source.HOST


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class TilesDealt(Event):
    """The host: the recalled slot's tiles are dealt; the first guesser's clock starts."""

    type_name = "tiles_dealt"
    source = Source.HOST


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class AnswerGiven(Event):
    """The guesser's seat button: "I have answered" (the answer clock stops)."""

    type_name = "answer_given"
    source = Source.BUZZER
    seat: int


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class GuessRight(Event):
    """The host: the guesser named a keyword held by ``holder`` and takes it face up
    (``tile``: which one, if the host says)."""

    type_name = "guess_right"
    source = Source.HOST
    seat: int
    holder: int
    tile: str | None = None


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class GuessWrong(Event):
    """The host: the guesser named no keyword of this story (or one already named)."""

    type_name = "guess_wrong"
    source = Source.HOST
    seat: int


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class AnswerTimeUp(Event):
    """The 15 s ran out without an answer: the guesser is out for this story."""

    type_name = "answer_time_up"
    source = Source.CLOCK


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class NextRound(Event):
    """The host moves the donkey to the next round."""

    type_name = "next_round"
    source = Source.HOST


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class EndGame(Event):
    """The host ends the game early; the score piles as they are decide."""

    type_name = "end_game"
    source = Source.HOST


# --- the state of one play ---------------------------------------------------------------


class Phase(enum.Enum):
    SETUP = "setup"  # waiting for NewGame
    STORY = "story"  # the storyteller lays the round's tiles and tells the story
    DEAL = "deal"  # the storyteller deals the recalled slot's tiles
    GUESS = "guess"  # to_act names a keyword (the answer clock runs)
    ROUND_OVER = "round_over"  # every storyteller has had their turn; the donkey moves
    OVER = "over"


class EndReason(enum.Enum):
    LAST_ROUND = "last_round"
    HOST_ENDED = "host_ended"


class GuessResult(enum.Enum):
    RIGHT = "right"
    WRONG = "wrong"
    TIME_UP = "time_up"
    LAST_KEYWORD = "last_keyword"  # special case 2: scored without guessing


@dataclass(frozen=True)
class Guess:
    """One turn of the recall: who, how it went, whose tile was named (and which, if known)."""

    seat: int
    result: GuessResult
    holder: int | None = None
    tile: str | None = None


@dataclass(frozen=True)
class Penalty:
    """A failed player's discard after a story: ``due`` by the slot; ``face_up`` and ``pile``
    tiles actually lost; ``stopped``: a stop tile ended it; ``banked``: face-up tiles kept."""

    seat: int
    due: int
    face_up: int
    pile: int
    stopped: bool
    banked: int


@dataclass(frozen=True)
class RecallResult:
    """How the recall of one story went (for the recap and the round's animation)."""

    round: int
    teller: int
    slot: int
    named: tuple[str, ...]
    unnamed: int
    failed: tuple[int, ...]
    penalties: tuple[Penalty, ...]
    stop_tile: bool
    bridges: tuple[tuple[int, int], ...]  # (from, to): special case 1
    #: every seat's score pile before and after the story's banking, discards and stop tile
    #: (what a screen animates)
    scores_before: tuple[int, ...] = ()
    scores_after: tuple[int, ...] = ()


@dataclass(frozen=True)
class Seat:
    """One seat (a player or a team of two)."""

    name: str
    members: tuple[str, ...]
    colour: str
    #: the stories told, by slot: their tile ids (kept for the recap after the deal)
    slots: tuple[tuple[str, ...], ...] = ()
    #: the score pile, bottom to top: tile ids, UNKNOWN, or STOP
    pile: tuple[str, ...] = ()
    #: face-down tiles of the story being recalled in this seat's hand (ids unknown)
    held: int = 0
    #: tiles won face up in the recall in progress
    face_up: tuple[str, ...] = ()
    #: failed in the recall in progress
    out: bool = False
    #: special case 1: dealt no tile and not yet joined the guessing
    listening: bool = False

    @property
    def score(self) -> int:
        return len(self.pile)

    @property
    def stops(self) -> int:
        return sum(1 for t in self.pile if t == STOP)


@dataclass(frozen=True)
class State:
    """One play of 驢橋. Render from: phase, round, teller, laid, to_act, deadline_ms, seats,
    guesses, last_recall, recalls, outcome."""

    rules: Rules = field(repr=False)
    phase: Phase = Phase.SETUP
    now_ms: int = 0
    side: Side = Side.STANDARD
    draws: tuple[int, ...] = ()
    penalties: tuple[int, ...] = ()
    seats: tuple[Seat, ...] = ()
    start_seat: int = 0
    round: int = 0  # 1-based once play starts
    turn: int = 0  # 0-based storyteller turn within the round
    teller: int | None = None
    laid: tuple[str, ...] = ()  # tiles laid face up in the story being told
    recall_slot: int | None = None  # the slot being recalled (GUESS, DEAL)
    named: tuple[str, ...] = ()  # keywords named in the recall in progress
    guesses: tuple[Guess, ...] = ()  # the recall in progress, turn by turn
    bridges: tuple[tuple[int, int], ...] = ()  # special case 1 in the recall in progress
    to_act: int | None = None  # the guesser
    deadline_ms: int | None = None  # the answer clock's deadline (None: not running)
    answered: bool = False  # the guesser pressed "I have answered"
    bag: int = 0  # picture tiles still in the bag
    stops_left: int = 0  # stop tiles in the supply
    discarded: int = 0  # picture tiles out of the game (penalties, unnamed tiles)
    discarded_stops: int = 0
    played: frozenset[str] = frozenset()  # tile ids out of the bag (no id is drawn twice)
    recalls: tuple[RecallResult, ...] = ()
    outcome: Outcome[EndReason] | None = None

    @property
    def n_players(self) -> int:
        return len(self.seats)

    @property
    def rounds(self) -> int:
        return len(self.draws)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(s.score for s in self.seats)

    @property
    def stops(self) -> tuple[int, ...]:
        return tuple(s.stops for s in self.seats)

    @property
    def to_draw(self) -> int:
        """Tiles this round's story takes (0: no story)."""
        return self.draws[self.round - 1] if 1 <= self.round <= self.rounds else 0

    @property
    def recall_tiles(self) -> tuple[str, ...]:
        """The tiles of the story being recalled (the screen must not show them meanwhile)."""
        if self.teller is None or self.recall_slot is None:
            return ()
        return self.seats[self.teller].slots[self.recall_slot]

    @property
    def unnamed(self) -> int:
        return len(self.recall_tiles) - len(self.named)

    @property
    def timer_ms(self) -> int | None:
        """The full length of the running timer (for the ring), None if none runs."""
        return self.rules.answer_ms if self.deadline_ms is not None else None

    @property
    def last_recall(self) -> RecallResult | None:
        return self.recalls[-1] if self.recalls else None


_STATE_FIELDS = frozenset(f.name for f in dataclasses.fields(State))


def _evolve(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` for the reducer's hot path (State has no ``__post_init__``)."""
    assert _STATE_FIELDS.issuperset(changes), set(changes) - _STATE_FIELDS
    new = object.__new__(State)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def _seat(state: State, i: int, **changes: Any) -> tuple[Seat, ...]:
    seats = list(state.seats)
    seats[i] = dataclasses.replace(seats[i], **changes)
    return tuple(seats)


def initial_state(rules: Rules | None = None) -> State:
    return State(rules=rules if rules is not None else Rules())


# --- queries -----------------------------------------------------------------------------


def is_over(state: State) -> bool:
    return state.phase is Phase.OVER


def outcome(state: State) -> Outcome[EndReason] | None:
    return state.outcome


def next_deadline(state: State) -> int | None:
    return state.deadline_ms


def deadline(state: State) -> Deadline | None:
    """The running answer clock and the time-up event to send at its end."""
    at = state.deadline_ms
    if at is None:
        return None
    return Deadline(at, AnswerTimeUp(at_ms=at))


def winners(scores: tuple[int, ...], stops: tuple[int, ...]) -> tuple[int, ...]:
    """Most tiles; ties: more stop tiles; still tied: shared."""
    if not scores:
        return ()
    best = max(zip(scores, stops, strict=True))
    return tuple(i for i, key in enumerate(zip(scores, stops, strict=True)) if key == best)


def legal_actions(state: State) -> tuple[Event, ...]:
    """The events the state accepts now, stamped at ``now_ms`` (the time-up at its deadline).

    In SETUP the possible NewGame events are unbounded, so none are listed; EndGame is always
    possible before the end and is not listed. Tiles seen are listed from the demo deck; a
    right guess is listed without naming its tile.
    """
    now = state.now_ms
    p = state.phase
    if p is Phase.STORY:
        out: list[Event] = []
        if len(state.laid) < state.to_draw:
            out.extend(TileSeen(at_ms=now, tile=t) for t in DEMO_DECK if t not in state.played)
            out.append(TileEntered(at_ms=now, tile=None))
        out.extend(TileWithdrawn(at_ms=now, tile=t) for t in dict.fromkeys(state.laid))
        if len(state.laid) == state.to_draw:
            out.append(StoryTold(at_ms=now))
        return tuple(out)
    if p is Phase.DEAL:
        return (TilesDealt(at_ms=now),)
    if p is Phase.GUESS:
        seat = state.to_act
        assert seat is not None
        if state.answered:
            judged = True
        else:
            assert state.deadline_ms is not None
            judged = now < state.deadline_ms
        acts: list[Event] = []
        if judged:
            if not state.answered:
                acts.append(AnswerGiven(at_ms=now, seat=seat))
            acts.extend(GuessRight(at_ms=now, seat=seat, holder=h)
                        for h, s in enumerate(state.seats) if s.held > 0 and h != seat)
            acts.append(GuessWrong(at_ms=now, seat=seat))
        if not state.answered:
            assert state.deadline_ms is not None
            acts.append(AnswerTimeUp(at_ms=max(now, state.deadline_ms)))
        return tuple(acts)
    if p is Phase.ROUND_OVER:
        return (NextRound(at_ms=now),)
    return ()


# --- the reducer -------------------------------------------------------------------------


def apply(state: State, event: Event) -> State | Rejection:
    """The next state after ``event``, or a Rejection saying why the event is not allowed
    (the checks every game shares are :class:`engine.core.Reducer`'s)."""
    return _REDUCER(state, event)


def _end_game(state: State, ev: Event) -> State | Rejection:
    if state.phase is Phase.SETUP:
        return Rejection("wrong_phase", "no game has started")
    return _finish(state, EndReason.HOST_ENDED)


def _new_game(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, NewGame)
    rules = state.rules
    n = len(ev.names)
    seating = seating_problem("驢橋", ev.names, ev.colours, ev.start_seat,
                              min_players=rules.min_players, max_players=rules.max_players,
                              known_colours=COLOURS, seat="seat")
    if seating is not None:
        return seating
    members = ev.members if ev.members is not None else tuple((nm,) for nm in ev.names)
    if len(members) != n:
        return Rejection("bad_setup", f"members given for {len(members)} of {n} seats")
    for nm, team in zip(ev.names, members, strict=True):
        if not 1 <= len(team) <= rules.max_team_size or any(not m.strip() for m in team):
            return Rejection("bad_setup", f"seat {nm!r}: a seat is 1-{rules.max_team_size} "
                                          f"named people")
    try:
        side = Side(ev.side)
    except ValueError:
        return Rejection("bad_setup", f"unknown side {ev.side!r} (standard/advanced)")
    draws = ev.draws if ev.draws is not None else rules.draws_for(side)
    penalties = ev.penalties if ev.penalties is not None else rules.penalties_for(side)
    problem = side_problem(rules, draws, penalties, n)
    if problem:
        return Rejection("bad_setup", f"round table: {problem}")
    seats = tuple(Seat(name=nm, members=team, colour=c, pile=(UNKNOWN,) * rules.base_tiles)
                  for nm, team, c in zip(ev.names, members, ev.colours, strict=True))
    st = _evolve(state, side=side, draws=draws, penalties=penalties, seats=seats,
                 start_seat=ev.start_seat, round=1, turn=0,
                 bag=rules.picture_tiles - n * rules.base_tiles, stops_left=rules.stop_tiles)
    return _begin_turn(st)


def _begin_turn(state: State) -> State:
    """The storyteller of ``turn`` in ``round`` starts: a story, else a recall, else nothing
    (a round table with neither passes the turn on)."""
    teller = left_of(state.start_seat, state.n_players, state.turn)
    st = _evolve(state, teller=teller, laid=(), recall_slot=None, named=(), guesses=(),
                 bridges=(), to_act=None, deadline_ms=None, answered=False)
    if st.to_draw > 0:
        return _evolve(st, phase=Phase.STORY)
    slot = recalled_slot(st.draws, st.rules.recall_lag, st.round)
    if slot is not None:
        return _evolve(st, phase=Phase.DEAL, recall_slot=slot)
    return _after_turn(st)


def _after_turn(state: State) -> State:
    """The storyteller's turn is done: the next storyteller, or the round's end."""
    turn = state.turn + 1
    st = _evolve(state, turn=turn, to_act=None, deadline_ms=None, answered=False, laid=(),
                 recall_slot=None)
    if turn < st.n_players:
        return _begin_turn(st)
    if st.round >= st.rounds:
        return _finish(st, EndReason.LAST_ROUND)
    return _evolve(st, phase=Phase.ROUND_OVER, teller=None)


def _next_round(state: State, ev: Event) -> State | Rejection:
    return _begin_turn(_evolve(state, round=state.round + 1, turn=0))


def _tile_laid(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, TileSeen | TileEntered)
    if len(state.laid) >= state.to_draw:
        return Rejection("story_full", f"round {state.round}'s story has its "
                                       f"{state.to_draw} tiles already")
    tile = ev.tile if ev.tile is not None else UNKNOWN
    if ev.tile is not None:
        if not ev.tile.strip() or ev.tile in (UNKNOWN, STOP) or ev.tile.startswith("#"):
            return Rejection("bad_tile", f"{ev.tile!r} is not a tile id")
        if ev.tile in state.played:
            return Rejection("tile_already_played",
                             f"tile {ev.tile} was already drawn this game")
    played = state.played if tile == UNKNOWN else state.played | {tile}
    return _evolve(state, laid=(*state.laid, tile), played=played, bag=state.bag - 1)


def _tile_withdrawn(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, TileWithdrawn)
    if ev.tile not in state.laid:
        return Rejection("tile_not_laid", f"tile {ev.tile} is not in this story")
    i = len(state.laid) - 1 - state.laid[::-1].index(ev.tile)
    laid = state.laid[:i] + state.laid[i + 1:]
    played = state.played - {ev.tile}
    return _evolve(state, laid=laid, played=played, bag=state.bag + 1)


def _story_told(state: State, ev: Event) -> State | Rejection:
    if len(state.laid) != state.to_draw:
        return Rejection("story_incomplete", f"the story takes {state.to_draw} tiles, "
                                             f"{len(state.laid)} laid")
    teller = state.teller
    assert teller is not None
    seats = _seat(state, teller, slots=(*state.seats[teller].slots, state.laid))
    st = _evolve(state, seats=seats, laid=())
    slot = recalled_slot(st.draws, st.rules.recall_lag, st.round)
    if slot is not None:
        return _evolve(st, phase=Phase.DEAL, recall_slot=slot)
    return _after_turn(st)


def _tiles_dealt(state: State, ev: Event) -> State | Rejection:
    teller = state.teller
    assert teller is not None
    k = len(state.recall_tiles)
    n = state.n_players
    others = clockwise_from(left_of(teller, n), n)[:-1]
    seats = list(state.seats)
    for i, s in enumerate(others):
        seats[s] = dataclasses.replace(seats[s], held=1 if i < k else 0, face_up=(), out=False,
                                       listening=i >= k)
    seats[teller] = dataclasses.replace(seats[teller], held=max(0, k - len(others)),
                                        face_up=(), out=False, listening=False)
    st = _evolve(state, phase=Phase.GUESS, seats=tuple(seats), named=(), guesses=(),
                 bridges=())
    return _turn_after(st, teller)


def _eligible(state: State, seat: int) -> bool:
    s = state.seats[seat]
    return seat != state.teller and not s.out and not s.listening


def _turn_after(state: State, after: int) -> State:
    """The next guesser clockwise after ``after`` (who may guess again if alone); the special
    cases on the way; the story's end when every keyword is named or everyone is out."""
    interp = state.rules.interpretations
    n = state.n_players
    while True:
        if state.unnamed == 0:
            return _end_recall(state)
        if not interp.last_keyword_on_turn:
            holder = _sole_holder(state)
            if holder is not None and _eligible(state, holder):
                state = _last_keyword(state, holder)
                continue
        if not interp.listeners_join_after_any_failure and all(
                s.out or s.held == 0 for i, s in enumerate(state.seats)
                if i != state.teller and not s.listening):
            state = _join_listeners(state)
        order = clockwise_from(left_of(after, n), n)
        seat = next((s for s in order if _eligible(state, s)), None)
        if seat is None:
            return _end_recall(state)
        if (state.seats[seat].held == 0 and not state.named
                and any(s.out for s in state.seats)):
            state = _bridge(state, seat)
        if state.seats[seat].held == 1 and state.unnamed == 1:
            state = _last_keyword(state, seat)
            after = seat
            continue
        return _evolve(state, to_act=seat, deadline_ms=state.now_ms + state.rules.answer_ms,
                       answered=False)


def _sole_holder(state: State) -> int | None:
    if state.unnamed != 1:
        return None
    return next(i for i, s in enumerate(state.seats) if s.held > 0)


def _last_keyword(state: State, seat: int) -> State:
    """Special case 2: the holder of the only keyword left scores it without guessing."""
    s = state.seats[seat]
    seats = _seat(state, seat, held=s.held - 1, face_up=(*s.face_up, UNKNOWN))
    return _evolve(state, seats=seats, named=(*state.named, UNKNOWN),
                   guesses=(*state.guesses, Guess(seat, GuessResult.LAST_KEYWORD, seat)))


def _bridge(state: State, seat: int) -> State:
    """Special case 1: everyone before the listener failed; the first guesser's tile becomes
    their bridge."""
    first = [g.seat for g in state.guesses]
    if not state.rules.interpretations.bridge_from_earliest_holder:
        first = first[:1]
    donor = next((g for g in first if state.seats[g].held > 0), None)
    if donor is None:
        return state
    seats = list(state.seats)
    seats[donor] = dataclasses.replace(seats[donor], held=seats[donor].held - 1)
    seats[seat] = dataclasses.replace(seats[seat], held=seats[seat].held + 1)
    return _evolve(state, seats=tuple(seats), bridges=(*state.bridges, (donor, seat)))


def _join_listeners(state: State) -> State:
    return _evolve(state, seats=tuple(dataclasses.replace(s, listening=False)
                                      for s in state.seats))


def _check_guesser(state: State, ev: Event, seat: int) -> Rejection | None:
    if seat != state.to_act:
        return Rejection("not_your_turn", f"seat {state.to_act} is guessing, not seat {seat}")
    if not state.answered:
        assert state.deadline_ms is not None
        if ev.at_ms >= state.deadline_ms:
            return Rejection("deadline_passed", "the 15 s ran out; the time-up puts the "
                                                "guesser out")
    return None


def _answer_given(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, AnswerGiven)
    if state.answered:
        return Rejection("already_answered", f"seat {ev.seat} has already answered")
    problem = _check_guesser(state, ev, ev.seat)
    if problem:
        return problem
    return _evolve(state, answered=True, deadline_ms=None)


def _guess_right(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, GuessRight)
    problem = _check_guesser(state, ev, ev.seat)
    if problem:
        return problem
    if not 0 <= ev.holder < state.n_players:
        return _bad_seat(state, ev.holder)
    if ev.holder == ev.seat:
        return Rejection("own_tile", "a guesser may not name the keyword they hold")
    if state.seats[ev.holder].held == 0:
        return Rejection("holder_has_no_tile", f"seat {ev.holder} holds no tile of this story")
    tile = UNKNOWN
    if ev.tile is not None:
        if ev.tile not in state.recall_tiles or ev.tile == UNKNOWN:
            return Rejection("bad_tile", f"tile {ev.tile} is not in this story")
        if ev.tile in state.named:
            return Rejection("already_named", f"tile {ev.tile} has been named already")
        tile = ev.tile
    holder = state.seats[ev.holder]
    st = _evolve(state, seats=_seat(state, ev.holder, held=holder.held - 1))
    me = st.seats[ev.seat]
    st = _evolve(st, seats=_seat(st, ev.seat, face_up=(*me.face_up, tile)),
                 named=(*st.named, tile),
                 guesses=(*st.guesses, Guess(ev.seat, GuessResult.RIGHT, ev.holder, ev.tile)),
                 to_act=None, deadline_ms=None, answered=False)
    return _turn_after(st, ev.seat)


def _guess_failed(state: State, ev: Event) -> State | Rejection:
    if isinstance(ev, AnswerTimeUp):
        if state.answered or state.deadline_ms is None:
            return Rejection("no_timer", "the guesser has answered; the host judges")
        if ev.at_ms < state.deadline_ms:
            return _too_early(ev, state.deadline_ms)
        result = GuessResult.TIME_UP
    else:
        assert isinstance(ev, GuessWrong)
        problem = _check_guesser(state, ev, ev.seat)
        if problem:
            return problem
        result = GuessResult.WRONG
    seat = state.to_act
    assert seat is not None
    st = _evolve(state, seats=_seat(state, seat, out=True),
                 guesses=(*state.guesses, Guess(seat, result)), to_act=None, deadline_ms=None,
                 answered=False)
    if st.rules.interpretations.listeners_join_after_any_failure:
        st = _join_listeners(st)
    return _turn_after(st, seat)


def _end_recall(state: State) -> State:
    """After the story: bank, discard by the slot's penalty, the stop tile, then next turn."""
    interp = state.rules.interpretations
    teller, slot = state.teller, state.recall_slot
    assert teller is not None and slot is not None
    due = state.penalties[slot]
    seats = list(state.seats)
    penalties: list[Penalty] = []
    discarded, discarded_stops = state.discarded, state.discarded_stops
    unnamed = sum(s.held for s in seats)
    failed = tuple(i for i, s in enumerate(seats) if s.out)
    for i, s in enumerate(seats):
        pile, face_up = list(s.pile), list(s.face_up)
        if s.out:
            lose_up = min(due, len(face_up))
            face_up = face_up[:len(face_up) - lose_up]
            left, lost_pile, stopped = due - lose_up, 0, False
            while left > 0 and pile:
                if pile[-1] == STOP:
                    stopped = True
                    if not interp.stop_tile_is_kept:
                        pile.pop()
                        lost_pile += 1
                        discarded_stops += 1
                    break
                pile.pop()
                lost_pile += 1
                left -= 1
            banked = len(face_up) if interp.failed_bank_leftover_face_up else 0
            discarded += lose_up + (lost_pile - (1 if stopped and not interp.stop_tile_is_kept
                                                 else 0))
            if not interp.failed_bank_leftover_face_up:
                discarded += len(face_up)
                lose_up += len(face_up)
                face_up = []
            penalties.append(Penalty(seat=i, due=due, face_up=lose_up, pile=lost_pile,
                                     stopped=stopped, banked=banked))
        pile.extend(face_up)
        seats[i] = dataclasses.replace(s, pile=tuple(pile), held=0, face_up=(), out=False,
                                       listening=False)
    stops_left = state.stops_left
    stop_tile = not failed and stops_left > 0
    if stop_tile:
        seats[teller] = dataclasses.replace(seats[teller],
                                            pile=(*seats[teller].pile, STOP))
        stops_left -= 1
    bag, played = state.bag, state.played
    if interp.unnamed_tiles_return_to_bag:
        bag += unnamed
        rest = list(state.recall_tiles)
        for t in state.named:
            if t in rest:
                rest.remove(t)
        played = played - set(rest)
    else:
        discarded += unnamed
    result = RecallResult(round=state.round, teller=teller, slot=slot, named=state.named,
                          unnamed=unnamed, failed=failed, penalties=tuple(penalties),
                          stop_tile=stop_tile, bridges=state.bridges,
                          scores_before=state.scores,
                          scores_after=tuple(len(s.pile) for s in seats))
    st = _evolve(state, seats=tuple(seats), discarded=discarded,
                 discarded_stops=discarded_stops, stops_left=stops_left, bag=bag,
                 played=played, recalls=(*state.recalls, result))
    return _after_turn(st)


def _finish(state: State, reason: EndReason) -> State:
    return _evolve(
        state, phase=Phase.OVER, to_act=None, deadline_ms=None, answered=False,
        outcome=Outcome(reason=reason, winners=winners(state.scores, state.stops),
                        scores=state.scores))


def _too_early(ev: Event, deadline: int) -> Rejection:
    return Rejection("too_early", f"{ev.type_name} at {ev.at_ms} ms is before the deadline "
                                  f"({deadline} ms)")


def _bad_seat(state: State, seat: int) -> Rejection:
    return Rejection("bad_seat", f"seat {seat} is not at this table (0-{state.n_players - 1})")


_HANDLERS: dict[tuple[Phase, type[Event]], Callable[[State, Event], State | Rejection]] = {
    (Phase.SETUP, NewGame): _new_game,
    (Phase.STORY, TileSeen): _tile_laid,
    (Phase.STORY, TileEntered): _tile_laid,
    (Phase.STORY, TileWithdrawn): _tile_withdrawn,
    (Phase.STORY, StoryTold): _story_told,
    (Phase.DEAL, TilesDealt): _tiles_dealt,
    (Phase.GUESS, AnswerGiven): _answer_given,
    (Phase.GUESS, GuessRight): _guess_right,
    (Phase.GUESS, GuessWrong): _guess_failed,
    (Phase.GUESS, AnswerTimeUp): _guess_failed,
    (Phase.ROUND_OVER, NextRound): _next_round,
}

_REDUCER: Reducer[State] = Reducer(
    GAME_NAME, EVENTS, _HANDLERS, is_over=is_over,
    stamp=lambda state, at_ms: _evolve(state, now_ms=at_ms), anytime={EndGame: _end_game})


# --- a plain summary (for `tablekeeper replay`, logs and the display) ----------------------


def summary(state: State) -> dict[str, Any]:
    """The state as one JSON-able object: score piles by seat, round, whose turn, the recap,
    outcome. (The keywords of a story under recall are in ``stories``: a screen must not show
    them while the others recall.)"""
    def who(seat: int | None) -> dict[str, Any] | None:
        if seat is None:
            return None
        return {"seat": seat, "name": state.seats[seat].name}

    out: dict[str, Any] = {
        "game": GAME_NAME,
        "side": state.side.value if state.seats else None,
        "phase": state.phase.value,
        "round": state.round,
        "rounds": state.rounds,
        "now_ms": state.now_ms,
        "teller": who(state.teller),
        "to_act": who(state.to_act),
        "deadline_ms": state.deadline_ms,
        "laid": list(state.laid),
        "recall_slot": state.recall_slot,
        "named": len(state.named),
        "seats": [{"seat": i, "name": s.name, "members": list(s.members), "colour": s.colour,
                   "score": s.score, "stops": s.stops, "held": s.held,
                   "face_up": len(s.face_up), "out": s.out, "listening": s.listening}
                  for i, s in enumerate(state.seats)],
        "scores": {s.name: s.score for s in state.seats},
        "stories": [{"seat": i, "name": s.name, "slot": k, "tiles": list(tiles)}
                    for i, s in enumerate(state.seats) for k, tiles in enumerate(s.slots)],
        "recalls": [{"round": r.round, "teller": r.teller, "slot": r.slot,
                     "named": len(r.named), "unnamed": r.unnamed, "failed": list(r.failed),
                     "stop_tile": r.stop_tile,
                     "penalties": [dataclasses.asdict(p) for p in r.penalties]}
                    for r in state.recalls],
        "outcome": None,
    }
    if state.outcome is not None:
        out["outcome"] = {
            "reason": state.outcome.reason.value,
            "winners": [state.seats[s].name for s in state.outcome.winners],
            "winner_seats": list(state.outcome.winners),
            "scores": list(state.outcome.scores),
            "stops": list(state.stops),
        }
    return out


ENGINE: Engine[State] = Engine(
    name=GAME_NAME,
    min_players=Rules().min_players,
    max_players=Rules().max_players,
    events=EVENTS,
    rules_from_dict=Rules.from_dict,
    rules_to_dict=Rules.to_dict,
    initial_state=initial_state,
    apply=apply,
    legal_actions=legal_actions,
    outcome=outcome,
    deadline=deadline,
    summary=summary,
)
