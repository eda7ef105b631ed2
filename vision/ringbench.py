"""什麼不見啦's ring on the simulated table: tokens and turned-up scenes read by the camera,
per surface and colour cast (``tablekeeper bench ring``, ``python -m vision.ringbench``).

Per surface, the ring is calibrated once under a neutral light, as the host does it (the zones
from the laid cards, ``vision calibrate --layout ring:N``; the seven token colours from tokens
in the first slots, :func:`vision.markers.calibrate`). Then, per colour cast and trial, a ring
of 5 or 6 scenes is laid under that cast (random exposure, light fall-off, vignette, shadow,
blur, noise, JPEG and flicker), and a betting round is played on it: the seven tokens go one by
one into the next empty slot of a random memory card (some half over the card's edge, some laid
while a hand passes over the ring), and the light dims by up to a fifth half-way (the evening).
After each token the camera reads a third of a second of frames
(:class:`vision.ring.RingWatcher`; ``read_at_once``: the token was read in them); then two
scenes are turned up. It prints JSON: per cast, tokens read right (the colour in its slot, as
the ring settled at the round's end) / wrong (another colour, or unnamed) / missed (nothing
read), false tokens (a token read in a slot none was laid in), the tokens half on a card's edge
read right, scenes turned up read and false turn-ups; and the totals.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from typing import Any

from vision.simtable import CASTS, Conditions, SimulatedTable

SURFACES = ("cloth", "wood", "dark")
#: Frames the camera reads after each token, a third of a second at 30 fps: a hand passing
#: takes 5, the reading holds 3 still frames (the next player's token comes later than that).
FRAMES_PER_TOKEN = 10


def _deck() -> Any:
    from vision.deck import load_deck
    from vision.demo_decks import demo_deck

    return load_deck(demo_deck("something-missing-items"))


def calibrated(deck: Any, surface: str, n: int, seed: int) -> tuple[Any, Any]:
    """The host's calibration of a ring of ``n`` under a neutral light on ``surface``: its
    zones and the token palette."""
    from vision.markers import calibrate
    from vision.ring import TOKEN_COLOURS, ring_of, slot_zones
    from vision.simring import SimRing

    table = SimulatedTable(deck, seed=seed, conditions=Conditions(surface=surface))
    ring = SimRing.lay(table, n, seed=seed)
    pairs = ring_of(ring.zones())
    slots = [z for p, (_s, m) in enumerate(pairs) for z in slot_zones(m, p)]
    before = table.capture().image
    placed = {}
    for i, colour in enumerate(TOKEN_COLOURS):
        pos, slot = divmod(i, 6)
        ring.put_token(colour, pos)
        placed[colour] = f"memory{pos + 1}.{slot + 1}"
    return pairs, calibrate(before, table.capture().image, slots, placed)


def _frames(watcher: Any, table: Any, clock: list[int], count: int) -> list[Any]:
    out = []
    for _f in range(count):
        clock[0] += 33_333_333
        out.extend(watcher.process(table.capture().image, clock[0]))
    return out


def run(trials: int = 4, seed: int = 1, casts: tuple[str, ...] = tuple(CASTS),
        surfaces: tuple[str, ...] = SURFACES) -> dict[str, Any]:
    from vision.ring import TOKEN_COLOURS, RingWatcher
    from vision.simring import SimRing

    deck = _deck()
    rng = random.Random(seed)
    per: dict[str, Counter[str]] = {c: Counter() for c in casts}
    k = 0
    for surface in surfaces:
        for n in (5, 6):
            zones, palette = calibrated(deck, surface, n, seed)
            for cast in casts:
                c = per[cast]
                for _ in range(trials):
                    k += 1
                    cond = Conditions(surface=surface, cast=cast, noise_sigma=2.0,
                                      blur_sigma=rng.uniform(0.3, 0.9),
                                      exposure=rng.uniform(0.85, 1.1),
                                      gradient=rng.uniform(0.05, 0.25),
                                      gradient_angle=rng.uniform(0, 360),
                                      vignette=rng.uniform(0.05, 0.2),
                                      jpeg_quality=rng.randint(65, 90), flicker=0.01,
                                      shadow=rng.uniform(0.2, 0.45))
                    table = SimulatedTable(deck, seed=seed, conditions=cond)
                    ring = SimRing.lay(table, n, seed=seed)  # where the calibration found it
                    watcher = RingWatcher(zones, palette, table.size)
                    clock = [0]

                    def frames(count: int, watcher: Any = watcher, table: Any = table,
                               clock: list[int] = clock) -> list[Any]:
                        return _frames(watcher, table, clock, count)

                    frames(3)
                    tokens = list(TOKEN_COLOURS)
                    rng.shuffle(tokens)
                    truth: dict[tuple[int, int], str] = {}
                    reported: dict[tuple[int, int], str | None] = {}
                    for i, colour in enumerate(tokens):
                        if i == len(tokens) // 2:  # the evening: the light dims
                            table.set_light(exposure=table.conditions.exposure
                                            * rng.uniform(0.8, 0.95))
                        pos = rng.randrange(n)
                        if len(ring.tokens[pos]) >= 6:
                            continue
                        half = rng.random() < 0.2
                        off = (0.0, rng.choice((-0.45, 0.45))) if half else (
                            rng.uniform(-0.08, 0.08), rng.uniform(-0.08, 0.08))
                        if rng.random() < 0.25:
                            table.hand_pass(5, target=(ring.memory_poses[pos].x,
                                                       ring.memory_poses[pos].y))
                            c["hand_passes"] += 1
                        slot = ring.put_token(colour, pos, off=off, angle=rng.uniform(-8, 8))
                        truth[(pos, slot)] = colour
                        c["tokens"] += 1
                        c["half_on_edge"] += int(half)
                        for ch in frames(FRAMES_PER_TOKEN):
                            if not ch.is_scene:
                                reported[(ch.position, ch.slot)] = ch.marker
                        c["read_at_once"] += int(reported.get((pos, slot)) == colour)
                        c["half_on_edge_right"] += int(half and reported.get((pos, slot))
                                                       == colour)
                    for ch in frames(4):  # the round's bets are all laid: the ring settles
                        if not ch.is_scene:
                            reported[(ch.position, ch.slot)] = ch.marker
                    for key, colour in truth.items():
                        got = reported.get(key)
                        c["right" if got == colour else "missed" if got is None else
                          "wrong"] += 1
                    c["false_tokens"] += sum(1 for key, got in reported.items()
                                             if got is not None and key not in truth)
                    ups = rng.sample(range(n), 2)
                    for pos in ups:
                        ring.turn_up(pos)
                        seen = [ch for ch in frames(FRAMES_PER_TOKEN) if ch.is_scene]
                        c["scenes_up"] += 1
                        c["scenes_up_read"] += int(any(ch.position == pos and ch.face == "up"
                                                       for ch in seen))
                        c["false_scenes_up"] += sum(ch.position != pos and ch.face == "up"
                                                    for ch in seen)
    total: Counter[str] = Counter()
    for counter in per.values():
        total.update(counter)

    def figures(c: Counter[str]) -> dict[str, Any]:
        return {"tokens": c["tokens"], "read_at_once": c["read_at_once"],
                "right": c["right"], "wrong": c["wrong"],
                "missed": c["missed"], "false_tokens": c["false_tokens"],
                "half_on_edge_at_once": f"{c['half_on_edge_right']}/{c['half_on_edge']}",
                "hand_passes": c["hand_passes"],
                "scenes_up": f"{c['scenes_up_read']}/{c['scenes_up']}",
                "false_scenes_up": c["false_scenes_up"]}

    return {"rings": k, "surfaces": list(surfaces), "by_cast": {cast: figures(per[cast])
                                                                for cast in casts},
            "total": figures(total)}


def run_and_print(trials: int, seed: int) -> int:
    """``tablekeeper bench ring`` (registered in :mod:`vision.cli`, which imports this module
    only when the bench runs: OpenCV stays out of the CLI's start)."""
    print(json.dumps(run(trials, seed), ensure_ascii=False, indent=1))
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.ringbench", description=__doc__)
    p.add_argument("--trials", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args(argv)
    return run_and_print(a.trials, a.seed)


if __name__ == "__main__":
    raise SystemExit(main())
