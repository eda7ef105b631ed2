"""Foreign cards stay foreign in decks of numbers (issue 30 item 5; ``MatchParams.max_fit``,
``DeckMatcher.fit``, ``bench vision --foreign-numbers``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import bench
from vision.config import VisionConfig
from vision.deck import Deck, DeckError, load_deck, save_deck
from vision.enroll import NewDeck, enroll_from_images, measure_fit
from vision.simtable import Conditions, Pose, SimulatedTable
from vision.tracker import CardWatcher

DemoDecks = Callable[[str], Deck]


def _table(deck: Deck, left: str, right: str) -> SimulatedTable:
    table = SimulatedTable(deck, seed=11, conditions=Conditions.clean("wood"))
    table.place(left, Pose(180, 240, angle=10, width=150))
    table.place(right, Pose(460, 240, angle=-6, width=150))
    return table


def _truth(deck: Deck, left: str, right: str) -> list[np.ndarray]:
    return [np.asarray(t.corners, np.float32) for t in _table(deck, left, right).truth()]


def test_a_number_not_enrolled_is_not_taken_for_its_neighbour(demo_decks: DemoDecks) -> None:
    deck = demo_decks("the-game")
    half = bench.enrolled_half(deck)
    assert set(half.ids) < set(deck.ids) and len(half.ids) == (len(deck.ids) + 1) // 2
    config = VisionConfig()
    fit = config.match_params(deck.id).max_fit
    assert fit > 0
    # Without the check (max_fit 0: as before) some numbers between two enrolled ones are
    # taken for one of them; with it, none is, and the enrolled card beside them still is.
    off = replace(config, deck_thresholds={deck.id: replace(
        config.thresholds(deck.id), max_fit=0.0)})
    on_watcher, off_watcher = (CardWatcher(half, c, half.id) for c in (config, off))
    taken = 0
    for k in range(8, 16):
        enrolled, foreign = half.ids[k], deck.ids[2 * k + 1]
        assert foreign not in half.ids
        image = _table(deck, enrolled, foreign).capture().image
        before = sorted(off_watcher.observe(image), key=lambda o: o.centre[0])
        now = sorted(on_watcher.observe(image), key=lambda o: o.centre[0])
        assert [o.card_id for o in now] == [enrolled, None]
        assert now[0].match.fit <= fit
        assert before[1].card_id != foreign
        if before[1].card_id is not None:
            taken += 1
            assert now[1].match.gate == "fit" and now[1].match.fit > 2 * fit
        # The measure itself, whatever the coarse verdict: the foreign number named as the
        # enrolled card it looks most like fits it far worse than the enrolled card fits its own.
        (t_enrolled, t_foreign) = sorted(_truth(deck, enrolled, foreign),
                                         key=lambda c: float(c[:, 0].mean()))
        m = on_watcher.matcher
        own, other = m.match_quads(image, [t_enrolled, t_foreign])
        assert own.best_id == enrolled and other.best_id in half.ids
        assert m.fit(image, t_enrolled, replace(own, card_id=own.best_id)) <= fit
        assert m.fit(image, t_foreign, replace(other, card_id=other.best_id)) > 2 * fit
    print(f"taken for a neighbour without the check: {taken} of 8")


def test_the_bench_marks_the_cards_left_out_foreign() -> None:
    deck = bench.number_deck("big-number")
    half = bench.enrolled_half(deck)
    frames = list(bench.foreign_frames(deck, half, 3, 5))
    seen = [t.card_id for f in frames for t in f.truth]
    assert seen and all(c is None or c in half.ids for c in seen)


def _scans(deck: Deck, folder: Path) -> Path:
    """Each card of ``deck`` as a flat scan ``<id>.png`` in ``folder`` (what a user who
    enrols from scans gives ``vision enroll --from-images``)."""
    folder.mkdir()
    for cid in deck.ids:
        ok, buf = cv2.imencode(".png", deck.template(cid))
        assert ok
        (folder / f"{cid}.png").write_bytes(buf.tobytes())
    return folder


def test_a_deck_a_user_enrols_gets_its_own_foreign_card_gate(tmp_path: Path) -> None:
    # The Game's style by another renderer, every other card enrolled by a user under an id
    # no config knows: enrolment measures the gate and keeps it in the manifest ...
    deck = bench.number_deck("big-number")
    half = bench.enrolled_half(deck)
    report = enroll_from_images(tmp_path / "mine", _scans(half, tmp_path / "scans"),
                               new=NewDeck(id="my-numbers", game="the-game",
                                           size=deck.size, use_colour=deck.use_colour))
    assert report.complete and report.fit is not None and report.fit.max_fit is not None
    assert "foreign-card gate: max_fit" in report.text()
    raw = json.loads((tmp_path / "mine" / "manifest.json").read_text("utf-8"))
    assert raw["max_fit"] == report.fit.max_fit
    mine = load_deck(tmp_path / "mine")
    assert mine.max_fit == report.fit.max_fit
    # ... between its own cards' misfit and that of the cards left out of it
    assert max(report.fit.own) < mine.max_fit < min(report.fit.foreign)
    # ... and the watcher uses it: numbers between two enrolled ones are refused, the
    # enrolled ones named (the config has no entry for this deck).
    config = VisionConfig()
    assert config.match_params(mine.id).max_fit == 0.0
    watcher = CardWatcher(mine, config, mine.id)
    assert watcher.matcher.params.max_fit == mine.max_fit
    for k in (3, 7, 11):
        enrolled, foreign = half.ids[k], deck.ids[2 * k + 1]
        got = sorted(watcher.observe(_table(deck, enrolled, foreign).capture().image),
                     key=lambda o: o.centre[0])
        assert [o.card_id for o in got] == [enrolled, None]


def test_the_config_still_wins_over_the_measured_gate() -> None:
    c = VisionConfig.from_dict({"match": {"decks": {"mine": {"max_fit": 0.5}}}})
    assert c.match_params("mine", measured_fit=0.2).max_fit == 0.5
    off = VisionConfig.from_dict({"match": {"decks": {"mine": {"max_fit": 0}}}})
    assert off.match_params("mine", measured_fit=0.2).max_fit == 0.0  # (the host's choice)
    assert VisionConfig().match_params("mine", measured_fit=0.2).max_fit == 0.2
    assert VisionConfig().match_params("mine").max_fit == 0.0


@pytest.mark.parametrize("bad", ["0.2", -0.1, 0, True, 11, [0.2]])
def test_a_bad_gate_in_a_manifest_is_named(tmp_path: Path, bad: object) -> None:
    deck = bench.enrolled_half(bench.number_deck("big-number"))
    save_deck(replace(deck, game="the-game", max_fit=0.2), tmp_path / "d")
    assert load_deck(tmp_path / "d").max_fit == 0.2
    raw = json.loads((tmp_path / "d" / "manifest.json").read_text("utf-8"))
    raw["max_fit"] = bad
    (tmp_path / "d" / "manifest.json").write_text(json.dumps(raw), "utf-8")
    with pytest.raises(DeckError, match="max_fit must be a number"):
        load_deck(tmp_path / "d")


def test_a_deck_too_small_to_measure_has_no_gate() -> None:
    deck = bench.number_deck("big-number")
    two = replace(deck, cards=deck.cards[:2])
    got = measure_fit(two)
    assert got.max_fit is None and "not measured" in got.text()
