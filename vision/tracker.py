"""Cards over time: a card counts as *played* when it has been seen steadily, once.

:class:`CardWatcher` is what the app runs on every camera frame::

    watcher = CardWatcher(deck, config)          # vision.config.VisionConfig
    for event in watcher.process(frame):         # a vision.camera.Frame
        ...                                      # CardEvent(t_ns, zone, card_id, score, ...)

Each frame, every card is found, warped and matched (:func:`recognise`: :mod:`vision.find`,
:mod:`vision.match`; a loosely fitting card is matched again with its outline grown by a printed
frame's width, and a card found only from straight edges must score ``STRAIGHT_MIN_SCORE``);
recognised cards (unknown ones are ignored) are associated with *tracks* by card id and place
(the centre within half a card's short side of where it was).

* A new track is **confirmed** — one :class:`CardEvent` — when it has been seen in
  ``stable_frames`` frames (default 2: placed in frame k, event in frame k+1), with at most
  one frame without it between two sightings (the finder may miss a card on a pile once).
  The event carries the timestamp of the frame that confirmed it.
* A confirmed track that is not seen (a hand over it, a card laid on top of it, a blurry frame)
  is kept for ``forget_frames`` frames; if the same card is seen at the same place again in that
  time it is the same card: no new event. A hand passing over therefore produces no event, and
  neither does a card lifted and put back at once.
* A *different* card at the same place (a new card on top of a pile) is a new track: a new
  event once stable.
* A card that was really taken away — not seen for ``forget_frames`` — and laid down again is a
  new event. (Semantics of the pile: if the top card is taken away within ``forget_frames``, the
  card below, still remembered, reappears silently.)

A frame that shows the same table as the last frame searched (:data:`STILL_LEVELS`) is not
searched again: its cards are that frame's. Most frames of a game are such frames, so the
camera costs little while nothing happens; every :data:`REFRESH_FRAMES`-th frame is searched
anyway, less and less often while those searches find the same cards at the same places (up
to :data:`REFRESH_MAX_FRAMES`). Where only part of the table changed (a card laid, a hand
reaching in), only that part is searched, with the cards it touches and widened by half a
card (unless that is more than :data:`PART_MAX` of the frame); the cards clear of it are the
last frame's. Where such a search leaves a card found but not recognised (the top card of
a pile whose outline came out wrong), that part is searched again in the next
:data:`RETRY_FRAMES` frames though nothing moves: another frame's noise often brings it out.

**Motion gating** (:data:`MOTION_MAX_FRAMES`): a part of the table that keeps moving (a
hand passing over, reaching, laying a card) is not searched while it moves: in a busy
stream most of the vision CPU went to searching (by keypoints, around, aligned) cards half
covered by a passing hand, which find nothing. Parts are told apart by the same 8x8 blocks:
blocks that moved since the frame before, in a part where something moved in the
:data:`MOTION_MEMORY` frames before (or reaching in from the frame's border, or where
blocks were left for later in the last two frames and it stopped: a hand's pause at the end
of its reach), are left for later, their reference kept, so they count as changed until
they are searched. The rest of the table is searched as without gating, and a part that
changes without a motion before it (a card that simply appears) at once. The cards under a
part left for later are neither seen nor missed in that frame (a hand over them). A part is
left at most :data:`MOTION_MAX_FRAMES` frames in a row: a table that never stops moving
still has its cards searched, at that pace.

Interpretations:

* [I] A card found in a part searched in the frame after it was left for later, where the
  two frames show the part the same (no block moved), was in view in the frame before: it
  counts as seen in both (``first_seen_ns`` the frame before), exactly as a card found in a
  searched frame counts again in the next unchanged frame without a search. So a card laid
  where a hand has just moved is reported in the same frame as before gating (placed in
  frame 1, event in frame 2 with ``stable_frames`` 2). (Seed: issue 16, item 4, "card placed
  -> event within 3 frames at the 95th percentile".)
* [I] A hand that moves is not a card that is there or gone: a confirmed card under it is
  kept without counting frames towards ``forget_frames``, and a card seen under it is not a
  sighting towards ``stable_frames`` (seed: issue 16 item 4; this module's "a hand passing
  over therefore produces no event").

Zones: an event's ``zone`` is the name of the first configured zone containing the card's
centre, or None when it lies in none (or no zones are configured).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import cv2
import numpy as np
import numpy.typing as npt

from vision.config import VisionConfig, Zone
from vision.find import (
    CardFinder,
    FloatArray,
    FoundCard,
    FrameError,
    Image,
    check_image,
    contains,
    order_corners,
    refine_corners,
    to_grey,
    warp_card,
)
from vision.keypoints import index_for, paper_beyond, recover
from vision.match import CANDIDATES, DeckLike, DeckMatcher, Match

#: A clean, well-found card scores about 0.95 and more; below this a found outline may be a
#: card's printed frame rather than its edge (the top card of a pile, white on white).
_RECHECK_BELOW = 0.93
#: A card found only from straight edges (``FoundCard.straight``) must score at least this:
#: such a box may be cut short across a card (a card partly outside the frame), and a
#: misplaced warp of one card can look a little like another.
STRAIGHT_MIN_SCORE = 0.85
#: A frame whose 8x8-block mean grey differs from the last frame searched by less than this
#: everywhere shows the same table (the simulated camera's noise moves it by up to ~10,
#: laying a card by well over 100): its cards are taken from that frame, not searched for.
STILL_LEVELS = 16
#: ... but at least every this many frames the table is searched anyway (a card missed in
#: the last frame searched, say half under a hand, gets another chance) ...
REFRESH_FRAMES = 15
#: ... and each time such a search finds the table as it was, the wait before the next one
#: doubles, up to this many frames (8 s at 30 fps): a table that stays the same (a card no
#: deck knows, a phone, a mug) is not searched twice a second all game long. Any change
#: starts again from ``REFRESH_FRAMES`` (the first one after such a wait: counted from it).
REFRESH_MAX_FRAMES = 240
#: Where a change left a card found but not recognised, the part that changed is searched
#: again in this many frames that follow, though nothing moves.
RETRY_FRAMES = 2
#: Where only part of the table changed (a card laid, a hand), only that part is searched
#: (with the cards it touches, widened by half a card), unless that is more than this
#: fraction of the frame.
PART_MAX = 0.5
#: A card recognised only once aligned must score at least this (aligned cards of the deck
#: scored 0.97 and more in the tuning frames (seed 1000); cards from no deck at most 0.76).
ALIGNED_MIN_SCORE = 0.9
#: A card left unknown while scoring at least this is aligned to its best candidates by what
#: is printed on it (``vision.align``) and matched again. (A card recognised as it is keeps
#: its verdict: aligned, none of 294 such cards in the bench's frames changed its id.)
_ALIGN_FROM = 0.4
#: ... the candidates: the best and those within this of its score, at most this many.
_ALIGN_WITHIN = 0.1
_ALIGN_CANDIDATES = 3
#: A card left unknown that scores at least this (or has other outlines, whatever it scores)
#: may be a loose box around a pile: the cards around it are searched for again
#: (``CardFinder.find_near``).
_NEAR_FROM = 0.15
#: ... of the boxes found there, the best this many that score at least this are aligned.
_NEAR_ALIGN = 2
_NEAR_MIN_SCORE = 0.5
#: Aligned to those candidates in turn, the next one only while the last one aligned came
#: this close (see ``_aligned``).
_ALIGN_GO_ON = 0.8
#: An unknown card at least this many times the area of the frame's recognised cards (or
#: one with outlines that gave way to it) is searched by keypoints (``vision.keypoints``).
_KP_GROWN = 1.25
#: ... or one with paper sticking out of it all round for at least this fraction of a thin
#: ring outside it (``vision.keypoints.paper_beyond``: the card below a pile's top card).
_KP_BEYOND = 0.3
#: Such a search tries, besides the cards the keypoints vote for, the matcher's best this many
#: for each unknown outline there (the vote misses the top card of a pile now and then; a
#: misfit outline of it still ranks it among its best few).
_KP_HINTS = 5
#: How far a printed frame's inner edge lies inside the card: a fraction of the short side.
_FRAME_INSETS = (0.05,)
#: Motion gating: a part of the table that keeps moving (a hand passing, reaching, laying a
#: card) is not searched while it moves, at most this many frames in a row (then it is
#: searched as it is: a table that never stops moving still gets its cards reported).
MOTION_MAX_FRAMES = 6
#: ... where "keeps moving" is: moving now, and something moved there (within a block) in
#: one of this many frames before (a hand may stop for a frame at the end of its reach).
MOTION_MEMORY = 2
_JOIN = np.ones((5, 5), np.uint8)
_NEAR = np.ones((7, 7), np.uint8)


def expand_quad(corners: FloatArray, by: float) -> FloatArray:
    """``corners`` (clockwise) with every side moved outward by ``by`` times the short side."""
    q = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    e = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
    d = by * float(e.min())
    # Each corner moves out along the card's two axes (u: first side, v: last side).
    u = (q[1] - q[0]) / max(float(e[0]), 1e-6)
    v = (q[3] - q[0]) / max(float(e[3]), 1e-6)
    signs = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], dtype=np.float32)
    out = q + d * (signs[:, :1] * u[None, :] + signs[:, 1:] * v[None, :])
    return np.asarray(out, dtype=np.float32)


def recognise(finder: CardFinder, matcher: DeckMatcher, image: Image,
              region: tuple[int, int, int, int] | None = None,
              known: Sequence[FloatArray] = (),
              card_area: float = 0.0, regions: bool = False) -> list[tuple[FoundCard, Match]]:
    """Find and match every card of ``image`` (only those wholly inside ``region`` = (x0,
    y0, x1, y1) px, if given, where the cards at ``known`` lie already:
    :meth:`CardFinder.find`). ``regions``: also "something is there" (gate ``region``, no
    card: paper no card found explains, see :func:`_regions`), after the cards.

    A card that matches only loosely is matched again with its outline grown by a printed
    frame's width: on a pile (white card on white cards) the finder may only find the top
    card's printed frame. The better of the two verdicts counts; thresholds apply as usual.
    Where cards are still unknown (a loose box around a pile, bigger than a card) or paper
    is left unexplained, the top card is searched by keypoints (:mod:`vision.keypoints`):
    kept only if the matcher recognises the same card there with score at least
    ``ALIGNED_MIN_SCORE``, and then instead of the loose box. Every card recognised with a
    score below the matcher's ``min_aligned`` is verified (:meth:`DeckMatcher.verify`: it
    must fit its card once aligned; a card from no deck that looks like one does not).

    ``card_area``: the area (px²) of the deck's cards as seen lately (``CardWatcher``
    remembers it), for a frame in which no card is recognised as found: a loose box well
    bigger than that, around a pile, is searched by keypoints too.
    """
    grey = to_grey(check_image(image))  # (once: the finder, refining and aligning use it)
    found = finder.find(grey) if region is None else finder.find(grey, region, known)
    matches = matcher.match_quads(image, [c.corners for c in found])
    out = []
    h, w = grey.shape
    for card, m in zip(found, matches, strict=True):
        if m.score < _RECHECK_BELOW:
            for inset in _FRAME_INSETS:
                grown = expand_quad(card.corners, inset)
                e = np.linalg.norm(np.roll(grown, -1, axis=0) - grown, axis=1)
                # Each side then onto the outermost paper edge near the grown outline: a side
                # that was on the card's edge already comes back to it.
                snapped = refine_corners(grey, grown, 1.3 * inset * float(e.min()), 2.0)
                tries = [q for q in (snapped, grown)
                         if not (q.min() < 0 or q[:, 0].max() > w - 1
                                 or q[:, 1].max() > h - 1)]
                for q, m2 in zip(tries, matcher.match_quads(image, tries), strict=True):
                    if m2.score > m.score + 0.01:
                        card, m = FoundCard(q, straight=card.straight, others=card.others), m2
        # A card accepted with a low score is aligned to its card and must then fit it well
        # (``DeckMatcher.verify``); rejected, it is aligned to its best candidates below.
        card, m = _verified(matcher, image, grey, card, m)
        straight_min = max(STRAIGHT_MIN_SCORE, matcher.params.min_score)
        if (m.card_id is None and m.score >= _ALIGN_FROM) or (
                card.straight and m.score < straight_min):
            # Unknown, or from straight edges and too weak to count as it is (such a box is
            # often a few pixels off: the top card of a pile).
            card, m = _aligned(matcher, image, grey, card, m)
        if m.card_id is None and (m.score >= _NEAR_FROM or card.others):
            # (A loose box around two cards may look like no card at all, yet one of the
            # outlines that gave way to it is the top card.)
            card, m = _near(finder, matcher, image, grey, card, m)
        if card.straight and m.card_id is not None and m.score < straight_min:
            m = replace(m, card_id=None, gate="straight")
        out.append((card, m))
    kp_boxes: list[FloatArray] = []
    for box in finder.unexplained:
        # Paper no card found covers (the top card of a pile, light on light): the boxes from
        # straight edges there, recognised or nothing.
        none = Match(card_id=None, score=-1.0, margin=0.0, best_id="", rotation=0,
                     gate="min_score")
        card, m = _near(finder, matcher, image, grey, FoundCard(box, straight=True), none,
                        [c.corners for c, _ in out])
        if m.card_id is not None:
            out.append((card, m))
        elif (box.min() > 1 and box[:, 0].max() < grey.shape[1] - 2
              and box[:, 1].max() < grey.shape[0] - 2):
            # (Paper at the border of the frame is most often a card cut by it: those are
            # not reported, keypoints or not.)
            kp_boxes.append(box)
    unknown = [c for c, m in out if m.card_id is None]
    if unknown or kp_boxes:
        areas = [c.area for c, m in out if m.card_id is not None]
        typical = float(np.median(areas)) if areas else 0.0
        size = typical if typical > 0.0 else card_area
        # An unknown card the size of the others, table all round it, is most often a card
        # from no deck; a pile's loose box is bigger than one card, has outlines that gave
        # way to it, or has another card sticking out of it.
        table = _median(grey)
        kp_boxes[:0] = [c.corners for c in unknown
                        if c.others or (size > 0.0 and c.area >= _KP_GROWN * size)
                        or paper_beyond(grey, c.corners, table) >= _KP_BEYOND]
        if kp_boxes:
            out = _by_keypoints(matcher, image, grey, out, kp_boxes, typical)
    # (The cards recognised around a pile or in paper left over, verified as well.)
    out = [_verified(matcher, image, grey, c, m) for c, m in out]
    if matcher.params.fine:
        # The deck's detail is finer than the coarse comparison: the coarse verdict only
        # shortlisted; each card is decided on its aligned candidates (DeckMatcher.decide).
        out = [_decided(matcher, image, grey, c, m) for c, m in out]
    if matcher.params.max_fit > 0:
        # A deck of numbers: an accepted card must fit its card where it differs from its
        # nearest (a number from outside the deck wins among its neighbours, fits none).
        out = [(c, _fitted(matcher, image, c, m)) for c, m in out]
    if not regions:
        return _one_per_place(out)
    h, w = grey.shape
    paper = [b for b in finder.regions  # (not those at the border: cards cut by it)
             if b.min() > 1 and b[:, 0].max() < w - 2 and b[:, 1].max() < h - 2]
    return _one_per_place(out) + _regions(paper, out)


#: A region of paper (:func:`_regions`) this much covered by a card found is that card's.
_REGION_COVERED = 0.5


def _regions(paper: Sequence[FloatArray],
             out: Sequence[tuple[FoundCard, Match]]) -> list[tuple[FoundCard, Match]]:
    """Paper no card explains, that no search named and no card found covers: "something is
    there" (gate ``region``; a card half under another, a fanned hand, a card whose outline
    the finder missed), reported with its box rather than left out. Not a card: its
    ``best_id`` is empty, it makes no event, and it is not searched again by itself."""
    got = []
    for box in paper:
        area = abs(float(cv2.contourArea(box.reshape(-1, 1, 2))))
        # (Mostly a card found already -- one found by keypoints or around a pile there --
        # or holding one: not "something else".)
        if area <= 0 or any(
                contains(box, k.corners) or float(cv2.intersectConvexConvex(
                    np.asarray(box, np.float32), np.asarray(k.corners, np.float32))[0])
                >= _REGION_COVERED * area for k, _ in out):
            continue
        got.append((FoundCard(np.asarray(box, np.float32), straight=True),
                    Match(card_id=None, score=-1.0, margin=0.0, best_id="", rotation=0,
                          gate="region")))
    return got


def _fitted(matcher: DeckMatcher, image: Image, card: FoundCard,
            m: Match) -> Match:
    """``m`` with :meth:`DeckMatcher.fit` measured (accepted cards only); unknown, gate
    ``fit``, where it is above ``max_fit``."""
    if m.card_id is None:
        return m
    fit = matcher.fit(image, card.corners, m)
    if fit > matcher.params.max_fit:
        return replace(m, card_id=None, gate="fit", fit=fit)
    return replace(m, fit=fit)


def _decided(matcher: DeckMatcher, image: Image, grey: Image, card: FoundCard,
             m: Match) -> tuple[FoundCard, Match]:
    """:meth:`DeckMatcher.decide` of a found card (the corners of its best fit)."""
    q, v = matcher.decide(image, grey, card.corners, m)
    return FoundCard(q, straight=card.straight, others=card.others), v


def _verified(matcher: DeckMatcher, image: Image, grey: Image, card: FoundCard,
              m: Match) -> tuple[FoundCard, Match]:
    """:meth:`DeckMatcher.verify` of a found card (aligned: the aligned outline)."""
    q, v = matcher.verify(image, grey, card.corners, m)
    if q is card.corners:
        return card, v
    return FoundCard(q, straight=card.straight, others=card.others), v


def _median(grey: Image) -> float:
    """``np.median(grey)`` of a uint8 image, from its histogram (a tenth of the time on a
    640x480 frame: np.median sorts all of it)."""
    counts = np.cumsum(cv2.calcHist([grey], [0], None, [256], [0, 256]).ravel())
    n = int(counts[-1])
    lo = int(np.searchsorted(counts, (n - 1) // 2, side="right"))  # the middle one(s)
    hi = int(np.searchsorted(counts, n // 2, side="right"))
    return (lo + hi) / 2.0


def _one_per_place(out: list[tuple[FoundCard, Match]]) -> list[tuple[FoundCard, Match]]:
    """``out`` without a recognised card found twice at one place (by its outline and again
    from paper left over or by keypoints): of two cards recognised as the same card whose
    centres lie inside each other, the better one (else the tracker would count the card
    twice). Two different cards at one place are a pile: both stay."""
    kept: list[tuple[FoundCard, Match]] = []
    for card, m in sorted(out, key=lambda cm: -cm[1].score if cm[1].card_id else 1.0):
        if m.card_id is not None and any(
                k.card_id == m.card_id and (contains(c.corners, card.corners)
                                            or contains(card.corners, c.corners))
                for c, k in kept):
            continue
        kept.append((card, m))
    order = {id(cm[0]): i for i, cm in enumerate(out)}
    return sorted(kept, key=lambda cm: order[id(cm[0])])


def _by_keypoints(matcher: DeckMatcher, image: Image, grey: Image,
                  out: list[tuple[FoundCard, Match]], boxes: Sequence[FloatArray],
                  typical: float) -> list[tuple[FoundCard, Match]]:
    """Unknown loose boxes, and paper no card explains, searched for the deck's cards by what
    is printed on them (:func:`vision.keypoints.recover`; ``typical``: the area of the
    frame's recognised cards, 0 if none): the top card of a pile whose outline runs into
    the card below. A card recovered so replaces the unknown box it was found in."""
    known = [c.corners for c, m in out if m.card_id is not None]
    # The matcher's best few guesses for each unknown outline: the keypoints' vote misses the
    # top card of a pile now and then, and a misfit outline of it still ranks it among them.
    guesses = [(c.corners, [i for i, _ in matcher.candidates_in(image, c.corners, 1.0,
                                                                 _KP_HINTS)])
               for c, m in out if m.card_id is None and _KP_HINTS > 0]
    for box in boxes:
        hints = [i for corners, best in guesses
                 if corners is box or contains(box, corners) or contains(corners, box)
                 for i in best]
        got = recover(matcher, image, grey, box, typical, known, hints=hints)
        if got is None:
            continue
        # The unknown box it came from (if it was one) gives way to it.
        out = [(c, m) for c, m in out if m.card_id is not None or c.corners is not box]
        out.append(got)
        known.append(got[0].corners)
    return out


def _aligned(matcher: DeckMatcher, image: Image, grey: Image, card: FoundCard,
             m: Match) -> tuple[FoundCard, Match]:
    """The card aligned to each of its best candidates in turn (``vision.align``) and
    matched again: the best verdict of those, or the one given if none is better."""
    best_card, best = card, m
    for index, rotation in matcher.candidates_in(image, card.corners, _ALIGN_WITHIN,
                                                 _ALIGN_CANDIDATES):
        q = matcher.aligner.align(grey, card.corners, index, rotation)
        if q is None:
            continue
        q = order_corners(q, matcher.square)
        (m2,) = matcher.match_quads(image, [q])
        if m2.score > best.score:
            best_card, best = FoundCard(q, straight=card.straight, others=card.others), m2
        if m2.score < _ALIGN_GO_ON:
            # Aligned to its best candidate and still far from it: a card from no deck (the
            # next candidates are worse fits to begin with). Measured on the tuning seed: of
            # 143 cards recognised once aligned, 140 were by their first candidate, and the
            # other 3 had come to 0.87 with it or had not aligned at all.
            break
    if best is not m and best.card_id is not None and best.score < ALIGNED_MIN_SCORE:
        # Aligned, a card of the deck scores 0.95 and more; a card from no deck pulled into
        # shape by the alignment may pass the deck's thresholds, but not this.
        best = replace(best, card_id=None, gate="aligned_floor")
    return best_card, best


def _near(finder: CardFinder, matcher: DeckMatcher, image: Image, grey: Image,
          card: FoundCard, m: Match, taken: Sequence[FloatArray] = ()
          ) -> tuple[FoundCard, Match]:
    """A card still unknown may be a loose box around a pile: the boxes from straight edges
    around it (:meth:`CardFinder.find_near`; its outlines were tried already) are matched
    at once, and the best few that come near a card aligned; the best one recognised, if
    any, else the card as it was."""
    alts = [finder.settle(grey, o) for o in card.others] + finder.find_near(grey, card.corners)
    alts = [a for a in alts
            if float(np.abs(a.corners - card.corners).max()) >= 2.0
            and not any(contains(t, a.corners) or contains(a.corners, t) for t in taken)]
    if not alts:
        return card, m
    matches = matcher.match_quads(image, [a.corners for a in alts])
    best_card, best = card, m
    order = sorted(range(len(alts)), key=lambda i: -matches[i].score)
    need = max(STRAIGHT_MIN_SCORE, matcher.params.min_score)
    for i in order[:_NEAR_ALIGN]:
        alt, m2 = alts[i], matches[i]
        if m2.score < _NEAR_MIN_SCORE:
            break
        if m2.card_id is None or m2.score < need:
            # (Recognised but too weak to count: a few pixels off, as the top card of a
            # pile often is. Aligned, it comes up to what it needs, or it is no card.)
            alt, m2 = _aligned(matcher, image, grey, alt, m2)
        if m2.score < need:
            continue
        if m2.card_id is not None and (best.card_id is None or m2.score > best.score):
            best_card, best = alt, m2
    return best_card, best


def candidates_of(matcher: DeckMatcher, image: Image, o: Observation,
                  limit: int = CANDIDATES) -> tuple[tuple[str, float], ...]:
    """The best ``limit`` cards for observation ``o`` of ``image``, best first (card id,
    score): a named card's verdict carries them (``Match.candidates``, at most
    :data:`vision.match.CANDIDATES`); for a card not named they are computed once, every
    template scored (:meth:`DeckMatcher.ranked_in`), the fine decision's ranking first where
    it ran (its aligned candidates), the compared size's after them."""
    m = o.match
    if o.card_id is not None:
        return m.candidates
    fine = m.candidates if not np.isnan(m.fine) else ()
    if len(fine) >= limit:
        return fine[:limit]
    quad = np.roll(o.corners, m.rotation, axis=0)  # (as found: ``observe`` turned it)
    ranked = matcher.ranked_in(image, quad, limit + len(fine))
    seen = {c for c, _ in fine}
    return (*fine, *(c for c in ranked if c[0] not in seen))[:limit]


