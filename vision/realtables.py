"""Labelled photos of real tables with several cards on them (bench and tests only; issue 30).

A *table set* is a folder of photos, each of several real SET cards lying on a table, and a
``tables.csv`` (``file,split,cards``: the photo's path relative to the folder, ``tune`` or
``test``, and the cards' ids row by row from the top left, separated by ``;``: the order
the source's author labelled them in). The photos are never copied into the repository:
they are exported on first use from a git mirror of their public source into the user's
cache (as :func:`vision.realsets.later_set` does), and a bench that finds neither says so
and skips.

The source: the public repository tomwhite/set-game (Apache License 2.0), photos its author
took of SET cards on a dark table with a phone and a webcam, labelled by him:

* ``set-boards-9``: ``data/train/<colour>-<number>-<stamp>.jpg``, 36 phone photos (3264x1836)
  of 9 cards each, one colour and number a board, laid out the same way (rows: solid,
  striped, empty; columns: oval, diamond, squiggle), taken on two evenings. Split per board:
  its first two photos (in name order) tune, the other two test -- for most boards the
  test photos are from the other evening.
* ``set-tables-mixed``: ``data/20170106_205743.jpg`` (15 cards), ``data/nine-cards-mixed-
  20161230_192740.jpg`` (9) and ``data/webcam/*.png`` (4 webcam frames of 12), each with a
  ``.txt`` of its cards row by row. Mixed cards, as in a game: three photos tune, three test.

Where the cards lie is not in the source; :func:`reference_cards` finds them for the bench
by the simplest means that these photos allow (light cards on a dark table: a threshold),
independent of :mod:`vision.find`, and orders them row by row as the source's own code did
(``GeometryUtils.sortRowWise``: the card nearest the top-left corner starts a row; the row is
every card whose centre lies within that card's height; sorted left to right). A photo where
that does not give exactly its labelled number of cards is reported and left out.
"""

from __future__ import annotations

import csv
import io
import os
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np
import numpy.typing as npt

from ground.files import read_text
from vision.find import Image
from vision.imagefile import decode_image
from vision.match import MatchParams
from vision.realsets import MIRROR_DEFAULT, MIRROR_ENV

if TYPE_CHECKING:
    from vision.tracker import CardWatcher

FloatArray = npt.NDArray[np.float32]



SOURCE = "tomwhite/set-game"
BOARDS = "set-boards-9"
MIXED = "set-tables-mixed"
NAMES = (BOARDS, MIXED)
#: The boards' layout: rows by shading, columns by shape.
BOARD_ROWS = ("solid", "striped", "empty")
BOARD_COLUMNS = ("oval", "diamond", "squiggle")
#: ``set-tables-mixed``: (file in the source, split).
MIXED_FILES = (
    ("data/20170106_205743.jpg", "tune"),
    ("data/webcam/20170529_184024.png", "tune"),
    ("data/webcam/20170604_134005.png", "tune"),
    ("data/nine-cards-mixed-20161230_192740.jpg", "test"),
    ("data/webcam/20170529_203823.png", "test"),
    ("data/webcam/20170604_134234.png", "test"),
)


def card_id(number: int, colour: str, shading: str, shape: str) -> str:
    """The id ``vision.realsets``' SET photos use: ``2-green-empty-diamonds``."""
    return f"{number}-{colour}-{shading}-{shape}{'s' if number > 1 else ''}"


def parse_label(line: str) -> str:
    """``"2 purple empty diamonds"`` (the source's labels) -> ``2-purple-empty-diamonds``."""
    parts = line.split()
    if len(parts) != 4 or parts[0] not in ("1", "2", "3"):
        raise ValueError(f"not a SET card's label: {line!r}")
    n = int(parts[0])
    shape = parts[3][:-1] if parts[3].endswith("s") else parts[3]
    return card_id(n, parts[1], parts[2], shape)


def board_labels(name: str) -> list[str]:
    """The 9 cards of a board photo ``<colour>-<number>-<stamp>.jpg``, row by row."""
    colour, number = name.split("-")[:2]
    return [card_id(int(number), colour, s, sh) for s in BOARD_ROWS for sh in BOARD_COLUMNS]


@dataclass(frozen=True)
class TablePhoto:
    path: Path
    split: str  # "tune" | "test"
    cards: tuple[str, ...]  # row by row from the top left


def cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    return (Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tablekeeper"
            / "real-tables")


def absent_message(name: str) -> str:
    return (f"real table set {name!r} not found: neither {cache_dir() / name} nor a git mirror "
            f"of {SOURCE} (${MIRROR_ENV}, default {MIRROR_DEFAULT}) is there; it is not "
            "shipped with the repository")


