"""Recognition by template matching: one matrix product scores a card against a whole deck.

``cv2.matchTemplate(card, template, cv2.TM_CCOEFF_NORMED)`` with card and template of the same
size is the Pearson correlation of their pixels: subtract each one's mean (per channel),
divide by the norm, take the dot product. So every template is normalised once, when the deck
is loaded, into one row of a matrix ``T``; a warped card normalised the same way into a vector
``p``; and ``T @ p`` is the score against every template, in every orientation, in one step.
With ``MatchParams(size=None, blur_sigma=0, local_contrast=False)`` the scores equal
``cv2.matchTemplate``'s (tested to 1e-4).

For the table the features are made more forgiving:

* ``size``: the card is compared downscaled (default long side 48 px), which tolerates a few
  pixels of misplaced corners and is what makes a 180-tile deck cost well under a millisecond;
* ``blur_sigma``: a slight Gaussian blur, for the same reason;
* ``local_contrast``: subtracting a heavily blurred copy removes slow illumination gradients
  (a lamp on one side, a shadow) that the global mean/std of the correlation cannot;
* colour: decks whose cards differ by colour (``use_colour``) are compared on all three
  channels (per-channel mean, joint norm, as ``cv2.matchTemplate`` does for BGR), the others on
  grey.

Each template is stored in both 180° orientations (all four rotations for square tiles).
A card is **unknown** (``Match.card_id is None``) when its best score is below ``min_score`` or
closer than ``min_margin`` to the best score of any *other* card: a wrong card is worse than no
card. Both thresholds are data (``vision.config.Thresholds``), measured by
``tablekeeper bench vision``.

A card from no deck that shares a big shape with a deck card (a *look-alike*: the same hexagon
in another colour, another word under it) can pass those thresholds: the shape is most of what
the features see, and no other card of the deck comes close. Two checks refuse it:

* **colours** (decks compared in colour, for templates that have colours at all): the card's
  log chromaticity at 12 px (:func:`colours`: independent of brightness and, after subtracting
  its mean, of the light's colour) must correlate with its template's by at least
  ``min_colour`` (0.75). Measured on the tuning frames (seeds 1000-1002, the four colour
  decks): 3664 cards of the deck 0.85 and more; the look-alike accepted before (tuning seed
  1001, frame 35: a brown hexagon taken for the purple one of k157) 0.55.
* **alignment** (every deck; :meth:`DeckMatcher.verify`, run by ``vision.tracker``): a card
  accepted with a score below ``min_aligned`` (0.9) is aligned to its template by what is
  printed on it (``vision.align``) and matched again; it stays that card only if it then scores
  ``min_aligned``. A card of the deck scores low because its corners are a few pixels off: all
  493 such cards of the tuning frames scored 0.92 or more once aligned. A look-alike scores low
  for what is printed on it, which aligning does not change: of 253 cards from no deck (and
  found shapes that are no card) scoring 0.6-0.9 there, the best came to 0.85.

A look-alike that differs only in small print (the same picture in the same colours, another
word) still passes: at the compared size a word is a few pixels. ``min_aligned = 0`` and
``min_colour = -1`` turn the checks off.

Near-twins
----------
Cards of the deck that share most of their face (a number over shared artwork, a suit, a
shading) score alike at 48 px: the right one 0.95-0.98, the next within 0.005-0.013, so the
margin leaves them unknown. When the best card's margin is below ``twin_trigger`` or its
relative margin below ``min_rel_margin``, the candidates within ``twin_within`` of it (at
least the best two) are compared again where *they* differ (:meth:`DeckMatcher._twin`):

* the card is warped from the frame at :attr:`DeckMatcher.twin_size` (``twin_side`` px long
  side, at most the canonical size); features are grey with slow gradients removed (plus
  log chromaticity for colour decks), the whole card at unit length;
* more than three candidates (one picture, 40 corner numbers): each is scored by its distance
  to the card weighted by how much the candidates vary at each pixel, the card placed on
  their mean picture; the nearest three go on;
* those are compared pair by pair where the pair's templates differ (a mask made once per
  pair, cached), the card shifted a few pixels to fit best: the score is the share of the
  pair's difference the card shows toward one of them (1: exactly it, -1: exactly the other);
  the winner's least lead must be ``min_twin_margin``, and it must still lead every other
  card by ``min_margin`` and score ``min_score``.

Measured in ``docs/vision.md`` ("Near-twins, real photos and other card styles").

Several templates per card
--------------------------
A card may have several templates (``templates[i]`` a sequence of images: photos of it in
other light, a sharp one and a soft one; ``vision.deck`` keeps up to eight). Each is a row of
the matrix like any other; a card's score is its best template's (per orientation), and the
verdict takes that template all through: the relative margin uses the two best templates'
similarity, the twin step compares the candidates' best templates, the colours are that
template's, and :meth:`DeckMatcher.verify` aligns the card to it (``Match.template`` says
which). The cost grows with the number of templates, not of cards: the rows of the one
product, and the matrix kept (:meth:`DeckMatcher.nbytes`; measured in ``docs/vision.md``).
With one template per card everything is as before (tested).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from vision.align import Aligner
from vision.find import FloatArray as Corners
from vision.find import FrameError, Image, check_image, order_corners, warp_card

FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True)
class MatchParams:
    """How warped cards and templates become feature vectors, and when a match counts."""

    long_side: int | None = 48  # compare at this long side (px); None = the canonical size
    blur_sigma: float = 1.0  # Gaussian blur at the compared size (px); 0 = none
    local_contrast: bool = True  # subtract a blurred copy (slow illumination gradients)
    subtract_mean: bool = True  # compare what differs between the deck's cards (see above)
    shortlist: int = 12  # big decks: full features only for the best cards at 16 px (0: off)
    min_score: float = 0.75
    min_margin: float = 0.02
    min_rel_margin: float = 0.4
    min_aligned: float = 0.9  # accepted below this: aligned, it must score this (``verify``)
    min_colour: float = 0.75  # colour decks: least correlation of the colours (see above)
    #: Near-twins (see "Near-twins" in the module's docstring): when the best card's margin is
    #: below ``twin_trigger`` (or its relative margin below ``min_rel_margin``), the best
    #: candidates within ``twin_within`` of it are compared again on the pixels where their
    #: templates differ, at :attr:`DeckMatcher.twin_size`; the winner is accepted when it
    #: beats each of them there by ``min_twin_margin``. ``twin_trigger = 0``: off.
    twin_trigger: float = 0.05
    twin_within: float = 0.03
    min_twin_margin: float = 0.1
    twin_candidates: int = 48
    twin_side: int = 144  # px: the long side near-twins are compared at (at most canonical)
    #: The fine decision (:meth:`DeckMatcher.decide`; issue 30): the coarse score only
    #: shortlists (the best ``fine_candidates`` cards within ``fine_within`` of the best);
    #: the card is aligned to each and compared at ``twin_side``; the best is named when it
    #: scores ``min_fine`` and leads the next by ``min_fine_margin``. Off by default (the
    #: demo decks' coarse verdicts are right); for decks whose detail is finer than the
    #: coarse comparison (thin outlines, stripes), thresholds from a tuning split.
    fine: bool = False
    fine_candidates: int = 12
    fine_within: float = 0.35
    min_fine: float = 0.7
    min_fine_margin: float = 0.03
    #: The fine decision's candidates are aligned again at the fine size (``cv2.
    #: findTransformECC`` on the card's ink, the paper's light divided out) and warped
    #: without aliasing, and shortlisted on the full coarse scores (a big deck's 16 px
    #: shortlist dropped the right card under other light). False: as in session 1 of
    #: issue 30 (aligned at 64 px only; the benches' baseline).
    fine_refine: bool = True
    #: ... and only the best ``fine_aligned`` of the candidates by their fine score as found
    #: (anti-aliased, not aligned: a millisecond each) are aligned and decided on.
    fine_aligned: int = 4
    #: Decks whose cards differ only by a number (issue 30 item 5): an accepted card must
    #: also *fit* its card where that card differs from its nearest cards in the deck
    #: (:meth:`DeckMatcher.fit`): the residual there, over the largest difference to them,
    #: at most ``max_fit``. A card from outside the deck (12 where 11 and 13 are enrolled)
    #: wins the twin step against its neighbours yet does not fit any of them. 0: off.
    max_fit: float = 0.0

    def __post_init__(self) -> None:
        if self.long_side is not None and not 8 <= self.long_side <= 1024:
            raise ValueError(f"long_side: {self.long_side} is not in 8..1024")
        if not 0 <= self.blur_sigma <= 10:
            raise ValueError(f"blur_sigma: {self.blur_sigma} is not in 0..10")
        if not -1 <= self.min_score <= 1:
            raise ValueError(f"min_score: {self.min_score} is not in -1..1")
        if not 0 <= self.min_margin <= 2:
            raise ValueError(f"min_margin: {self.min_margin} is not in 0..2")
        if not 0 <= self.shortlist <= 1000:
            raise ValueError(f"shortlist: {self.shortlist} is not in 0..1000")
        if not 0 <= self.min_rel_margin <= 10:
            raise ValueError(f"min_rel_margin: {self.min_rel_margin} is not in 0..10")
        if not 0 <= self.min_aligned <= 1:
            raise ValueError(f"min_aligned: {self.min_aligned} is not in 0..1")
        if not -1 <= self.min_colour <= 1:
            raise ValueError(f"min_colour: {self.min_colour} is not in -1..1")
        if not 0 <= self.twin_trigger <= 2:
            raise ValueError(f"twin_trigger: {self.twin_trigger} is not in 0..2")
        if not 0 <= self.twin_within <= 2:
            raise ValueError(f"twin_within: {self.twin_within} is not in 0..2")
        if not 0 <= self.min_twin_margin <= 2:
            raise ValueError(f"min_twin_margin: {self.min_twin_margin} is not in 0..2")
        if not 32 <= self.twin_side <= 1024:
            raise ValueError(f"twin_side: {self.twin_side} is not in 32..1024")
        if not 1 <= self.fine_candidates <= 100:
            raise ValueError(f"fine_candidates: {self.fine_candidates} is not in 1..100")
        if not 0 <= self.fine_within <= 2:
            raise ValueError(f"fine_within: {self.fine_within} is not in 0..2")
        if not 1 <= self.fine_aligned <= 100:
            raise ValueError(f"fine_aligned: {self.fine_aligned} is not in 1..100")
        if not 0 <= self.max_fit <= 10:
            raise ValueError(f"max_fit: {self.max_fit} is not in 0..10")
        if not -1 <= self.min_fine <= 1:
            raise ValueError(f"min_fine: {self.min_fine} is not in -1..1")
        if not 0 <= self.min_fine_margin <= 2:
            raise ValueError(f"min_fine_margin: {self.min_fine_margin} is not in 0..2")
        if not 2 <= self.twin_candidates <= 1000:
            raise ValueError(f"twin_candidates: {self.twin_candidates} is not in 2..1000")


#: The exact ``cv2.matchTemplate(TM_CCOEFF_NORMED)`` score at the canonical size.
EXACT = MatchParams(long_side=None, blur_sigma=0.0, local_contrast=False, subtract_mean=False,
                    twin_trigger=0.0)


@dataclass(frozen=True)
class Match:
    """The verdict on one warped card.

    ``card_id`` is None for an unknown card; ``best_id`` is the best-scoring card regardless.
    ``rotation`` is how many quarter turns (clockwise) the template was turned to fit: 0 or 2
    for cards, 0-3 for square tiles. ``margin`` is ``score`` minus the best other card's score;
    ``rel_margin`` is that margin divided by how different those two cards' templates are
    (``1 - similarity``): 0.5 means the card looks exactly like the best one, 0 like a blend
    of both. Near-twins (68 and 60) need only a small margin, unrelated cards a large one.
    """

    card_id: str | None
    score: float
    margin: float
    best_id: str
    rotation: int
    rel_margin: float = 0.0
    colour: float = 1.0  # how well its colours fit the card's (1.0: not compared)
    #: Near-twins compared where they differ: the winner's least lead there over the other
    #: candidates (``nan``: not run, the margin was clear).
    twin_margin: float = float("nan")
    #: Which of the card's templates scored best (0: its first; a card enrolled from several
    #: photos has several, see "Several templates per card").
    template: int = 0
    #: Why it is unknown: the first gate it failed (:data:`GATES`); None when accepted.
    gate: str | None = None
    #: Its score once aligned to its card (``verify``; ``nan``: not aligned).
    aligned: float = float("nan")
    #: The fine decision (``DeckMatcher.decide``; ``nan``: not run): the best candidate's
    #: score aligned at the fine size, and its lead over the next candidate's.
    fine: float = float("nan")
    fine_margin: float = float("nan")
    #: How badly it fits its card where that card differs from its nearest (``nan``: not
    #: measured; see ``MatchParams.max_fit``).
    fit: float = float("nan")
    #: The best cards for it, best first, at most :data:`CANDIDATES`: (card id, score),
    #: named or not (the fine decision's scores where it ran, else the compared size's).
    #: What the screen offers the host when the card is unknown (issue 37).
    candidates: tuple[tuple[str, float], ...] = ()


#: The gates a card's verdict passes, in order (``Match.gate`` names the one it failed):
#: ``min_score`` its best score, ``margin`` its lead over the next card (absolute, then
#: relative to how alike the two templates are), ``twin`` the near-twin step's lead,
#: ``colour`` its colours, ``aligned`` the alignment floor (``verify``: accepted below
#: ``min_aligned``, it must score that once aligned), ``straight`` a box from straight edges
#: too weak to count, ``aligned_floor`` a card recognised only once aligned to a candidate
#: but below the floor such a card needs; ``fine`` / ``fine_margin`` the fine decision
#: (``DeckMatcher.decide``): its best candidate's aligned fine score, and its lead; ``fit``
#: its residual where its card differs from the nearest (``DeckMatcher.fit``); ``region``:
#: no card at all, "something is there" (paper no card outline explains, a card half under
#: another or fanned, which no search named: ``vision.tracker.recognise``).
#: How many candidates a verdict carries (``Match.candidates``).
CANDIDATES = 3

GATES = ("min_score", "margin", "twin", "colour", "aligned", "straight", "aligned_floor",
         "fine", "fine_margin", "fit", "region")


class DeckLike(Protocol):
    """What :class:`DeckMatcher.from_deck` needs of a ``vision.deck.Deck``."""

    @property
    def ids(self) -> tuple[str, ...]: ...

    @property
    def size(self) -> tuple[int, int]: ...

    @property
    def shape(self) -> str: ...

    @property
    def use_colour(self) -> bool: ...

    def template(self, card_id: str) -> Image: ...


class DeckMatcher:
    """Scores warped cards against every template of a deck in one matrix product."""

    def __init__(
        self,
        ids: Sequence[str],
        templates: Sequence[Any],
        size: tuple[int, int],
        *,
        square: bool = False,
        use_colour: bool = False,
        params: MatchParams | None = None,
        _shortlist_only: bool = False,
    ) -> None:
        if len(ids) != len(templates):
            raise ValueError(f"{len(ids)} ids but {len(templates)} templates")
        groups = [_group(t) for t in templates]
        if not ids:
            raise ValueError("a deck with no templates cannot match anything")
        if len(set(ids)) != len(ids):
            raise ValueError("card ids must be unique")
        w, h = size
        if square and w != h:
            raise ValueError(f"square tiles need a square size, got {w}x{h}")
        self.ids: tuple[str, ...] = tuple(ids)
        self._index = {cid: i for i, cid in enumerate(self.ids)}
        self.size = (int(w), int(h))
        self.square = square
        self.use_colour = use_colour
        self.params = params or MatchParams()
        if self.params.long_side is None:
            self.feature_size = self.size
        else:
            s = self.params.long_side / max(w, h)
            self.feature_size = (max(4, round(w * s)), max(4, round(h * s)))
        #: Cards in frames are warped straight to this size (twice the compared size, at
        #: most the canonical one) by :meth:`match_quads`: a tenth of the pixels of the
        #: canonical size, and the same features.
        self.warp_size = (min(w, 2 * self.feature_size[0]), min(h, 2 * self.feature_size[1]))
        self.rotations = (0, 1, 2, 3) if square else (0, 2)
        #: Every template of every card, card by card (a card's first template first):
        #: template ``t`` belongs to card ``owner[t]``; card ``i``'s are
        #: ``starts[i]:starts[i + 1]``.
        flat = [self._check_patch(t, f"template {cid!r}")
                for cid, g in zip(self.ids, groups, strict=True) for t in g]
        counts = [len(g) for g in groups]
        self.owner = np.repeat(np.arange(len(groups)), counts)
        self.starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.intp)
        self._t = len(flat)
        rows = []
        for img in flat:
            # Shrunk once, then turned: the same features as turning it first (area
            # averaging and the blurs are symmetric), with a quarter of the resizing (the
            # 181-tile deck's matcher is built in 0.6 s instead of 1.0 s).
            if img.shape[1] != self.feature_size[0] or img.shape[0] != self.feature_size[1]:
                img = np.asarray(cv2.resize(img, self.feature_size, interpolation=cv2.INTER_AREA),
                                 dtype=np.uint8)
            for r in self.rotations:
                rows.append(self._features(np.rot90(img, k=-r) if r else img))
        n, k = len(self.ids), len(self.rotations)
        nt = self._t
        stacked = np.stack(rows)
        self.mean: FloatArray | None = None
        if self.params.subtract_mean and n > 1:
            # What every card of the deck shares (frame, layout, paper) is subtracted from the
            # templates and from each card before the correlation, so the score measures what
            # tells the cards apart rather than that both are cards of this deck.
            self.mean = np.asarray(stacked.mean(axis=0), dtype=np.float32)
            stacked = np.stack([_unit(r - self.mean) for r in stacked])
        #: (templates * rotations, D): row t*k + j is template t turned j-th rotation (with
        #: one template per card, template t is card t's).
        self.matrix: FloatArray = np.ascontiguousarray(stacked, dtype=np.float32)
        self._n, self._k = n, k
        #: (templates, templates): how alike two templates are (best orientation).
        sim = (self.matrix @ self.matrix.T).reshape(nt, k, nt, k)[:, 0].max(axis=2)
        self._tsim = np.asarray(np.maximum(sim, sim.T), dtype=np.float32)
        #: (cards, cards): how alike two cards' templates are (their most alike pair).
        self.similarity: FloatArray = self._tsim if nt == n else np.asarray(
            np.maximum.reduceat(np.maximum.reduceat(self._tsim, self.starts[:-1], axis=0),
                                self.starts[:-1], axis=1), dtype=np.float32)
        #: Colour decks: each template's colours (:func:`colours`; row as in ``matrix``),
        #: and whether they say anything (a card of grey ink on white has no colours).
        self.colours: FloatArray | None = None
        self.coloured: npt.NDArray[np.bool_] | None = None
        if use_colour:
            maps = [_colour_map(t) for t in flat]
            cols = np.stack([np.rot90(c, k=-r).ravel() for c in maps for r in self.rotations])
            self.coloured = np.asarray(
                np.sqrt((cols**2).mean(axis=1)) >= _MIN_CHROMA, dtype=np.bool_)
            self.colours = np.stack([_unit(c) for c in cols])
        #: Near-twins are compared at this size (``params.twin_side``, at most canonical),
        #: from the templates kept PNG-encoded at it (decoded when a pair is first compared:
        #: a few KB a card), their features and the pairs' difference masks cached.
        ts = min(1.0, self.params.twin_side / max(w, h))
        self.twin_size = (max(8, round(w * ts)), max(8, round(h * ts)))
        self._shift = max(2, round(_TWIN_SHIFT * max(self.twin_size) / 96))
        self._fine: list[npt.NDArray[np.uint8]] = []
        if self.params.twin_trigger > 0 and n > 1:
            for img in flat:
                if not use_colour and img.ndim == 3:
                    img = np.asarray(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), np.uint8)
                small = cv2.resize(img, self.twin_size, interpolation=cv2.INTER_AREA)
                self._fine.append(np.asarray(cv2.imencode(".png", small)[1], np.uint8))
        self._pairs: dict[tuple[int, int, int, int], _TwinPair] = {}
        self._feats: dict[tuple[int, int], FloatArray] = {}
        self._fit_regions: dict[tuple[int, int],
                                tuple[npt.NDArray[np.bool_], float, bool]] = {}
        self._cached = 0  # bytes in the two caches
        self.twin_runs = 0  # how many verdicts compared near-twins (bench)
        #: Fine alignment of uncertain cards to a candidate (``vision.align``): to each card's
        #: first template (indexed by card), and to its other templates (``_alt_aligner``).
        #: (A big deck's 16 px shortlist matcher only scores: it aligns nothing.)
        self.aligner = Aligner([g[0] for g in ([[flat[0]]] if _shortlist_only else groups)],
                               self.size)
        alts = ([] if _shortlist_only else
                [(i, x) for i, g in enumerate(groups) for x in range(1, len(g))])
        self._alt_index = {key: a for a, key in enumerate(alts)}
        self._alt_aligner = (Aligner([groups[i][x] for i, x in alts], self.size)
                             if alts else None)
        self._coarse: DeckMatcher | None = None
        big = nt * k * self.matrix.shape[1] > 1_000_000  # > 4 MB: beyond the caches
        if self.params.shortlist and n > 2 * self.params.shortlist and big:
            coarse = replace(self.params, long_side=16, blur_sigma=0.5, shortlist=0,
                             twin_trigger=0.0)
            self._coarse = DeckMatcher(ids, templates, size, square=square,
                                       use_colour=use_colour, params=coarse,
                                       _shortlist_only=True)

    @classmethod
    def from_deck(cls, deck: DeckLike, params: MatchParams | None = None) -> DeckMatcher:
        """The matcher of ``deck``: every template of each card (``deck.templates_of(id)``
        where the deck has several per card, else ``deck.template(id)``)."""
        ids = deck.ids
        many = getattr(deck, "templates_of", None)
        templates: list[Any] = ([list(many(i)) for i in ids] if callable(many)
                                else [deck.template(i) for i in ids])
        return cls(ids, templates, deck.size,
                   square=deck.shape == "square", use_colour=deck.use_colour, params=params)

    @property
    def template_count(self) -> int:
        """How many templates the matcher holds (one per card, or more)."""
        return self._t

    def nbytes(self) -> int:
        """The bytes the matcher keeps for its templates (feature rows, similarities, colours,
        the twin step's encoded templates, the aligners' grey templates, the shortlist's
        matcher; not the twin step's caches, bounded by ``_TWIN_CACHE_BYTES``)."""
        n = self.matrix.nbytes + self._tsim.nbytes
        if self.similarity is not self._tsim:
            n += self.similarity.nbytes
        if self.mean is not None:
            n += self.mean.nbytes
        if self.colours is not None:
            n += self.colours.nbytes
        n += sum(int(f.nbytes) for f in self._fine)
        n += sum(int(t.nbytes) for t in self.aligner.templates)
        if self._alt_aligner is not None:
            n += sum(int(t.nbytes) for t in self._alt_aligner.templates)
        if self._coarse is not None:
            n += self._coarse.nbytes()
        return n

    # -- features -------------------------------------------------------------------------
    def _check_patch(self, patch: object, what: str) -> Image:
        img = check_image(patch, what)
        w, h = self.size
        if img.shape[:2] != (h, w):
            raise FrameError(
                f"{what}: is {img.shape[1]}x{img.shape[0]} px, expected the deck's {w}x{h}"
            )
        return img

    def _features(self, img: Image) -> FloatArray:
        p = self.params
        if self.use_colour:
            x = img if img.ndim == 3 else cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
        else:
            x = img if img.ndim == 2 else cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        if x.shape[1] != self.feature_size[0] or x.shape[0] != self.feature_size[1]:
            x = cv2.resize(x, self.feature_size, interpolation=cv2.INTER_AREA)
        f: FloatArray = np.asarray(x, dtype=np.float32)
        if p.blur_sigma > 0:
            f = np.asarray(cv2.GaussianBlur(f, (0, 0), p.blur_sigma), dtype=np.float32)
        if p.local_contrast:
            sigma = max(self.feature_size) / 6.0
            f = f - np.asarray(cv2.GaussianBlur(f, (0, 0), sigma), dtype=np.float32)
        f = f.reshape(f.shape[0], f.shape[1], -1)
        f = f - f.mean(axis=(0, 1), keepdims=True)
        return _unit(f.ravel())

    def features(self, patch: object) -> FloatArray:
        """The normalised feature vector of a warped card at the deck's canonical size."""
        return self._unit_features(self._check_patch(patch, "card image"))

    def _unit_features(self, img: Image) -> FloatArray:
        f = self._features(img)
        return f if self.mean is None else _unit(f - self.mean)

    # -- scoring --------------------------------------------------------------------------
    def score_matrix(self, patches: Sequence[object]) -> FloatArray:
        """Scores (patches, cards, rotations) of each patch against every template."""
        return self._scores([self._check_patch(p, "card image") for p in patches])

    def _scores(self, imgs: Sequence[Image]) -> FloatArray:
        """:meth:`score_matrix` of checked images of the card (canonical or warp size)."""
        return self._per_card(self._raw_scores(imgs))

    def _per_card(self, raw: FloatArray) -> FloatArray:
        """(patches, templates, rotations) -> (patches, cards, rotations): each card's best
        template (per rotation)."""
        if self._t == self._n:
            return raw
        return np.asarray(np.maximum.reduceat(raw, self.starts[:-1], axis=1),
                          dtype=np.float32)

    def _raw_scores(self, imgs: Sequence[Image]) -> FloatArray:
        """Scores (patches, templates, rotations) of checked images against every template."""
        if not imgs:
            return np.zeros((0, self._t, self._k), dtype=np.float32)
        feats = np.stack([self._unit_features(p) for p in imgs])
        if self._coarse is None:
            # numpy's own single-threaded loop (einsum) rather than BLAS: for the few cards of
            # a frame it is about as fast, and it never spins or waits on BLAS threads, which
            # made the time per frame jumpy on a busy machine.
            s = np.einsum("rd,pd->pr", self.matrix, feats)
            return np.asarray(s.reshape(len(imgs), self._t, self._k), dtype=np.float32)
        # A big deck: the same product at 16 px picks a shortlist of cards per patch; only
        # their templates' rows are scored with the full features. The others score -1.
        coarse = self._coarse._scores(imgs).max(axis=2)  # (patches, cards)
        m = self.params.shortlist
        out = np.full((len(imgs), self._t, self._k), -1.0, dtype=np.float32)
        for i, f in enumerate(feats):
            cards = np.argpartition(-coarse[i], m)[:m]
            top = np.concatenate([np.arange(self.starts[c], self.starts[c + 1])
                                  for c in cards]) if self._t != self._n else cards
            rows = (top[:, None] * self._k + np.arange(self._k)[None, :]).ravel()
            out[i, top] = np.einsum("rd,d->r", self.matrix[rows], f).reshape(len(top),
                                                                               self._k)
        return out

    def scores(self, patch: object) -> FloatArray:
        """Best score over orientations of one patch against every card (in ``ids`` order)."""
        return np.asarray(self.score_matrix([patch])[0].max(axis=1), dtype=np.float32)

    def match_many(
        self, patches: Sequence[object], min_score: float | None = None,
        min_margin: float | None = None, min_rel_margin: float | None = None,
    ) -> list[Match]:
        """The verdict on each patch; thresholds default to ``params``'."""
        imgs = [self._check_patch(p, "card image") for p in patches]
        return self._verdicts(self._raw_scores(imgs), min_score, min_margin, min_rel_margin,
                              imgs)

    def match_quads(self, image: Image, quads: Sequence[Corners]) -> list[Match]:
        """The verdict on each card of ``image`` (a checked frame) whose corners are in
        ``quads`` (clockwise, first edge short): warped straight to :attr:`warp_size`."""
        imgs = [self.warp(image, q) for q in quads]
        return self._verdicts(self._raw_scores(imgs), imgs=imgs, source=(image, quads))

    def verify(self, image: Image, grey: Image, quad: Corners,
               match: Match) -> tuple[Corners, Match]:
        """``match`` (the verdict on the card at ``quad`` of ``image``, a checked frame, and
        ``grey``, the same frame in grey) verified: a card accepted with a score below
        ``params.min_aligned`` is aligned to its template by what is printed on it
        (:class:`vision.align.Aligner`) and matched again; it stays that card only if it then
        scores at least ``min_aligned`` (and is still that card): the aligned corners and
        verdict. Otherwise it becomes unknown (same corners, ``card_id`` None). Unknown cards
        and cards scoring ``min_aligned`` or more are returned as they are.

        A card of the deck that scores low as found is misplaced (corners a few pixels off,
        a bent perspective): aligned, it fits its template as well as any card does. A card
        from no deck that shares a big shape with a deck card (a look-alike) scores low for
        what is printed on it: aligning cannot change that (see the module docstring).
        """
        if match.card_id is None or match.score >= self.params.min_aligned:
            return quad, match
        got = self.realign(image, grey, quad, match)
        aligned = float("nan")
        if got is not None:
            q, m2 = got
            if m2.card_id == match.card_id and m2.score >= self.params.min_aligned:
                return q, replace(m2, aligned=m2.score)
            aligned = m2.score if m2.card_id == match.card_id else -1.0
        return quad, replace(match, card_id=None, gate="aligned", aligned=aligned)

    def realign(self, image: Image, grey: Image, quad: Corners,
                match: Match) -> tuple[Corners, Match] | None:
        """The card at ``quad`` aligned to the template that gave ``match`` (its best: the
        card's first or another of its templates) and matched again; None if it cannot be
        made to fit (or ``match`` names no card)."""
        card = match.card_id if match.card_id is not None else match.best_id
        index = self._index[card]
        if match.template and self._alt_aligner is not None:
            q = self._alt_aligner.align(grey, quad, self._alt_index[(index, match.template)],
                                        match.rotation)
        else:
            q = self.aligner.align(grey, quad, index, match.rotation)
        if q is None:
            return None
        q = order_corners(q, self.square)
        (m2,) = self.match_quads(image, [q])
        return q, m2

    def warp(self, image: Image, quad: Corners) -> Image:
        """The card at ``quad`` of ``image``, warped to :attr:`warp_size`."""
        return warp_card(image, quad, self.warp_size)

    def candidates_in(self, image: Image, quad: Corners, within: float = 0.1,
                      limit: int = 3, full: bool = False) -> list[tuple[int, int]]:
        """:meth:`candidates` of the card at ``quad`` of ``image``. ``full``: every
        template scored at the compared size (a big deck's 16 px shortlist skipped)."""
        img = self.warp(image, quad)
        if full and self._coarse is not None:
            f = self._unit_features(img)
            raw = np.einsum("rd,d->r", self.matrix, f).reshape(1, self._t, self._k)
            return self._candidates(self._per_card(np.asarray(raw, np.float32))[0], within,
                                    limit)
        return self._candidates(self._scores([img])[0], within, limit)

    def ranked_in(self, image: Image, quad: Corners,
                  limit: int = CANDIDATES) -> tuple[tuple[str, float], ...]:
        """The best ``limit`` cards for the card at ``quad`` of ``image``, best first, with
        their scores: every template scored at the compared size (a big deck's shortlist
        skipped). Run once for a card the camera could not name, when it has settled."""
        img = self.warp(image, quad)
        if self._coarse is not None:
            f = self._unit_features(img)
            raw = np.einsum("rd,d->r", self.matrix, f).reshape(1, self._t, self._k)
            per_rot = self._per_card(np.asarray(raw, np.float32))[0]
        else:
            per_rot = self._scores([img])[0]
        per_card = per_rot.max(axis=1)
        order = np.argsort(per_card)[::-1][:limit]
        return tuple((self.ids[int(c)], round(float(per_card[int(c)]), 4)) for c in order)

    # -- the fine decision ----------------------------------------------------------------
    def fine_score(self, image: Image, grey: Image, quad: Corners, card: int,
                   rotation: int) -> tuple[float, Corners]:
        """How well card ``card`` (turned ``rotation`` quarter turns) fits the card at
        ``quad``: aligned to each of its templates (``vision.align``; as found where that
        fails), warped at :attr:`twin_size` and correlated with the template's fine features
        (:meth:`_fine_features`) at the best shift of a few pixels. (score, the corners of
        the best fit.)"""
        best, best_q = -1.0, quad
        r = self.rotations.index(rotation) if rotation in self.rotations else 0
        refine = self.params.fine_refine
        m = 1 if refine else self._shift
        for t in range(int(self.starts[card]), int(self.starts[card + 1])):
            k = t - int(self.starts[card])
            if k and self._alt_aligner is not None:
                a = self._alt_aligner.align(grey, quad, self._alt_index[(card, k)], rotation)
            else:
                a = self.aligner.align(grey, quad, card, rotation)
            q = quad if a is None else order_corners(a, self.square)
            if refine:
                warped, q = self._refined(image, q, t, self.rotations[r])
            else:
                warped = warp_card(image, q, self.twin_size)
            f = self._fine_features(warped)
            tf = np.ascontiguousarray(self._template_features(t, self.rotations[r])[m:-m, m:-m])
            norm = float(np.linalg.norm(tf))
            if norm <= 1e-9:
                continue
            s = float(cv2.matchTemplate(f, tf, cv2.TM_CCORR).max()) / norm
            if s > best:
                best, best_q = s, q
        return best, best_q

    def decide(self, image: Image, grey: Image, quad: Corners,
               match: Match) -> tuple[Corners, Match]:
        """The fine decision on the card at ``quad`` (see :class:`MatchParams`'s ``fine``):
        its coarse candidates, each aligned and compared at :attr:`twin_size`; the best named
        if it scores ``min_fine`` and leads the next by ``min_fine_margin`` (and its colours
        fit, on a colour deck), else unknown (``gate`` ``fine`` or ``fine_margin``). (the
        best fit's corners, the verdict.) Needs the twin step's fine templates
        (``twin_trigger`` > 0)."""
        p = self.params
        if not self._fine:
            return quad, match
        cands = self.candidates_in(image, quad, p.fine_within, p.fine_candidates,
                                   full=p.fine_refine)
        if p.fine_refine and len(cands) > p.fine_aligned:
            # Aligning is most of the cost: only the best few by the card as found (the
            # right card is among the best 4 of 12 whenever aligning would make it the
            # best: the tables' tuning and test photos alike).
            f = self._fine_features(_warp_margin(image, quad, self.twin_size, 0)[0])
            m = self._shift
            pre = []
            for i, r in cands:
                best = -1.0
                for t in range(int(self.starts[i]), int(self.starts[i + 1])):
                    tf = np.ascontiguousarray(self._template_features(t, r)[m:-m, m:-m])
                    norm = float(np.linalg.norm(tf))
                    if norm > 1e-9:
                        best = max(best, float(cv2.matchTemplate(f, tf, cv2.TM_CCORR).max())
                                   / norm)
                pre.append(best)
            keep = sorted(range(len(cands)), key=lambda k: -pre[k])[:p.fine_aligned]
            cands = [cands[k] for k in sorted(keep)]
        scored = sorted(((*self.fine_score(image, grey, quad, i, r), i, r) for i, r in cands),
                        key=lambda x: -x[0])
        if not scored:
            return quad, match
        s, q, i, r = scored[0]
        lead = s - scored[1][0] if len(scored) > 1 else s + 1.0
        gate = None if s >= p.min_fine and lead >= p.min_fine_margin else (
            "fine" if s < p.min_fine else "fine_margin")
        (m2,) = self.match_quads(image, [q])
        colour = m2.colour
        if gate is None and self.colours is not None and self.coloured is not None:
            img = self.warp(image, q)
            row = int(self.starts[i]) * self._k + self.rotations.index(r)
            if self.coloured[row]:
                colour = float(_unit(colours(img)) @ self.colours[row])
                if colour < p.min_colour:
                    gate = "colour"
        ranked = tuple((self.ids[k], round(float(v), 4)) for v, _, k, _ in scored[:CANDIDATES])
        return q, replace(m2, card_id=self.ids[i] if gate is None else None,
                          best_id=self.ids[i], rotation=r, colour=colour, gate=gate,
                          fine=s, fine_margin=lead, candidates=ranked)

    def _refined(self, image: Image, quad: Corners, t: int, r: int) -> tuple[Image, Corners]:
        """The card at ``quad`` (aligned to template ``t`` turned ``r`` quarter turns at the
        aligner's 64 px) aligned again at :attr:`twin_size`: the frame around it warped
        there without aliasing (:func:`_warp_margin`), both pictures made ink on paper
        (:func:`_ink`: the light's brightness, colour and shading divided out), and
        ``cv2.findTransformECC`` (homography, from "the corners are right") fits the
        template on it. (The card warped at :attr:`twin_size` by that fit, its corners in
        the frame.) Where ECC does not converge, or moves a corner by more than the margin,
        the card as ``quad`` gives it."""
        w, h = self.twin_size
        mg = _REFINE_MARGIN
        patch, to_patch = _warp_margin(image, quad, self.twin_size, mg)
        plain = np.ascontiguousarray(patch[mg:mg + h, mg:mg + w])
        key = (t, r + 4)  # (the template's ink, beside its features in the same cache)
        ink_t = self._feats.get(key)
        if ink_t is None:
            img = np.asarray(cv2.imdecode(self._fine[t], cv2.IMREAD_UNCHANGED), np.uint8)
            ink_t = _ink(np.ascontiguousarray(np.rot90(img, k=-r)))
            self._keep(ink_t.nbytes)
            self._feats[key] = ink_t
        warp = np.array([[1, 0, mg], [0, 1, mg], [0, 0, 1]], dtype=np.float32)
        criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, _REFINE_ITERATIONS, 1e-4)
        try:
            ink = _ink(patch)
            _, found = cv2.findTransformECC(ink_t, ink, warp, cv2.MOTION_HOMOGRAPHY,
                                            criteria, np.full(ink.shape, 255, np.uint8), 1)
        except cv2.error:  # (did not converge: a flat card, one that does not fit)
            return plain, quad
        tc = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]],
                      dtype=np.float32)
        moved = cv2.perspectiveTransform(tc.reshape(-1, 1, 2), np.asarray(found, np.float64))
        moved = moved.reshape(4, 2)
        if not np.isfinite(moved).all() or float(np.abs(moved - (tc + mg)).max()) > mg:
            return plain, quad
        card = cv2.warpPerspective(patch, found, (w, h),
                                   flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)
        q = cv2.perspectiveTransform(moved.reshape(-1, 1, 2).astype(np.float64),
                                     np.linalg.inv(to_patch)).reshape(4, 2)
        return np.asarray(card, np.uint8), np.asarray(q, np.float32)

    def fit(self, image: Image, quad: Corners, match: Match) -> float:
        """How badly the card at ``quad`` fits the card ``match`` names where that card
        differs from its :data:`_FIT_NEAREST` most alike cards of the deck: warped at
        :attr:`twin_size` (the corners as verified: a card accepted below ``min_aligned`` is
        aligned already), the squared residual of the fine features
        (:meth:`_fine_features`) at the best shift of a few pixels, smoothed, at its largest
        in the region where those cards differ from it, over the largest smoothed
        difference between it and them; of the card's templates (turned as ``match`` says),
        the one it fits best (a card enrolled from several photos fits any of them). About
        0.01-0.05 for the card itself, 0.33 and more for a card whose number is another
        (``bench vision --foreign-numbers``' tuning seed); about 1.5 ms a template here
        (aligning again first, 10 ms, separated them no better). ``nan`` where there is
        nothing to compare (a deck of one card)."""
        card = match.card_id if match.card_id is not None else match.best_id
        i = self._index[card]
        if not self._fine or self._n < 2:
            return float("nan")
        rot = match.rotation
        f = self._fine_features(warp_card(image, quad, self.twin_size))
        got = [self._misfit(f, t, rot, i)
               for t in range(int(self.starts[i]), int(self.starts[i + 1]))]
        fits = [v for v in got if v == v]
        return min(fits) if fits else float("nan")

    def fit_learnt(self, image: Image, quad: Corners, card_id: str, rotation: int,
                   learnt: Sequence[Image], learnt_rotation: int) -> float:
        """:meth:`fit` of the card at ``quad`` to templates of ``card_id`` learnt at the table
        (``vision.learnt``: the card under tonight's camera and light; turned
        ``learnt_rotation`` quarter turns to fit it), where the card differs from its nearest
        as its first enrolled template (turned ``rotation``) says: the least misfit over
        them. ``nan`` where nothing is compared."""
        i = self._index[card_id]
        if not self._fine or self._n < 2 or not learnt:
            return float("nan")
        f = self._fine_features(warp_card(image, quad, self.twin_size))
        m = self._shift
        fits = []
        for img in learnt:
            x = np.ascontiguousarray(np.rot90(np.asarray(img, np.uint8), k=-learnt_rotation))
            tc = np.ascontiguousarray(self._fine_features(x)[m:-m, m:-m])
            v = self._misfit(f, int(self.starts[i]), rotation, i, tc)
            if v == v:
                fits.append(v)
        return min(fits) if fits else float("nan")

    def _misfit(self, f: FloatArray, t: int, rot: int, i: int,
                tc: FloatArray | None = None) -> float:
        """:meth:`fit` of the card's fine features ``f`` to template ``t`` (of card ``i``)
        turned ``rot`` quarter turns (or to ``tc``, fine features of another picture of the
        card, where template ``t`` says it differs). Where the card differs from its nearest
        mostly in colour (a colour deck's cards: :data:`_FIT_CHROMA_SHARE`), only the colour
        channels' residual counts: the grey channel carries fine stripes and thin outlines,
        whose contrast another camera's focus and light change as much as a card one feature
        away would (issue 37: real SET tables of another evening), while where the coloured
        ink lies does not change."""
        m = self._shift
        tt = np.ascontiguousarray(self._template_features(t, rot)[m:-m, m:-m])
        tc = tt if tc is None else tc
        _, _, (dx, dy), _ = cv2.minMaxLoc(cv2.matchTemplate(f, tc, cv2.TM_SQDIFF))
        h, w = tc.shape[:2]
        got = self._fit_regions.get((t, rot))
        if got is None:
            # Where the card differs from its nearest, by how much at most, and how much of
            # that is colour (of the templates alone: once per template and turn).
            sim = np.asarray(self.similarity[i], np.float32).copy()
            sim[i] = -np.inf
            region = np.zeros((h, w), dtype=bool)
            top = top_c = 0.0
            for j in np.argsort(-sim)[:_FIT_NEAREST]:
                other = self._template_features(int(self.starts[int(j)]), rot)[m:-m, m:-m]
                sq = (other - tt) ** 2
                d = np.asarray(cv2.GaussianBlur(sq.sum(axis=2), (0, 0), _FIT_SPREAD),
                               np.float32)
                peak = float(d.max())
                region |= d >= _TWIN_FLOOR * peak
                top = max(top, peak)
                if sq.shape[2] > 1:
                    dc = cv2.GaussianBlur(sq[:, :, 1:].sum(axis=2), (0, 0), _FIT_SPREAD)
                    top_c = max(top_c, float(np.max(dc)))
            got = (region, top, top >= 1e-9 and top_c >= _FIT_CHROMA_SHARE * top)
            self._keep(region.nbytes)
            self._fit_regions[(t, rot)] = got
        region, top, chroma = got
        if top <= 1e-9 or not region.any():
            return float("nan")
        sq = (f[dy:dy + h, dx:dx + w] - tc) ** 2
        res = sq[:, :, 1:].sum(axis=2) if chroma else sq.sum(axis=2)
        res = np.asarray(cv2.GaussianBlur(res, (0, 0), _FIT_SPREAD), np.float32)
        return float(res[region].max()) / top

    # -- near-twins ----------------------------------------------------------------------
    def _fine_features(self, img: Image, blur: float = 0.0) -> FloatArray:
        """A card image (or a template) at :attr:`twin_size` as the twin step sees it: float,
        slightly blurred, slow gradients taken away, each channel's mean 0, unit norm."""
        x = img
        if x.shape[1] != self.twin_size[0] or x.shape[0] != self.twin_size[1]:
            x = np.asarray(cv2.resize(x, self.twin_size, interpolation=cv2.INTER_AREA),
                           dtype=np.uint8)
        grey = cv2.cvtColor(x, cv2.COLOR_BGR2GRAY) if x.ndim == 3 else x
        g = np.asarray(cv2.GaussianBlur(np.asarray(grey, np.float32), (0, 0),
                                        blur or _TWIN_BLUR), dtype=np.float32)
        g = g - np.asarray(cv2.GaussianBlur(g, (0, 0), max(self.twin_size) / 6.0),
                           dtype=np.float32)
        chans = [g]
        if self.use_colour and x.ndim == 3:
            # Colour as log chromaticity (as :func:`colours`, at this finer size): brightness
            # and the light's colour cancel, so a red card under warm light is still red.
            c = np.log(np.asarray(cv2.GaussianBlur(np.asarray(x, np.float32), (0, 0),
                                                   _TWIN_SPREAD), dtype=np.float32) + 8.0)
            # In grey levels: a saturated colour (log ratio 0.5) like a strong edge. A card of
            # black ink has next to no chromaticity, and keeps it so (not scaled up to noise).
            chans += [_TWIN_CHROMA * (c[:, :, 0] - c[:, :, 1]),
                      _TWIN_CHROMA * (c[:, :, 2] - c[:, :, 1])]
        out = np.stack([ch - float(ch.mean()) for ch in chans], axis=2)
        norm = float(np.linalg.norm(out))
        return np.ascontiguousarray(out / np.float32(norm) if norm > 1e-6 else out,
                                    dtype=np.float32)

    def _pair(self, i: int, ri: int, j: int, rj: int) -> _TwinPair:
        """Templates ``i`` (turned ``ri``) and ``j`` (``rj``) and where they differ."""
        key = (i, ri, j, rj)
        got = self._pairs.get(key)
        if got is not None:
            return got
        ti = self._template_features(i, ri)
        tj = self._template_features(j, rj)
        d = np.abs(ti - tj).sum(axis=2)
        d = np.asarray(cv2.GaussianBlur(d, (0, 0), _TWIN_SPREAD), dtype=np.float32)
        top = float(d.max())
        # Where they differ beyond noise: above a quarter of the largest difference; the
        # weight grows with the difference (a digit's strokes more than its anti-aliasing).
        w = np.where(d >= _TWIN_FLOOR * top, d / top, 0.0).astype(np.float32) if top > 1e-6 \
            else np.zeros_like(d)
        m = self._shift
        crop = (slice(m, w.shape[0] - m), slice(m, w.shape[1] - m))
        # (One channel: cv2.matchTemplate uses it for every channel of a colour card.)
        wc = np.ascontiguousarray(w[crop])
        a, b = np.ascontiguousarray(ti[crop]), np.ascontiguousarray(tj[crop])
        w3 = wc[:, :, None]
        pair = _TwinPair(a, b, wc, float((w3 * w3 * (a - b) ** 2).sum()))
        self._keep(a.nbytes + b.nbytes + wc.nbytes)
        self._pairs[key] = pair
        return pair

    def _keep(self, nbytes: int) -> None:
        """Room for ``nbytes`` more in the twin step's caches (emptied at
        :data:`_TWIN_CACHE_BYTES`: a deck's worth of twins is seldom more than a few pairs)."""
        if self._cached + nbytes > _TWIN_CACHE_BYTES:
            self._pairs.clear()
            self._feats.clear()
            self._fit_regions.clear()
            self._cached = 0
        self._cached += nbytes

    def _template_features(self, i: int, r: int) -> FloatArray:
        """:meth:`_fine_features` of template ``i`` turned ``r`` quarter turns (cached)."""
        key = (i, r)
        got = self._feats.get(key)
        if got is None:
            img = np.asarray(cv2.imdecode(self._fine[i], cv2.IMREAD_UNCHANGED), np.uint8)
            # Templates are sharper than any camera's picture of the card: blurred more.
            got = self._fine_features(np.ascontiguousarray(np.rot90(img, k=-r)),
                                      _TWIN_TEMPLATE_BLUR * max(self.twin_size) / 144)
            self._keep(got.nbytes)
            self._feats[key] = got
        return got

    def _twin(self, img: Image, cands: Sequence[int], rots: Sequence[int]) -> tuple[int, float]:
        """(index in ``cands`` of the winner, its lead over the runner-up) when the candidate
        cards ``cands`` (turned ``rots``, indices into :attr:`rotations`) are compared with
        ``img`` only where their templates differ.

        More than two candidates (a deck of one picture with a number in a corner ties them
        all): the card is placed on the candidates' mean picture (their shared part, searched
        :data:`_TWIN_SHIFT` px each way), and each candidate scored there by its squared
        distance weighted by how much the candidates vary at each pixel; the nearest go on. The last
        :data:`_TWIN_FINAL`: each pair of them scored where those two differ (:meth:`_pair`),
        shifted to fit best; the winner beats each of the others there."""
        f = self._fine_features(img)
        order = list(range(len(cands)))
        if len(cands) > 2:
            stack = np.stack([self._template_features(c, self.rotations[r])
                              for c, r in zip(cands, rots, strict=True)])
            m = self._shift
            h, w = stack.shape[1] - 2 * m, stack.shape[2] - 2 * m
            mean = np.ascontiguousarray(stack.mean(axis=0)[m:m + h, m:m + w])
            fit = cv2.matchTemplate(f, mean, cv2.TM_CCOEFF_NORMED)
            _, _, _, (dx, dy) = cv2.minMaxLoc(fit)
            crop = stack[:, m:m + h, m:m + w]
            spread = crop.std(axis=0).sum(axis=2)
            spread = np.asarray(cv2.GaussianBlur(spread, (0, 0), _TWIN_SPREAD), np.float32)
            peak = float(spread.max())
            if peak > 1e-9:
                wgt = np.where(spread >= _TWIN_FLOOR * peak, spread / peak, 0.0)[:, :, None]
                patch = f[dy:dy + h, dx:dx + w]
                dist = (((crop - patch[None]) ** 2) * (wgt * wgt)[None]).sum(axis=(1, 2, 3))
                order = [int(k) for k in np.argsort(dist)]
        top = order[:_TWIN_FINAL]
        lead = {a: np.inf for a in top}
        for x, a in enumerate(top):
            for b in top[x + 1:]:
                pr = self._pair(cands[a], self.rotations[rots[a]], cands[b],
                                self.rotations[rots[b]])
                d = 0.0
                if pr.energy > 1e-12:  # (else the same face: nothing tells them apart)
                    # How far the card is from each where they differ (weighted squared
                    # distance, at the best shift): the part of the twins' difference it
                    # shows toward ``a``. Both are unit-normalised over the whole card, so
                    # a striped fill is not a faint solid one (a correlation would not see
                    # the difference between the two: only amplitude tells them apart).
                    ea = float(cv2.matchTemplate(f, pr.a, cv2.TM_SQDIFF, mask=pr.mask).min())
                    eb = float(cv2.matchTemplate(f, pr.b, cv2.TM_SQDIFF, mask=pr.mask).min())
                    d = (eb - ea) / pr.energy if np.isfinite(ea) and np.isfinite(eb) else 0.0
                lead[a] = min(lead[a], d)
                lead[b] = min(lead[b], -d)
        won = max(top, key=lambda a: lead[a])
        return won, float(lead[won])

    def _verdicts(self, scores: FloatArray, min_score: float | None = None,
                  min_margin: float | None = None, min_rel_margin: float | None = None,
                  imgs: Sequence[Image] = (),
                  source: tuple[Image, Sequence[Corners]] | None = None) -> list[Match]:
        lo = self.params.min_score if min_score is None else min_score
        mg = self.params.min_margin if min_margin is None else min_margin
        rel_lo = self.params.min_rel_margin if min_rel_margin is None else min_rel_margin
        out = []
        cards = self._per_card(scores)
        for n, per_rot in enumerate(cards):
            raw = scores[n]
            per_card = per_rot.max(axis=1)
            order = np.argsort(per_card)[::-1]
            i = int(order[0])
            score = float(per_card[i])
            if len(order) > 1:
                j = int(order[1])
                margin = score - float(per_card[j])
                apart = 1.0 - float(self._tsim[self._pick(raw, i)[0], self._pick(raw, j)[0]])
                rel = margin / apart if apart > 1e-3 else 0.0
            else:
                margin, rel = score + 1.0, 1.0
            ok = score >= lo and margin >= mg and rel >= rel_lo
            gate = None if ok else ("min_score" if score < lo else "margin")
            twin = float("nan")
            p = self.params
            if (self._fine and imgs and len(order) > 1 and score >= lo
                    and (margin < p.twin_trigger or rel < rel_lo)):
                near = [int(c) for k, c in enumerate(order[:p.twin_candidates])
                        if k < 2 or float(per_card[int(c)]) >= score - p.twin_within]
                if len(near) >= 2:
                    self.twin_runs += 1
                    # From the frame at the twin size where there is one (finer than the
                    # warped card), else the card image resized.
                    fine = (warp_card(source[0], source[1][n], self.twin_size) if source
                            else imgs[n])
                    picks = [self._pick(raw, c) for c in near]
                    won, twin = self._twin(fine, [t for t, _ in picks], [r for _, r in picks])
                    i = near[won]
                    rest = [float(per_card[int(c)]) for c in order[:len(near) + 1]
                            if int(c) not in near]
                    score = float(per_card[i])
                    outside = score - rest[0] if rest else score + 1.0
                    margin = score - max(float(per_card[c]) for c in near if c != i)
                    ok = (score >= lo and twin >= p.min_twin_margin
                          and (outside >= mg or len(order) <= len(near)))
                    gate = (None if ok else "min_score" if score < lo
                            else "twin" if twin < p.min_twin_margin else "margin")
            colour = 1.0
            ti, ri = self._pick(raw, i)
            row = ti * self._k + ri
            if (ok and self.colours is not None and self.coloured is not None and imgs
                    and imgs[n].ndim == 3 and self.coloured[row]):
                colour = float(_unit(colours(imgs[n])) @ self.colours[row])
                ok = colour >= self.params.min_colour
                gate = None if ok else "colour"
            ranked = [i, *(int(c) for c in order[:CANDIDATES + 1] if int(c) != i)]
            cands = tuple((self.ids[c], round(float(per_card[c]), 4))
                          for c in ranked[:CANDIDATES] if float(per_card[c]) > -1.0)
            out.append(Match(card_id=self.ids[i] if ok else None, score=score, margin=margin,
                             best_id=self.ids[i], rotation=self.rotations[ri],
                             rel_margin=rel, colour=colour, twin_margin=twin,
                             template=ti - int(self.starts[i]), gate=gate,
                             candidates=cands))
        return out

    def _pick(self, raw: FloatArray, card: int) -> tuple[int, int]:
        """(template, rotation index) of card ``card``'s best fit in ``raw`` (templates,
        rotations): its best template, in its best orientation."""
        s, e = int(self.starts[card]), int(self.starts[card + 1])
        if e - s == 1:
            return s, int(raw[s].argmax())
        flat = int(raw[s:e].argmax())
        return s + flat // self._k, flat % self._k

    def candidates(self, patch: object, within: float = 0.1,
                   limit: int = 3) -> list[tuple[int, int]]:
        """(card index, rotation) of the best cards for ``patch``: the best one and those
        scoring within ``within`` of it, at most ``limit``."""
        return self._candidates(self.score_matrix([patch])[0], within, limit)

    def _candidates(self, per_rot: FloatArray, within: float,
                    limit: int) -> list[tuple[int, int]]:
        per_card = per_rot.max(axis=1)
        order = np.argsort(per_card)[::-1][:limit]
        top = float(per_card[order[0]])
        return [(int(i), self.rotations[int(per_rot[i].argmax())]) for i in order
                if float(per_card[i]) >= top - within]

    def match(self, patch: object) -> Match:
        return self.match_many([patch])[0]


