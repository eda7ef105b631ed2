"""Labelled sets of real card photos that this repository does not ship (bench and tests only).

A *real set* is a folder of photos of single cards, already cut out and straightened, with a
``labels.csv`` (``file,card``: the photo's path relative to the folder, the card's id). The
photos are never copied into the repository: the set is read from ``$TABLEKEEPER_REAL_SETS``
(a folder holding the sets) or from ``../shared/data`` relative to the repository root, and a
bench or test that finds it absent says so and skips.

* ``set-crops``: 1,620 real photos of SET cards (81 cards x 20 shots), from the public
  repository tomwhite/set-game (Apache License 2.0; its ``SOURCE.md`` and ``LICENSE.txt``
  lie beside it). SET's cards differ by colour, shading, count and shape: near-twins by design.

:func:`split` takes each card's shots in name order: the first ``tune`` (10) are the tuning
half, the rest the test half. :func:`enrol` makes the templates of each card from the tuning
half (one: its first shot or the median of its shots; several: ``medoids-K``, the K shots
that best stand for all its tuning shots, as a user enrolling several photos of a card);
:func:`measure` scores the test half with a :class:`vision.match.DeckMatcher`, as a card found
on the table would be (``match_many`` on the straightened photo, then ``verify`` with the
photo's own borders as its corners). :func:`foreign` measures issue 16's item 4 on a real
family: a deck enrolled for part of it, photos of its other cards must come back unknown.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from ground.files import read_text
from vision.find import Image
from vision.imagefile import read_image_file
from vision.match import DeckMatcher, Match, MatchParams

#: Where the sets are looked for: ``$TABLEKEEPER_REAL_SETS`` first, then ``../shared/data``
#: beside the repository's root.
ENV = "TABLEKEEPER_REAL_SETS"
REPO_ROOT = Path(__file__).resolve().parent.parent
#: The size photos of SET cards are compared at (their crops are 171x267: a card's shape).
SET_SIZE = (172, 268)


def data_root(environ: Mapping[str, str] | None = None) -> Path:
    """``$TABLEKEEPER_REAL_SETS``, else ``../shared/data`` beside the repository's root (or
    beside its parent: a git worktree one folder deeper than the main checkout)."""
    env = os.environ if environ is None else environ
    if env.get(ENV):
        return Path(env[ENV])
    for up in (REPO_ROOT.parent, REPO_ROOT.parent.parent):
        if (up / "shared" / "data").is_dir():
            return up / "shared" / "data"
    return REPO_ROOT.parent / "shared" / "data"


def find_set(name: str, environ: Mapping[str, str] | None = None) -> Path | None:
    """The folder of real set ``name`` (``set-crops``), or None where it is absent."""
    p = data_root(environ) / name
    return p if (p / "labels.csv").is_file() else None


def absent_message(name: str) -> str:
    return (f"real set {name!r} not found in {data_root() / name} (set ${ENV} to the folder "
            f"holding it; it is not shipped with the repository)")


@dataclass(frozen=True)
class Shot:
    card: str
    path: Path


@dataclass(frozen=True)
class RealSet:
    name: str
    root: Path
    cards: tuple[str, ...]
    shots: Mapping[str, tuple[Shot, ...]]  # per card, in name order

    def split(self, tune: int = 10) -> tuple[list[Shot], list[Shot]]:
        """(tuning half, test half): each card's first ``tune`` shots, and the rest."""
        a: list[Shot] = []
        b: list[Shot] = []
        for c in self.cards:
            a.extend(self.shots[c][:tune])
            b.extend(self.shots[c][tune:])
        return a, b


def load_set(root: Path, name: str | None = None) -> RealSet:
    """The set at ``root`` (``labels.csv`` there)."""
    per: dict[str, list[Shot]] = {}
    with io.StringIO(read_text(root / "labels.csv", 16 << 20), newline="") as f:
        for row in csv.DictReader(f):
            per.setdefault(row["card"], []).append(Shot(row["card"], root / row["file"]))
    cards = tuple(sorted(per))
    shots = {c: tuple(sorted(per[c], key=lambda s: s.path.name)) for c in cards}
    return RealSet(name or root.name, root, cards, shots)


