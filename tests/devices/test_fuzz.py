"""Fuzzing the decoders with hypothesis: any bytes give frames or a clear error, never a crash,
and never a hang (each example runs under hypothesis's deadline)."""

from __future__ import annotations

import contextlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_interfaces.errors import FrameError, PayloadError
from firmware_interfaces.protocol import shaker, shuffler
from firmware_interfaces.protocol.frame import MAX_FRAME, SOF, Frame, Kind, decode, encode
from firmware_interfaces.protocol.payload import Message
from firmware_interfaces.protocol.stream import Damaged, StreamDecoder
from tests.devices.test_golden_frames import crc16_reference

frames = st.builds(
    Frame,
    st.sampled_from(list(Kind)),
    st.integers(0, 255),
    st.binary(max_size=300),
)
noise = st.binary(max_size=64)


@given(st.binary(max_size=2000))
def test_decode_any_bytes_gives_a_frame_or_a_frame_error(data: bytes) -> None:
    try:
        frame = decode(data)
    except FrameError:
        return
    assert encode(frame) == data


@given(frames)
def test_encode_then_decode_is_the_identity(frame: Frame) -> None:
    assert decode(encode(frame)) == frame


@given(st.lists(st.binary(max_size=200), max_size=40))
def test_the_stream_decoder_takes_any_chunks(chunks: list[bytes]) -> None:
    decoder = StreamDecoder()
    for chunk in chunks:
        for item in decoder.feed(chunk):
            assert isinstance(item, Frame | Damaged)
        assert decoder.pending < MAX_FRAME


@settings(max_examples=200)
@given(st.lists(st.tuples(noise, frames), max_size=12), noise, st.integers(1, 64))
def test_frames_hidden_in_noise_are_all_found_in_order(
    pieces: list[tuple[bytes, Frame]], tail: bytes, step: int
) -> None:
    wire = b"".join(n + encode(f) for n, f in pieces) + tail
    decoder = StreamDecoder()
    found = [
        item
        for i in range(0, len(wire), step)
        for item in decoder.feed(wire[i : i + step])
        if isinstance(item, Frame)
    ]
    it = iter(found)
    assert all(any(f == g for g in it) for _, f in pieces)  # a subsequence, in order


@settings(max_examples=20, deadline=2000)
@given(st.integers(0, 2**32), st.sampled_from([b"", bytes([SOF]), bytes([SOF, 1])]))
def test_a_long_run_of_noise_is_consumed_quickly(seed: int, bias: bytes) -> None:
    # 50 kB of noise, optionally thick with start bytes (every one a false start to check).
    data = bytearray(random.Random(seed).randbytes(50_000))
    if bias:
        data[:: 1 + len(bias)] = bias[:1] * len(data[:: 1 + len(bias)])
    decoder = StreamDecoder()
    decoder.feed(bytes(data))
    assert decoder.pending < MAX_FRAME


@given(st.binary(max_size=300))
def test_any_payload_gives_a_record_or_a_payload_error(payload: bytes) -> None:
    for catalogue in (shuffler.DEVICE_CATALOGUE, shuffler.REQUEST_CATALOGUE,
                      shaker.DEVICE_CATALOGUE, shaker.REQUEST_CATALOGUE):
        with contextlib.suppress(PayloadError):
            catalogue.decode(payload)


names = st.sampled_from([*sorted(shuffler.DEVICE_CATALOGUE.records), "DICE", "LID"])
words = st.from_regex(r"[a-z][a-z0-9_]{0,5}", fullmatch=True)
values = st.from_regex(r"[!-~]{1,8}", fullmatch=True)


@given(names, st.dictionaries(words, st.one_of(values, st.sampled_from(["1", "-", "As,Kd"]))))
def test_message_like_payloads_decode_or_name_the_problem(
    name: str, fields: dict[str, str]
) -> None:
    payload = str(Message(name, tuple(fields.items()))).encode()
    assert Message.parse(payload.decode()) == Message(name, tuple(fields.items()))
    for catalogue in (shuffler.DEVICE_CATALOGUE, shaker.DEVICE_CATALOGUE):
        try:
            record = catalogue.decode(payload)
        except PayloadError as err:
            assert str(err)
        else:
            assert catalogue.decode(str(record).encode()) == record


@given(st.binary(max_size=500))
def test_the_table_crc_matches_the_bitwise_definition(data: bytes) -> None:
    from firmware_interfaces.protocol.crc import crc16_ccitt_false

    assert crc16_ccitt_false(data) == crc16_reference(data)
