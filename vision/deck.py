"""Decks: a folder holding ``manifest.json`` and one template image per card.

A deck is what recognition matches against: one canonical-size BGR template per card face,
either enrolled from the table's own cards or generated (the demo decks). The manifest::

    {"schema": "tablekeeper.deck", "version": 1, "id": "the-game-demo",
     "game": "the-game",            # something-missing | the-game | wink | eselsbruecke
     "title": {"zh-TW": "...", "en": "..."},
     "demo": true,                  # synthetic demo content, not the published game's art
     "shape": "card",               # "card" (portrait) or "square" (tiles)
     "size": [200, 300],            # canonical template size in px, [width, height]
     "use_colour": false,           # do the deck's faces differ by colour?
     "cards": [{"id": "n68", "name": {"zh-TW": "68", "en": "68"}, "kind": "number",
                "file": "n68.png",
                "value": 68,             # optional: the card's number
                "contains": ["i01"],     # optional: ids this card shows (scene cards)
                "copies": 2,             # optional: physical cards with this face (default 1)
                "alternates": ["n68@2.png"]}],  # version 2 only: the card's further templates
     "max_fit": 0.15}               # optional: the foreign-card gate measured at enrolment

**The foreign-card gate** (``max_fit``, optional in either version): how badly an accepted
card may fit its card where that card differs from its nearest cards of the deck
(``vision.match.MatchParams.max_fit``). Enrolment measures it for the deck it saves
(:func:`vision.enroll.measure_fit`: the deck's own cards against cards left out of it), so a
deck a user enrols refuses a card from outside it as the demo decks do; a config's
``[vision.match.decks."id"] max_fit`` still wins over it.

**Several templates per card** (version 2): a card enrolled from several photos keeps up to
:data:`MAX_TEMPLATES` templates, ``file`` first and then ``alternates`` (named
``<file stem>@2.png``, ``@3`` ...), and is recognised by the best of them
(``vision.match``). A deck is saved as version 1 while no card has alternates, so a deck of one
template per card stays readable by an older tablekeeper; version 1 manifests load unchanged.

:func:`load_deck` checks everything (and reads every template) so a bad deck fails at load
time with one clear :class:`DeckError` naming the folder, the card and what is wrong.
:func:`save_deck` writes atomically (temporary file in the same folder, fsync, ``os.replace``),
so a crash while enrolling never leaves a half-written template or manifest behind. Every file
and folder it writes is readable by its group (never 0600), and run as root (``sudo``) it gives
them the owner of the folder they are written into, so a deck enrolled with ``sudo`` into
``/var/lib/tablekeeper/decks`` belongs to the service user, as the kiosk needs.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from ground.files import read_json
from vision.imagefile import ImageFileError, decode_image

SCHEMA = "tablekeeper.deck"
VERSION = 2  # the newest manifest version this reads and writes
VERSIONS = (1, 2)  # the versions read (1: one template per card; 2: ``alternates``)
#: The most templates a card keeps (its ``file`` and up to seven ``alternates``).
MAX_TEMPLATES = 8
MANIFEST = "manifest.json"
GAMES = ("something-missing", "the-game", "wink", "eselsbruecke")
SHAPES = ("card", "square")

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_FILE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,99}\.(png|jpg|jpeg|bmp)$", re.IGNORECASE)

Image = npt.NDArray[np.uint8]


class DeckError(ValueError):
    """A deck folder or manifest is missing, malformed or inconsistent."""


@dataclass(frozen=True)
class CardSpec:
    """One card face of a deck."""

    id: str
    name_zh: str
    name_en: str
    kind: str
    file: str
    #: the card's number where it has one (The Game 2-99, Wink 1-36), else None
    value: int | None = None
    #: ids of cards this card shows (a 什麼不見啦 scene lists the items drawn in it)
    contains: tuple[str, ...] = ()
    #: how many physical cards show this face (Wink's two sets, The Game's row cards)
    copies: int = 1
    #: the files of the card's further templates (photos of it enrolled besides ``file``)
    alternates: tuple[str, ...] = ()

    @property
    def files(self) -> tuple[str, ...]:
        """Every template file of the card, its first (``file``) first."""
        return (self.file, *self.alternates)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id,
            "name": {"zh-TW": self.name_zh, "en": self.name_en},
            "kind": self.kind,
            "file": self.file,
        }
        if self.value is not None:
            d["value"] = self.value
        if self.contains:
            d["contains"] = list(self.contains)
        if self.copies != 1:
            d["copies"] = self.copies
        if self.alternates:
            d["alternates"] = list(self.alternates)
        return d


def alternate_names(file: str, n: int) -> tuple[str, ...]:
    """The file names of a card's ``n`` further templates: ``<stem>@2<suffix>``, ``@3`` ..."""
    stem, suffix = Path(file).stem, Path(file).suffix or ".png"
    return tuple(f"{stem}@{k}{suffix}" for k in range(2, n + 2))


