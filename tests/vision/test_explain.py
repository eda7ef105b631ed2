"""The gate that rejected a verdict (``Match.gate``) and the gate histogram (issue 30 item 1)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.explain import explain, format_histogram, gate_of, histogram
from vision.match import DeckMatcher, Match, MatchParams


def _deck() -> DeckMatcher:
    return DeckMatcher([f"c{i}" for i in range(6)], [_deck_face(i) for i in range(6)],
                       (40, 60), use_colour=True)


def test_a_card_that_scores_low_is_rejected_by_min_score() -> None:
    m = _deck()
    noise = np.random.default_rng(0).integers(0, 255, (60, 40, 3), dtype=np.uint8)
    (v,) = m.match_many([noise])
    assert v.card_id is None and v.gate == "min_score" and v.score < m.params.min_score
    why = explain(v, m.params)
    assert why["rejected_by"] == "min_score" and why["score"] < why["min_score"]


def test_a_card_of_the_deck_passes_every_gate() -> None:
    m = _deck()
    (v,) = m.match_many([_deck_face(2)])
    assert v.card_id == "c2" and v.gate is None
    assert explain(v, m.params)["rejected_by"] is None and gate_of(v) == "named"


def _deck_face(i: int) -> np.ndarray:
    rng = np.random.default_rng(3)
    faces = []
    for _ in range(6):
        img = np.full((60, 40, 3), 230, np.uint8)
        for _ in range(5):
            x, y = int(rng.integers(4, 30)), int(rng.integers(4, 50))
            colour = tuple(int(c) for c in rng.integers(0, 200, 3))
            cv2.rectangle(img, (x, y), (x + 8, y + 8), colour, -1)
        faces.append(img)
    return faces[i]


def test_the_histogram_counts_gates_in_order() -> None:
    a = Match(card_id="x", score=0.9, margin=0.1, best_id="x", rotation=0)
    b = Match(card_id=None, score=0.5, margin=0.1, best_id="x", rotation=0, gate="min_score")
    c = Match(card_id=None, score=0.8, margin=0.1, best_id="x", rotation=0, gate="aligned",
              aligned=0.85)
    h = histogram([gate_of(a), gate_of(b), gate_of(c), gate_of(c), "not found"])
    assert list(h) == ["named", "min_score", "aligned", "not found"]
    assert h == {"named": 1, "min_score": 1, "aligned": 2, "not found": 1}
    assert format_histogram(h).startswith("named 1 (20.0 %)")
    assert explain(c, MatchParams())["aligned"] == 0.85


def test_the_fine_decisions_values_are_explained() -> None:
    m = Match(card_id=None, score=0.8, margin=0.1, best_id="x", rotation=0, gate="fine",
              fine=0.62, fine_margin=0.05)
    why = explain(m, MatchParams(fine=True, min_fine=0.7))
    assert why["rejected_by"] == "fine" and why["fine"] == 0.62 and why["min_fine"] == 0.7
    assert explain(m, MatchParams())["min_fine"] is None  # (not asked for: no threshold)


def test_the_fit_of_a_number_card_is_explained() -> None:
    m = Match(card_id=None, score=0.95, margin=0.02, best_id="n13", rotation=0, gate="fit",
              fit=0.42)
    why = explain(m, MatchParams(max_fit=0.15))
    assert why["rejected_by"] == "fit" and why["fit"] == 0.42 and why["max_fit"] == 0.15
    assert explain(m, MatchParams())["max_fit"] is None  # (off: no threshold)
    assert histogram([gate_of(m)]) == {"fit": 1}
