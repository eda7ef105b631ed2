"""Random playouts through the referee and the 驢橋 table adapter: simulated tables, with the
host's undo now and then and a host choice that means nothing; the journal always replays to
the state, piles are never negative, every refusal says why, and the game ends."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine import eselsbruecke as eb
from engine.core import Rejection
from firmware.box import build
from firmware.config import FirmwareConfig
from firmware.mock import mock_factory
from tablekeeper.clock import FakeClock
from tablekeeper.games import load
from tablekeeper.games.eselsbruecke import host
from tablekeeper.games.eselsbruecke.simplayers import SimTable
from tablekeeper.journal import JournaledGame, replay
from tablekeeper.referee import CardSeen, Referee


class Quiet:
    def hourglass_end(self) -> bool:
        return False


NAMES = ("story_told", "dealt", "answered", "right", "wrong", "next_round", "withdraw",
         "tile_entered", "nonsense")


@settings(max_examples=12, deadline=None)
# six seats and undos: the simulated bag ran dry while the engine's still held tiles (undone
# draws and unnamed tiles went back to the engine's bag, never to the simulation's)
@example(seed=0, players=6, side="advanced", undo_rate=0.125)
@given(seed=st.integers(0, 10_000), players=st.integers(3, 6),
       side=st.sampled_from(["standard", "advanced"]), undo_rate=st.floats(0, 0.15))
def test_random_tables_through_the_referee(seed: int, players: int, side: str,
                                           undo_rate: float) -> None:
    rng = random.Random(seed)
    clock = FakeClock()
    firmware = build(FirmwareConfig.from_dict({"backend": "gpio", "sound": {"kind": "none"}}),
                     mock_factory(), rng=random.Random(1), clock=clock.now_ns)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "g.jsonl"
        referee = Referee(JournaledGame.create(path, game=eb.GAME_NAME), firmware,
                          clock.now_ns(), kit=load("eselsbruecke"), sounds=Quiet())
        sim = SimTable.generate(rng, players, side)
        for _ in range(5_000):
            state: eb.State = referee.state
            if eb.is_over(state):
                break
            clock.advance_ms(rng.randint(50, 3_000))
            if state.phase is not eb.Phase.SETUP and rng.random() < undo_rate:
                referee.undo()
                continue
            if rng.random() < 0.1:  # a host choice at random: accepted, or refused with a why
                name = rng.choice(NAMES)
                event = host.event_for(state, name, rng.randrange(players), state.now_ms)
                if event is not None:
                    result = referee.submit(event)
                    assert not isinstance(result, Rejection) or result.reason
                continue
            event = sim.propose(state)
            if isinstance(event, eb.TileSeen):
                result = referee.card_seen(CardSeen(event.tile, clock.now_ns()))
            else:
                fields = {**event.__dict__, "at_ms": max(event.at_ms, referee.at_ms(
                    clock.now_ns()))}
                if isinstance(event, eb.AnswerTimeUp):
                    fields["at_ms"] = event.at_ms
                result = referee.submit(type(event)(**fields))
            assert not isinstance(result, Rejection) or result.reason
            after: eb.State = referee.state
            assert all(s.score >= 0 and s.held >= 0 for s in after.seats)
        assert eb.is_over(referee.state)
        assert replay(JournaledGame.open(path).journal.contents()) == referee.state
        firmware.close()
