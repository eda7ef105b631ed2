"""Complete games of 驢橋 Eselsbrücke, written out turn by turn, every score pile checked.

- 3 seats, standard side: wrong guesses, a timeout, an empty pile, discards stopped by stop
  tiles, special case 2, the seat button; Ben wins.
- 5 seats, standard side (teams of two at two seats): special case 1 (a listener joins, a
  bridge), everyone out; ends in a tie broken by stop tiles.
- 3 seats, advanced side: seven rounds, every guess right: a three-way shared win.
- 6 seats, standard side: two listeners, two bridges, everyone out; a shared win on stop tiles.
"""

from __future__ import annotations

from engine.core import Event, Rejection
from engine.eselsbruecke import (
    COLOURS,
    DEMO_DECK,
    STOP,
    AnswerGiven,
    AnswerTimeUp,
    EndReason,
    GuessRight,
    GuessWrong,
    NewGame,
    NextRound,
    Phase,
    State,
    StoryTold,
    TilesDealt,
    TileSeen,
    apply,
    initial_state,
)

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")


class Table:
    """Plays a game at a steadily advancing clock and checks what the engine says."""

    def __init__(self, n: int, side: str, start: int,
                 members: tuple[tuple[str, ...], ...] | None = None) -> None:
        self.t = 0
        self.deck = iter(DEMO_DECK)
        self.state = initial_state()
        self.do(NewGame(at_ms=0, names=NAMES[:n], colours=tuple(COLOURS)[:n], side=side,
                        start_seat=start, members=members))

    def do(self, event: Event) -> State:
        result = apply(self.state, event)
        assert not isinstance(result, Rejection), f"{event!r} rejected: {result}"
        self.state = result
        return result

    def tick(self, ms: int = 3_000) -> int:
        self.t += ms
        return self.t

    def story(self, teller: int) -> None:
        assert self.state.phase is Phase.STORY and self.state.teller == teller
        for _ in range(self.state.to_draw):
            self.do(TileSeen(at_ms=self.tick(1_000), tile=next(self.deck)))
        self.do(StoryTold(at_ms=self.tick(60_000)))

    def stories(self, *tellers: int) -> None:
        for teller in tellers:
            self.story(teller)

    def recall(self, teller: int, script: str, scores: tuple[int, ...]) -> None:
        """Deal and recall; ``script``: turns as ``<seat><R<holder>|W|T|A…>``, e.g.
        "2R1 0W 2T"; ``A`` before a verdict: the seat button first. Then the scores."""
        assert self.phase() is Phase.DEAL and self.state.teller == teller
        self.do(TilesDealt(at_ms=self.tick(10_000)))
        for turn in script.split():
            seat, what = int(turn[0]), turn[1:]
            assert self.phase() is Phase.GUESS, (turn, self.state.phase)
            assert self.state.to_act == seat, (turn, self.state.to_act)
            if what.startswith("A"):
                self.do(AnswerGiven(at_ms=self.tick(4_000), seat=seat))
                what = what[1:]
            if what == "T":
                assert self.state.deadline_ms is not None
                self.t = self.state.deadline_ms
                self.do(AnswerTimeUp(at_ms=self.t))
            elif what == "W":
                self.do(GuessWrong(at_ms=self.tick(), seat=seat))
            else:
                assert what[0] == "R", turn
                self.do(GuessRight(at_ms=self.tick(), seat=seat, holder=int(what[1:])))
        assert self.phase() is not Phase.GUESS, "the recall did not end"
        assert self.state.scores == scores, (script, self.state.scores)

    def phase(self) -> Phase:
        return self.state.phase

    def next_round(self) -> None:
        assert self.state.phase is Phase.ROUND_OVER
        self.do(NextRound(at_ms=self.tick()))

    def pile(self, seat: int) -> tuple[str, ...]:
        return self.state.seats[seat].pile


