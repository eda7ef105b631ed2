"""Public sets of real card photos beyond tomwhite/set-game (bench and tests only; issue 37).

Each set is exported on first use from a git mirror of its public source (``git show`` of
the mirror's ``HEAD``; the mirror is ``$TABLEKEEPER_MIRRORS/<owner>+<name>/repo``, default
``/work/.mirror``) into the user's cache (``~/.cache/tablekeeper/real-tables/<set>/``),
never into the repository. A set whose mirror is absent is None, and the bench says so and
skips it.

An exported set is what :mod:`vision.realtables` reads: a ``tables.csv`` (``file,split,
cards``: the cards row by row, as :func:`vision.realtables.reference_cards` orders the
photo's cards) beside the photos, and here also an ``enrol.csv`` (``file,card``): the
single-card photos a new user would enrol the deck from (``enrol/``).

* ``hahn-set-games`` (:data:`HAHN_SOURCE`, MIT licence, Copyright (c) 2019 Nicolas Hahn):
  ``image-data/set-games/setgame<N>.jpg``, phone photos (4032x3024) of 12 SET cards on a
  dark wooden table; for six of them (4, 5, 7, 8, 10, 11) the author saved each card his
  finder cut out under its name (``image-data/set-game-cards/setgame<N>/<colour>-<count>-
  <shading>-<shape>.jpg``, labelled by hand with his ``label_all_cards.py``): 72 labelled
  cards. Which card lies where is not in the source: the exporter finds every card-sized
  light blob of the photo (:func:`light_blobs`: a threshold, eroded to part cards that
  touch) and gives each of the author's cut-outs the blob that looks most like it
  (:func:`assign_cutouts`: the ink's colour, 90x60, both ways up; at least
  :data:`MIN_ALIKE` alike and :data:`MIN_LEAD` ahead of every other blob and cut-out, else
  that card is not counted and the exporter says so; a photo with fewer than half its
  cards placed is left out). Two of his labels contradict his photos (:data:`HAHN_FIXES`:
  a striped squiggle saved as an oval, three diamonds saved as one): they are corrected.
  Split (deterministic, by game number): 4 and 10 tune, 5, 7, 8 and 11 test (a photo the
  mirror lacks is left out and said so: the snapshot here has no ``setgame5.jpg``, 4.1 MB;
  a snapshot lacks files of 4 MiB and more).
  The deck: ``image-data/all-cards/labeled/*.jpg``, one photo of each of the 81 cards,
  cut from 17 photos the author took of the whole deck on another day
  (``all-cards/raw/``).
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ground.files import read_text
from vision.find import Image
from vision.realtables import MemDeck, card_id, read_photo, row_wise

#: Where the git mirrors of the public sources are: ``$TABLEKEEPER_MIRRORS/<owner>+<name>``.
MIRRORS_ENV = "TABLEKEEPER_MIRRORS"
MIRRORS_DEFAULT = Path("/work/.mirror")

HAHN = "hahn-set-games"
HAHN_SOURCE = "nicolashahn/set-solver"
HAHN_LICENCE = "MIT (Copyright (c) 2019 Nicolas Hahn)"
#: The labelled games and their split (by game number: not tuned on the test ones).
HAHN_GAMES = {4: "tune", 10: "tune", 5: "test", 7: "test", 8: "test", 11: "test"}
#: The author's labels that his photos contradict (checked by eye on the photo: the card
#: in the place of his cut-out shows another card): (game, his file name) -> the card.
HAHN_FIXES = {
    (10, "purple-single-stripes-capsule.jpg"): "1-purple-striped-squiggle",
    (11, "purple-single-solid-diamond.jpg"): "3-purple-solid-diamonds",
}
NAMES = (HAHN,)
SOURCES = {HAHN: (HAHN_SOURCE, HAHN_LICENCE)}

_COUNT = {"single": 1, "double": 2, "triple": 3}
_SHADING = {"solid": "solid", "stripes": "striped", "outline": "empty"}
_SHAPE = {"capsule": "oval", "diamond": "diamond", "squiggle": "squiggle"}


def hahn_label(name: str) -> str:
    """``green-double-outline-capsule(.jpg)`` (the source's file names) -> the id
    :mod:`vision.realtables` uses, ``2-green-empty-ovals``."""
    parts = Path(name).stem.split("-")
    if (len(parts) != 4 or parts[0] not in ("red", "green", "purple")
            or parts[1] not in _COUNT or parts[2] not in _SHADING or parts[3] not in _SHAPE):
        raise ValueError(f"not a SET card's file name: {name!r}")
    return card_id(_COUNT[parts[1]], parts[0], _SHADING[parts[2]], _SHAPE[parts[3]])


def cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    return (Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tablekeeper"
            / "real-tables")


def mirror_of(source: str, environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    return Path(env.get(MIRRORS_ENV) or MIRRORS_DEFAULT) / source.replace("/", "+") / "repo"


def absent_message(name: str, environ: Mapping[str, str] | None = None) -> str:
    source, licence = SOURCES[name]
    return (f"public set {name!r} not found: neither {cache_dir(environ) / name} nor a git "
            f"mirror of {source} ({licence}) at {mirror_of(source, environ)} "
            f"(${MIRRORS_ENV}) is there; it is not shipped with the repository")


def _git(mirror: Path, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(mirror), *args], check=True,
                          capture_output=True).stdout


def _ls(mirror: Path, prefix: str) -> list[str]:
    out = _git(mirror, "ls-tree", "-r", "--name-only", "HEAD", prefix).decode()
    return sorted(n for n in out.splitlines() if n.lower().endswith(".jpg"))


def _ink(img: Image, size: tuple[int, int] = (90, 60)) -> np.ndarray:
    """A card's picture as its ink's colour (Lab's a and b: SET's shapes are coloured on
    white paper; the light's brightness and its fall-off across the photo left out), lying
    on its long side, its inner 80 % (cut-outs differ in how much border they hold), made
    ``size`` and of unit norm."""
    if img.shape[0] > img.shape[1]:
        img = np.ascontiguousarray(np.rot90(img))
    h, w = img.shape[:2]
    img = img[h // 10:h - h // 10, w // 10:w - w // 10]
    lab = cv2.cvtColor(cv2.resize(img, size, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2LAB)
    s = cv2.GaussianBlur(lab[:, :, 1:].astype(np.float32) - 128.0, (0, 0), 2.5)
    s -= s.mean(axis=(0, 1))
    n = float(np.linalg.norm(s))
    return s / n if n > 0 else s


def _cut(img: Image, box: np.ndarray) -> Image:
    w = float(np.linalg.norm(box[1] - box[0]))
    h = float(np.linalg.norm(box[2] - box[1]))
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    m = cv2.getPerspectiveTransform(box.astype(np.float32), dst)
    return np.asarray(cv2.warpPerspective(img, m, (round(w), round(h))), np.uint8)


def light_blobs(img: Image) -> list[np.ndarray]:
    """Every card-sized light blob of a photo of light cards on a dark table (a threshold,
    eroded 0, 4 and 8 px to part cards that touch; each box grown back as much), more than
    the cards where other light things lie about: each a 4x2 box."""
    from vision.realtables import _ordered

    grey = cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (0, 0), 1.5)
    _, mask = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    out: list[np.ndarray] = []
    for e in (0, 4, 8):
        m = mask if not e else cv2.erode(mask, np.ones((2 * e + 1,) * 2, np.uint8))
        contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            a = float(cv2.contourArea(c))
            if a < 0.002 * img.shape[0] * img.shape[1]:
                continue
            (cx, cy), (w, h), ang = cv2.minAreaRect(c)
            if min(w, h) <= 0 or not 1.15 < max(w, h) / min(w, h) < 3.2:  # (foreshortened)
                continue
            box = _ordered(np.asarray(cv2.boxPoints(((cx, cy), (w + 2 * e, h + 2 * e), ang)),
                                      np.float32))
            if all(float(np.hypot(*(box.mean(axis=0) - b.mean(axis=0)))) > 0.25 * min(w, h)
                   for b in out):
                out.append(box)
    return out


#: How alike a box and the author's cut-out must be to be taken for the same card, and by
#: how much more than any other box left (and any other cut-out left for that box).
MIN_ALIKE = 0.5
MIN_LEAD = 0.1


def assign_cutouts(img: Image, boxes: Sequence[np.ndarray], cutouts: Sequence[Image]
                   ) -> dict[int, int]:
    """Which box of ``img`` holds which cut-out (a picture of a card cut from ``img`` by
    another program): greedily the most alike pair left (both ways up), where it is at least
    :data:`MIN_ALIKE` alike and leads every other box left for that cut-out, and every
    other cut-out left for that box, by :data:`MIN_LEAD`. {cut-out: box}; a cut-out that
    cannot be placed so is left out."""
    a = [_ink(_cut(img, b)) for b in boxes]
    c = [_ink(x) for x in cutouts]
    if not a or not c:
        return {}
    sim = np.array([[max(float((x * y).sum()), float((x * y[::-1, ::-1]).sum()))
                     for x in a] for y in c])  # cut-outs x boxes
    out: dict[int, int] = {}
    live = np.ones_like(sim, dtype=bool)
    while live.any():
        flat = int(np.argmax(np.where(live, sim, -9.0)))
        j, i = flat // sim.shape[1], flat % sim.shape[1]
        s = sim[j, i]
        if s < MIN_ALIKE:
            break
        rest = [sim[j, k] for k in range(sim.shape[1]) if k != i and live[j, k]]
        rest += [sim[k, i] for k in range(sim.shape[0]) if k != j and live[k, i]]
        if not rest or s - max(rest) >= MIN_LEAD:
            out[j] = i
        live[j, :] = False
        live[:, i] = False
    return out


def public_set(name: str, cache: Path | None = None,
               environ: Mapping[str, str] | None = None) -> Path | None:
    """The folder of public set ``name``, exported from its mirror on first use; None where
    neither it nor the mirror is there."""
    if name not in NAMES:
        raise ValueError(f"no public set {name!r} (there are {', '.join(NAMES)})")
    out = (cache or cache_dir(environ)) / name
    if (out / "tables.csv").is_file() and (out / "enrol.csv").is_file():
        return out
    mirror = mirror_of(SOURCES[name][0], environ)
    if not mirror.is_dir():
        return None
    tmp = out.with_name(out.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    (tmp / "enrol").mkdir(parents=True)
    try:
        rows, enrol, notes = _export_hahn(mirror, tmp)
    except (OSError, subprocess.CalledProcessError, ValueError):
        shutil.rmtree(tmp, ignore_errors=True)
        return None
    with open(tmp / "tables.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["file", "split", "cards", "boxes"])
        w.writerows(rows)
    with open(tmp / "enrol.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["file", "card"])
        w.writerows(enrol)
    (tmp / "NOTES.txt").write_text(
        f"{name}: exported from {SOURCES[name][0]} ({SOURCES[name][1]})\n"
        + "".join(f"{n}\n" for n in notes), encoding="utf-8")
    if out.exists():
        shutil.rmtree(out)
    tmp.replace(out)
    return out


def _export_hahn(mirror: Path, tmp: Path
                 ) -> tuple[list[tuple[str, str, str, str]], list[tuple[str, str]], list[str]]:
    rows: list[tuple[str, str, str, str]] = []
    notes: list[str] = []
    for game, split in sorted(HAHN_GAMES.items()):
        base = f"setgame{game}.jpg"
        try:
            blob = _git(mirror, "show", f"HEAD:image-data/set-games/{base}")
        except subprocess.CalledProcessError:
            notes.append(f"{base}: not in the mirror (a snapshot may lack files of 4 MiB "
                         "and more); left out")
            continue
        (tmp / base).write_bytes(blob)
        names = _ls(mirror, f"image-data/set-game-cards/setgame{game}/")
        labels = [HAHN_FIXES.get((game, Path(n).name)) or hahn_label(n) for n in names]
        cuts = [np.asarray(cv2.imdecode(np.frombuffer(_git(mirror, "show", f"HEAD:{n}"),
                                                      np.uint8), cv2.IMREAD_COLOR), np.uint8)
                for n in names]
        img = read_photo(tmp / base)
        boxes = light_blobs(img)
        got = assign_cutouts(img, boxes, cuts)
        if len(got) < len(labels) // 2:
            notes.append(f"{base}: only {len(got)} of its {len(labels)} cards could be "
                         "placed; left out")
            (tmp / base).unlink()
            continue
        if len(got) < len(labels):
            notes.append(f"{base}: {len(labels) - len(got)} of its {len(labels)} cards could "
                         "not be placed, not counted: "
                         + ", ".join(labels[j] for j in range(len(labels)) if j not in got))
        placed = row_wise([boxes[i] for i in got.values()])
        order = [next(j for j, i in got.items() if boxes[i] is b) for b in placed]
        hw = np.array([img.shape[1], img.shape[0]], np.float32)
        rows.append((base, split, ";".join(labels[j] for j in order),
                     json.dumps([np.round(b / hw, 5).tolist() for b in placed])))

    enrol: list[tuple[str, str]] = []
    for n in _ls(mirror, "image-data/all-cards/labeled/"):
        rel = f"enrol/{Path(n).name}"
        (tmp / rel).write_bytes(_git(mirror, "show", f"HEAD:{n}"))
        enrol.append((rel, hahn_label(n)))
    if not enrol:
        raise ValueError("no single-card photos to enrol from")
    return rows, enrol, notes


@dataclass(frozen=True)
class EnrolPhoto:
    card: str
    path: Path


def load_enrol(root: Path) -> list[EnrolPhoto]:
    with io.StringIO(read_text(root / "enrol.csv", 16 << 20), newline="") as f:
        return [EnrolPhoto(r["card"], root / r["file"]) for r in csv.DictReader(f)]


def notes_of(root: Path) -> list[str]:
    p = root / "NOTES.txt"
    return read_text(p, 1 << 20).splitlines()[1:] if p.is_file() else []


def enrol_deck(root: Path, size: tuple[int, int]) -> MemDeck:
    """The deck a new user would enrol from the set's single-card photos (``enrol.csv``):
    each photo stood up, its border checked as ``vision enroll`` does (a sliver of table
    trimmed; a photo whose border holds more is left out), made ``size``."""
    from vision.imagefile import read_image_file
    from vision.layout import border_problem, recut

    per: dict[str, list[Image]] = {}
    for e in load_enrol(root):
        img = read_image_file(e.path)
        if img.shape[0] < img.shape[1]:
            img = np.ascontiguousarray(np.rot90(img))
        t: Image | None = np.asarray(cv2.resize(img, size, interpolation=cv2.INTER_AREA),
                                     np.uint8)
        if t is not None and border_problem(t) is not None:
            t = recut(t, size)
        if t is not None:
            per.setdefault(e.card, []).append(t)
    ids = tuple(sorted(per))
    return MemDeck(root.name, ids, {c: tuple(per[c]) for c in ids}, size)
