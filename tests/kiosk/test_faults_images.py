"""Fault suite, images: a deck image whose header declares a huge size is refused before it
is decoded (a decompression bomb would take the Pi's memory)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.enroll import EnrolError, image_size, read_image


def _png(width: int, height: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body)))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


def _jpeg(width: int, height: int) -> bytes:
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0"
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 17, 8, height, width, 3) + b"\x01\x11\0" * 3
    return b"\xff\xd8" + app0 + sof + b"\xff\xd9"


def _bmp(width: int, height: int) -> bytes:
    return (b"BM" + struct.pack("<IHHI", 54, 0, 0, 54)
            + struct.pack("<IiiHHIIiiII", 40, width, -height, 1, 24, 0, 0, 0, 0, 0, 0))


def _webp(width: int, height: int) -> bytes:
    vp8x = b"VP8X" + struct.pack("<I", 10) + b"\0\0\0\0" + (width - 1).to_bytes(3, "little") \
        + (height - 1).to_bytes(3, "little")
    return b"RIFF" + struct.pack("<I", 4 + len(vp8x)) + b"WEBP" + vp8x


BOMBS = {
    "png 100000x100000": _png(100_000, 100_000),
    "png 20001x10": _png(20_001, 10),
    "png 0x0": _png(0, 0),
    "jpeg 65535x65535": _jpeg(65_535, 65_535),
    "bmp 60000x60000": _bmp(60_000, 60_000),
    "webp 16000x16000": _webp(16_000, 16_000),
}


@pytest.mark.parametrize("name", sorted(BOMBS))
def test_a_huge_declared_size_is_refused_before_decoding(tmp_path: Path, name: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / f"i01.{name.split()[0]}"
    path.write_bytes(BOMBS[name])

    def no_decoding(*_: Any) -> None:
        raise AssertionError("decoded")

    monkeypatch.setattr(cv2, "imdecode", no_decoding)
    with pytest.raises(EnrolError, match="header declares") as exc:
        read_image(path)
    assert str(path) in str(exc.value)


@pytest.mark.parametrize("ext", [".png", ".jpg", ".bmp", ".webp"])
def test_the_header_size_is_the_real_size(tmp_path: Path, ext: str) -> None:
    image = np.random.default_rng(1).integers(0, 255, (37, 53, 3), dtype=np.uint8)
    ok, buf = cv2.imencode(ext, image)
    assert ok
    assert image_size(buf.tobytes()) == (53, 37)
    path = tmp_path / f"i01{ext}"
    path.write_bytes(buf.tobytes())
    assert read_image(path).shape[:2] == (37, 53)  # an ordinary image still reads


def test_a_header_that_does_not_say_is_left_to_the_decoder(tmp_path: Path) -> None:
    path = tmp_path / "i01.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + b"junk")
    with pytest.raises(EnrolError, match="not a readable image"):
        read_image(path)
