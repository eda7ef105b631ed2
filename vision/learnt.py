"""Templates learnt at the table (issue 37): a card the host named when the camera could not
becomes a template of that card under tonight's camera and light, for the rest of the
evening; at its end the host keeps them (they join the deck's enrolled templates) or drops
them.

They are kept apart from the enrolled ones, in the deck folder's ``learnt/`` subfolder: one
PNG a template and ``learnt.json`` (schema ``tablekeeper.learnt``, version 1: the deck's id
and, per template, the card, its file and when it was learnt), written atomically, so they
survive a restart and a power cut leaves the old list or the new one. A file that is missing
or damaged is reported and left out; a list of another deck is refused.

:class:`LearningDeck` is the deck the camera watches: the enrolled deck with the learnt
templates added to each card's (``templates_of``); its :attr:`LearningDeck.version` changes
with every template learnt, and :class:`vision.tracker.CardWatcher` rebuilds its matcher when
it sees it change (in its own thread: matching uses a template from the next frame on).
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import shutil
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ground.files import read_json
from vision.deck import MAX_TEMPLATES, Deck, atomic_write, make_folder, replace_deck
from vision.find import Image
from vision.imagefile import ImageFileError, read_image_file

log = logging.getLogger("vision.learnt")

FOLDER = "learnt"
MANIFEST = "learnt.json"
SCHEMA = "tablekeeper.learnt"
VERSION = 1
#: At most this many learnt templates a card (the newest kept): a card asked about all
#: evening needs no more, and each costs matching time.
MAX_PER_CARD = 3
#: A list bigger than this is not read (a bounded read).
MAX_MANIFEST_BYTES = 1 << 20


@dataclass(frozen=True)
class Learnt:
    """One learnt template: the card, its file in ``learnt/``, when (ISO 8601, UTC)."""

    card: str
    file: str
    at: str


class LearntError(ValueError):
    """A learnt list that cannot be used (said in one line)."""


class LearningDeck:
    """``deck`` plus the templates learnt at the table (see the module docstring). Every
    attribute not its own is the deck's (a ``vision.match.DeckLike`` and more)."""

    def __init__(self, deck: Any, folder: Path | None = None) -> None:
        self.deck = deck
        root = getattr(deck, "root", None)
        self.folder = folder if folder is not None else (
            Path(root) / FOLDER if root is not None else None)
        self._lock = threading.Lock()
        self.entries: list[Learnt] = []
        self._images: dict[str, list[Image]] = {}
        #: bumped by every change: a watcher rebuilds its matcher when it sees it change
        self.version = 0
        #: what could not be read (a line each), for the log and the screen
        self.problems: list[str] = []
        if self.folder is not None and (self.folder / MANIFEST).exists():
            self._load()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.deck, name)

    # --- a DeckLike ---------------------------------------------------------------------
    def templates_of(self, card_id: str) -> tuple[Image, ...]:
        many = getattr(self.deck, "templates_of", None)
        own = tuple(many(card_id)) if callable(many) else (self.deck.template(card_id),)
        with self._lock:
            learnt = tuple(self._images.get(card_id, ()))
        return own + learnt

    def learnt_templates(self) -> dict[str, tuple[Image, ...]]:
        """The learnt templates by card (cards with none left out)."""
        with self._lock:
            return {c: tuple(v) for c, v in self._images.items() if v}

    @property
    def learnt(self) -> int:
        """Templates learnt and not yet kept or dropped."""
        with self._lock:
            return len(self.entries)

    # --- learning -----------------------------------------------------------------------
    def learn(self, card_id: str, image: Image, now: dt.datetime | None = None) -> Learnt:
        """``image`` (BGR, the deck's size) becomes a template of ``card_id``, saved at once
        (a card's oldest learnt template goes beyond :data:`MAX_PER_CARD`)."""
        if card_id not in self.deck.ids:
            raise LearntError(f"deck {self.deck.id!r} has no card {card_id!r}")
        w, h = self.deck.size
        if image.shape[:2] != (h, w):
            image = np.asarray(cv2.resize(image, (w, h), interpolation=cv2.INTER_AREA),
                               np.uint8)
        when = (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC)
        stamp = when.strftime("%Y%m%dT%H%M%S%fZ")
        entry = Learnt(card_id, f"{card_id}-{stamp}.png", when.isoformat(timespec="seconds"))
        with self._lock:
            if self.folder is not None:
                make_folder(self.folder)
                ok, buf = cv2.imencode(".png", image)
                if not ok:
                    raise LearntError(f"card {card_id!r}: the template could not be encoded")
                atomic_write(self.folder / entry.file, buf.tobytes())
            self.entries.append(entry)
            self._images.setdefault(card_id, []).append(np.ascontiguousarray(image))
            mine = [e for e in self.entries if e.card == card_id]
            for old in mine[:-MAX_PER_CARD]:
                self.entries.remove(old)
                self._images[card_id].pop(0)
                if self.folder is not None:
                    (self.folder / old.file).unlink(missing_ok=True)
            self._save()
            self.version += 1
        log.info("learnt a template of %s (%d learnt in all)", card_id, len(self.entries))
        return entry

    def drop(self) -> int:
        """Forget every learnt template (and its files). How many there were."""
        with self._lock:
            n = len(self.entries)
            self.entries, self._images = [], {}
            if self.folder is not None:
                shutil.rmtree(self.folder, ignore_errors=True)
            self.version += 1
        return n

    def keep(self) -> int:
        """The learnt templates join the deck's enrolled ones (each card keeps at most
        ``vision.deck.MAX_TEMPLATES``: its enrolled first, then the newest learnt), written
        with :func:`vision.deck.replace_deck` (all or nothing); then the list is empty. A
        deck not read from a folder keeps them in memory only. How many were kept."""
        with self._lock:
            images = {c: list(v) for c, v in self._images.items()}
            n = len(self.entries)
        if not n:
            return 0
        deck = self.deck
        if isinstance(deck, Deck):
            for card, extra in images.items():
                own = list(deck.templates_of(card))
                more = (own[1:] + extra)[-(MAX_TEMPLATES - 1):]
                deck = deck.with_card(deck.card(card), own[0], more)
            root = Path(self.deck.root)
            self.deck = replace_deck(deck, root) if (root / "manifest.json").exists() else deck
        with self._lock:
            self.entries, self._images = [], {}
            if self.folder is not None:
                shutil.rmtree(self.folder, ignore_errors=True)
            self.version += 1
        return n

    # --- the file -----------------------------------------------------------------------
    def _save(self) -> None:
        if self.folder is None:
            return
        data = {"schema": SCHEMA, "version": VERSION, "deck": str(self.deck.id),
                "templates": [{"card": e.card, "file": e.file, "at": e.at}
                              for e in self.entries]}
        atomic_write(self.folder / MANIFEST,
                     json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8"))

    def _load(self) -> None:
        assert self.folder is not None
        path = self.folder / MANIFEST
        try:
            raw = _read_manifest(path, str(self.deck.id))
        except LearntError as exc:
            self.problems.append(str(exc))
            log.warning("%s", exc)
            return
        w, h = self.deck.size
        for e in raw:
            if e.card not in self.deck.ids:
                self.problems.append(f"{path}: card {e.card!r} is not in the deck; left out")
                continue
            try:
                img: Image | None = read_image_file(self.folder / e.file)
            except ImageFileError:
                img = None
            if img is None or img.shape[:2] != (h, w):
                self.problems.append(f"{self.folder / e.file}: missing or not a {w}x{h} "
                                     "picture; left out")
                continue
            self.entries.append(e)
            self._images.setdefault(e.card, []).append(np.asarray(img, np.uint8))
        for p in self.problems:
            log.warning("%s", p)
        self.version += 1


def _read_manifest(path: Path, deck_id: str) -> list[Learnt]:
    try:  # (bounded and never blocking: a FIFO or a huge file is not a learnt list)
        raw = read_json(path, MAX_MANIFEST_BYTES)
    except (OSError, ValueError) as exc:
        raise LearntError(f"{path}: not a learnt list ({exc}); the learnt templates are "
                          "left out") from exc
    if not isinstance(raw, Mapping) or raw.get("schema") != SCHEMA:
        raise LearntError(f"{path}: not a {SCHEMA} list; left out")
    if raw.get("version") != VERSION:
        raise LearntError(f"{path}: version {raw.get('version')!r}, this box reads "
                          f"{VERSION}; left out")
    if raw.get("deck") != deck_id:
        raise LearntError(f"{path}: learnt for deck {raw.get('deck')!r}, not {deck_id!r}; "
                          "left out")
    items = raw.get("templates")
    if not isinstance(items, list):
        raise LearntError(f"{path}: \"templates\" is not a list; left out")
    out = []
    for k, item in enumerate(items):
        if not (isinstance(item, Mapping) and all(isinstance(item.get(f), str)
                                                  for f in ("card", "file", "at"))
                and "/" not in item["file"] and not item["file"].startswith(".")):
            raise LearntError(f"{path}: template {k} is not {{card, file, at}}; left out")
        out.append(Learnt(item["card"], item["file"], item["at"]))
    return out
