"""Bets and checks by camera: the ring's reports become the engine's bets and check starts, or
conflicts named for the host; both the camera's and the host's entries are journalled."""

from __future__ import annotations

from typing import Any

from test_sm_referee import start

from engine.core import Source
from engine.something_missing import (
    Bet,
    BetSeen,
    BuzzWon,
    CheckResult,
    PassPressed,
    Phase,
    SceneTurnedUp,
    State,
)
from tablekeeper.clock import FakeClock
from tablekeeper.games.something_missing.camera import RingReport
from tablekeeper.games.something_missing.table import Table, table_of
from tablekeeper.journal import read, replay
from tablekeeper.referee import CardSeen, Referee

MS = 1_000_000


def _betting(referee: Referee, clock: FakeClock, players: int = 4, taker: int = 1) -> Table:
    """A game of ``players`` (red, yellow, blue, green ...), a card up, ``taker`` buzzed."""
    start(referee, clock, players)
    referee.card_seen(CardSeen("i05", clock.now_ns()))
    clock.advance_ms(500)
    referee.submit(BuzzWon(at_ms=referee.at_ms(clock.now_ns()), seat=taker))
    assert referee.state.phase is Phase.BET and referee.state.to_act == taker
    return table_of(referee)


def _token(referee: Referee, clock: FakeClock, colour: str | None, pos: int, slot: int,
           *, tick: bool = True) -> None:
    clock.advance_ms(700)
    referee.card_seen(RingReport(f"ring:memory{pos + 1}.{slot}", clock.now_ns(), position=pos,
                                 slot=slot, face="up", marker=colour))
    if tick:
        referee.tick(clock.now_ns())


def _events(referee: Referee) -> list[Any]:
    return [r.event for r in read(referee.game.journal.path).active() if r.event is not None]


def test_a_token_in_turn_in_the_next_slot_is_that_colours_bet(referee: Referee,
                                                              clock: FakeClock) -> None:
    table = _betting(referee, clock)
    assert not table.watching(referee.state)  # no ring read: bets are the host's
    _token(referee, clock, "yellow", 2, 1)  # the taker (seat 1, yellow) on scene C
    assert table.ring  # the camera reads the ring: it is watched while bets are placed
    state: State = referee.state
    assert state.bet_of(1) is not None and state.bet_of(1).position == 2  # type: ignore[union-attr]
    assert state.to_act == 2 and table.note is None
    _token(referee, clock, "blue", 2, 2)  # seat 2 next, slot 2 of the same card
    assert referee.state.bets[-1].slot == 2
    ev = _events(referee)
    assert [type(e) for e in ev[-2:]] == [BetSeen, BetSeen]
    assert ev[-1].source is Source.CAMERA


def test_conflicts_are_named_never_guessed(referee: Referee, clock: FakeClock) -> None:
    table = _betting(referee, clock)
    bets = len(_events(referee))
    _token(referee, clock, "unknown", 0, 1)
    assert table.note is not None and table.note.code == "unknown_token"
    _token(referee, clock, "purple", 1, 1)  # no player has purple: it cannot be named either
    assert table.note is not None and table.note.code == "unknown_token"
    _token(referee, clock, "yellow", 3, 2)  # the taker's token, but slot 2 of an empty card
    assert table.note is not None and table.note.code == "wrong_slot"
    # two tokens in the same poll
    _token(referee, clock, "blue", 0, 2, tick=False)
    _token(referee, clock, "green", 1, 2, tick=False)
    referee.tick(clock.now_ns())
    assert table.note is not None and table.note.code == "two_at_once"
    assert len(_events(referee)) == bets  # nothing played
    assert "en" in table.note.__dataclass_fields__ and table.note.zh


def test_a_token_out_of_turn_waits_for_its_turn(referee: Referee, clock: FakeClock,
                                                factory: Any, firmware: Any) -> None:
    table = _betting(referee, clock)  # seat 1 (yellow) must bet, then 2, 3, 0
    _token(referee, clock, "yellow", 0, 1)
    _token(referee, clock, "red", 1, 1)  # seat 0 lays before seat 2 and 3 decided
    assert table.note is not None and table.note.code == "out_of_turn"
    assert referee.state.bet_of(0) is None
    # seats 2 and 3 pass with their own seat buttons (1-based pins)
    for seat in (3, 4):
        clock.advance_ms(300)
        table.seat_edge(seat, True, clock.now_ns())
    state = referee.state
    assert state.passed == (2, 3)
    referee.tick(clock.now_ns())  # the waiting token is played now that it is its turn
    assert referee.state.bet_of(0) is not None
    types = [type(e) for e in _events(referee)]
    assert types.count(PassPressed) == 2 and types.count(BetSeen) == 2


def test_a_colour_that_already_bet_elsewhere_is_a_conflict_the_same_bet_is_not(
        referee: Referee, clock: FakeClock) -> None:
    table = _betting(referee, clock)
    referee.submit(Bet(at_ms=referee.at_ms(clock.now_ns()), seat=1, position=0))  # by hand
    _token(referee, clock, "yellow", 0, 1)  # the camera then sees that token: nothing to do
    assert table.note is None and len(referee.state.bets) == 1
    _token(referee, clock, "yellow", 3, 1)  # and another yellow on D: already bet
    assert table.note is not None and table.note.code == "already_bet"


