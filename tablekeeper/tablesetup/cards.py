"""The set-up step "Teach the box a game's cards" (``"cards"``): enrolment with the camera.

The host lays the cards one by one; the screen says which card next (its name, and the
manifest's picture where it has one), shows the live picture with the card's outline, checks
each shot for sharpness and glare, and takes :data:`SHOTS` shots of every card (the host
lifts it and lays it again between them: position and light vary a little). *Retake*, *skip*
and *stop, go on later* are the host's; every shot is kept on disk as it is taken
(:class:`vision.enroll.EnrolStore`), so an enrolment stopped, or cut by a power failure or an
unplugged camera, resumes where it stopped. Once every card is taught the deck is written
whole (:func:`vision.deck.replace_deck`: the old deck or the new one, never half) and named
in the config (``[table.decks]``, tomlkit: the host's comments and other keys stay). Then
the check round: the host lays any cards, the box names them with its confidence, and offers
to retake the ones it could not tell apart.

The enrolment itself is :class:`vision.enroll.LiveEnroller`, the same as ``tablekeeper vision
enroll --camera`` (one implementation).
"""

from __future__ import annotations

import errno
import logging
from pathlib import Path
from typing import Any

import numpy as np

from display.input import HostAction
from display.tablesetup.cards import SHOTS, CardsView, Named
from tablekeeper.tablesetup.configedit import ConfigEditError, save_deck_path
from tablekeeper.tablesetup.step import (
    Picture,
    Quad,
    StepContext,
    StepStatus,
    Want,
    hint_params,
)

log = logging.getLogger("tablekeeper.tablesetup.cards")

KEY = "cards"
#: the check round suggests this many cards to lay (spread over the deck)
CHECK_SUGGESTIONS = 4
#: a card named in the check round with less than this confidence is offered for a retake
CONFIDENT = 0.8


def game_cards(ctx: StepContext) -> Any:
    """The game's card list (ids, names, pictures): its demo deck's manifest."""
    return ctx.kit.deck(None)


def enrolled_deck(ctx: StepContext) -> Any | None:
    """This game's enrolled deck, if the config names one that loads with every card of the
    game (else None)."""
    from vision.deck import DeckError, load_deck

    folder = ctx.config.table.deck_for(ctx.game)
    candidates = [Path(folder).expanduser()] if folder else []
    if (ctx.deck_dir / "manifest.json").is_file() and ctx.deck_dir not in candidates:
        candidates.append(ctx.deck_dir)
    wanted = set(game_cards(ctx).ids)
    for path in candidates:
        try:
            deck = load_deck(path)
        except (DeckError, OSError) as exc:
            log.info("cards: %s: %s", path, exc)
            continue
        if not deck.demo and wanted <= set(deck.ids):
            return deck
    return None


def status(ctx: StepContext) -> StepStatus:
    return StepStatus.DONE if enrolled_deck(ctx) is not None else StepStatus.MISSING


def make(ctx: StepContext) -> CardsStep:
    return CardsStep(ctx)


def _quad(corners: Any, size: tuple[int, int]) -> Quad:
    w, h = max(1, size[0]), max(1, size[1])
    pts = [(float(x) / w, float(y) / h) for x, y in np.asarray(corners, dtype=float)[:4]]
    return (pts[0], pts[1], pts[2], pts[3])


