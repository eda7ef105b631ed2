"""``bench vision --overlap``: cards half under another, on the simulated table (issue 37
item 3).

No public set of real photos of overlapping number or playing cards could be brought here
(docs/vision.md, issue 37), so this measures on :class:`vision.simtable.SimulatedTable`:
The Game's demo deck, each scene a card with another laid over 20-90 % of it at up to 25
degrees, a third card apart (its size in the frame: what the corner search is told), on
wood, cloth and dark tables; every third scene's lower card is a card from no deck (a
random face: it must never be named). Each scene is watched twice in the same process: with
the corner search off (``VisionConfig.corners`` empty, the decision as before) and on; the
lower card is judged where it is visible (an observation whose centre lies on its visible
part): named right, named wrong, unknown with the right card its best candidate (one press),
unknown, a region, or silent (nothing reported there). The thresholds
(:class:`vision.corners.CornerParams`) were chosen on the tuning seed; the held-out seed is
the headline.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.config import VisionConfig
from vision.deck import Deck
from vision.find import Image
from vision.simtable import Pose, SimulatedTable, TruthCard
from vision.tracker import CardWatcher, Observation

SURFACES = ("wood", "cloth", "dark")


@dataclass(frozen=True)
class Scene:
    image: Image
    truth: tuple[TruthCard, ...]
    lower: int  # index in truth of the card half under another
    foreign: bool  # the lower card is from no deck


def scenes(deck: Deck, seed: int, n: int) -> Iterator[Scene]:
    """``n`` scenes of a card half under another (see the module docstring)."""
    rng = random.Random(seed)
    ids = [c for c in deck.ids if c.startswith("n")] or list(deck.ids)
    for k in range(n):
        t = SimulatedTable(deck, seed=seed * 1000 + k, surface=SURFACES[k % 3])
        w_frame, h_frame = t.size
        w = rng.uniform(0.14, 0.19) * w_frame
        a = rng.uniform(0, 360)
        lower, upper, third = rng.sample(ids, 3)
        foreign = k % 3 == 2
        x, y = w_frame * 0.4, h_frame * 0.5
        if foreign:
            t.place_foreign(Pose(x, y, a, w), label="foreign")
        else:
            t.place(lower, Pose(x, y, a, w))
        cover = rng.uniform(0.2, 0.9)
        turn = rng.uniform(-25, 25)
        ang = math.radians(a + rng.choice([0, 90, 180, 270]))
        d = (1 - cover) * (1.5 * w if rng.random() < 0.5 else w)
        t.place(upper, Pose(x + d * math.sin(ang), y - d * math.cos(ang), a + turn, w))
        t.place(third, Pose(w_frame * 0.82, h_frame * 0.5, rng.uniform(0, 360), w))
        image = t.capture().image
        yield Scene(image, tuple(t.truth()), 0, foreign)


@dataclass
class OverlapScore:
    cards: int = 0  # lower cards of the deck, at least 10 % visible
    named: int = 0
    wrong: int = 0
    one_press: int = 0  # named right, or unknown with the right card its best candidate
    unknown: int = 0
    regions: int = 0
    silent: int = 0
    foreign: int = 0
    foreign_named: int = 0
    wrong_elsewhere: int = 0  # any card named that is not on the table
    cpu_ms: list[float] = field(default_factory=list)

    def rate(self, k: int) -> float:
        return 100.0 * k / self.cards if self.cards else float("nan")


def _visible_at(scene: Scene, pt: tuple[float, float]) -> bool:
    low = scene.truth[scene.lower]
    inside = cv2.pointPolygonTest(low.corners.reshape(-1, 1, 2), pt, False) >= 0
    return inside and not any(
        cv2.pointPolygonTest(t.corners.reshape(-1, 1, 2), pt, False) >= 0
        for t in scene.truth[scene.lower + 1:])


def judge(scene: Scene, obs: list[Observation], score: OverlapScore) -> str:
    """Add the lower card's verdict (and any card named that is not there) to ``score``."""
    on_table = {t.card_id for t in scene.truth}
    score.wrong_elsewhere += sum(o.card_id is not None and o.card_id not in on_table
                                 for o in obs)
    low = scene.truth[scene.lower]
    if low.visible < 0.1:
        return "hidden"
    here = [o for o in obs if _visible_at(scene, o.centre)]
    named = [o.card_id for o in here if o.card_id is not None]
    if scene.foreign:
        score.foreign += 1
        score.foreign_named += bool(named)
        return "foreign named" if named else "foreign unknown"
    score.cards += 1
    if low.card_id in named:
        score.named += 1
        score.one_press += 1
        return "named"
    if named:
        score.wrong += 1
        return "wrong"
    if not here:
        score.silent += 1
        return "silent"
    best = [o.match.candidates[0][0] if o.match.candidates else o.match.best_id
            for o in here]
    score.one_press += low.card_id in best[:1]
    if all(o.match.gate == "region" for o in here):
        score.regions += 1
        return "region"
    score.unknown += 1
    return "unknown"


def overlap_main(n: int = 30, seed: int = 7, tune_seed: int = 1000) -> int:
    """``bench vision --overlap``: the corner search off and on, the tuning seed and the
    held-out one, in one process."""
    from vision.demo_decks import build_demo_deck

    deck = build_demo_deck("the-game")
    on = VisionConfig()
    off = replace(on, corners={})
    cp = on.corners.get(deck.id)
    print(f"bench vision --overlap: {n} scenes a seed of {deck.id} (a card under another "
          f"by 20-90 %, every third from no deck), tuning seed {tune_seed}, held-out seed "
          f"{seed}; corner search {cp}; opencv {cv2.__version__}")
    for part, sd in (("tune", tune_seed), ("test", seed)):
        got = list(scenes(deck, sd, n))
        for label, config in (("off", off), ("corner", on)):
            w = CardWatcher(deck, config, deck.id)
            s = OverlapScore()
            for sc in got:
                t0 = time.process_time()
                obs = w.observe(sc.image)
                s.cpu_ms.append(1000 * (time.process_time() - t0))
                judge(sc, obs, s)
            print(f"  {part} seed {sd}, {label:>6}: lower cards of the deck {s.cards}: named "
                  f"{s.named} ({s.rate(s.named):.1f} %), wrong {s.wrong}, one_press "
                  f"{s.one_press} ({s.rate(s.one_press):.1f} %), unknown {s.unknown}, "
                  f"region {s.regions}, silent {s.silent}; cards from no deck named "
                  f"{s.foreign_named} of {s.foreign}; named but not on the table "
                  f"{s.wrong_elsewhere}; CPU per frame median "
                  f"{float(np.median(s.cpu_ms)) / 1000:.2f} s"
                  + ("  [targets: named >= 70 %, one_press >= 85 %, wrong <= 1 %]"
                     if part == "test" else ""), flush=True)
    return 0
