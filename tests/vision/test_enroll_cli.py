"""Enrolment that does not get in the way (issue 16 item 5), at the command line where the
behaviour is the command's: a close-up photo is enrolled, a background-removed PNG is cut
out by its alpha channel, a flat scan is never "2 cards", a partly failed enrolment saves the
cards it could and says which it skipped and why (exit 0 only when every card was enrolled),
and ``--id`` defaults to the deck folder's name."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest
from table_photos import Look, card_corners, photo, rounded_mask

from tablekeeper.cli import main
from vision.deck import Deck, load_deck
from vision.enroll import deck_id_from_folder, template_from_image
from vision.match import DeckMatcher

DemoDecks = Callable[[str], Deck]


def _save(path: Path, image: np.ndarray) -> Path:
    ok, buf = cv2.imencode(path.suffix, image)
    assert ok
    path.write_bytes(buf.tobytes())
    return path


def _enrol(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str]:
    capsys.readouterr()
    rc = main(["vision", "enroll", *map(str, args)])
    out = capsys.readouterr()
    return rc, out.out + out.err


def _close_up(deck: Deck, card_id: str, seed: int) -> np.ndarray:
    """A 640x640 photo of one card about 440x630 px on a dark table, rounded corners."""
    corners = card_corners((320 + seed % 7, 320), 440, 630, (seed % 5 - 2) * 0.4)
    return photo(deck.template(card_id), (640, 640), corners, Look("dark", radius=0.05),
                 seed=seed)


def test_a_close_up_photo_is_enrolled(demo_decks: DemoDecks) -> None:
    for name in ("the-game", "wink", "something-missing-items"):
        deck = demo_decks(name)
        matcher = DeckMatcher.from_deck(deck)
        for k, cid in enumerate(list(deck.ids)[:: max(1, len(deck.ids) // 6)]):
            t, how = template_from_image(_close_up(deck, cid, k), deck.size)
            assert how == "photo", (name, cid)
            # (The best match and how well: whether the margin to a near-twin is enough to
            # name it is the matcher's business, not enrolment's.)
            m = matcher.match(t)
            assert m.best_id == cid and m.score >= 0.95, (name, cid, m)


def test_a_close_up_at_the_command_line(tmp_path: Path, demo_decks: DemoDecks,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    deck = demo_decks("the-game")
    src = tmp_path / "photos"
    src.mkdir()
    ids = list(deck.ids)[10:13]
    for k, cid in enumerate(ids):
        _save(src / f"{cid}.jpg", _close_up(deck, cid, k))
    rc, out = _enrol(capsys, "--deck", tmp_path / "mine", "--from-images", src, "--game",
                     "the-game")
    assert rc == 0, out
    assert "every card enrolled (3)" in out
    mine = load_deck(tmp_path / "mine")
    matcher = DeckMatcher.from_deck(deck)
    for cid in ids:
        assert matcher.match(mine.template(cid)).best_id == cid


def _cut_out(face: np.ndarray, angle: float, pad: int = 40) -> np.ndarray:
    """``face`` as a background-removed PNG would have it: BGRA, the card (rounded corners)
    turned by ``angle`` on a transparent canvas, the colour under the transparent pixels
    anything (here: noise)."""
    fh, fw = face.shape[:2]
    W = H = int(np.hypot(fw, fh)) + 2 * pad
    corners = card_corners((W / 2, H / 2), fw, fh, angle)
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    m = cv2.getPerspectiveTransform(src, corners)
    bgr = cv2.warpPerspective(face, m, (W, H))
    alpha = cv2.warpPerspective(rounded_mask(fw, fh, 0.05 * fw), m, (W, H))
    noise = np.random.default_rng(5).integers(0, 256, (H, W, 3), dtype=np.uint8)
    a = alpha[:, :, None]
    bgr = (bgr * a + noise * (1 - a)).astype(np.uint8)
    return np.dstack([bgr, np.rint(alpha * 255).astype(np.uint8)])


def test_a_transparent_png_is_cut_out_by_its_alpha(tmp_path: Path, demo_decks: DemoDecks,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    deck = demo_decks("wink")
    matcher = DeckMatcher.from_deck(deck)
    src = tmp_path / "cutouts"
    src.mkdir()
    ids = ["w03", "w17", "w30"]
    for k, cid in enumerate(ids):
        face = cv2.resize(deck.template(cid), (400, 600), interpolation=cv2.INTER_CUBIC)
        rgba = _cut_out(face, angle=[0.0, 7.0, -95.0][k])
        t, how = template_from_image(rgba, deck.size)
        assert how == "cut-out"
        assert matcher.match(t).best_id == cid and matcher.match(t).score >= 0.95
        _save(src / f"{cid}.png", rgba)
    rc, out = _enrol(capsys, "--deck", tmp_path / "cut", "--from-images", src, "--game", "wink")
    assert rc == 0, out
    assert out.count("(cut-out)") == 3
    cut = load_deck(tmp_path / "cut")
    for cid in ids:
        assert matcher.match(cut.template(cid)).best_id == cid


def test_an_opaque_png_is_not_a_cut_out(demo_decks: DemoDecks) -> None:
    deck = demo_decks("wink")
    t = deck.template("w05")
    rgba = np.dstack([t, np.full(t.shape[:2], 255, np.uint8)])
    out, how = template_from_image(rgba, deck.size)
    assert how == "scan" and np.abs(out.astype(int) - t.astype(int)).mean() < 3


@pytest.mark.parametrize("name", ["the-game", "wink", "something-missing-items",
                                  "something-missing-scenes", "eselsbruecke"])
def test_a_flat_scan_is_never_two_cards(demo_decks: DemoDecks, name: str) -> None:
    """Every face of every demo deck, as a flat scan at 1x and 2x (and scenes whose pictures
    hold card-shaped things, which were taken for a card in a photo): a scan, the face."""
    deck = demo_decks(name)
    for cid in deck.ids:
        face = deck.template(cid)
        for f in (1.0, 2.0):
            scan = np.asarray(cv2.resize(face, None, fx=f, fy=f,
                                         interpolation=cv2.INTER_CUBIC), np.uint8)
            out, how = template_from_image(scan, deck.size)
            assert how == "scan", (cid, f, how)
            assert np.abs(out.astype(int) - face.astype(int)).mean() < 6, (cid, f)


def test_a_partly_failed_enrolment_saves_what_it_could(
        tmp_path: Path, demo_decks: DemoDecks, capsys: pytest.CaptureFixture[str]) -> None:
    deck = demo_decks("wink")
    src = tmp_path / "photos"
    src.mkdir()
    for cid in ("w01", "w02", "w03"):
        _save(src / f"{cid}.png", deck.template(cid))
    (src / "w04.png").write_bytes(b"not a picture")
    _save(src / "w05.png", np.full((50, 400, 3), 200, np.uint8))  # a strip: no card in it
    (src / "README.txt").write_text("photos of my cards\n", encoding="utf-8")
    target = tmp_path / "decks" / "wink-mine"
    rc, out = _enrol(capsys, "--deck", target, "--from-images", src, "--game", "wink")
    assert rc == 1, out
    assert "enrolled 3, skipped 2" in out
    assert "skipped   w04" in out and "not a readable image" in out
    assert "skipped   w05" in out and "no card found" in out
    assert "ignored   README.txt" in out
    assert "saved the 3 card(s) enrolled; 2 image(s) skipped" in out
    saved = load_deck(target)
    assert saved.ids == ("w01", "w02", "w03") and saved.id == "wink-mine"
    # The two fixed, enrolled again into the deck now there: every card enrolled, exit 0
    # (the README is no card and does not count against it).
    _save(src / "w04.png", deck.template("w04"))
    _save(src / "w05.png", deck.template("w05"))
    rc, out = _enrol(capsys, "--deck", target, "--from-images", src, "--add")
    assert rc == 0, out
    assert len(load_deck(target).ids) == 5


def test_cards_of_the_manifest_still_missing_mean_exit_1(
        tmp_path: Path, demo_decks: DemoDecks, capsys: pytest.CaptureFixture[str]) -> None:
    deck = demo_decks("wink")
    src = tmp_path / "photos"
    src.mkdir()
    for cid in ("w01", "w02"):
        _save(src / f"{cid}.png", deck.template(cid))
    target = tmp_path / "deck"
    assert _enrol(capsys, "--deck", target, "--from-images", src, "--game", "wink")[0] == 0
    raw = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    raw["cards"].append(dict(raw["cards"][0], id="w09", file="w09.png"))
    (target / "manifest.json").write_text(json.dumps(raw), encoding="utf-8")
    rc, out = _enrol(capsys, "--deck", target, "--from-images", src)
    assert rc == 1 and "no template yet for 1 card(s): w09" in out


def test_the_id_defaults_to_the_folder_name(tmp_path: Path, demo_decks: DemoDecks,
                                            capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    deck = demo_decks("wink")
    src = tmp_path / "photos"
    src.mkdir()
    _save(src / "w01.png", deck.template("w01"))
    rc, out = _enrol(capsys, "--deck", tmp_path / "family-deck", "--from-images", src,
                     "--game", "wink")
    assert rc == 0, out
    assert load_deck(tmp_path / "family-deck").id == "family-deck"
    # A name that is no valid id gives one that is; "." is the folder's own name.
    rc, out = _enrol(capsys, "--deck", tmp_path / "My Cards (2)", "--from-images", src,
                     "--game", "wink")
    assert rc == 0, out
    assert load_deck(tmp_path / "My Cards (2)").id == "My-Cards-2"
    here = tmp_path / "kitchen_table"
    here.mkdir()
    monkeypatch.chdir(here)
    rc, out = _enrol(capsys, "--deck", ".", "--from-images", src, "--game", "wink")
    assert rc == 0, out
    assert load_deck(here).id == "kitchen_table"
    # --id still wins; without --game a new deck says what it needs.
    rc, out = _enrol(capsys, "--deck", tmp_path / "x", "--from-images", src, "--game", "wink",
                     "--id", "chosen")
    assert rc == 0 and load_deck(tmp_path / "x").id == "chosen"
    rc, out = _enrol(capsys, "--deck", tmp_path / "y", "--from-images", src)
    assert rc == 2 and "give its game (--game" in out and "defaults to the folder's name" in out
    assert deck_id_from_folder(Path(os.sep)) == "deck"
