"""``tablekeeper bench ask`` (issue 37): real photos of real tables put through the screen's
ask flow, a simulated host answering with the three host buttons.

For each real table set :mod:`vision.realtables` lists (its registry: a set added there is
measured here), with the deck enrolled from single-card photos of another session
(``set-crops``' first 10 shots a card, as ``bench vision --tables``' "crops" deck), every
photo is recognised as the camera would (``CardWatcher.observe``) and each labelled card
judged: named right by the camera (no press), named wrong, found but not named (a question:
its candidates computed as the watcher computes them for an :class:`UnsureCard`), or not
found. Each question goes to the real screen (:class:`tablekeeper.screen.PygameScreen`,
SDL's dummy driver, a real loop, referee and journal) whose host presses *next* until the
right card has the focus (or "none of these", when it is not among the candidates: the
game's entry by hand follows, counted apart) and *confirm*.

Figures per set: host presses per card in view (targets: <= 1.3 on average, none above 4),
and the learning at the table: the photos in the order they were taken, the first half's
questions answered by the simulated host (what it names is learnt: ``vision.learnt``), then
the named rate over the second half, against the same deck without learning in the same
process.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The game's entry by hand after "none of these" (or for a card not found): The Game's
#: card by hand with the three host buttons, the row (1 to 4 presses: 2.5 on average) then
#: the card on the row's picker (6.9 on average over every pile state and card, 8 at worst),
#: as docs/host-buttons.md gives them (``tests/app/test_entry_presses.py``). Reported apart
#: from the questions' own presses.
THE_GAME_ENTRY = (9.4, 12)


@dataclass
class SetFigures:
    name: str
    photos: int = 0
    cards: int = 0  # labelled cards of the deck in view
    named: int = 0  # by the camera alone, right
    wrong: int = 0
    asked: int = 0
    not_found: int = 0
    by_hand: int = 0  # asked, the right card not among the candidates
    presses: list[int] = field(default_factory=list)  # per card asked and answered (1..4)
    #: per card asked whose right card is not among the candidates: the presses to reach the
    #: game's entry by hand ("none of these" confirmed; the entry's own presses not counted)
    to_hand: list[int] = field(default_factory=list)
    among3: int = 0  # asked, the right card among the best 3 candidates
    among6: int = 0  # ... among the best 6 (both pages)
    skipped: list[str] = field(default_factory=list)

    def settled(self) -> float:
        """Cards named by the camera or answered within 4 presses, of the cards in view."""
        ok = self.named + sum(1 for p in self.presses if p <= 4)
        return ok / self.cards if self.cards else float("nan")

    def per_card_with_hand(self, entry: float) -> float:
        """Host presses per card in view, counting each card entered by hand (asked and
        not among the candidates: its presses to "none of these" + ``entry``; not found:
        ``entry`` + 1, "card is up by hand") and each card named wrong (*back* to undo it,
        then ``entry`` + 1)."""
        total = (sum(self.presses) + sum(p + entry for p in self.to_hand)
                 + (self.not_found + self.wrong) * (entry + 1))
        return total / self.cards if self.cards else float("nan")

    def per_card(self) -> float:
        """Host presses per card in view, counting a card entered by hand (asked or not
        found) as nothing: those are reported apart."""
        return sum(self.presses) / self.cards if self.cards else float("nan")


class _Cards:
    """The loop's camera: the bench hands it the photo's questions."""

    status = None

    def __init__(self) -> None:
        self.unsure: list[Any] = []

    def poll(self, now_ns: int) -> list[Any]:
        return []

    def questions(self) -> list[Any]:
        out, self.unsure = self.unsure, []
        return out

    def close(self) -> None:
        pass


class ScreenHost:
    """The real screen's ask flow and a host who knows the right card."""

    MS = 1_000_000

    def __init__(self, folder: Path) -> None:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        from firmware.box import build
        from firmware.config import FirmwareConfig
        from firmware.mock import mock_factory
        from tablekeeper import games
        from tablekeeper.app import Loop
        from tablekeeper.ask import Asks
        from tablekeeper.clock import FakeClock
        from tablekeeper.games.the_game import host
        from tablekeeper.journal import JournaledGame
        from tablekeeper.referee import Referee
        from tablekeeper.screen import PygameScreen

        self.cfg = FirmwareConfig.from_dict({"backend": "gpio", "sound": {"kind": "none"}})
        self.clock = FakeClock()
        self.factory = mock_factory()
        firmware = build(self.cfg, self.factory, rng=random.Random(5), clock=self.clock.now_ns)
        kit = games.load("the-game")  # (any game: the ask flow knows none)
        referee = Referee(JournaledGame.create(folder / "bench.jsonl", game=kit.engine.name),
                          firmware, self.clock.now_ns(), kit=kit,
                          **kit.table_options(kit.deck(None)))
        self.screen = PygameScreen(size=(800, 480), rng=random.Random(1))
        self.cards = _Cards()
        self.loop = Loop(referee, self.clock, cards=self.cards, screen=self.screen)
        self.loop.asks = Asks()
        referee.submit(host.new_game(["A", "B", "C"], ["red", "blue", "green"], "normal", 0,
                                     referee.at_ms(self.clock.now_ns())))
        self.step()
        #: the presses the last answer took (the keypad's, after "none of these", not counted)
        self.last = 0

    def step(self, ms: int = 40) -> None:
        self.clock.advance(ms * self.MS)
        self.loop.step()

    def press(self, button: Any) -> None:
        pin = self.factory.pin(getattr(self.cfg.pins, button.value))
        pin.press(self.clock.now_ns())
        self.step(60)
        pin.release(self.clock.now_ns())
        self.step()

    def answer(self, unsure: Any, right: str, learning: Any = None) -> int | None:
        """Put ``unsure`` to the screen; the host answers ``right``: presses, or None where
        it is not among the candidates (the host took "none of these")."""
        from firmware.devices import HostButton
        from tablekeeper.ask import PAGE

        self.loop.learning = learning
        self.cards.unsure.append(unsure)
        self.step()
        assert self.screen.renderer.screen == "ask", self.screen.renderer.screen
        presses = 0
        ids = tuple(c for c, _ in unsure.candidates)
        for _ in range(12):
            focused = self.screen.renderer.focused
            assert focused is not None
            action = (focused.action.name, focused.action.arg)
            if action in (("ask.pick", right), ("ask.none", None)):
                break
            shown = {b.action.arg for b in self.screen.renderer.buttons
                     if b.action.name == "ask.pick"}
            # The host sees the page: the right card on the other page (or none of the
            # candidates, from the first page: "none of these" is nearer from the second),
            # *back* turns to it; else *next*.
            first = shown == set(ids[:PAGE])
            turn = len(ids) > PAGE and (right not in shown if right in ids else first)
            self.press(HostButton.BACK if turn else HostButton.NEXT)
            presses += 1
        self.press(HostButton.CONFIRM)
        presses += 1
        self.last = presses
        asks = self.loop.asks
        assert asks is not None and not asks.pending
        part = self.screen.part(self.loop)
        if getattr(part, "entry", None) is not None:
            part.entry = None  # (the keypad the host would now use: counted apart)
            return None
        return presses