@dataclass(frozen=True)
class Deck:
    """A loaded deck. ``templates`` maps every card to its template (BGR uint8, ``size``):
    a dict for a deck made in memory, :class:`EncodedTemplates` (decoded on use) for one read
    by :func:`load_deck`."""

    root: Path
    id: str
    game: str
    title_zh: str
    title_en: str
    demo: bool
    shape: str
    size: tuple[int, int]  # (width, height)
    use_colour: bool
    cards: tuple[CardSpec, ...]
    templates: Mapping[str, Image] = field(default_factory=dict, compare=False, repr=False)
    #: card id -> its further templates (cards with one template have no entry)
    alternates: Mapping[str, tuple[Image, ...]] = field(default_factory=dict, compare=False,
                                                        repr=False)
    #: the foreign-card gate measured when the deck was enrolled (None: not measured)
    max_fit: float | None = None

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cards)

    def card(self, card_id: str) -> CardSpec:
        for c in self.cards:
            if c.id == card_id:
                return c
        raise KeyError(f"deck {self.id!r} has no card {card_id!r}")

    def template(self, card_id: str) -> Image:
        """The card's template, BGR uint8 of shape (height, width, 3); read-only."""
        self.card(card_id)  # KeyError with a clear message for an unknown id
        try:
            return self.templates[card_id]
        except KeyError:
            raise KeyError(f"deck {self.id!r} has no template for {card_id!r}") from None

    def templates_of(self, card_id: str) -> tuple[Image, ...]:
        """Every template of the card, its first (:meth:`template`) first."""
        return (self.template(card_id), *self.alternates.get(card_id, ()))

    def with_card(self, spec: CardSpec, image: Image, more: Sequence[Image] = ()) -> Deck:
        """A copy with ``spec`` added (or replacing the card of the same id) and its
        template, plus ``more`` further templates of it (at most :data:`MAX_TEMPLATES` in
        all; ``spec.alternates`` is named for them: the card's templates are replaced).

        The images must already be at the canonical size (warp them first).
        """
        if 1 + len(more) > MAX_TEMPLATES:
            raise DeckError(f"card {spec.id!r}: {1 + len(more)} templates, at most "
                            f"{MAX_TEMPLATES} are kept")
        img = _check_template(image, self.size, f"card {spec.id!r}")
        extra = tuple(_check_template(m, self.size, f"card {spec.id!r} (template {k + 2})")
                      for k, m in enumerate(more))
        spec = replace(spec, alternates=alternate_names(spec.file, len(extra)))
        cards = [c for c in self.cards if c.id != spec.id]
        index = next((i for i, c in enumerate(self.cards) if c.id == spec.id), len(cards))
        cards.insert(index, spec)
        _check_cards(cards, f"deck {self.id!r}")
        templates = dict(self.templates)
        templates[spec.id] = img
        alternates = dict(self.alternates)
        alternates.pop(spec.id, None)
        if extra:
            alternates[spec.id] = extra
        return replace(self, cards=tuple(cards), templates=templates, alternates=alternates)

    def manifest(self) -> dict[str, Any]:
        # Version 1 while every card has one template: readable by an older tablekeeper.
        out: dict[str, Any] = {
            "schema": SCHEMA,
            "version": 2 if any(c.alternates for c in self.cards) else 1,
            "id": self.id,
            "game": self.game,
            "title": {"zh-TW": self.title_zh, "en": self.title_en},
            "demo": self.demo,
            "shape": self.shape,
            "size": list(self.size),
            "use_colour": self.use_colour,
            "cards": [c.to_dict() for c in self.cards],
        }
        if self.max_fit is not None:
            out["max_fit"] = self.max_fit
        return out


