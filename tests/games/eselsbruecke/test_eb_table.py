"""驢橋 at the table: camera tiles, the guesser's seat button, the answer clock and its sound,
host entries, undo and the camera offering its tiles again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine import eselsbruecke as eb
from engine.core import Rejection
from firmware.box import Firmware
from tablekeeper.app import Loop
from tablekeeper.clock import FakeClock
from tablekeeper.games import load
from tablekeeper.games.eselsbruecke import host, keyword_ids
from tablekeeper.games.eselsbruecke.table import Table, table_of
from tablekeeper.journal import JournaledGame, replay
from tablekeeper.referee import CardSeen, Referee

MS = 1_000_000


class FakeSounds:
    def __init__(self) -> None:
        self.played: list[str] = []

    def hourglass_end(self) -> bool:
        self.played.append("hourglass_end")
        return False


@pytest.fixture
def eb_referee(tmp_path: Path, firmware: Firmware, clock: FakeClock) -> Referee:
    game = JournaledGame.create(tmp_path / "game.jsonl", game=eb.GAME_NAME)
    return Referee(game, firmware, clock.now_ns(), kit=load("eselsbruecke"), game_id="t",
                   sounds=FakeSounds())


def start(referee: Referee, clock: FakeClock, players: int = 4) -> eb.State:
    names = ["A", "B", "C", "D", "E", "F"][:players]
    colours = list(eb.COLOURS)[:players]
    result = referee.submit(host.new_game(names, colours, "standard", 0,
                                          referee.at_ms(clock.now_ns())))
    assert isinstance(result, eb.State) and result.phase is eb.Phase.STORY
    return result


def lay(referee: Referee, clock: FakeClock, tiles: list[str]) -> None:
    for tile in tiles:
        clock.advance_ms(1_500)
        result = referee.card_seen(CardSeen(tile, clock.now_ns()))
        assert isinstance(result, eb.State), result


def host_do(referee: Referee, clock: FakeClock, name: str, arg: Any = None) -> Any:
    clock.advance_ms(1_000)
    event = host.event_for(referee.state, name, arg, referee.at_ms(clock.now_ns()))
    assert event is not None, (name, referee.state.phase)
    return referee.submit(event)


def to_first_recall(referee: Referee, clock: FakeClock) -> eb.State:
    """Rounds 1 and 2 told (3 tiles each, 4 seats), round 3's first story told, dealt."""
    start(referee, clock)
    k = 1
    for _ in range(2):
        for _ in range(4):
            lay(referee, clock, [f"k{k:03d}", f"k{k + 1:03d}", f"k{k + 2:03d}"])
            k += 3
            host_do(referee, clock, "story_told")
        host_do(referee, clock, "next_round")
    lay(referee, clock, [f"k{k + i:03d}" for i in range(4)])
    host_do(referee, clock, "story_told")
    assert referee.state.phase is eb.Phase.DEAL
    state = host_do(referee, clock, "dealt")
    assert isinstance(state, eb.State) and state.phase is eb.Phase.GUESS
    return state


# --- the camera --------------------------------------------------------------------------


def test_a_tile_the_camera_sees_goes_into_the_story(eb_referee: Referee,
                                                    clock: FakeClock) -> None:
    start(eb_referee, clock)
    lay(eb_referee, clock, ["k017", "k099"])
    state: eb.State = eb_referee.state
    assert state.laid == ("k017", "k099")
    events = [e for e in replay_events(eb_referee)]
    assert [type(e) for e in events[1:]] == [eb.TileSeen, eb.TileSeen]


def replay_events(referee: Referee) -> list[Any]:
    return [rec.event for rec in referee.game.journal.contents().active()]


def test_a_stop_tile_or_a_foreign_card_is_not_a_keyword(eb_referee: Referee,
                                                        clock: FakeClock) -> None:
    start(eb_referee, clock)
    for card in ("stop", "i05", "foreign-3"):
        result = eb_referee.card_seen(CardSeen(card, clock.now_ns()))
        assert isinstance(result, Rejection) and result.code == "not_a_keyword"
    assert eb_referee.state.laid == ()


