"""Three complete games of 眨眨眼 Wink, written out event by event, every score checked.

- 3 players (the table dealt 2 cards each): a caught pair ends it; Ann and Ben tie on 6 and
  Ann wins on fewer accusation cards (Ben would have won on fewer hand cards).
- 6 players (5 cards each): a caught seeker takes their marker back; Ben, Dan and Eve tie on
  7, Ben and Eve on 3 accusation cards, and Eve wins on fewer hand cards.
- 8 players (4 cards each), start seat 2: the first empty hand does not end it, the second
  does; a 「我要抓！」 race won by 50 us; Ben wins on score.
"""

from __future__ import annotations

import random

from engine.core import Event, Rejection
from engine.wink import (
    COLOURS,
    ENGINE,
    EVENTS,
    AccusationEntered,
    AccusationWon,
    CellFace,
    CellSeen,
    EndReason,
    GridSeen,
    MarkerPlaced,
    NewGame,
    PartnerNamed,
    Phase,
    Rules,
    State,
    TieBreak,
    initial_state,
)

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


class Table:
    """Plays events at a steadily advancing clock and checks what the engine says."""

    def __init__(self, n: int, start_seat: int = 0, hand_size: int | None = None,
                 seed: int = 1) -> None:
        self.t = 0
        self.events: list[Event] = []
        self.numbers = list(range(1, 37))
        random.Random(seed).shuffle(self.numbers)  # the grid as the camera read it
        self.state = initial_state()
        self.do(NewGame(at_ms=0, names=NAMES[:n], colours=tuple(COLOURS)[:n],
                        start_seat=start_seat, hand_size=hand_size))
        self.do(GridSeen(at_ms=self.tick(), numbers=tuple(self.numbers)))

    def tick(self, ms: int = 1000) -> int:
        self.t += ms
        return self.t

    def do(self, event: Event) -> State:
        result = ENGINE.apply(self.state, event)
        assert not isinstance(result, Rejection), f"{event!r} rejected: {result}"
        self.events.append(event)
        self.state = result
        return result

    def rc(self, number: int) -> tuple[int, int]:
        return divmod(self.numbers.index(number), 6)

    def place(self, seat: int, number: int) -> None:
        assert self.phase() is Phase.PLACE and self.state.active == seat
        self.camera_agrees()
        row, col = self.rc(number)
        self.do(MarkerPlaced(at_ms=self.tick(), colour=self.state.players[seat].colour,
                             row=row, col=col))
        call = self.state.call
        assert call is not None and (call.seat, call.number) == (seat, number)
        self.do(CellSeen(at_ms=self.tick(10), row=row, col=col, face="up", number=number,
                         marker=self.state.players[seat].colour))

    def name(self, seat: int, named: int, right: bool) -> None:
        assert self.phase() is Phase.NAME and self.state.active == seat
        cell = self.state.players[seat].marker
        assert cell is not None
        self.do(PartnerNamed(at_ms=self.tick(), seat=named, right=right))
        if not ENGINE.is_over(self.state):
            assert cell in self.state.unconfirmed
            assert self.state.grid[cell].face is (CellFace.EMPTY if right else CellFace.DOWN)
            self.camera_agrees()

    def camera_agrees(self) -> None:
        """The camera sees every cell a host entry changed as the box expects."""
        for cell in self.state.unconfirmed:
            row, col = divmod(cell, 6)
            seat = self.state.marker_on(cell)
            self.do(CellSeen(at_ms=self.tick(10), row=row, col=col,
                             face=self.state.grid[cell].face.value,
                             marker=None if seat is None else self.state.players[seat].colour))
        assert self.state.unconfirmed == () and self.state.mismatches == ()

    def accuse(self, accuser: int, accused: int, number: int, right: bool,
               margin_us: int = 800) -> None:
        resume = self.state.phase
        self.do(AccusationWon(at_ms=self.tick(), seat=accuser, margin_us=margin_us))
        assert self.phase() is Phase.ACCUSATION and self.state.resume is resume
        self.do(AccusationEntered(at_ms=self.tick(), accused=accused, number=number,
                                  right=right))
        if not ENGINE.is_over(self.state):
            self.camera_agrees()

    def phase(self) -> Phase:
        return self.state.phase

    def check(self, scores: tuple[int, ...], hands: tuple[int, ...],
              accusations: tuple[int, ...]) -> None:
        s = self.state
        assert s.scores == scores
        assert tuple(p.hand for p in s.players) == hands
        assert tuple(p.accusations for p in s.players) == accusations

    def replays(self) -> None:
        rules = Rules.from_dict(Rules().to_dict())
        events = [EVENTS.from_dict(e.to_dict()) for e in self.events]
        assert ENGINE.replay(rules, events) == self.state


