"""Templates learnt at the table (issue 37): kept apart from the enrolled ones, used by the
watcher at once, surviving a restart, kept into the deck or dropped; a damaged list is
reported and left out."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from vision.deck import Deck, load_deck
from vision.demo_decks import demo_deck
from vision.learnt import FOLDER, MANIFEST, MAX_PER_CARD, LearningDeck, LearntError
from vision.simtable import Conditions, Pose, SimulatedTable
from vision.tracker import CardWatcher

DemoDecks = Callable[[str], Deck]


@pytest.fixture
def wink_dir(tmp_path: Path) -> Path:
    out = tmp_path / "wink"
    shutil.copytree(demo_deck("wink"), out)
    return out


def _picture(deck: Deck, card: str, shade: float = 0.7) -> np.ndarray:
    return (deck.template(card).astype(np.float32) * shade).astype(np.uint8)


def test_learnt_templates_survive_a_restart_apart_from_the_deck(wink_dir: Path) -> None:
    deck = load_deck(wink_dir)
    learning = LearningDeck(deck)
    assert learning.learnt == 0
    assert len(learning.templates_of("w05")) == len(deck.templates_of("w05")) == 1
    v0 = learning.version
    when = dt.datetime(2026, 12, 7, 20, 15, tzinfo=dt.UTC)
    e = learning.learn("w05", _picture(deck, "w05"), when)
    assert learning.version != v0 and learning.learnt == 1
    assert len(learning.templates_of("w05")) == len(deck.templates_of("w05")) + 1
    # apart from the enrolled ones: the deck's manifest is untouched, the list names it
    manifest = json.loads((wink_dir / FOLDER / MANIFEST).read_text())
    assert manifest["deck"] == deck.id
    assert manifest["templates"] == [{"card": "w05", "file": e.file,
                                      "at": "2026-12-07T20:15:00+00:00"}]
    assert len(load_deck(wink_dir).templates_of("w05")) == 1
    again = LearningDeck(load_deck(wink_dir))  # a restart
    assert again.learnt == 1 and again.problems == []
    assert np.array_equal(again.templates_of("w05")[-1], _picture(deck, "w05"))
    for k in range(MAX_PER_CARD + 1):  # a card keeps its newest few
        again.learn("w05", _picture(deck, "w05", 0.5 + 0.1 * k))
    assert again.learnt == MAX_PER_CARD
    assert len(list((wink_dir / FOLDER).glob("*.png"))) == MAX_PER_CARD
    with pytest.raises(LearntError, match="no card"):
        again.learn("w99", _picture(deck, "w05"))


def test_keep_joins_the_enrolled_templates_and_drop_forgets(wink_dir: Path) -> None:
    learning = LearningDeck(load_deck(wink_dir))
    learning.learn("w05", _picture(learning.deck, "w05"))
    learning.learn("w06", _picture(learning.deck, "w06"))
    assert learning.keep() == 2
    assert learning.learnt == 0 and not (wink_dir / FOLDER).exists()
    kept = load_deck(wink_dir)
    assert len(kept.templates_of("w05")) == 2 and len(kept.templates_of("w06")) == 2
    learning = LearningDeck(kept)
    learning.learn("w07", _picture(kept, "w07"))
    assert learning.drop() == 1
    assert LearningDeck(load_deck(wink_dir)).learnt == 0
    assert len(load_deck(wink_dir).templates_of("w07")) == 1


@pytest.mark.parametrize("damage", ["not json", "other deck", "missing png", "bad entry"])
def test_a_damaged_list_is_reported_and_left_out(wink_dir: Path, damage: str) -> None:
    learning = LearningDeck(load_deck(wink_dir))
    e = learning.learn("w05", _picture(learning.deck, "w05"))
    path = wink_dir / FOLDER / MANIFEST
    raw = json.loads(path.read_text())
    if damage == "not json":
        path.write_text("{ torn")
    elif damage == "other deck":
        path.write_text(json.dumps({**raw, "deck": "someone-else"}))
    elif damage == "missing png":
        (wink_dir / FOLDER / e.file).unlink()
    else:
        path.write_text(json.dumps({**raw, "templates": [{"card": "w05", "file": "../x"}]}))
    again = LearningDeck(load_deck(wink_dir))
    assert again.learnt == 0 and len(again.problems) == 1
    assert str(path.parent) in again.problems[0]


def test_the_watcher_names_the_card_at_once_with_what_it_learnt(demo_decks: DemoDecks,
                                                                tmp_path: Path) -> None:
    """A card whose enrolled template does not fit it tonight (its lower part lost, as a
    glare on the photo it was enrolled from) is unknown, though ranked first; named by the
    host, it is learnt, and the next time it is laid the camera names it."""
    from vision.realtables import MemDeck

    wink = demo_decks("wink")
    per = {c: wink.templates_of(c) for c in wink.ids}
    poor = wink.template("w17").copy()
    h = poor.shape[0]
    poor[6 * h // 10:, :] = 128  # (its enrolled template still ranks it first: unknown)
    per["w17"] = (poor,)
    enrolled = MemDeck(wink.id, wink.ids, per, wink.size, wink.shape, wink.use_colour)
    learning = LearningDeck(enrolled, folder=tmp_path / "learnt")
    table = SimulatedTable(wink, seed=3, conditions=Conditions.clean("wood"))
    watcher = CardWatcher(learning)
    n = table.place("w17", Pose(320, 240, angle=20, width=120))
    asked = []
    for _ in range(10):
        assert watcher.process(table.capture()) == []
        asked += watcher.take_unsure()
    (u,) = asked
    assert u.template is not None and u.template.shape[:2] == (wink.size[1], wink.size[0])
    learning.learn("w17", u.template)  # the host named it
    table.remove(n)
    for _ in range(watcher.config.forget_frames + 2):
        watcher.process(table.capture())
    table.place("w17", Pose(300, 250, angle=-10, width=120))
    events = [e for _ in range(6) for e in watcher.process(table.capture())]
    assert [e.card_id for e in events] == ["w17"]
    assert watcher.last[0].match.gate is None  # (its enrolled template alone: unknown)


def test_a_learnt_template_never_changes_which_card(demo_decks: DemoDecks,
                                                    tmp_path: Path) -> None:
    """A template learnt under the wrong name (w17's picture named w05, where w17's enrolled
    template fits it poorly) makes no w05 of a w17: the enrolled templates rank another card
    first there, so their own verdict counts: unknown."""
    from vision.find import warp_card
    from vision.realtables import MemDeck

    wink = demo_decks("wink")
    per = {c: wink.templates_of(c) for c in wink.ids}
    poor = wink.template("w17").copy()
    poor[poor.shape[0] // 3: 2 * poor.shape[0] // 3, :] = 128
    per["w17"] = (poor,)
    enrolled = MemDeck(wink.id, wink.ids, per, wink.size, wink.shape, wink.use_colour)
    learning = LearningDeck(enrolled, folder=tmp_path / "learnt")
    table = SimulatedTable(wink, seed=3, conditions=Conditions.clean("wood"))
    watcher = CardWatcher(learning)
    table.place("w17", Pose(320, 240, angle=20, width=120))
    for _ in range(4):
        watcher.process(table.capture())
    (o,) = watcher.last
    learning.learn("w05", warp_card(table.capture().image, o.corners, wink.size))
    watcher.forget()
    events = [e for _ in range(6) for e in watcher.process(table.capture())]
    assert [e.card_id for e in events] == []
    (o,) = watcher.last
    assert o.card_id is None and o.match.best_id != "w05"  # (the enrolled verdict there)