def test_tiles_count_only_while_a_story_is_laid(eb_referee: Referee, clock: FakeClock) -> None:
    table = table_of(eb_referee)
    start(eb_referee, clock)
    lay(eb_referee, clock, ["k001", "k002", "k003"])
    assert not table.watching(eb_referee.state)  # the story has its three tiles
    result = eb_referee.card_seen(CardSeen("k004", clock.now_ns()))
    assert isinstance(result, Rejection) and result.code == "story_full"
    again = eb_referee.card_seen(CardSeen("k002", clock.now_ns()))
    assert isinstance(again, Rejection) and again.code == "tile_already_laid"
    host_do(eb_referee, clock, "story_told")
    # a tile of a story already told, still in view as the next one is laid: refused
    seen = eb_referee.card_seen(CardSeen("k001", clock.now_ns()))
    assert isinstance(seen, Rejection) and seen.code == "tile_already_played"


def test_the_host_corrects_a_misread_and_enters_a_tile_by_hand(eb_referee: Referee,
                                                               clock: FakeClock) -> None:
    start(eb_referee, clock)
    lay(eb_referee, clock, ["k050"])
    host_do(eb_referee, clock, "withdraw", "k050")
    host_do(eb_referee, clock, "tile_entered")
    host_do(eb_referee, clock, "tile_entered", "k051")
    lay(eb_referee, clock, ["k050"])  # read again: the bag has it back
    assert eb_referee.state.laid == (eb.UNKNOWN, "k051", "k050")
    host_do(eb_referee, clock, "story_told")
    assert eb_referee.state.seats[0].slots == ((eb.UNKNOWN, "k051", "k050"),)


def test_keyword_ids_leave_the_stop_tile_out(demo_decks: Any) -> None:
    deck = demo_decks("eselsbruecke")
    ids = keyword_ids(deck)
    assert len(ids) == 180 and "stop" not in ids and "k001" in ids


# --- the answer clock, the seat button, the sound ----------------------------------------


def test_the_guessers_button_says_i_have_answered(eb_referee: Referee, clock: FakeClock,
                                                  firmware: Firmware, factory: Any) -> None:
    state = to_first_recall(eb_referee, clock)
    guesser = state.to_act
    assert guesser is not None and state.deadline_ms is not None
    pins = [factory.pin(p) for p in firmware.config.pins.seats]
    other = (guesser + 1) % 4
    # another seat's button does nothing: the arbiter is armed for the guesser only
    t = clock.now_ns() + 2_000 * MS
    clock.advance_ms(2_100)
    pins[other].press(t)
    eb_referee.tick(clock.now_ns())
    clock.advance_ms(100)
    pins[other].release(clock.now_ns())
    eb_referee.tick(clock.now_ns())
    assert not eb_referee.state.answered
    t = clock.now_ns() + 1_000 * MS
    clock.advance_ms(1_100)
    pins[guesser].press(t)
    clock.advance_ms(60)
    eb_referee.tick(clock.now_ns())
    state = eb_referee.state
    assert state.answered and state.deadline_ms is None and state.to_act == guesser
    # the clock has stopped: 15 s later there is no time-up
    clock.advance_ms(20_000)
    eb_referee.tick(clock.now_ns())
    assert eb_referee.state.answered and not eb_referee.state.seats[guesser].out
    holder = next(i for i, s in enumerate(state.seats) if s.held and i != guesser)
    after = host_do(eb_referee, clock, "right", holder)
    assert isinstance(after, eb.State)
    assert after.seats[guesser].face_up == (eb.UNKNOWN,)


def test_time_up_puts_the_guesser_out_with_a_sound(eb_referee: Referee,
                                                   clock: FakeClock) -> None:
    state = to_first_recall(eb_referee, clock)
    guesser = state.to_act
    assert guesser is not None and state.deadline_ms is not None
    table = table_of(eb_referee)
    assert isinstance(table, Table)
    clock.advance_ms(14_900)
    eb_referee.tick(clock.now_ns())
    assert eb_referee.state.to_act == guesser and table.time_ups == 0
    clock.advance_ms(200)
    eb_referee.tick(clock.now_ns())
    after = eb_referee.state
    assert after.seats[guesser].out and after.to_act != guesser
    assert isinstance(replay_events(eb_referee)[-1], eb.AnswerTimeUp)
    assert table.time_ups == 1 and table.sounds.played == ["hourglass_end"]
    # the next guesser's clock runs from the time-up: their button is armed
    assert eb_referee.firmware.arbiter.armed_ns is not None


