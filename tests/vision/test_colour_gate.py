"""The foreign-card gate on real SET cards (issue 37, last session; ``DeckMatcher.fit``).

A colour deck's cards differ from their nearest mostly in colour, and there only the colour
channels' residual counts: another session's light and focus change a striped fill's grey
contrast as much as a card one feature away would, where its coloured ink lies they do not.
Real photos (``../shared/data/set-crops``: single SET cards cut out of phone photos of other
sessions), a deck of every other card enrolled from one shot each; the gate 0.07 is what
``bench vision --tables`` tunes on its tuning photos (``realtables.choose_gate``)."""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import realsets
from vision.config import VisionConfig
from vision.match import DeckMatcher, MatchParams
from vision.realtables import MemDeck
from vision.tracker import CardWatcher

SET = realsets.find_set("set-crops")
needs_set = pytest.mark.skipif(SET is None, reason=realsets.absent_message("set-crops"))

GATE = replace(MatchParams(), fine=True, min_fine=0.8, min_fine_margin=0.01, max_fit=0.07)
KNOWN = ("2-purple-striped-squiggles", "20170313_135105_2_14.jpg")  # (shot 14: another day)
FOREIGN = ("3-red-solid-squiggles", "20170313_135222_0_26.jpg")  # (its nearest: ...-ovals)


def _shots() -> dict[str, list[Path]]:
    assert SET is not None
    by: dict[str, list[Path]] = {}
    with open(SET / "labels.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            by.setdefault(row["card"], []).append(SET / row["file"])
    return by


def _read(p: Path) -> np.ndarray:
    img = cv2.imread(str(p), cv2.IMREAD_COLOR)
    assert img is not None, p
    return np.asarray(img, np.uint8)


def _half_deck() -> MemDeck:
    by = _shots()
    keep = tuple(sorted(by)[::2])
    size = realsets.SET_SIZE
    return MemDeck("crops-half", keep, {
        c: (np.asarray(cv2.resize(_read(by[c][0]), size, interpolation=cv2.INTER_AREA),
                       np.uint8),) for c in keep}, size)


def _on_table(card: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    h, w = card.shape[:2]
    pad = 60
    frame = np.full((h + 2 * pad, w + 2 * pad, 3), 35, np.uint8)
    frame[pad:pad + h, pad:pad + w] = card
    quad = np.array([[pad, pad], [pad + w, pad], [pad + w, pad + h], [pad, pad + h]],
                    np.float32)
    return frame, quad


def _photo(card: str, name: str) -> np.ndarray:
    (p,) = [p for p in _shots()[card] if p.name == name]
    return _read(p)


@needs_set
def test_a_known_card_under_another_light_is_named_and_a_foreign_one_is_not() -> None:
    deck = _half_deck()
    assert KNOWN[0] in deck.ids and FOREIGN[0] not in deck.ids
    watcher = CardWatcher(deck, VisionConfig(match=GATE, deck_thresholds={}), deck.id)
    known = watcher.observe(_on_table(_photo(*KNOWN))[0])
    assert [o.card_id for o in known] == [KNOWN[0]]
    assert known[0].match.fit <= GATE.max_fit
    foreign = watcher.observe(_on_table(_photo(*FOREIGN))[0])
    assert [o.card_id for o in foreign] == [None]
    m = foreign[0].match
    # (the fine decision alone would name it: it fits its nearest, one shape away, well)
    assert m.best_id == "3-red-solid-ovals" and m.fine >= GATE.min_fine
    assert m.gate == "fit" and m.fit > GATE.max_fit


@needs_set
def test_the_gate_reads_colour_where_the_cards_differ_in_colour() -> None:
    deck = _half_deck()
    matcher = DeckMatcher.from_deck(deck, GATE)
    frame, quad = _on_table(_photo(*KNOWN))
    grey = np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), np.uint8)
    (m,) = matcher.match_quads(frame, [quad])
    q, v = matcher.decide(frame, grey, quad, m)
    assert v.best_id == KNOWN[0]
    fit = matcher.fit(frame, q, v)
    # The same residual over the grey channel too (as before): the stripes' contrast under
    # that day's light misfits as much as a card one feature away.
    i = deck.ids.index(KNOWN[0])
    region, top, chroma = matcher._fit_regions[(int(matcher.starts[i]), v.rotation)]
    assert chroma
    matcher._fit_regions[(int(matcher.starts[i]), v.rotation)] = (region, top, False)
    assert fit <= GATE.max_fit < matcher.fit(frame, q, v)


@needs_set
def test_a_card_learnt_tonight_comes_under_the_gate_and_a_foreign_one_does_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.find import warp_card
    from vision.learnt import LearningDeck

    deck = _half_deck()
    card = "3-green-striped-diamonds"
    learning = LearningDeck(deck, tmp_path / "learnt")
    watcher = CardWatcher(learning, VisionConfig(match=GATE, deck_thresholds={}), deck.id)
    seen = _on_table(_photo(card, "20170314_084211_0_9.jpg"))[0]
    (before,) = watcher.observe(seen)
    assert before.card_id is None and before.match.gate == "fit"  # (that morning's light)
    # The host names it once (another photo of that morning): it is learnt.
    frame, quad = _on_table(_photo(card, "20170314_084218_0_9.jpg"))
    learning.learn(card, warp_card(frame, quad, deck.size))
    (after,) = watcher.observe(seen)
    assert after.card_id == card and after.match.fit <= GATE.max_fit
    # A card one shading away, from that morning, taken for it: its learnt templates do not
    # make it fit (without the gate on them, they would name it).
    foreign = _on_table(_photo("3-green-solid-diamonds", "20170314_084211_0_18.jpg"))[0]
    (f,) = watcher.observe(foreign)
    assert f.card_id is None and f.match.best_id == card
    monkeypatch.setattr(watcher.matcher, "fit_learnt", lambda *a: 0.0)
    (f,) = watcher.observe(foreign)
    assert f.card_id == card
