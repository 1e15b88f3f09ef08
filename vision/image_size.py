"""An image file's width and height read from its header, before anything is decoded.

A file of a few hundred bytes may claim ten billion pixels; decoding it would ask for tens of
gigabytes.  ``check_size`` reads the dimensions a PNG, JPEG, GIF, BMP or WebP header states
and refuses an image larger than ``MAX_IMAGE_PIXELS`` with an ``ImageError`` naming the file;
other formats are left to OpenCV's own limit (its error is turned into an ``ImageError`` by the
reader).
"""

from __future__ import annotations

import struct

from .errors import ImageError


class ImageTooLargeError(ImageError):
    """An image whose header claims more pixels than the reader decodes (a decompression
    bomb): refused before decoding."""

MAX_IMAGE_PIXELS = 64_000_000
"""The most pixels an image may hold (a camera frame or a card face is a few million)."""

_PNG = b"\x89PNG\r\n\x1a\n"
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}  # JPEG frame headers, not DHT/JPG/DAC
_NO_LENGTH = frozenset({0x01, *range(0xD0, 0xD8)})  # JPEG markers that carry no segment


def _jpeg(data: bytes) -> tuple[int, int] | None:
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in _NO_LENGTH:
            at += 2
            continue
        (length,) = struct.unpack_from(">H", data, at + 2)
        if marker in _SOF:
            if at + 9 > len(data):
                return None
            height, width = struct.unpack_from(">HH", data, at + 5)
            return width, height
        if marker == 0xDA:  # the scan starts: no frame header came first
            return None
        at += 2 + length
    return None


def _webp(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return width, height
    if chunk == b"VP8L" and len(data) >= 25:
        (bits,) = struct.unpack_from("<I", data, 21)
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8 " and len(data) >= 30:
        width, height = struct.unpack_from("<HH", data, 26)
        return width & 0x3FFF, height & 0x3FFF
    return None


def dimensions(data: bytes) -> tuple[int, int] | None:
    """(width, height) as the header states them, or None for a format not read here."""
    if data.startswith(_PNG) and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack_from(">II", data, 16)
        return width, height
    if data.startswith(b"\xff\xd8"):
        return _jpeg(data)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack_from("<HH", data, 6)
        return width, height
    if data.startswith(b"BM") and len(data) >= 26:
        width, height = struct.unpack_from("<ii", data, 18)
        return abs(width), abs(height)  # a negative height: rows stored top-down
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return _webp(data)
    return None


def check_size(data: bytes, where: str, limit: int = MAX_IMAGE_PIXELS) -> None:
    """ImageError when the header of the image ``where`` claims more than ``limit`` pixels."""
    size = dimensions(data)
    if size is not None and size[0] * size[1] > limit:
        raise ImageTooLargeError(f"image {where!r} claims {size[0]}x{size[1]} pixels, more "
                                 f"than the {limit} this reader decodes")