def test_a_wrong_answer_is_the_hosts(eb_referee: Referee, clock: FakeClock) -> None:
    state = to_first_recall(eb_referee, clock)
    guesser = state.to_act
    assert guesser is not None
    host_do(eb_referee, clock, "answered")
    after = host_do(eb_referee, clock, "wrong")
    assert isinstance(after, eb.State) and after.seats[guesser].out


# --- undo --------------------------------------------------------------------------------


def test_undo_of_a_judgement_rearms_the_guessers_button(eb_referee: Referee,
                                                        clock: FakeClock) -> None:
    state = to_first_recall(eb_referee, clock)
    guesser = state.to_act
    host_do(eb_referee, clock, "wrong")
    assert eb_referee.state.to_act != guesser
    eb_referee.undo()
    assert eb_referee.state.to_act == guesser and not eb_referee.state.answered
    assert eb_referee.firmware.arbiter.armed_ns is not None


def test_undo_then_the_camera_offers_its_tiles_again(eb_referee: Referee, clock: FakeClock,
                                                     demo_decks: Any) -> None:
    """A tile seen after a host entry goes with that entry's undo; the camera, still seeing
    it, offers it again and it is taken again."""
    from tablekeeper.vision_link import WatchedCamera
    from vision.simtable import SimulatedTable
    from vision.tracker import CardWatcher

    deck = demo_decks("eselsbruecke")
    table = SimulatedTable(deck, seed=3, clock=clock.now_ns)
    cards = WatchedCamera(table, CardWatcher(deck))
    loop = Loop(eb_referee, clock, cards=cards)
    start(eb_referee, clock)
    host_do(eb_referee, clock, "tile_entered")  # the first tile, by hand

    def settle(until: Any) -> None:
        for _ in range(120):
            loop.step()
            clock.advance_ms(33)
            if until():
                return
        raise AssertionError(f"not recognised: {eb_referee.state.laid}")

    table.place("k042", table.grid_pose(1, 1, rows=3, cols=5))
    settle(lambda: len(eb_referee.state.laid) == 2)
    assert eb_referee.state.laid == (eb.UNKNOWN, "k042")
    eb_referee.undo()  # takes back the tile by hand, and the camera's tile after it
    assert eb_referee.state.laid == ()
    settle(lambda: eb_referee.state.laid == ("k042",))
    cards.close()


def test_a_journal_of_the_table_replays_to_the_same_state(eb_referee: Referee,
                                                          clock: FakeClock) -> None:
    to_first_recall(eb_referee, clock)
    host_do(eb_referee, clock, "wrong")
    path = eb_referee.game.journal.path
    assert replay(JournaledGame.open(path).journal.contents()) == eb_referee.state


# --- host entries ------------------------------------------------------------------------


def test_host_choices_mean_nothing_out_of_their_phase() -> None:
    state = eb.initial_state()
    for name in ("story_told", "dealt", "right", "wrong", "answered", "next_round"):
        assert host.event_for(state, name, 1, 0) is None
    with pytest.raises(ValueError, match="unknown variant"):
        host.new_game(["A", "B", "C"], ["red", "blue", "green"], "easy", 0, 0)


def test_a_right_guess_needs_a_seat_not_a_flag(eb_referee: Referee, clock: FakeClock) -> None:
    to_first_recall(eb_referee, clock)
    assert host.event_for(eb_referee.state, "right", True, 0) is None
    assert host.event_for(eb_referee.state, "right", "2", 0) is None


def test_a_game_resumed_mid_guess_arms_the_guessers_button(eb_referee: Referee,
                                                           clock: FakeClock,
                                                           firmware: Firmware) -> None:
    state = to_first_recall(eb_referee, clock)
    firmware.arbiter.disarm()
    path = eb_referee.game.journal.path
    resumed = Referee(JournaledGame.open(path), firmware, clock.now_ns(),
                      kit=load("eselsbruecke"), sounds=FakeSounds())
    assert resumed.state.to_act == state.to_act
    assert firmware.arbiter.armed_ns is not None
    # the arbiter's race is the guesser's alone
    assert table_of(resumed).watching(resumed.state) is False