def read(shot: Shot, size: tuple[int, int]) -> Image:
    img = read_image_file(shot.path)  # (its size read from the header before decoding)
    if img.shape[0] < img.shape[1]:  # lying on its side: stood up
        img = np.ascontiguousarray(np.rot90(img))
    return np.asarray(cv2.resize(img, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)


def enrol(shots: Sequence[Shot], size: tuple[int, int], how: str = "first"
          ) -> tuple[list[str], list[list[Image]]]:
    """The templates of each card from ``shots``: ``first`` = each card's first shot (what a
    user enrolling from one photo does), ``median`` = the per-pixel median of its shots,
    ``medoids-K`` = K of its shots (:func:`medoids`: those that best stand for all of them),
    ``all`` = every shot. (ids, each card's templates.)"""
    ids, out, _ = enrol_from(shots, size, how)
    return ids, out


def enrol_from(shots: Sequence[Shot], size: tuple[int, int], how: str = "first"
               ) -> tuple[list[str], list[list[Image]], set[Path]]:
    """:func:`enrol`, and the shots the templates were made from (the rest of ``shots`` can
    tune thresholds; a median is made from all)."""
    per: dict[str, list[Shot]] = {}
    for s in shots:
        per.setdefault(s.card, []).append(s)
    ids = sorted(per)
    out: list[list[Image]] = []
    used: set[Path] = set()
    for c in ids:
        imgs = [read(s, size) for s in per[c]]
        if how == "first":
            out.append([imgs[0]])
            used.add(per[c][0].path)
        elif how == "median":
            out.append([np.asarray(np.median(np.stack(imgs), axis=0), dtype=np.uint8)])
            used.update(s.path for s in per[c])
        elif how == "all":
            out.append(imgs)
            used.update(s.path for s in per[c])
        elif how.startswith("medoids-") and how[8:].isdigit() and int(how[8:]) >= 1:
            pick = medoids(imgs, int(how[8:]))
            out.append([imgs[i] for i in pick])
            used.update(per[c][i].path for i in pick)
        elif how.startswith("clusters-") and how[9:].isdigit() and int(how[9:]) >= 1:
            # The shots grouped around K medoids (each to its nearest), each group's median.
            pick = medoids(imgs, int(how[9:]))
            near = _nearest(imgs, pick)
            out.append([np.asarray(np.median(np.stack([imgs[k] for k in range(len(imgs))
                                                       if near[k] == g]), axis=0),
                                   dtype=np.uint8) for g in range(len(pick))])
            used.update(s.path for s in per[c])
        else:
            raise ValueError(f"how: {how!r} is not first, median, all, medoids-K or "
                             "clusters-K")
    return ids, out, used


def _small_features(imgs: Sequence[Image]) -> np.ndarray:
    feats = []
    for img in imgs:
        x = np.asarray(cv2.resize(img, (16, 24), interpolation=cv2.INTER_AREA), np.float32)
        x = x - np.asarray(cv2.GaussianBlur(x, (0, 0), 4.0), np.float32)
        x = x.ravel() - x.mean()
        feats.append(x / max(float(np.linalg.norm(x)), 1e-6))
    return np.stack(feats)


def _nearest(imgs: Sequence[Image], pick: Sequence[int]) -> list[int]:
    """For each image, the index in ``pick`` of the chosen image nearest it."""
    f = _small_features(imgs)
    return [int(k) for k in np.argmax(f @ f[list(pick)].T, axis=1)]


def medoids(imgs: Sequence[Image], k: int) -> list[int]:
    """The indices of ``k`` of ``imgs`` that best stand for all of them (k-medoids: the sum
    over all images of one minus their correlation with the nearest chosen one, smallest;
    greedy build, then swaps until none helps), at 24 px with slow gradients removed -- what
    makes two shots of one card look apart is blur, light and colour cast."""
    if k >= len(imgs):
        return list(range(len(imgs)))
    f = _small_features(imgs)
    d = 1.0 - f @ f.T

    def cost(sel: Sequence[int]) -> float:
        return float(d[:, list(sel)].min(axis=1).sum())

    chosen: list[int] = []
    while len(chosen) < k:
        chosen.append(min((i for i in range(len(imgs)) if i not in chosen),
                          key=lambda i: cost([*chosen, i])))
    better = True
    while better:
        better = False
        for a in range(k):
            for i in range(len(imgs)):
                if i in chosen:
                    continue
                trial = [*chosen[:a], i, *chosen[a + 1:]]
                if cost(trial) < cost(chosen) - 1e-9:
                    chosen, better = trial, True
    return sorted(chosen)


@dataclass
class RealScore:
    shots: int = 0
    correct: int = 0
    wrong: int = 0
    unknown: int = 0
    wrong_examples: list[str] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)  # process time of each verdict

    @property
    def accuracy(self) -> float:
        return self.correct / self.shots if self.shots else float("nan")

    @property
    def wrong_rate(self) -> float:
        return self.wrong / self.shots if self.shots else float("nan")


