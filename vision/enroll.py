"""Enrolment: the templates of a deck, from image files or live from the camera.

**From images** (:func:`enroll_from_images`, ``tablekeeper vision enroll --deck DIR
--from-images SRC``): ``SRC`` holds one image per card named ``<card-id>.<ext>`` (png, jpg,
jpeg, bmp, webp). Each may be a flat scan of the card or an ordinary photo with the card lying
somewhere in it: if a card is found in the image it is warped to the deck's canonical size,
otherwise an image with the card's proportions is taken as a scan and resized. Templates and the
manifest are written through :mod:`vision.deck` (each file atomically; the manifest last).

**Several photos of one card** (recognised by the best of its templates: a sharp shot and a
soft one, under the lamp and by the window): ``<card-id>@2.<ext>``, ``<card-id>@3.<ext>`` ...
beside ``<card-id>.<ext>``, or a sub-folder ``<card-id>/`` holding the card's photos (any
names), or both; every image of a card is one of its templates, in name order (the plain
``<card-id>.<ext>`` first, then the ``@`` ones by number, then the sub-folder's), at most
:data:`vision.deck.MAX_TEMPLATES` (8): the rest are skipped and say so. A photo of a card
that cannot be read is skipped and reported; the card is enrolled from its other photos.

* If ``DIR`` has a ``manifest.json``, only cards listed there are enrolled; an image for an id
  that is not listed is skipped (``add_new=True`` adds it as a new card).
* If it has none, a new deck is made from the images (``NewDeck`` says its game, shape, size).

The :class:`EnrolReport` lists every image: enrolled (and how: scan or photo) or skipped, and
why; and the deck's cards that still have no template.

**Live** (:class:`LiveEnroller`): walks through the deck card by card with any camera source
(including the simulated table): *lay card X* -> the card is found, must be sharp (variance of
the Laplacian of the warped card at least ``min_sharpness``; a blurry shot is re-taken) and
steady for a few frames -> captured -> *take it away* -> the next card. Each step is reported
to a ``progress`` callback (:class:`EnrolProgress`, in Traditional Chinese and English), so a
terminal or the kiosk screen can show it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from ground.files import read_json, read_text
from vision.deck import (
    GAMES,
    MANIFEST,
    MAX_TEMPLATES,
    CardSpec,
    Deck,
    DeckError,
    atomic_write,
    deck_from_manifest,
    load_deck,
    save_deck,
    write_templates,
)
from vision.find import (
    CardFinder,
    FindParams,
    FloatArray,
    FoundCard,
    FrameError,
    Image,
    check_image,
    fit_sides_many,
    order_corners,
    warp_card,
)
from vision.imagefile import MAX_IMAGE_PIXELS as MAX_IMAGE_PIXELS
from vision.imagefile import MAX_IMAGE_SIDE as MAX_IMAGE_SIDE
from vision.imagefile import ImageFileError, read_image_file
from vision.imagefile import check_image_size as _check_size
from vision.imagefile import image_size as image_size
from vision.layout import LayoutError, border_problem, cards_in_layout, recut
from vision.match import DeckLike, MatchParams

IMAGE_EXTS = (".png", ".jpg", ".jpeg", ".bmp", ".webp")


class EnrolError(ValueError):
    """One image cannot become a template (the reason is the message)."""


@dataclass(frozen=True)
class NewDeck:
    """What a deck made from scratch by enrolment is."""

    id: str
    game: str
    shape: str = "card"
    size: tuple[int, int] = (200, 300)
    use_colour: bool = True
    title_zh: str = ""
    title_en: str = ""


@dataclass(frozen=True)
class EnrolItem:
    card_id: str
    source: Path
    enrolled: bool
    how: str  # "photo", "scan" or "" (skipped)
    reason: str  # why skipped, or a note


#: EnrolItem.how of a file in the image folder that is no image (a README): not a card.
IGNORED = "ignored"


@dataclass
class EnrolReport:
    deck_root: Path
    items: list[EnrolItem] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # deck cards still without a template
    written: bool = False
    #: the foreign-card gate measured for the saved deck (None: not measured)
    fit: FitMeasure | None = None

    @property
    def enrolled(self) -> list[EnrolItem]:
        return [i for i in self.items if i.enrolled]

    @property
    def skipped(self) -> list[EnrolItem]:
        """The images not enrolled, and why (files that are no images are not among them)."""
        return [i for i in self.items if not i.enrolled and i.how != IGNORED]

    @property
    def ignored(self) -> list[EnrolItem]:
        return [i for i in self.items if i.how == IGNORED]

    @property
    def complete(self) -> bool:
        """Was every card enrolled: something written, no image skipped, and no card of the
        deck left without a template?"""
        return self.written and not self.skipped and not self.missing

    def text(self) -> str:
        lines = [f"{self.deck_root}: enrolled {len(self.enrolled)}, skipped {len(self.skipped)}"]
        for i in self.items:
            if i.enrolled:
                lines.append(f"  enrolled  {i.card_id:<16} from {i.source.name} ({i.how})")
            elif i.how == IGNORED:
                lines.append(f"  ignored   {i.source.name}: {i.reason}")
            else:
                lines.append(f"  skipped   {i.card_id:<16} {i.source.name}: {i.reason}")
        if self.missing:
            more = " ..." if len(self.missing) > 20 else ""
            lines.append(f"  no template yet for {len(self.missing)} card(s): "
                         + ", ".join(self.missing[:20]) + more)
        cards = len({i.card_id for i in self.enrolled})
        photos = (f" from {len(self.enrolled)} photos" if len(self.enrolled) != cards
                  else "")
        if self.fit is not None:
            lines.append(f"  {self.fit.text()}")
        if not self.written:
            lines.append("  nothing was written")
        elif self.complete:
            lines.append(f"  every card enrolled ({cards}{photos}); saved")
        else:
            lines.append(f"  saved the {cards} card(s) enrolled{photos}; "
                         f"{len(self.skipped)} image(s) skipped"
                         + (f", {len(self.missing)} card(s) still without a template"
                            if self.missing else ""))
        return "\n".join(lines)


def deck_id_from_folder(folder: str | Path) -> str:
    """A deck id from a deck folder's name (``--id``'s default): its letters, digits, '.',
    '_' and '-', other characters as '-' ("My Cards" -> "My-Cards"); "deck" if nothing is
    left."""
    name = Path(folder).resolve().name
    out = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-._")[:64]
    return out or "deck"


def check_image_size(data: bytes, what: str = "the image") -> None:
    """EnrolError if the header declares more than :data:`MAX_IMAGE_PIXELS` (or a side over
    :data:`MAX_IMAGE_SIDE`, or an empty image): refused before anything is decoded."""
    try:
        _check_size(data, what)
    except ImageFileError as e:
        raise EnrolError(str(e)) from None


def read_image(path: Path, *, alpha: bool = False) -> Image:
    """Read an image file as BGR (BGRA with ``alpha``, when the file has an alpha channel);
    EnrolError saying why not. An image whose header declares a huge size (a decompression
    bomb, or a mistake) is refused before it is decoded (:mod:`vision.imagefile`)."""
    try:
        img = read_image_file(path, flags=cv2.IMREAD_UNCHANGED if alpha else cv2.IMREAD_COLOR)
    except ImageFileError as e:
        raise EnrolError(str(e)) from None
    if img.ndim == 2:
        img = np.asarray(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    elif img.shape[2] == 4 and not alpha:
        img = np.ascontiguousarray(img[:, :, :3])
    return img


def template_from_image(image: Image, size: tuple[int, int],
                        find: FindParams | None = None) -> tuple[Image, str]:
    """The card in ``image`` at ``size`` and how it was found ("photo", "scan" or "cut-out").

    * A cut-out (BGRA, with transparent pixels: the usual background-removed PNG): the
      opaque part's outline is the card's (:func:`cut_out_corners`).
    * A scan: the image has the card's proportions (either way round: a landscape scan of a
      portrait card is turned) and no card is found in it, or what is found is the card's
      printed frame, the image's own edge (most of it), or pictures on the card: small ones
      (under a quarter of the image) or several. A flat scan is never "2 cards".
    * A photo: one card found (or one clearly the largest) is warped, however much of the
      picture it fills (a close-up) and though it touches the picture's edge.
    """
    img = check_image(image, "image") if not (
        isinstance(image, np.ndarray) and image.ndim == 3 and image.shape[2] == 4
        and image.dtype == np.uint8 and min(image.shape[:2]) >= 16) else image
    if img.ndim == 3 and img.shape[2] == 4:
        cut = cut_out(img, size)
        if cut is not None:
            return cut, "cut-out"
        img = check_image(np.ascontiguousarray(img[:, :, :3]), "image")
    if img.ndim == 2:
        img = np.asarray(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    w, h = size
    square = abs(w - h) <= 0.02 * max(w, h)
    big = img
    scale = 1.0
    if max(img.shape[:2]) > 1600:  # find on a smaller copy, warp from the original
        scale = 1600 / max(img.shape[:2])
        big = np.asarray(cv2.resize(img, None, fx=scale, fy=scale,
                                    interpolation=cv2.INTER_AREA), dtype=np.uint8)
    finder = CardFinder(size, replace(find or FindParams(), work_width=min(1600, big.shape[1]),
                                      min_area_frac=0.01, max_area_frac=0.98))
    cards: list[FoundCard] = finder.find(big)
    ih, iw = img.shape[:2]
    want = w / h
    shaped = [(turned, ratio) for turned, ratio in ((False, iw / ih), (True, ih / iw))
              if abs(ratio - want) <= 0.08 * want and (not turned or not square)]
    if shaped and cards:
        whole = float(big.shape[0] * big.shape[1])
        if (_printed_frame(cards[0], big.shape[1], big.shape[0])
                or cards[0].area >= 0.85 * whole  # the scan's own edge
                or cards[0].area < 0.25 * whole  # a picture on the card
                or (len(cards) > 1 and cards[1].area > 0.6 * cards[0].area)):  # pictures
            cards = []
    if cards:
        if len(cards) > 1 and cards[1].area > 0.6 * cards[0].area:
            raise EnrolError(f"{len(cards)} cards in the picture; photograph one card at a time")
        corners = cards[0].corners / np.float32(scale)
        return checked_template(warp_card(img, corners, size), size, "photo")
    if shaped:
        src = np.ascontiguousarray(np.rot90(img)) if shaped[0][0] else img
        out = cv2.resize(src, (w, h), interpolation=cv2.INTER_AREA)
        return checked_template(np.asarray(out, dtype=np.uint8), size, "scan")
    raise EnrolError(f"no card found in the picture, and at {iw}x{ih} px it does not have the "
                     f"card's proportions ({w}:{h}) to be a scan")


def checked_template(template: Image, size: tuple[int, int], how: str) -> tuple[Image, str]:
    """``template`` (made ``how``) if its border is the card's own edge; cut again inside it
    where a sliver of table or of another card lies along a side (``how`` then says so);
    EnrolError saying why where more than a sliver does (:mod:`vision.layout`; issue 30:
    three cut-outs holding table and the edges of neighbouring cards, enrolled without a
    word, then took 123 cards outlined a little too large)."""
    problem = border_problem(template)
    if problem is None:
        return template, how
    again = recut(template, size)
    if again is None:
        raise EnrolError(f"not enrolled: {problem} -- cut the card out along its own edge, "
                         "or photograph it alone on a plain table")
    return again, f"{how}, re-cut: its border held table"


def cut_out_corners(alpha: Image, size: tuple[int, int]) -> FloatArray | None:
    """The corners (4x2, clockwise, a short side first) of the card that the opaque part
    (alpha 128 or more) of a background-removed image is, or None: too little of it is
    transparent to say (an opaque PNG), or its outline is not the deck's shape (sides fitted
    to the outline, so rounded corners do not cut them)."""
    mask = np.asarray(alpha >= 128, dtype=np.uint8)
    opaque = int(mask.sum())
    if opaque == mask.size or opaque < 0.02 * mask.size:
        return None
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    c = max(contours, key=cv2.contourArea)
    if cv2.contourArea(c) < 0.5 * opaque:
        return None  # several pieces: not one card
    hull = cv2.convexHull(c)
    rect = cv2.minAreaRect(hull)
    rough = order_corners(cv2.boxPoints(rect))
    pts = c.reshape(-1, 2).astype(np.float32)
    q = order_corners(fit_sides_many([pts], rough[None])[0], abs(size[0] - size[1]) <= 0.02
                      * max(size))
    e = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    short, long_ = (e[0] + e[2]) / 2, (e[1] + e[3]) / 2
    want = min(size) / max(size)
    if long_ <= 0 or abs(short / long_ - want) > 0.15 * want:
        return None
    if cv2.contourArea(hull) < 0.9 * abs(cv2.contourArea(q.reshape(-1, 1, 2))):
        return None  # not a rectangle with rounded corners
    return np.asarray(q, dtype=np.float32)


def cut_out(image: Image, size: tuple[int, int]) -> Image | None:
    """The card of a background-removed BGRA ``image`` warped to ``size`` (BGR), its
    transparent corners filled with the paper's colour along its edge; None when the alpha
    channel does not outline a card (:func:`cut_out_corners`)."""
    q = cut_out_corners(np.ascontiguousarray(image[:, :, 3]), size)
    if q is None:
        return None
    bgr = np.ascontiguousarray(image[:, :, :3])
    a = image[:, :, 3]
    # The paper's colour: the opaque pixels of a thin ring just inside the outline.
    inner = np.zeros(a.shape, np.uint8)
    cv2.fillPoly(inner, [np.rint(q).astype(np.int32)], 1)
    ring = (inner > 0) & (cv2.erode(inner, np.ones((7, 7), np.uint8)) == 0) & (a >= 200)
    fill = (np.median(bgr[ring], axis=0) if ring.any() else np.full(3, 255.0)).astype(
        np.float32)
    alpha = (a.astype(np.float32) / 255)[:, :, None]
    flat = bgr.astype(np.float32) * alpha + fill[None, None, :] * (1 - alpha)
    src = np.asarray(np.clip(flat + 0.5, 0, 255), dtype=np.uint8)
    return warp_card(src, q, size)


def _printed_frame(card: FoundCard, width: int, height: int) -> bool:
    """Is ``card`` the printed frame of a scanned card: most of the image, centred, with
    even margins all round (a photo has table around the card, rarely that evenly)?"""
    if card.area < 0.7 * width * height:
        return False
    x0, y0 = card.corners.min(axis=0)
    x1, y1 = card.corners.max(axis=0)
    margins = np.array([x0, y0, width - 1 - x1, height - 1 - y1], dtype=np.float32)
    return bool(margins.min() >= 0 and margins.max() - margins.min() <= 0.03 * max(width,
                                                                                    height))


_AT = re.compile(r"^(?P<id>.+)@(?P<n>[0-9]{1,3})$")


def _sources(src: Path) -> tuple[list[tuple[str, list[Path]]], list[EnrolItem]]:
    """The card ids of the images in ``src`` and each card's photos in order (see the
    module's docstring: ``id.ext``, ``id@N.ext``, ``id/*``), and the files that are not."""
    if not src.exists():
        raise DeckError(f"image folder {src} does not exist")
    if not src.is_dir():
        raise DeckError(f"{src} is not a folder")
    per: dict[str, list[tuple[tuple[int, int, str], Path]]] = {}
    skipped: list[EnrolItem] = []

    def image(p: Path, cid: str) -> bool:
        if p.suffix.lower() in IMAGE_EXTS:
            return True
        skipped.append(EnrolItem(cid, p, False, IGNORED,
                                 f"not an image file type ({', '.join(IMAGE_EXTS)})"))
        return False

    def regular(p: Path, cid: str) -> bool:
        """A FIFO, a socket, a device, a dangling link ... is said and never opened."""
        if p.is_file():
            return True
        what = ("a dangling symbolic link" if p.is_symlink() and not p.exists()
                else "not a regular file (a FIFO, a socket or a device)")
        skipped.append(EnrolItem(cid, p, False, IGNORED, what))
        return False

    for p in sorted(src.iterdir()):
        if p.name.startswith("."):
            continue
        if p.is_dir():
            try:
                inner = sorted(p.iterdir())
            except OSError as exc:
                skipped.append(EnrolItem(p.name, p, False, IGNORED,
                                         f"a folder that cannot be read: {exc.strerror}"))
                continue
            for q in inner:
                if not q.name.startswith(".") and not q.is_dir() and regular(q, p.name) \
                        and image(q, p.name):
                    per.setdefault(p.name, []).append(((2, 0, q.name), q))
            continue
        if not regular(p, p.stem) or not image(p, p.stem):
            continue
        at = _AT.match(p.stem)
        if at:
            per.setdefault(at["id"], []).append(((1, int(at["n"]), p.name), p))
        else:
            per.setdefault(p.stem, []).append(((0, 0, p.name), p))
    found = [(cid, [p for _, p in sorted(v, key=lambda x: x[0])]) for cid, v in sorted(per.items())]
    return found, skipped