class FrameLike(Protocol):
    """What :meth:`CardWatcher.process` needs of a ``vision.camera.Frame``."""

    @property
    def image(self) -> Image: ...

    @property
    def t_ns(self) -> int: ...

    @property
    def seq(self) -> int: ...


@dataclass(frozen=True)
class CardEvent:
    """A card was played: confirmed in the frame stamped ``t_ns`` (CLOCK_MONOTONIC ns, the
    camera's timestamp) with sequence number ``seq``; first seen in the frame stamped
    ``first_seen_ns``."""

    t_ns: int
    seq: int
    zone: str | None
    card_id: str
    score: float
    margin: float
    corners: tuple[tuple[float, float], ...]  # frame px, the card's top-left first, clockwise
    first_seen_ns: int
    #: its best cards, best first (``Match.candidates``: card id, score)
    candidates: tuple[tuple[str, float], ...] = ()


#: Frames a card found but not named must be seen in, where it lies, before the host is
#: asked about it (:class:`UnsureCard`): more than a named card's ``stable_frames``, so a
#: card the next frames name after all (the search of a part is retried for
#: :data:`RETRY_FRAMES` frames) is not asked about.
UNSURE_FRAMES = 6
#: How many candidates an unsure card carries (:class:`UnsureCard`): the question's two pages
#: of 3 (``tablekeeper.ask``; how often the right card is among them: ``bench ask``).
ASK_CANDIDATES = 6
#: The long side (px) of an unsure card's picture for the screen.
CROP_LONG_SIDE = 360