# --------------------------------------------------------------------------- loading


def load_deck(path: str | os.PathLike[str]) -> Deck:
    """Read and check a deck folder; raise :class:`DeckError` saying what is wrong."""
    root = Path(path)
    if not root.exists():
        recover_deck(root)
    if not root.exists():
        raise DeckError(f"deck folder {root} does not exist")
    if not root.is_dir():
        raise DeckError(f"deck path {root} is not a folder")
    manifest_path = root / MANIFEST
    if not manifest_path.exists():
        if not any(root.iterdir()):
            raise DeckError(f"deck folder {root} is empty (expected {MANIFEST} and card images)")
        raise DeckError(f"deck folder {root} has no {MANIFEST}")
    try:
        raw = read_json(manifest_path)
    except OSError as e:  # a FIFO, a device, a file too long, unreadable ...
        raise DeckError(f"{manifest_path}: cannot be read ({e.strerror or e})") from e
    except ValueError as e:
        raise DeckError(f"{manifest_path}: not valid JSON ({e})") from e
    deck = deck_from_manifest(raw, root, where=str(manifest_path))
    encoded: dict[str, npt.NDArray[np.uint8]] = {}
    more: dict[str, list[npt.NDArray[np.uint8]]] = {}
    for c in deck.cards:
        for k, file in enumerate(c.files):
            data = _read_template(root, c.id, file, deck.size)
            if k == 0:
                encoded[c.id] = data
            else:
                more.setdefault(c.id, []).append(data)
    return replace(deck, templates=EncodedTemplates(encoded, deck.size),
                   alternates=EncodedAlternates(more, deck.size))


def _read_template(root: Path, card_id: str, file: str,
                   size: tuple[int, int]) -> npt.NDArray[np.uint8]:
    """A template file's bytes, decoded once and checked (DeckError saying what is wrong)."""
    img_path = root / file
    if not img_path.is_file():
        raise DeckError(f"{root}: card {card_id!r}: image {file} is missing")
    try:
        data = np.fromfile(str(img_path), dtype=np.uint8)
        # (Its header's size is checked before it is decoded: vision.imagefile.)
        img = decode_image(data, f"{root}: card {card_id!r}: image {file}")
    except ImageFileError as e:
        raise DeckError(str(e)) from None
    except OSError as e:
        raise DeckError(f"{root}: card {card_id!r}: cannot read {file}: "
                        f"{e.strerror or e}") from None
    _check_template(img, size, f"{root}: card {card_id!r} ({file})")
    return data


class EncodedTemplates(Mapping[str, Image]):
    """A loaded deck's templates, kept as their image files' bytes and decoded when asked
    for (each was decoded and checked once, when the deck was loaded).

    A decoded template is width x height x 3 bytes -- 180 kB at the demo decks' 200x300, 12 MB
    for the 66 item cards, held all game long -- while its PNG is a few tens of kB. The
    recogniser reads the templates once (to build its own features), the screen and the
    simulated camera one card at a time, so decoding on use costs ~1 ms where it happens.
    Every lookup returns a new read-only array.
    """

    def __init__(self, encoded: Mapping[str, npt.NDArray[np.uint8]],
                 size: tuple[int, int]) -> None:
        self._encoded = dict(encoded)
        self._size = size

    def __getitem__(self, card_id: str) -> Image:
        data = self._encoded[card_id]
        img = cv2.imdecode(data, cv2.IMREAD_COLOR)
        return _check_template(img, self._size, f"card {card_id!r}")

    def __iter__(self) -> Iterator[str]:
        return iter(self._encoded)

    def __len__(self) -> int:
        return len(self._encoded)

    @property
    def encoded_bytes(self) -> int:
        """What the templates take in memory (their files' bytes)."""
        return sum(int(d.nbytes) for d in self._encoded.values())