def test_three_seats_standard() -> None:
    g = Table(3, "standard", start=1)  # Ben starts; tellers 1, 2, 0; left of 1 is 2
    assert g.state.scores == (1, 1, 1)
    g.stories(1, 2, 0)
    g.next_round()
    g.stories(1, 2, 0)
    g.next_round()
    # round 3: 4 tiles, recall slot 1 (3 tiles: two others, one stays with the teller)
    g.story(1)
    g.recall(1, "2R1 0W 2R0", (0, 1, 4))  # Cat's own is last: special case 2; Ann pays 1
    g.story(2)
    g.recall(2, "0T 1R2 1R0", (0, 4, 4))  # Ann times out with an empty pile: costs nothing
    g.story(0)
    g.recall(0, "1R2 2R0", (1, 6, 5))  # nobody failed: a stop tile for Ann
    assert g.pile(0) == (STOP,)
    g.next_round()
    # round 4: 5 tiles, recall slot 2 (penalty 1)
    g.story(1)
    g.recall(1, "2W 0R1 0W", (1, 6, 4))  # Ann's penalty takes her face-up tile
    g.story(2)
    g.recall(2, "0W 1W", (1, 5, 4))  # Ann's discard stops at her stop tile
    assert g.pile(0) == (STOP,) and g.state.recalls[-1].penalties[0].stopped
    g.story(0)
    g.recall(0, "1R0 2R1 1R2", (2, 7, 5))
    g.next_round()
    # round 5: no stories; recall slot 3 (4 tiles, two stay with the teller; penalty 2)
    g.recall(1, "2R1 0R1 2R0 0AR2", (4, 8, 7))
    assert g.pile(1)[-1] == STOP
    g.recall(2, "0R2 1W 0R2 0R1", (8, 8, 7))  # Ben's discard is stopped at once
    g.recall(0, "1R0 2T 1R2 1R0", (8, 12, 5))
    g.next_round()
    # round 6: recall slot 4 (5 tiles, three stay with the teller; penalty 2)
    g.recall(1, "2R1 0R1 2R1 0R2 2R0", (10, 13, 8))
    g.recall(2, "0W 1W", (8, 13, 8))
    g.recall(0, "1R0 2R0 1R0 2R1 1R2", (9, 16, 10))
    s = g.state
    assert s.phase is Phase.OVER and s.outcome is not None
    assert s.outcome.reason is EndReason.LAST_ROUND
    assert s.outcome.scores == (9, 16, 10) and s.outcome.winners == (1,)
    assert s.stops == (3, 2, 0)
    assert [len(t) for t in s.seats[1].slots] == [3, 3, 4, 5]


def test_five_seats_standard_with_teams() -> None:
    teams = (("Ann",), ("Ben", "Bo"), ("Cat",), ("Dan", "Di"), ("Eve",))
    g = Table(5, "standard", start=0, members=teams)
    assert g.state.seats[1].members == ("Ben", "Bo")
    for _ in range(2):
        g.stories(0, 1, 2, 3, 4)
        g.next_round()
    # round 3: recall slot 1 (3 tiles for 4 others: the fourth listens)
    g.story(0)
    g.recall(0, "1R2 2W 3R1 4R3", (1, 2, 0, 2, 2))  # Eve listened, joined after Cat failed
    g.story(1)
    g.recall(1, "2W 3W 4W 0R3 0R4", (4, 2, 0, 1, 1))  # all failed before Ann: a bridge
    assert g.state.recalls[-1].bridges == ((2, 0),)
    g.story(2)
    g.recall(2, "3R4 4R0 0R3", (5, 2, 1, 2, 2))
    g.story(3)
    g.recall(3, "4R0 0R1 1R4", (6, 3, 1, 3, 3))
    g.story(4)
    g.recall(4, "0W 1W 2W 3W", (5, 2, 1, 3, 3))  # everyone out; two discards stop at once
    assert g.state.recalls[-1].bridges == ((0, 3),)
    assert [p.stopped for p in g.state.recalls[-1].penalties] == [False, False, True, True]
    g.next_round()
    # round 4: recall slot 2 (3 tiles, penalty 1)
    g.story(0)
    g.recall(0, "1R2 2R3 3R1", (6, 3, 2, 4, 3))
    g.story(1)
    g.recall(1, "2R3 3R4 4R2", (6, 4, 3, 5, 4))
    g.story(2)
    g.recall(2, "3R4 4R0 0R3", (7, 4, 4, 6, 5))
    g.story(3)
    g.recall(3, "4R0 0T 1R4 2R1", (6, 5, 5, 6, 6))  # Cat listened and joined
    g.story(4)
    g.recall(4, "0R1 1R2 2R0", (7, 6, 6, 6, 7))
    g.next_round()
    # round 5: recall slot 3 (4 tiles: everyone holds one; penalty 2)
    g.recall(0, "1R2 2R3 3R4 4R1", (8, 7, 7, 7, 8))
    g.recall(1, "2W 3R4 4R0 0R3 3R2", (9, 7, 5, 9, 9))
    g.recall(2, "3R4 4R0 0R1 1R3", (10, 8, 6, 10, 10))
    g.recall(3, "4R0 0R1 1R2 2R4", (11, 9, 7, 11, 11))
    g.recall(4, "0W 1W 2W 3W", (9, 7, 6, 11, 11))  # Cat stops after one, Dan at once
    g.next_round()
    # round 6: recall slot 4 (5 tiles: one stays with the teller; penalty 2)
    g.recall(0, "1R2 2R3 3R4 4R0", (10, 9, 7, 12, 12))  # Ben's own is last: special case 2
    g.recall(1, "2R3 3R4 4R0 0R1", (11, 10, 9, 13, 13))
    g.recall(2, "3R4 4R0 0R1 1R2", (12, 11, 10, 15, 14))
    g.recall(3, "4W 0R1 1R2 2R3 0R4 1R0", (14, 13, 11, 15, 12))
    g.recall(4, "0R1 1R2 2R3 3R4", (16, 14, 12, 16, 13))
    s = g.state
    assert s.outcome is not None and s.outcome.reason is EndReason.LAST_ROUND
    assert s.stops == (3, 2, 4, 2, 2)
    assert s.outcome.winners == (0,)  # Ann and Dan have 16; Ann has more stop tiles