@dataclass(frozen=True)
class UnsureCard:
    """A card found but not named that has lain still for :data:`UNSURE_FRAMES` frames: the
    screen shows ``crop`` (the card straightened, BGR) beside ``candidates`` (its best cards,
    best first: card id, score; computed once, now) and asks the host. ``key`` tells one
    unsure card from another for as long as the watcher tracks it."""

    t_ns: int
    seq: int
    zone: str | None
    corners: tuple[tuple[float, float], ...]
    first_seen_ns: int
    candidates: tuple[tuple[str, float], ...]
    crop: Image
    #: why it is unknown (the gate that refused it: ``Match.gate``)
    gate: str | None
    key: int
    #: the card straightened at the deck's size (BGR): what it would be learnt from
    #: (``vision.learnt``) once the host names it
    template: Image | None = None

    @property
    def centre(self) -> tuple[float, float]:
        xs = [p[0] for p in self.corners]
        ys = [p[1] for p in self.corners]
        return sum(xs) / len(xs), sum(ys) / len(ys)


@dataclass
class _UnsureTrack:
    centre: tuple[float, float]
    radius: float
    first_seen_ns: int
    key: int
    streak: int = 1
    missing: int = 0
    asked: bool = False


@dataclass(frozen=True)
class Observation:
    """One recognised card in one frame (``card_id`` None: found but not recognised)."""

    card_id: str | None
    match: Match
    corners: FloatArray
    zone: str | None
    #: Found from straight edges only, not as an outline (see ``FoundCard.straight``).
    straight: bool = False

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])