class EncodedAlternates(Mapping[str, tuple[Image, ...]]):
    """A loaded deck's further templates (card id -> its alternates), kept encoded like
    :class:`EncodedTemplates` and decoded when asked for."""

    def __init__(self, encoded: Mapping[str, Sequence[npt.NDArray[np.uint8]]],
                 size: tuple[int, int]) -> None:
        self._encoded = {k: tuple(v) for k, v in encoded.items() if v}
        self._size = size

    def __getitem__(self, card_id: str) -> tuple[Image, ...]:
        return tuple(_check_template(cv2.imdecode(d, cv2.IMREAD_COLOR), self._size,
                                     f"card {card_id!r} (template {k + 2})")
                     for k, d in enumerate(self._encoded[card_id]))

    def __iter__(self) -> Iterator[str]:
        return iter(self._encoded)

    def __len__(self) -> int:
        return len(self._encoded)

    @property
    def encoded_bytes(self) -> int:
        return sum(int(d.nbytes) for v in self._encoded.values() for d in v)


def deck_from_manifest(raw: Any, root: Path, where: str = MANIFEST) -> Deck:
    """Check a parsed manifest and build the :class:`Deck` (without templates)."""
    if not isinstance(raw, dict):
        raise DeckError(f"{where}: the manifest must be a JSON object")
    if raw.get("schema") != SCHEMA:
        raise DeckError(f"{where}: schema must be {SCHEMA!r}, found {raw.get('schema')!r}")
    version = raw.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise DeckError(f"{where}: version must be an integer, found {version!r}")
    if version not in VERSIONS:
        raise DeckError(
            f"{where}: unknown deck schema version {version} (this tablekeeper reads "
            f"versions {', '.join(map(str, VERSIONS))})")
    deck_id = _str(raw, "id", where)
    if not _ID.match(deck_id):
        raise DeckError(f"{where}: id {deck_id!r} must be letters, digits, '.', '_' or '-'")
    game = _str(raw, "game", where)
    if game not in GAMES:
        raise DeckError(f"{where}: game {game!r} is not one of {', '.join(GAMES)}")
    title_zh, title_en = _names(raw, "title", where)
    demo = _bool(raw, "demo", where)
    shape = _str(raw, "shape", where)
    if shape not in SHAPES:
        raise DeckError(f"{where}: shape {shape!r} is not one of {', '.join(SHAPES)}")
    size = raw.get("size")
    if (not isinstance(size, list) or len(size) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in size)
            or not all(16 <= v <= 4096 for v in size)):
        raise DeckError(f"{where}: size must be [width, height] in px (16-4096), found {size!r}")
    use_colour = _bool(raw, "use_colour", where)
    cards_raw = raw.get("cards")
    if not isinstance(cards_raw, list) or not cards_raw:
        raise DeckError(f"{where}: cards must be a non-empty list")
    cards = [_card(c, f"{where}: cards[{i}]", version) for i, c in enumerate(cards_raw)]
    _check_cards(cards, where)
    max_fit = raw.get("max_fit")
    if max_fit is not None and (isinstance(max_fit, bool) or not isinstance(max_fit, int | float)
                                or not 0 < max_fit <= 10):
        raise DeckError(f"{where}: max_fit must be a number above 0 and at most 10, found "
                        f"{max_fit!r}")
    return Deck(root=root, id=deck_id, game=game, title_zh=title_zh, title_en=title_en,
                demo=demo, shape=shape, size=(size[0], size[1]), use_colour=use_colour,
                cards=tuple(cards), max_fit=None if max_fit is None else float(max_fit))


