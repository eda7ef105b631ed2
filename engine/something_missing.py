"""什麼不見啦 Something Is Missing (3-7 players): the rules as a pure reducer.

The game in one paragraph: players memorise 4-6 face-down scene cards; in turn they flip item
cards from their own piles; whoever remembers the item in a scene buzzes ("什麼不見啦!") and
must bet on a scene, the others may bet too; bets are checked (30 s each) and scored by the
slot the bettor's token took on that scene's memory card. First to 35 points (3-4 players: 20)
or 3 empty piles (3-4 players: 2) ends the game. Spec: ``rules/RULES.md`` section 1 and the seed
``rules/seeds/000_47d5d315ff2acb20.txt`` (the seed wins).

API (everything here is a pure function of its arguments)::

    rules = Rules()                      # static facts: thresholds, timings, scoring table,
                                         # and every [I] interpretation (see Interpretations)
    state = initial_state(rules)         # phase SETUP, waiting for NewGame
    result = apply(state, event)         # -> State, or Rejection(code, reason)
    legal_actions(state)                 # -> tuple of events the state accepts now
    next_deadline(state)                 # -> at_ms the app must send a time-up, or None
    is_over(state); outcome(state)       # -> Outcome(reason, winners, scores) or None
    EVENTS.from_dict(d); event.to_dict() # versioned JSON of every event

Seats are ``0..n-1`` clockwise; "left" is the next seat. Scene *positions* ``0..k-1`` are the
places in the ring of face-down scenes (clockwise); scene *ids* ``0..14`` name the 15 scene
cards; item card ids are ``0..65``. Times are milliseconds on the app's game clock: every event
carries ``at_ms``; timers are deadlines in the state; a time-up before its deadline is rejected.
Nothing random happens in here: shuffles are observed (the camera reports the revealed card,
the host the scenes drawn).

Round flow (phases): SETUP -> VIEWING (passes of 5 s) -> REVEAL -> BUZZ -> BET -> CHECK ->
[SWAP] -> [REPLACE -> VIEW_REPLACEMENT] -> REVEAL ... -> OVER.
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
    first_clockwise,
    highest,
    left_of,
    rules_from_dict,
    rules_to_dict,
    seating_problem,
)

GAME_NAME = "something_missing"

#: The seven player colours, in the order of the box, with their Chinese names.
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
    EASY = "easy"  # 4 scenes
    STANDARD = "standard"  # 5 scenes
    ADVANCED = "advanced"  # 6 scenes, and a new scene whenever a pile runs out


# --- the static game: facts, tables, interpretations -------------------------------------


@dataclass(frozen=True)
class Interpretations:
    """Every reading of an ambiguous rule ([I] in RULES.md), in one place, by name.

    Change a default here (or pass ``Rules(interpretations=Interpretations(...))``, or set it in
    the journal header's ``rules``) to play a table's house reading.
    """

    #: [I] Nobody buzzes on a card: the next player in turn (skipping empty piles) reveals the
    #: next card on top of it. With this on, that next reveal by the camera is itself taken as
    #: "nobody buzzed" (the host need not press "next"); off: the host must send NoBuzz first.
    reveal_implies_no_buzz: bool = True
    #: [I] "Only one bettor" (slot 1 scores N+1) is read per scene: a lone bettor on a correct
    #: scene gets N+1 even if others bet on other scenes. Off: only when a single player bet in
    #: the whole round.
    lone_bettor_per_scene: bool = True
    #: [I] The 30 s of a check are the non-bettors' option: 「未投注在該張場景卡的其他玩家可拿
    #: 起沙漏進行30秒計時」. On: they run from the host's "hourglass" press (``HourglassTurned``);
    #: until then the bettors search untimed, and an undo of the press takes back its time-up
    #: too (a slow "found" need not cost two points). Off: the box always times the check,
    #: from when the scene is turned up (the previous check ended).
    check_timer_on_press: bool = True
    #: [I] The first viewing pass starts on the host's "ready" press (``ViewingStarted``),
    #: once the scenes are laid and everyone sits ready, not the moment the game is set up.
    #: Off: it starts with the game.
    viewing_starts_on_ready: bool = True
    #: (Not an [I]: 「投注玩家們逐一檢視各個場景卡」 -- a check is per scene: the bettors on a
    #: scene look together; "found" scores each of them by slot, "not found" or the time-up
    #: costs each the wrong-bet points; the time-up counts as not found, by 3.(3).)
    #: [I] Check order: 「從回憶卡上擺放最多玩家方形代表物的場景卡開始，依順時針方向」 -- the
    #: scene with the most tokens first, then clockwise over the scenes bet on. Among scenes
    #: tied for the most, on: the hourglass taker's scene if it is one of them (the taker had
    #: to bet), else the lowest ring position; off: the lowest ring position.
    check_ties_start_at_takers_scene: bool = False
    #: [I] When the empty-pile end condition is met by a reveal, that last card's round is still
    #: played (buzz, bets, check) and the game ends after its scoring. Off: the game ends the
    #: moment the pile runs out.
    last_card_round_is_played: bool = True
    #: [I] Ties for "lowest score" (swap and replacement decisions): 「由順位最接近取得沙漏玩家
    #: 的玩家決定」 -- the player nearest the hourglass taker in seat order. On: counting from
    #: the taker, who is nearest to themselves (distance 0: the taker decides if tied). Off:
    #: from the taker's left neighbour (RULES.md's "in seat order after"). On is kept: the
    #: seed names a distance, and only this reading gives a tied taker one.
    tie_break_includes_taker: bool = True
    #: [I] The swap (回歸原位) rearranges the turned-up scenes: the seed's 「將這些已翻開場景卡的
    #: 所在位置進行交換」 exchanges the positions of *these* scenes, so with three or more turned
    #: up the decider may make several exchanges (any order of them is reachable in k-1 of
    #: k scenes; the decision ends by itself then, or with "done"). Off: one exchange ends it.
    #: A journal written before this switch existed has no key for it and replays with it off.
    swap_rearranges: bool = True
    #: (Not an [I]: 「回憶卡上包括6個方格」 -- a full memory card takes no more bets; a 7th
    #: bettor chooses another scene or passes. Nor the deal: the seed says only that some
    #: players get one card more; the box assumes the first ``66 mod n`` from the start player,
    #: and NewGame.hand_sizes gives the counts the table really dealt.)
    #: [I] Advanced: a replacement is decided at the next calm moment after a pile runs out --
    #: after that round's reset (after the swap decision), or right after "nobody buzzed".
    #: The new scene is one never drawn before this game.
    replacement_once_per_empty_pile: bool = True
    #: [I] The replacement's chooser is 「當時累積分數最低的玩家」: the lowest scorer at the
    #: moment the pile runs out (before that round's scoring; ties as above, counted from the
    #: last hourglass taker, or from the start player before anyone took it). Off: the lowest
    #: scorer when the replacement is decided (after the round's scoring).
    replacement_chooser_when_pile_empties: bool = True


#: Switches added after journals existed, with the rule games were played by before them: a
#: journal header that lists ``interpretations`` without one of these replays by that rule.
ADDED_SWITCHES: Mapping[str, bool] = {
    "swap_rearranges": False,  # one exchange ended the swap
    "replacement_chooser_when_pile_empties": False,  # the lowest scorer after the scoring
    "check_timer_on_press": False,  # the 30 s always ran
    "viewing_starts_on_ready": False,  # the first pass started with the game
}

#: Rules added after journals existed, with the value older games were played by: a header
#: with ``interpretations`` (a whole header) but without one of these replays by that value.
ADDED_RULES: Mapping[str, int] = {
    "viewing_beat_ms": 0,  # the passes followed each other at once
}


@dataclass(frozen=True)
class Rules:
    """The static facts of 什麼不見啦: components, timings, thresholds and the scoring table."""

    min_players: int = 3
    max_players: int = 7
    item_cards: int = 66
    scene_cards: int = 15
    scenes_easy: int = 4
    scenes_standard: int = 5
    scenes_advanced: int = 6
    memory_slots: int = 6
    viewing_pass_ms: int = 5_000
    #: the beat between two viewing passes, to hand the scenes on (0: none); the seed is
    #: silent on it, and 5 s is all a pass lasts
    viewing_beat_ms: int = 2_000
    check_ms: int = 30_000
    replacement_viewing_ms: int = 20_000
    #: points for a correct scene by slot (1..6) are ``N + offset`` (N = number of players)
    slot_offsets: tuple[int, ...] = (0, -1, -1, -2, -3, -3)
    #: a lone bettor on a correct scene scores ``N + lone_bettor_offset``
    lone_bettor_offset: int = 1
    wrong_points: int = -2
    min_score: int = 0
    #: tables of at most this many players use the "small" thresholds
    small_table_max_players: int = 4
    win_score: int = 35
    win_score_small: int = 20
    empty_piles_end: int = 3
    empty_piles_end_small: int = 2
    #: the most two hands of a given deal (``NewGame.hand_sizes``) may differ: the seed deals
    #: every card round the table, 「直到發完為止(部分玩家可能會多1張卡牌)」
    max_deal_spread: int = 1
    interpretations: Interpretations = field(default_factory=Interpretations)

    def scenes_for(self, variant: Variant) -> int:
        return {Variant.EASY: self.scenes_easy, Variant.STANDARD: self.scenes_standard,
                Variant.ADVANCED: self.scenes_advanced}[variant]

    def win_score_for(self, n_players: int) -> int:
        return self.win_score_small if n_players <= self.small_table_max_players \
            else self.win_score

    def empty_piles_for(self, n_players: int) -> int:
        return self.empty_piles_end_small if n_players <= self.small_table_max_players \
            else self.empty_piles_end

    def points(self, n_players: int, slot: int, correct: bool, lone: bool) -> int:
        """The scoring table: points for a bettor in ``slot`` (1-based)."""
        if not correct:
            return self.wrong_points
        if lone and slot == 1:
            return n_players + self.lone_bettor_offset
        return n_players + self.slot_offsets[slot - 1]

    def to_dict(self) -> dict[str, Any]:
        return rules_to_dict(self)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self:
        """Defaults for missing keys; ``ValueError`` naming the key for a bad value.

        A header from before a switch existed keeps that game's rule (a journal replays as
        it was played): in a whole header (one with ``interpretations``), a key of
        :data:`ADDED_RULES` or :data:`ADDED_SWITCHES` it lacks takes the value games were
        played by before that key existed."""
        inter = d.get("interpretations")
        if isinstance(inter, Mapping):
            d = {**ADDED_RULES, **d, "interpretations": {**ADDED_SWITCHES, **inter}}
        return rules_from_dict(cls, d)

    def problems(self) -> list[str]:
        out = []
        if not 2 <= self.min_players <= self.max_players <= len(COLOURS):
            out.append(f"rules.min_players/max_players: {self.min_players}..{self.max_players}"
                       f" must lie within 2..{len(COLOURS)}")
        if len(self.slot_offsets) != self.memory_slots:
            out.append(f"rules.slot_offsets: {len(self.slot_offsets)} values for "
                       f"{self.memory_slots} memory slots")
        for key in ("viewing_pass_ms", "check_ms", "replacement_viewing_ms", "item_cards",
                    "scene_cards"):
            if getattr(self, key) <= 0:
                out.append(f"rules.{key}: must be positive, got {getattr(self, key)}")
        if max(self.scenes_easy, self.scenes_standard, self.scenes_advanced) > self.scene_cards:
            out.append("rules.scenes_*: more scenes in play than scene cards")
        if min(self.scenes_easy, self.scenes_standard, self.scenes_advanced) < 1:
            out.append("rules.scenes_*: at least one scene must be in play")
        if self.viewing_beat_ms < 0:
            out.append(f"rules.viewing_beat_ms: 0 or more, got {self.viewing_beat_ms}")
        if self.max_deal_spread < 1:
            out.append(f"rules.max_deal_spread: at least 1 (66 cards do not deal evenly to "
                       f"every table), got {self.max_deal_spread}")
        return out


def deal_counts(n_players: int, start_seat: int, item_cards: int = 66) -> tuple[int, ...]:
    """Item cards per seat when dealt out from the start player ([I], see Interpretations)."""
    base, extra = divmod(item_cards, n_players)
    counts = [base] * n_players
    for seat in clockwise_from(start_seat, n_players)[:extra]:
        counts[seat] += 1
    return tuple(counts)


def viewing_schedule(n_players: int, n_scenes: int) -> tuple[tuple[int | None, ...], ...]:
    """Which scene position each seat looks at in each 5 s pass (``None``: waiting).

    Scenes are passed to the left after every pass. With at least as many scenes as players,
    every player holds a scene in every pass and ``n_scenes`` passes show everyone everything
    (the scenes not in a player's hands wait in a stack between the last seat and the first).
    With fewer scenes than players, only ``n_scenes`` players look at a time and it takes
    ``n_players`` passes for every scene to reach every player. So: ``max(k, n)`` passes, and
    in pass ``p`` seat ``s`` holds position ``(s - p) mod max(k, n)`` if that is a scene.
    """
    ring = max(n_players, n_scenes)
    return tuple(
        tuple(((s - p) % ring) if (s - p) % ring < n_scenes else None
              for s in range(n_players))
        for p in range(ring))


# --- events ------------------------------------------------------------------------------

EVENTS = EventRegistry(GAME_NAME)


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class NewGame(Event):
    """The host starts a game: players (names and colours, seat order clockwise), variant,
    the youngest player's seat, the scene ids drawn (ring order), optionally the deal."""

    type_name = "new_game"
    source = Source.HOST
    names: tuple[str, ...]
    colours: tuple[str, ...]
    variant: str
    start_seat: int
    scenes: tuple[int, ...]
    hand_sizes: tuple[int, ...] | None = None


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class ViewingStarted(Event):
    """The scenes are laid and the table is ready: the first viewing pass starts."""

    type_name = "viewing_started"
    source = Source.HOST


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class ViewingTimeUp(Event):
    """A viewing pass (5 s) or the 20 s look at a replacement scene is over."""

    type_name = "viewing_time_up"
    source = Source.CLOCK


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class CardRevealed(Event):
    """An item card appeared on top of the central pile (seat: who flipped it, if known)."""

    type_name = "card_revealed"
    source = Source.CAMERA
    card: int
    seat: int | None = None


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class CardTurnedByHand(Event):
    """The host: a card is up that nobody named (the camera did not recognise it, or is not
    working). It plays as any revealed card -- the item matters only to the players, who
    remember the scenes -- and lies on the pile unnamed (None)."""

    type_name = "card_turned_by_hand"
    source = Source.HOST
    seat: int | None = None


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class BuzzWon(Event):
    """The firmware arbiter's verdict: the first press after the card appeared."""

    type_name = "buzz_won"
    source = Source.BUZZER
    seat: int
    margin_us: int = 0  # lead over the second press (0 if nobody else pressed)
    tie: bool = False  # an exact tie was broken by lot


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class NoBuzz(Event):
    """The host: nobody buzzed on this card; the next player reveals."""

    type_name = "no_buzz"
    source = Source.HOST


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class Bet(Event):
    """A player puts their square token on the memory card of the scene at ``position``."""

    type_name = "bet"
    source = Source.HOST
    seat: int
    position: int


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class Pass(Event):
    """A player decides not to bet this round."""

    type_name = "pass"
    source = Source.HOST
    seat: int


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class BetSeen(Bet):
    """The camera saw ``seat``'s square token appear on the memory card at ``position``: the
    same bet as the host's :class:`Bet`, read off the table (the kit checks the token's
    colour, turn and slot before it says so)."""

    type_name = "bet_seen"
    source = Source.CAMERA


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class PassPressed(Pass):
    """``seat`` pressed their own seat button while it was their turn to bet: they pass."""

    type_name = "pass_pressed"
    source = Source.BUZZER


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class SceneTurnedUp(Event):
    """The camera saw the scene at ``position`` turned face up: its check begins, and the
    hourglass (30 s) runs from then. Only the scene whose turn it is (most tokens first,
    then clockwise); another is rejected, naming the one to turn."""

    type_name = "scene_turned_up"
    source = Source.CAMERA
    position: int


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class CheckResult(Event):
    """The host: the bettors on the scene at ``position`` found the item, or gave up."""

    type_name = "check_result"
    source = Source.HOST
    position: int
    found: bool


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class CheckTimeUp(Event):
    """The 30 s of the current check ran out: counts as not found."""

    type_name = "check_time_up"
    source = Source.CLOCK


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class HourglassTurned(Event):
    """A player not betting on the scene turns the hourglass: the bettors have 30 s."""

    type_name = "hourglass_turned"
    source = Source.HOST


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class SwapScenes(Event):
    """The lowest scorer exchanges two scenes that were turned up this round (with
    ``swap_rearranges``, one of up to k-1 exchanges among the k scenes turned up)."""

    type_name = "swap_scenes"
    source = Source.HOST
    seat: int
    a: int
    b: int


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class DeclineSwap(Event):
    """No (more) exchanges: the swap decision is done ("keep" before any, "done" after)."""

    type_name = "decline_swap"
    source = Source.HOST
    seat: int


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class ReplaceScene(Event):
    """Advanced: the lowest scorer puts new scene card ``scene`` in place of ``position``."""

    type_name = "replace_scene"
    source = Source.HOST
    seat: int
    position: int
    scene: int


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class DeclineReplacement(Event):
    type_name = "decline_replacement"
    source = Source.HOST
    seat: int


@EVENTS.register
@dataclass(frozen=True, kw_only=True)
class EndGame(Event):
    """The host ends the game early; the highest score still wins."""

    type_name = "end_game"
    source = Source.HOST


# --- the state of one play ---------------------------------------------------------------


class Phase(enum.Enum):
    SETUP = "setup"  # waiting for NewGame
    VIEWING = "viewing"  # players look at the scenes, pass by pass
    REVEAL = "reveal"  # to_act flips the top card of their pile
    BUZZ = "buzz"  # a new card is on top: first buzz wins the hourglass
    BET = "bet"  # to_act bets or passes (the buzz winner must bet)
    CHECK = "check"  # the scene at check.position is turned up and searched
    SWAP = "swap"  # to_act (lowest score) may exchange turned-up scenes
    REPLACE = "replace"  # advanced: to_act (lowest score) may replace a scene
    VIEW_REPLACEMENT = "view_replacement"  # 20 s to look at the new scene
    OVER = "over"


class EndReason(enum.Enum):
    SCORE_REACHED = "score_reached"
    PILES_EMPTY = "piles_empty"
    HOST_ENDED = "host_ended"


@dataclass(frozen=True)
class Player:
    name: str
    colour: str
    score: int = 0
    cards_left: int = 0


@dataclass(frozen=True)
class Buzz:
    seat: int
    margin_us: int
    tie: bool


@dataclass(frozen=True)
class PlacedBet:
    seat: int
    position: int  # scene position in the ring
    slot: int  # 1..6 on that scene's memory card


@dataclass(frozen=True)
class Check:
    """The check in progress: the scene at ``position``, searched by ``bettors`` until
    ``deadline_ms`` (None: the hourglass is not turned; the search is untimed)."""

    position: int
    bettors: tuple[int, ...]
    deadline_ms: int | None


class ChangeReason(enum.Enum):
    FOUND = "found"
    NOT_FOUND = "not_found"
    TIME_UP = "time_up"


@dataclass(frozen=True)
class ScoreChange:
    """One bettor's score change (``delta`` after the clamp at 0; ``points`` before it)."""

    seat: int
    position: int
    slot: int
    points: int
    delta: int
    reason: ChangeReason


@dataclass(frozen=True)
class Replacement:
    """Advanced: scene ``scene`` is being looked at before it replaces ``position``."""

    seat: int
    position: int
    scene: int
    deadline_ms: int


@dataclass(frozen=True)
class State:
    """One play of 什麼不見啦. Render from: phase, to_act, top_card, buzz, bets, check,
    deadline_ms, players, score_history, last_changes, outcome."""

    rules: Rules = field(repr=False)
    phase: Phase = Phase.SETUP
    now_ms: int = 0
    variant: Variant = Variant.STANDARD
    players: tuple[Player, ...] = ()
    start_seat: int = 0
    dealt: tuple[int, ...] = ()  # cards dealt per seat
    scenes: tuple[int, ...] = ()  # scene ids by ring position
    used_scenes: tuple[int, ...] = ()  # every scene id drawn this game, in order
    round: int = 0  # 1-based once play starts
    to_act: int | None = None  # whose turn or decision it is (None: nobody's)
    deadline_ms: int | None = None  # the running timer's deadline, if any
    viewing_pass: int = 0  # 0-based pass in progress (VIEWING)
    viewing_from_ms: int | None = None  # when this pass's look begins (after the hand-on beat)
    viewing_passes: int = 0
    pile: tuple[int | None, ...] = ()  # revealed item cards, the top one last (None: unnamed)
    revealer: int | None = None  # who flipped the top card
    last_taker: int | None = None  # who took the hourglass in the previous round
    buzz: Buzz | None = None  # this round's hourglass taker
    bets: tuple[PlacedBet, ...] = ()
    passed: tuple[int, ...] = ()  # seats that decided not to bet this round
    bet_order: tuple[int, ...] = ()  # seats still to decide, to_act first
    checks_left: tuple[int, ...] = ()  # scene positions still to check, in order
    check: Check | None = None
    turned_up: tuple[int, ...] = ()  # scene positions turned up (checked) this round
    swaps_made: int = 0  # exchanges made in this swap decision (SWAP)
    score_history: tuple[tuple[int, ...], ...] = ()  # scores after each round (0: start)
    last_changes: tuple[ScoreChange, ...] = ()  # this round's (or the last round's) changes
    results: tuple[tuple[int, bool], ...] = ()  # this (or the last) round's checks: (pos, found)
    replacements_due: int = 0
    #: who decides each pending replacement, in order (the lowest scorer when its pile ran
    #: out; empty with ``replacement_chooser_when_pile_empties`` off)
    replacement_choosers: tuple[int, ...] = ()
    replacement: Replacement | None = None
    outcome: Outcome[EndReason] | None = None

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def timer_ms(self) -> int | None:
        """The full length of the running timer (for a progress bar), None if none runs."""
        r = self.rules
        return {Phase.VIEWING: r.viewing_pass_ms, Phase.CHECK: r.check_ms,
                Phase.VIEW_REPLACEMENT: r.replacement_viewing_ms}.get(self.phase)

    @property
    def target_score(self) -> int:
        return self.rules.win_score_for(self.n_players)

    @property
    def top_card(self) -> int | None:
        """The item card on top of the central pile (None: none, or one nobody named)."""
        return self.pile[-1] if self.pile else None

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(p.score for p in self.players)

    @property
    def empty_piles(self) -> int:
        return sum(1 for p in self.players if p.cards_left == 0)

    def tokens_on(self, position: int) -> int:
        return sum(1 for b in self.bets if b.position == position)

    def bet_of(self, seat: int) -> PlacedBet | None:
        for b in self.bets:
            if b.seat == seat:
                return b
        return None


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


# --- queries -----------------------------------------------------------------------------


def is_over(state: State) -> bool:
    return state.phase is Phase.OVER


def outcome(state: State) -> Outcome[EndReason] | None:
    return state.outcome


def next_deadline(state: State) -> int | None:
    """When the app must send the time-up event of the running timer (None: no timer)."""
    return state.deadline_ms


def deadline(state: State) -> Deadline | None:
    """The running timer and the time-up event to send at its end."""
    at = state.deadline_ms
    if at is None:
        return None
    if state.phase is Phase.CHECK:
        return Deadline(at, CheckTimeUp(at_ms=at))
    return Deadline(at, ViewingTimeUp(at_ms=at))


def next_revealer(state: State) -> int | None:
    """Who flips the next item card: ``to_act`` in REVEAL; in BUZZ, who would if nobody
    buzzes (None if the table must first settle: game end or a scene replacement)."""
    if state.phase is Phase.REVEAL:
        return state.to_act
    if state.phase is Phase.BUZZ:
        after = _after_no_buzz(state)
        if isinstance(after, State) and after.phase is Phase.REVEAL:
            return after.to_act
    return None


def legal_actions(state: State) -> tuple[Event, ...]:
    """The events the state accepts now, stamped at ``now_ms`` (time-ups at their deadline).

    In SETUP the possible NewGame events are unbounded, so none are listed. EndGame is always
    possible before the end and is not listed either.
    """
    now = state.now_ms
    p = state.phase
    if p in (Phase.VIEWING, Phase.VIEW_REPLACEMENT):
        if state.deadline_ms is None:
            return (ViewingStarted(at_ms=now),)
        return (ViewingTimeUp(at_ms=max(now, state.deadline_ms)),)
    if p is Phase.REVEAL:
        return (*(CardRevealed(at_ms=now, card=c, seat=state.to_act)
                  for c in _unrevealed(state)),
                CardTurnedByHand(at_ms=now, seat=state.to_act))
    if p is Phase.BUZZ:
        out: list[Event] = [BuzzWon(at_ms=now, seat=s) for s in range(state.n_players)]
        out.append(NoBuzz(at_ms=now))
        nxt = next_revealer(state)
        if state.rules.interpretations.reveal_implies_no_buzz and nxt is not None:
            out.extend(CardRevealed(at_ms=now, card=c, seat=nxt) for c in _unrevealed(state))
            out.append(CardTurnedByHand(at_ms=now, seat=nxt))
        return tuple(out)
    if p is Phase.BET:
        seat = state.to_act
        assert seat is not None
        bets: list[Event] = [Bet(at_ms=now, seat=seat, position=pos)
                             for pos in range(len(state.scenes))
                             if state.tokens_on(pos) < state.rules.memory_slots]
        if state.buzz is None or seat != state.buzz.seat:
            bets.append(Pass(at_ms=now, seat=seat))
        return tuple(bets)
    if p is Phase.CHECK:
        assert state.check is not None
        pos, dl = state.check.position, state.check.deadline_ms
        found: list[Event] = []
        if dl is None or now < dl:
            found = [CheckResult(at_ms=now, position=pos, found=True),
                     CheckResult(at_ms=now, position=pos, found=False)]
        if dl is None:
            return (*found, HourglassTurned(at_ms=now))
        return (*found, CheckTimeUp(at_ms=max(now, dl)))
    if p is Phase.SWAP:
        seat = state.to_act
        assert seat is not None
        ups = state.turned_up
        swaps: list[Event] = [SwapScenes(at_ms=now, seat=seat, a=a, b=b)
                              for a in ups for b in ups if a != b]
        return (*swaps, DeclineSwap(at_ms=now, seat=seat))
    if p is Phase.REPLACE:
        seat = state.to_act
        assert seat is not None
        free = [s for s in range(state.rules.scene_cards) if s not in state.used_scenes]
        reps: list[Event] = [ReplaceScene(at_ms=now, seat=seat, position=pos, scene=s)
                             for pos in range(len(state.scenes)) for s in free]
        return (*reps, DeclineReplacement(at_ms=now, seat=seat))
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
    seating = seating_problem("什麼不見啦", ev.names, ev.colours, ev.start_seat,
                              min_players=rules.min_players, max_players=rules.max_players,
                              known_colours=COLOURS)
    if seating is not None:
        return seating
    try:
        variant = Variant(ev.variant)
    except ValueError:
        return Rejection("bad_setup", f"unknown variant {ev.variant!r} (easy/standard/advanced)")
    k = rules.scenes_for(variant)
    if len(ev.scenes) != k:
        return Rejection("bad_setup", f"{variant.value} plays with {k} scenes, "
                                      f"got {len(ev.scenes)}")
    if len(set(ev.scenes)) != k or any(not 0 <= s < rules.scene_cards for s in ev.scenes):
        return Rejection("bad_setup", f"scenes must be {k} different ids "
                                      f"0-{rules.scene_cards - 1}")
    if ev.hand_sizes is None:
        dealt = deal_counts(n, ev.start_seat, rules.item_cards)
    else:
        dealt = ev.hand_sizes
        if len(dealt) != n or any(h < 0 for h in dealt) or sum(dealt) != rules.item_cards:
            return Rejection("bad_setup", f"hand sizes must be {n} counts adding up to "
                                          f"{rules.item_cards}, got {list(dealt)}")
        if max(dealt) - min(dealt) > rules.max_deal_spread:
            return Rejection("bad_setup", f"hand sizes {list(dealt)}: the cards are dealt "
                                          f"round the table, so no hand may hold more than "
                                          f"{rules.max_deal_spread} more than another")
    passes = len(viewing_schedule(n, k))
    return _evolve(
        state,
        phase=Phase.VIEWING,
        variant=variant,
        players=tuple(Player(name=nm, colour=c, cards_left=h)
                      for nm, c, h in zip(ev.names, ev.colours, dealt, strict=True)),
        start_seat=ev.start_seat,
        dealt=dealt,
        scenes=ev.scenes,
        used_scenes=ev.scenes,
        viewing_pass=0,
        viewing_passes=passes,
        viewing_from_ms=None if rules.interpretations.viewing_starts_on_ready else ev.at_ms,
        deadline_ms=(None if rules.interpretations.viewing_starts_on_ready
                     else ev.at_ms + rules.viewing_pass_ms),
        score_history=((0,) * n,),
    )


def _viewing_started(state: State, ev: Event) -> State | Rejection:
    if state.deadline_ms is not None:
        return Rejection("viewing_running", "the viewing passes are already running")
    return _evolve(state, viewing_from_ms=ev.at_ms,
                   deadline_ms=ev.at_ms + state.rules.viewing_pass_ms)


def _viewing_time_up(state: State, ev: Event) -> State | Rejection:
    if state.deadline_ms is None:
        return Rejection("viewing_not_started", "the first viewing pass waits for the host's "
                                                "ready")
    if ev.at_ms < state.deadline_ms:
        return _too_early(ev, state.deadline_ms)
    if state.viewing_pass + 1 < state.viewing_passes:
        start = ev.at_ms + state.rules.viewing_beat_ms  # the scenes are handed on
        return _evolve(state, viewing_pass=state.viewing_pass + 1, viewing_from_ms=start,
                       deadline_ms=start + state.rules.viewing_pass_ms)
    return _start_round(_evolve(state, deadline_ms=None, viewing_from_ms=None))


def _start_round(state: State) -> State:
    """A new round's reveal phase: from the left of the last hourglass taker."""
    n = state.n_players
    start = state.start_seat if state.last_taker is None else left_of(state.last_taker, n)
    seat = first_clockwise(start, n, lambda s: state.players[s].cards_left > 0)
    st = _evolve(
        state, round=state.round + 1, buzz=None, bets=(), passed=(), bet_order=(),
        checks_left=(),
        check=None, turned_up=(), deadline_ms=None)
    if seat is None:
        return _finish(st, EndReason.PILES_EMPTY)
    return _evolve(st, phase=Phase.REVEAL, to_act=seat)


def _next_revealer(state: State, after: int | None) -> int | None:
    n = state.n_players
    start = state.start_seat if after is None else left_of(after, n)
    return first_clockwise(start, n, lambda s: state.players[s].cards_left > 0)


def _unrevealed(state: State) -> list[int]:
    on_pile = set(state.pile)
    return [c for c in range(state.rules.item_cards) if c not in on_pile]


def _card_revealed(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, CardRevealed | CardTurnedByHand)
    card = ev.card if isinstance(ev, CardRevealed) else None
    if state.phase is Phase.BUZZ:
        if not state.rules.interpretations.reveal_implies_no_buzz:
            return Rejection("wrong_phase", "a card is waiting for a buzz; send NoBuzz first")
        after = _after_no_buzz(state)
        if isinstance(after, Rejection) or after.phase is not Phase.REVEAL:
            return Rejection("wrong_phase", "nobody buzzed, but the table must first "
                                            "settle (game end or scene replacement)")
        state = after
    seat = state.to_act
    assert seat is not None
    if card is not None and not 0 <= card < state.rules.item_cards:
        return Rejection("bad_card", f"item card {card} does not exist "
                                     f"(0-{state.rules.item_cards - 1})")
    if card is not None and card in state.pile:
        return Rejection("card_already_revealed", f"item card {card} is already on the pile")
    if ev.seat is not None and ev.seat != seat:
        return Rejection("not_your_turn", f"it is seat {seat}'s turn to reveal, not {ev.seat}'s")
    players = list(state.players)
    players[seat] = dataclasses.replace(players[seat], cards_left=players[seat].cards_left - 1)
    st = _evolve(state, phase=Phase.BUZZ, players=tuple(players),
                 pile=(*state.pile, card), revealer=seat, to_act=None)
    if players[seat].cards_left == 0:
        if st.variant is Variant.ADVANCED:
            st = _evolve(st, replacements_due=st.replacements_due + 1)
            if st.rules.interpretations.replacement_chooser_when_pile_empties:
                st = _evolve(st, replacement_choosers=(*st.replacement_choosers,
                                                       _lowest_scorer(st)))
        if (not st.rules.interpretations.last_card_round_is_played
                and st.empty_piles >= st.rules.empty_piles_for(st.n_players)):
            return _finish(st, EndReason.PILES_EMPTY)
    return st


def _no_buzz(state: State, ev: Event) -> State | Rejection:
    return _after_no_buzz(state)


def _after_no_buzz(state: State) -> State | Rejection:
    if state.empty_piles >= state.rules.empty_piles_for(state.n_players):
        return _finish(state, EndReason.PILES_EMPTY)
    return _between_cards(state)


def _between_cards(state: State) -> State:
    """A calm moment: a pending scene replacement, else the next reveal of this round."""
    if state.replacements_due > 0 and _free_scenes(state):
        return _evolve(state, phase=Phase.REPLACE, to_act=_replacement_chooser(state),
                       deadline_ms=None)
    state = _evolve(state, replacements_due=0, replacement_choosers=())
    seat = _next_revealer(state, after=state.revealer)
    if seat is None:
        return _finish(state, EndReason.PILES_EMPTY)
    return _evolve(state, phase=Phase.REVEAL, to_act=seat, deadline_ms=None)


def _buzz_won(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, BuzzWon)
    if not 0 <= ev.seat < state.n_players:
        return _bad_seat(state, ev.seat)
    if ev.margin_us < 0:
        return Rejection("bad_buzz", f"margin {ev.margin_us} us is negative")
    return _evolve(
        state, phase=Phase.BET, buzz=Buzz(ev.seat, ev.margin_us, ev.tie), to_act=ev.seat,
        bet_order=clockwise_from(ev.seat, state.n_players), bets=(), passed=(),
        last_changes=(), results=())


def _bet(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, Bet | Pass)
    seat = state.to_act
    assert seat is not None and state.buzz is not None
    if ev.seat != seat:
        return Rejection("not_your_turn", f"seat {seat} decides now, not seat {ev.seat}")
    bets, passed = state.bets, state.passed
    if isinstance(ev, Pass):
        if seat == state.buzz.seat:
            return Rejection("must_bet", "the hourglass taker must bet")
        passed = (*passed, seat)
    else:
        if not 0 <= ev.position < len(state.scenes):
            return Rejection("bad_position", f"no scene at position {ev.position} "
                                             f"(0-{len(state.scenes) - 1})")
        taken = state.tokens_on(ev.position)
        if taken >= state.rules.memory_slots:
            return Rejection("memory_card_full",
                             f"the memory card of scene {ev.position} is full")
        bets = (*bets, PlacedBet(seat=seat, position=ev.position, slot=taken + 1))
    order = state.bet_order[1:]
    st = _evolve(state, bets=bets, passed=passed, bet_order=order,
                 to_act=order[0] if order else None)
    if order:
        return st
    return _start_checks(st, ev.at_ms)


def _check_order(state: State) -> tuple[int, ...]:
    """Most tokens first (ties: ``check_ties_start_at_takers_scene``, else the lowest
    position), then clockwise over the bet-on scenes."""
    k = len(state.scenes)
    counts = [state.tokens_on(pos) for pos in range(k)]
    most = max(counts)
    first = counts.index(most)
    if state.rules.interpretations.check_ties_start_at_takers_scene and state.buzz is not None:
        taker = next((b.position for b in state.bets if b.seat == state.buzz.seat), None)
        if taker is not None and counts[taker] == most:
            first = taker
    return tuple(pos for pos in clockwise_from(first, k) if counts[pos] > 0)


def _start_checks(state: State, at_ms: int) -> State:
    order = _check_order(state)
    return _next_check(_evolve(state, checks_left=order, turned_up=()), at_ms)


def _next_check(state: State, at_ms: int) -> State:
    if not state.checks_left:
        return _end_of_scoring(_evolve(state, check=None, deadline_ms=None))
    pos = state.checks_left[0]
    bettors = tuple(b.seat for b in state.bets if b.position == pos)
    deadline = (None if state.rules.interpretations.check_timer_on_press
                else at_ms + state.rules.check_ms)
    return _evolve(
        state, phase=Phase.CHECK, to_act=None, checks_left=state.checks_left[1:],
        check=Check(position=pos, bettors=bettors, deadline_ms=deadline),
        deadline_ms=deadline, turned_up=(*state.turned_up, pos))


def _check_result(state: State, ev: Event) -> State | Rejection:
    check = state.check
    assert check is not None
    if isinstance(ev, SceneTurnedUp) and ev.position != check.position:
        return Rejection("out_of_order",
                         f"scene {ev.position + 1} was turned up out of order: scene "
                         f"{check.position + 1} is checked now")
    if isinstance(ev, HourglassTurned | SceneTurnedUp):
        if check.deadline_ms is not None:
            return Rejection("hourglass_running", "the hourglass is already running")
        deadline = ev.at_ms + state.rules.check_ms
        return _evolve(state, check=dataclasses.replace(check, deadline_ms=deadline),
                       deadline_ms=deadline)
    if isinstance(ev, CheckTimeUp):
        if check.deadline_ms is None:
            return Rejection("no_hourglass", "the hourglass was not turned: the search is "
                                             "untimed")
        if ev.at_ms < check.deadline_ms:
            return _too_early(ev, check.deadline_ms)
        return _next_check(_score(state, found=False, reason=ChangeReason.TIME_UP), ev.at_ms)
    assert isinstance(ev, CheckResult)
    if ev.position != check.position:
        return Rejection("not_current_check",
                         f"scene {check.position} is being checked, not {ev.position}")
    if check.deadline_ms is not None and ev.at_ms >= check.deadline_ms:
        return Rejection("deadline_passed", "the 30 s ran out; the time-up counts as not found")
    reason = ChangeReason.FOUND if ev.found else ChangeReason.NOT_FOUND
    return _next_check(_score(state, found=ev.found, reason=reason), ev.at_ms)


def _score(state: State, found: bool, reason: ChangeReason) -> State:
    assert state.check is not None
    rules, n = state.rules, state.n_players
    pos = state.check.position
    on_scene = [b for b in state.bets if b.position == pos]
    lone = (len(on_scene) == 1 if rules.interpretations.lone_bettor_per_scene
            else len(state.bets) == 1)
    players = list(state.players)
    changes = list(state.last_changes)
    for b in on_scene:
        pts = rules.points(n, b.slot, found, lone)
        old = players[b.seat].score
        new = max(rules.min_score, old + pts)
        players[b.seat] = dataclasses.replace(players[b.seat], score=new)
        changes.append(ScoreChange(seat=b.seat, position=pos, slot=b.slot, points=pts,
                                   delta=new - old, reason=reason))
    return _evolve(state, players=tuple(players), last_changes=tuple(changes),
                   results=(*state.results, (pos, found)))


def _end_of_scoring(state: State) -> State:
    """After the last check: record the round, test the end, then the reset."""
    assert state.buzz is not None
    st = _evolve(state, score_history=(*state.score_history, state.scores),
                 last_taker=state.buzz.seat)
    rules = st.rules
    if any(s >= rules.win_score_for(st.n_players) for s in st.scores):
        return _finish(st, EndReason.SCORE_REACHED)
    if st.empty_piles >= rules.empty_piles_for(st.n_players):
        return _finish(st, EndReason.PILES_EMPTY)
    if len(st.turned_up) >= 2:
        return _evolve(st, phase=Phase.SWAP, to_act=_lowest_scorer(st))
    return _after_reset(st)


def _lowest_scorer(state: State) -> int:
    """The lowest scorer; ties go to the nearest in seat order from the hourglass taker."""
    low = min(state.scores)
    ref = state.buzz.seat if state.buzz is not None else state.last_taker
    n = state.n_players
    if ref is None:
        start = state.start_seat
    elif state.rules.interpretations.tie_break_includes_taker:
        start = ref
    else:
        start = left_of(ref, n)
    seat = first_clockwise(start, n, lambda s: state.players[s].score == low)
    assert seat is not None
    return seat


def _swap(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, SwapScenes | DeclineSwap)
    if ev.seat != state.to_act:
        return Rejection("not_your_turn", f"seat {state.to_act} decides the swap, not {ev.seat}")
    if isinstance(ev, DeclineSwap):
        return _after_reset(state)
    if ev.a == ev.b or ev.a not in state.turned_up or ev.b not in state.turned_up:
        return Rejection("bad_swap", f"only two different scenes turned up this round "
                                     f"{list(state.turned_up)} may be swapped")
    scenes = list(state.scenes)
    scenes[ev.a], scenes[ev.b] = scenes[ev.b], scenes[ev.a]
    made = state.swaps_made + 1
    swapped = _evolve(state, scenes=tuple(scenes), swaps_made=made)
    if state.rules.interpretations.swap_rearranges and made < len(state.turned_up) - 1:
        return swapped  # the decider may exchange again, or say "done"
    return _after_reset(swapped)


def _after_reset(state: State) -> State:
    """The reset is done: a pending replacement first (advanced), then the next round."""
    state = _evolve(state, swaps_made=0)
    if state.replacements_due > 0 and _free_scenes(state):
        return _evolve(state, phase=Phase.REPLACE, to_act=_replacement_chooser(state),
                       deadline_ms=None)
    return _start_round(_evolve(state, replacements_due=0, replacement_choosers=()))


def _replacement_chooser(state: State) -> int:
    """Who decides the next pending replacement."""
    if state.replacement_choosers:
        return state.replacement_choosers[0]
    return _lowest_scorer(state)


def _free_scenes(state: State) -> list[int]:
    return [s for s in range(state.rules.scene_cards) if s not in state.used_scenes]


def _replace(state: State, ev: Event) -> State | Rejection:
    assert isinstance(ev, ReplaceScene | DeclineReplacement)
    if ev.seat != state.to_act:
        return Rejection("not_your_turn",
                         f"seat {state.to_act} decides the replacement, not {ev.seat}")
    once = state.rules.interpretations.replacement_once_per_empty_pile
    due = state.replacements_due - 1 if once else 0
    choosers = state.replacement_choosers[1:] if once else ()
    if isinstance(ev, DeclineReplacement):
        return _resume(_evolve(state, replacements_due=due, replacement_choosers=choosers))
    if not 0 <= ev.position < len(state.scenes):
        return Rejection("bad_position", f"no scene at position {ev.position}")
    if not 0 <= ev.scene < state.rules.scene_cards:
        return Rejection("bad_scene", f"scene card {ev.scene} does not exist")
    if ev.scene in state.used_scenes:
        return Rejection("scene_used", f"scene card {ev.scene} was already drawn this game")
    deadline = ev.at_ms + state.rules.replacement_viewing_ms
    return _evolve(
        state, phase=Phase.VIEW_REPLACEMENT, to_act=None, deadline_ms=deadline,
        replacements_due=due, replacement_choosers=choosers,
        used_scenes=(*state.used_scenes, ev.scene),
        replacement=Replacement(seat=ev.seat, position=ev.position, scene=ev.scene,
                                deadline_ms=deadline))


def _replacement_viewed(state: State, ev: Event) -> State | Rejection:
    rep = state.replacement
    assert rep is not None
    if ev.at_ms < rep.deadline_ms:
        return _too_early(ev, rep.deadline_ms)
    scenes = list(state.scenes)
    scenes[rep.position] = rep.scene
    return _resume(_evolve(state, scenes=tuple(scenes), replacement=None,
                           deadline_ms=None))


def _resume(state: State) -> State:
    """After a replacement decision: the reset led here (no card waiting) or a no-buzz did."""
    if state.buzz is not None:  # a round was scored: the reset is done
        return _after_reset(state)
    return _between_cards(state)


def _finish(state: State, reason: EndReason) -> State:
    return _evolve(
        state, phase=Phase.OVER, to_act=None, deadline_ms=None, check=None,
        outcome=Outcome(reason=reason, winners=highest(state.scores), scores=state.scores))


def _too_early(ev: Event, deadline: int) -> Rejection:
    return Rejection("too_early", f"{ev.type_name} at {ev.at_ms} ms is before the deadline "
                                  f"({deadline} ms)")


def _bad_seat(state: State, seat: int) -> Rejection:
    return Rejection("bad_seat", f"seat {seat} is not at this table (0-{state.n_players - 1})")


_HANDLERS: dict[tuple[Phase, type[Event]], Callable[[State, Event], State | Rejection]] = {
    (Phase.SETUP, NewGame): _new_game,
    (Phase.VIEWING, ViewingTimeUp): _viewing_time_up,
    (Phase.REVEAL, CardRevealed): _card_revealed,
    (Phase.BUZZ, CardRevealed): _card_revealed,
    (Phase.REVEAL, CardTurnedByHand): _card_revealed,
    (Phase.BUZZ, CardTurnedByHand): _card_revealed,
    (Phase.BUZZ, BuzzWon): _buzz_won,
    (Phase.BUZZ, NoBuzz): _no_buzz,
    (Phase.BET, Bet): _bet,
    (Phase.BET, Pass): _bet,
    (Phase.BET, BetSeen): _bet,
    (Phase.BET, PassPressed): _bet,
    (Phase.CHECK, SceneTurnedUp): _check_result,
    (Phase.CHECK, CheckResult): _check_result,
    (Phase.CHECK, CheckTimeUp): _check_result,
    (Phase.CHECK, HourglassTurned): _check_result,
    (Phase.SWAP, SwapScenes): _swap,
    (Phase.SWAP, DeclineSwap): _swap,
    (Phase.REPLACE, ReplaceScene): _replace,
    (Phase.REPLACE, DeclineReplacement): _replace,
    (Phase.VIEW_REPLACEMENT, ViewingTimeUp): _replacement_viewed,
    (Phase.VIEWING, ViewingStarted): _viewing_started,
}

_REDUCER: Reducer[State] = Reducer(
    GAME_NAME, EVENTS, _HANDLERS, is_over=is_over,
    stamp=lambda state, at_ms: _evolve(state, now_ms=at_ms), anytime={EndGame: _end_game})


# --- a plain summary (for `tablekeeper replay`, logs and the display) ----------------------


def summary(state: State) -> dict[str, Any]:
    """The state as one JSON-able object: scores by player, round, whose turn, outcome."""
    def who(seat: int | None) -> dict[str, Any] | None:
        if seat is None:
            return None
        return {"seat": seat, "name": state.players[seat].name}

    out: dict[str, Any] = {
        "game": GAME_NAME,
        "variant": state.variant.value if state.players else None,
        "phase": state.phase.value,
        "round": state.round,
        "now_ms": state.now_ms,
        "to_act": who(state.to_act),
        "deadline_ms": state.deadline_ms,
        "top_card": state.top_card,
        "scenes": list(state.scenes),
        "players": [{"seat": i, "name": p.name, "colour": p.colour, "score": p.score,
                     "cards_left": p.cards_left} for i, p in enumerate(state.players)],
        "scores": {p.name: p.score for p in state.players},
        "rounds_scored": len(state.score_history) - 1 if state.score_history else 0,
        "outcome": None,
    }
    if state.outcome is not None:
        out["outcome"] = {
            "reason": state.outcome.reason.value,
            "winners": [state.players[s].name for s in state.outcome.winners],
            "winner_seats": list(state.outcome.winners),
            "scores": list(state.outcome.scores),
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