def test_three_seats_advanced_everyone_right_is_a_shared_win() -> None:
    """Seven rounds; with every guess right each seat is storyteller, first and second
    guesser once a round, so the piles stay level and all share the win."""
    g = Table(3, "advanced", start=2)
    assert g.state.rounds == 7 and g.state.draws == (3, 3, 4, 5, 5, 0, 0)
    # per recall of k tiles: (first guesser, second guesser) gains; the teller a stop tile
    gains = {3: (2, 1), 4: (2, 2), 5: (3, 2)}
    scripts = {3: "{a}R{b} {b}R{t}", 4: "{a}R{b} {b}R{t} {a}R{t} {b}R{a}",
               5: "{a}R{b} {b}R{t} {a}R{t} {b}R{t}"}
    scores = [1, 1, 1]
    for rnd in range(1, 8):
        for t in (2, 0, 1):
            if g.state.to_draw:
                g.story(t)
            if rnd >= 3:
                k = len(g.state.recall_tiles)
                a, b = (t + 1) % 3, (t + 2) % 3
                scores[a] += gains[k][0]
                scores[b] += gains[k][1]
                scores[t] += 1
                g.recall(t, scripts[k].format(a=a, b=b, t=t), tuple(scores))
        if rnd < 7:
            g.next_round()
    s = g.state
    assert s.outcome is not None and s.scores == (26, 26, 26) and s.stops == (5, 5, 5)
    assert s.outcome.winners == (0, 1, 2)
    assert sum(len(t) for seat in s.seats for t in seat.slots) == 3 * 20


def test_six_seats_standard_listeners_bridges_and_a_shared_win() -> None:
    """Six seats: 3 tiles for 5 others leave two listeners. The first recall fails for all
    (two bridges); every other guess is right: the i-th holder names the next holder's tile."""
    g = Table(6, "standard", start=0)
    scores = [1] * 6
    for rnd in range(1, 7):
        for t in range(6):
            if g.state.to_draw:
                g.story(t)
            if rnd < 3:
                continue
            k = len(g.state.recall_tiles)
            others = [(t + i) % 6 for i in range(1, 6)]
            if rnd == 3 and t == 0:
                g.recall(0, "1W 2W 3W 4W 5W", (1, 0, 0, 0, 0, 0))
                assert g.state.recalls[-1].bridges == ((1, 4), (2, 5))
                scores = [1, 0, 0, 0, 0, 0]
                continue
            holders = others[:k]
            script = " ".join(f"{h}R{holders[(i + 1) % k]}" for i, h in enumerate(holders))
            for h in holders:
                scores[h] += 1
            scores[t] += 1
            g.recall(t, script, tuple(scores))
        if rnd < 6:
            g.next_round()
    s = g.state
    assert s.outcome is not None and s.scores == (19, 18, 18, 18, 19, 19)
    assert s.stops == (3, 4, 4, 4, 4, 4)
    assert s.outcome.winners == (4, 5)  # Ann has 19 too, but one stop tile fewer