def _card(raw: Any, where: str, version: int = VERSION) -> CardSpec:
    if not isinstance(raw, dict):
        raise DeckError(f"{where}: must be an object")
    cid = _str(raw, "id", where)
    if not _ID.match(cid):
        raise DeckError(f"{where}: id {cid!r} must be letters, digits, '.', '_' or '-'")
    where = f"{where} ({cid})"
    zh, en = _names(raw, "name", where)
    kind = _str(raw, "kind", where)
    file = _str(raw, "file", where)
    if not _FILE.match(file):
        raise DeckError(f"{where}: file {file!r} must be a plain .png/.jpg/.bmp file name")
    value = raw.get("value")
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise DeckError(f"{where}: value must be an integer, found {value!r}")
    contains = raw.get("contains", [])
    if not isinstance(contains, list) or not all(isinstance(x, str) and x for x in contains):
        raise DeckError(f"{where}: contains must be a list of card ids")
    copies = raw.get("copies", 1)
    if not isinstance(copies, int) or isinstance(copies, bool) or copies < 1:
        raise DeckError(f"{where}: copies must be a positive integer, found {copies!r}")
    alternates = raw.get("alternates", [])
    if "alternates" in raw and version < 2:
        raise DeckError(f"{where}: alternates need a version 2 manifest (found version "
                        f"{version})")
    if (not isinstance(alternates, list)
            or not all(isinstance(x, str) and _FILE.match(x) for x in alternates)):
        raise DeckError(f"{where}: alternates must be a list of plain .png/.jpg/.bmp file "
                        f"names, found {alternates!r}")
    if 1 + len(alternates) > MAX_TEMPLATES:
        raise DeckError(f"{where}: {1 + len(alternates)} templates, at most {MAX_TEMPLATES}")
    return CardSpec(id=cid, name_zh=zh, name_en=en, kind=kind, file=file, value=value,
                    contains=tuple(contains), copies=copies, alternates=tuple(alternates))


def _check_cards(cards: Sequence[CardSpec], where: str) -> None:
    seen: set[str] = set()
    files: set[str] = set()
    for c in cards:
        if c.id in seen:
            raise DeckError(f"{where}: duplicate card id {c.id!r}")
        seen.add(c.id)
        for file in c.files:
            if file.lower() in files:
                raise DeckError(f"{where}: card {c.id!r}: file {file} is used by another "
                                "card (or twice)")
            files.add(file.lower())


def _check_template(img: Any, size: tuple[int, int], where: str) -> Image:
    if not isinstance(img, np.ndarray) or img.dtype != np.uint8:
        raise DeckError(f"{where}: template must be a uint8 image")
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    if img.ndim != 3 or img.shape[2] != 3:
        raise DeckError(f"{where}: template must be BGR (3 channels), found shape {img.shape}")
    w, h = size
    if img.shape[:2] != (h, w):
        raise DeckError(
            f"{where}: template is {img.shape[1]}x{img.shape[0]} px, expected {w}x{h} "
            "(the deck's size)")
    out = np.ascontiguousarray(img).copy()
    out.flags.writeable = False
    return out


def _str(raw: Mapping[str, Any], key: str, where: str) -> str:
    v = raw.get(key)
    if not isinstance(v, str) or not v.strip():
        raise DeckError(f"{where}: {key} must be a non-empty string, found {v!r}")
    return v


def _bool(raw: Mapping[str, Any], key: str, where: str) -> bool:
    v = raw.get(key)
    if not isinstance(v, bool):
        raise DeckError(f"{where}: {key} must be true or false, found {v!r}")
    return v


def _names(raw: Mapping[str, Any], key: str, where: str) -> tuple[str, str]:
    v = raw.get(key)
    if not isinstance(v, dict):
        raise DeckError(f"{where}: {key} must be an object with zh-TW and en strings")
    zh, en = v.get("zh-TW"), v.get("en")
    if not isinstance(zh, str) or not zh or not isinstance(en, str) or not en:
        raise DeckError(f"{where}: {key} must have non-empty zh-TW and en strings, found {v!r}")
    return zh, en


# --------------------------------------------------------------------------- saving


def save_deck(deck: Deck, root: str | os.PathLike[str] | None = None,
              only: Iterable[str] | None = None) -> Deck:
    """Write ``deck`` to ``root`` (default ``deck.root``) atomically and return it reloaded.

    Every template is written (or only those of the card ids in ``only``, e.g. the card just
    enrolled), each atomically, then the manifest last, so a reader sees either the old or the
    new deck. Every card must have a template in ``deck.templates`` unless its image file
    already exists in the folder.
    """
    target = Path(root) if root is not None else deck.root
    make_folder(target)
    _check_cards(deck.cards, f"deck {deck.id!r}")
    # check the manifest round-trips before touching anything on disk
    deck_from_manifest(json.loads(json.dumps(deck.manifest())), target, f"deck {deck.id!r}")
    wanted = set(deck.ids) if only is None else set(only)
    unknown = wanted - set(deck.ids)
    if unknown:
        raise DeckError(f"deck {deck.id!r}: no card(s) {sorted(unknown)} to save")
    for c in deck.cards:
        if c.id in wanted and c.id in deck.templates:
            write_templates(target, c, deck.templates_of(c.id), deck.size)
        elif not all((target / f).is_file() for f in c.files):
            raise DeckError(f"deck {deck.id!r}: card {c.id!r} has no template to save")
    text = json.dumps(deck.manifest(), ensure_ascii=False, indent=1) + "\n"
    atomic_write(target / MANIFEST, text.encode("utf-8"))
    return load_deck(target)


