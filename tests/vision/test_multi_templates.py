"""Several templates per card: the deck format (version 2), enrolment of several photos of a
card, and the matcher scoring a card by its best template."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablekeeper.cli import main
from vision.deck import MANIFEST, MAX_TEMPLATES, CardSpec, Deck, DeckError, load_deck, save_deck
from vision.enroll import NewDeck, enroll_from_images
from vision.match import DeckMatcher

DemoDecks = Callable[[str], Deck]


@pytest.fixture
def wink(demo_decks: DemoDecks) -> Deck:
    return demo_decks("wink")


def _small(wink: Deck, root: Path, ids: tuple[str, ...] = ("w01", "w02", "w03")) -> Deck:
    deck = Deck(root=root, id="mine", game="wink", title_zh="我的", title_en="Mine", demo=False,
                shape="card", size=wink.size, use_colour=True, cards=())
    for cid in ids:
        deck = deck.with_card(CardSpec(cid, cid, cid, "card", f"{cid}.png"), wink.template(cid))
    return deck


def _write(path: Path, image: np.ndarray) -> None:
    ok, buf = cv2.imencode(path.suffix, image)
    assert ok
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.tobytes())


def test_several_templates_saved_and_loaded(wink: Deck, tmp_path: Path) -> None:
    deck = _small(wink, tmp_path / "d")
    spec = deck.card("w01")
    deck = deck.with_card(spec, wink.template("w01"), [wink.template("w10"),
                                                        wink.template("w11")])
    assert deck.card("w01").alternates == ("w01@2.png", "w01@3.png")
    loaded = save_deck(deck)
    raw = json.loads((tmp_path / "d" / MANIFEST).read_text(encoding="utf-8"))
    assert raw["version"] == 2
    assert raw["cards"][0]["alternates"] == ["w01@2.png", "w01@3.png"]
    assert (tmp_path / "d" / "w01@3.png").is_file()
    got = loaded.templates_of("w01")
    assert len(got) == 3
    for a, b in zip(got, (wink.template("w01"), wink.template("w10"), wink.template("w11")),
                    strict=True):
        assert np.array_equal(a, b)
    assert len(loaded.templates_of("w02")) == 1
    # Re-enrolled from one photo: its templates are replaced, the manifest back to version 1.
    again = save_deck(loaded.with_card(loaded.card("w01"), wink.template("w01")))
    assert again.card("w01").alternates == () and len(again.templates_of("w01")) == 1
    assert json.loads((tmp_path / "d" / MANIFEST).read_text(encoding="utf-8"))["version"] == 1


def test_an_old_deck_loads_unchanged(wink: Deck, tmp_path: Path) -> None:
    saved = save_deck(_small(wink, tmp_path / "old"))
    raw = json.loads((tmp_path / "old" / MANIFEST).read_text(encoding="utf-8"))
    assert raw["version"] == 1 and all("alternates" not in c for c in raw["cards"])
    # A version 1 manifest as an older tablekeeper wrote it (no alternates anywhere).
    assert saved.ids == ("w01", "w02", "w03")
    assert all(len(saved.templates_of(c)) == 1 for c in saved.ids)
    m = DeckMatcher.from_deck(saved)
    assert m.template_count == 3
    assert m.match(wink.template("w02")).card_id == "w02"
    # alternates belong to version 2 only
    raw["cards"][0]["alternates"] = ["w01@2.png"]
    (tmp_path / "old" / MANIFEST).write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(DeckError, match="alternates need a version 2 manifest"):
        load_deck(tmp_path / "old")


def test_a_missing_alternate_is_named(wink: Deck, tmp_path: Path) -> None:
    deck = _small(wink, tmp_path / "d")
    save_deck(deck.with_card(deck.card("w02"), wink.template("w02"), [wink.template("w20")]))
    (tmp_path / "d" / "w02@2.png").unlink()
    with pytest.raises(DeckError, match=r"card 'w02': image w02@2.png is missing"):
        load_deck(tmp_path / "d")


def test_at_most_max_templates(wink: Deck, tmp_path: Path) -> None:
    deck = _small(wink, tmp_path / "d")
    t = wink.template("w01")
    with pytest.raises(DeckError, match=f"at most {MAX_TEMPLATES}"):
        deck.with_card(deck.card("w01"), t, [t] * MAX_TEMPLATES)


def test_matcher_scores_a_card_by_its_best_template(wink: Deck, tmp_path: Path) -> None:
    one = _small(wink, tmp_path / "one")
    # The card w01 photographed two ways: its second template is another picture (w30).
    two = one.with_card(one.card("w01"), wink.template("w01"), [wink.template("w30")])
    seen = wink.template("w30")
    rng = np.random.default_rng(3)
    noisy = np.clip(seen.astype(np.int16) + rng.integers(-12, 13, seen.shape), 0,
                    255).astype(np.uint8)
    m1 = DeckMatcher.from_deck(one)
    m2 = DeckMatcher.from_deck(two)
    assert m2.template_count == 4
    assert m1.match(noisy).card_id != "w01"  # with its first template only: not w01
    got = m2.match(noisy)
    assert got.card_id == "w01" and got.template == 1 and got.score > 0.9
    first = m2.match(wink.template("w01"))
    assert first.card_id == "w01" and first.template == 0
    assert m2.match(wink.template("w02")).card_id == "w02"
    # The per-card scores are the best template's, and verify aligns to that template.
    assert m2.scores(noisy)[0] == pytest.approx(got.score, abs=1e-6)
    grey = np.asarray(cv2.cvtColor(noisy, cv2.COLOR_BGR2GRAY), np.uint8)
    h, w = noisy.shape[:2]
    quad = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]],
                    np.float32)
    again = m2.realign(noisy, grey, quad, got)
    assert again is not None and again[1].card_id == "w01" and again[1].template == 1
    assert m2.nbytes() > m1.nbytes() > 0


def test_one_template_each_scores_as_before(wink: Deck) -> None:
    ids = wink.ids[:8]
    flat = DeckMatcher(ids, [wink.template(i) for i in ids], wink.size, use_colour=True)
    listed = DeckMatcher(ids, [[wink.template(i)] for i in ids], wink.size, use_colour=True)
    patches = [wink.template(i) for i in ids]
    assert np.array_equal(flat.score_matrix(patches), listed.score_matrix(patches))
    assert [m.card_id for m in flat.match_many(patches)] == list(ids)


def test_enrol_several_photos_of_a_card(wink: Deck, tmp_path: Path) -> None:
    src = tmp_path / "photos"
    _write(src / "w01.png", wink.template("w01"))
    _write(src / "w01@2.png", wink.template("w01"))
    _write(src / "w02" / "a.png", wink.template("w02"))
    _write(src / "w02" / "b.jpg", wink.template("w02"))
    (src / "w02" / "c.png").write_bytes(b"not a png at all")  # an unreadable shot
    _write(src / "w03.png", wink.template("w03"))
    new = NewDeck(id="mine", game="wink", size=wink.size)
    report = enroll_from_images(tmp_path / "deck", src, new=new)
    bad = [i for i in report.skipped]
    assert [(i.card_id, i.source.name) for i in bad] == [("w02", "c.png")]
    assert report.written and not report.complete
    deck = load_deck(tmp_path / "deck")
    assert deck.ids == ("w01", "w02", "w03")
    assert len(deck.templates_of("w01")) == 2
    assert len(deck.templates_of("w02")) == 2
    assert len(deck.templates_of("w03")) == 1
    assert "c.png" in report.text()
    assert "saved the 3 card(s) enrolled from 5 photos" in report.text()


def test_enrol_cli_reports_the_unreadable_shot(wink: Deck, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "photos"
    for k in range(3):
        _write(src / "w05" / f"{k}.png", wink.template("w05"))
    (src / "w05" / "3.png").write_bytes(b"\x89PNG broken")
    _write(src / "w06.png", wink.template("w06"))
    capsys.readouterr()
    rc = main(["vision", "enroll", "--deck", str(tmp_path / "deck"), "--from-images",
               str(src), "--game", "wink"])
    out = capsys.readouterr()
    assert rc == 1  # not every photo enrolled
    assert "3.png" in out.out + out.err
    deck = load_deck(tmp_path / "deck")
    assert len(deck.templates_of("w05")) == 3 and len(deck.templates_of("w06")) == 1


def test_more_photos_than_kept_are_skipped(wink: Deck, tmp_path: Path) -> None:
    src = tmp_path / "photos"
    for k in range(MAX_TEMPLATES + 2):
        _write(src / "w07" / f"{k:02d}.png", wink.template("w07"))
    report = enroll_from_images(tmp_path / "deck", src,
                                new=NewDeck(id="mine", game="wink", size=wink.size))
    assert len(report.skipped) == 2
    assert all("most templates" in i.reason for i in report.skipped)
    assert len(load_deck(tmp_path / "deck").templates_of("w07")) == MAX_TEMPLATES


def test_a_big_deck_shortlists_a_card_by_its_best_template(demo_decks: DemoDecks) -> None:
    deck = demo_decks("eselsbruecke")  # 181 tiles: the 16 px shortlist runs first
    ids = deck.ids
    other = np.ascontiguousarray(255 - deck.template(ids[5]))  # a face like no tile
    templates: list[list[np.ndarray]] = [[deck.template(i)] for i in ids]
    templates[5].append(other)
    m = DeckMatcher(ids, templates, deck.size, square=deck.shape == "square",
                    use_colour=deck.use_colour)
    assert m._coarse is not None and m.template_count == len(ids) + 1
    got = m.match(other)
    assert got.card_id == ids[5] and got.template == 1
    assert m.match(deck.template(ids[7])).card_id == ids[7]