def _git(mirror: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(mirror), *args], check=True,
                          capture_output=True).stdout


def table_set(name: str, cache: Path | None = None,
              environ: Mapping[str, str] | None = None) -> Path | None:
    """The folder of table set ``name`` (``tables.csv`` and photos), exported from the mirror
    on first use; None where neither it nor the mirror is there."""
    if name not in NAMES:
        raise ValueError(f"no real table set {name!r} (there are {', '.join(NAMES)})")
    env = os.environ if environ is None else environ
    out = (cache or cache_dir(env)) / name
    if (out / "tables.csv").is_file():
        return out
    mirror = Path(env.get(MIRROR_ENV) or MIRROR_DEFAULT)
    if not mirror.is_dir():
        return None
    try:
        rows: list[tuple[str, str, str]] = []
        blobs: dict[str, bytes] = {}
        if name == BOARDS:
            names = sorted(n for n in _git(mirror, "ls-tree", "--name-only", "HEAD",
                                           "data/train/").decode().split()
                           if n.endswith(".jpg"))
            seen: dict[str, int] = {}
            for n in names:
                base = Path(n).name
                key = "-".join(base.split("-")[:2])
                k = seen[key] = seen.get(key, 0) + 1
                rows.append((base, "tune" if k <= 2 else "test", ";".join(board_labels(base))))
                blobs[base] = _git(mirror, "show", f"HEAD:{n}")
        else:
            for n, split in MIXED_FILES:
                labels = _git(mirror, "show", f"HEAD:{Path(n).with_suffix('.txt')}").decode()
                ids = [parse_label(x) for x in labels.splitlines() if x.strip()]
                base = Path(n).name
                rows.append((base, split, ";".join(ids)))
                blobs[base] = _git(mirror, "show", f"HEAD:{n}")
    except (OSError, subprocess.CalledProcessError, ValueError):
        return None
    tmp = out.with_name(out.name + ".tmp")
    tmp.mkdir(parents=True, exist_ok=True)
    for base, blob in blobs.items():
        (tmp / base).write_bytes(blob)
    with open(tmp / "tables.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["file", "split", "cards"])
        w.writerows(rows)
    if out.exists():
        import shutil

        shutil.rmtree(out)
    tmp.replace(out)
    return out


def load_tables(root: Path) -> list[TablePhoto]:
    with io.StringIO(read_text(root / "tables.csv", 16 << 20), newline="") as f:
        return [TablePhoto(root / r["file"], r["split"], tuple(r["cards"].split(";")))
                for r in csv.DictReader(f)]


def read_photo(path: Path, long_side: int = 1280) -> Image:
    """A table photo as the source's author's code read it (its EXIF orientation ignored: his
    labels are in the pixels' order), made at most ``long_side`` px long."""
    data = np.fromfile(str(path), dtype=np.uint8)
    img = decode_image(data, str(path), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    s = long_side / max(img.shape[:2])
    if s < 1.0:
        img = np.asarray(cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA),
                         dtype=np.uint8)
    return img


def _ordered(box: FloatArray) -> FloatArray:
    """Corners clockwise from the top-left-most (image coordinates)."""
    c = box.mean(axis=0)
    ang = np.arctan2(box[:, 1] - c[1], box[:, 0] - c[0])
    b = box[np.argsort(ang)]
    k = int(np.argmin(b.sum(axis=1)))
    return np.asarray(np.roll(b, -k, axis=0), dtype=np.float32)


def reference_cards(img: Image, expect: int) -> list[FloatArray] | None:
    """The cards of a table photo (light cards on a dark table), row by row as the source
    labelled them: each a 4x2 box (its minimum-area rectangle); None where the threshold does
    not give exactly ``expect`` card-sized blobs."""
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    grey = cv2.GaussianBlur(grey, (0, 0), 1.5)
    _, mask = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    areas = [float(cv2.contourArea(c)) for c in contours]
    if not areas:
        return None
    big = sorted(areas, reverse=True)[:expect]
    typical = float(np.median(big))
    boxes = []
    for c, a in zip(contours, areas, strict=True):
        if 0.4 * typical <= a <= 1.8 * typical:
            boxes.append(_ordered(np.asarray(cv2.boxPoints(cv2.minAreaRect(c)), np.float32)))
    if len(boxes) != expect:
        return None
    return row_wise(boxes)


def row_wise(boxes: Sequence[FloatArray]) -> list[FloatArray]:
    """``boxes`` in the source's row-by-row order (``GeometryUtils.sortRowWise``)."""
    rest = list(boxes)
    out: list[FloatArray] = []
    while rest:
        first = min(rest, key=lambda b: float(np.hypot(*b.mean(axis=0))))
        y0, y1 = float(first[:, 1].min()), float(first[:, 1].max())
        row = [b for b in rest if b is not first and y0 <= float(b[:, 1].mean()) <= y1]
        row.sort(key=lambda b: float(b[:, 0].mean()))
        out.append(first)
        out.extend(row)
        rest = [b for b in rest if b is not first and not any(b is r for r in row)]
    return out


# ------------------------------------------------------------------- decks and measuring


@dataclass(frozen=True)
class MemDeck:
    """A deck held in memory (``vision.match.DeckLike``): each card's templates."""

    id: str
    ids: tuple[str, ...]
    per_card: Mapping[str, tuple[Image, ...]]
    size: tuple[int, int]
    shape: str = "card"
    use_colour: bool = True

    def template(self, card: str) -> Image:
        return self.per_card[card][0]

    def templates_of(self, card: str) -> tuple[Image, ...]:
        return self.per_card[card]


def deck_from_layouts(photos: Sequence[TablePhoto], size: tuple[int, int], rows: int = 3,
                      columns: int = 3, keep: int = 8) -> tuple[MemDeck, list[str]]:
    """A deck cut from photos of cards laid ``rows`` x ``columns`` in a known order (the
    boards' tuning photos), as a user enrolling from one photo of several cards would
    (:func:`vision.layout.cards_in_layout`); templates whose border holds table are cut
    again or left out (:func:`vision.layout.border_problem`). (deck, what went wrong.)"""
    from vision.layout import LayoutError, border_problem, cards_in_layout, recut

    per: dict[str, list[Image]] = {}
    notes: list[str] = []
    for p in photos:
        try:
            laid = cards_in_layout(read_photo(p.path), size, rows, columns)
        except LayoutError as e:
            notes.append(f"{p.path.name}: {e}")
            continue
        for c in laid:
            card = p.cards[c.row * columns + c.column]
            t: Image | None = c.template
            if border_problem(c.template) is not None:
                t = recut(c.template, size)
                notes.append(f"{p.path.name} {card}: border re-cut" if t is not None
                             else f"{p.path.name} {card}: border holds table, left out")
            if t is not None and len(per.setdefault(card, [])) < keep:
                per[card].append(t)
    ids = tuple(sorted(per))
    return MemDeck("set-tables", ids, {c: tuple(per[c]) for c in ids}, size), notes


@dataclass
class TableScore:
    """Cards of the labelled photos: named, wrongly named, unknown (by the gate that rejected
    them), or not found; and outlines found where no card lies."""

    photos: int = 0
    cards: int = 0
    found: int = 0
    named: int = 0
    wrong: int = 0
    extra: int = 0  # found where no card lies
    extra_named: int = 0  # ... and named
    foreign: int = 0  # labelled cards not in the deck (found)
    foreign_named: int = 0  # ... taken for a card of the deck
    #: What the host's presses would be (issue 37): named right, or unknown with the right
    #: card its best candidate (one press: confirm); or the right card among its best 3
    #: (the best candidate, then the matcher's next two: at most three presses).
    one_press: int = 0
    three_press: int = 0
    #: cards found only as "something is there" (``vision.tracker``'s regions; in ``found``)
    regions: int = 0
    gates: dict[str, int] = field(default_factory=dict)
    wrong_examples: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)

    def rate(self, k: int) -> float:
        return k / self.cards if self.cards else float("nan")

    def gate_list(self) -> list[str]:
        """Each card's gate (``named``, ``wrong``, a gate's name, ``not found``)."""
        return [g for g, n in self.gates.items() for _ in range(n)]


