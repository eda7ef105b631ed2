"""Why a found card was named or not: each gate's value, its threshold, and the gate that
rejected it (issue 30's item 1).

A found card's verdict passes these gates in order (:data:`vision.match.GATES`):

* ``found``: how the finder found it (``outline``: its contour; ``straight``: straight edges
  only, which asks more of the match, ``STRAIGHT_MIN_SCORE``);
* ``min_score``: its best template's score at the matcher's comparison size;
* ``margin``: its lead over the next-best card (absolute ``min_margin``, and relative to how
  alike those two templates are, ``min_rel_margin``);
* ``twin``: near-twins compared where they differ (``min_twin_margin``; only run when the
  margin is small);
* ``colour``: the colours' correlation with the card's (``min_colour``; colour decks);
* ``aligned``: accepted below ``min_aligned``, the card is aligned to its template and must
  then score ``min_aligned`` (``verify``);
* ``straight`` / ``aligned_floor``: the floors of the recovery paths (a box from straight
  edges, a card recognised only once aligned to a candidate);
* ``fine`` / ``fine_margin``: where the deck asks for the fine decision (``MatchParams.fine``),
  the best candidate's score aligned at the fine size (``min_fine``) and its lead over the
  next (``min_fine_margin``); the coarse gates above then only shortlisted;
* ``fit``: decks of numbers (``MatchParams.max_fit``): how badly the accepted card fits its
  card where that card differs from its nearest (a number from outside the deck fits none).

:func:`explain` turns one verdict into a plain dict (JSON-ready) for
``tablekeeper vision recognize --explain`` and the benches; :func:`histogram` counts the
rejecting gates of many.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from typing import Any

from vision.corners import CornerParams
from vision.match import GATES, Match, MatchParams

#: The name of an accepted card's "gate" in histograms.
ACCEPTED = "named"
#: A card that is on the table and was not found at all (benches with labels only).
NOT_FOUND = "not found"


def _num(x: float) -> float | None:
    return None if math.isnan(x) else round(float(x), 4)


def explain(m: Match, params: MatchParams, *, straight: bool = False,
            corner: CornerParams | None = None) -> dict[str, Any]:
    """Each gate's value and threshold for the verdict ``m`` (made with ``params``), and the
    gate that rejected it (``rejected_by``; None when it was named). ``nan`` values (a step
    that did not run) are None. ``corner``: the deck's corner search (``vision.corners``),
    whose score and thresholds are given where it ran (``named_by``: ``corner`` where it
    named the card, else ``card``)."""
    out = {
        "found": "straight" if straight else "outline",
        "best": m.best_id or None,
        "rejected_by": None if m.card_id is not None else (m.gate or "min_score"),
        "score": _num(m.score), "min_score": params.min_score,
        "margin": _num(m.margin), "min_margin": params.min_margin,
        "rel_margin": _num(m.rel_margin), "min_rel_margin": params.min_rel_margin,
        "twin": _num(m.twin_margin), "min_twin_margin": params.min_twin_margin,
        "colour": _num(m.colour), "min_colour": params.min_colour,
        "aligned": _num(m.aligned), "min_aligned": params.min_aligned,
        "fine": _num(m.fine), "min_fine": params.min_fine if params.fine else None,
        "fine_margin": _num(m.fine_margin),
        "min_fine_margin": params.min_fine_margin if params.fine else None,
        "fit": _num(m.fit), "max_fit": params.max_fit if params.max_fit > 0 else None,
    }
    if not math.isnan(m.corner):
        out["corner"] = _num(m.corner)
        out["min_corner"] = corner.min_score if corner is not None else None
        out["min_corner_margin"] = corner.min_margin if corner is not None else None
    if m.card_id is not None:
        out["named_by"] = "corner" if not math.isnan(m.corner) else "card"
    return out


def gate_of(m: Match) -> str:
    """The histogram bucket of one verdict: :data:`ACCEPTED` or the gate that rejected it."""
    return ACCEPTED if m.card_id is not None else (m.gate or "min_score")


def histogram(gates: Iterable[str]) -> dict[str, int]:
    """How many verdicts each gate took, in gate order (``named`` first, ``not found``
    last); gates with none left out."""
    c = Counter(gates)
    order = [ACCEPTED, *GATES, NOT_FOUND]
    out = {g: c[g] for g in order if c[g]}
    out.update({g: n for g, n in sorted(c.items()) if g not in out})
    return out


def format_histogram(h: dict[str, int]) -> str:
    """``named 40 (80.0 %), min_score 6 (12.0 %) ...``"""
    n = sum(h.values())
    return ", ".join(f"{g} {k} ({100.0 * k / n:.1f} %)" for g, k in h.items()) if n else "-"
