"""Something is there (issue 37 item 3): paper that no card found explains -- a card half
under another -- is reported as a region with its box (``Match.gate == "region"``), not
left out; it is no card (no id, no candidate), makes no event, and a table of cards lying
apart has none."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablekeeper.cli import main
from vision.config import VisionConfig
from vision.deck import Deck
from vision.demo_decks import build_demo_deck
from vision.simtable import Conditions, Pose, SimulatedTable
from vision.tracker import CardWatcher, recognise

#: The watcher without The Game's corner search: the region as the finder reports it.
NO_CORNERS = replace(VisionConfig(), corners={})


@pytest.fixture(scope="module")
def deck() -> Deck:
    return build_demo_deck("the-game")


def _half_under(deck: Deck, surface: str) -> SimulatedTable:
    # n63 more than half under n51 (a strip of it in view), n83 apart.
    table = SimulatedTable(deck, seed=0, conditions=Conditions.clean(surface))
    table.place("n63", Pose(250, 240, angle=12, width=130))
    table.place("n51", Pose(300, 250, angle=-20, width=130))
    table.place("n83", Pose(520, 200, angle=5, width=130))
    return table


@pytest.mark.parametrize("surface", ["cloth", "dark"])
def test_a_card_half_under_another_is_a_region(deck: Deck, surface: str) -> None:
    table = _half_under(deck, surface)
    image = table.capture().image
    under = next(t for t in table.truth() if t.card_id == "n63")
    assert 0.2 < under.visible < 0.8
    # (the corner search off: the region as the finder reports it; on, below)
    watcher = CardWatcher(deck, NO_CORNERS, deck.id)
    obs = watcher.observe(image)
    assert sorted(o.card_id for o in obs if o.card_id) == ["n51", "n83"]
    regions = [o for o in obs if o.match.gate == "region"]
    assert len(regions) == 1
    r = regions[0]
    assert r.card_id is None and r.match.best_id == ""
    # Its box lies on the hidden card's part in view (not on the cards named).
    seen = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(seen, [np.rint(under.corners).astype(np.int32)], 1)
    for o in obs:
        if o.card_id is not None:
            cv2.fillPoly(seen, [np.rint(o.corners).astype(np.int32)], 0)
    box = np.zeros_like(seen)
    cv2.fillPoly(box, [np.rint(r.corners).astype(np.int32)], 1)
    assert (seen & box).sum() >= 0.6 * seen.sum()
    # recognise() gives regions only when asked (the enrolment's check round, the benches:
    # cards only).
    plain = recognise(watcher.finder, watcher.matcher, image)
    assert all(m.gate != "region" for _, m in plain)
    # With The Game's corner search (the default), the strip in view shows n63's index: the
    # region is named by it (issue 37 item 3) where its lead is clear -- on OpenCV 5.1; on the
    # Pi's 4.11 the lead is under min_margin and the region stays unknown. Never named wrong.
    got = CardWatcher(deck, VisionConfig(), deck.id).observe(image)
    named = sorted(o.card_id for o in got if o.card_id)
    assert named in (["n51", "n63", "n83"], ["n51", "n83"])
    if named == ["n51", "n83"]:
        assert any(o.match.gate == "region" for o in got)
    else:
        assert not any(o.match.gate == "region" for o in got)


def test_cards_apart_make_no_region_and_a_region_no_event(deck: Deck) -> None:
    table = SimulatedTable(deck, seed=4, conditions=Conditions.clean("cloth"))
    for k, cid in enumerate(("n10", "n20", "n30")):
        table.place(cid, Pose(130 + 190 * k, 240, angle=6 * k, width=130))
    watcher = CardWatcher(deck, NO_CORNERS, deck.id)
    assert [o.match.gate for o in watcher.observe(table.capture().image)] == [None] * 3
    # The stream: the half-covered card is reported as a region each frame, yet only the
    # two cards named make events.
    half = _half_under(deck, "cloth")
    watcher = CardWatcher(deck, NO_CORNERS, deck.id)
    events = [e for _ in range(4) for e in watcher.process(half.capture())]
    assert sorted(e.card_id for e in events) == ["n51", "n83"]
    assert any(o.match.gate == "region" for o in watcher.last)


def test_recognize_prints_a_region_with_its_box(deck: Deck, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from vision.deck import save_deck

    save_deck(deck, tmp_path / "deck")
    path = tmp_path / "half.png"
    assert cv2.imwrite(str(path), _half_under(deck, "cloth").capture().image)
    capsys.readouterr()
    # (The Game's deck is searched by its corner index: the strip in view is named n63,
    # and --explain says how; a region is printed as such: a table with no index in view.)
    assert main(["vision", "recognize", "--explain", "--deck", str(tmp_path / "deck"),
                 str(path)]) == 0
    line = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert not [c for c in line["cards"] if c.get("region")]
    assert sorted(c["id"] for c in line["cards"] if c["id"]) == ["n51", "n63", "n83"]
    by = {c["id"]: c["why"] for c in line["cards"]}
    assert by["n63"]["named_by"] == "corner" and by["n63"]["corner"] >= by["n63"]["min_corner"]
    assert by["n63"]["min_corner_margin"] == VisionConfig().corners[deck.id].min_margin
    assert by["n51"]["named_by"] == "card" and "corner" not in by["n51"]
    cands = {c["id"]: c["candidates"] for c in line["cards"]}
    assert cands["n63"][0]["id"] == "n63"