def _saved_deck(root: Path) -> Deck | None:
    """The deck whose manifest is in ``root`` (None: no manifest there); DeckError for a
    manifest that cannot be read."""
    manifest = root / MANIFEST
    if not manifest.exists():
        return None
    try:
        raw = read_json(manifest)
    except ValueError as e:
        raise DeckError(f"{manifest}: not valid JSON ({e})") from e
    return deck_from_manifest(raw, root, where=str(manifest))


def enroll_from_images(deck_dir: str | Path, src_dir: str | Path, *,
                       new: NewDeck | None = None, add_new: bool = False,
                       find: FindParams | None = None) -> EnrolReport:
    """Enrol the images in ``src_dir`` into the deck at ``deck_dir``; see the module docstring.

    Raises DeckError when nothing can be done at all (no such image folder, a broken manifest,
    no manifest and no ``new``); problems with single images are reported, not raised.
    """
    root, src = Path(deck_dir), Path(src_dir)
    report = EnrolReport(root)
    sources, skipped = _sources(src)
    report.items.extend(skipped)
    saved = _saved_deck(root)
    if saved is not None:
        deck = saved
    elif new is not None:
        deck = Deck(root=root, id=new.id, game=new.game, title_zh=new.title_zh or new.id,
                    title_en=new.title_en or new.id, demo=False, shape=new.shape,
                    size=new.size, use_colour=new.use_colour, cards=())
        add_new = True
    else:
        raise DeckError(f"{root} has no {MANIFEST}: to make a new deck there, give its game "
                        f"(--game {'|'.join(GAMES)}; its id defaults to the folder's name)")
    if not sources:
        report.items.append(EnrolItem("-", src, False, "", "no images in the folder"))
    known = set(deck.ids)
    enrolled: list[str] = []
    for cid, paths in sources:
        if cid not in known and not add_new:
            report.items.extend(EnrolItem(cid, path, False, "",
                                          "not a card of this deck's manifest")
                                for path in paths)
            continue
        got: list[Image] = []
        items: list[EnrolItem] = []
        for path in paths:
            if len(got) == MAX_TEMPLATES:
                items.append(EnrolItem(cid, path, False, "", f"this card has {MAX_TEMPLATES} "
                                       "photos already (the most templates a card keeps)"))
                continue
            try:
                template, how = template_from_image(read_image(path, alpha=True), deck.size,
                                                    find)
            except (EnrolError, FrameError, DeckError, ValueError, cv2.error) as e:
                # (One photo that cannot be enrolled, whatever the reason, does not stop the
                # card's other photos, nor the other cards.)
                items.append(EnrolItem(cid, path, False, "", str(e) or type(e).__name__))
                continue
            got.append(template)
            items.append(EnrolItem(cid, path, True, how, ""))
        if got:
            try:
                spec = deck.card(cid) if cid in known else CardSpec(
                    id=cid, name_zh=cid, name_en=cid, kind="card", file=f"{cid}.png")
                deck = deck.with_card(spec, got[0], got[1:])
            except (DeckError, ValueError) as e:
                items = [replace(i, enrolled=False, how="", reason=str(e)) if i.enrolled
                         else i for i in items]
                got = []
        report.items.extend(items)
        if got:
            known.add(cid)
            enrolled.append(cid)
    report.missing = [c.id for c in deck.cards
                      if c.id not in deck.templates and not (root / c.file).is_file()]
    if not enrolled:
        return report
    if report.missing:
        # The manifest names cards with no image yet: write the new templates only and leave
        # the manifest as it is (it loses nothing; load_deck will say what is still missing)
        # -- unless a card now has several templates, which only the manifest can name.
        for cid in enrolled:
            write_templates(root, deck.card(cid), deck.templates_of(cid), deck.size)
        if any(deck.card(cid).alternates for cid in enrolled):
            text = json.dumps(deck.manifest(), ensure_ascii=False, indent=1) + "\n"
            atomic_write(root / MANIFEST, text.encode("utf-8"))
    else:
        save_deck(deck, root, only=enrolled)
        report.fit = store_fit(root)
    report.written = True
    return report


