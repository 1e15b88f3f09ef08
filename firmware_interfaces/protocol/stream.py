"""An incremental frame decoder for a byte stream that resynchronises after garbage (pure)."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ChecksumError, FrameError
from .frame import HEADER_SIZE, OVERHEAD, SOF, Frame, Kind, check_header, decode_at


@dataclass(frozen=True, slots=True)
class Damaged:
    """A frame whose header was sound but whose CRC-16 failed: the peer should get a NAK."""

    kind: Kind
    seq: int


class StreamDecoder:
    """Feed bytes as they arrive; get whole frames (and damaged-frame notices) back in order.

    Bytes that cannot start a frame are skipped and counted. A header is checked by its own
    CRC-8 before its length is believed, so noise never makes the decoder wait for a long
    phantom frame; a damaged frame is rescanned from its second byte, so a real frame hidden
    behind a false start byte is still found. The buffer never holds more than one frame.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self.frames = 0
        self.damaged = 0
        self.garbage_bytes = 0

    @property
    def pending(self) -> int:
        """Bytes held while waiting for the rest of a frame."""
        return len(self._buf)

    def reset(self) -> None:
        """Drop any partial frame (after the line was reopened)."""
        self._buf.clear()

    def feed(self, data: bytes | bytearray) -> list[Frame | Damaged]:
        """Add ``data`` and return every frame (or damaged frame) now complete."""
        buf = self._buf
        buf.extend(data)
        out: list[Frame | Damaged] = []
        i, size = 0, len(buf)
        while True:
            start = buf.find(SOF, i)
            if start < 0:
                self.garbage_bytes += size - i
                i = size
                break
            self.garbage_bytes += start - i
            i = start
            if size - i < HEADER_SIZE:
                break
            try:
                length = check_header(buf, i)
            except FrameError:
                self.garbage_bytes += 1
                i += 1
                continue
            if size - i < OVERHEAD + length:
                break
            try:
                out.append(decode_at(buf, i, length))
            except ChecksumError:
                self.damaged += 1
                self.garbage_bytes += 1
                out.append(Damaged(Kind(buf[i + 2]), buf[i + 3]))
                i += 1
                continue
            self.frames += 1
            i += OVERHEAD + length
        del buf[:i]
        return out
