"""Bad image files: an image whose header declares a huge size is refused from its header,
before anything is decoded, wherever an image file is decoded (enrolment and ``recognize``,
a deck's templates, the camera's folder source); a format whose size cannot be read first is
not decoded either."""

from __future__ import annotations

import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.camera import CameraError, FolderSource
from vision.deck import CardSpec, Deck, DeckError, load_deck, save_deck
from vision.enroll import EnrolError, enroll_from_images, read_image
from vision.imagefile import ImageFileError, image_size, read_image_file

ROOT = Path(__file__).resolve().parents[2]


def png_header(width: int, height: int) -> bytes:
    """A real PNG file (signature, IHDR, a tiny IDAT, IEND) that claims ``width`` x
    ``height``: a few dozen bytes."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body)))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


def png_bomb(width: int, height: int) -> bytes:
    """A *valid* PNG of ``width`` x ``height`` black pixels (deflate packs it ~1000:1): the
    decoder would really allocate it all."""
    row = b"\0" + b"\0" * (3 * width)
    comp = zlib.compressobj(6)
    body = b"".join(comp.compress(row) for _ in range(height)) + comp.flush()

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", body)
            + chunk(b"IEND", b""))


def tiff_header(width: int, height: int) -> bytes:
    entries = [(256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, 8), (277, 3, 1, 1)]
    ifd = struct.pack("<H", len(entries)) + b"".join(
        struct.pack("<HHII", tag, kind, n, v) for tag, kind, n, v in entries) + b"\0\0\0\0"
    return b"II*\0" + struct.pack("<I", 8) + ifd


def _refuse_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: Any) -> None:
        raise AssertionError("the image was decoded")

    monkeypatch.setattr(cv2, "imdecode", refuse)
    monkeypatch.setattr(cv2, "imread", refuse)


@pytest.fixture
def no_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    _refuse_decoding(monkeypatch)


def test_the_crafted_file_is_a_few_bytes_and_says_20000x20000() -> None:
    data = png_header(20_000, 20_000)
    assert len(data) < 100
    assert image_size(data) == (20_000, 20_000)
    assert image_size(tiff_header(30_000, 30_000)) == (30_000, 30_000)


def test_enrolment_refuses_it_from_the_header(tmp_path: Path, no_decoding: None) -> None:
    path = tmp_path / "big.png"
    path.write_bytes(png_header(20_000, 20_000))
    with pytest.raises(EnrolError, match="header declares 20000x20000 pixels"):
        read_image(path)
    with pytest.raises(EnrolError, match="header declares"):
        read_image(path, alpha=True)  # (the transparent-PNG path too)


def test_an_enrolment_folder_with_one_says_so_and_goes_on(tmp_path: Path) -> None:
    src = tmp_path / "photos"
    src.mkdir()
    (src / "big.png").write_bytes(png_header(20_000, 20_000))
    card = np.full((300, 200, 3), 230, np.uint8)
    cv2.rectangle(card, (20, 20), (180, 280), (40, 90, 200), -1)
    cv2.imwrite(str(src / "ok.png"), card)
    from vision.enroll import NewDeck

    report = enroll_from_images(tmp_path / "deck", src, new=NewDeck(id="d", game="wink"))
    why = {i.card_id: i.reason for i in report.skipped}
    assert "header declares 20000x20000" in why["big"]
    assert [i.card_id for i in report.enrolled] == ["ok"]


def test_a_deck_template_is_refused_from_the_header(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "deck"
    cards = (CardSpec("a", "甲", "A", "number", "a.png"),)
    save_deck(Deck(root=root, id="tiny", game="wink", title_zh="小", title_en="Tiny",
                   demo=False, shape="card", size=(40, 60), use_colour=True, cards=cards,
                   templates={"a": np.zeros((60, 40, 3), np.uint8)}))
    (root / "a.png").write_bytes(png_header(20_000, 20_000))
    _refuse_decoding(monkeypatch)
    with pytest.raises(DeckError, match=r"card 'a': image a.png: its header declares 20000x"):
        load_deck(root)


def test_the_camera_folder_source_refuses_it(tmp_path: Path, no_decoding: None) -> None:
    (tmp_path / "f0.png").write_bytes(png_header(20_000, 20_000))
    (tmp_path / "f1.tif").write_bytes(tiff_header(30_000, 30_000))
    src = FolderSource(tmp_path)
    src.start()
    with pytest.raises(CameraError, match=r"f0\.png: its header declares 20000x20000"):
        src.capture()
    with pytest.raises(CameraError, match=r"f1\.tif: its header declares 30000x30000"):
        src.capture()


def test_a_format_whose_size_is_not_read_is_not_decoded(tmp_path: Path,
                                                        no_decoding: None) -> None:
    path = tmp_path / "card.png"  # a PNM inside, named .png: OpenCV would decode it
    path.write_bytes(b"P6\n20000 20000\n255\n" + b"\0" * 64)
    with pytest.raises(ImageFileError, match="not a PNG, JPEG, BMP, WebP or TIFF"):
        read_image_file(path)


def test_ordinary_files_still_read(tmp_path: Path) -> None:
    image = np.random.default_rng(3).integers(0, 255, (37, 53, 3), dtype=np.uint8)
    for ext in (".png", ".jpg", ".bmp", ".webp", ".tif"):
        ok, buf = cv2.imencode(ext, image)
        assert ok
        assert image_size(buf.tobytes()) == (53, 37), ext
        path = tmp_path / f"x{ext}"
        path.write_bytes(buf.tobytes())
        assert read_image_file(path).shape == (37, 53, 3), ext
    ok, buf = cv2.imencode(".png", (image.astype(np.uint16) * 257))
    (tmp_path / "deep.png").write_bytes(buf.tobytes())
    assert np.array_equal(read_image_file(tmp_path / "deep.png"), image)  # 16 bits -> 8


def test_a_real_bomb_costs_no_memory_or_time(tmp_path: Path) -> None:
    """A valid 8000x8000 PNG (192 MB once decoded, 190 kB on disk), read in a fresh
    process: refused at once, the process stays small."""
    path = tmp_path / "bomb.png"
    path.write_bytes(png_bomb(8000, 8000))
    assert path.stat().st_size < 1_000_000
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from vision.enroll import EnrolError, read_image\n"
        "try:\n"
        "    read_image(Path(sys.argv[1]))\n"
        "except EnrolError as e:\n"
        "    print('refused', e)\n"
        # (VmHWM, not ru_maxrss: that keeps the forking parent's peak across exec.)
        "hwm = [ln for ln in open('/proc/self/status') if ln.startswith('VmHWM')]\n"
        "print(hwm[0].split()[1] if hwm else 0)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                         text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT)}, timeout=120,
                         check=True).stdout.split("\n")
    assert out[0].startswith("refused") and "8000x8000" in out[0], out
    assert int(out[1]) < 250_000, out  # kB: numpy + OpenCV loaded (~150 MB), no 192 MB buffer