# ------------------------------------------------------------------ the foreign-card gate

#: :func:`measure_fit`: at most this many cards are looked at (spread over the deck), each
#: in :data:`FIT_VIEWS` simulated views as one of the deck's cards and as a card left out.
FIT_CARDS = 24
FIT_VIEWS = 3
#: Where the gate goes between the deck's own cards (their 98th percentile) and the cards
#: left out (the least of them): this share of the way up from the own cards'.
FIT_BETWEEN = 0.4
#: ... and where they overlap (cards printed too small to tell at the compared size), this
#: share of the least a card left out scored: foreign cards refused first, the deck's own
#: cards that misfit as much become unknown (and are asked for). Tuned on ``bench vision
#: --foreign-numbers``' tuning seed (1000), corner numbers over shared artwork: 0.9 of it
#: accepted 3 of 37 cards not enrolled, 0.75 1 of 37, 0.55 none.
FIT_OVERLAP = 0.5
FIT_FLOOR = 0.02  # (the gate never below this: a deck's own cards would all be unknown)


@dataclass(frozen=True)
class FitMeasure:
    """The foreign-card gate of a deck (:func:`measure_fit`): the misfit
    (``DeckMatcher.fit``) of its own cards, of cards left out of it taken for their nearest,
    and the ``max_fit`` chosen between them (None: a deck of fewer than 3 cards)."""

    own: tuple[float, ...]
    foreign: tuple[float, ...]
    max_fit: float | None

    def text(self) -> str:
        if self.max_fit is None:
            return "foreign-card gate: not measured (fewer than 3 cards)"
        own = float(np.quantile(self.own, 0.98)) if self.own else float("nan")
        low = min(self.foreign) if self.foreign else float("nan")
        return (f"foreign-card gate: max_fit {self.max_fit:.3f} (the deck's own cards up to "
                f"{own:.3f}, cards left out from {low:.3f}"
                + ("; they overlap: some own cards will be asked for" if low <= own else "")
                + ")")


