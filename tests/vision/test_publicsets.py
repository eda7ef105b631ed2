"""Public sets beyond tomwhite/set-game (``vision.publicsets``): exported from a git mirror
into the cache with a deterministic split and each card placed by its author's cut-out, a
clear skip where the mirror is absent, and the author's labels read right. The real photos
are measured by ``tablekeeper bench vision --tables``; here a tiny fake mirror stands in."""

from __future__ import annotations

import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import publicsets, realtables

#: (colour BGR, its label word) of the fake cards.
_INKS = (((40, 40, 220), "red"), ((60, 170, 30), "green"), ((150, 40, 120), "purple"))


def _card(colour: tuple[int, int, int], shape: str) -> np.ndarray:
    """A SET-like card lying on its long side (150x100): white, one coloured shape."""
    img = np.full((100, 150, 3), 235, np.uint8)
    if shape == "diamond":
        pts = np.array([[75, 15], [105, 50], [75, 85], [45, 50]], np.int32)
        cv2.fillPoly(img, [pts], colour)
    elif shape == "capsule":
        cv2.ellipse(img, (75, 50), (22, 38), 0, 0, 360, colour, -1)
    else:
        cv2.rectangle(img, (40, 30), (110, 70), colour, -1)
    return img


_SHAPES = {"diamond": "diamond", "capsule": "capsule", "squiggle": "bar"}


def _game(cards: list[tuple[int, str]]) -> tuple[np.ndarray, list[np.ndarray]]:
    """A photo (dark table) of ``cards`` (ink index, shape) in a row, and each card's cut-out
    as the author's finder saved it (his own crop, a little inside the card)."""
    table = np.full((600, 800, 3), 30, np.uint8)
    cuts = []
    for k, (ink, shape) in enumerate(cards):
        face = _card(_INKS[ink][0], _SHAPES[shape])
        x0, y0 = 40 + 190 * k, 200 + 20 * k
        table[y0:y0 + 100, x0:x0 + 150] = face
        cuts.append(face[4:96, 6:144].copy())
    return table, cuts


def _commit(repo: Path, files: dict[str, bytes]) -> Path:
    work = repo.parent / "work"
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    for rel, blob in files.items():
        (work / rel).parent.mkdir(parents=True, exist_ok=True)
        (work / rel).write_bytes(blob)
    subprocess.run(["git", "-C", str(work), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t",
                    "commit", "-qm", "data"], check=True)
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(repo)], check=True)
    return repo


def _jpg(img: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    return buf.tobytes()


def _fake_mirror(root: Path) -> Path:
    files: dict[str, bytes] = {}
    games = {4: [(0, "diamond"), (1, "capsule"), (2, "squiggle")],
             7: [(2, "diamond"), (0, "capsule"), (1, "squiggle"), (1, "diamond")]}
    for game, cards in games.items():
        photo, cuts = _game(cards)
        files[f"image-data/set-games/setgame{game}.jpg"] = _jpg(photo)
        for (ink, shape), cut in zip(cards, cuts, strict=True):
            name = f"{_INKS[ink][1]}-single-solid-{shape}.jpg"
            files[f"image-data/set-game-cards/setgame{game}/{name}"] = _jpg(cut)
    for ink, word in ((0, "red"), (1, "green")):
        for shape in ("diamond", "capsule"):
            files[f"image-data/all-cards/labeled/{word}-single-solid-{shape}.jpg"] = _jpg(
                _card(_INKS[ink][0], _SHAPES[shape]))
    repo = root / "mirrors" / "nicolashahn+set-solver" / "repo"
    repo.parent.mkdir(parents=True)
    return _commit(repo, files)


def test_the_sources_file_names_become_card_ids() -> None:
    assert publicsets.hahn_label("green-double-outline-capsule.jpg") == "2-green-empty-ovals"
    assert publicsets.hahn_label("red-single-stripes-squiggle") == "1-red-striped-squiggle"
    assert publicsets.hahn_label("purple-triple-solid-diamond.jpg") == (
        "3-purple-solid-diamonds")
    with pytest.raises(ValueError, match="not a SET card"):
        publicsets.hahn_label("blue-single-solid-diamond.jpg")


def test_an_absent_mirror_is_none_and_says_where_it_looked(tmp_path: Path) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"),
           publicsets.MIRRORS_ENV: str(tmp_path / "no-mirrors")}
    assert publicsets.public_set(publicsets.HAHN, environ=env) is None
    msg = publicsets.absent_message(publicsets.HAHN, env)
    assert "not shipped" in msg and "nicolashahn/set-solver" in msg and "MIT" in msg
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").rglob("*.csv"))
    with pytest.raises(ValueError, match="no public set"):
        publicsets.public_set("nonsense", environ=env)