def _crops_deck() -> Any:
    from vision import realsets, realtables

    crops = realsets.find_set("set-crops")
    if crops is None:
        return None
    tuning, _ = realsets.load_set(crops, "set-crops").split(10)
    ids, templates = realsets.enrol(tuning, realsets.SET_SIZE, "medoids-3")
    return realtables.MemDeck("set-crops", tuple(ids), {
        c: tuple(t) for c, t in zip(ids, templates, strict=True)}, realsets.SET_SIZE)


def _taken(path: Path) -> str:
    """The photo's time where its name has one (``blue-1-20170101_120000.jpg``), else its
    name: the order the photos were taken in."""
    stem = path.stem
    digits = [p for p in stem.replace("_", "-").split("-") if p.isdigit() and len(p) >= 6]
    return "-".join(digits) or stem


def run_set(name: str, photos: Sequence[Any], deck: Any, host: ScreenHost,
            learning: Any = None, learn: bool = True, long_side: int = 1280,
            figures: SetFigures | None = None) -> SetFigures:
    """``photos`` through the camera and the ask flow (``learning``: the deck learns what
    the host names, where ``learn``)."""
    from vision import realtables
    from vision.find import warp_card
    from vision.tracker import ASK_CANDIDATES, CROP_LONG_SIDE, UnsureCard, candidates_of

    out = figures or SetFigures(name)
    from vision.tracker import CardWatcher

    watcher = CardWatcher(learning if learning is not None else deck, None, deck.id)
    for p in photos:
        img = realtables.read_photo(p.path, long_side)
        ref = realtables.reference_cards(img, len(p.cards))
        if ref is None:
            out.skipped.append(p.path.name)
            continue
        out.photos += 1
        obs = watcher.observe(img)
        for box, label in zip(ref, p.cards, strict=True):
            if label not in deck.ids:
                continue
            out.cards += 1
            here = [o for o in obs if realtables._inside(box, o.centre)]
            named = [o for o in here if o.card_id is not None]
            if any(o.card_id == label for o in named):
                out.named += 1
                continue
            if named:
                out.wrong += 1
                continue
            if not here:
                out.not_found += 1
                continue
            o = max(here, key=lambda x: x.match.score)
            w, h = watcher.matcher.size
            s = CROP_LONG_SIDE / max(w, h)
            cands = candidates_of(watcher.matcher, img, o, ASK_CANDIDATES)
            ranked = [c for c, _ in cands]
            out.among3 += label in ranked[:3]
            out.among6 += label in ranked[:6]
            u = UnsureCard(t_ns=0, seq=0, zone="row1",
                           corners=tuple((float(x), float(y)) for x, y in o.corners),
                           first_seen_ns=0, candidates=cands,
                           crop=warp_card(img, o.corners, (round(w * s), round(h * s))),
                           gate=o.match.gate, key=out.asked + 1,
                           template=warp_card(img, o.corners, (w, h)))
            out.asked += 1
            got = host.answer(u, label, learning if learn else None)
            if got is None:
                out.by_hand += 1
                out.to_hand.append(host.last)
            else:
                out.presses.append(got)
    return out