def _fit_view(template: Image, rng: np.random.Generator) -> tuple[Image, FloatArray]:
    """A simulated camera's view of ``template`` (a card 60-130 px wide, a little
    perspective, light and colour cast, blur, noise, JPEG) and its corners as a finder
    would give them (off by a pixel or so)."""
    th, tw = template.shape[:2]
    w = float(rng.uniform(60, 130))
    h = w * th / tw
    fw, fh = int(w * 1.6), int(h * 1.6)
    x0, y0 = (fw - w) / 2, (fh - h) / 2
    quad = np.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]], np.float32)
    quad += rng.normal(0, 0.03 * w, (4, 2)).astype(np.float32)
    small = cv2.resize(template, (max(8, int(2 * w)), max(8, int(2 * h))),
                       interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    src = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float32)
    frame = np.full((fh, fw, 3), int(rng.uniform(30, 200)), np.uint8)
    cv2.warpPerspective(small, cv2.getPerspectiveTransform(src, quad), (fw, fh), dst=frame,
                        flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
    f = frame.astype(np.float32)
    ramp = np.linspace(1 - rng.uniform(0, 0.25), 1.0, fw, dtype=np.float32)[None, :, None]
    f *= ramp * float(rng.uniform(0.7, 1.1)) * (1 + rng.uniform(-0.08, 0.08, 3)).astype(
        np.float32)
    f = np.asarray(cv2.GaussianBlur(f, (0, 0), float(rng.uniform(0.4, 1.2))), np.float32)
    f += rng.normal(0, float(rng.uniform(1, 4)), f.shape).astype(np.float32)
    img = np.clip(f, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 92))])
    if ok:
        img = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)
    seen = quad + rng.normal(0, 0.7, (4, 2)).astype(np.float32)
    return img, seen