def test_the_export_places_each_card_and_splits_the_same_way_every_time(
        tmp_path: Path) -> None:
    _fake_mirror(tmp_path)
    env = {publicsets.MIRRORS_ENV: str(tmp_path / "mirrors")}
    a = publicsets.public_set(publicsets.HAHN, cache=tmp_path / "a", environ=env)
    b = publicsets.public_set(publicsets.HAHN, cache=tmp_path / "b", environ=env)
    assert a is not None and b is not None
    assert (a / "tables.csv").read_text() == (b / "tables.csv").read_text()
    photos = realtables.load_tables(a)
    assert [(p.path.name, p.split) for p in photos] == [("setgame4.jpg", "tune"),
                                                         ("setgame7.jpg", "test")]
    # Each card at its place, left to right as laid: the cut-outs found their own card.
    assert photos[0].cards == ("1-red-solid-diamond", "1-green-solid-oval",
                               "1-purple-solid-squiggle")
    assert photos[1].cards == ("1-purple-solid-diamond", "1-red-solid-oval",
                               "1-green-solid-squiggle", "1-green-solid-diamond")
    img = realtables.read_photo(photos[0].path)
    boxes = photos[0].reference(img)
    assert boxes is not None and len(boxes) == 3
    # (the photo is 800 px wide: read at that size; the first card lies at x 40-190)
    assert 100 < float(boxes[0][:, 0].mean()) < 130
    # The games the mirror lacks are said, not silently dropped.
    notes = publicsets.notes_of(a)
    assert any("setgame5.jpg: not in the mirror" in n for n in notes)
    deck = publicsets.enrol_deck(a, (172, 268))
    assert deck.ids == ("1-green-solid-diamond", "1-green-solid-oval", "1-red-solid-diamond",
                        "1-red-solid-oval")
    assert deck.template("1-red-solid-oval").shape == (268, 172, 3)
    # Found in the cache the second time: the mirror is not needed any more.
    assert publicsets.public_set(publicsets.HAHN, cache=tmp_path / "a",
                                 environ={publicsets.MIRRORS_ENV: str(tmp_path / "x")}) == a


def test_a_photo_whose_cards_cannot_be_placed_is_left_out_and_said(tmp_path: Path) -> None:
    photo, cuts = _game([(0, "diamond"), (1, "capsule")])
    other, _ = _game([(2, "squiggle"), (2, "diamond")])  # the cut-outs of another photo
    files = {"image-data/set-games/setgame4.jpg": _jpg(other),
             "image-data/set-game-cards/setgame4/red-single-solid-diamond.jpg": _jpg(cuts[0]),
             "image-data/set-game-cards/setgame4/green-single-solid-capsule.jpg": _jpg(cuts[1]),
             "image-data/all-cards/labeled/red-single-solid-diamond.jpg": _jpg(photo)}
    repo = tmp_path / "mirrors" / "nicolashahn+set-solver" / "repo"
    repo.parent.mkdir(parents=True)
    _commit(repo, files)
    root = publicsets.public_set(publicsets.HAHN, cache=tmp_path / "c",
                                 environ={publicsets.MIRRORS_ENV: str(tmp_path / "mirrors")})
    assert root is not None
    assert realtables.load_tables(root) == []
    assert any("setgame4.jpg: only 0 of its 2 cards could be placed" in n
               for n in publicsets.notes_of(root))


def test_boxes_that_do_not_match_their_cards_are_refused(tmp_path: Path) -> None:
    (tmp_path / "tables.csv").write_text(
        'file,split,cards,boxes\na.jpg,test,1-red-solid-oval;1-red-solid-diamond,'
        '"[[[0.1, 0.1], [0.2, 0.1], [0.2, 0.3], [0.1, 0.3]]]"\n')
    with pytest.raises(ValueError, match="boxes do not match"):
        realtables.load_tables(tmp_path)


def test_the_tables_bench_names_the_public_set_it_skips(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from tablekeeper.cli import main
    from vision import realsets

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv(realsets.MIRROR_ENV, str(tmp_path / "no-mirror"))
    monkeypatch.setenv(publicsets.MIRRORS_ENV, str(tmp_path / "no-mirrors"))
    assert main(["bench", "vision", "--tables"]) == 0
    out = capsys.readouterr().out
    assert "hahn-set-games skipped" in out and "nicolashahn/set-solver" in out
