"""Enrolment from image files (photos and scans) and live from the simulated table."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.deck import Deck, DeckError, load_deck
from vision.demo_decks import write_demo_deck
from vision.enroll import (
    EnrolError,
    EnrolProgress,
    LiveEnroller,
    NewDeck,
    checked_template,
    enroll_from_images,
    sharpness,
    template_from_image,
)
from vision.match import DeckMatcher
from vision.simtable import Conditions, Pose, SimulatedTable

DemoDecks = Callable[[str], Deck]


@pytest.fixture
def wink(demo_decks: DemoDecks) -> Deck:
    return demo_decks("wink")


def _photo(deck: Deck, card_id: str, seed: int, surface: str = "wood") -> np.ndarray:
    table = SimulatedTable(deck, seed=seed, conditions=Conditions.clean(surface))
    table.place(card_id, Pose(300, 250, angle=25 + seed, width=150))
    return table.capture().image


def test_photo_and_scan_become_templates(wink: Deck) -> None:
    photo = _photo(wink, "w07", 1)
    t, how = template_from_image(photo, wink.size)
    assert how == "photo" and t.shape == (300, 200, 3)
    m = DeckMatcher.from_deck(wink)
    assert m.match(t).card_id == "w07"
    scan = np.asarray(cv2.resize(wink.template("w08"), (400, 600),
                                 interpolation=cv2.INTER_CUBIC), dtype=np.uint8)
    t, how = template_from_image(scan, wink.size)
    assert how == "scan" and m.match(t).card_id == "w08"
    landscape = np.ascontiguousarray(np.rot90(scan, -1))
    t, how = template_from_image(landscape, wink.size)
    assert m.match(t).card_id == "w08"


def _write(path: Path, image: np.ndarray) -> None:
    ok, buf = cv2.imencode(path.suffix, image)
    assert ok
    path.write_bytes(buf.tobytes())


def test_enrol_into_an_existing_deck(tmp_path: Path, wink: Deck) -> None:
    deck_dir = tmp_path / "deck"
    write_demo_deck("wink", deck_dir)
    before = (deck_dir / "w03.png").read_bytes()
    src = tmp_path / "src"
    src.mkdir()
    _write(src / "w01.jpg", _photo(wink, "w01", 2))
    _write(src / "w02.png", cv2.resize(wink.template("w02"), (300, 450)))
    (src / "w03.png").write_bytes(b"\x89PNG\r\n\x1a\n not really")  # truncated
    (src / "notes.txt").write_text("hello")
    _write(src / "nope.png", _photo(wink, "w04", 3))  # not in the manifest
    _write(src / "w05.png", np.full((100, 400, 3), 90, np.uint8))  # no card, wrong shape
    report = enroll_from_images(deck_dir, src)
    status = {i.card_id: (i.enrolled, i.how, i.reason) for i in report.items}
    assert status["w01"][:2] == (True, "photo")
    assert status["w02"][0] is True
    assert "not a readable image" in status["w03"][2]
    assert "not an image file type" in status["notes"][2]
    assert "not a card of this deck" in status["nope"][2]
    assert "no card found" in status["w05"][2]
    assert report.written and not report.missing
    text = report.text()
    assert "enrolled 2, skipped 3" in text and "w03" in text
    assert "ignored   notes.txt" in text  # (a file that is no image is not a card skipped)
    deck = load_deck(deck_dir)
    assert (deck_dir / "w03.png").read_bytes() == before  # a bad image loses nothing
    m = DeckMatcher.from_deck(deck)
    assert m.match(wink.template("w01")).card_id == "w01"


def test_new_deck_from_photos(tmp_path: Path, wink: Deck) -> None:
    src = tmp_path / "src"
    src.mkdir()
    ids = ["w10", "w20", "w30"]
    for k, cid in enumerate(ids):
        _write(src / f"{cid}.jpg", _photo(wink, cid, 10 + k, surface="dark"))
    deck_dir = tmp_path / "mine"
    with pytest.raises(DeckError, match=r"no manifest\.json"):
        enroll_from_images(deck_dir, src)
    report = enroll_from_images(deck_dir, src, new=NewDeck(id="my-wink", game="wink"))
    assert [i.card_id for i in report.enrolled] == ids
    deck = load_deck(deck_dir)
    assert deck.ids == tuple(ids) and deck.game == "wink" and deck.size == (200, 300)
    m = DeckMatcher.from_deck(deck)
    for cid in ids:  # recognise the printed card from the photographed templates
        assert m.match(wink.template(cid)).best_id == cid


def test_manifest_with_cards_not_yet_photographed(tmp_path: Path, wink: Deck) -> None:
    deck_dir = tmp_path / "deck"
    deck_dir.mkdir()
    manifest = {"schema": "tablekeeper.deck", "version": 1, "id": "half", "game": "wink",
                "title": {"zh-TW": "眨眨眼", "en": "Wink"}, "demo": False, "shape": "card",
                "size": [200, 300], "use_colour": True,
                "cards": [{"id": c, "name": {"zh-TW": c, "en": c}, "kind": "face",
                           "file": f"{c}.png"} for c in ("w01", "w02")]}
    (deck_dir / "manifest.json").write_text(json.dumps(manifest))
    src = tmp_path / "src"
    src.mkdir()
    _write(src / "w01.png", _photo(wink, "w01", 4))
    report = enroll_from_images(deck_dir, src)
    assert report.missing == ["w02"] and report.written
    assert (deck_dir / "w01.png").is_file()
    assert json.loads((deck_dir / "manifest.json").read_text()) == manifest  # untouched
    with pytest.raises(DeckError, match="w02"):
        load_deck(deck_dir)


def test_bad_folders(tmp_path: Path) -> None:
    with pytest.raises(DeckError, match="does not exist"):
        enroll_from_images(tmp_path / "deck", tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    report = enroll_from_images(tmp_path / "deck", tmp_path / "empty",
                                new=NewDeck(id="x", game="wink"))
    assert not report.written and "no images" in report.text()
    (tmp_path / "deck2").mkdir()
    (tmp_path / "deck2" / "manifest.json").write_text("{not json")
    with pytest.raises(DeckError, match="not valid JSON"):
        enroll_from_images(tmp_path / "deck2", tmp_path / "empty")


class _Camera:
    """The simulated table as the host would use it: the test lays and removes cards."""

    def __init__(self, deck: Deck, blur_first: int) -> None:
        self.table = SimulatedTable(deck, seed=21, conditions=Conditions.clean("cloth"))
        self.blur_first = blur_first
        self.n = 0

    def frames(self) -> Iterator[np.ndarray]:
        while True:
            img = self.table.capture().image
            self.n += 1
            if self.n <= self.blur_first:  # a shaky hand: the first shots are blurred
                img = np.asarray(cv2.GaussianBlur(img, (0, 0), 4), dtype=np.uint8)
            yield img


def test_live_enrolment_walks_through_the_deck(wink: Deck) -> None:
    cards = [wink.card(c) for c in ("w03", "w14", "w25")]
    cam = _Camera(wink, blur_first=6)
    seen: list[EnrolProgress] = []

    def host(p: EnrolProgress) -> None:  # the host follows the instructions on the screen
        seen.append(p)
        if p.state == "lay":
            cam.table.place(p.card_id, Pose(320, 240, angle=10 * p.index, width=140))
        elif p.state == "captured":
            cam.table.clear()

    enroller = LiveEnroller(cards, wink.size, progress=host, steady_frames=3)
    templates = enroller.run(cam.frames(), max_frames=80)
    assert enroller.done and set(templates) == {"w03", "w14", "w25"}
    states = [p.state for p in seen]
    assert "blurry" in states  # the blurred shots were not taken
    assert states[-1] == "done" and seen[-1].message_en == "All 3 cards enrolled"
    assert "登錄" in seen[-1].message_zh
    m = DeckMatcher.from_deck(wink)
    for cid, t in templates.items():
        assert sharpness(t) >= 60
        assert m.match(t).card_id == cid


def test_live_enrolment_asks_for_one_card_and_a_clear_view(wink: Deck) -> None:
    table = SimulatedTable(wink, seed=22, conditions=Conditions.clean("wood"))
    table.place("w01", Pose(200, 240, width=120))
    table.place("w02", Pose(450, 240, width=120))
    enroller = LiveEnroller([wink.card("w01")], wink.size)
    assert enroller.step(table.capture().image).state == "several"
    table.remove("w02")
    states = [enroller.step(table.capture().image).state for _ in range(3)]
    assert states == ["steady", "steady", "done"]
    with pytest.raises(ValueError, match="no cards"):
        LiveEnroller([], wink.size)


def _cut_too_large(template: np.ndarray, px: int, side: str = "left") -> np.ndarray:
    """A "scan" cut out of a photo a little too large: ``px`` of dark table along a side."""
    h, w = template.shape[:2]
    out = np.full_like(template, 35)
    if side == "left":
        out[:, px:] = cv2.resize(template, (w - px, h), interpolation=cv2.INTER_AREA)
    else:
        out[px:, :] = cv2.resize(template, (w, h - px), interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.resize(out, (2 * w, 2 * h), interpolation=cv2.INTER_CUBIC), np.uint8)


def test_a_scan_holding_table_is_cut_again_or_refused_and_says_so(
        tmp_path: Path, wink: Deck) -> None:
    deck_dir = tmp_path / "deck"
    write_demo_deck("wink", deck_dir)
    src = tmp_path / "src"
    src.mkdir()
    _write(src / "w02.png", _cut_too_large(wink.template("w02"), 5))
    report = enroll_from_images(deck_dir, src)
    status = {i.card_id: (i.enrolled, i.how, i.reason) for i in report.items}
    assert status["w02"][0] is True and "re-cut" in status["w02"][1]
    assert "re-cut" in report.text()
    m = DeckMatcher.from_deck(load_deck(deck_dir))
    assert m.match(wink.template("w02")).card_id == "w02"
    # A quarter of the template table (no sliver): refused, saying which side and why.
    bad = np.asarray(cv2.resize(_cut_too_large(wink.template("w03"), 70, "top"), wink.size,
                                interpolation=cv2.INTER_AREA), np.uint8)
    with pytest.raises(EnrolError, match=r"top.*cut too large"):
        checked_template(bad, wink.size, "scan")
    clean = wink.template("w03")
    assert checked_template(clean, wink.size, "scan") == (clean, "scan")
