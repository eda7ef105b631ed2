"""Written-out games of 致命遊戲 The Game, move by move, with every count asserted:
a 1-player (solitaire) super win, a 3-player game lost on "I cannot play", a 5-player game
with a host entry, a refused play and a house rule, an expert game, and a 5-player game the
box dealt, played to its end by a greedy player."""

from __future__ import annotations

from test_the_game_rules import dealt, new_game, ok, rejected

from engine.core import Event, Rejection
from engine.the_game import (
    ENGINE,
    EVENTS,
    CannotPlay,
    CardEntered,
    CardPlayed,
    EndReason,
    HouseRulePlay,
    Phase,
    State,
    TurnEnded,
    Verdict,
    apply,
    initial_state,
    playable,
    summary,
    verdict,
)


class Table:
    """A game in progress, its clock ticking 1 s per event; every event is kept for replay."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.t = state.now_ms
        self.events: list[Event] = [new_game(state.n_players, state.variant.value, state.start_seat,
                                hands=state.hands, draw_pile=state.draw_pile)]

    def tick(self) -> int:
        self.t += 1000
        return self.t

    def play(self, *moves: tuple[int, int]) -> None:
        for row, card in moves:
            ev = CardPlayed(at_ms=self.tick(), row=row, card=card)
            self.state = ok(self.state, ev)
            self.events.append(ev)

    def send(self, ev: CardEntered | HouseRulePlay | TurnEnded | CannotPlay) -> None:
        self.state = ok(self.state, ev)
        self.events.append(ev)

    def done(self) -> None:
        assert self.state.to_act is not None
        self.send(TurnEnded(at_ms=self.tick(), seat=self.state.to_act))

    def counts(self) -> tuple[tuple[int, ...], int]:
        return self.state.hand_counts, self.state.draw_count

    def replayed(self) -> State:
        events = [EVENTS.from_dict(e.to_dict()) for e in self.events]
        return ENGINE.replay(self.state.rules, events)


def test_solitaire_plays_all_98_super_winners() -> None:
    """1 player, 8 cards, the pile in ascending order: play out the hand every turn."""
    table = Table(dealt([range(2, 10)]))
    assert table.counts() == ((8,), 90)
    for turn in range(1, 13):
        base = 2 + 8 * (turn - 1)
        assert table.state.turn == turn and table.state.hands is not None
        assert table.state.hands[0] == tuple(range(base, base + 8))
        # the first four up row 0, the next four up row 1: all legal
        table.play(*((0, c) for c in range(base, base + 4)),
                   *((1, c) for c in range(base + 4, base + 8)))
        # the hand is played out: the turn ends by itself and draws up while the pile lasts
        draw = max(0, 90 - 8 * turn)
        assert table.counts() == ((min(8, 90 - 8 * (turn - 1)),), draw), turn
    assert table.counts() == ((2,), 0) and table.state.min_to_play == 1
    table.play((0, 98), (1, 99))
    st = table.state
    assert st.phase is Phase.OVER and st.cards_left == 0 and len(st.played) == 98
    assert st.outcome is not None and st.outcome.reason is EndReason.ALL_PLAYED
    assert st.outcome.winners == (0,) and st.outcome.scores == (0,)
    assert verdict(st) is Verdict.SUPER_WIN and summary(st)["outcome"]["suggest_expert"]
    assert table.replayed() == st


def test_three_players_lose_when_one_cannot_play() -> None:
    table = Table(ok(initial_state(), new_game(3, start_seat=1)))
    assert table.counts() == ((6, 6, 6), 80) and table.state.to_act == 1
    # turn 1, Ben: two up, one down
    table.play((0, 5), (0, 9), (2, 95))
    assert table.counts() == ((6, 3, 6), 80)
    table.done()
    assert table.counts() == ((6, 6, 6), 77) and table.state.to_act == 2
    # turn 2, Cat: the camera sees 3 on ↑9: refused, the card is taken back
    rej = rejected(table.state, CardPlayed(at_ms=table.tick(), row=0, card=3), "illegal_play")
    assert rej.reason == "3 cannot go on ↑9"
    table.play((1, 20), (3, 70))
    table.done()
    assert table.counts() == ((6, 6, 6), 75) and table.state.to_act == 0
    # turn 3, Ann: a 10-back on ↓70 and one up row 1
    table.play((3, 80), (1, 30))
    assert table.state.tops == (9, 30, 95, 80) and table.state.plays[-2].backward
    table.done()
    assert table.counts() == ((6, 6, 6), 73) and table.state.to_act == 1
    # turn 4, Ben: one card, then he cannot play a second
    table.play((2, 50))
    rejected(table.state, TurnEnded(at_ms=table.tick(), seat=1), "below_minimum")
    rejected(table.state, CannotPlay(at_ms=table.tick(), seat=0), "not_your_turn")
    table.send(CannotPlay(at_ms=table.tick(), seat=1))
    st = table.state
    assert table.counts() == ((6, 5, 6), 73) and st.cards_left == 90 and len(st.played) == 8
    assert st.outcome is not None and st.outcome.reason is EndReason.CANNOT_PLAY
    assert st.outcome.winners == () and st.outcome.scores == (90, 90, 90)
    assert verdict(st) is Verdict.LOSS
    assert summary(st)["outcome"]["cards_left"] == 90
    assert table.replayed() == st


def test_five_players_with_a_host_entry_and_a_house_rule() -> None:
    table = Table(ok(initial_state(), new_game(5)))
    assert table.counts() == ((6,) * 5, 68)
    table.play((0, 10), (2, 90))
    table.done()
    # seat 1: the camera is down, the host enters both plays
    table.send(CardEntered(at_ms=table.tick(), row=1, card=12, seat=1))
    table.send(CardEntered(at_ms=table.tick(), row=3, card=88, seat=1))
    table.done()
    assert table.counts() == ((6,) * 5, 64)
    # seat 2: 8 on ↑10 is refused; the host allows it as a house rule
    rejected(table.state, CardPlayed(at_ms=table.tick(), row=0, card=8), "illegal_play")
    table.send(HouseRulePlay(at_ms=table.tick(), row=0, card=8))
    table.play((0, 15))
    assert table.state.plays[-2].house_rule and table.state.played_this_turn == 2
    table.done()
    assert table.counts() == ((6,) * 5, 62) and table.state.tops == (15, 12, 90, 88)
    # seat 3 and seat 4 play two each
    table.play((1, 40), (1, 41))
    table.done()
    table.play((2, 60), (3, 61))
    table.done()
    assert table.counts() == ((6,) * 5, 58) and table.state.to_act == 0
    assert table.state.turn == 6
    table.play((0, 16))
    table.send(CannotPlay(at_ms=table.tick(), seat=0))
    st = table.state
    assert st.cards_left == 58 + 29 and summary(st)["house_rule_plays"] == 1
    assert st.outcome is not None and st.outcome.reason is EndReason.CANNOT_PLAY
    assert verdict(st) is Verdict.LOSS
    assert table.replayed() == st


def test_expert_game_needs_three_cards_a_turn() -> None:
    table = Table(ok(initial_state(), new_game(2, "expert")))
    assert table.counts() == ((7, 7), 84) and table.state.min_to_play == 3
    table.play((0, 30), (0, 31))
    rej = rejected(table.state, TurnEnded(at_ms=table.tick(), seat=0), "below_minimum")
    assert rej.reason == "2 of the 3 cards this turn needs played"
    table.play((2, 77))
    table.done()
    assert table.counts() == ((7, 7), 81)
    table.play((1, 2), (1, 3), (0, 21), (0, 40))  # 21 is 10 back from 31
    table.done()
    assert table.counts() == ((7, 7), 77) and table.state.tops == (40, 3, 77, 100)
    table.play((3, 99), (3, 98))
    table.send(CannotPlay(at_ms=table.tick(), seat=0))
    st = table.state
    assert table.counts() == ((5, 7), 77) and st.cards_left == 89
    assert verdict(st) is Verdict.LOSS and table.replayed() == st


def greedy(state: State) -> CardPlayed | TurnEnded | CannotPlay:
    """The smallest step first (a 10-back counts as the best); stop at the minimum unless a
    10-back or a step of at most 2 is there."""
    seat = state.to_act
    assert seat is not None
    options = playable(state)
    if not options:
        if state.minimum_met:
            return TurnEnded(at_ms=state.now_ms + 1000, seat=seat)
        return CannotPlay(at_ms=state.now_ms + 1000, seat=seat)

    def gap(option: tuple[int, int]) -> int:
        row, card = option
        return -1 if state.rows[row].is_backward(card, 10) else abs(card - state.rows[row].top)

    best = min(options, key=gap)
    if state.minimum_met and gap(best) > 2:
        return TurnEnded(at_ms=state.now_ms + 1000, seat=seat)
    return CardPlayed(at_ms=state.now_ms + 1000, row=best[0], card=best[1], seat=seat)


def test_five_players_dealt_game_to_its_end() -> None:
    """A deal from a fixed permutation, played by the greedy player: at every turn's end the
    player holds 6 cards while the pile lasts, then the pile is empty and the hands shrink."""
    perm = [(37 * i) % 97 + 2 for i in range(97)] + [99]
    assert sorted(perm) == list(range(2, 100))
    state = dealt([perm[6 * s: 6 * s + 6] for s in range(5)], pile=perm[30:])
    events: list[Event] = [new_game(5, hands=state.hands, draw_pile=state.draw_pile)]
    for _ in range(500):
        if state.phase is Phase.OVER:
            break
        ev = greedy(state)
        seat, before = state.to_act, state.draw_count
        nxt = apply(state, ev)
        assert not isinstance(nxt, Rejection), nxt
        events.append(ev)
        if isinstance(ev, TurnEnded) and nxt.phase is Phase.PLAY:
            assert seat is not None
            drawn = before - nxt.draw_count
            assert nxt.hand_counts[seat] == state.hand_counts[seat] + drawn
            assert drawn == min(before, 6 - state.hand_counts[seat])
            assert nxt.players[nxt.to_act or 0].hand_count > 0
        state = nxt
        assert state.cards_left + len(state.played) == 98
    assert state.phase is Phase.OVER and state.outcome is not None
    assert state.outcome.scores == (state.cards_left,) * 5
    assert (state.outcome.winners == tuple(range(5))) == (state.cards_left < 10)
    assert ENGINE.replay(state.rules, events) == state