@dataclass(frozen=True)
class _TwinPair:
    """Two near-twin templates (features at the twin size, cropped by the shift searched
    all round so the card may be shifted that much) and the weights of where they differ."""

    a: FloatArray
    b: FloatArray
    mask: FloatArray
    energy: float  # their weighted squared distance (0: the same face)


#: The twin step's features: the card's blur (px at the twin size), the templates' (px at a
#: 144 px long side: sharper than any camera's picture), the weight of log chromaticity
#: against grey levels, the spread of the difference map, the share of its peak below which
#: a difference is noise, the shift searched (px each way at 96 px, scaled: corners a few
#: pixels off), the bytes of pairs and features kept. Set on the tuning seeds' style frames
#: and the real sets' tuning halves.
_TWIN_BLUR = 1.0
_TWIN_TEMPLATE_BLUR = 1.8
_TWIN_CHROMA = 100.0
_TWIN_SPREAD = 1.5
_TWIN_FLOOR = 0.25
_TWIN_SHIFT = 3
_TWIN_CACHE_BYTES = 8 << 20
_TWIN_FINAL = 3  # the candidates compared pair by pair


#: The fine decision's second alignment (:meth:`DeckMatcher._refined`): the margin of frame
#: around the card (px at the fine size: how far a corner may still move) and ECC's
#: iterations.
_REFINE_MARGIN = 6
_REFINE_ITERATIONS = 20
#: :meth:`DeckMatcher.fit`: the nearest cards compared (8: a 32's nearest 4 of an enrolled half
#: of The Game were 02, 22, 42, 52, which differ from it in the first digit only, and a 31
#: fitted it there), the smoothing (px at the fine size: a stroke of a digit, not the
#: pixel-wide seam of an outline a little off).
_FIT_NEAREST = 8
_FIT_SPREAD = 3.0
#: ... and the share of the largest difference to them that colour must carry for only the
#: colour channels' residual to count (:meth:`DeckMatcher._misfit`).
_FIT_CHROMA_SHARE = 0.5