#: a deck being replaced whole (:func:`replace_deck`): the new one is written beside it as
#: ``<folder>.new``, the old one moved aside as ``<folder>.old`` for a moment
NEW_SUFFIX, OLD_SUFFIX = ".new", ".old"


def replace_deck(deck: Deck, root: str | os.PathLike[str]) -> Deck:
    """Write ``deck`` whole to the folder ``root``, replacing what is there: afterwards, and
    at every moment before (a power cut, a full disk, a kill), ``root`` is the old deck or
    the new one, never a mix (:func:`save_deck` replaces file by file: an enrolment of
    every card into a deck in use could leave old and new templates side by side).

    The new deck is written to ``<root>.new`` (every file fsynced, the manifest last), then
    the old folder is renamed to ``<root>.old``, the new one to ``root``, and the old one
    removed. A power cut between the two renames leaves no ``root``: :func:`recover_deck`
    (which :func:`load_deck` calls) moves the old one back. A write that fails (``OSError``:
    the disk is full) removes ``<root>.new`` and leaves the old deck as it was; it raises."""
    import shutil

    target = Path(root)
    recover_deck(target)
    new = target.with_name(target.name + NEW_SUFFIX)
    old = target.with_name(target.name + OLD_SUFFIX)
    shutil.rmtree(new, ignore_errors=True)
    try:
        save_deck(deck, new)
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    had = target.exists()
    if had:
        os.replace(target, old)
        _fsync_dir(target.parent)
    os.replace(new, target)
    _fsync_dir(target.parent)
    if had:
        shutil.rmtree(old, ignore_errors=True)
    return load_deck(target)


def recover_deck(root: str | os.PathLike[str]) -> None:
    """Finish or undo a :func:`replace_deck` a power cut interrupted: no ``root`` but a
    ``<root>.old``: the old deck is moved back; a ``<root>.old`` beside ``root``: the new
    deck is in place, the old one is removed; a ``<root>.new`` left over is removed (it may
    be half written)."""
    import shutil

    target = Path(root)
    new = target.with_name(target.name + NEW_SUFFIX)
    old = target.with_name(target.name + OLD_SUFFIX)
    try:
        if old.is_dir() and not target.exists():
            os.replace(old, target)
            _fsync_dir(target.parent)
        elif old.is_dir():
            shutil.rmtree(old, ignore_errors=True)
        if new.is_dir():
            shutil.rmtree(new, ignore_errors=True)
    except OSError:
        return  # (a folder we may not write: the deck is read as it is)


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_templates(target: Path, card: CardSpec, images: Sequence[Image],
                    size: tuple[int, int]) -> None:
    """Write the card's templates (``images``, its first first) to its files, atomically."""
    if len(images) != len(card.files):
        raise DeckError(f"card {card.id!r}: {len(images)} templates for {len(card.files)} "
                        "files")
    for file, image in zip(card.files, images, strict=True):
        img = _check_template(image, size, f"card {card.id!r}")
        ok, buf = cv2.imencode(Path(file).suffix or ".png", img)
        if not ok:
            raise DeckError(f"card {card.id!r}: could not encode {file}")
        atomic_write(target / file, buf.tobytes())


