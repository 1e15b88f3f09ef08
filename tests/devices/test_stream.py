"""The stream decoder: any chunking, garbage between frames, damaged frames, false starts."""

from __future__ import annotations

import random

from firmware_interfaces.protocol.frame import SOF, Frame, Kind, encode
from firmware_interfaces.protocol.stream import Damaged, StreamDecoder

FRAMES = [
    Frame(Kind.REQUEST, 1, b"HELLO proto=1"),
    Frame(Kind.ACK, 1),
    Frame(Kind.REPLY, 1, b"PACKET shuffle=1 n=1 count=7 cards=As,Kd,Qh,9s,9c,4d,Jk"),
    Frame(Kind.EVENT, 200, bytes([SOF]) * 20),
    Frame(Kind.NAK, 255, b"crc"),
]
WIRE = b"".join(encode(f) for f in FRAMES)


def test_byte_by_byte_gives_the_same_frames() -> None:
    decoder = StreamDecoder()
    got = [item for byte in WIRE for item in decoder.feed(bytes([byte]))]
    assert got == FRAMES and decoder.pending == 0 and decoder.garbage_bytes == 0


def test_random_chunks_give_the_same_frames() -> None:
    rng = random.Random(4)
    for _ in range(50):
        decoder, got, i = StreamDecoder(), [], 0
        while i < len(WIRE):
            step = rng.randint(1, 40)
            got += decoder.feed(WIRE[i : i + step])
            i += step
        assert got == FRAMES


def test_garbage_and_false_starts_are_skipped() -> None:
    noise = bytes([SOF, 0x01, 0x51, 0x00, 0xFF, 0xFF, 0x00, SOF, SOF, 0x00, 0x42])
    decoder = StreamDecoder()
    got = decoder.feed(noise + encode(FRAMES[2]) + noise + encode(FRAMES[0]) + noise[:3])
    assert got == [FRAMES[2], FRAMES[0]]
    assert decoder.garbage_bytes == 2 * len(noise) and decoder.pending == 3


def test_a_phantom_length_never_stalls_the_decoder() -> None:
    # A false start byte with a huge length is refused by the header CRC at once.
    decoder = StreamDecoder()
    assert decoder.feed(bytes([SOF, 0x01, 0x51, 0x00, 0x04, 0x00, 0x00]) + encode(FRAMES[1])) == [
        FRAMES[1]
    ]


def test_a_damaged_frame_is_reported_and_the_next_one_found() -> None:
    damaged = bytearray(encode(FRAMES[2]))
    damaged[20] ^= 0x10
    decoder = StreamDecoder()
    got = decoder.feed(bytes(damaged) + encode(FRAMES[0]))
    assert got == [Damaged(Kind.REPLY, 1), FRAMES[0]] and decoder.damaged == 1


def test_a_truncated_frame_followed_by_a_good_one() -> None:
    decoder = StreamDecoder()
    got = decoder.feed(encode(FRAMES[2])[:30] + encode(FRAMES[4]) * 40)
    assert got[-1] == FRAMES[4] and got.count(FRAMES[4]) >= 39
