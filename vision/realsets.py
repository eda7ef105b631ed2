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
half, the rest the test half. :func:`enrol` makes one template per card from the tuning half;
:func:`measure` scores the test half with a :class:`vision.match.DeckMatcher`, as a card found
on the table would be (``match_many`` on the straightened photo, then ``verify`` with the
photo's own borders as its corners).
"""

from __future__ import annotations

import csv
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from vision.find import Image, order_corners
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
    with open(root / "labels.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            per.setdefault(row["card"], []).append(Shot(row["card"], root / row["file"]))
    cards = tuple(sorted(per))
    shots = {c: tuple(sorted(per[c], key=lambda s: s.path.name)) for c in cards}
    return RealSet(name or root.name, root, cards, shots)


def read(shot: Shot, size: tuple[int, int]) -> Image:
    img = cv2.imread(str(shot.path), cv2.IMREAD_COLOR)
    if img is None:
        raise ValueError(f"{shot.path}: not an image")
    if img.shape[0] < img.shape[1]:  # lying on its side: stood up
        img = np.ascontiguousarray(np.rot90(img))
    return np.asarray(cv2.resize(img, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)


def enrol(shots: Sequence[Shot], size: tuple[int, int], how: str = "first"
          ) -> tuple[list[str], list[Image]]:
    """One template per card from ``shots``: ``first`` = each card's first shot (what a user
    enrolling from one photo does), ``median`` = the per-pixel median of its shots."""
    per: dict[str, list[Shot]] = {}
    for s in shots:
        per.setdefault(s.card, []).append(s)
    ids = sorted(per)
    out: list[Image] = []
    for c in ids:
        if how == "first":
            out.append(read(per[c][0], size))
        elif how == "median":
            stack = np.stack([read(s, size) for s in per[c]])
            out.append(np.asarray(np.median(stack, axis=0), dtype=np.uint8))
        else:
            raise ValueError(f"how: {how!r} is not first or median")
    return ids, out


@dataclass
class RealScore:
    shots: int = 0
    correct: int = 0
    wrong: int = 0
    unknown: int = 0
    wrong_examples: list[str] = field(default_factory=list)

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
    out = RealScore()
    for s in shots:
        m = judge(matcher, read(s, size))
        out.shots += 1
        if m.card_id is None:
            out.unknown += 1
        elif m.card_id == s.card:
            out.correct += 1
        else:
            out.wrong += 1
            out.wrong_examples.append(f"{s.card}->{m.card_id} ({m.score:.2f})")
    return out


def set_matcher(ids: Sequence[str], templates: Sequence[Image], size: tuple[int, int],
                params: MatchParams | None = None) -> DeckMatcher:
    """A matcher of real SET cards (compared in colour: colour is one of SET's features)."""
    return DeckMatcher(list(ids), list(templates), size, use_colour=True, params=params)


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


def tune(ids: Sequence[str], templates: Sequence[Image], size: tuple[int, int],
         shots: Sequence[Shot], base: MatchParams | None = None
         ) -> tuple[MatchParams, int, int]:
    """Thresholds for a real set, measured on ``shots`` (the tuning half, without the shots
    the templates were made from): of the :data:`GRID`, those with the fewest wrong ids (none
    where any do), then accepting the most cards, then the strictest (highest thresholds).
    (params, right, shots)."""
    from vision.align import Aligner

    base = base or MatchParams()
    loose = replace(base, min_score=0.0, min_twin_margin=0.0, min_colour=-1.0, min_aligned=0.0)
    m = set_matcher(ids, templates, size, loose)
    aligner = Aligner(templates, size)
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
            q = aligner.align(grey, quad, m.ids.index(x.card_id), x.rotation)
            if q is not None:
                (y,) = m.match_quads(img, [order_corners(q)])
                a_id, a_score = y.card_id, y.score
        seen.append(_Seen(s.card, x.card_id, x.score, x.twin_margin, x.colour, a_id, a_score))
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