def test_scene_turned_up_starts_its_check_out_of_order_is_named(referee: Referee,
                                                                clock: FakeClock) -> None:
    table = _betting(referee, clock, players=3, taker=0)
    _token(referee, clock, "red", 1, 1)
    _token(referee, clock, "yellow", 3, 1)
    _token(referee, clock, "blue", 3, 2)
    state = referee.state
    assert state.phase is Phase.CHECK and state.check is not None
    assert state.check.position == 3 and state.check.deadline_ms is None  # most tokens first
    clock.advance_ms(900)
    referee.card_seen(RingReport("ring:scene2", clock.now_ns(), position=1, slot=0, face="up"))
    assert table.note is not None and table.note.code == "out_of_order"
    assert "B" in table.note.en and "D" in table.note.en
    assert referee.state.check is not None and referee.state.check.deadline_ms is None
    referee.card_seen(RingReport("ring:scene4", clock.now_ns(), position=3, slot=0, face="up"))
    check = referee.state.check
    assert check is not None and check.deadline_ms == referee.at_ms(clock.now_ns()) + 30_000
    referee.submit(CheckResult(at_ms=referee.at_ms(clock.now_ns()), position=3, found=True))
    events = _events(referee)
    assert sum(isinstance(e, SceneTurnedUp) for e in events) == 1
    # the journal replays to the same scores
    final = replay(referee.game.journal.path)
    assert final.scores == referee.state.scores


def test_a_centre_card_seen_while_bets_are_placed_waits_for_the_reveals(
        referee: Referee, clock: FakeClock) -> None:
    table = _betting(referee, clock)
    table.card_seen(CardSeen("i09", clock.now_ns()))
    assert table.deferred is not None and referee.state.phase is Phase.BET


def _context(tmp_path: Any, *, ring: bool, told: list[str]) -> Any:
    """What the kiosk's camera pipeline gives the kit's watcher: a config with the ring's
    zones (``vision calibrate --layout ring:5`` on the simulated table), or without."""
    from tablekeeper.config import load_config
    from tablekeeper.vision_link import CameraContext, load_items_deck
    from vision.camera import CameraConfig
    from vision.config import VisionConfig, zones_toml
    from vision.simring import SimRing
    from vision.simtable import SimulatedTable

    deck = load_items_deck(None)
    text = (f'[table]\nstate_dir = "{tmp_path / "state"}"\n'
            '[camera]\nsize = [640, 480]\nsim_seed = 3\n')
    if ring:
        laid = SimRing.lay(SimulatedTable(deck, seed=3), 5, seed=3)
        text += "\n" + zones_toml(laid.zones())
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    config = load_config(path)
    import tomllib

    raw = tomllib.loads(text)
    return CameraContext(deck, VisionConfig.from_dict(raw.get("vision", {})),
                         CameraConfig.from_dict(raw["camera"]), config, path, True,
                         ("centre",), told.append)


def test_the_kiosk_reads_the_ring_once_it_and_its_tokens_are_calibrated(tmp_path: Any) -> None:
    from tablekeeper.cli import main
    from tablekeeper.games import load
    from tablekeeper.games.something_missing.camera import RingSight
    from vision.tracker import CardWatcher

    kit = load("something-missing")
    assert kit.watcher is not None
    told: list[str] = []
    # no ring in the config: the centre pile only, as before (nothing to tell)
    assert isinstance(kit.watcher(_context(tmp_path, ring=False, told=told)), CardWatcher)
    assert told == []
    # the ring, but no token colours yet: the centre pile, and the host is told
    context = _context(tmp_path, ring=True, told=told)
    assert isinstance(kit.watcher(context), CardWatcher)
    assert told and "tokens not read" in told[-1] and "tokens.json" in told[-1]
    # a damaged file is told the same way, and nothing is lost
    (tmp_path / "tokens.json").write_text("{not json", encoding="utf-8")
    assert isinstance(kit.watcher(context), CardWatcher) and "damaged" in told[-1]
    # calibrated (calibrate-markers --ring, next to the config): the ring is read
    assert main(["vision", "calibrate-markers", "--ring", "--simulate", "--config",
                 str(tmp_path / "config.toml")]) == 0
    assert isinstance(kit.watcher(context), RingSight)


def test_after_an_undo_the_tokens_reported_again_are_the_bets_again(
        referee: Referee, clock: FakeClock) -> None:
    table = _betting(referee, clock)
    clock.advance_ms(300)
    referee.submit(Bet(at_ms=referee.at_ms(clock.now_ns()), seat=1, position=0))  # by hand
    _token(referee, clock, "yellow", 0, 1)
    _token(referee, clock, "blue", 0, 2)
    _token(referee, clock, "green", 3, 1)
    assert [b.seat for b in referee.state.bets] == [1, 2, 3]
    referee.undo()  # the host's bet, and the camera's after it, are taken back
    assert referee.state.phase is Phase.BET and referee.state.bets == ()
    # the camera reports the ring again, all at once (in any order)
    for colour, pos, slot in (("green", 3, 1), ("yellow", 0, 1), ("blue", 0, 2)):
        _token(referee, clock, colour, pos, slot, tick=False)
    referee.tick(clock.now_ns())
    assert [(b.seat, b.position, b.slot) for b in referee.state.bets] == [
        (1, 0, 1), (2, 0, 2), (3, 3, 1)]
    assert table.note is None
