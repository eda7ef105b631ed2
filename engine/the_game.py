"""致命遊戲 The Game (1-5 players, cooperative): the rules as a pure reducer.

The game in one paragraph: four rows lie on the table, two ascending (``1→99``) and two
descending (``100→2``); the 98 number cards 2-99 are dealt (8 / 7 / 6 cards a hand for 1 / 2 /
3-5 players) and the rest is the draw pile. In turn each player plays at least 2 cards (expert:
3; once the draw pile is empty: 1), one at a time, each on any row: higher than the top on an
ascending row, lower on a descending one, or exactly 10 back (lower on ascending, higher on
descending) -- any number of those, on any rows. Then the player draws back up while the pile
lasts. A player with no cards is skipped. The game ends when the player to act cannot play the
minimum ("I cannot play"), or when all 98 cards are played. The cards left (draw pile + hands)
are the result: fewer than 10, every player wins; 0, "super winners" (try the expert rule).
Spec: ``rules/RULES.md`` section 2 and the seed ``rules/seeds/004_90159c26f8fa29f4.txt`` (the
seed wins).

API (everything here is a pure function of its arguments)::

    rules = Rules()                      # static facts: hand sizes, minimums, the rows, and
                                         # every [I] interpretation (see Interpretations)
    state = initial_state(rules)         # phase SETUP, waiting for NewGame
    result = apply(state, event)         # -> State, or Rejection(code, reason)
    legal_actions(state)                 # -> tuple of events the state accepts now
    why_illegal(state, row, card)        # -> why a card may not go on a row now, or None
    is_over(state); outcome(state)       # -> Outcome(reason, winners, scores) or None
    verdict(state)                       # -> Verdict of a finished game (cards left)
    EVENTS.from_dict(d); event.to_dict() # versioned JSON of every event

Seats are ``0..n-1`` clockwise. Rows are ``0..3``: rows 0 and 1 ascending (start at 1), rows 2
and 3 descending (start at 100) -- the seed lays the two ascending row cards above the two
descending ones. Each row's direction and top card are in ``State.rows``.

Hidden information: the box sees every card played (it lands face up on a row) but no hand.
So the state keeps each player's hand *count*, the draw pile's *count*, and which of 2..99 have
been played; a card already played is rejected. Only a game the box's own simulation dealt
(``NewGame.hands`` and ``NewGame.draw_pile``) knows the hands: then a played card must also be
in the player's hand, and the draw follows the pile's order. Nothing random happens in here.

Events, as the table adapter produces them:

- ``NewGame`` (host): names, colours, variant (standard/expert), start seat, optionally the deal;
- ``CardPlayed`` (camera): a new top card recognised on a row zone; ``CardEntered`` (host): the
  same play entered by hand when the camera is down;
- ``HouseRulePlay`` (host): the host overrides a play the rules refuse (a house rule); it is
  applied and journalled as its own event type, and the play is flagged ``house_rule``;
- ``TurnEnded`` (seat button, short press): the acting player is done; refused below the
  minimum; the player draws back up (the engine computes the counts);
- ``CannotPlay`` (host): the acting player's long press said "I cannot play" and the host
  confirmed it on the screen; the game ends. The long press itself and the question stay in
  the app (one engine event, sent after the confirmation, so the journal holds the decision);
- ``EndGame`` (host): the game ends early.

Phases: SETUP -> PLAY -> OVER. No timer runs (``deadline`` is always None).

The seed's communication rule (talk freely, never name or hint at numbers) is social: the
engine neither sees nor enforces it.
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
    first_clockwise,
    left_of,
    rules_from_dict,
    rules_to_dict,
    seating_problem,
)

GAME_NAME = "the_game"

#: The box's seat colours (one arcade button each), with their Chinese names.
COLOURS: Mapping[str, str] = {
    "red": "紅",
    "yellow": "黃",
    "blue": "藍",
    "green": "綠",
    "orange": "橘",
    "brown": "棕",
    "purple": "紫",
}


class Variant(enum.Enum):
    STANDARD = "standard"
    EXPERT = "expert"  # at least 3 cards a turn


class Direction(enum.Enum):
    UP = "up"  # 1→99: higher than the top, or exactly 10 lower
    DOWN = "down"  # 100→2: lower than the top, or exactly 10 higher

    @property
    def arrow(self) -> str:
        return "↑" if self is Direction.UP else "↓"


# --- the static game: facts, tables, interpretations -------------------------------------


@dataclass(frozen=True)
class Interpretations:
    """Every reading of an ambiguous rule ([I] in RULES.md), in one place, by name.

    Change a default here (or pass ``Rules(interpretations=Interpretations(...))``, or set it in
    the journal header's ``rules``) to play a table's house reading. The settable numbers the
    seed leaves open are in :class:`Rules` (``expert_hand_sizes``: the seed's expert table of
    "cards dealt per player count" is an image no source confirmed, so it defaults to the normal
    hand sizes; ``min_play_empty_pile``: "from then on every player need only play at least 1
    card", read as holding in the expert game too).
    """

    #: [I] A player who has played out their hand has nothing more to do: the turn ends by
    #: itself (drawing up while the pile lasts), no button press needed. Off: the player must
    #: still press "done" (with 0 cards). Seed: "若玩家手上已無任何卡牌，則跳過該玩家行動回合".
    empty_hand_ends_turn: bool = True
    #: [I] In a game the box dealt (hands known), "I cannot play" is refused while the hand
    #: holds a card that may go on some row. Off: the claim is taken as said. (Seed: the end
    #: comes "當有玩家無法打出符合規定張數的卡牌時" -- when a player *cannot* play.)
    cannot_play_checked_in_dealt_games: bool = True
    #: [I] A house-rule play (the host's override of an illegal play) counts towards the
    #: turn's minimum like any card played. Off: only plays within the rules count.
    house_rule_plays_count: bool = True
    #: [I] A game the host ends early is judged like any end: the cards left (draw pile +
    #: hands) decide the verdict. Off: a game ended by the host has no winners.
    host_end_is_judged: bool = True
    #: [I] Seat order: play goes clockwise from the start seat the players chose together
    #: ("共同決定其中1位玩家擔任起始玩家...依順時針方向"); CardPlayed may omit the seat (the
    #: camera does not see whose hand it was): it is the player to act's. Not a switch.
    #: [I] "Exactly 10 back" is the only exception to a row's direction; a card equal to the
    #: top cannot occur (every number exists once). Not a switch.
    #: [I] The communication rule (no numbers named or hinted) is social: not enforced.
    #: [I] A seat button's short press (TurnEnded) has Source.BUZZER (it comes through the
    #: firmware); "I cannot play" is one HOST event sent after the host confirms the long
    #: press, so undoing "the last host event" takes back a confirmed end. Not a switch.
    #: [I] A refused play is not applied: the table takes the card back and the camera sees
    #: the previous top again (no engine event). Not a switch.


@dataclass(frozen=True)
class Rules:
    """The static facts of The Game: cards, rows, hand sizes and minimums."""

    min_players: int = 1
    max_players: int = 5
    lowest_card: int = 2
    highest_card: int = 99
    ascending_start: int = 1
    descending_start: int = 100
    #: the rows, top to bottom as the seed lays them: two ascending, then two descending
    row_directions: tuple[str, ...] = ("up", "up", "down", "down")
    #: the exact step of a backward play
    backward_step: int = 10
    #: cards in a hand by player count 1, 2, 3, ... (publisher's rules: 8 / 7 / 6 / 6 / 6)
    hand_sizes: tuple[int, ...] = (8, 7, 6, 6, 6)
    #: (unconfirmed default) the expert game's hand sizes; the seed says they differ, no
    #: source gave the numbers
    expert_hand_sizes: tuple[int, ...] = (8, 7, 6, 6, 6)
    min_play: int = 2
    min_play_expert: int = 3
    #: the minimum once the draw pile is empty (both variants)
    min_play_empty_pile: int = 1
    #: fewer cards left than this: every player wins
    win_below: int = 10
    interpretations: Interpretations = field(default_factory=Interpretations)

    @property
    def cards(self) -> range:
        return range(self.lowest_card, self.highest_card + 1)

    @property
    def n_cards(self) -> int:
        return self.highest_card - self.lowest_card + 1

    def hand_size(self, n_players: int, variant: Variant = Variant.STANDARD) -> int:
        sizes = self.expert_hand_sizes if variant is Variant.EXPERT else self.hand_sizes
        return sizes[n_players - 1]

    def minimum(self, variant: Variant, pile_empty: bool) -> int:
        if pile_empty:
            return self.min_play_empty_pile
        return self.min_play_expert if variant is Variant.EXPERT else self.min_play

    def to_dict(self) -> dict[str, Any]:
        return rules_to_dict(self)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self:
        """Defaults for missing keys; ``ValueError`` naming the key for a bad value."""
        return rules_from_dict(cls, d)

    def problems(self) -> list[str]:
        out = []
        if not 1 <= self.min_players <= self.max_players <= len(COLOURS):
            out.append(f"rules.min_players/max_players: {self.min_players}..{self.max_players}"
                       f" must lie within 1..{len(COLOURS)}")
        if not self.ascending_start < self.lowest_card <= self.highest_card \
                < self.descending_start:
            out.append("rules.lowest_card/highest_card: the cards must lie strictly between "
                       "ascending_start and descending_start")
        for d in self.row_directions:
            if d not in ("up", "down"):
                out.append(f"rules.row_directions: {d!r} is not 'up' or 'down'")
        if not self.row_directions:
            out.append("rules.row_directions: at least one row")
        if self.backward_step <= 0:
            out.append(f"rules.backward_step: must be positive, got {self.backward_step}")
        for key in ("min_play", "min_play_expert", "min_play_empty_pile"):
            if getattr(self, key) < 1:
                out.append(f"rules.{key}: must be at least 1, got {getattr(self, key)}")
        for key, least in (("hand_sizes", self.min_play),
                           ("expert_hand_sizes", self.min_play_expert)):
            sizes: tuple[int, ...] = getattr(self, key)
            if len(sizes) < self.max_players:
                out.append(f"rules.{key}: {len(sizes)} sizes for up to {self.max_players} "
                           f"players")
                continue
            for n, size in enumerate(sizes, start=1):
                if size < least:
                    out.append(f"rules.{key}: {size} cards for {n} players is below the "
                               f"minimum of {least} a turn")
                if n * size > self.n_cards:
                    out.append(f"rules.{key}: {n} hands of {size} need more than "
                               f"{self.n_cards} cards")
        if self.win_below < 1:
            out.append(f"rules.win_below: must be at least 1, got {self.win_below}")
        return out


# --- events ------------------------------------------------------------------------------

EVENTS = EventRegistry(GAME_NAME)


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class NewGame(Event):
    """The host starts a game: players (names and colours, seat order clockwise), variant
    ("standard" or "expert") and the start seat the players chose.

    ``hands`` and ``draw_pile`` (both or neither) are for a table the box's own simulation
    dealt: each seat's cards, and the draw pile from its top card down. With them the engine
    knows the hands; without them only the counts.
    """

    type_name = "new_game"
    source = Source.HOST
    names: tuple[str, ...]
    colours: tuple[str, ...]
    variant: str = "standard"
    start_seat: int = 0
    hands: tuple[tuple[int, ...], ...] | None = None
    draw_pile: tuple[int, ...] | None = None


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class CardPlayed(Event):
    """The camera recognised a new top card ``card`` on row ``row`` (seat: who played it,
    None for the player to act)."""

    type_name = "card_played"
    source = Source.CAMERA
    row: int
    card: int
    seat: int | None = None


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class CardEntered(Event):
    """The host entered a play by hand (the camera is down or missed it): as CardPlayed."""

    type_name = "card_entered"
    source = Source.HOST
    row: int
    card: int
    seat: int | None = None


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class HouseRulePlay(Event):
    """The host overrides a play the rules refuse (a house rule): ``card`` stays on ``row``.
    Only the row's direction is overridden: the card must still exist, be unplayed and (in a
    dealt game) be in the hand. A play the rules allow is refused here (``not_illegal``)."""

    type_name = "house_rule_play"
    source = Source.HOST
    row: int
    card: int
    seat: int | None = None


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class TurnEnded(Event):
    """The acting player's seat button, short press: "my turn is done"."""

    type_name = "turn_ended"
    source = Source.BUZZER
    seat: int


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class CannotPlay(Event):
    """The acting player said "I cannot play" (long press) and the host confirmed it: the
    game ends."""

    type_name = "cannot_play"
    source = Source.HOST
    seat: int


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class EndGame(Event):
    """The host ends the game early."""

    type_name = "end_game"
    source = Source.HOST


PlayEvent = CardPlayed | CardEntered | HouseRulePlay


# --- the state of one play ---------------------------------------------------------------


class Phase(enum.Enum):
    SETUP = "setup"  # waiting for NewGame
    PLAY = "play"  # to_act plays cards, then ends the turn
    OVER = "over"


class EndReason(enum.Enum):
    CANNOT_PLAY = "cannot_play"  # the player to act could not play the minimum
    ALL_PLAYED = "all_played"  # all 98 cards are on the rows
    HOST_ENDED = "host_ended"


class Verdict(enum.Enum):
    SUPER_WIN = "super_win"  # 0 cards left: "super winners"; try the expert rule
    WIN = "win"  # fewer than 10 left: every player wins
    LOSS = "loss"  # 10 or more left
    NOT_JUDGED = "not_judged"  # the host ended it and the table does not judge that


#: What the end screen says, in both languages.
VERDICT_TEXT: Mapping[Verdict, tuple[str, str]] = {
    Verdict.SUPER_WIN: ("全部98張出盡：你們都是超級遊戲贏家！",
                        "All 98 cards played: you are all super winners!"),
    Verdict.WIN: ("剩下不到10張：所有玩家皆為遊戲贏家！",
                  "Fewer than 10 cards left: every player wins!"),
    Verdict.LOSS: ("剩下10張以上：這次沒能贏，再試一次！",
                   "10 or more cards left: not this time, try again!"),
    Verdict.NOT_JUDGED: ("遊戲提前結束。", "The game was ended early."),
}

#: The seed's suggestion after a super win in the standard game.
SUGGEST_EXPERT_TEXT: tuple[str, str] = ("下次試試專家規則（每回合至少打出3張）。",
                                        "Next time, try the expert rule (at least 3 cards a "
                                        "turn).")


@dataclass(frozen=True)
class Row:
    """One row: its direction, its row card's number, and the cards played on it (top last)."""

    direction: Direction
    start: int
    cards: tuple[int, ...] = ()

    @property
    def top(self) -> int:
        return self.cards[-1] if self.cards else self.start

    @property
    def label(self) -> str:
        """E.g. "↑45" (as in "37 cannot go on ↑45")."""
        return f"{self.direction.arrow}{self.top}"

    def accepts(self, card: int, step: int) -> bool:
        """The rule of the row: on in its direction, or exactly ``step`` back."""
        if self.direction is Direction.UP:
            return card > self.top or card == self.top - step
        return card < self.top or card == self.top + step

    def is_backward(self, card: int, step: int) -> bool:
        return card == (self.top - step if self.direction is Direction.UP
                        else self.top + step)


@dataclass(frozen=True)
class Play:
    """One card played: by whom, on which row, in which turn; ``house_rule``: the host's
    override of an illegal play; ``backward``: an exact 10-back."""

    seat: int
    row: int
    card: int
    turn: int
    at_ms: int
    backward: bool = False
    house_rule: bool = False


@dataclass(frozen=True)
class Player:
    name: str
    colour: str
    hand_count: int = 0


@dataclass(frozen=True)
class State:
    """One play of The Game. Render from: phase, rows, to_act, played_this_turn,
    min_to_play, draw_count, players (hand counts), plays, outcome."""

    rules: Rules = field(repr=False)
    phase: Phase = Phase.SETUP
    now_ms: int = 0
    variant: Variant = Variant.STANDARD
    players: tuple[Player, ...] = ()
    start_seat: int = 0
    hand_size: int = 0
    rows: tuple[Row, ...] = ()
    to_act: int | None = None
    turn: int = 0  # 1-based once play starts
    played_this_turn: int = 0  # cards played in the current turn (see house_rule_plays_count)
    draw_count: int = 0  # cards in the draw pile
    played: frozenset[int] = frozenset()
    plays: tuple[Play, ...] = ()  # every card played, in order (the chart of the rows)
    #: a dealt game only: each seat's cards (sorted), and the draw pile from its top down
    hands: tuple[tuple[int, ...], ...] | None = None
    draw_pile: tuple[int, ...] | None = None
    outcome: Outcome[EndReason] | None = None

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def hands_known(self) -> bool:
        return self.hands is not None

    @property
    def hand_counts(self) -> tuple[int, ...]:
        return tuple(p.hand_count for p in self.players)

    @property
    def cards_left(self) -> int:
        """Cards not played: the draw pile and every hand."""
        return self.draw_count + sum(self.hand_counts)

    @property
    def min_to_play(self) -> int:
        """The cards the current turn needs (2, expert 3; 1 once the draw pile is empty)."""
        return self.rules.minimum(self.variant, self.draw_count == 0)

    @property
    def minimum_met(self) -> bool:
        return self.played_this_turn >= self.min_to_play

    @property
    def tops(self) -> tuple[int, ...]:
        return tuple(r.top for r in self.rows)


_STATE_FIELDS = frozenset(f.name for f in dataclasses.fields(State))


def _evolve(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` for the reducer's hot path (State has no ``__post_init__``)."""
    assert _STATE_FIELDS.issuperset(changes), set(changes) - _STATE_FIELDS
    new = object.__new__(State)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def initial_state(rules: Rules | None = None) -> State:
    return State(rules=rules if rules is not None else Rules())


def starting_rows(rules: Rules) -> tuple[Row, ...]:
    return tuple(Row(Direction(d), rules.ascending_start if d == "up"
                     else rules.descending_start) for d in rules.row_directions)


# --- queries -----------------------------------------------------------------------------


def is_over(state: State) -> bool:
    return state.phase is Phase.OVER


def outcome(state: State) -> Outcome[EndReason] | None:
    return state.outcome


def deadline(state: State) -> Deadline | None:
    """The Game runs no timer."""
    return None


def verdict(state: State) -> Verdict | None:
    """The seed's verdict on a finished game (None while it runs)."""
    if state.outcome is None:
        return None
    return _verdict(state, state.outcome.reason)


def _verdict(state: State, reason: EndReason) -> Verdict:
    if reason is EndReason.HOST_ENDED and not state.rules.interpretations.host_end_is_judged:
        return Verdict.NOT_JUDGED
    left = state.cards_left
    if left == 0:
        return Verdict.SUPER_WIN
    return Verdict.WIN if left < state.rules.win_below else Verdict.LOSS


def why_illegal(state: State, row: int, card: int, seat: int | None = None) -> str | None:
    """Why ``card`` may not be played on ``row`` now (a reason to show), None if it may.

    Checks the row and card numbers, a card already played, (in a dealt game) a card not in the
    hand of ``seat`` (default: the player to act), and the row's rule ("37 cannot go on ↑45").
    """
    rej = _illegal(state, row, card, seat)
    return rej.reason if rej is not None else None


def _illegal(state: State, row: int, card: int, seat: int | None,
             house_rule: bool = False) -> Rejection | None:
    rules = state.rules
    if not 0 <= row < len(state.rows):
        return Rejection("bad_row", f"there is no row {row} (0-{len(state.rows) - 1})")
    if card not in rules.cards:
        return Rejection("bad_card", f"there is no card {card} ({rules.lowest_card}-"
                                     f"{rules.highest_card})")
    if card in state.played:
        return Rejection("card_already_played", f"{card} has already been played")
    who = state.to_act if seat is None else seat
    if who is not None and not 0 <= who < state.n_players:
        return _bad_seat(state, who)
    if state.hands is not None and who is not None and card not in state.hands[who]:
        return Rejection("not_in_hand", f"{card} is not in {state.players[who].name}'s hand")
    r = state.rows[row]
    legal = r.accepts(card, rules.backward_step)
    if house_rule and legal:
        return Rejection("not_illegal", f"{card} may go on {r.label}: no house rule needed")
    if not house_rule and not legal:
        return Rejection("illegal_play", f"{card} cannot go on {r.label}")
    return None


def playable(state: State, seat: int | None = None) -> tuple[tuple[int, int], ...]:
    """Every (row, card) the rules allow now: in a dealt game from ``seat``'s hand (default
    the player to act), otherwise any card not yet played."""
    who = state.to_act if seat is None else seat
    if state.phase is not Phase.PLAY or who is None:
        return ()
    step = state.rules.backward_step
    pool = state.hands[who] if state.hands is not None else \
        [c for c in state.rules.cards if c not in state.played]
    return tuple((i, c) for i, r in enumerate(state.rows) for c in pool if r.accepts(c, step))


def legal_actions(state: State) -> tuple[Event, ...]:
    """The events the state accepts now, stamped at ``now_ms``, with the acting seat.

    In SETUP the possible NewGame events are unbounded, so none are listed. EndGame is always
    possible before the end and is not listed either.
    """
    if state.phase is not Phase.PLAY:
        return ()
    seat = state.to_act
    assert seat is not None
    now = state.now_ms
    out: list[Event] = []
    if state.players[seat].hand_count > 0:
        legal = playable(state)
        out.extend(CardPlayed(at_ms=now, seat=seat, row=r, card=c) for r, c in legal)
        out.extend(CardEntered(at_ms=now, seat=seat, row=r, card=c) for r, c in legal)
        ok = set(legal)
        pool = state.hands[seat] if state.hands is not None else \
            [c for c in state.rules.cards if c not in state.played]
        out.extend(HouseRulePlay(at_ms=now, seat=seat, row=r, card=c)
                   for r in range(len(state.rows)) for c in pool if (r, c) not in ok)
    if state.minimum_met:
        out.append(TurnEnded(at_ms=now, seat=seat))
    elif _may_claim(state, seat):
        out.append(CannotPlay(at_ms=now, seat=seat))
    return tuple(out)


def _may_claim(state: State, seat: int) -> bool:
    if state.hands is None or not state.rules.interpretations.cannot_play_checked_in_dealt_games:
        return True
    return not playable(state, seat)


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
    seating = seating_problem("The Game", ev.names, ev.colours, ev.start_seat,
                              min_players=rules.min_players, max_players=rules.max_players,
                              known_colours=COLOURS)
    if seating is not None:
        return seating
    try:
        variant = Variant(ev.variant)
    except ValueError:
        return Rejection("bad_setup", f"unknown variant {ev.variant!r} (standard/expert)")
    size = rules.hand_size(n, variant)
    hands: tuple[tuple[int, ...], ...] | None = None
    pile: tuple[int, ...] | None = None
    if (ev.hands is None) != (ev.draw_pile is None):
        return Rejection("bad_setup", "a dealt game gives both the hands and the draw pile")
    if ev.hands is not None and ev.draw_pile is not None:
        if len(ev.hands) != n or any(len(h) != size for h in ev.hands):
            return Rejection("bad_setup", f"a dealt game has {n} hands of {size} cards")
        every = [c for h in ev.hands for c in h] + list(ev.draw_pile)
        if sorted(every) != list(rules.cards):
            return Rejection("bad_setup", f"the hands and the draw pile must hold each card "
                                          f"{rules.lowest_card}-{rules.highest_card} once")
        hands = tuple(tuple(sorted(h)) for h in ev.hands)
        pile = ev.draw_pile
    return _evolve(
        state,
        phase=Phase.PLAY,
        variant=variant,
        players=tuple(Player(name=nm, colour=c, hand_count=size)
                      for nm, c in zip(ev.names, ev.colours, strict=True)),
        start_seat=ev.start_seat,
        hand_size=size,
        rows=starting_rows(rules),
        to_act=ev.start_seat,
        turn=1,
        played_this_turn=0,
        draw_count=rules.n_cards - n * size,
        played=frozenset(),
        plays=(),
        hands=hands,
        draw_pile=pile,
    )


def _play(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, PlayEvent)
    seat = state.to_act
    assert seat is not None
    if ev.seat is not None and ev.seat != seat:
        if not 0 <= ev.seat < state.n_players:
            return _bad_seat(state, ev.seat)
        return Rejection("not_your_turn", f"it is {state.players[seat].name}'s turn "
                                          f"(seat {seat}), not seat {ev.seat}'s")
    if state.players[seat].hand_count == 0:
        return Rejection("no_cards", f"{state.players[seat].name} has no cards left")
    house = isinstance(ev, HouseRulePlay)
    rej = _illegal(state, ev.row, ev.card, seat, house_rule=house)
    if rej is not None:
        return rej
    rules = state.rules
    r = state.rows[ev.row]
    play = Play(seat=seat, row=ev.row, card=ev.card, turn=state.turn, at_ms=ev.at_ms,
                backward=r.is_backward(ev.card, rules.backward_step), house_rule=house)
    rows = list(state.rows)
    rows[ev.row] = dataclasses.replace(r, cards=(*r.cards, ev.card))
    players = list(state.players)
    players[seat] = dataclasses.replace(players[seat], hand_count=players[seat].hand_count - 1)
    hands = state.hands
    if hands is not None:
        hl = list(hands)
        hl[seat] = tuple(c for c in hl[seat] if c != ev.card)
        hands = tuple(hl)
    counts = not house or rules.interpretations.house_rule_plays_count
    st = _evolve(state, rows=tuple(rows), players=tuple(players), hands=hands,
                 played=state.played | {ev.card}, plays=(*state.plays, play),
                 played_this_turn=state.played_this_turn + (1 if counts else 0))
    if len(st.played) == rules.n_cards:
        return _finish(st, EndReason.ALL_PLAYED)
    if players[seat].hand_count == 0 and rules.interpretations.empty_hand_ends_turn:
        return _end_turn(st)
    return st


def _turn_ended(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, TurnEnded)
    rej = _check_seat(state, ev.seat)
    if rej is not None:
        return rej
    if not state.minimum_met:
        return Rejection("below_minimum", f"{state.played_this_turn} of the "
                                          f"{state.min_to_play} cards this turn needs played")
    return _end_turn(state)


def _end_turn(state: State) -> State:
    """Draw back up while the pile lasts; the next player with cards acts."""
    seat = state.to_act
    assert seat is not None
    players = list(state.players)
    want = max(0, state.hand_size - players[seat].hand_count)
    drawn = min(want, state.draw_count)
    players[seat] = dataclasses.replace(players[seat],
                                        hand_count=players[seat].hand_count + drawn)
    hands, pile = state.hands, state.draw_pile
    if hands is not None and pile is not None:
        hl = list(hands)
        hl[seat] = tuple(sorted((*hl[seat], *pile[:drawn])))
        hands, pile = tuple(hl), pile[drawn:]
    n = len(players)
    nxt = first_clockwise(left_of(seat, n), n, lambda s: players[s].hand_count > 0)
    st = _evolve(state, players=tuple(players), hands=hands, draw_pile=pile,
                 draw_count=state.draw_count - drawn, played_this_turn=0)
    if nxt is None:  # pragma: no cover - every card is played, caught on the last play
        return _finish(st, EndReason.ALL_PLAYED)
    return _evolve(st, to_act=nxt, turn=state.turn + 1)


def _cannot_play(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, CannotPlay)
    rej = _check_seat(state, ev.seat)
    if rej is not None:
        return rej
    if state.minimum_met:
        return Rejection("minimum_played", f"the {state.min_to_play} cards this turn needs "
                                           f"are played: end the turn instead")
    if not _may_claim(state, ev.seat):
        row, card = playable(state, ev.seat)[0]
        return Rejection("can_play", f"{card} can still go on {state.rows[row].label}")
    return _finish(state, EndReason.CANNOT_PLAY)


def _check_seat(state: State, seat: int) -> Rejection | None:
    if not 0 <= seat < state.n_players:
        return _bad_seat(state, seat)
    if seat != state.to_act:
        assert state.to_act is not None
        return Rejection("not_your_turn", f"it is {state.players[state.to_act].name}'s turn "
                                          f"(seat {state.to_act}), not seat {seat}'s")
    return None


def _finish(state: State, reason: EndReason) -> State:
    v = _verdict(state, reason)
    winners = tuple(range(state.n_players)) if v in (Verdict.WIN, Verdict.SUPER_WIN) else ()
    # cooperative: every seat shares the team's score, the cards left (lower is better)
    scores = (state.cards_left,) * state.n_players
    return _evolve(state, phase=Phase.OVER,
                   outcome=Outcome(reason=reason, winners=winners, scores=scores))


def _bad_seat(state: State, seat: int) -> Rejection:
    return Rejection("bad_seat", f"seat {seat} is not at this table (0-{state.n_players - 1})")


_HANDLERS: dict[tuple[Phase, type[Event]], Callable[[State, Event], State | Rejection]] = {
    (Phase.SETUP, NewGame): _new_game,
    (Phase.PLAY, CardPlayed): _play,
    (Phase.PLAY, CardEntered): _play,
    (Phase.PLAY, HouseRulePlay): _play,
    (Phase.PLAY, TurnEnded): _turn_ended,
    (Phase.PLAY, CannotPlay): _cannot_play,
}

_REDUCER: Reducer[State] = Reducer(
    GAME_NAME, EVENTS, _HANDLERS, is_over=is_over,
    stamp=lambda state, at_ms: _evolve(state, now_ms=at_ms), anytime={EndGame: _end_game})


# --- a plain summary (for `tablekeeper replay`, logs and the display) ----------------------


def summary(state: State) -> dict[str, Any]:
    """The state as one JSON-able object: rows, whose turn, counts, outcome and verdict."""
    def who(seat: int | None) -> dict[str, Any] | None:
        if seat is None:
            return None
        return {"seat": seat, "name": state.players[seat].name}

    out: dict[str, Any] = {
        "game": GAME_NAME,
        "variant": state.variant.value if state.players else None,
        "phase": state.phase.value,
        "now_ms": state.now_ms,
        "turn": state.turn,
        "to_act": who(state.to_act) if state.phase is Phase.PLAY else None,
        "played_this_turn": state.played_this_turn,
        "min_to_play": state.min_to_play if state.players else None,
        "draw_pile": state.draw_count,
        "cards_left": state.cards_left,
        "cards_played": len(state.played),
        "house_rule_plays": sum(1 for p in state.plays if p.house_rule),
        "rows": [{"row": i, "direction": r.direction.value, "arrow": r.direction.arrow,
                  "start": r.start, "top": r.top, "cards": list(r.cards)}
                 for i, r in enumerate(state.rows)],
        "players": [{"seat": i, "name": p.name, "colour": p.colour,
                     "hand_count": p.hand_count} for i, p in enumerate(state.players)],
        "hands_known": state.hands_known,
        "outcome": None,
    }
    if state.outcome is not None:
        v = _verdict(state, state.outcome.reason)
        zh, en = VERDICT_TEXT[v]
        suggest = v is Verdict.SUPER_WIN and state.variant is Variant.STANDARD
        out["outcome"] = {
            "reason": state.outcome.reason.value,
            "verdict": v.value,
            "cards_left": state.cards_left,
            "winners": [state.players[s].name for s in state.outcome.winners],
            "winner_seats": list(state.outcome.winners),
            "scores": list(state.outcome.scores),
            "suggest_expert": suggest,
            "text_zh": zh + (SUGGEST_EXPERT_TEXT[0] if suggest else ""),
            "text_en": en + (" " + SUGGEST_EXPERT_TEXT[1] if suggest else ""),
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
    # every play is the camera's and every turn's end a seat button's: an undo takes back
    # the last of those too (with only host entries, it would go back to the deal)
    undoable=frozenset({Source.HOST, Source.CAMERA, Source.BUZZER}),
)
