"""The deck folder format: round trip, atomic saving and every kind of bad deck."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.deck import (
    MANIFEST,
    CardSpec,
    Deck,
    DeckError,
    EncodedTemplates,
    load_deck,
    save_deck,
)

SIZE = (40, 60)


def _img(seed: int, size: tuple[int, int] = SIZE) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, (size[1], size[0], 3), dtype=np.uint8)


def _deck(root: Path) -> Deck:
    cards = (
        CardSpec("a", "甲", "A", "number", "a.png", value=1),
        CardSpec("b", "乙", "B", "scene", "b.png", contains=("a",)),
        CardSpec("c", "丙", "C", "number", "c.png", copies=2),
    )
    return Deck(root=root, id="tiny", game="wink", title_zh="小牌組", title_en="Tiny deck",
                demo=False, shape="card", size=SIZE, use_colour=True, cards=cards,
                templates={c.id: _img(i) for i, c in enumerate(cards)})


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    save_deck(_deck(tmp_path / "deck"))
    return tmp_path / "deck"


def test_round_trip(saved: Path) -> None:
    deck = load_deck(saved)
    original = _deck(saved)
    assert deck == original
    for c in original.cards:
        assert np.array_equal(deck.template(c.id), original.templates[c.id])
        assert deck.template(c.id).shape == (60, 40, 3)
        assert deck.template(c.id).dtype == np.uint8
    assert deck.card("b").contains == ("a",)
    assert deck.card("a").value == 1
    assert deck.card("c").copies == 2
    manifest = json.loads((saved / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["title"] == {"zh-TW": "小牌組", "en": "Tiny deck"}
    assert manifest["size"] == [40, 60]


def test_templates_are_read_only(saved: Path) -> None:
    t = load_deck(saved).template("a")
    with pytest.raises(ValueError):
        t[0, 0, 0] = 1


def test_unknown_card_is_a_key_error(saved: Path) -> None:
    deck = load_deck(saved)
    with pytest.raises(KeyError, match="no card 'zz'"):
        deck.card("zz")
    with pytest.raises(KeyError, match="no card 'zz'"):
        deck.template("zz")


def test_with_card_replaces_and_adds_and_save_only_writes_those(saved: Path) -> None:
    deck = load_deck(saved)
    mtime_c = (saved / "c.png").stat().st_mtime_ns
    new_a = _img(99)
    deck2 = deck.with_card(deck.card("a"), new_a).with_card(
        CardSpec("d", "丁", "D", "number", "d.png"), _img(100))
    assert deck2.ids == ("a", "b", "c", "d")
    os.utime(saved / "c.png", ns=(mtime_c - 10**9, mtime_c - 10**9))
    reloaded = save_deck(deck2, only=["a", "d"])
    assert (saved / "c.png").stat().st_mtime_ns == mtime_c - 10**9  # untouched
    assert np.array_equal(reloaded.template("a"), new_a)
    assert np.array_equal(reloaded.template("d"), _img(100))
    assert np.array_equal(reloaded.template("c"), deck.template("c"))
    assert not [p for p in saved.iterdir() if p.name.endswith(".tmp")]


def test_with_card_checks_size_and_duplicates(saved: Path) -> None:
    deck = load_deck(saved)
    with pytest.raises(DeckError, match=r"card 'a'.*50x60 px, expected 40x60"):
        deck.with_card(deck.card("a"), _img(1, (50, 60)))
    with pytest.raises(DeckError, match=r"file b.png is used by another card"):
        deck.with_card(CardSpec("x", "x", "x", "k", "b.png"), _img(1))


def test_grey_template_is_accepted_as_bgr(saved: Path) -> None:
    deck = load_deck(saved)
    deck2 = deck.with_card(deck.card("a"), np.full((60, 40), 77, np.uint8))
    assert deck2.template("a").shape == (60, 40, 3)


def test_save_to_another_folder_copies_everything(saved: Path, tmp_path: Path) -> None:
    copy = save_deck(load_deck(saved), tmp_path / "copy")
    original = load_deck(saved)
    assert copy.root == tmp_path / "copy"
    assert copy.manifest() == original.manifest()
    for cid in original.ids:
        assert np.array_equal(copy.template(cid), original.template(cid))


def test_save_refuses_unknown_only_and_missing_template(tmp_path: Path) -> None:
    deck = _deck(tmp_path / "d")
    with pytest.raises(DeckError, match=r"no card\(s\) \['zz'\]"):
        save_deck(deck, only=["zz"])
    bare = Deck(**{**deck.__dict__, "templates": {}})
    with pytest.raises(DeckError, match="card 'a' has no template"):
        save_deck(bare)
    assert not (tmp_path / "d" / MANIFEST).exists()


def test_failed_manifest_write_keeps_the_old_deck(saved: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    before = (saved / MANIFEST).read_bytes()
    deck = load_deck(saved).with_card(CardSpec("d", "丁", "D", "n", "d.png"), _img(5))
    real_replace = os.replace

    def failing_replace(src: Any, dst: Any) -> None:
        if str(dst).endswith(MANIFEST):
            raise OSError("disk full")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="disk full"):
        save_deck(deck)
    monkeypatch.undo()
    assert (saved / MANIFEST).read_bytes() == before
    assert load_deck(saved).ids == ("a", "b", "c")
    assert not [p for p in saved.iterdir() if p.name.endswith(".tmp")]


# ----------------------------------------------------------------------------- bad decks


def test_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(DeckError, match="does not exist"):
        load_deck(tmp_path / "nope")


def test_path_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    with pytest.raises(DeckError, match="is not a folder"):
        load_deck(tmp_path / "f")


def test_empty_folder(tmp_path: Path) -> None:
    with pytest.raises(DeckError, match="is empty"):
        load_deck(tmp_path)


def test_folder_without_manifest(saved: Path) -> None:
    (saved / MANIFEST).unlink()
    with pytest.raises(DeckError, match=f"has no {MANIFEST}"):
        load_deck(saved)


def test_manifest_not_json(saved: Path) -> None:
    (saved / MANIFEST).write_text("{not json", encoding="utf-8")
    with pytest.raises(DeckError, match="not valid JSON"):
        load_deck(saved)


def test_manifest_not_utf8(saved: Path) -> None:
    (saved / MANIFEST).write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(DeckError, match="not valid JSON"):
        load_deck(saved)


def test_deck_error_is_a_value_error() -> None:
    assert issubclass(DeckError, ValueError)


Edit = Callable[[dict[str, Any]], None]


def _set(key: str, value: Any) -> Edit:
    def edit(m: dict[str, Any]) -> None:
        m[key] = value
    return edit


def _card_set(i: int, key: str, value: Any) -> Edit:
    def edit(m: dict[str, Any]) -> None:
        m["cards"][i][key] = value
    return edit


def _drop(key: str) -> Edit:
    def edit(m: dict[str, Any]) -> None:
        del m[key]
    return edit


BAD_MANIFESTS: list[tuple[str, Edit, str]] = [
    ("no-schema", _drop("schema"), "schema must be 'tablekeeper.deck', found None"),
    ("schema", _set("schema", "other.deck"), "schema must be 'tablekeeper.deck'"),
    ("version-3", _set("version", 3), "unknown deck schema version 3"),
    ("version-str", _set("version", "1"), "version must be an integer"),
    ("no-id", _drop("id"), "id must be a non-empty string"),
    ("bad-id", _set("id", "a b/c"), "id 'a b/c' must be"),
    ("game", _set("game", "chess"), "game 'chess' is not one of"),
    ("title", _set("title", "Tiny"), "title must be an object"),
    ("title-en", _set("title", {"zh-TW": "小"}), "title must have non-empty zh-TW and en"),
    ("demo", _set("demo", "yes"), "demo must be true or false"),
    ("shape", _set("shape", "round"), "shape 'round' is not one of"),
    ("size", _set("size", [40]), "size must be"),
    ("size-zero", _set("size", [0, 60]), "size must be"),
    ("use_colour", _drop("use_colour"), "use_colour must be true or false"),
    ("no-cards", _set("cards", []), "cards must be a non-empty list"),
    ("card-not-object", _set("cards", ["a"]), r"cards\[0\]: must be an object"),
    ("card-no-id", _card_set(0, "id", ""), r"cards\[0\]: id must be a non-empty string"),
    ("card-name", _card_set(1, "name", {"en": "B"}), r"cards\[1\] \(b\): name must have"),
    ("card-kind", _card_set(0, "kind", 3), r"\(a\): kind must be a non-empty string"),
    ("card-file", _card_set(0, "file", "../a.png"), r"file '../a.png' must be a plain"),
    ("card-file-ext", _card_set(0, "file", "a.txt"), r"file 'a.txt' must be a plain"),
    ("card-value", _card_set(0, "value", "1"), r"value must be an integer"),
    ("card-contains", _card_set(1, "contains", "a"), r"contains must be a list of card ids"),
    ("card-copies", _card_set(2, "copies", 0), r"copies must be a positive integer"),
    ("duplicate-id", _card_set(1, "id", "a"), "duplicate card id 'a'"),
    ("duplicate-file", _card_set(1, "file", "a.png"), "file a.png is used by another card"),
]


@pytest.mark.parametrize(("edit", "message"), [(e, m) for _, e, m in BAD_MANIFESTS],
                         ids=[n for n, _, _ in BAD_MANIFESTS])
def test_bad_manifest(saved: Path, edit: Edit, message: str) -> None:
    path = saved / MANIFEST
    manifest = json.loads(path.read_text(encoding="utf-8"))
    edit(manifest)
    path.write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(DeckError, match=message) as exc:
        load_deck(saved)
    assert str(saved) in str(exc.value)


def test_manifest_not_an_object(saved: Path) -> None:
    (saved / MANIFEST).write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(DeckError, match="must be a JSON object"):
        load_deck(saved)


def test_missing_image(saved: Path) -> None:
    (saved / "b.png").unlink()
    with pytest.raises(DeckError, match=r"card 'b': image b.png is missing"):
        load_deck(saved)


@pytest.mark.parametrize("content", [b"", b"this is not a png"], ids=["empty", "garbage"])
def test_unreadable_image(saved: Path, content: bytes) -> None:
    (saved / "c.png").write_bytes(content)
    with pytest.raises(DeckError, match=r"card 'c': image c.png is not a readable image"):
        load_deck(saved)


def test_wrong_size_image(saved: Path) -> None:
    cv2.imwrite(str(saved / "b.png"), _img(3, (60, 40)))
    with pytest.raises(DeckError,
                       match=r"card 'b' \(b.png\): template is 60x40 px, expected 40x60"):
        load_deck(saved)


def test_loaded_deck_keeps_its_files_bytes_not_decoded_templates(tmp_path: Path) -> None:
    """Memory: a loaded deck holds its templates as the files' bytes (a PNG of a drawn card
    is a fraction of its pixels) and decodes one when asked, the same every time."""
    cards = tuple(CardSpec(f"p{i}", "牌", "card", "number", f"p{i}.png") for i in range(3))
    plain = np.full((300, 200, 3), 240, np.uint8)
    pictures = []
    for i in range(3):
        img = plain.copy()
        cv2.circle(img, (100, 150), 20 + 20 * i, (40, 60 * i, 200), -1)
        pictures.append(img)
    save_deck(Deck(root=tmp_path, id="drawn", game="wink", title_zh="畫", title_en="Drawn",
                   demo=True, shape="card", size=(200, 300), use_colour=True, cards=cards,
                   templates={c.id: p for c, p in zip(cards, pictures, strict=True)}))
    deck = load_deck(tmp_path)
    assert len(deck.templates) == 3 and list(deck.templates) == ["p0", "p1", "p2"]
    assert isinstance(deck.templates, EncodedTemplates)
    # all three files together take less than one decoded card
    assert deck.templates.encoded_bytes < plain.nbytes
    for c, p in zip(cards, pictures, strict=True):
        first, again = deck.template(c.id), deck.templates[c.id]
        assert np.array_equal(first, p) and np.array_equal(again, p)
        assert not first.flags.writeable
    with pytest.raises(KeyError, match="no card"):
        deck.template("p9")