def test_three_players_a_tie_decided_by_accusation_cards() -> None:
    g = Table(3, hand_size=2)  # Ann, Ben, Cat: 2 cards, 4 accusation cards each
    g.check((4, 4, 4), (2, 2, 2), (4, 4, 4))
    g.place(0, 5)
    g.place(1, 6)
    g.place(2, 7)
    g.name(0, named=1, right=True)  # Ben held 5: 5 and 5 to Ann's and Ben's areas
    g.check((5, 5, 4), (2, 1, 2), (4, 4, 4))
    g.place(0, 8)
    g.accuse(2, accused=1, number=8, right=False)  # Cat: "Ben is Ann's 8!" -- no
    g.check((5, 5, 3), (2, 1, 2), (4, 4, 3))
    assert g.phase() is Phase.NAME and g.state.active == 1
    g.name(1, named=2, right=True)  # Cat held 6
    g.check((5, 6, 4), (2, 1, 1), (4, 4, 3))
    g.place(1, 9)
    g.name(2, named=0, right=False)  # Ann does not hold 7: 7 turned down
    assert g.state.grid[g.numbers.index(7)].face is CellFace.DOWN
    g.check((5, 6, 4), (2, 1, 1), (4, 4, 3))
    g.place(2, 10)
    assert g.state.active == 0 and g.state.phase is Phase.NAME
    g.accuse(0, accused=1, number=10, right=True)  # Ann catches Ben, Cat's partner for 10
    # Ben's hand is empty: the game ends at once (3 players: one empty hand)
    s = g.state
    assert s.phase is Phase.OVER and s.outcome is not None
    assert s.outcome.reason is EndReason.HANDS_EMPTY
    g.check((6, 6, 4), (2, 0, 1), (3, 4, 3))
    assert [a.number for a in s.players[0].area] == [5, 10, 10]
    assert s.outcome.winners == (0,) and s.tie_break is TieBreak.ACCUSATION_CARDS
    assert s.players[2].marker == g.numbers.index(10)  # Cat's caught marker stayed
    g.replays()


def test_six_players_a_tie_decided_by_hand_cards() -> None:
    g = Table(6, seed=6)  # 5 cards each, 6 cards left out
    assert g.state.removed == 6
    for seat, number in enumerate((1, 2, 3, 4, 5, 6)):
        g.place(seat, number)
    g.check((4,) * 6, (5,) * 6, (4,) * 6)
    g.name(0, named=3, right=True)  # turn 7: Dan held 1
    g.place(0, 7)
    g.name(1, named=3, right=True)  # turn 8: Dan held 2
    g.place(1, 8)
    g.name(2, named=4, right=False)  # turn 9: 3 turned down
    g.place(2, 9)
    g.name(3, named=0, right=False)  # turn 10: 4 turned down
    g.place(3, 10)
    g.check((5, 5, 4, 6, 4, 4), (5, 5, 5, 3, 5, 5), (4,) * 6)
    g.accuse(5, accused=3, number=9, right=True)  # in Eve's turn: Fay catches Dan, Cat's 9
    assert g.phase() is Phase.NAME and g.state.active == 4
    g.check((5, 5, 4, 6, 4, 5), (5, 5, 5, 2, 5, 5), (4, 4, 4, 4, 4, 3))
    g.name(4, named=5, right=True)  # turn 11: Fay held 5
    g.place(4, 11)
    g.name(5, named=1, right=False)  # turn 12: 6 turned down
    g.place(5, 12)
    g.name(0, named=3, right=False)  # turn 13: 7 turned down
    g.place(0, 13)
    g.check((5, 5, 4, 6, 5, 6), (5, 5, 5, 2, 5, 4), (4, 4, 4, 4, 4, 3))
    g.accuse(4, accused=3, number=13, right=True)  # in Ben's turn: Eve catches Dan, Ann's 13
    g.name(1, named=2, right=True)  # turn 14: Cat held 8
    g.place(1, 14)
    assert g.state.active == 2 and g.state.phase is Phase.PLACE  # Cat's pair was caught
    assert g.state.players[2].marker is None
    g.place(2, 15)
    g.name(3, named=4, right=True)  # turn 16: Eve held 10
    g.place(3, 16)
    g.check((5, 6, 5, 7, 7, 6), (5, 5, 4, 1, 4, 4), (4, 4, 4, 4, 3, 3))
    g.name(4, named=1, right=False)  # turn 17: 11 turned down
    g.place(4, 17)
    g.accuse(1, accused=3, number=17, right=True)  # in Fay's turn: Ben catches Dan, Eve's 17
    s = g.state
    assert s.outcome is not None and s.outcome.reason is EndReason.HANDS_EMPTY
    g.check((5, 7, 5, 7, 7, 6), (5, 5, 4, 0, 4, 4), (4, 3, 4, 4, 3, 3))
    # Ben, Dan and Eve on 7; Ben and Eve have 3 accusation cards; Eve holds 4 cards, Ben 5
    assert s.outcome.winners == (4,) and s.tie_break is TieBreak.HAND_CARDS
    assert s.outcome.scores == (5, 7, 5, 7, 7, 6)
    g.replays()