def main(long_side: int = 1280) -> int:
    from vision import realtables
    from vision.learnt import LearningDeck

    deck = _crops_deck()
    if deck is None:
        from vision import realsets

        print(f"bench ask: skipped: {realsets.absent_message('set-crops')}")
        return 0
    print(f"bench ask: deck 'crops' ({len(deck.ids)} cards, 3 templates each from single-card "
          "photos of another session); the real screen's ask flow, a simulated host with the "
          "three host buttons who confirms the right card")
    with tempfile.TemporaryDirectory() as tmp:
        host = ScreenHost(Path(tmp))
        for name in realtables.NAMES:
            root = realtables.table_set(name)
            if root is None:
                print(f"  {name}: skipped: {realtables.absent_message(name)}")
                continue
            photos = sorted(realtables.load_tables(root), key=lambda p: _taken(p.path))
            f = run_set(name, photos, deck, host)
            hist = {k: f.presses.count(k) for k in range(1, max(f.presses, default=0) + 1)}
            mean_entry, worst_entry = THE_GAME_ENTRY
            mean_asked = statistics.mean(f.presses) if f.presses else 0.0
            print(f"  {name}: {f.photos} photos, {f.cards} cards of the deck in view: named "
                  f"by the camera {f.named} ({100 * f.named / max(1, f.cards):.1f} %), wrong "
                  f"{f.wrong}, asked {f.asked} (the right card among the best 3: "
                  f"{f.among3}, among the best 6: {f.among6}), not found {f.not_found}",
                  flush=True)
            print(f"    host presses per card in view {f.per_card():.2f} [target <= 1.3] "
                  f"(a card named by the camera 0; the cards entered by hand left out); "
                  f"per card asked and answered {mean_asked:.2f}, "
                  f"most {max(f.presses, default=0)} [target: none above 4]; presses: "
                  + ", ".join(f"{k}: {n}" for k, n in hist.items())
                  + f"; named by the camera or answered within 4 presses {100 * f.settled():.1f} %",
                  flush=True)
            print(f"    by hand: {f.by_hand} asked and not among the candidates ("
                  f"{', '.join(str(p) for p in sorted(set(f.to_hand)))} presses to 'none of "
                  f"these'), {f.not_found} not found, {f.wrong} named wrong; each then the "
                  f"game's entry (The Game: {mean_entry} presses on average, {worst_entry} at "
                  f"worst); presses per card in view with them "
                  f"{f.per_card_with_hand(mean_entry):.2f}", flush=True)
            if f.skipped:
                print(f"    photos left out (their cards not found by the reference "
                      f"threshold): {len(f.skipped)}")
            half = len(photos) // 2
            first, second = photos[:half], photos[half:]
            learning = LearningDeck(deck, folder=Path(tmp) / f"learnt-{name}")
            run_set(name, first, deck, host, learning)
            learnt = learning.learnt
            after = run_set(name, second, deck, host, learning, learn=False)
            base = run_set(name, second, deck, host)
            r_after = after.named / max(1, after.cards)
            r_base = base.named / max(1, base.cards)
            print(f"    learning at the table: the first {len(first)} photos' questions "
                  f"answered ({learnt} templates learnt), then the other {len(second)}: "
                  f"named by the camera {100 * r_after:.1f} % ({after.named} of "
                  f"{after.cards}), without learning (same process) {100 * r_base:.1f} % "
                  f"({base.named}): x{r_after / r_base if r_base else float('nan'):.2f}; "
                  f"presses per card {after.per_card():.2f} vs {base.per_card():.2f}; "
                  f"named or answered within 4 presses {100 * after.settled():.1f} % vs "
                  f"{100 * base.settled():.1f} %; "
                  f"asked and not among the candidates {after.by_hand} vs {base.by_hand}; "
                  f"wrong {after.wrong} vs {base.wrong}", flush=True)
    sys.stdout.flush()
    return 0
