"""眨眨眼 Wink (3-8 players): the rules as a pure reducer.

The game in one paragraph: 36 face cards (1-36) lie face up in a 6x6 grid; every player holds a
hidden hand from a second set of 1-36 and four accusation cards. In turn, a player puts their
coloured marker on a face-up grid card nobody's marker is on (and whose number they do not hold)
and calls 「X號夥伴，我在找你！」; whoever holds X winks at them. On their next turn they name the
partner: right, the grid card and the partner's hand card score for each; wrong, the grid card
is turned face down for good. Then they place again. At any moment a player may spend an
accusation card on a suspected pair (「我要抓！」): right, the accuser takes the grid card and the
accused's card. The game ends when one hand is empty (more than 6 players: two), or no grid card
is face up; scoring-area cards and unused accusation cards score a point each. Spec:
``rules/RULES.md`` section 3 and the seed ``rules/seeds/001_0fc280e0e5723be5.txt`` (the seed wins).

API (everything here is a pure function of its arguments)::

    rules = Rules()                      # static facts: grid, hand sizes per player count,
                                         # accusation cards, end thresholds, and every [I]
                                         # interpretation (see Interpretations)
    state = initial_state(rules)         # phase SETUP, waiting for NewGame
    result = apply(state, event)         # -> State, or Rejection(code, reason)
    legal_actions(state)                 # -> tuple of plays the state accepts now
    is_over(state); outcome(state)       # -> Outcome(reason, winners, scores) or None
    EVENTS.from_dict(d); event.to_dict() # versioned JSON of every event
    ENGINE                               # the game as the app sees it (engine.core.Engine)

Seats are ``0..n-1`` clockwise. Grid cells are ``(row, col)``, both 0-based, row-major: cell
index ``row * cols + col``. Numbers are 1-36. Times are milliseconds on the app's game clock;
this game runs no timer (``deadline`` is always None).

Hidden information: the box never knows which numbers a player holds, only how many cards
(``Player.hand``). What the table says out loud is entered by the host: whether a naming or an
accusation was right. A placement is recorded as the player's claim not to hold that number
(``Player.claims``); a "no" answer as a denial (``Player.denials``); a later "yes" against
either is a contradiction (see ``Interpretations.reject_contradicted_answers``).

Events and where they come from (one table fact each):

- ``NewGame`` (host): names, colours, start seat, the extra card, the hand size dealt;
- ``GridSeen`` (camera) / ``GridEntered`` (host): the 36 numbers as laid out;
- ``MarkerPlaced`` (camera: a colour's marker appeared on a cell) / ``MarkerPlacedByHand``
  (host); ``NoPlacement`` (host: the active player holds every free number);
- ``PartnerNamed`` (host): the active player pointed at ``seat``; the answer ``right``;
- ``AccusationWon`` (buzzer: the 「我要抓！」 race, seat and margin) / ``AccusationByHand``
  (host); then ``AccusationEntered`` (host: whom, which number, the answer) or
  ``AccusationWithdrawn`` (host). While an accusation is pending the turn waits (phase
  ACCUSATION, the interrupted step kept in ``State.resume``);
- ``CellSeen`` (camera): what one cell shows; it confirms the host's entries or records a
  disagreement (``State.mismatches``), never changes the game;
- ``EndGame`` (host).

Flow (phases): SETUP -> LAYOUT -> [NAME ->] PLACE -> (next player) ... -> OVER, with
ACCUSATION possible from NAME or PLACE and returning to it.
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
    left_of,
    rules_from_dict,
    rules_to_dict,
    seating_problem,
)

GAME_NAME = "wink"

#: The eight player colours (player card and marker), in the order of the box, with their
#: Chinese names (seed: 紅、黃、藍、綠、棕、紫、黑、白).
COLOURS: Mapping[str, str] = {
    "red": "紅",
    "yellow": "黃",
    "blue": "藍",
    "green": "綠",
    "brown": "棕",
    "purple": "紫",
    "black": "黑",
    "white": "白",
}

#: How sure we are of each default hand size (RULES.md section 3; the seed's table was a
#: picture and is missing). Settable: ``Rules.hand_cards`` or ``NewGame.hand_size``.
HAND_CARDS_CONFIDENCE: Mapping[int, str] = {
    3: "unconfirmed default (current boxes say 4-8 players; the seed says 3-8)",
    4: "confirmed (boardgameguys review, a BGG review)",
    5: "confirmed (boardgameguys review, a BGG review)",
    6: "medium (the largest that fits 36 with the extra card)",
    7: "medium (the largest that fits 36 with the extra card)",
    8: "forced (36 cards; no extra card at 8, 8 x 5 cannot fit)",
}


class CellFace(enum.Enum):
    UP = "up"  # a face-up grid card: markers may go there
    DOWN = "down"  # turned face down after a wrong naming: never used again
    EMPTY = "empty"  # the card was taken into a scoring area


class Origin(enum.Enum):
    """How a card came into a scoring area."""

    GRID_FOUND = "grid_found"  # the seeker's grid card, after naming the partner right
    HAND_FOUND = "hand_found"  # the partner's own hand card, after being named right
    GRID_CAUGHT = "grid_caught"  # the grid card under the caught seeker's marker
    HAND_CAUGHT = "hand_caught"  # the accused partner's hand card

    @property
    def from_grid(self) -> bool:
        return self in (Origin.GRID_FOUND, Origin.GRID_CAUGHT)


# --- the static game: facts, tables, interpretations -------------------------------------


@dataclass(frozen=True)
class Interpretations:
    """Every reading of an ambiguous rule ([I] in RULES.md), in one place, by name.

    Change a default here (or pass ``Rules(interpretations=Interpretations(...))``, or set it in
    the journal header's ``rules``) to play a table's house reading.
    """

    #: [I] Seed: 「該尋找夥伴玩家其指示物則無須移動，繼續停留於原先所在位置」 (after a right
    #: accusation the seeker's marker stays where it is). On: the marker stays on the emptied
    #: cell until its owner's next turn, which then begins with taking it back and placing
    #: anew -- there is no naming, the partner's card is gone (the seed's 「仍須指認夥伴」 is
    #: about a partner who did not wink, not one who was caught). Off: the seeker takes the
    #: marker back at once.
    caught_marker_stays: bool = True
    #: [I] Seed: 「若發現其他2位玩家間眉來眼去」 (two *other* players) and 「指向自家外的其中一位
    #: 玩家」. Off: the accuser may be neither the accused nor the seeker of that number (nobody
    #: accuses their own pair). On: a seeker may accuse someone of being their own partner
    #: (never themselves: the seeker claimed not to hold the number, so the accused is
    #: always someone other than the seeker).
    accuser_may_be_in_pair: bool = False
    #: [I] Seed: 「無事發生，繼續進行遊戲」 and accusations 「包括自家行動回合或其他玩家行動回合」.
    #: On: after an accusation the interrupted turn resumes at the step it was at (the same
    #: active player names or places). Off: play goes on with the accuser as the active player
    #: (their turn begins; clockwise from them after it), the interrupted turn is over.
    accusation_resumes_turn: bool = True
    #: [I] Seed: 「將指控卡打出置於桌面中央，並大聲喊出：「我要抓！」」 -- the card is played
    #: with the shout, and the button press is the shout. On: an accusation the host
    #: withdraws (the accuser names nobody) still spends the card. Off: a withdrawn press
    #: costs nothing.
    withdrawn_accusation_spends_card: bool = True
    #: [I] The seed says answers must be truthful 「不能欺騙」. A "right" entered for a player
    #: who placed their own marker on that number (the claim of not holding it) or who
    #: answered "no" to it before is a contradiction. Off: accepted and recorded in
    #: ``State.contradictions`` for the host to see. On: rejected as a likely mis-entry.
    reject_contradicted_answers: bool = False
    #: [I] (no switch) The end is checked at once after every naming and accusation
    #: (seed: 「遊戲持續進行至出現下列其中之一情況時即告結束」): no placement follows.
    #: [I] (no switch) A player whose turn finds no free face-up card (every one is under
    #: another player's marker) places nothing and the turn passes; the host may also enter
    #: ``NoPlacement`` for a player who holds every free number (accepted only if their hand is
    #: at least that large).
    #: [I] (no switch) Ties still equal after fewest accusation cards and fewest hand cards
    #: share the win.
    #: [I] (no switch) Players with an empty hand (more than 6 players: before the second one
    #: empties) still take turns and accuse; they cannot be named or accused right.


def _default_hand_cards() -> tuple[tuple[int, int], ...]:
    return ((3, 8), (4, 7), (5, 6), (6, 5), (7, 4), (8, 4))


@dataclass(frozen=True)
class Rules:
    """The static facts of 眨眨眼: components, hand sizes, thresholds."""

    min_players: int = 3
    max_players: int = 8
    grid_rows: int = 6
    grid_cols: int = 6
    #: hand cards per player, by player count (see HAND_CARDS_CONFIDENCE)
    hand_cards: tuple[tuple[int, int], ...] = field(default_factory=_default_hand_cards)
    #: player counts at which the table may deal one extra card each (seed: 4~7位玩家)
    extra_card_players: tuple[int, ...] = (4, 5, 6, 7)
    accusation_cards: int = 4
    #: empty hands that end the game; tables of at least ``large_table_min_players`` use the
    #: large threshold (seed: 若玩家人數超過6位，則為其中2位玩家手牌耗盡時)
    empty_hands_end: int = 1
    empty_hands_end_large: int = 2
    large_table_min_players: int = 7
    interpretations: Interpretations = field(default_factory=Interpretations)

    @property
    def cells(self) -> int:
        """Grid cells, and the numbers 1..cells of each set of face cards."""
        return self.grid_rows * self.grid_cols

    def hand_size_for(self, n_players: int, extra_card: bool = False) -> int:
        size = dict(self.hand_cards)[n_players]
        return size + 1 if extra_card else size

    def empty_hands_for(self, n_players: int) -> int:
        return self.empty_hands_end_large if n_players >= self.large_table_min_players \
            else self.empty_hands_end

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
        if self.grid_rows <= 0 or self.grid_cols <= 0:
            out.append(f"rules.grid_rows/grid_cols: {self.grid_rows}x{self.grid_cols} "
                       f"must be positive")
        sizes = dict(self.hand_cards)
        if len(sizes) != len(self.hand_cards):
            out.append("rules.hand_cards: a player count appears twice")
        for n in range(self.min_players, self.max_players + 1):
            if n not in sizes:
                out.append(f"rules.hand_cards: no hand size for {n} players")
                continue
            most = sizes[n] + (1 if n in self.extra_card_players else 0)
            if sizes[n] < 1 or n * most > self.cells:
                out.append(f"rules.hand_cards.{n}: {n} hands of {most} do not fit "
                           f"{self.cells} cards")
        if self.accusation_cards < 0:
            out.append(f"rules.accusation_cards: must not be negative, "
                       f"got {self.accusation_cards}")
        for key in ("empty_hands_end", "empty_hands_end_large"):
            if not 1 <= getattr(self, key) <= self.min_players:
                out.append(f"rules.{key}: must be 1..{self.min_players}, "
                           f"got {getattr(self, key)}")
        return out


# --- events ------------------------------------------------------------------------------

EVENTS = EventRegistry(GAME_NAME)


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class NewGame(Event):
    """The host starts a game: players (names and colours, seat order clockwise), the start
    player, whether one extra card was dealt each, or the hand size the table really dealt."""

    type_name = "new_game"
    source = Source.HOST
    names: tuple[str, ...]
    colours: tuple[str, ...]
    start_seat: int = 0
    extra_card: bool = False
    #: cards dealt to each player, when the table dealt other than the rules' size
    hand_size: int | None = None


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class GridSeen(Event):
    """The camera read the laid-out grid: the numbers cell by cell, row-major."""

    type_name = "grid_seen"
    source = Source.CAMERA
    numbers: tuple[int, ...]


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class GridEntered(Event):
    """The host entered the laid-out grid (the camera is not working)."""

    type_name = "grid_entered"
    source = Source.HOST
    numbers: tuple[int, ...]


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class MarkerPlaced(Event):
    """The camera saw the marker of ``colour`` appear on cell (``row``, ``col``)."""

    type_name = "marker_placed"
    source = Source.CAMERA
    colour: str
    row: int
    col: int


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class MarkerPlacedByHand(Event):
    """The host: seat ``seat`` put their marker on cell (``row``, ``col``)."""

    type_name = "marker_placed_by_hand"
    source = Source.HOST
    seat: int
    row: int
    col: int


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class NoPlacement(Event):
    """The host: the active player holds every free face-up number and places nothing."""

    type_name = "no_placement"
    source = Source.HOST
    seat: int


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class PartnerNamed(Event):
    """The host: the active player pointed at ``seat`` (「X號夥伴，我找到你了！」), and the
    answer: ``right`` if that player holds the number under the active player's marker."""

    type_name = "partner_named"
    source = Source.HOST
    seat: int
    right: bool


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class AccusationWon(Event):
    """The firmware arbiter's verdict on a 「我要抓！」 race: the first press."""

    type_name = "accusation_won"
    source = Source.BUZZER
    seat: int
    margin_us: int = 0  # lead over the second press (0 if nobody else pressed)
    tie: bool = False  # an exact tie was broken by lot


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class AccusationByHand(Event):
    """The host: ``seat`` shouted 「我要抓！」 first (the buttons are not working)."""

    type_name = "accusation_by_hand"
    source = Source.HOST
    seat: int


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class AccusationEntered(Event):
    """The host: the pending accuser pointed at ``accused`` (「X號夥伴，我抓到你了！」, X =
    ``number``, the number under the seeker's marker), and the answer ``right``."""

    type_name = "accusation_entered"
    source = Source.HOST
    accused: int
    number: int
    right: bool


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class AccusationWithdrawn(Event):
    """The host: the pending accuser names nobody (a slip of the hand)."""

    type_name = "accusation_withdrawn"
    source = Source.HOST


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class CellSeen(Event):
    """The camera: what cell (``row``, ``col``) shows now -- ``face`` "up" (with its
    ``number`` if read), "down" or "empty", and the ``marker`` colour on it (None: none)."""

    type_name = "cell_seen"
    source = Source.CAMERA
    row: int
    col: int
    face: str
    number: int | None = None
    marker: str | None = None


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class EndGame(Event):
    """The host ends the game early; scores and tie-breaks decide as at the normal end."""

    type_name = "end_game"
    source = Source.HOST


# --- the state of one play ---------------------------------------------------------------


class Phase(enum.Enum):
    SETUP = "setup"  # waiting for NewGame
    LAYOUT = "layout"  # waiting for the grid (camera or host)
    NAME = "name"  # the active player names the partner for their marker
    PLACE = "place"  # the active player puts their marker down and calls
    ACCUSATION = "accusation"  # an accuser won the race; the host enters whom and the answer
    OVER = "over"


class EndReason(enum.Enum):
    HANDS_EMPTY = "hands_empty"  # one hand empty (more than 6 players: two)
    GRID_CLEARED = "grid_cleared"  # no grid card face up
    HOST_ENDED = "host_ended"


class TieBreak(enum.Enum):
    """What decided the winner at the end."""

    SCORE = "score"  # one highest score
    ACCUSATION_CARDS = "accusation_cards"  # equal scores: fewest accusation cards left
    HAND_CARDS = "hand_cards"  # still equal: fewest hand cards
    SHARED = "shared"  # still equal: the win is shared


class PlacementKind(enum.Enum):
    CAMERA = "camera"  # the camera saw the marker put down
    HOST = "host"  # the host entered it
    NONE_FREE = "none_free"  # no free face-up card: the turn passed
    HOLDS_ALL = "holds_all"  # the host: the player holds every free number


@dataclass(frozen=True)
class Cell:
    number: int
    face: CellFace = CellFace.UP


@dataclass(frozen=True)
class AreaCard:
    """A card in a scoring area (under a player card)."""

    number: int
    origin: Origin


@dataclass(frozen=True)
class Player:
    name: str
    colour: str
    hand: int  # hand cards held (the numbers are hidden)
    accusations: int  # unused accusation cards
    area: tuple[AreaCard, ...] = ()  # the scoring area
    marker: int | None = None  # the cell the marker lies on (None: in front of the player)
    claims: tuple[int, ...] = ()  # numbers placed on: claimed not held
    denials: tuple[int, ...] = ()  # numbers they answered "no" to

    @property
    def score(self) -> int:
        return len(self.area) + self.accusations


@dataclass(frozen=True)
class Placement:
    """A turn's placement: ``cell``/``number`` None when nothing was placed."""

    turn: int
    seat: int
    cell: int | None
    number: int | None
    kind: PlacementKind


@dataclass(frozen=True)
class Naming:
    turn: int
    seat: int  # the active player
    named: int
    number: int
    right: bool


@dataclass(frozen=True)
class PendingAccusation:
    """The 「我要抓！」 race's winner, waiting for the host's entry."""

    seat: int
    margin_us: int
    tie: bool
    by_hand: bool = False


@dataclass(frozen=True)
class Accusation:
    """A settled accusation (``accused``/``number``/``seeker`` None when withdrawn)."""

    turn: int
    seat: int  # the accuser
    margin_us: int
    accused: int | None
    number: int | None
    seeker: int | None
    right: bool
    card_spent: bool


@dataclass(frozen=True)
class Contradiction:
    """A "right" entered for a player who had claimed (placement) or said (denial) not to
    hold the number."""

    seat: int
    number: int
    kind: str  # "claim" or "denial"


@dataclass(frozen=True)
class Mismatch:
    """The camera sees a cell other than the box expects (shown, never silently resolved)."""

    cell: int
    expected_face: CellFace
    expected_marker: str | None
    seen_face: str
    seen_number: int | None
    seen_marker: str | None


@dataclass(frozen=True)
class State:
    """One play of 眨眨眼. Render from: phase, active, call, grid, players (hand counts,
    accusation cards, areas, markers), pending, last_accusation, last_naming, mismatches,
    outcome and tie_break."""

    rules: Rules = field(repr=False)
    phase: Phase = Phase.SETUP
    now_ms: int = 0
    players: tuple[Player, ...] = ()
    start_seat: int = 0
    hand_size: int = 0  # cards dealt to each player
    extra_card: bool = False
    grid: tuple[Cell, ...] = ()  # row-major
    turn: int = 0  # turns begun (1-based once play starts)
    active: int | None = None  # whose turn it is
    resume: Phase | None = None  # the step an accusation interrupted (NAME or PLACE)
    pending: PendingAccusation | None = None
    placements: tuple[Placement, ...] = ()
    namings: tuple[Naming, ...] = ()
    accusations: tuple[Accusation, ...] = ()
    contradictions: tuple[Contradiction, ...] = ()
    unconfirmed: tuple[int, ...] = ()  # cells changed by a host entry, not yet seen so
    mismatches: tuple[Mismatch, ...] = ()  # by cell
    tie_break: TieBreak | None = None
    outcome: Outcome[EndReason] | None = None

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(p.score for p in self.players)

    @property
    def removed(self) -> int:
        """Hand-set cards left out of the game secretly at the deal."""
        return self.rules.cells - self.hand_size * self.n_players if self.players else 0

    @property
    def empty_hands(self) -> int:
        return sum(1 for p in self.players if p.hand == 0)

    @property
    def face_up(self) -> int:
        return sum(1 for c in self.grid if c.face is CellFace.UP)

    @property
    def call(self) -> Placement | None:
        """The last marker put down (「X號夥伴，我在找你！」), if any."""
        for p in reversed(self.placements):
            if p.cell is not None:
                return p
        return None

    @property
    def last_accusation(self) -> Accusation | None:
        return self.accusations[-1] if self.accusations else None

    @property
    def last_naming(self) -> Naming | None:
        return self.namings[-1] if self.namings else None

    def cell_of(self, row: int, col: int) -> int | None:
        """The cell index of (row, col), None if off the grid."""
        r = self.rules
        if 0 <= row < r.grid_rows and 0 <= col < r.grid_cols:
            return row * r.grid_cols + col
        return None

    def row_col(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.rules.grid_cols)

    def marker_on(self, cell: int) -> int | None:
        """The seat whose marker lies on ``cell``."""
        for seat, p in enumerate(self.players):
            if p.marker == cell:
                return seat
        return None

    def seat_of_colour(self, colour: str) -> int | None:
        for seat, p in enumerate(self.players):
            if p.colour == colour:
                return seat
        return None

    def cell_of_number(self, number: int) -> int | None:
        for i, c in enumerate(self.grid):
            if c.number == number:
                return i
        return None

    def free_cells(self) -> tuple[int, ...]:
        """Face-up cells with no marker: where the active player may put theirs."""
        taken = {p.marker for p in self.players}
        return tuple(i for i, c in enumerate(self.grid)
                     if c.face is CellFace.UP and i not in taken)

    def seekers(self) -> tuple[int, ...]:
        """Seats whose marker lies on a face-up card: each is looking for that number."""
        return tuple(s for s, p in enumerate(self.players)
                     if p.marker is not None and self.grid[p.marker].face is CellFace.UP)


_STATE_FIELDS = frozenset(f.name for f in dataclasses.fields(State))


def _evolve(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` for the reducer's hot path (State has no ``__post_init__``)."""
    assert _STATE_FIELDS.issuperset(changes), set(changes) - _STATE_FIELDS
    new = object.__new__(State)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def _with_player(players: tuple[Player, ...], seat: int, **changes: Any) -> tuple[Player, ...]:
    out = list(players)
    out[seat] = dataclasses.replace(out[seat], **changes)
    return tuple(out)


def initial_state(rules: Rules | None = None) -> State:
    return State(rules=rules if rules is not None else Rules())


# --- queries -----------------------------------------------------------------------------


def is_over(state: State) -> bool:
    return state.phase is Phase.OVER


def outcome(state: State) -> Outcome[EndReason] | None:
    return state.outcome


def deadline(state: State) -> Deadline | None:
    """Wink runs no timer (the wink happens before the seeker's next turn, however long)."""
    return None


def accusation_targets(state: State, accuser: int) -> tuple[tuple[int, int], ...]:
    """The (accused, number) pairs ``accuser`` may accuse now, by the rules and the
    interpretation of who may accuse whom (the answer is the table's)."""
    interp = state.rules.interpretations
    out = []
    for seeker in state.seekers():
        if seeker == accuser and not interp.accuser_may_be_in_pair:
            continue
        marker = state.players[seeker].marker
        assert marker is not None
        number = state.grid[marker].number
        for accused in range(state.n_players):
            if accused in (accuser, seeker):
                continue
            out.append((accused, number))
    return tuple(out)


def may_accuse(state: State, seat: int) -> bool:
    """Whether ``seat`` may join a 「我要抓！」 race now (the arbiter excludes the others)."""
    return (state.phase in (Phase.NAME, Phase.PLACE) and 0 <= seat < state.n_players
            and state.players[seat].accusations > 0 and bool(accusation_targets(state, seat)))


def legal_actions(state: State) -> tuple[Event, ...]:
    """The plays the state accepts now, stamped at ``now_ms``.

    Not listed: NewGame (SETUP) and the grid (LAYOUT) -- unbounded; EndGame (always possible
    before the end); CellSeen (the camera's observations, accepted at any time in play).
    """
    now = state.now_ms
    p = state.phase
    out: list[Event] = []
    if p in (Phase.NAME, Phase.PLACE):
        seat = state.active
        assert seat is not None
        if p is Phase.NAME:
            for s in range(state.n_players):
                if s != seat:
                    out.append(PartnerNamed(at_ms=now, seat=s, right=False))
                    if state.players[s].hand > 0 and _contradiction(state, s, _seeking(
                            state, seat)) is None:
                        out.append(PartnerNamed(at_ms=now, seat=s, right=True))
        else:
            colour = state.players[seat].colour
            for cell in state.free_cells():
                row, col = state.row_col(cell)
                out.append(MarkerPlaced(at_ms=now, colour=colour, row=row, col=col))
                out.append(MarkerPlacedByHand(at_ms=now, seat=seat, row=row, col=col))
            if state.players[seat].hand >= len(state.free_cells()):
                out.append(NoPlacement(at_ms=now, seat=seat))
        for s in range(state.n_players):
            if may_accuse(state, s):
                out.append(AccusationWon(at_ms=now, seat=s))
                out.append(AccusationByHand(at_ms=now, seat=s))
    elif p is Phase.ACCUSATION:
        assert state.pending is not None
        for accused, number in accusation_targets(state, state.pending.seat):
            out.append(AccusationEntered(at_ms=now, accused=accused, number=number, right=False))
            if (state.players[accused].hand > 0
                    and _contradiction(state, accused, number) is None):
                out.append(AccusationEntered(at_ms=now, accused=accused, number=number,
                                             right=True))
        out.append(AccusationWithdrawn(at_ms=now))
    return tuple(out)


def _seeking(state: State, seat: int) -> int:
    """The number under ``seat``'s marker (they are a seeker)."""
    marker = state.players[seat].marker
    assert marker is not None
    return state.grid[marker].number


def _contradiction(state: State, seat: int, number: int) -> Contradiction | None:
    """The contradiction a "right" for ``seat`` holding ``number`` would be, if the
    interpretation rejects those (None: acceptable)."""
    if not state.rules.interpretations.reject_contradicted_answers:
        return None
    return _contradicts(state, seat, number)


def _contradicts(state: State, seat: int, number: int) -> Contradiction | None:
    p = state.players[seat]
    if number in p.claims:
        return Contradiction(seat, number, "claim")
    if number in p.denials:
        return Contradiction(seat, number, "denial")
    return None


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
    seating = seating_problem("眨眨眼", ev.names, ev.colours, ev.start_seat,
                              min_players=rules.min_players, max_players=rules.max_players,
                              known_colours=COLOURS)
    if seating is not None:
        return seating
    if ev.extra_card and n not in rules.extra_card_players:
        allowed = ", ".join(str(k) for k in rules.extra_card_players) or "none"
        return Rejection("bad_setup", f"the extra card is dealt only with {allowed} players, "
                                      f"not {n}")
    if ev.hand_size is None:
        size = rules.hand_size_for(n, ev.extra_card)
    else:
        size = ev.hand_size
        if size < 1 or size * n > rules.cells:
            return Rejection("bad_setup", f"{n} hands of {size} cards do not fit the "
                                          f"{rules.cells} cards of a set")
    return _evolve(
        state,
        phase=Phase.LAYOUT,
        players=tuple(Player(name=nm, colour=c, hand=size, accusations=rules.accusation_cards)
                      for nm, c in zip(ev.names, ev.colours, strict=True)),
        start_seat=ev.start_seat,
        hand_size=size,
        extra_card=ev.extra_card,
    )


def _grid_laid(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, GridSeen | GridEntered)
    cells = state.rules.cells
    if sorted(ev.numbers) != list(range(1, cells + 1)):
        return Rejection("bad_grid", f"the grid must hold each number 1-{cells} once, "
                                     f"got {len(ev.numbers)} numbers")
    st = _evolve(state, grid=tuple(Cell(number=x) for x in ev.numbers))
    return _start_turn(st, state.start_seat)


def _start_turn(state: State, seat: int) -> State:
    """Seat ``seat``'s turn begins: name if their marker is looking for someone, else place
    (a caught marker is taken back first); with no free card the turn passes."""
    return _step(_evolve(state, active=seat, turn=state.turn + 1, resume=None, pending=None))


def _step(state: State) -> State:
    """The active player's next step: NAME while their marker lies on a face-up card, else
    PLACE; a turn with no free face-up card passes to the left."""
    for _ in range(state.n_players + 1):
        seat = state.active
        assert seat is not None
        p = state.players[seat]
        if p.marker is not None:
            if state.grid[p.marker].face is CellFace.UP:
                return _evolve(state, phase=Phase.NAME)
            # caught (its card taken): the owner takes it back and places anew
            state = _evolve(state, players=_with_player(state.players, seat, marker=None),
                            unconfirmed=_add(state.unconfirmed, p.marker))
        if state.free_cells():
            return _evolve(state, phase=Phase.PLACE)
        state = _evolve(
            state, placements=(*state.placements, Placement(
                turn=state.turn, seat=seat, cell=None, number=None,
                kind=PlacementKind.NONE_FREE)),
            active=left_of(seat, state.n_players), turn=state.turn + 1)
    raise AssertionError("no player can name or place, yet a card is face up")  # pragma: no cover


def _add(cells: tuple[int, ...], cell: int) -> tuple[int, ...]:
    return cells if cell in cells else tuple(sorted((*cells, cell)))


def _check_seat(state: State, seat: int) -> Rejection | None:
    if not 0 <= seat < state.n_players:
        return Rejection("bad_seat", f"seat {seat} is not at this table "
                                     f"(0-{state.n_players - 1})")
    return None


def _not_your_turn(state: State, seat: int, what: str) -> Rejection:
    assert state.active is not None
    active = state.players[state.active]
    return Rejection("not_your_turn", f"it is seat {state.active}'s ({active.name}, "
                                      f"{active.colour}) turn to {what}, not seat {seat}'s")


def _marker_placed(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, MarkerPlaced | MarkerPlacedByHand)
    if isinstance(ev, MarkerPlaced):
        seat = state.seat_of_colour(ev.colour)
        if seat is None:
            return Rejection("unknown_marker", f"no player has the {ev.colour!r} marker")
        kind = PlacementKind.CAMERA
    else:
        bad = _check_seat(state, ev.seat)
        if bad is not None:
            return bad
        seat, kind = ev.seat, PlacementKind.HOST
    if seat != state.active:
        return _not_your_turn(state, seat, "place a marker")
    cell = state.cell_of(ev.row, ev.col)
    if cell is None:
        return Rejection("bad_cell", f"cell ({ev.row}, {ev.col}) is off the "
                                     f"{state.rules.grid_rows}x{state.rules.grid_cols} grid")
    c = state.grid[cell]
    if c.face is not CellFace.UP:
        what = "face down" if c.face is CellFace.DOWN else "taken"
        return Rejection("card_not_up", f"the card at ({ev.row}, {ev.col}) is {what}: "
                                        f"no marker may go there")
    other = state.marker_on(cell)
    if other is not None:
        return Rejection("cell_has_marker", f"{c.number} already has the "
                                            f"{state.players[other].colour} marker on it")
    p = state.players[seat]
    players = _with_player(state.players, seat, marker=cell, claims=(*p.claims, c.number))
    st = _evolve(
        state, players=players,
        placements=(*state.placements, Placement(turn=state.turn, seat=seat, cell=cell,
                                                 number=c.number, kind=kind)),
        unconfirmed=_add(state.unconfirmed, cell) if kind is PlacementKind.HOST
        else _confirm(state.unconfirmed, cell),
        mismatches=state.mismatches if kind is PlacementKind.HOST
        else tuple(m for m in state.mismatches if m.cell != cell))
    return _start_turn(st, left_of(seat, state.n_players))


def _confirm(cells: tuple[int, ...], cell: int) -> tuple[int, ...]:
    return tuple(c for c in cells if c != cell)


def _no_placement(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, NoPlacement)
    bad = _check_seat(state, ev.seat)
    if bad is not None:
        return bad
    if ev.seat != state.active:
        return _not_your_turn(state, ev.seat, "place a marker")
    free = len(state.free_cells())
    hand = state.players[ev.seat].hand
    if hand < free:
        return Rejection("can_place", f"{free} free cards but only {hand} cards in hand: "
                                      f"at least one free number is not held")
    st = _evolve(state, placements=(*state.placements, Placement(
        turn=state.turn, seat=ev.seat, cell=None, number=None, kind=PlacementKind.HOLDS_ALL)))
    return _start_turn(st, left_of(ev.seat, state.n_players))


def _partner_named(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, PartnerNamed)
    seat = state.active
    assert seat is not None
    bad = _check_seat(state, ev.seat)
    if bad is not None:
        return bad
    if ev.seat == seat:
        return Rejection("names_self", "the active player points at someone other than "
                                       "themselves")
    cell = state.players[seat].marker
    assert cell is not None
    number = state.grid[cell].number
    named = state.players[ev.seat]
    players = state.players
    contradictions = state.contradictions
    if ev.right:
        if named.hand == 0:
            return Rejection("empty_hand", f"{named.name} has no hand cards: cannot hold "
                                           f"{number}")
        contra = _contradicts(state, ev.seat, number)
        if contra is not None:
            if state.rules.interpretations.reject_contradicted_answers:
                return _contradiction_rejection(state, contra)
            contradictions = (*contradictions, contra)
        me = players[seat]
        players = _with_player(players, seat, marker=None,
                               area=(*me.area, AreaCard(number, Origin.GRID_FOUND)))
        players = _with_player(players, ev.seat, hand=named.hand - 1,
                               area=(*named.area, AreaCard(number, Origin.HAND_FOUND)))
        face = CellFace.EMPTY
    else:
        players = _with_player(players, seat, marker=None)
        players = _with_player(players, ev.seat, denials=(*named.denials, number))
        face = CellFace.DOWN
    grid = list(state.grid)
    grid[cell] = Cell(number, face)
    st = _evolve(state, players=players, grid=tuple(grid), contradictions=contradictions,
                 unconfirmed=_add(state.unconfirmed, cell),
                 namings=(*state.namings, Naming(turn=state.turn, seat=seat, named=ev.seat,
                                                 number=number, right=ev.right)))
    end = _end_reason(st)
    if end is not None:
        return _finish(st, end)
    return _step(st)


def _contradiction_rejection(state: State, c: Contradiction) -> Rejection:
    name = state.players[c.seat].name
    if c.kind == "claim":
        why = f"{name} put their own marker on {c.number}, claiming not to hold it"
    else:
        why = f"{name} said before that they do not hold {c.number}"
    return Rejection("contradiction", why)


def _accusation_won(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, AccusationWon | AccusationByHand)
    bad = _check_seat(state, ev.seat)
    if bad is not None:
        return bad
    if isinstance(ev, AccusationWon) and ev.margin_us < 0:
        return Rejection("bad_buzz", f"margin {ev.margin_us} us is negative")
    p = state.players[ev.seat]
    if p.accusations == 0:
        return Rejection("no_accusation_cards", f"{p.name} has no accusation card left")
    if not accusation_targets(state, ev.seat):
        return Rejection("nobody_to_accuse", f"no marker but {p.name}'s own is looking for a "
                                             f"partner" if state.seekers() else
                         "no marker is looking for a partner")
    if isinstance(ev, AccusationWon):
        pending = PendingAccusation(seat=ev.seat, margin_us=ev.margin_us, tie=ev.tie)
    else:
        pending = PendingAccusation(seat=ev.seat, margin_us=0, tie=False, by_hand=True)
    return _evolve(state, phase=Phase.ACCUSATION, resume=state.phase, pending=pending)


def _accusation_pending(state: State, ev: Event) -> State | Rejection:
    assert state.pending is not None
    return Rejection("accusation_pending", f"seat {state.pending.seat}'s accusation is being "
                                           f"settled first")


def _name_first(state: State, ev: Event) -> State | Rejection:
    assert state.active is not None
    p = state.players[state.active]
    return Rejection("name_first", f"{p.name} names the partner for "
                                   f"{_seeking(state, state.active)} before placing again")


def _accusation_entered(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, AccusationEntered)
    pend = state.pending
    assert pend is not None
    accuser = pend.seat
    bad = _check_seat(state, ev.accused)
    if bad is not None:
        return bad
    if ev.accused == accuser:
        return Rejection("accuses_self", "the accuser points at someone other than themselves")
    cell = state.cell_of_number(ev.number)
    if cell is None:
        return Rejection("bad_number", f"{ev.number} is not a number of the grid "
                                       f"(1-{state.rules.cells})")
    seeker = state.marker_on(cell)
    if state.grid[cell].face is not CellFace.UP or seeker is None:
        return Rejection("nobody_seeks", f"no marker is looking for {ev.number}")
    if ev.accused == seeker:
        return Rejection("accuses_seeker", f"{state.players[seeker].name} is looking for "
                                           f"{ev.number}, not holding it")
    if seeker == accuser and not state.rules.interpretations.accuser_may_be_in_pair:
        return Rejection("own_pair", "a player accuses a pair of two other players, not the "
                                     "partner of their own marker")
    accused = state.players[ev.accused]
    contradictions = state.contradictions
    if ev.right:
        if accused.hand == 0:
            return Rejection("empty_hand", f"{accused.name} has no hand cards: cannot hold "
                                           f"{ev.number}")
        contra = _contradicts(state, ev.accused, ev.number)
        if contra is not None:
            if state.rules.interpretations.reject_contradicted_answers:
                return _contradiction_rejection(state, contra)
            contradictions = (*contradictions, contra)
    me = state.players[accuser]
    players = _with_player(state.players, accuser, accusations=me.accusations - 1)
    grid = state.grid
    unconfirmed = state.unconfirmed
    if ev.right:
        players = _with_player(players, accuser, area=(
            *me.area, AreaCard(ev.number, Origin.GRID_CAUGHT),
            AreaCard(ev.number, Origin.HAND_CAUGHT)))
        players = _with_player(players, ev.accused, hand=accused.hand - 1)
        if not state.rules.interpretations.caught_marker_stays:
            players = _with_player(players, seeker, marker=None)
        g = list(grid)
        g[cell] = Cell(ev.number, CellFace.EMPTY)
        grid = tuple(g)
        unconfirmed = _add(unconfirmed, cell)
    else:
        players = _with_player(players, ev.accused, denials=(*accused.denials, ev.number))
    record = Accusation(turn=state.turn, seat=accuser, margin_us=pend.margin_us,
                        accused=ev.accused, number=ev.number, seeker=seeker, right=ev.right,
                        card_spent=True)
    st = _evolve(state, players=players, grid=grid, unconfirmed=unconfirmed,
                 contradictions=contradictions, accusations=(*state.accusations, record))
    end = _end_reason(st)
    if end is not None:
        return _finish(_evolve(st, pending=None, resume=None), end)
    if state.rules.interpretations.accusation_resumes_turn:
        return _resume(st)
    return _start_turn(st, accuser)


def _accusation_withdrawn(state: State, ev: Event) -> State | Rejection:
    pend = state.pending
    assert pend is not None
    spend = state.rules.interpretations.withdrawn_accusation_spends_card
    players = state.players
    if spend:
        me = players[pend.seat]
        players = _with_player(players, pend.seat, accusations=me.accusations - 1)
    record = Accusation(turn=state.turn, seat=pend.seat, margin_us=pend.margin_us,
                        accused=None, number=None, seeker=None, right=False, card_spent=spend)
    return _resume(_evolve(state, players=players,
                           accusations=(*state.accusations, record)))


def _resume(state: State) -> State:
    """Back to the step the accusation interrupted (NAME again only if the active player's
    marker still looks for a partner)."""
    assert state.resume is not None
    return _step(_evolve(state, pending=None, resume=None))


def _end_reason(state: State) -> EndReason | None:
    if state.empty_hands >= state.rules.empty_hands_for(state.n_players):
        return EndReason.HANDS_EMPTY
    if state.face_up == 0:
        return EndReason.GRID_CLEARED
    return None


def ranking(state: State) -> tuple[tuple[int, ...], TieBreak]:
    """The winners by score, then fewest accusation cards, then fewest hand cards; and what
    decided it."""
    seats = list(range(state.n_players))
    if not seats:
        return (), TieBreak.SHARED
    steps: list[tuple[TieBreak, Callable[[int], int]]] = [
        (TieBreak.SCORE, lambda s: -state.players[s].score),
        (TieBreak.ACCUSATION_CARDS, lambda s: state.players[s].accusations),
        (TieBreak.HAND_CARDS, lambda s: state.players[s].hand),
    ]
    for decided_by, key in steps:
        best = min(key(s) for s in seats)
        seats = [s for s in seats if key(s) == best]
        if len(seats) == 1:
            return (seats[0],), decided_by
    return tuple(seats), TieBreak.SHARED


def _finish(state: State, reason: EndReason) -> State:
    winners, decided_by = ranking(state)
    return _evolve(
        state, phase=Phase.OVER, tie_break=decided_by, pending=None, resume=None,
        outcome=Outcome(reason=reason, winners=winners, scores=state.scores))


_FACES = {f.value: f for f in CellFace}


def _cell_seen(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, CellSeen)
    if not state.grid:
        return Rejection("wrong_phase", "the grid is not laid out yet")
    cell = state.cell_of(ev.row, ev.col)
    if cell is None:
        return Rejection("bad_cell", f"cell ({ev.row}, {ev.col}) is off the "
                                     f"{state.rules.grid_rows}x{state.rules.grid_cols} grid")
    face = _FACES.get(ev.face)
    if face is None:
        return Rejection("bad_face", f"a cell shows 'up', 'down' or 'empty', not {ev.face!r}")
    if ev.marker is not None and ev.marker not in COLOURS:
        return Rejection("unknown_marker", f"{ev.marker!r} is not a marker colour")
    expected = state.grid[cell]
    owner = state.marker_on(cell)
    want_marker = state.players[owner].colour if owner is not None else None
    agrees = (face is expected.face and ev.marker == want_marker
              and (face is not CellFace.UP or ev.number in (None, expected.number)))
    others = tuple(m for m in state.mismatches if m.cell != cell)
    if agrees:
        return _evolve(state, unconfirmed=_confirm(state.unconfirmed, cell), mismatches=others)
    m = Mismatch(cell=cell, expected_face=expected.face, expected_marker=want_marker,
                 seen_face=ev.face, seen_number=ev.number, seen_marker=ev.marker)
    return _evolve(state, mismatches=tuple(sorted((*others, m), key=lambda x: x.cell)))


_HANDLERS: dict[tuple[Phase, type[Event]], Callable[[State, Event], State | Rejection]] = {
    (Phase.SETUP, NewGame): _new_game,
    (Phase.LAYOUT, GridSeen): _grid_laid,
    (Phase.LAYOUT, GridEntered): _grid_laid,
    (Phase.PLACE, MarkerPlaced): _marker_placed,
    (Phase.PLACE, MarkerPlacedByHand): _marker_placed,
    (Phase.PLACE, NoPlacement): _no_placement,
    (Phase.NAME, PartnerNamed): _partner_named,
    (Phase.NAME, MarkerPlaced): _name_first,
    (Phase.NAME, MarkerPlacedByHand): _name_first,
    (Phase.NAME, NoPlacement): _name_first,
    (Phase.NAME, AccusationWon): _accusation_won,
    (Phase.PLACE, AccusationWon): _accusation_won,
    (Phase.NAME, AccusationByHand): _accusation_won,
    (Phase.PLACE, AccusationByHand): _accusation_won,
    (Phase.ACCUSATION, AccusationWon): _accusation_pending,
    (Phase.ACCUSATION, AccusationByHand): _accusation_pending,
    (Phase.ACCUSATION, MarkerPlaced): _accusation_pending,
    (Phase.ACCUSATION, MarkerPlacedByHand): _accusation_pending,
    (Phase.ACCUSATION, NoPlacement): _accusation_pending,
    (Phase.ACCUSATION, PartnerNamed): _accusation_pending,
    (Phase.ACCUSATION, AccusationEntered): _accusation_entered,
    (Phase.ACCUSATION, AccusationWithdrawn): _accusation_withdrawn,
}

_REDUCER: Reducer[State] = Reducer(
    GAME_NAME, EVENTS, _HANDLERS, is_over=is_over,
    stamp=lambda state, at_ms: _evolve(state, now_ms=at_ms),
    anytime={EndGame: _end_game, CellSeen: _cell_seen})


# --- a plain summary (for `tablekeeper replay`, logs and the display) ----------------------


def summary(state: State) -> dict[str, Any]:
    """The state as one JSON-able object: grid, players (counts only), whose turn, outcome."""
    def who(seat: int | None) -> dict[str, Any] | None:
        if seat is None:
            return None
        return {"seat": seat, "name": state.players[seat].name}

    call = state.call
    last = state.last_accusation
    out: dict[str, Any] = {
        "game": GAME_NAME,
        "phase": state.phase.value,
        "turn": state.turn,
        "now_ms": state.now_ms,
        "active": who(state.active),
        "call": None if call is None else {"seat": call.seat, "number": call.number},
        "pending_accusation": None if state.pending is None else {
            "seat": state.pending.seat, "margin_us": state.pending.margin_us},
        "last_accusation": None if last is None else {
            "seat": last.seat, "accused": last.accused, "number": last.number,
            "right": last.right},
        "grid": [[c.number, c.face.value, state.marker_on(i)]
                 for i, c in enumerate(state.grid)],
        "players": [{"seat": i, "name": p.name, "colour": p.colour, "score": p.score,
                     "hand": p.hand, "accusations": p.accusations, "area": len(p.area),
                     "marker": p.marker} for i, p in enumerate(state.players)],
        "scores": {p.name: p.score for p in state.players},
        "unconfirmed": list(state.unconfirmed),
        "mismatches": [m.cell for m in state.mismatches],
        "outcome": None,
    }
    if state.outcome is not None:
        out["outcome"] = {
            "reason": state.outcome.reason.value,
            "winners": [state.players[s].name for s in state.outcome.winners],
            "winner_seats": list(state.outcome.winners),
            "scores": list(state.outcome.scores),
            "decided_by": state.tie_break.value if state.tie_break is not None else None,
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
