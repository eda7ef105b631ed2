"""Random table playouts through The Game's adapter (hypothesis): camera sightings on any
zone, seat presses short and long, host overrides. Every refusal has a reason and changes
nothing; 98 cards are conserved; the journal replays to the state."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tg_testing import dealt, start, tg_referee

from engine import the_game as tg
from engine.core import Rejection
from firmware.box import build
from firmware.config import FirmwareConfig
from firmware.mock import mock_factory
from tablekeeper.clock import FakeClock
from tablekeeper.games.the_game.table import HOLD_NS
from tablekeeper.journal import replay
from tablekeeper.referee import CardSeen

MS = 1_000_000
ZONES = ("row1", "row2", "row3", "row4", None, "centre")

action = st.one_of(
    st.tuples(st.just("card"), st.integers(1, 100), st.sampled_from(ZONES)),
    st.tuples(st.just("press"), st.integers(1, 3), st.sampled_from([100, 2_500])),
    st.tuples(st.just("house"), st.just(0), st.just(None)),
    st.tuples(st.just("confirm"), st.just(0), st.just(None)),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=st.lists(action, min_size=1, max_size=60), dealt_game=st.booleans(),
       seed=st.integers(0, 50))
def test_random_table_playouts_keep_the_invariants(actions: list[tuple[str, int, object]],
                                                   dealt_game: bool, seed: int) -> None:
    clock = FakeClock()
    config = FirmwareConfig.from_dict({"backend": "gpio", "sound": {"kind": "none"}})
    firmware = build(config, mock_factory(), clock=clock.now_ns)
    with tempfile.TemporaryDirectory() as tmp:
        referee = tg_referee(Path(tmp), firmware, clock)
        sim = dealt(seed, 3)
        table = start(referee, players=3, hands=sim.hands if dealt_game else None,
                      pile=sim.draw_pile if dealt_game else None)
        for kind, n, zone in actions:
            clock.advance_ms(50)
            before = referee.state
            if kind == "card":
                cid = f"n{n:02d}" if 2 <= n <= 99 else "row-up"
                result = table.card_seen(CardSeen(cid, clock.now_ns(),
                                                  zone=zone if isinstance(zone, str) else None))
            elif kind == "press":
                down = clock.now_ns()
                table.seat_edge(n, True, down)
                assert isinstance(zone, int)
                clock.advance_ms(zone)
                table.tick(clock.now_ns())
                table.seat_edge(n, False, clock.now_ns())
                result = referee.state
                if zone * MS >= HOLD_NS and before.phase is tg.Phase.PLAY and \
                        n - 1 == before.to_act:
                    assert table.claim is not None
            elif kind == "house":
                result = table.house_rule(clock.now_ns())
            else:
                result = table.confirm_claim(clock.now_ns())
            if isinstance(result, Rejection):
                assert result.reason and result.code
                assert referee.state is before
            state: tg.State = referee.state
            if state.phase is not tg.Phase.SETUP:
                assert len(state.played) + state.cards_left == 98
                assert len(state.plays) == len(state.played)
            for r in state.rows:
                for a, b in zip((r.start, *r.cards), r.cards, strict=False):
                    up = r.direction is tg.Direction.UP
                    ok = (b > a or b == a - 10) if up else (b < a or b == a + 10)
                    assert ok or any(p.house_rule and p.card == b for p in state.plays)
        assert replay(Path(tmp) / "tg.jsonl") == referee.state
    firmware.close()
