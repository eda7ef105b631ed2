"""Recognition against card size in pixels: what a mount height and a stream size must give.

``tablekeeper bench pixels`` (issue 31). For each card width in px (the card's *short* side,
as it lies in the frame that is searched), it measures on frames nobody tuned for:

* **find** -- the share of the cards laid that the finder outlines (within a fifth of a card
  side of the truth), searching the frame at its own resolution (the kiosk's picamera2 lores
  stream, or the frame itself with an OpenCV camera);
* **match** -- the share the matcher names right from the *true* outline of each card (the
  matcher alone, at that resolution: the finder's misses left out), and how many it names
  wrong;
* **both** -- the share named right by the whole recognition (:func:`vision.tracker.recognise`,
  as the kiosk runs it: find, then match), and the wrong ones;

on each demo deck (simulated frames, 640x480, random light and cloth, three cards apart) and,
for the matcher, on **real photos** (``set-crops``, :mod:`vision.realsets`: each card enrolled
from its first shot, its later shots scaled down to the width and back up, as a distant
camera sees them). The **floor** of a deck is the smallest width from which on every width
measured at least :data:`GOOD` of the cards are named right and none wrong.

Only the public recognition API is used (``CardFinder.find``, ``DeckMatcher.match_quads``,
``tracker.recognise``, ``realsets.judge``), so the bench follows the matcher as it changes.
Figures, never assertions: ``tests/vision/test_pixelbench.py`` checks only that it runs.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.deck import Deck
from vision.find import CardFinder, FindParams, FloatArray
from vision.match import DeckMatcher

#: card widths measured (short side, px in the searched frame)
WIDTHS = (16, 20, 24, 30, 36, 42, 48, 56, 64, 80)
#: a width is good when at least this share is named right and none wrong
GOOD = 0.95
FRAME = (640, 480)
#: real photos: a width is good within this share of the photos' own (full-size) accuracy
REAL_SLACK = 0.02


@dataclass
class Row:
    """One deck at one card width."""

    deck: str
    width: int
    cards: int = 0
    found: int = 0
    matched: int = 0
    match_wrong: int = 0
    named: int = 0
    wrong: int = 0
    ms: list[float] = field(default_factory=list)

    def share(self, n: int) -> float:
        return n / self.cards if self.cards else float("nan")

    @property
    def good(self) -> bool:
        return self.share(self.named) >= GOOD and self.wrong == 0

    @property
    def match_good(self) -> bool:
        return self.share(self.matched) >= GOOD and self.match_wrong == 0


def _near(a: FloatArray, b: FloatArray) -> bool:
    side = float(np.linalg.norm(a[1] - a[0]))
    d = min(float(np.abs(np.roll(a, -r, axis=0) - b).max()) for r in range(4))
    return d < 0.2 * side


def sim_row(deck: Deck, width: int, frames: int, seed: int,
            size: tuple[int, int] = FRAME) -> Row:
    """``frames`` simulated frames of ``size`` with three cards ``width`` px wide each."""
    from vision.simtable import Conditions, SimulatedTable
    from vision.tracker import recognise

    finder = CardFinder(deck.size, FindParams(work_width=size[0]))
    matcher = DeckMatcher.from_deck(deck)
    row = Row(deck.id, width)
    rng = random.Random(f"pixels-{deck.id}-{width}-{seed}")
    frac = width / size[0]
    for _ in range(frames):
        fs = rng.randrange(1 << 30)
        table = SimulatedTable(deck, seed=fs, size=size, card_width=(frac, frac),
                               conditions=Conditions.random(random.Random(fs)))
        for k, x in enumerate((0.25, 0.5, 0.75)):
            table.place(rng.choice(deck.ids),
                        (x * size[0], (0.35 + 0.3 * (k % 2)) * size[1]))
        image = table.capture().image
        truth = [t for t in table.truth(min_visible=0.995) if t.in_deck]
        t0 = time.process_time()
        got = recognise(finder, matcher, image)
        row.ms.append((time.process_time() - t0) * 1e3)
        found = finder.find(image)
        alone = matcher.match_quads(image, [t.corners for t in truth])
        for t, m in zip(truth, alone, strict=True):
            row.cards += 1
            row.found += any(_near(t.corners, f.corners) for f in found)
            row.matched += m.card_id == t.card_id
            row.match_wrong += m.card_id is not None and m.card_id != t.card_id
            hit = next((mm for fc, mm in got if _near(t.corners, fc.corners)), None)
            if hit is not None and hit.card_id is not None:
                row.named += hit.card_id == t.card_id
                row.wrong += hit.card_id != t.card_id
    return row


def real_row(width: int, per_card: int = 3, tune: int = 10) -> Row | None:
    """The matcher on real photos (``set-crops``) seen ``width`` px wide (0: as photographed,
    about 170 px); None: the set is absent."""
    from vision.imagefile import read_image_file
    from vision.realsets import SET_SIZE, enrol, find_set, judge, load_set, set_matcher

    root = find_set("set-crops")
    if root is None:
        return None
    rs = load_set(root)
    tuning, test = rs.split(tune)
    ids, templates = enrol(tuning, SET_SIZE, "first")
    matcher = set_matcher(ids, templates, SET_SIZE)
    row = Row("set-crops (real)", width)
    taken: dict[str, int] = {}
    for shot in test:
        if taken.get(shot.card, 0) >= per_card:
            continue
        taken[shot.card] = taken.get(shot.card, 0) + 1
        img = read_image_file(shot.path)
        if img.shape[0] < img.shape[1]:
            img = np.ascontiguousarray(np.rot90(img))
        small = img if width == 0 else cv2.resize(
            img, (width, round(width * SET_SIZE[1] / SET_SIZE[0])), interpolation=cv2.INTER_AREA)
        back = np.asarray(cv2.resize(small, SET_SIZE, interpolation=cv2.INTER_LINEAR),
                          dtype=np.uint8)
        t0 = time.process_time()
        m = judge(matcher, back)
        row.ms.append((time.process_time() - t0) * 1e3)
        row.cards += 1
        row.found += 1  # (cut out already: the matcher alone)
        row.matched += m.card_id == shot.card
        row.match_wrong += m.card_id is not None and m.card_id != shot.card
    row.named, row.wrong = row.matched, row.match_wrong
    return row


def floor(rows: Sequence[Row], match_only: bool = False,
          baseline: Row | None = None) -> int | None:
    """The smallest width from which every measured width is good (None: not even the
    largest). With ``baseline`` (real photos, whose matcher is not perfect even at full
    size): good = within :data:`REAL_SLACK` of the baseline's share named right, and no more
    wrong than it."""
    best: int | None = None
    for r in sorted(rows, key=lambda r: r.width, reverse=True):
        if baseline is not None:
            ok = (r.share(r.matched) >= baseline.share(baseline.matched) - REAL_SLACK
                  and r.match_wrong <= baseline.match_wrong)
        else:
            ok = r.match_good if match_only else r.good
        if not ok:
            break
        best = r.width
    return best


def main(decks: Sequence[str] | None = None, frames: int = 12, seed: int = 5,
         widths: Sequence[int] = WIDTHS, real: bool = True) -> int:
    from vision.deck import load_deck
    from vision.demo_decks import DEMO_DECKS, demo_deck

    cv2.setNumThreads(1)
    names = list(decks) if decks else [d for d in DEMO_DECKS]
    print(f"recognition against card width (short side, px in the searched frame); "
          f"{frames} frames x 3 cards per deck and width, {FRAME[0]}x{FRAME[1]}, seed {seed}")
    print(f"{'deck':<26} {'px':>4} {'cards':>5} {'find':>6} {'match':>6} {'m.wrong':>7} "
          f"{'both':>6} {'wrong':>5} {'ms/frame':>8}")
    floors: list[tuple[str, int | None, int | None]] = []
    for name in names:
        deck = load_deck(demo_deck(name))
        rows = []
        for w in widths:
            r = sim_row(deck, w, frames, seed)
            rows.append(r)
            print(f"{name:<26} {w:>4} {r.cards:>5} {r.share(r.found):>6.1%} "
                  f"{r.share(r.matched):>6.1%} {r.match_wrong:>7} {r.share(r.named):>6.1%} "
                  f"{r.wrong:>5} {float(np.median(r.ms)):>8.1f}", flush=True)
        floors.append((name, floor(rows, match_only=True), floor(rows)))
    if real:
        base = real_row(0)
        if base is None:
            print("set-crops: not found (real photos are not shipped; see vision/realsets.py); "
                  "skipped")
        else:
            print(f"{base.deck:<26} {'full':>4} {base.cards:>5} {'-':>6} "
                  f"{base.share(base.matched):>6.1%} {base.match_wrong:>7}")
            rows = []
            for w in widths:
                got = real_row(w)
                assert got is not None
                rows.append(got)
                print(f"{got.deck:<26} {w:>4} {got.cards:>5} {'-':>6} "
                      f"{got.share(got.matched):>6.1%} {got.match_wrong:>7} {'-':>6} {'-':>5} "
                      f"{float(np.median(got.ms)):>8.1f}", flush=True)
            floors.append(("set-crops (real)", floor(rows, baseline=base), None))
    print(f"floor: the smallest width from which every width measured has >= {GOOD:.0%} "
          f"named right and none wrong (real photos: within {REAL_SLACK:.0%} of their "
          "full-size accuracy, no more wrong):")

    def say(v: int | None) -> str:
        return f"{v} px" if v is not None else f"> {max(widths)} px"

    for name, m_floor, both in floors:
        tail = f"   find+match {say(both):>9}" if not name.endswith("(real)") else ""
        print(f"  {name:<26} matcher {say(m_floor):>9}{tail}")
    return 0