@dataclass
class _Track:
    card_id: str
    centre: tuple[float, float]
    radius: float
    first_seen_ns: int
    streak: int = 1
    missing: int = 0
    confirmed: bool = False
    #: the table around it when it was confirmed (:func:`_ring`): a card not seen where
    #: that changed is covered (a hand resting over it), not gone
    ring: FloatArray | None = None
    covered: int = 0  # frames in a row it was not seen and covered
    corners: FloatArray | None = None  # where it was last seen


#: Points around a card (on a circle 1.25 half-diagonals from its centre) whose colour says
#: whether something lies over it (:func:`_ring`), and how many of them must have changed
#: (by :data:`RING_CHANGE` grey levels) for a card not seen to be covered rather than gone.
RING_POINTS = 16
RING_CHANGED = 3
RING_CHANGE = 40.0
#: ... taken again every this many sightings of the card.
RING_REFRESH = 30
#: A card covered this many times ``forget_frames`` frames on end is forgotten all the same.
COVERED_LIMIT = 10


def _ring(image: Image, corners: FloatArray) -> FloatArray:
    """The colours (RING_POINTS x 3, nan outside the frame) of small patches around the card
    at ``corners``: the table next to it, as long as nothing lies over the place."""
    c = np.asarray(corners, np.float32)
    centre = c.mean(axis=0)
    r = 1.25 * float(np.linalg.norm(c - centre, axis=1).max())
    h, w = image.shape[:2]
    out = np.full((RING_POINTS, 3), np.nan, np.float32)
    for k in range(RING_POINTS):
        a = 2 * np.pi * k / RING_POINTS
        x, y = int(centre[0] + r * np.cos(a)), int(centre[1] + r * np.sin(a))
        if 2 <= x < w - 2 and 2 <= y < h - 2:
            patch = image[y - 2:y + 3, x - 2:x + 3].reshape(-1, image.shape[2]
                                                            if image.ndim == 3 else 1)
            out[k, :patch.shape[1]] = patch.mean(axis=0)
            if patch.shape[1] == 1:
                out[k, 1:] = out[k, 0]
    return out