def _inside(box: FloatArray, pt: tuple[float, float]) -> bool:
    return cv2.pointPolygonTest(box.reshape(-1, 1, 2), pt, False) >= 0


def measure_tables(watcher: CardWatcher, photos: Sequence[TablePhoto],
                   long_side: int = 1280, known: set[str] | None = None) -> TableScore:
    """Each photo's cards found and named by ``watcher`` (``observe``: the whole pipeline,
    finder to verify), each labelled card judged by what was found at its place (an
    observation whose centre lies in its reference box): named right, wrong, unknown (the
    gate that rejected it) or not found. ``known``: the deck's cards, where it holds only
    part of the family: a labelled card not among them is foreign and must come back
    unknown (counted apart: ``foreign``, ``foreign_named``; not in ``cards``)."""
    import time

    from vision.explain import ACCEPTED, NOT_FOUND, gate_of

    out = TableScore()
    for p in photos:
        img = read_photo(p.path, long_side)
        ref = reference_cards(img, len(p.cards))
        if ref is None:
            out.skipped.append(f"{p.path.name}: its {len(p.cards)} cards not found by the "
                               "reference threshold")
            continue
        t0 = time.process_time()
        obs = watcher.observe(img)
        out.cpu_ms.append(1000 * (time.process_time() - t0))
        out.photos += 1
        used: set[int] = set()
        for box, label in zip(ref, p.cards, strict=True):
            out.cards += label in known if known is not None else 1
            here = [k for k, o in enumerate(obs) if _inside(box, o.centre)]
            used.update(here)
            if not here:
                g = NOT_FOUND
            elif known is not None and label not in known:
                out.foreign += 1
                taken = [obs[k].card_id for k in here if obs[k].card_id is not None]
                out.foreign_named += bool(taken)
                g = "foreign named" if taken else "foreign unknown"
            else:
                out.found += 1
                named = [obs[k] for k in here if obs[k].card_id is not None]
                if any(o.card_id == label for o in named):
                    g = ACCEPTED
                    out.named += 1
                    out.one_press += 1
                    out.three_press += 1
                elif named:
                    g = "wrong"
                    out.wrong += 1
                    out.wrong_examples.append(f"{p.path.name}: {label}->{named[0].card_id} "
                                              f"({named[0].match.score:.2f})")
                elif all(obs[k].match.gate == "region" for k in here):
                    g = "region"
                    out.regions += 1
                else:
                    best = max((obs[k] for k in here if obs[k].match.gate != "region"),
                               key=lambda o: o.match.score)
                    g = gate_of(best.match)
                    top = [best.match.best_id] + [
                        watcher.matcher.ids[i] for i, _ in watcher.matcher.candidates_in(
                            img, best.corners, within=2.0, limit=3, full=True)]
                    out.one_press += top[0] == label
                    out.three_press += label in list(dict.fromkeys(top))[:3]
            out.gates[g] = out.gates.get(g, 0) + 1
        for k, o in enumerate(obs):
            if k not in used:
                out.extra += 1
                out.extra_named += o.card_id is not None
    return out


