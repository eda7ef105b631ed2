"""Reading image files safely: the size an image file declares is checked before decoding.

A PNG of 20000x20000 px is a few kilobytes on disk and 1.2 GB once decoded (2.4 GB RSS and
11 s in OpenCV): on a Pi that is an out-of-memory kill. Every place that decodes an image file
(enrolment, a deck's templates, the camera's folder source, ``vision recognize``) goes through
:func:`decode_image`, which reads the width and height from the file's header first
(:func:`image_size`: PNG, JPEG, BMP, WebP, TIFF) and refuses the file when they are too large,
without decoding anything. A file in another format that OpenCV would decode (PNM, HDR, EXR,
JPEG 2000, ...) is refused too: its size would go unchecked.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import cv2
import numpy as np
import numpy.typing as npt

from ground.files import NotAFile, TooLarge, read_regular

Image = npt.NDArray[np.uint8]

#: The largest image decoded (pixels, and pixels a side): a 48-megapixel phone photo is
#: 8000x6000; decoding 50 M pixels takes 150 MB as BGR, which a Pi can spare.
MAX_IMAGE_PIXELS = 50_000_000
MAX_IMAGE_SIDE = 20_000
#: The largest image file read at all (a 50 M pixel PNG of noise is about 150 MB).
MAX_FILE_BYTES = 200_000_000


class ImageFileError(ValueError):
    """An image file that is not decoded (the reason is the message)."""


def image_size(head: bytes) -> tuple[int, int] | None:
    """(width, height) as a PNG, JPEG, BMP, WebP or TIFF file's header declares it, read from
    its first bytes without decoding anything; None for another format (or a header that does
    not say)."""
    if head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR" and len(head) >= 24:
        return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    if head[:2] == b"BM" and len(head) >= 26:
        w = int.from_bytes(head[18:22], "little", signed=True)
        h = int.from_bytes(head[22:26], "little", signed=True)
        return abs(w), abs(h)
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP" and len(head) >= 30:
        chunk = head[12:16]
        if chunk == b"VP8X":
            return (int.from_bytes(head[24:27], "little") + 1,
                    int.from_bytes(head[27:30], "little") + 1)
        if chunk == b"VP8L" and head[20] == 0x2F:
            bits = int.from_bytes(head[21:25], "little")
            return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if chunk == b"VP8 " and head[23:26] == b"\x9d\x01\x2a":
            return (int.from_bytes(head[26:28], "little") & 0x3FFF,
                    int.from_bytes(head[28:30], "little") & 0x3FFF)
        return None
    if head[:2] == b"\xff\xd8":
        return _jpeg_size(head)
    if head[:4] in (b"II*\0", b"MM\0*"):
        return _tiff_size(head)
    return None


def known_format(head: bytes) -> bool:
    """Does ``head`` start like a PNG, JPEG, BMP, WebP or TIFF file (whose size
    :func:`image_size` can read)?"""
    return (head[:8] == b"\x89PNG\r\n\x1a\n" or head[:2] in (b"BM", b"\xff\xd8")
            or (head[:4] == b"RIFF" and head[8:12] == b"WEBP")
            or head[:4] in (b"II*\0", b"MM\0*"))


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 9 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # no length
            i += 2
            continue
        length = int.from_bytes(data[i + 2:i + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):  # a start of frame
            return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7],
                                                                             "big")
        if marker == 0xDA or length < 2:  # the scan starts: no frame header before it
            return None
        i += 2 + length
    return None


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    """The first image's ImageWidth and ImageLength (tags 256, 257) of a TIFF file. (Only
    the first is checked: OpenCV's ``imdecode`` reads only the first page.)"""
    order: Literal["little", "big"] = "little" if data[:2] == b"II" else "big"
    if len(data) < 8:
        return None
    ifd = int.from_bytes(data[4:8], order)
    if ifd + 2 > len(data):
        return None
    n = int.from_bytes(data[ifd:ifd + 2], order)
    w = h = None
    for k in range(n):
        e = ifd + 2 + 12 * k
        if e + 12 > len(data):
            return None
        tag = int.from_bytes(data[e:e + 2], order)
        kind = int.from_bytes(data[e + 2:e + 4], order)
        if tag not in (256, 257):
            continue
        value = (int.from_bytes(data[e + 8:e + 10], order) if kind == 3
                 else int.from_bytes(data[e + 8:e + 12], order))
        if tag == 256:
            w = value
        else:
            h = value
    return (w, h) if w is not None and h is not None else None


def check_image_size(data: bytes, what: str = "the image") -> None:
    """ImageFileError if the header declares more than :data:`MAX_IMAGE_PIXELS` (or a side
    over :data:`MAX_IMAGE_SIDE`, or an empty image): refused before anything is decoded."""
    size = image_size(data)
    if size is None:
        return
    w, h = size
    if w <= 0 or h <= 0:
        raise ImageFileError(f"{what}: its header declares an empty image ({w}x{h})")
    if w > MAX_IMAGE_SIDE or h > MAX_IMAGE_SIDE or w * h > MAX_IMAGE_PIXELS:
        raise ImageFileError(f"{what}: its header declares {w}x{h} pixels, more than this box "
                             f"decodes ({MAX_IMAGE_PIXELS // 1_000_000} M pixels, "
                             f"{MAX_IMAGE_SIDE} a side); scale it down first")


def decode_image(data: npt.NDArray[np.uint8], what: str = "the image",
                 flags: int = cv2.IMREAD_COLOR) -> Image:
    """Decode an image file's bytes (BGR, or as ``flags`` say) once its header's size is
    checked (:func:`check_image_size`); ImageFileError saying why not."""
    head = data[:1 << 20].tobytes()  # (a JPEG's frame header follows its EXIF, <= 64 kB each)
    if not data.size:
        raise ImageFileError(f"{what} is not a readable image (the file is empty)")
    if not known_format(head):
        raise ImageFileError(f"{what} is not a readable image (not a PNG, JPEG, BMP, WebP or "
                             "TIFF file)")
    check_image_size(head, what)
    img = cv2.imdecode(data, flags)
    if img is None:
        raise ImageFileError(f"{what} is not a readable image (empty, truncated or not an "
                             "image format)")
    return np.asarray(img, dtype=np.uint8) if img.dtype == np.uint8 else _to_u8(img)


def _to_u8(img: npt.NDArray[np.generic]) -> Image:
    """A 16-bit image (PNG, TIFF) as 8 bits."""
    if img.dtype == np.uint16:
        return np.asarray(np.right_shift(img, 8), dtype=np.uint8)
    return np.asarray(np.clip(img, 0, 255), dtype=np.uint8)


def read_image_file(path: str | Path, what: str | None = None,
                    flags: int = cv2.IMREAD_COLOR) -> Image:
    """Read and decode an image file (:func:`decode_image`); ImageFileError saying why not."""
    p = Path(path)
    name = what or str(p)
    return decode_image(np.frombuffer(read_file_bytes(p, name), dtype=np.uint8), name, flags)


def read_file_bytes(p: Path, name: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``p`` (at most ``limit``), never blocking
    (:func:`ground.files.read_regular`); a FIFO, a socket, a device, a directory or a file
    too large is an ImageFileError saying so."""
    try:
        return read_regular(p, limit)
    except NotAFile as e:
        raise ImageFileError(f"cannot read {p}: it is {e.kind}, not an image file") from None
    except TooLarge:
        raise ImageFileError(f"{name}: the file is more than this box reads "
                             f"({limit // 1_000_000} MB)") from None
    except OSError as e:
        raise ImageFileError(f"cannot read {p}: {e.strerror or e}") from None