def _ring_changed(before: FloatArray, now: FloatArray) -> bool:
    """Has something come over the place (:data:`RING_CHANGED` of the ring's points changed
    by :data:`RING_CHANGE` or more)?"""
    diff = np.abs(now - before).mean(axis=1)
    return int(np.count_nonzero(diff >= RING_CHANGE)) >= RING_CHANGED


def _covered(centre: tuple[float, float], obs: Sequence[Observation]) -> bool:
    """Is ``centre`` inside the outline of one of ``obs`` (something found over a card that
    is not seen: a hand resting on it, found as an unknown card or a region, or a card laid
    on it)?"""
    pt = (float(centre[0]), float(centre[1]))
    return any(cv2.pointPolygonTest(np.asarray(o.corners, np.float32).reshape(-1, 1, 2), pt,
                                    False) >= 0 for o in obs)


def _overlaps(corners: FloatArray, box: tuple[int, int, int, int]) -> bool:
    """Does the bounding box of ``corners`` meet ``box`` (x0, y0, x1, y1)?"""
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    return bool(lo[0] < box[2] and hi[0] > box[0] and lo[1] < box[3] and hi[1] > box[1])


def _same_cards(a: Sequence[Observation], b: Sequence[Observation]) -> bool:
    """Do ``a`` and ``b`` show the same cards (recognised or not) at the same places (each
    centre within a quarter of the card's short side of its match's)?"""
    if len(a) != len(b):
        return False
    left = list(b)
    for o in a:
        e = np.linalg.norm(np.roll(o.corners, -1, axis=0) - o.corners, axis=1)
        near = 0.25 * float(e.min())
        k = next((i for i, p in enumerate(left) if p.card_id == o.card_id
                  and np.hypot(p.centre[0] - o.centre[0], p.centre[1] - o.centre[1]) <= near),
                 -1)
        if k < 0:
            return False
        del left[k]
    return True


def zone_of(zones: tuple[Zone, ...], x: float, y: float) -> str | None:
    for z in zones:
        if z.contains(x, y):
            return z.name
    return None