# ------------------------------------------------------------------ the fine thresholds


@dataclass(frozen=True)
class FineSeen:
    """What the fine decision made of one labelled card with its thresholds off."""

    card: str
    best: str
    fine: float
    margin: float
    colour_ok: bool
    #: its misfit to its best candidate (``DeckMatcher.fit``; nan: not measured)
    fit: float = float("nan")

    def accepted(self, lo: float, lead: float, max_fit: float = 0.0) -> str | None:
        ok = (self.colour_ok and self.fine >= lo and self.margin >= lead
              and not (max_fit > 0 and self.fit > max_fit))
        return self.best if ok else None


def observe_fine(deck: MemDeck, photos: Sequence[TablePhoto], long_side: int = 1280,
                 base: MatchParams | None = None) -> list[FineSeen]:
    """The fine decision on each labelled card of ``photos`` that is found, its thresholds
    (``min_fine``, ``min_fine_margin``) and the foreign-card gate off; and the misfit of
    its best candidate (``DeckMatcher.fit``)."""
    from dataclasses import replace

    from vision.config import VisionConfig
    from vision.tracker import CardWatcher

    params = replace(base or MatchParams(), fine=True, min_fine=-1.0, min_fine_margin=0.0,
                     max_fit=0.0)
    watcher = CardWatcher(deck, VisionConfig(match=params, deck_thresholds={}), deck.id)
    out: list[FineSeen] = []
    for p in photos:
        img = read_photo(p.path, long_side)
        ref = reference_cards(img, len(p.cards))
        if ref is None:
            continue
        obs = watcher.observe(img)
        for box, label in zip(ref, p.cards, strict=True):
            here = [o for o in obs if _inside(box, o.centre)]
            if not here:
                continue
            o = max(here, key=lambda o: o.match.fine if o.match.fine == o.match.fine
                    else -2.0)
            m = o.match
            if m.fine != m.fine:  # (not decided: a card the matcher could not shortlist)
                continue
            fit = watcher.matcher.fit(img, o.corners, replace(m, card_id=m.best_id))
            out.append(FineSeen(label, m.best_id, m.fine, m.fine_margin,
                                m.gate != "colour", fit))
    return out


#: The grid :func:`choose_fine` searches.
FINE_GRID = {"min_fine": tuple(round(0.4 + 0.025 * k, 3) for k in range(21)),
             "min_fine_margin": tuple(round(0.01 * k, 2) for k in range(16))}
#: The share of wrong ids :func:`choose_fine` allows on the tuning observations.
FINE_WRONG = 0.005


