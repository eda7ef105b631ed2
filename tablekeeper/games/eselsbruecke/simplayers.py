"""Simulated players and table for 驢橋: what happens on the table, as proposed events.

The engine only observes; this module plays the table. :class:`SimTable` holds a ground truth
it generated from an injected ``random.Random`` -- the order of the tiles in the bag -- and
follows who holds which tile as the rules deal them (the engine keeps only counts: it cannot
see a hand). Its players remember a story's keywords with some probability, answer in
human-like times (some past the 15 s) and hold or miss tiles as dealt. Given a state it
*proposes* the next table action as an engine event, or the pieces of one
(:meth:`SimTable.answer`: what the guesser will do and when)::

    rng = random.Random(7)
    table = SimTable.generate(rng, n_players=4)
    state = apply(initial_state(), table.new_game(at_ms=0))
    while not is_over(state):
        state = apply(state, table.propose(state))

Every decision draws from the injected rng only, so a seed replays the same game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.core import Event, clockwise_from, left_of
from engine.eselsbruecke import (
    COLOURS,
    AnswerGiven,
    AnswerTimeUp,
    GuessResult,
    GuessRight,
    GuessWrong,
    NewGame,
    NextRound,
    Phase,
    State,
    StoryTold,
    TilesDealt,
    TileSeen,
)

#: Names for simulated players (Traditional Chinese, with a romanisation).
SIM_NAMES: tuple[str, ...] = ("阿明 A-Ming", "小華 Xiao-Hua", "美玲 Mei-Ling",
                              "志強 Chih-Chiang", "怡君 Yi-Chun", "家豪 Chia-Hao")

#: The demo deck's keyword tiles.
DEMO_TILES: tuple[str, ...] = tuple(f"k{i:03d}" for i in range(1, 181))


@dataclass(frozen=True)
class Memory:
    """How the simulated players remember and answer (probabilities 0..1, times in ms)."""

    #: a player remembers a given keyword of a story told two rounds before
    recall: float = 0.62
    #: ... less for every tile the story had beyond three
    per_extra_tile: float = 0.05
    #: a player who remembers nothing still says something (wrong) rather than time out
    blurt: float = 0.55
    #: the time to answer when remembering (ms)
    quick: tuple[int, int] = (1_800, 9_500)
    #: the time to a wrong answer (ms); some of them come too late
    slow: tuple[int, int] = (6_000, 16_500)


@dataclass(frozen=True)
class Answer:
    """What the guesser does: after ``after_ms`` they press "I have answered" (``pressed``
    False: they never do, the clock runs out); ``holder`` is whose tile they name (None: a
    wrong answer); ``tile`` which one."""

    after_ms: int
    pressed: bool
    holder: int | None
    tile: str | None
    judge_ms: int


@dataclass
class SimTable:
    """Ground truth of one simulated table and the players' behaviour."""

    rng: random.Random
    names: tuple[str, ...]
    colours: tuple[str, ...]
    side: str
    start_seat: int
    #: the bag, in the order the tiles will be drawn
    bag: list[str]
    memory: Memory = field(default_factory=Memory)
    #: every tile of the box (what goes back into the bag: unnamed tiles, undone draws)
    tiles: tuple[str, ...] = DEMO_TILES
    #: who holds which tile of the story under recall (seat -> tile ids)
    hands: dict[int, list[str]] = field(default_factory=dict)
    #: the recall the hands belong to, and how much of it has been followed
    _recall: tuple[int, int | None] | None = None
    _followed: int = 0
    _bridges: int = 0
    _answer: tuple[tuple[int, int | None, int], Answer] | None = None

    @classmethod
    def generate(cls, rng: random.Random, n_players: int, side: str = "standard",
                 tiles: tuple[str, ...] = DEMO_TILES,
                 memory: Memory | None = None) -> SimTable:
        if not 3 <= n_players <= 6:
            raise ValueError(f"{n_players} players: 驢橋 takes 3-6 seats")
        bag = list(tiles)
        rng.shuffle(bag)
        return cls(rng=rng, names=SIM_NAMES[:n_players], colours=tuple(COLOURS)[:n_players],
                   side=side, start_seat=rng.randrange(n_players), bag=bag,
                   memory=memory or Memory(), tiles=tuple(tiles))

    # --- what the table does ------------------------------------------------------------

    def new_game(self, at_ms: int = 0) -> NewGame:
        return NewGame(at_ms=at_ms, names=self.names, colours=self.colours, side=self.side,
                       start_seat=self.start_seat)

    def next_tile(self, state: State) -> str:
        """The next tile the storyteller draws from the bag (one not out of it). Tiles that
        went back (unnamed ones, draws taken back by an undo) are shuffled in again once the
        drawing order runs out, as a real bag holds them."""
        for refill in (False, True):
            if refill:
                self.bag = [t for t in self.tiles if t not in state.played]
                self.rng.shuffle(self.bag)
            while self.bag:
                tile = self.bag.pop(0)
                if tile not in state.played:
                    return tile
        raise ValueError("the bag is empty")

    def follow(self, state: State) -> None:
        """Keep the hands in step with the recall in progress: the deal (one tile to each
        other player clockwise, the left-overs with the storyteller), right guesses, bridges
        (special case 1) and the last keyword scored (special case 2)."""
        if state.phase is not Phase.GUESS:
            return
        key = (state.round, state.teller)
        if self._recall != key:
            self._recall, self._followed, self._bridges = key, 0, 0
            teller = state.teller
            assert teller is not None
            n = state.n_players
            others = clockwise_from(left_of(teller, n), n)[:-1]
            tiles = list(state.recall_tiles)
            self.hands = {s: [] for s in range(n)}
            for i, tile in enumerate(tiles):
                self.hands[others[i] if i < len(others) else teller].append(tile)
        # A bridge (special case 1) is only taken while no keyword has been named, so every
        # bridge comes before every guess that moves a tile: follow them first.
        while self._bridges < len(state.bridges):
            donor, listener = state.bridges[self._bridges]
            self._move(donor, listener)
            self._bridges += 1
        while self._followed < len(state.guesses):
            g = state.guesses[self._followed]
            self._followed += 1
            if g.result is GuessResult.RIGHT and g.holder is not None:
                taken = g.tile if g.tile in self.hands[g.holder] else None
                if taken is None and self.hands[g.holder]:
                    taken = self._intended(g.holder)
                if taken is not None:
                    self.hands[g.holder].remove(taken)
            elif g.result is GuessResult.LAST_KEYWORD and self.hands.get(g.seat):
                self.hands[g.seat].pop()

    def _intended(self, holder: int) -> str:
        if self._answer is not None and self._answer[1].tile in self.hands[holder]:
            tile = self._answer[1].tile
            assert tile is not None
            return tile
        return self.hands[holder][0]

    def _move(self, donor: int, listener: int) -> None:
        if self.hands.get(donor):
            self.hands[listener].append(self.hands[donor].pop(0))

    def answer(self, state: State) -> Answer:
        """What the guesser ``state.to_act`` does on this turn (drawn once per turn)."""
        self.follow(state)
        seat = state.to_act
        assert seat is not None and state.phase is Phase.GUESS
        key = (state.round, state.teller, len(state.guesses))
        if self._answer is not None and self._answer[0] == key:
            return self._answer[1]
        m, rng = self.memory, self.rng
        named_left = [(h, t) for h, tiles in self.hands.items() if h != seat for t in tiles]
        p = max(0.15, m.recall - m.per_extra_tile * max(0, len(state.recall_tiles) - 3))
        remembered = [(h, t) for h, t in named_left if rng.random() < p]
        judge = rng.randint(700, 2_400)
        if remembered:
            holder, tile = rng.choice(remembered)
            ans = Answer(rng.randint(*m.quick), True, holder, tile, judge)
        elif rng.random() < m.blurt:
            after = rng.randint(*m.slow)
            ans = Answer(after, after < state.rules.answer_ms, None, None, judge)
        else:
            ans = Answer(state.rules.answer_ms + rng.randint(0, 3_000), False, None, None,
                         judge)
        self._answer = (key, ans)
        return ans

    # --- the policy (events only, no hardware) -----------------------------------------

    def propose(self, state: State) -> Event:
        """The next thing that happens on the table, as an event for the engine."""
        now = state.now_ms
        rng = self.rng
        phase = state.phase
        if phase is Phase.SETUP:
            return self.new_game(now)
        if phase is Phase.STORY:
            if len(state.laid) < state.to_draw:
                return TileSeen(at_ms=now + rng.randint(1_200, 3_500), tile=self.next_tile(state))
            return StoryTold(at_ms=now + rng.randint(15_000, 45_000))
        if phase is Phase.DEAL:
            return TilesDealt(at_ms=now + rng.randint(3_000, 7_000))
        if phase is Phase.GUESS:
            seat = state.to_act
            assert seat is not None
            ans = self.answer(state)
            if not state.answered:
                if not ans.pressed:
                    assert state.deadline_ms is not None
                    return AnswerTimeUp(at_ms=state.deadline_ms)
                return AnswerGiven(at_ms=now + ans.after_ms, seat=seat)
            if ans.holder is None:
                return GuessWrong(at_ms=now + ans.judge_ms, seat=seat)
            return GuessRight(at_ms=now + ans.judge_ms, seat=seat, holder=ans.holder)
        if phase is Phase.ROUND_OVER:
            return NextRound(at_ms=now + rng.randint(2_000, 5_000))
        raise ValueError(f"nothing happens on the table in phase {phase.value}")


