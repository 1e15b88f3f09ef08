"""One frame of the device protocol (frame format 1): pure ``encode`` and ``decode``.

Layout (big-endian)::

    0  SOF     0xA5
    1  VER     0x01
    2  KIND    'Q' request, 'R' reply, 'E' event, 'A' ack, 'N' nak (ASCII)
    3  SEQ     0..255
    4  LEN     2 bytes, payload length 0..1024
    6  HCRC    CRC-8/SMBUS of bytes 1..5
    7  PAYLOAD LEN bytes
    .  CRC     2 bytes, CRC-16/CCITT-FALSE of bytes 1..6+LEN (VER through PAYLOAD)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from ..errors import ChecksumError, FrameError
from .crc import crc8_smbus, crc16_ccitt_false

SOF = 0xA5
FRAME_VERSION = 1
"""The frame layout's version, the VER byte (unchanged since version 1)."""
PROTOCOL_VERSION = 2
"""The message protocol a hello names (``proto``): 2 since the hello's challenge-response."""
HEADER_SIZE = 7
TRAILER_SIZE = 2
OVERHEAD = HEADER_SIZE + TRAILER_SIZE
MAX_PAYLOAD = 1024
MAX_FRAME = OVERHEAD + MAX_PAYLOAD


class Kind(IntEnum):
    """What a frame carries; the value is the ASCII letter sent on the wire."""

    REQUEST = ord("Q")
    REPLY = ord("R")
    EVENT = ord("E")
    ACK = ord("A")
    NAK = ord("N")

    @property
    def letter(self) -> str:
        """The one-letter text form (``Q``, ``R``, ``E``, ``A``, ``N``)."""
        return chr(self.value)

    @classmethod
    def from_letter(cls, letter: str) -> Kind:
        """The kind named by its letter; ``FrameError`` for any other text."""
        if len(letter) == 1:
            try:
                return cls(ord(letter))
            except ValueError:
                pass
        raise FrameError(f"unknown frame kind {letter!r}: expected one of Q R E A N")


_KINDS = frozenset(k.value for k in Kind)
_TEXT = re.compile(r"([QREAN]) (\d{1,3})(?: (.*))?", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Frame:
    """A decoded frame: its kind, sequence number and raw payload."""

    kind: Kind
    seq: int
    payload: bytes = b""

    def __post_init__(self) -> None:
        if not 0 <= self.seq <= 255:
            raise FrameError(f"sequence number {self.seq!r} is outside 0..255")
        if len(self.payload) > MAX_PAYLOAD:
            raise FrameError(f"payload of {len(self.payload)} bytes exceeds {MAX_PAYLOAD}")

    def __str__(self) -> str:
        text = self.payload.decode("ascii", "backslashreplace")
        return f"{self.kind.letter} {self.seq}" + (f" {text}" if text else "")

    @classmethod
    def parse(cls, text: str) -> Frame:
        """The frame written as ``KIND SEQ [PAYLOAD]`` (e.g. ``Q 3 DEAL``), an ASCII payload."""
        match = _TEXT.fullmatch(text.strip())
        if match is None:
            raise FrameError(f"not a frame in text form (KIND SEQ [PAYLOAD]): {text!r}")
        try:
            payload = (match.group(3) or "").encode("ascii")
        except UnicodeEncodeError as err:
            raise FrameError(f"frame text payload is not ASCII: {text!r}") from err
        return cls(Kind.from_letter(match.group(1)), int(match.group(2)), payload)


def encode(frame: Frame) -> bytes:
    """The bytes of ``frame`` on the wire."""
    n = len(frame.payload)
    header = bytes((FRAME_VERSION, frame.kind.value, frame.seq, n >> 8, n & 0xFF))
    body = header + bytes((crc8_smbus(header),)) + frame.payload
    return bytes((SOF,)) + body + crc16_ccitt_false(body).to_bytes(2, "big")


def check_header(data: bytes | bytearray, start: int = 0) -> int:
    """Validate the 7-byte header at ``start`` and return the payload length.

    Raises ``FrameError`` naming the first bad field; ``data`` must hold the whole header.
    """
    if data[start] != SOF:
        raise FrameError(f"start byte is 0x{data[start]:02X}, expected 0x{SOF:02X}")
    if crc8_smbus(memoryview(data)[start + 1 : start + 6]) != data[start + 6]:
        raise FrameError("header CRC-8 mismatch")
    if data[start + 1] != FRAME_VERSION:
        raise FrameError(f"protocol version {data[start + 1]!r} is not {FRAME_VERSION}")
    if data[start + 2] not in _KINDS:
        raise FrameError(f"unknown frame kind 0x{data[start + 2]:02X}")
    length = (data[start + 4] << 8) | data[start + 5]
    if length > MAX_PAYLOAD:
        raise FrameError(f"payload length {length} exceeds {MAX_PAYLOAD}")
    return length


def decode_at(data: bytes | bytearray, start: int, length: int) -> Frame:
    """The frame at ``start`` whose header ``check_header`` accepted with ``length``.

    Raises ``ChecksumError`` (carrying kind and sequence number) when the CRC-16 fails.
    """
    end = start + HEADER_SIZE + length
    body = memoryview(data)[start + 1 : end]
    kind, seq = data[start + 2], data[start + 3]
    if crc16_ccitt_false(body) != int.from_bytes(data[end : end + 2], "big"):
        raise ChecksumError(f"CRC-16 mismatch in {chr(kind)} frame {seq}", kind, seq)
    return Frame(Kind(kind), seq, bytes(data[start + HEADER_SIZE : end]))


def decode(data: bytes | bytearray) -> Frame:
    """The one frame that ``data`` holds exactly; ``FrameError`` (or ``ChecksumError``) if not."""
    if len(data) < OVERHEAD:
        raise FrameError(f"{len(data)} bytes is shorter than the {OVERHEAD}-byte minimum frame")
    length = check_header(data)
    if len(data) != OVERHEAD + length:
        raise FrameError(
            f"header says {OVERHEAD + length} bytes, got {len(data)}"
        )
    return decode_at(data, 0, length)
