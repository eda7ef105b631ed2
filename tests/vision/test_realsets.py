"""Real labelled photos (``vision.realsets``): skipped, saying why, where they are absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision import realsets

SET = realsets.find_set("set-crops")
needs_set = pytest.mark.skipif(SET is None, reason=realsets.absent_message("set-crops"))


def test_the_set_is_looked_for_where_the_environment_says(tmp_path: Path) -> None:
    assert realsets.find_set("set-crops", {realsets.ENV: str(tmp_path)}) is None
    (tmp_path / "set-crops").mkdir()
    (tmp_path / "set-crops" / "labels.csv").write_text("file,card\n", encoding="utf-8")
    assert realsets.find_set("set-crops", {realsets.ENV: str(tmp_path)}) == \
        tmp_path / "set-crops"
    assert "not shipped" in realsets.absent_message("set-crops")


def test_no_mirror_no_later_set(tmp_path: Path) -> None:
    env = {realsets.MIRROR_ENV: str(tmp_path / "absent"), "XDG_CACHE_HOME": str(tmp_path)}
    assert realsets.later_set(environ=env) is None


@needs_set
def test_split_keeps_the_halves_apart() -> None:
    assert SET is not None
    rs = realsets.load_set(SET)
    assert len(rs.cards) == 81
    tune, test = rs.split(10)
    assert len(tune) == len(test) == 810
    assert not {s.path for s in tune} & {s.path for s in test}


@needs_set
def test_real_set_cards_recognised_and_never_wrong() -> None:
    # One test shot per card, templates from each card's first shot, the default thresholds
    # (not the ones tuned by the bench): no wrong card, most recognised.
    assert SET is not None
    rs = realsets.load_set(SET)
    tune, _ = rs.split(10)
    ids, templates = realsets.enrol(tune, realsets.SET_SIZE, "first")
    m = realsets.set_matcher(ids, templates, realsets.SET_SIZE)
    shots = [rs.shots[c][12] for c in rs.cards]
    got = realsets.measure(m, shots, realsets.SET_SIZE)
    assert got.wrong == 0, got.wrong_examples
    assert got.correct >= 0.75 * len(shots)


def test_medoids_pick_one_shot_of_each_look(tmp_path: Path) -> None:
    import cv2
    import numpy as np

    rng = np.random.default_rng(5)
    sharp = np.zeros((268, 172, 3), np.uint8)
    cv2.rectangle(sharp, (30, 40), (140, 220), (200, 60, 60), -1)
    soft = np.asarray(cv2.GaussianBlur(np.roll(sharp, 60, axis=0), (0, 0), 6), np.uint8)
    shots = []
    for k, img in enumerate([sharp, sharp, soft, sharp, soft, soft]):
        noisy = np.clip(img + rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8)
        p = tmp_path / f"{k}.png"
        cv2.imwrite(str(p), noisy)
        shots.append(realsets.Shot("card", p))
    imgs = [realsets.read(s, realsets.SET_SIZE) for s in shots]
    pick = realsets.medoids(imgs, 2)
    assert len(pick) == 2 and {0, 1, 3} & set(pick) and {2, 4, 5} & set(pick)
    ids, templates, used = realsets.enrol_from(shots, realsets.SET_SIZE, "medoids-2")
    assert ids == ["card"] and len(templates[0]) == 2 and len(used) == 2
    _, clusters, _ = realsets.enrol_from(shots, realsets.SET_SIZE, "clusters-2")
    assert len(clusters[0]) == 2
    with pytest.raises(ValueError, match="medoids-K"):
        realsets.enrol_from(shots, realsets.SET_SIZE, "medoids-x")


def test_a_photo_claiming_a_huge_size_is_refused_from_its_header(tmp_path: Path) -> None:
    """The real-set bench reads photos we did not make: one whose header declares 20000 x 20000
    is refused before it is decoded (as everywhere else an image file is read)."""
    import struct
    import zlib

    from vision.imagefile import ImageFileError

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body)))

    ihdr = struct.pack(">IIBBBBB", 20_000, 20_000, 8, 2, 0, 0, 0)
    path = tmp_path / "bomb.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
                     + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))
    with pytest.raises(ImageFileError, match="20000"):
        realsets.read(realsets.Shot("1-red-oval-solid", path), (96, 144))