def kiosk_owner(folder: Path) -> tuple[int, int] | None:
    """The owner (uid, gid) that files written under ``folder`` must get so that the kiosk can
    read them: that of the nearest existing folder at or above ``folder``, when this process
    runs as root and that folder is not root's (``sudo tablekeeper vision enroll --deck
    /var/lib/tablekeeper/decks/...``: the files go to the service user, as if it had written
    them). None: keep the writer's own (an ordinary user writes as itself)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None
    here = folder.absolute()
    while not here.exists() and here != here.parent:
        here = here.parent
    st = here.stat()
    return None if st.st_uid == 0 else (st.st_uid, st.st_gid)


#: Where the kiosk's unit cannot look (``ProtectHome=yes``).
HIDDEN_FROM_KIOSK = ("/home", "/root", "/run/user")
#: The service user ``systemd/install.sh`` creates.
SERVICE_USER = "tablekeeper"


def write_problem(folder: Path, command: Sequence[str]) -> tuple[str | None, str | None]:
    """Before a tool writes into ``folder`` for the kiosk: ``(refusal, warning)``.

    The refusal (write nothing) when this process cannot write there (an admin enrolling into
    the service's ``/var/lib/tablekeeper``, which is the service user's, 0750): it names the
    folder's owner and the command to run instead (``sudo`` + ``command``; run as root, the
    files get the folder's owner, see :func:`kiosk_owner`). The warning when the folder is
    one the kiosk's unit cannot see (under ``/home``, ``ProtectHome=yes``) on a machine where
    the service user exists: fine on a laptop, not for the kiosk."""
    import pwd
    import shlex

    here = folder.absolute()
    while not here.exists() and here != here.parent:
        here = here.parent
    refusal = warning = None
    if not os.access(here, os.W_OK | os.X_OK):
        st = here.stat()
        try:
            owner = pwd.getpwuid(st.st_uid).pw_name
        except KeyError:
            owner = str(st.st_uid)
        refusal = (f"cannot write in {here} (owner {owner}, mode {st.st_mode & 0o7777:04o}); "
                   f"nothing written. Run it as root, which gives the files that folder's "
                   f"owner so the kiosk can read them:\n  sudo {shlex.join(command)}")
    try:
        pwd.getpwnam(SERVICE_USER)
        service = True
    except KeyError:
        service = False
    resolved = str(folder.absolute())
    if service and any(resolved == h or resolved.startswith(h + "/")
                       for h in HIDDEN_FROM_KIOSK):
        warning = (f"warning: the kiosk cannot read {folder} (its unit has ProtectHome=yes): "
                   f"for the kiosk, write under /var/lib/tablekeeper (e.g. "
                   f"/var/lib/tablekeeper/decks/NAME) with sudo, and name it in the config's "
                   f"[table.decks]")
    return refusal, warning


def _new_file_mode() -> int:
    """``0o666`` less the umask, and always readable by the owner's group (the service's
    group: an admin in group ``tablekeeper`` reads what the kiosk reads, and the kiosk reads
    what root wrote for it), never 0600."""
    umask = os.umask(0)
    os.umask(umask)
    return (0o666 & ~umask) | 0o640


def make_folder(folder: Path) -> None:
    """Create ``folder`` and its missing parents, each readable and searchable by its group
    (``0o750`` at least) and, under sudo, owned like the nearest existing folder above it
    (:func:`kiosk_owner`)."""
    owner = kiosk_owner(folder)
    missing: list[Path] = []
    here = folder.absolute()
    while not here.exists() and here != here.parent:
        missing.append(here)
        here = here.parent
    umask = os.umask(0)
    os.umask(umask)
    for d in reversed(missing):
        with contextlib.suppress(FileExistsError):
            d.mkdir()
            os.chmod(d, (0o777 & ~umask) | 0o750)
            if owner is not None:
                os.chown(d, *owner)


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a fsynced temporary file in the same folder.

    The file keeps the mode and owner of the file it replaces; a new one gets
    :func:`_new_file_mode` (group-readable) and, under sudo, the folder's owner
    (:func:`kiosk_owner`), so whatever a tool writes for the kiosk the kiosk can read."""
    path = Path(path)
    owner: tuple[int, int] | None
    try:
        old = path.stat()
        mode, owner = old.st_mode & 0o7777, (old.st_uid, old.st_gid)
        if os.geteuid() != 0:
            owner = None if old.st_uid == os.geteuid() else owner
    except FileNotFoundError:
        mode, owner = _new_file_mode(), kiosk_owner(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), mode)
            if owner is not None:
                with contextlib.suppress(PermissionError):  # (not root: keep our own)
                    os.fchown(f.fileno(), *owner)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