def _warp_margin(image: Image, quad: Corners, size: tuple[int, int],
                 margin: int) -> tuple[Image, npt.NDArray[np.float64]]:
    """The card at ``quad`` of ``image`` warped to ``size`` (w, h) with ``margin`` px of
    the frame all round, without aliasing: warped at a whole multiple of the size that
    shrinks the frame by at most 1.3 (thin stripes and outlines alias into a moiré that
    differs from photo to photo), then area-averaged. (patch, the frame -> patch
    homography.)"""
    w, h = size
    src = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    side = float(np.linalg.norm(src[1] - src[0]))
    k = max(1, min(8, int(np.ceil(side / w / 1.3))))
    out_w, out_h = w + 2 * margin, h + 2 * margin
    edges = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32) + margin
    big = cv2.getPerspectiveTransform(src, np.asarray(edges * k - 0.5, np.float32))
    out = cv2.warpPerspective(image, big, (out_w * k, out_h * k), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    if k > 1:
        out = cv2.resize(out, (out_w, out_h), interpolation=cv2.INTER_AREA)
    to_patch = cv2.getPerspectiveTransform(src, np.asarray(edges - 0.5, np.float32))
    return np.asarray(out, np.uint8), np.asarray(to_patch, np.float64)


def _ink(img: Image) -> FloatArray:
    """How much ink covers each pixel of a card image: one minus its brightness over the
    paper's around it (the local maximum, smoothed), slightly blurred. The light's
    brightness, colour and slow shading divide out: what ECC aligns on."""
    x = np.asarray(img, dtype=np.float32)
    k = max(3, (min(x.shape[:2]) // 8) | 1)
    paper = cv2.GaussianBlur(cv2.dilate(x, np.ones((k, k), np.uint8)), (0, 0), k / 2)
    y = x / np.maximum(paper, np.float32(8.0))
    g = y.mean(axis=2) if y.ndim == 3 else y
    return np.asarray(cv2.GaussianBlur(1.0 - g, (0, 0), 1.5), dtype=np.float32)


#: A template whose colours vary less than this (rms of its log chromaticity, below) has none
#: to speak of: its colours are not compared.
_MIN_CHROMA = 0.02
#: Colours are compared at this long side (px): the colour of areas, not of edges.
_COLOUR_SIDE = 12


def colours(img: Image) -> FloatArray:
    """The colours of a card image (BGR) as a feature vector: at :data:`_COLOUR_SIDE` px
    (long side), each pixel's log chromaticity ``log(B/G)``, ``log(R/G)``, each minus its mean
    over the card. Brightness cancels in the ratios (shading, uneven light), and the light's
    colour adds a constant to each (a diagonal colour cast), which the mean takes away."""
    return np.asarray(_colour_map(img).ravel(), dtype=np.float32)


def _colour_map(img: Image) -> FloatArray:
    """:func:`colours` as an image (h, w, 2): turned with the card, it is the turned card's."""
    h, w = img.shape[:2]
    s = _COLOUR_SIDE / max(h, w)
    x = np.asarray(cv2.resize(img, (max(2, round(w * s)), max(2, round(h * s))),
                              interpolation=cv2.INTER_AREA), dtype=np.float32)
    x = np.log(cv2.GaussianBlur(x, (0, 0), 0.7) + np.float32(8.0))
    f = np.stack([x[:, :, 0] - x[:, :, 1], x[:, :, 2] - x[:, :, 1]], axis=2)
    return np.asarray(f - f.mean(axis=(0, 1), keepdims=True), dtype=np.float32)


def _group(t: Any) -> list[Any]:
    """A card's templates: one image, or a non-empty sequence of images."""
    if isinstance(t, np.ndarray):
        return [t]
    if isinstance(t, (list, tuple)):
        if not t:
            raise ValueError("a card with no template")
        return list(t)
    return [t]  # (checked as an image, and refused, by the constructor)


def _unit(v: npt.NDArray[np.floating[Any]]) -> FloatArray:
    """``v`` scaled to unit length (all zeros stays zeros: a blank patch scores 0)."""
    v = np.asarray(v, dtype=np.float32)
    norm = float(np.linalg.norm(v))
    if norm < 1e-6:
        return np.zeros_like(v)
    return np.asarray(v / np.float32(norm), dtype=np.float32)