def test_eight_players_two_empty_hands_end_it() -> None:
    g = Table(8, start_seat=2, seed=8)  # 4 cards each, 4 left out
    for seat, number in ((2, 1), (3, 2)):
        g.place(seat, number)
    # two 「我要抓！」 presses 50 us apart: the arbiter names Ann first
    g.accuse(0, accused=1, number=1, right=True, margin_us=50)  # Ben was Cat's partner
    last = g.state.last_accusation
    assert last is not None and last.margin_us == 50 and last.seeker == 2
    assert g.phase() is Phase.PLACE and g.state.active == 4
    for seat, number in ((4, 3), (5, 4), (6, 5), (7, 6), (0, 7), (1, 8)):
        g.place(seat, number)
    g.check((5, 4, 4, 4, 4, 4, 4, 4), (4, 3, 4, 4, 4, 4, 4, 4), (3, 4, 4, 4, 4, 4, 4, 4))
    assert g.state.active == 2 and g.state.phase is Phase.PLACE  # Cat was caught
    g.place(2, 9)
    g.name(3, named=1, right=True)  # Ben held 2
    g.place(3, 10)
    g.name(4, named=1, right=True)  # Ben held 3
    g.place(4, 11)
    g.name(5, named=0, right=False)  # 4 turned down
    g.place(5, 12)
    g.name(6, named=1, right=True)  # Ben held 5: his hand is empty, but 8 players need two
    assert g.phase() is Phase.PLACE and g.state.empty_hands == 1
    g.place(6, 13)
    g.check((5, 7, 4, 5, 5, 4, 5, 4), (4, 0, 4, 4, 4, 4, 4, 4), (3, 4, 4, 4, 4, 4, 4, 4))
    g.name(7, named=2, right=True)  # Cat held 6
    g.place(7, 14)
    g.accuse(1, accused=2, number=14, right=True)  # empty-handed Ben catches Cat, Hal's 14
    g.name(0, named=2, right=True)  # Cat held 7
    g.place(0, 15)
    g.check((6, 8, 6, 5, 5, 4, 5, 5), (4, 0, 1, 4, 4, 4, 4, 4), (3, 3, 4, 4, 4, 4, 4, 4))
    g.name(1, named=0, right=False)  # 8 turned down
    g.place(1, 16)
    g.name(2, named=3, right=False)  # 9 turned down
    g.place(2, 17)
    g.name(3, named=2, right=True)  # Cat held 10: the second empty hand
    s = g.state
    assert s.outcome is not None and s.outcome.reason is EndReason.HANDS_EMPTY
    g.check((6, 8, 7, 6, 5, 4, 5, 5), (4, 0, 0, 4, 4, 4, 4, 4), (3, 3, 4, 4, 4, 4, 4, 4))
    assert s.outcome.winners == (1,) and s.tie_break is TieBreak.SCORE
    assert len(s.namings) == 9 and len(s.accusations) == 2
    g.replays()