def choose_fine(seen: Sequence[FineSeen]) -> tuple[float, float, int, int]:
    """(min_fine, min_fine_margin, right, wrong) on ``seen``: of :data:`FINE_GRID`, those
    with at most :data:`FINE_WRONG` of the cards named wrong, naming the most; then the
    strictest."""
    allow = int(FINE_WRONG * len(seen))
    best: tuple[tuple[int, int, float, float], int] | None = None
    for lo in FINE_GRID["min_fine"]:
        for lead in FINE_GRID["min_fine_margin"]:
            got = [(s.card, s.accepted(lo, lead)) for s in seen]
            wrong = sum(a is not None and a != c for c, a in got)
            right = sum(a == c for c, a in got)
            key = (-max(0, wrong - allow), right, lo, lead)
            if best is None or key > best[0]:
                best = (key, wrong)
    if best is None:
        return 0.7, 0.03, 0, 0
    (_, right, lo, lead), wrong = best
    return lo, lead, right, wrong


#: The foreign-card gates (``max_fit``) :func:`choose_gate` searches with :data:`FINE_GRID`.
FIT_GRID = tuple(round(0.02 + 0.005 * k, 3) for k in range(57))
#: :func:`choose_gate`'s guard band: a gate counts only where one this much looser would
#: still name no card wrong on the tuning observations. Their cards from outside the deck
#: are mostly of the same evening as the deck (the boards' tuning folds; the mixed set's 3
#: tuning photos are the only other light), and another evening's light brings a foreign
#: card's misfit down as it brings the deck's own up: the gate the most names would pick
#: lies right at the first foreign card of the tuning photos (0.085: 0 named there; 0.1: 2).
FIT_GUARD = 1.25


def choose_gate(seen: Sequence[FineSeen]) -> tuple[float, float, float, int, int]:
    """(min_fine, min_fine_margin, max_fit, right, wrong) on ``seen`` (the deck's own cards
    and cards from outside it, whose every name is wrong): the fine decision's thresholds
    and the foreign-card gate chosen together, of :data:`FINE_GRID` x :data:`FIT_GRID`,
    those naming no card wrong, also with the gate :data:`FIT_GUARD` times looser, naming
    the most; then the strictest."""
    if not seen:
        return 0.7, 0.03, FIT_GRID[0], 0, 0
    fine = np.array([s.fine for s in seen])
    margin = np.array([s.margin for s in seen])
    fit = np.array([s.fit for s in seen])
    colour = np.array([s.colour_ok for s in seen])
    right_id = np.array([s.best == s.card for s in seen])
    best: tuple[int, float, float, float] | None = None
    for mf in FIT_GRID:
        fits = colour & ~(fit > mf)
        loose = colour & ~(fit > FIT_GUARD * mf)
        for lo in FINE_GRID["min_fine"]:
            for lead in FINE_GRID["min_fine_margin"]:
                over = (fine >= lo) & (margin >= lead)
                if (loose & over & ~right_id).any():
                    continue
                key = (int((fits & over & right_id).sum()), lo, lead, -mf)
                if best is None or key > best:
                    best = key
    if best is None:
        return 0.7, 0.03, FIT_GRID[0], 0, 0
    right, lo, lead, neg = best
    return lo, lead, -neg, right, 0


def half_deck(deck: MemDeck) -> MemDeck:
    """``deck`` with every other card (all colours, shadings, counts and shapes still in it;
    each card left out has near-twins in it): what the foreign-card figures enrol."""
    keep = deck.ids[::2]
    return MemDeck(deck.id + "-half", keep, {c: deck.per_card[c] for c in keep}, deck.size)


def observe_fine_foreign(deck: MemDeck, photos: Sequence[TablePhoto], long_side: int = 1280,
                         base: MatchParams | None = None) -> list[FineSeen]:
    """:func:`observe_fine` with :func:`half_deck` of ``deck``, only the cards it left out:
    foreign cards, which any threshold that names them names wrong (so that the thresholds
    chosen turn them away too)."""
    half = half_deck(deck)
    return [s for s in observe_fine(half, photos, long_side, base) if s.card not in half.ids]


def board_folds(photos: Sequence[TablePhoto]) -> tuple[list[TablePhoto], list[TablePhoto]]:
    """The boards' tuning photos in two folds: each board's first photo, and the rest."""
    seen: set[str] = set()
    a: list[TablePhoto] = []
    b: list[TablePhoto] = []
    for p in photos:
        key = "-".join(p.path.name.split("-")[:2])
        (b if key in seen else a).append(p)
        seen.add(key)
    return a, b
