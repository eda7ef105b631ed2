"""Setup of 什麼不見啦: players, colours, deal, scenes per variant, viewing passes, start."""

from __future__ import annotations

import pytest
from sm_helpers import new_game, ok, rejected, started

from engine.something_missing import (
    Interpretations,
    NewGame,
    Phase,
    Rules,
    Variant,
    ViewingStarted,
    ViewingTimeUp,
    deal_counts,
    initial_state,
    viewing_schedule,
)


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_all_66_item_cards_are_dealt_some_get_one_more(n: int) -> None:
    counts = deal_counts(n, start_seat=0)
    assert sum(counts) == 66
    assert max(counts) - min(counts) <= 1


def test_extra_cards_go_to_the_start_player_and_onwards() -> None:
    assert deal_counts(4, start_seat=2) == (16, 16, 17, 17)
    assert deal_counts(7, start_seat=5) == (10, 9, 9, 9, 9, 10, 10)
    state = ok(initial_state(), new_game(5, start_seat=1))
    assert [p.cards_left for p in state.players] == [13, 14, 13, 13, 13]


@pytest.mark.parametrize(("variant", "k"), [("easy", 4), ("standard", 5), ("advanced", 6)])
def test_scenes_per_variant(variant: str, k: int) -> None:
    state = ok(initial_state(), new_game(4, variant))
    assert len(state.scenes) == k and state.variant is Variant(variant)
    bad = new_game(4, variant, scenes=tuple(range(k - 1)))
    rejected(initial_state(), bad, "bad_setup")


@pytest.mark.parametrize("n", [2, 8])
def test_three_to_seven_players(n: int) -> None:
    ev = NewGame(at_ms=0, names=tuple(f"p{i}" for i in range(n)),
                 colours=("red",) * n, variant="easy", start_seat=0, scenes=(0, 1, 2, 3))
    rejected(initial_state(), ev, "bad_setup")


@pytest.mark.parametrize("change", [
    {"colours": ("red", "red", "blue")},
    {"colours": ("red", "pink", "blue")},
    {"names": ("A", " ", "C")},
    {"variant": "hard"},
    {"start_seat": 3},
    {"scenes": (0, 0, 1, 2, 3)},
    {"scenes": (0, 1, 2, 3, 15)},
    {"hand_sizes": (22, 22, 21)},
])
def test_bad_setups_are_rejected_with_a_reason(change: dict[str, object]) -> None:
    base = {"at_ms": 0, "names": ("A", "B", "C"), "colours": ("red", "yellow", "blue"),
            "variant": "standard", "start_seat": 0, "scenes": (0, 1, 2, 3, 4)}
    base.update(change)
    rejected(initial_state(), NewGame(**base), "bad_setup")  # type: ignore[arg-type]


def test_viewing_schedule_more_scenes_than_players() -> None:
    sched = viewing_schedule(3, 5)
    assert len(sched) == 5  # 5 passes of 5 s
    for seat in range(3):
        assert sorted(p[seat] for p in sched) == [0, 1, 2, 3, 4]  # type: ignore[type-var]
    for p in sched:
        assert len(set(p)) == 3  # nobody holds the same scene at once
    # passed to the left: what seat s holds in pass p, seat s+1 holds in pass p+1
    assert sched[1][1] == sched[0][0]


def test_viewing_schedule_fewer_scenes_than_players() -> None:
    sched = viewing_schedule(7, 4)
    assert len(sched) == 7  # every scene must visit all 7 players
    for seat in range(7):
        seen = [p[seat] for p in sched if p[seat] is not None]
        assert sorted(seen) == [0, 1, 2, 3]  # type: ignore[type-var]
    for p in sched:
        held = [s for s in p if s is not None]
        assert sorted(held) == [0, 1, 2, 3]  # all four scenes in someone's hands


def test_viewing_phase_takes_max_of_scenes_and_players_passes() -> None:
    state = ok(initial_state(), new_game(7, "easy", at_ms=1000))
    assert state.phase is Phase.VIEWING and state.viewing_passes == 7
    assert state.deadline_ms is None  # waits for the host's "ready"
    rejected(state, ViewingTimeUp(at_ms=60_000), "viewing_not_started")
    state = ok(state, ViewingStarted(at_ms=4000))
    rejected(state, ViewingStarted(at_ms=4001), "viewing_running")
    assert state.deadline_ms == 9000 and state.viewing_from_ms == 4000
    rejected(state, ViewingTimeUp(at_ms=8999), "too_early")
    t = 9000
    for i in range(6):
        state = ok(state, ViewingTimeUp(at_ms=t))
        assert state.phase is Phase.VIEWING and state.viewing_pass == i + 1
        assert state.viewing_from_ms == t + 2000  # a 2 s beat to hand the scenes on
        t += 2000 + 5000
        assert state.deadline_ms == t
    state = ok(state, ViewingTimeUp(at_ms=t))
    assert state.phase is Phase.REVEAL and state.deadline_ms is None


def test_the_viewing_can_start_with_the_game_and_run_without_beats() -> None:
    rules = Rules(viewing_beat_ms=0,
                  interpretations=Interpretations(viewing_starts_on_ready=False))
    state = ok(initial_state(rules), new_game(7, "easy", at_ms=1000))
    assert state.deadline_ms == 6000
    for i in range(6):
        state = ok(state, ViewingTimeUp(at_ms=6000 + 5000 * i))
    state = ok(state, ViewingTimeUp(at_ms=36000))
    assert state.phase is Phase.REVEAL
    with pytest.raises(ValueError, match="viewing_beat_ms"):
        Rules.from_dict({"viewing_beat_ms": -1})


def test_an_old_header_replays_without_ready_or_beats() -> None:
    from engine.something_missing import ADDED_RULES

    old = Rules().to_dict()
    for key in ADDED_RULES:
        del old[key]
    del old["interpretations"]["viewing_starts_on_ready"]
    rules = Rules.from_dict(old)
    assert rules.viewing_beat_ms == 0 and not rules.interpretations.viewing_starts_on_ready


def test_youngest_player_starts_round_one() -> None:
    state = started(5, start_seat=3)
    assert state.round == 1 and state.to_act == 3


def test_rules_defaults_and_bad_keys() -> None:
    rules = Rules.from_dict({})
    assert rules == Rules()
    assert Rules.from_dict(rules.to_dict()) == rules
    with pytest.raises(ValueError, match=r"rules\.check_ms"):
        Rules.from_dict({"check_ms": "30"})
    with pytest.raises(ValueError, match=r"rules\.nonsense"):
        Rules.from_dict({"nonsense": 1})
    with pytest.raises(ValueError, match=r"interpretations\.x"):
        Rules.from_dict({"interpretations": {"x": True}})
    with pytest.raises(ValueError, match="slot_offsets"):
        Rules.from_dict({"slot_offsets": [0, 1]})