# --- play-by-play ------------------------------------------------------------------------


def describe(before: State, event: Event, after: State) -> str | None:
    """One line of play-by-play (Traditional Chinese and English) for notable events."""
    def name(seat: int | None) -> str:
        return "—" if seat is None else after.seats[seat].name

    if isinstance(event, NewGame):
        return (f"新遊戲 New game: {len(event.names)} seats, {event.side} side, "
                f"start player {name(event.start_seat)}")
    if isinstance(event, StoryTold):
        tiles = before.laid
        return (f"第{before.round}回合 Round {before.round}: {name(before.teller)} tells a "
                f"story of {len(tiles)} tiles ({', '.join(tiles)})")
    if isinstance(event, TilesDealt):
        return (f"  {name(before.teller)} deals slot {(before.recall_slot or 0) + 1}'s "
                f"{len(before.recall_tiles)} tiles")
    lines: list[str] = []
    if isinstance(event, GuessRight):
        lines.append(f"  {name(event.seat)}: right (seat {event.holder + 1}'s tile)")
    elif isinstance(event, GuessWrong):
        lines.append(f"  {name(event.seat)}: 錯 wrong, out")
    elif isinstance(event, AnswerTimeUp):
        lines.append(f"  {name(before.to_act)}: 時間到 time up, out")
    for g in after.guesses[len(before.guesses):]:
        if g.result is GuessResult.LAST_KEYWORD:
            lines.append(f"  {name(g.seat)} holds the last keyword: scores it (special case 2)")
    for donor, listener in after.bridges[len(before.bridges):]:
        lines.append(f"  {name(listener)} takes {name(donor)}'s tile as a bridge (case 1)")
    if len(after.recalls) > len(before.recalls):
        r = after.recalls[-1]
        for p in r.penalties:
            stop = " (stopped by a stop tile 停止板塊)" if p.stopped else ""
            lines.append(f"  {name(p.seat)} discards {p.face_up + p.pile} of {p.due}{stop}")
        if r.stop_tile:
            lines.append(f"  nobody failed: {name(r.teller)} takes a stop tile")
    return "\n".join(lines) if lines else None