@dataclass(frozen=True)
class _Part:
    """Some of a deck's cards (``vision.match.DeckLike``; :func:`measure_fit`)."""

    ids: tuple[str, ...]
    whole: DeckLike

    @property
    def size(self) -> tuple[int, int]:
        return self.whole.size

    @property
    def shape(self) -> str:
        return self.whole.shape

    @property
    def use_colour(self) -> bool:
        return self.whole.use_colour

    def template(self, card_id: str) -> Image:
        return self.whole.template(card_id)

    def templates_of(self, card_id: str) -> tuple[Image, ...]:
        many = getattr(self.whole, "templates_of", None)
        return tuple(many(card_id)) if callable(many) else (self.whole.template(card_id),)


def measure_fit(deck: DeckLike, params: MatchParams | None = None,
                seed: int = 0) -> FitMeasure:
    """The foreign-card gate of ``deck`` (``MatchParams.max_fit``), measured as enrolment
    saves it: up to :data:`FIT_CARDS` of its cards, each seen :data:`FIT_VIEWS` times by
    a simulated camera (:func:`_fit_view`), (1) matched against the whole deck, the misfit
    to itself where it is named best (the deck's own cards), and (2) matched against the
    deck without it and a quarter of the others (every 4th card: 12 is left out, 11 and 13
    stay), the misfit to the card it is taken for (a card from outside the deck that looks
    like one of it). ``max_fit`` lies :data:`FIT_BETWEEN` of the way from the first up to
    the second; where they overlap, just under the second's least (:data:`FIT_OVERLAP`):
    a card from outside the deck is refused first, and the deck's cards that misfit as
    much become unknown, to be asked for, never named wrong."""
    from vision.match import DeckMatcher

    ids = tuple(deck.ids)
    if len(ids) < 3:
        return FitMeasure((), (), None)
    base = params if params is not None else MatchParams()
    rng = np.random.default_rng(seed)
    step = max(1, len(ids) // FIT_CARDS)
    picked = list(range(0, len(ids), step))[:FIT_CARDS]
    whole = DeckMatcher.from_deck(deck, base)
    own: list[float] = []
    foreign: list[float] = []
    groups = min(4, len(ids))
    for g in range(groups):
        out = [i for i in picked if i % groups == g]
        if not out:
            continue
        part = DeckMatcher.from_deck(
            _Part(tuple(c for i, c in enumerate(ids) if i % groups != g), deck), base)
        for i in out:
            template = deck.template(ids[i])
            for _ in range(FIT_VIEWS):
                img, quad = _fit_view(template, rng)
                m = whole.match_quads(img, [quad])[0]
                if m.best_id == ids[i]:
                    v = whole.fit(img, quad, replace(m, card_id=ids[i]))
                    if np.isfinite(v):
                        own.append(v)
                img, quad = _fit_view(template, rng)
                m = part.match_quads(img, [quad])[0]
                v = part.fit(img, quad, replace(m, card_id=m.best_id))
                if np.isfinite(v):
                    foreign.append(v)
    if not own or not foreign:
        return FitMeasure(tuple(sorted(own)), tuple(sorted(foreign)), None)
    o = float(np.quantile(own, 0.98))
    low = min(foreign)
    gate = o + FIT_BETWEEN * (low - o) if low > o else FIT_OVERLAP * low
    return FitMeasure(tuple(sorted(own)), tuple(sorted(foreign)),
                      round(min(10.0, max(FIT_FLOOR, gate)), 4))


def with_measured_fit(deck: Deck, params: MatchParams | None = None) -> tuple[Deck, FitMeasure]:
    """``deck`` with its foreign-card gate measured (:func:`measure_fit`; every card's
    templates must be at hand), and the measure."""
    got = measure_fit(deck, params)
    return replace(deck, max_fit=got.max_fit), got


def store_fit(root: str | Path) -> FitMeasure:
    """Measure the foreign-card gate of the deck saved at ``root`` and write it into its
    manifest (atomically; the templates are not touched)."""
    deck = load_deck(root)
    deck, got = with_measured_fit(deck)
    text = json.dumps(deck.manifest(), ensure_ascii=False, indent=1) + "\n"
    atomic_write(Path(root) / MANIFEST, text.encode("utf-8"))
    return got


# ---------------------------------------------------------------------------- live


def sharpness(image: Image) -> float:
    """Variance of the Laplacian of the grey image: low for a blurred or shaken shot."""
    img = check_image(image, "image")
    grey = img if img.ndim == 2 else cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    return float(cv2.Laplacian(grey, cv2.CV_64F).var())


@dataclass(frozen=True)
class EnrolProgress:
    """Where a live enrolment is; ``state`` is one of the STATES.

    ``index`` is the current card's place in the deck (0-based), ``total`` the deck's cards;
    ``taught`` how many have all their shots, ``skipped`` how many the host skipped; ``shot``
    the current card's shots so far of ``shots``; ``glare`` the share of the card's picture
    that is blown out (a lamp's reflection); ``other_id`` the card it looks like instead
    (``"other"``: the manifest's picture of another card; ``"?"``: of none)."""

    index: int  # 0-based index of the current card
    total: int
    card_id: str
    name_zh: str
    name_en: str
    state: str
    sharpness: float = 0.0
    taught: int = 0
    skipped: int = 0
    shot: int = 0
    shots: int = 1
    glare: float = 0.0
    other_id: str = ""

    STATES = ("clear", "lay", "blurry", "glare", "several", "other", "steady", "captured",
              "done")

    @property
    def message_en(self) -> str:
        n = f"({self.index + 1}/{self.total})"
        return {
            "clear": f"{n} Take the card away",
            "lay": f"{n} Lay card {self.name_en} under the camera",
            "blurry": f"{n} {self.name_en}: blurred, hold still (sharpness {self.sharpness:.0f})",
            "glare": f"{n} {self.name_en}: a reflection on the card, move it or the lamp",
            "several": f"{n} Only one card under the camera, please",
            "other": (f"{n} That looks like {self.other_id}, not {self.name_en}"
                      if self.other_id != "?" else f"{n} That is not {self.name_en}"),
            "steady": f"{n} {self.name_en}: hold still ...",
            "captured": f"{n} {self.name_en}: captured",
            "done": f"All {self.total} cards enrolled",
        }[self.state]

    @property
    def message_zh(self) -> str:
        n = f"（{self.index + 1}/{self.total}）"
        return {
            "clear": f"{n}請把卡片拿開",
            "lay": f"{n}請把「{self.name_zh}」放在鏡頭下",
            "blurry": f"{n}「{self.name_zh}」太模糊，請保持不動",
            "glare": f"{n}「{self.name_zh}」有反光，請移動卡片或燈",
            "several": f"{n}鏡頭下請只放一張卡",
            "other": (f"{n}這張像是「{self.other_id}」，不是「{self.name_zh}」"
                      if self.other_id != "?" else f"{n}這張不是「{self.name_zh}」"),
            "steady": f"{n}「{self.name_zh}」請保持不動……",
            "captured": f"{n}「{self.name_zh}」已拍好",
            "done": f"全部 {self.total} 張卡都登錄好了",
        }[self.state]


def glare(image: Image, level: int = 250, above: int = 30) -> float:
    """The share of the card's picture that is a reflection: blown out (grey level at least
    ``level``) and well above the card's own paper (``above`` over its median), so a white
    card well lit is no glare, and a lamp's spot on a glossy card is (it would be matched
    as part of the card)."""
    img = check_image(image, "image")
    grey = img if img.ndim == 2 else cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    paper = float(np.median(grey))
    spot = (grey >= level) & (grey.astype(np.int16) >= paper + above)
    return float(np.count_nonzero(spot)) / max(1, grey.size)


class LiveEnroller:
    """A state machine fed one frame at a time (:meth:`step`), or run on a camera (:meth:`run`).

    ``cards`` are the CardSpecs to enrol, in order; ``size`` the deck's canonical size.
    A shot is taken after ``steady_frames`` consecutive frames with the card alone at the same
    place (within 2 % of the frame width), sharp (variance of the Laplacian at least
    ``min_sharpness``) and without glare (at most ``max_glare`` of it blown out); the sharpest
    of them is the shot. Before each shot the view must be clear of cards (so the previous
    one is not taken again, and the host lays the card again a little elsewhere: ``shots``
    shots per card, each a template of the card, position and light varying a little).

    A shot that, given ``references`` (the manifest's pictures), is recognised as another
    card is not taken: state ``"other"``. The host may :meth:`skip` the
    current card, :meth:`retake` it (or the one just taken), or :meth:`retake` any card later
    (the check round). ``store`` (:class:`EnrolStore`) keeps every shot on disk as it is taken,
    so an enrolment stopped (or the box switched off) resumes where it stopped.
    """

    def __init__(self, cards: Sequence[CardSpec], size: tuple[int, int], *,
                 min_sharpness: float = 60.0, steady_frames: int = 3,
                 find: FindParams | None = None,
                 progress: Callable[[EnrolProgress], None] | None = None,
                 shots: int = 1, max_glare: float = 0.03, square: bool = False,
                 use_colour: bool = False, references: Mapping[str, Image] | None = None,
                 store: EnrolStore | None = None) -> None:
        if not cards:
            raise ValueError("nothing to enrol: no cards")
        if not 1 <= shots <= MAX_TEMPLATES:
            raise ValueError(f"shots per card: 1..{MAX_TEMPLATES}, not {shots}")
        self.cards = list(cards)
        self.size = size
        self.min_sharpness = min_sharpness
        self.steady_frames = max(1, steady_frames)
        self.finder = CardFinder(size, find)
        self.progress = progress
        self.shots_per_card = shots
        self.max_glare = max_glare
        self.square = square
        self.use_colour = use_colour
        self.shots: dict[str, list[Image]] = {}
        self.skipped: list[str] = []
        self.store = store
        if store is not None:
            store.shots_per_card = shots
            self.shots, self.skipped = store.load({c.id for c in self.cards}, size)
        self._refs = None
        if references:
            from vision.match import DeckMatcher
            ids = [c.id for c in self.cards if c.id in references]
            if len(ids) >= 2:
                self._refs = DeckMatcher(ids, [references[i] for i in ids], size,
                                         square=square, use_colour=use_colour)
        self._state = "lay"
        self._steady: list[tuple[float, Image, tuple[float, float]]] = []
        self._last: EnrolProgress | None = None
        self.last_captured: str | None = None
        #: the outlines of the cards in the last frame (frame px), and that frame's size
        self.outlines: list[FloatArray] = []
        self.frame_size: tuple[int, int] = (0, 0)
        self.sharp = 0.0
        self.glare = 0.0
        self.other_id = ""
        #: the last shot of a card failed to be kept on disk (the store's error), or None
        self.store_error: OSError | None = None

    # --- where it is ------------------------------------------------------------------------
    def complete(self, card_id: str) -> bool:
        return len(self.shots.get(card_id, ())) >= self.shots_per_card

    @property
    def current(self) -> CardSpec | None:
        """The card to lay next (None: every card is taught or skipped)."""
        skipped = set(self.skipped)
        return next((c for c in self.cards
                     if c.id not in skipped and not self.complete(c.id)), None)

    @property
    def done(self) -> bool:
        return self.current is None

    @property
    def index(self) -> int:
        card = self.current
        return len(self.cards) if card is None else self.cards.index(card)

    @property
    def taught(self) -> list[str]:
        """The cards with all their shots, in deck order."""
        return [c.id for c in self.cards if self.complete(c.id)]

    @property
    def templates(self) -> dict[str, Image]:
        """Each taught card's first shot (its main template)."""
        return {cid: self.shots[cid][0] for cid in self.taught}

    @property
    def state(self) -> str:
        return self._last.state if self._last is not None else "lay"

    def _report(self, state: str, card: CardSpec | None = None) -> EnrolProgress:
        card = card or self.current
        c = card if card is not None else self.cards[-1]
        p = EnrolProgress(self.cards.index(c), len(self.cards), c.id,
                          c.name_zh, c.name_en, state, self.sharp, len(self.taught),
                          len(self.skipped), len(self.shots.get(c.id, ())),
                          self.shots_per_card, self.glare, self.other_id)
        if self.progress is not None and (self._last is None or (p.state, p.index, p.shot) != (
                self._last.state, self._last.index, self._last.shot)):
            self.progress(p)
        self._last = p
        return p

    # --- the host's choices -----------------------------------------------------------------
    def skip(self) -> EnrolProgress:
        """Leave the current card out (its shots so far dropped); it stays missing."""
        card = self.current
        if card is not None:
            self.shots.pop(card.id, None)
            self.skipped.append(card.id)
            self._changed(card.id)
        self._steady.clear()
        return self._report("done" if self.done else "clear")

    def retake(self, card_id: str | None = None) -> EnrolProgress:
        """Take ``card_id`` again (None: the current card if it has shots, else the card just
        taken): its shots are dropped and it is the card to lay next (a skipped card too)."""
        if card_id is None:
            card = self.current
            card_id = (card.id if card is not None and self.shots.get(card.id)
                       else self.last_captured)
        if card_id is not None and any(c.id == card_id for c in self.cards):
            self.shots.pop(card_id, None)
            if card_id in self.skipped:
                self.skipped.remove(card_id)
            self._changed(card_id)
        self._steady.clear()
        self._state = "clear"
        return self._report("clear")

    def unskip(self) -> EnrolProgress:
        """Offer the skipped cards again."""
        skipped, self.skipped = self.skipped, []
        for cid in skipped:
            self._changed(cid)
        return self._report("clear")

    def _changed(self, card_id: str) -> None:
        if self.store is None:
            return
        try:
            self.store.save(card_id, self.shots.get(card_id, []), self.skipped)
            self.store_error = None
        except OSError as exc:
            self.store_error = exc

    # --- frames -----------------------------------------------------------------------------
    def step(self, image: Image) -> EnrolProgress:
        """Feed one frame (BGR); return (and report) the state after it."""
        img = check_image(image)
        self.frame_size = (int(img.shape[1]), int(img.shape[0]))
        found = self.finder.find(img)
        self.outlines = [c.corners for c in found]
        card = self.current
        if card is None:
            return self._report("done")
        if self._state in ("clear", "other"):
            if found:  # (the card refused stays refused until it is lifted)
                return self._report(self._state)
            self._state = "lay"
            self.other_id = ""
        if not found:
            self._steady.clear()
            self.sharp = self.glare = 0.0
            return self._report("lay")
        if len(found) > 1:
            self._steady.clear()
            return self._report("several")
        warped = warp_card(img, found[0].corners, self.size)
        self.sharp = sharpness(warped)
        self.glare = glare(warped)
        if self.sharp < self.min_sharpness:
            self._steady.clear()
            return self._report("blurry")
        if self.glare > self.max_glare:
            self._steady.clear()
            return self._report("glare")
        centre = found[0].centre
        tol = 0.02 * img.shape[1]
        if self._steady and max(abs(centre[0] - self._steady[-1][2][0]),
                                abs(centre[1] - self._steady[-1][2][1])) > tol:
            self._steady.clear()
        self._steady.append((self.sharp, warped, centre))
        if len(self._steady) < self.steady_frames:
            return self._report("steady")
        best = max(self._steady, key=lambda s: s[0])
        self._steady.clear()
        self.other_id = self._looks_like(best[1], card.id)
        if self.other_id:
            self._state = "other"
            return self._report("other")
        self.shots.setdefault(card.id, []).append(best[1])
        self.last_captured = card.id
        self._changed(card.id)
        p = self._report("captured", card)
        self._state = "clear"
        if self.done:
            return self._report("done")
        return p

    def _looks_like(self, shot: Image, card_id: str) -> str:
        """Another card of the manifest this shot is recognised as (given ``references``,
        the manifest's pictures of every card), or "". (Without them nothing is checked here:
        a matcher of the cards taught so far would take a new card for its near-twin taught
        already, 03 for 02; the check round after the save finds confusions instead.)"""
        if self._refs is not None:
            m = self._refs.match(shot)
            if m.card_id != card_id:  # another card, or one the manifest does not list
                return m.card_id or "?"
        return ""

    def run(self, frames: Iterable[Image], max_frames: int | None = None) -> dict[str, Image]:
        """Step through ``frames`` until every card is captured (or the frames run out)."""
        for n, image in enumerate(frames):
            if self.done or (max_frames is not None and n >= max_frames):
                break
            self.step(image)
        return dict(self.templates)

    def deck_with_shots(self, deck: Deck) -> Deck:
        """``deck`` with every taught card's shots as its templates (the first its main
        template, the others its alternates)."""
        for cid in self.taught:
            shots = self.shots[cid]
            spec = deck.card(cid) if cid in deck.ids else CardSpec(
                id=cid, name_zh=cid, name_en=cid, kind="card", file=f"{cid}.png")
            deck = deck.with_card(spec, shots[0], shots[1:])
        return deck

    def save(self, deck: Deck) -> Deck:
        """Write the captured templates into ``deck`` (atomically, manifest last), then its
        foreign-card gate measured (:func:`store_fit`)."""
        saved = save_deck(self.deck_with_shots(deck), only=self.taught)
        store_fit(saved.root)
        return load_deck(saved.root)


def _replace(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path`` and rename it into place (no
    fsync: see :meth:`EnrolStore.save`)."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_bytes(data)
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


class EnrolStore:
    """A live enrolment's shots on disk, as they are taken: ``<card>@<k>.png`` and
    ``progress.json`` (each written atomically, the JSON last) in ``folder``, so an enrolment
    resumes where it stopped, after a power cut too. Writing raises ``OSError`` (a full
    disk ...): the caller keeps the shots in memory and says so."""

    PROGRESS = "progress.json"

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._counts: dict[str, int] = {}

    def load(self, ids: set[str], size: tuple[int, int]) -> tuple[dict[str, list[Image]],
                                                                   list[str]]:
        """The shots and the skipped cards kept (cards not in ``ids``, shots that cannot be
        read or are not the deck's size are left out: taken again)."""
        path = self.folder / self.PROGRESS
        try:
            raw = json.loads(read_text(path))
            counts = {str(k): int(v) for k, v in dict(raw.get("shots", {})).items()}
            skipped = [str(x) for x in raw.get("skipped", []) if str(x) in ids]
        except (OSError, ValueError, TypeError, AttributeError):
            return {}, []
        shots: dict[str, list[Image]] = {}
        for cid, n in counts.items():
            if cid not in ids:
                continue
            images: list[Image] = []
            for k in range(n):
                try:
                    img = read_image_file(self.folder / f"{cid}@{k + 1}.png")
                except ImageFileError:
                    break
                if (img.shape[1], img.shape[0]) != tuple(size):
                    break
                images.append(np.asarray(img, dtype=np.uint8))
            if images:
                shots[cid] = images
        self._counts = {cid: len(v) for cid, v in shots.items()}
        return shots, skipped

    def save(self, card_id: str, shots: Sequence[Image], skipped: Sequence[str]) -> None:
        """Keep ``card_id``'s shots (the new ones written) and the skipped cards."""
        from vision.deck import make_folder

        make_folder(self.folder)
        have = self._counts.get(card_id, 0) if shots else 0
        for k in range(min(have, len(shots)), len(shots)):
            ok, buf = cv2.imencode(".png", shots[k])
            if not ok:
                raise OSError(f"cannot encode a shot of {card_id}")
            _replace(self.folder / f"{card_id}@{k + 1}.png", buf.tobytes())
        counts = dict(self._counts)
        counts[card_id] = len(shots)
        if not shots:
            counts.pop(card_id, None)
        text = json.dumps({"shots": counts, "skipped": list(skipped)}, indent=1)
        # a shot is cheap to take again: the list is made durable (fsync) once a card is
        # complete or skipped, a shot between is only renamed into place (a power cut may
        # lose the last few shots, never the list; a shot that cannot be read is retaken)
        if self.durable(len(shots)):
            atomic_write(self.folder / self.PROGRESS, text.encode("utf-8"))
        else:
            _replace(self.folder / self.PROGRESS, text.encode("utf-8"))
        self._counts = counts

    #: ``durable(shots)``: fsync the list after a card with this many shots (default: none
    #: or a complete card's; the enroller sets it to its shots per card)
    shots_per_card = 1

    def durable(self, shots: int) -> bool:
        return shots == 0 or shots >= self.shots_per_card

    def clear(self) -> None:
        """Forget the progress (the deck is saved)."""
        import shutil

        shutil.rmtree(self.folder, ignore_errors=True)
        self._counts = {}


def enroll_from_layout(deck_dir: str | Path, photo: str | Path, rows: int, columns: int,
                       ids: Sequence[str], *, new: NewDeck | None = None,
                       add_new: bool = False, find: FindParams | None = None) -> EnrolReport:
    """Enrol the cards of one photo of ``rows`` x ``columns`` cards laid in a known order:
    ``ids`` names them in reading order (row by row from the top left; ``-`` or an empty
    id leaves a place out). Each card's template is checked as any photo's is
    (:func:`checked_template`: a border holding table is cut again or
    refused) and enrolled as by :func:`enroll_from_images` (the deck at
    ``deck_dir``, or ``new``). LayoutError where the photo does not show the layout (what
    it shows is in the message); the report says per card what was done."""
    import tempfile

    root = Path(deck_dir)
    if len(ids) != rows * columns:
        raise LayoutError(f"{len(ids)} card id(s) for a layout of {rows}x{columns} = "
                          f"{rows * columns} places (use - for a place left out)")
    saved = _saved_deck(root)
    if saved is not None:
        size = saved.size
    elif new is not None:
        size = new.size
    else:
        raise DeckError(f"{root} has no {MANIFEST}: to make a new deck there, give its game")
    try:
        image = read_image(Path(photo))
    except EnrolError as e:
        raise LayoutError(str(e)) from None
    laid = cards_in_layout(image, size, rows, columns, find)
    where: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="tk-layout-") as tmp:
        for card, cid in zip(laid, ids, strict=True):
            if cid in ("", "-"):
                continue
            ok, buf = cv2.imencode(".png", card.template)
            if not ok:
                raise LayoutError(f"card {cid!r}: could not encode its template")
            (Path(tmp) / f"{cid}.png").write_bytes(buf.tobytes())
            where[cid] = f"row {card.row + 1}, place {card.column + 1} of the photo"
        report = enroll_from_images(root, tmp, new=new, add_new=add_new, find=find)
    report.items = [replace(i, source=Path(photo),
                            how=f"{where[i.card_id]}; {i.how}" if i.how else i.how,
                            reason=(f"{where[i.card_id]}: {i.reason}" if i.reason
                                    and i.card_id in where else i.reason))
                    for i in report.items]
    return report