class CardWatcher:
    """Turns frames into :class:`CardEvent` s; see the module docstring."""

    def __init__(self, deck: DeckLike, config: VisionConfig | None = None,
                 deck_id: str | None = None) -> None:
        self.config = config or VisionConfig()
        did = deck_id if deck_id is not None else str(getattr(deck, "id", ""))
        self.finder = CardFinder(deck.size, self.config.find)
        #: the deck (a ``vision.learnt.LearningDeck`` grows templates at the table: its
        #: ``version`` changes, and :attr:`learnt` is made again before the next search)
        self.deck = deck
        self._deck_id = did
        enrolled = getattr(deck, "deck", None) or deck
        # (A deck enrolled by ``vision enroll`` carries its measured foreign-card gate.)
        self.matcher = DeckMatcher.from_deck(
            enrolled, self.config.match_params(did, getattr(enrolled, "max_fit", None)))
        # The deck's keypoints now rather than at the first pile of the game, which would
        # then wait for them (half a second for 181 cards here, more on a Pi).
        index_for(self.matcher)
        #: the templates learnt at the table alone (None: none): a second opinion on a card
        #: the enrolled ones leave unknown (:meth:`_learnt_opinion`)
        self.learnt: DeckMatcher | None = None
        self._deck_version: object = object()
        self._deck_changed()
        self._tracks: list[_Track] = []
        #: The observations of the last processed frame (for a screen or a debug view).
        self.last: list[Observation] = []
        #: Frames searched for cards, and frames that showed the same table as the last
        #: one searched (their cards were taken from it).
        self.searched = 0
        self.still = 0
        #: Frames where only the part of the table that changed was searched (the cards
        #: elsewhere were taken from the frame before).
        self.searched_part = 0
        #: See :data:`PART_MAX` (0: always search the whole frame).
        self.part_max = PART_MAX
        self._still_ref: npt.NDArray[np.int16] | None = None
        self._since_search = 0
        #: Frames between two searches of a still table (:data:`REFRESH_FRAMES`, doubled
        #: while they find the same table), and whether the search under way is one.
        self.refresh_frames = REFRESH_FRAMES
        self._refreshing = False
        self._retrying = False
        #: See :data:`REFRESH_MAX_FRAMES` (``REFRESH_FRAMES``: no back-off).
        self.refresh_max = REFRESH_MAX_FRAMES
        #: The area (px²) of the cards recognised in the last search that recognised any
        #: (0: none yet): a loose box around a pile is told by it where no card in the frame
        #: is recognised (``recognise``'s ``card_area``).
        self.card_area = 0.0
        #: Frames in which the part that changed last is searched again although nothing
        #: moved since: it held something found but not recognised (a pile's top card whose
        #: outline came out wrong: another frame's noise may bring it out right).
        self._retries = 0
        self._retry_box: tuple[int, int, int, int] | None = None
        #: See :data:`MOTION_MAX_FRAMES` (0: no motion gating, every change is searched at
        #: once). Frames in which a moving part of the table was left for later.
        self.motion_max = MOTION_MAX_FRAMES
        self.gated = 0
        self._prev: npt.NDArray[np.int16] | None = None  # the last frame's blocks
        self._prev_moving: npt.NDArray[np.bool_] | None = None
        self._waited: npt.NDArray[np.int32] | None = None  # frames each block was left
        #: This frame's blocks left for later (moving), and those that changed since they were
        #: last searched but lie as in the frame before (settled): see ``process``.
        self._held: npt.NDArray[np.bool_] | None = None
        self._settled: npt.NDArray[np.bool_] | None = None
        self._prev_t_ns: int | None = None
        self._recent: list[npt.NDArray[np.bool_]] = []  # the last frames' moving blocks
        #: Cards found but not named, tracked by place (:class:`UnsureCard`), and those that
        #: settled since :meth:`take_unsure` was last called. ``unsure_frames`` = 0: never
        #: reported.
        self._unsure_tracks: list[_UnsureTrack] = []
        self.unsure: list[UnsureCard] = []
        self.unsure_frames = UNSURE_FRAMES
        self._unsure_keys = 0

    def reset(self) -> None:
        """Forget every card (a new game: the same cards will be played again)."""
        self._tracks.clear()
        self._unsure_tracks.clear()
        self.unsure.clear()
        self.last = []
        self._still_ref = None
        self.refresh_frames = REFRESH_FRAMES
        self._retries = 0
        self._prev = self._prev_moving = self._waited = None
        self._held = self._settled = None
        self._prev_t_ns = None
        self._recent = []

    def forget(self) -> None:
        """Forget which cards were reported, keeping what the table looks like: every card
        still in view is reported again once it is seen for ``stable_frames`` frames more,
        stamped as first seen in the next frame (a game's move was undone: the card on the
        pile must be offered again; the camera would otherwise never report it twice)."""
        self._tracks.clear()
        self._unsure_tracks.clear()

    def _change(self, image: Image) -> tuple[int, int, int, int] | str:
        """What changed since the last frame searched: ``"nothing"`` (the same table),
        ``"all"`` (search the whole frame), or the box (x0, y0, x1, y1) px around the parts
        that changed. Compared by the mean grey of 8x8 blocks (camera noise moves them by a
        few levels; a card laid, moved or taken, or a hand, by tens). Every
        :attr:`refresh_frames`-th frame counts as changed all over; in the
        :data:`RETRY_FRAMES` frames after a change that left a card unknown, the box that
        changed counts as changed again.

        Motion gating (:attr:`motion_max` > 0): blocks that moved since the frame before,
        connected to blocks that had moved in the frame before that too, are a motion under
        way (a hand): they are left for later, their reference kept, until they lie still
        for a frame (or have waited :attr:`motion_max` frames). A change that is not part of
        a motion under way (a card that appears, a part that has just settled) is searched
        at once, as without gating."""
        grey = to_grey(image)
        h, w = grey.shape
        bw, bh = max(1, w // 8), max(1, h // 8)
        blocks = np.asarray(cv2.resize(grey, (bw, bh), interpolation=cv2.INTER_AREA),
                            dtype=np.int16)
        ref, prev = self._still_ref, self._prev
        self._prev = blocks
        self._refreshing = self._retrying = False
        self._held = self._settled = None
        if ref is None or ref.shape != blocks.shape or prev is None or prev.shape != blocks.shape:
            self._still_ref = blocks
            self._prev_moving = np.zeros(blocks.shape, dtype=np.bool_)
            self._recent = []
            self._waited = np.zeros(blocks.shape, dtype=np.int32)
            self._since_search = 0
            return "all"
        moving = np.abs(blocks - prev) >= STILL_LEVELS
        changed = np.abs(blocks - ref) >= STILL_LEVELS
        self._prev_moving = moving
        recent = self._recent
        self._recent = [moving, *recent[:MOTION_MEMORY - 1]]
        held = np.zeros(blocks.shape, dtype=np.bool_)
        if self.motion_max > 0 and changed.any() and (moving.any() or any(
                r.any() for r in recent)):
            held = self._moving_parts(changed, moving, recent, self._waited)
        waited = self._waited if self._waited is not None else np.zeros(blocks.shape, np.int32)
        waited = np.where(held, waited + 1, 0).astype(np.int32)
        if held.any() and int(waited.max()) > self.motion_max:
            held[:] = False  # (waited long enough: searched as it is)
            waited[:] = 0
        self._waited = waited
        if self._since_search >= self.refresh_frames and not held.any():
            self._since_search = 0
            self._refreshing = True
            self._still_ref = blocks
            self._settled = changed & ~moving
            return "all"
        self._since_search += 1
        search = changed & ~held
        if held.any():
            self.gated += 1
            self._held = held
        if not search.any():
            # (compared with the frame searched, not the last one; the box of a card left
            # unknown is searched again once nothing moves over it)
            if self._retries > 0 and self._retry_box is not None and not (
                    held.any() and self._box_held(self._retry_box, held, image.shape)):
                self._retries -= 1
                self._retrying = True
                return self._retry_box
            return "nothing"
        self._settled = changed & ~moving
        # Every block but those left for later is now as searched.
        self._still_ref = np.where(held, ref, blocks).astype(np.int16)
        ys, xs = np.nonzero(search)
        return (int(xs.min()) * w // bw, int(ys.min()) * h // bh,
                -(-(int(xs.max()) + 1) * w // bw), -(-(int(ys.max()) + 1) * h // bh))

    def _moving_parts(self, changed: npt.NDArray[np.bool_], moving: npt.NDArray[np.bool_],
                      recent: Sequence[npt.NDArray[np.bool_]],
                      waited: npt.NDArray[np.int32] | None) -> npt.NDArray[np.bool_]:
        """The blocks of ``changed`` to leave for later (see ``_change``), in parts (blocks
        a block or two apart are one part: the mean grey of a block half on a hand may not
        change by much) that are

        * moving now where something moved (within a block) in the frames just before: a
          motion under way (a hand's edges move, its middle may not);
        * reaching in from the frame's border and moving now, nothing having moved before:
          an arm coming in, or a card laid at the edge (searched in the next frame if it
          lies still then: :meth:`process` counts it as seen in this frame too);
        * with blocks left for later in each of the last two frames (``waited``), though
          still now: a hand that stops for a frame at the end of its reach."""
        joined = cv2.dilate((changed | moving).astype(np.uint8), _JOIN)
        _, labels = cv2.connectedComponents(joined, connectivity=8)
        going: set[int] = set()
        before = [cv2.dilate(r.astype(np.uint8), _NEAR) > 0 for r in recent]
        if moving.any() and before:
            going |= set(np.unique(labels[moving & np.logical_or.reduce(before)]).tolist())
        edge = np.zeros(changed.shape, dtype=np.bool_)
        edge[0, :] = edge[-1, :] = edge[:, 0] = edge[:, -1] = True
        for k in set(np.unique(labels[edge & (joined > 0)]).tolist()) - going - {0}:
            part = labels == k
            if (moving & part).any() and not any((b & part).any() for b in before):
                going.add(k)
        if waited is not None and (waited >= 2).any():
            # ... and a part that moved for frames on end and stops: a hand stops for a
            # frame at the end of its reach (a card laid, moving in one frame only, does not
            # wait).
            # (Most of it: a card laid where a hand has just left shares a few such blocks.)
            long = (waited >= 2) & before[0] if before else np.zeros_like(changed)
            for k in set(np.unique(labels[long]).tolist()) - going - {0}:
                part = changed & (labels == k)
                if 10 * int((long & part).sum()) >= int(part.sum()):
                    going.add(k)
        going.discard(0)
        if not going:
            return np.zeros(changed.shape, dtype=np.bool_)
        return np.asarray(changed & np.isin(labels, sorted(going)), dtype=np.bool_)

    def _box_held(self, box: tuple[int, int, int, int], held: npt.NDArray[np.bool_],
                  shape: tuple[int, ...]) -> bool:
        """Does ``box`` (x0, y0, x1, y1) px meet a block of ``held``?"""
        x0, y0, x1, y1 = box
        q = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float32)
        return bool(self._blocks_under(q, held, shape).any())

    def _blocks_under(self, corners: FloatArray, mask: npt.NDArray[np.bool_],
                      shape: tuple[int, ...]) -> npt.NDArray[np.bool_]:
        """The blocks of ``mask`` (the 8x8 blocks of a frame of ``shape``) under the bounding
        box of ``corners``."""
        h, w = shape[:2]
        bh, bw = mask.shape
        lo, hi = corners.min(axis=0), corners.max(axis=0)
        x0, y0 = max(0, int(lo[0] * bw / w)), max(0, int(lo[1] * bh / h))
        x1, y1 = min(bw, int(np.ceil(hi[0] * bw / w))), min(bh, int(np.ceil(hi[1] * bh / h)))
        return mask[y0:max(y0 + 1, y1), x0:max(x0 + 1, x1)]

    def _observe_part(self, image: Image,
                      changed: tuple[int, int, int, int]) -> list[Observation] | None:
        """The cards of ``image`` where only ``changed`` (x0, y0, x1, y1) changed since the
        last frame searched: those of that frame clear of it, and those found in it (with
        the cards it touches, widened by half a card); None when that is too much of the
        frame to gain anything."""
        h, w = image.shape[:2]
        x0, y0, x1, y1 = (float(v) for v in changed)
        # The cards the change touches are searched for again, whole.
        for o in self.last:
            if _overlaps(o.corners, changed):
                (ax, ay), (bx, by) = o.corners.min(axis=0), o.corners.max(axis=0)
                x0, y0, x1, y1 = min(x0, ax), min(y0, ay), max(x1, bx), max(y1, by)
        # A card laid may reach a little beyond the blocks that changed (its white border on
        # a white card): widened by half a card (the largest seen, else a quarter frame).
        pad = 0.5 * max((float(np.ptp(o.corners, axis=0).max()) for o in self.last),
                        default=0.25 * max(w, h))
        part = (max(0, round(x0 - pad)), max(0, round(y0 - pad)),
                min(w, round(x1 + pad)), min(h, round(y1 + pad)))
        if (part[2] - part[0]) * (part[3] - part[1]) > self.part_max * w * h:
            return None
        kept = [o for o in self.last if not _overlaps(o.corners, changed)]
        new = [o for o in self.observe(image, part, [k.corners for k in kept])
               if not any(contains(k.corners, o.corners) for k in kept)]
        return kept + new

    def observe(self, image: Image, region: tuple[int, int, int, int] | None = None,
                known: Sequence[FloatArray] = ()) -> list[Observation]:
        """Find and match the cards of one image (no tracking); only those wholly inside
        ``region`` (x0, y0, x1, y1) px, if given, where the cards at ``known`` lie already
        (:meth:`CardFinder.find`)."""
        self._deck_changed()
        out = []
        found = recognise(self.finder, self.matcher, image, region, known, self.card_area,
                          regions=True)
        if self.learnt is not None:
            found = [(c, self._learnt_opinion(image, c, m)) for c, m in found]
        areas = [c.area for c, m in found if m.card_id is not None]
        if areas:
            self.card_area = float(np.median(areas))
        for card, m in found:
            # Report corners in the card's own orientation: its printed top-left first.
            corners = np.roll(card.corners, -m.rotation, axis=0).astype(np.float32)
            cx, cy = card.centre
            out.append(Observation(m.card_id, m, corners, zone_of(self.config.zones, cx, cy),
                                   card.straight))
        return out

    def process(self, frame: FrameLike) -> list[CardEvent]:
        """Feed one frame; return the cards that became played in it (usually none)."""
        image = getattr(frame, "image", None)
        if image is None:
            raise FrameError(f"expected a camera Frame with an image, got {type(frame).__name__}")
        if self._deck_changed():
            self._still_ref = None  # (a template learnt: the whole table searched with it)
        change = self._change(check_image(image))
        part = None
        if change == "nothing":
            obs = self.last  # the same table: the same cards (no search)
            self.still += 1
        elif isinstance(change, tuple):
            part = self._observe_part(image, change)
        if change == "all" or (isinstance(change, tuple) and part is None):
            obs = self.observe(image)
            self.searched += 1
            self._since_search = 0
        elif part is not None:
            obs = part
            self.searched_part += 1
        if isinstance(change, tuple):
            unknown = any(o.card_id is None and o.match.gate != "region"
                          and _overlaps(o.corners, change) for o in obs)
            if not unknown:
                self._retries = 0
            elif not self._retrying:
                self._retry_box, self._retries = change, RETRY_FRAMES
        elif change == "all":
            self._retries = 0
        if change != "nothing":
            if self._refreshing and _same_cards(obs, self.last):
                self.refresh_frames = min(2 * self.refresh_frames, self.refresh_max)
            else:
                if part is not None and self.refresh_frames > REFRESH_FRAMES:
                    # The first change after a still spell: the table was the one last
                    # searched whole until now, so the wait for the next whole search
                    # starts now (else it would be overdue, and searched in the next frame).
                    self._since_search = 0
                self.refresh_frames = REFRESH_FRAMES
        before = {id(o) for o in self.last}
        self.last = obs
        t_ns, seq = int(frame.t_ns), int(frame.seq)
        prev_t_ns, self._prev_t_ns = self._prev_t_ns, t_ns
        held, settled, moving = self._held, self._settled, self._prev_moving
        shape = image.shape
        events: list[CardEvent] = []
        seen: set[int] = set()
        kept_on: set[int] = set()  # tracks under a motion under way: neither seen nor missed
        for o in obs:
            if o.card_id is None:
                continue
            cx, cy = o.centre
            if held is not None and self._blocks_under(o.corners, held, shape).any():
                # (Under a hand that moves: not a sighting, nor is the card gone.)
                t = self._associate(o.card_id, cx, cy, seen | kept_on)
                if t is not None:
                    kept_on.add(id(t))
                continue
            track = self._associate(o.card_id, cx, cy, seen)
            if track is None:
                e = np.linalg.norm(np.roll(o.corners, -1, axis=0) - o.corners, axis=1)
                radius = 0.5 * float(e.min())
                track = _Track(o.card_id, (cx, cy), radius, t_ns)
                if (settled is not None and moving is not None and prev_t_ns is not None
                        and id(o) not in before
                        and self._blocks_under(o.corners, settled, shape).any()
                        and not self._blocks_under(o.corners, moving, shape).any()):
                    # Found where the table changed since it was last searched but lies as
                    # in the frame before (searched now, left for later then: a hand moved
                    # there): the card was in that frame too, as a card found in one frame
                    # is in the next unchanged one.
                    track.streak, track.first_seen_ns = 2, prev_t_ns
                self._tracks.append(track)
            else:
                track.centre = (cx, cy)
                track.streak += 1
                track.missing = 0
            seen.add(id(track))
            track.covered = 0
            track.corners = np.asarray(o.corners, np.float32)
            if track.confirmed and track.streak % RING_REFRESH == 0:
                track.ring = _ring(image, o.corners)  # (the hand that laid it long gone)
            if not track.confirmed and track.streak >= self.config.stable_frames:
                track.confirmed = True
                track.ring = _ring(image, o.corners)
                events.append(CardEvent(
                    t_ns=t_ns, seq=seq, zone=o.zone, card_id=o.card_id,
                    score=o.match.score, margin=o.match.margin,
                    corners=tuple((float(x), float(y)) for x, y in o.corners),
                    first_seen_ns=track.first_seen_ns, candidates=o.match.candidates))
        if self.unsure_frames > 0:
            self._track_unsure(image, obs, held, shape, t_ns, seq)
        kept = []
        for t in self._tracks:
            if id(t) not in seen:
                if id(t) in kept_on or (held is not None and self._held_at(t.centre, shape)):
                    kept.append(t)
                    continue
                if t.confirmed and t.covered < COVERED_LIMIT * self.config.forget_frames and (
                        _covered(t.centre, obs) or (t.ring is not None and t.corners is not None
                                                    and _ring_changed(
                            t.ring, _ring(image, t.corners)))):
                    # (Something over it: found there, unnamed or another card, or the
                    # table around it changed -- a hand resting on it, a card laid on it.
                    # Not gone: uncovered, it is the same card.)
                    t.covered += 1
                    kept.append(t)
                    continue
                t.covered = 0
                t.missing += 1
                if (not t.confirmed and t.missing > 1) or t.missing >= self.config.forget_frames:
                    # An unconfirmed card may be missed in one frame between two sightings
                    # (a flicker of the finder on a pile); longer, it is forgotten.
                    continue
            kept.append(t)
        self._tracks = kept
        return events

    def _deck_changed(self) -> bool:
        """Templates learnt at the table (the deck's ``version`` changed): :attr:`learnt` is
        made again. True if it was."""
        version = getattr(self.deck, "version", None)
        if version == self._deck_version:
            return False
        self._deck_version = version
        per = getattr(self.deck, "learnt_templates", None)
        cards = per() if callable(per) else {}
        self.learnt = None if not cards else DeckMatcher(
            list(cards), [list(v) for v in cards.values()], self.matcher.size,
            square=self.matcher.square, use_colour=bool(getattr(self.deck, "use_colour", False)),
            params=self.config.match_params(self._deck_id))
        return True

    def _learnt_opinion(self, image: Image, card: FoundCard, m: Match) -> Match:
        """A card the enrolled templates leave unknown, whose best card by them has templates
        learnt at the table: named that card if its learnt templates fit it (the deck's
        ``min_score``) better than any other card's learnt ones. The enrolled templates'
        verdicts are never changed otherwise: learnt among them, tonight's light made a
        learnt template fit other cards better than their own (``bench ask``,
        set-boards-9: named 49 % -> 35 %, or 116 cards wrong), so a learnt template only
        makes the camera sure of the card the enrolled ones already rank first. Where the
        deck has a foreign-card gate (``max_fit``), the card must also fit its learnt
        templates under it (:meth:`DeckMatcher.fit_learnt`)."""
        learnt = self.learnt
        if m.card_id is not None or learnt is None or m.best_id not in learnt.ids:
            return m
        (e,) = learnt.match_quads(image, [card.corners])
        p = learnt.params
        if e.best_id != m.best_id or e.score < p.min_score or e.margin < p.min_margin:
            return m
        if self.matcher.params.max_fit > 0:
            # The foreign-card gate holds for them too, measured against the card as learnt
            # tonight: a card the evening's light made misfit its enrolled templates fits
            # its learnt ones; a card from outside the deck still misfits them.
            per = getattr(self.deck, "learnt_templates", None)
            mine = per().get(m.best_id, ()) if callable(per) else ()
            fit = self.matcher.fit_learnt(image, card.corners, m.best_id, m.rotation, mine,
                                          e.rotation)
            if not fit <= self.matcher.params.max_fit:
                return replace(m, fit=fit) if fit == fit else m
            return replace(m, card_id=m.best_id, gate=None, fit=fit)
        return replace(m, card_id=m.best_id, gate=None)

    def take_unsure(self) -> list[UnsureCard]:
        """The cards found but not named that settled since the last call (each once)."""
        out, self.unsure = self.unsure, []
        return out

    def _track_unsure(self, image: Image, obs: Sequence[Observation],
                      held: npt.NDArray[np.bool_] | None, shape: tuple[int, ...], t_ns: int,
                      seq: int) -> None:
        """Cards found but not named, tracked by place: one that lies there for
        :attr:`unsure_frames` frames becomes an :class:`UnsureCard` (once; again only if it
        goes away and comes back). A named card at its place ends its track; under a moving
        hand it is neither seen nor missed."""
        named = [o for o in obs if o.card_id is not None]
        seen: set[int] = set()
        kept_on: set[int] = set()
        for o in obs:
            if o.card_id is not None or o.match.gate == "region":
                continue  # (a region, "something is there", is no card to name)
            cx, cy = o.centre
            e = np.linalg.norm(np.roll(o.corners, -1, axis=0) - o.corners, axis=1)
            near = 0.25 * float(e.min())
            if any(float(np.hypot(n.centre[0] - cx, n.centre[1] - cy)) <= near
                   for n in named):
                continue  # (a card named at the same place: its outline found twice)
            if held is not None and self._blocks_under(o.corners, held, shape).any():
                t = self._unsure_at(cx, cy, seen | kept_on)
                if t is not None:
                    kept_on.add(id(t))
                continue
            track = self._unsure_at(cx, cy, seen)
            if track is None:
                self._unsure_keys += 1
                track = _UnsureTrack((cx, cy), 0.5 * float(e.min()), t_ns, self._unsure_keys)
                self._unsure_tracks.append(track)
            else:
                track.centre = (cx, cy)
                track.streak += 1
                track.missing = 0
            seen.add(id(track))
            if not track.asked and track.streak >= self.unsure_frames:
                track.asked = True
                self.unsure.append(self._unsure_card(image, o, track, t_ns, seq))
        kept = []
        for t in self._unsure_tracks:
            if id(t) not in seen and id(t) not in kept_on:
                if any(float(np.hypot(n.centre[0] - t.centre[0], n.centre[1] - t.centre[1]))
                       <= t.radius for n in named):
                    continue  # named now
                t.missing += 1
                if (not t.asked and t.missing > 1) or t.missing >= self.config.forget_frames:
                    continue
            kept.append(t)
        self._unsure_tracks = kept

    def _unsure_at(self, x: float, y: float, taken: set[int]) -> _UnsureTrack | None:
        best, best_d = None, float("inf")
        for t in self._unsure_tracks:
            if id(t) in taken:
                continue
            d = float(np.hypot(t.centre[0] - x, t.centre[1] - y))
            if d <= t.radius and d < best_d:
                best, best_d = t, d
        return best

    def _unsure_card(self, image: Image, o: Observation, track: _UnsureTrack, t_ns: int,
                     seq: int) -> UnsureCard:
        """The question about ``o``: its picture and its best candidates, computed once
        (every template scored, :meth:`DeckMatcher.ranked_in`; the fine decision's ranking
        where the deck has it)."""
        m = o.match
        cands = candidates_of(self.matcher, image, o, ASK_CANDIDATES)
        w, h = self.matcher.size
        scale = CROP_LONG_SIDE / max(w, h)
        crop = warp_card(image, o.corners, (max(1, round(w * scale)), max(1, round(h * scale))))
        return UnsureCard(t_ns=t_ns, seq=seq, zone=o.zone,
                          corners=tuple((float(x), float(y)) for x, y in o.corners),
                          first_seen_ns=track.first_seen_ns, candidates=cands, crop=crop,
                          gate=m.gate, key=track.key,
                          template=warp_card(image, o.corners, self.matcher.size))

    def _held_at(self, centre: tuple[float, float], shape: tuple[int, ...]) -> bool:
        """Is the block at ``centre`` (frame px) left for later in this frame?"""
        if self._held is None:
            return False
        h, w = shape[:2]
        bh, bw = self._held.shape
        x = min(bw - 1, max(0, int(centre[0] * bw / w)))
        y = min(bh - 1, max(0, int(centre[1] * bh / h)))
        return bool(self._held[y, x])

    def _associate(self, card_id: str, x: float, y: float, taken: set[int]) -> _Track | None:
        best, best_d = None, float("inf")
        for t in self._tracks:
            if t.card_id != card_id or id(t) in taken:
                continue
            d = float(np.hypot(t.centre[0] - x, t.centre[1] - y))
            if d <= t.radius and d < best_d:
                best, best_d = t, d
        return best

    @property
    def on_table(self) -> list[tuple[str, tuple[float, float]]]:
        """The confirmed cards remembered now: (card id, centre)."""
        return [(t.card_id, t.centre) for t in self._tracks if t.confirmed]