def judge(matcher: DeckMatcher, img: Image) -> Match:
    """The verdict on one straightened photo, as on the table: matched, then verified with
    the photo's own borders as the card's corners."""
    (m,) = matcher.match_many([img])
    h, w = img.shape[:2]
    quad = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]],
                    dtype=np.float32)
    grey = np.asarray(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    _, m = matcher.verify(img, grey, quad, m)
    return m


def measure(matcher: DeckMatcher, shots: Sequence[Shot], size: tuple[int, int]) -> RealScore:
    import time

    out = RealScore()
    for s in shots:
        img = read(s, size)
        t0 = time.process_time()
        m = judge(matcher, img)
        out.cpu_ms.append(1000 * (time.process_time() - t0))
        out.shots += 1
        if m.card_id is None:
            out.unknown += 1
        elif m.card_id == s.card:
            out.correct += 1
        else:
            out.wrong += 1
            out.wrong_examples.append(f"{s.card}->{m.card_id} ({m.score:.2f})")
    return out


def set_matcher(ids: Sequence[str], templates: Sequence[Image | Sequence[Image]],
                size: tuple[int, int], params: MatchParams | None = None) -> DeckMatcher:
    """A matcher of real SET cards (compared in colour: colour is one of SET's features);
    ``templates``: each card's template, or its several templates."""
    return DeckMatcher(list(ids), list(templates), size, use_colour=True, params=params)


@dataclass
class ForeignScore:
    """A deck enrolled for part of a family, measured on photos of the family's cards."""

    enrolled: int  # cards in the deck
    others: int  # cards of the family not in it
    own: RealScore  # photos of the deck's cards
    foreign_shots: int = 0  # photos of the other cards
    foreign_accepted: int = 0  # ... taken for a card of the deck (a wrong card)


def foreign(ids: Sequence[str], templates: Sequence[Image | Sequence[Image]],
            size: tuple[int, int], params: MatchParams, shots: Sequence[Shot],
            every: int = 2) -> ForeignScore:
    """Issue 16's item 4 on a real family: a deck of every ``every``-th card of ``ids``
    (41 of SET's 81 with 2: all colours, shapes, counts and shadings still in it, and every
    card left out has near-twins in the deck), ``shots`` of the others must come back
    unknown."""
    keep = [k for k in range(len(ids)) if k % every == 0]
    part = {ids[k] for k in keep}
    m = set_matcher([ids[k] for k in keep], [templates[k] for k in keep], size, params)
    out = ForeignScore(len(keep), len(ids) - len(keep),
                       measure(m, [s for s in shots if s.card in part], size))
    for s in shots:
        if s.card in part:
            continue
        out.foreign_shots += 1
        if judge(m, read(s, size)).card_id is not None:
            out.foreign_accepted += 1
    return out


#: The grid :func:`tune` searches (each threshold of ``MatchParams`` it sets).
GRID: Mapping[str, tuple[float, ...]] = {
    "min_score": (0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8),
    "min_twin_margin": (0.05, 0.1, 0.15, 0.2, 0.3),
    "min_colour": (-1.0, 0.5, 0.6, 0.7, 0.75, 0.8),
    "min_aligned": (0.0, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9),
}


@dataclass(frozen=True)
class _Seen:
    card: str
    id: str | None  # accepted with every threshold tuned here off
    score: float
    twin: float
    colour: float
    aligned_id: str | None
    aligned_score: float

    def accepted(self, lo: float, mt: float, mc: float, ma: float) -> str | None:
        if self.id is None or self.score < lo or self.colour < mc:
            return None
        if self.twin == self.twin and self.twin < mt:  # nan: not compared as twins
            return None
        if self.score < ma and not (self.aligned_id == self.id and self.aligned_score >= ma):
            return None
        return self.id


def tune(ids: Sequence[str], templates: Sequence[Image | Sequence[Image]],
         size: tuple[int, int], shots: Sequence[Shot], base: MatchParams | None = None
         ) -> tuple[MatchParams, int, int]:
    """Thresholds for a real set, measured on ``shots`` (the tuning half, without the shots
    the templates were made from): of the :data:`GRID`, those with the fewest wrong ids (none
    where any do), then accepting the most cards, then the strictest (highest thresholds).
    (params, right, shots)."""
    base = base or MatchParams()
    return _choose(_observe(ids, templates, size, shots, base), base)


def tune_folds(shots: Sequence[Shot], size: tuple[int, int], how: str,
               base: MatchParams | None = None) -> tuple[MatchParams, int, int]:
    """Thresholds for a deck enrolled ``how`` from all of ``shots`` (the tuning half), where
    no shot of it is left to tune on (several templates per card: the shots left over are the
    ones most like the chosen ones, and would tune too strictly): two folds, each card's
    shots 1, 3, 5 ... and 2, 4, 6 ...; enrolled ``how`` from one, observed on the other, the
    thresholds chosen (as :func:`tune`) on both observations together."""
    base = base or MatchParams()
    per: dict[str, list[Shot]] = {}
    for sh in shots:
        per.setdefault(sh.card, []).append(sh)
    seen: list[_Seen] = []
    for fold in (0, 1):
        a = [sh for v in per.values() for k, sh in enumerate(v) if k % 2 == fold]
        b = [sh for v in per.values() for k, sh in enumerate(v) if k % 2 != fold]
        ids, templates, _ = enrol_from(a, size, how)
        seen.extend(_observe(ids, templates, size, b, base))
    return _choose(seen, base)


def _observe(ids: Sequence[str], templates: Sequence[Image | Sequence[Image]],
             size: tuple[int, int], shots: Sequence[Shot], base: MatchParams) -> list[_Seen]:
    """What a matcher with every threshold :func:`tune` sets turned off says of each shot."""
    loose = replace(base, min_score=0.0, min_twin_margin=0.0, min_colour=-1.0, min_aligned=0.0)
    m = set_matcher(ids, templates, size, loose)
    seen: list[_Seen] = []
    for s in shots:
        img = read(s, size)
        (x,) = m.match_many([img])
        a_id, a_score = None, -1.0
        if x.card_id is not None:
            h, w = img.shape[:2]
            quad = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5],
                             [-0.5, h - 0.5]], dtype=np.float32)
            grey = np.asarray(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
            got = m.realign(img, grey, quad, x)  # (to the template that gave x)
            if got is not None:
                a_id, a_score = got[1].card_id, got[1].score
        seen.append(_Seen(s.card, x.card_id, x.score, x.twin_margin, x.colour, a_id, a_score))
    return seen


def _choose(seen: Sequence[_Seen], base: MatchParams) -> tuple[MatchParams, int, int]:
    best: tuple[tuple[int, int, float, float, float, float], MatchParams] | None = None
    for lo in GRID["min_score"]:
        for mt in GRID["min_twin_margin"]:
            for mc in GRID["min_colour"]:
                for ma in GRID["min_aligned"]:
                    got = [(v.card, v.accepted(lo, mt, mc, ma)) for v in seen]
                    wrong = sum(a is not None and a != c for c, a in got)
                    right = sum(a == c for c, a in got)
                    key = (-wrong, right, lo, mt, ma, mc)
                    if best is None or key > best[0]:
                        best = (key, replace(base, min_score=lo, min_twin_margin=mt,
                                             min_colour=mc, min_aligned=ma))
    if best is None:
        return base, 0, len(seen)
    return best[1], best[0][1], len(seen)


#: A second, disjoint set from the same public source as ``set-crops``: the repository
#: tomwhite/set-game (Apache License 2.0), folder ``data/train-v2/labelled/<card>/``, files
#: :data:`LATER_SHOTS` of each card in name order (``set-crops`` holds files 21-40): later
#: shots of the same 81 cards, on other days. Built from a git mirror of the repository
#: (``$TABLEKEEPER_SET_GAME_MIRROR``, else /work/.mirror/tomwhite+set-game/repo) into
#: :func:`data_root`'s sibling cache, never into the repository.
LATER_SHOTS = (40, 60)  # 0-based [start, stop): files 41-60
MIRROR_ENV = "TABLEKEEPER_SET_GAME_MIRROR"
MIRROR_DEFAULT = Path("/work/.mirror/tomwhite+set-game/repo")
LATER_NAME = "set-game-41-60"


def later_set(cache: Path | None = None, environ: Mapping[str, str] | None = None
              ) -> Path | None:
    """The folder of :data:`LATER_NAME` (labels.csv and photos), exported from the mirror on
    first use; None where neither it nor the mirror is there."""
    import subprocess

    env = os.environ if environ is None else environ
    out = (cache or Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache")
           / "tablekeeper" / "real-sets" / LATER_NAME)
    if (out / "labels.csv").is_file():
        return out
    mirror = Path(env.get(MIRROR_ENV) or MIRROR_DEFAULT)
    if not mirror.is_dir():
        return None
    prefix = "data/train-v2/labelled/"
    try:
        names = subprocess.run(["git", "-C", str(mirror), "ls-tree", "-r", "--name-only",
                                "HEAD", prefix], check=True, capture_output=True,
                               text=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        return None
    per: dict[str, list[str]] = {}
    for n in names:
        parts = n[len(prefix):].split("/")
        if len(parts) == 2 and parts[1].lower().endswith(".jpg"):
            per.setdefault(parts[0], []).append(n)
    tmp = out.with_name(out.name + ".tmp")
    rows = []
    for card in sorted(per):
        for n in sorted(per[card])[LATER_SHOTS[0]:LATER_SHOTS[1]]:
            blob = subprocess.run(["git", "-C", str(mirror), "show", f"HEAD:{n}"], check=True,
                                  capture_output=True).stdout
            rel = Path("images") / card / Path(n).name
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp / rel).write_bytes(blob)
            rows.append((str(rel), card))
    with open(tmp / "labels.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["file", "card"])
        w.writerows(rows)
    tmp.replace(out)
    return out