class CardsStep:
    """The cards step's controller (:class:`tablekeeper.tablesetup.step.Step`)."""

    key = KEY

    def __init__(self, ctx: StepContext, *, shots: int = SHOTS, cards: Any = None) -> None:
        from vision.enroll import EnrolStore, LiveEnroller
        from vision.find import FindParams

        self.ctx = ctx
        #: the deck folder the config named when the box read it (then: as last saved)
        self._deck_base: str | None = None
        self.cards = cards if cards is not None else game_cards(ctx)
        deck = self.cards
        self.store = EnrolStore(ctx.progress_dir(KEY))
        references = {c.id: deck.template(c.id) for c in deck.cards} if ctx.simulated else None
        find = FindParams()  # (a card laid alone, large: the default search width)
        self.enroller = LiveEnroller(
            list(deck.cards), deck.size, shots=shots, square=deck.shape == "square",
            use_colour=deck.use_colour, references=references, store=self.store, find=find)
        self.done = False
        self.left = False
        self.stage = "teach"
        self.problem = ""
        self.camera_gone = False
        self._seq = 0
        self._image: Any = None
        self._outlines: tuple[tuple[Quad, str], ...] = ()
        self._saved: Any = None  # the deck written (the check round matches on it)
        self._matcher: Any = None
        self._finder: Any = None
        self._named: tuple[Named, ...] = ()
        self._confused: dict[str, float] = {}
        self._checked: list[str] = []
        self._check_ids = self._suggestions()
        if self.enroller.store_error is not None:
            self._store_failed(self.enroller.store_error)
        if self.enroller.done and not self.enroller.skipped:
            self._save()

    # --- the protocol -------------------------------------------------------------------
    def act(self, action: HostAction, now_ns: int) -> None:
        name, arg = action.name, action.arg
        if name in ("back", "step.stop"):
            self.left = True  # (every shot is on disk already: resumed next time)
            return
        if self.stage in ("teach", "skipped"):
            if name == "step.retake":
                self.enroller.retake()
                self.stage = "teach"
            elif name == "step.skip":
                self.enroller.skip()
                self._after_shot()
            elif name == "step.unskip":
                self.enroller.unskip()
                self.stage = "teach"
        elif self.stage == "not_saved":
            if name in ("confirm", "step.save"):
                self._save()
        elif self.stage == "check":
            if name == "step.retake" and isinstance(arg, str):
                self.enroller.retake(arg)
                self._confused.pop(arg, None)
                self.stage = "teach"
            elif name in ("confirm", "step.finish"):
                self.store.clear()
                self.done = True

    def seat(self, seat: int, pressed: bool, t_ns: int) -> None:
        return None  # (the cards step listens to the camera only)

    def frame(self, image: Any | None, t_ns: int) -> None:
        if image is None:
            if not self.camera_gone:
                self.ctx.tell("tablesetup.camera_gone")
            self.camera_gone = True
            return
        self.camera_gone = False
        self._image = image
        self._seq += 1
        size = (int(image.shape[1]), int(image.shape[0]))
        if self.stage == "teach":
            before = self.enroller.state
            p = self.enroller.step(image)
            colour = "good" if p.state in ("steady", "captured") else (
                "bad" if p.state in ("blurry", "glare", "several", "other") else "info")
            self._outlines = tuple((_quad(c, size), colour) for c in self.enroller.outlines)
            if self.enroller.store_error is not None:
                self._store_failed(self.enroller.store_error)
            if p.state in ("captured", "done") or (before != "done" and self.enroller.done):
                self._after_shot()
        elif self.stage == "check":
            self._check(image, size)
        else:
            self._outlines = ()

    def tick(self, now_ns: int) -> None:
        return None

    def next_time(self) -> int | None:
        return None

    def wants(self) -> Want:
        if self.stage == "check":
            left = [cid for cid in self._check_ids if cid not in self._checked]
            if self._named:
                return Want("card_alone", None, hint="tablesetup.cards.hint_take")
            if left:
                return Want("card_alone", left[0], hint="tablesetup.cards.check_hint")
            return Want("confirm", action="confirm", hint="tablesetup.cards.check_done")
        if self.stage == "skipped":
            return Want("confirm", action="step.unskip", hint="tablesetup.cards.skipped")
        if self.stage == "not_saved":
            return Want("confirm", action="confirm", hint="tablesetup.cards.not_saved")
        state = self.enroller.state
        card = self.enroller.current
        if card is None or state in ("clear", "captured", "several", "other", "done"):
            return Want("card_alone", None, hint="tablesetup.cards.hint_take")
        return Want("card_alone", card.id, shot=len(self.enroller.shots.get(card.id, ())),
                    hint="tablesetup.cards.hint_lay",
                    hint_params=hint_params({"zh": card.name_zh, "en": card.name_en}))

    def view(self) -> CardsView:
        e = self.enroller
        picture = (Picture(self._image, self._seq, self._outlines)
                   if self._image is not None else None)
        card = e.current
        common: dict[str, Any] = {
            "total": len(e.cards), "taught": len(e.taught), "skipped": len(e.skipped),
            "picture": picture, "camera_gone": self.camera_gone, "problem": self.problem,
            "shots": e.shots_per_card}
        if self.stage == "check":
            left = [cid for cid in self._check_ids if cid not in self._checked]
            suggest = self.cards.card(left[0]) if left else None
            confused = tuple((cid, self.cards.card(cid).name_zh, self.cards.card(cid).name_en)
                             for cid in sorted(self._confused, key=self._confused.__getitem__)
                             )[:3]
            return CardsView(stage="check", named=self._named, confused=confused,
                             suggest_zh=suggest.name_zh if suggest else "",
                             suggest_en=suggest.name_en if suggest else "", state="check",
                             **common)
        if card is None:
            return CardsView(stage=self.stage, state="done", **common)
        other = e.other_id
        other_spec = self.cards.card(other) if other and other in self.cards.ids else None
        state = e.state
        if state == "other" and other_spec is None:
            state = "unknown"  # a card the manifest does not list
        return CardsView(
            stage=self.stage, card_id=card.id, name_zh=card.name_zh, name_en=card.name_en,
            reference=self._reference(card.id), shot=len(e.shots.get(card.id, ())),
            state=state, sharpness=round(e.sharp), sharp_ok=e.sharp >= e.min_sharpness,
            glare_pct=round(100 * e.glare), glare_ok=e.glare <= e.max_glare,
            other_zh=other_spec.name_zh if other_spec else other,
            other_en=other_spec.name_en if other_spec else other, **common)

    # --- inside -------------------------------------------------------------------------
    def _reference(self, card_id: str) -> Any:
        """The manifest's picture of the card (RGB, as the screen's card pictures)."""
        try:
            return np.ascontiguousarray(self.cards.template(card_id)[:, :, ::-1])
        except (KeyError, ValueError):
            return None

    def _suggestions(self) -> list[str]:
        ids = list(self.cards.ids)
        if not ids:
            return []
        n = min(CHECK_SUGGESTIONS, len(ids))
        return [ids[(i * len(ids)) // n + (len(ids) // (2 * n))] for i in range(n)]

    def _after_shot(self) -> None:
        e = self.enroller
        if not e.done:
            return
        if e.skipped:
            self.stage = "skipped"
            return
        self._save()

    def _store_failed(self, exc: OSError) -> None:
        full = exc.errno in (errno.ENOSPC, errno.EDQUOT)
        self.problem = "tablesetup.cards.disk_full" if full else "tablesetup.cards.store_failed"
        self.ctx.tell(self.problem)
        log.error("cards: the shots cannot be kept on disk (%s); they are kept in memory "
                  "until the box stops", exc)

    def _save(self) -> None:
        """Write the deck whole, name it in the config, then the check round."""
        from vision.deck import Deck, DeckError, replace_deck
        from vision.enroll import with_measured_fit

        src = self.cards
        new = Deck(root=self.ctx.deck_dir, id=f"{self.ctx.game}-table", game=src.game,
                   title_zh=src.title_zh, title_en=src.title_en, demo=False, shape=src.shape,
                   size=src.size, use_colour=src.use_colour, cards=())
        new = self.enroller.deck_with_shots(new)
        # The deck's foreign-card gate, measured as any enrolment does (issue 37): a card
        # from outside the deck is then refused, not named as its nearest.
        new, _ = with_measured_fit(new)
        try:
            saved = replace_deck(new, self.ctx.deck_dir)
        except (OSError, DeckError) as exc:
            full = isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)
            self.problem = ("tablesetup.cards.disk_full_deck" if full
                            else "tablesetup.cards.not_saved")
            self.ctx.tell(self.problem)
            log.error("cards: the deck cannot be written to %s (%s); the old deck is kept",
                      self.ctx.deck_dir, exc)
            self.stage = "not_saved"
            return
        self.problem = ""
        log.info("cards: %d cards of %s saved to %s", len(saved.cards), self.ctx.game,
                 self.ctx.deck_dir)
        if self.ctx.config_path is not None:
            try:
                if self._deck_base is None:  # what the box read: a hand edit since is a clash
                    config = self.ctx.config
                    self._deck_base = (config.table.deck_for(self.ctx.game) or ""
                                       if config is not None else "")
                clashes = save_deck_path(self.ctx.config_path, self.ctx.game,
                                         self.ctx.deck_dir, self._deck_base)
                self._deck_base = str(self.ctx.deck_dir)
                for clash in clashes:
                    log.warning("cards: %s: %s", self.ctx.config_path, clash)
                if clashes:
                    self.ctx.tell("setup.config.clash")
            except ConfigEditError as exc:
                self.problem = "tablesetup.cards.config_not_saved"
                self.ctx.tell(self.problem)
                log.error("cards: cannot name the deck in %s: %s", self.ctx.config_path, exc)
        self._saved = saved
        self._matcher = None
        self.stage = "check"
        self._named = ()

    def _check(self, image: Any, size: tuple[int, int]) -> None:
        from vision.find import CardFinder
        from vision.match import DeckMatcher
        from vision.tracker import recognise

        deck = self._saved
        if self._matcher is None:
            self._matcher = DeckMatcher.from_deck(deck)
            self._finder = CardFinder(deck.size, self.enroller.finder.params)
        seen = recognise(self._finder, self._matcher, image)
        named = []
        outlines = []
        for found, m in seen:
            spec = deck.card(m.card_id) if m.card_id is not None else deck.card(m.best_id)
            named.append(Named(m.card_id, m.best_id, round(max(0.0, m.score), 2),
                               spec.name_zh, spec.name_en))
            sure = m.card_id is not None and m.score >= CONFIDENT
            outlines.append((_quad(found.corners, size), "good" if sure else "warn"))
            if not sure:
                self._confused[m.best_id] = min(self._confused.get(m.best_id, 1.0), m.score)
        left = [cid for cid in self._check_ids if cid not in self._checked]
        if named and left:  # (the card suggested, or another: either way, on to the next)
            self._checked.append(left[0])
        self._named = tuple(named)
        self._outlines = tuple(outlines)
