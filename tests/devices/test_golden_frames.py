"""Frames byte for byte against tests/golden/frames/*.txt, both ways, with a reference CRC."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_interfaces import errors
from firmware_interfaces.protocol import shaker, shuffler
from firmware_interfaces.protocol.frame import Frame, Kind, decode, encode
from firmware_interfaces.protocol.payload import decode_message

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "frames"
ZEROS = re.compile(r"<(\d+) zero bytes>")


def crc16_reference(data: bytes) -> int:
    """CRC-16/CCITT-FALSE bit by bit, straight from its definition (independent of the table)."""
    crc = 0xFFFF
    for byte in data:
        for bit in range(7, -1, -1):
            top = (crc >> 15) ^ ((byte >> bit) & 1)
            crc = ((crc << 1) & 0xFFFF) ^ (0x1021 if top else 0)
    return crc


def parse_hex(text: str) -> bytes:
    text = ZEROS.sub(lambda m: " 00" * int(m.group(1)), text)
    return bytes.fromhex(text)


def cases(name: str) -> list[dict[str, str]]:
    """The paragraphs of a golden file as {'frame'|'bytes'|'error': text}."""
    found = []
    for paragraph in (GOLDEN / name).read_text().split("\n\n"):
        case: dict[str, str] = {}
        key = ""
        for line in paragraph.splitlines():
            if line.startswith("#") or not line.strip():
                continue
            if line.startswith(" "):
                case[key] += " " + line.strip()
                continue
            key, _, value = line.partition(": ")
            case[key] = value
        if case:
            found.append(case)
    return found


GOOD = [(name, c) for name in ("link.txt", "shuffler.txt", "shaker.txt") for c in cases(name)]


def test_the_golden_files_hold_enough_cases() -> None:
    assert len(GOOD) >= 25 and len(cases("errors.txt")) >= 8
    assert {Frame.parse(c["frame"]).kind for _, c in GOOD} == set(Kind)


@pytest.mark.parametrize(("name", "case"), GOOD, ids=[c["frame"][:40] for _, c in GOOD])
def test_golden_frame_both_ways(name: str, case: dict[str, str]) -> None:
    frame, wire = Frame.parse(case["frame"]), parse_hex(case["bytes"])
    assert encode(frame).hex(" ") == wire.hex(" ")
    assert decode(wire) == frame and str(frame) == case["frame"]
    assert int.from_bytes(wire[-2:], "big") == crc16_reference(wire[1:-2])


@pytest.mark.parametrize(("name", "case"), GOOD, ids=[c["frame"][:40] for _, c in GOOD])
def test_golden_payloads_are_messages_of_the_device(name: str, case: dict[str, str]) -> None:
    frame = Frame.parse(case["frame"])
    if frame.kind in (Kind.ACK, Kind.NAK):
        return
    catalogue = {
        (Kind.REQUEST, "shuffler.txt"): shuffler.REQUEST_CATALOGUE,
        (Kind.REQUEST, "shaker.txt"): shaker.REQUEST_CATALOGUE,
        (Kind.REQUEST, "link.txt"): shuffler.REQUEST_CATALOGUE,
        (Kind.REPLY, "shaker.txt"): shaker.DEVICE_CATALOGUE,
        (Kind.EVENT, "shaker.txt"): shaker.DEVICE_CATALOGUE,
    }.get((frame.kind, name), shuffler.DEVICE_CATALOGUE)
    record = catalogue.decode(frame.payload)
    assert str(record) == str(decode_message(frame.payload)) == frame.payload.decode()


@pytest.mark.parametrize("case", cases("errors.txt"), ids=lambda c: c["error"][:40])
def test_golden_bad_frames_raise_the_named_error(case: dict[str, str]) -> None:
    kind, _, message = case["error"].partition(": ")
    with pytest.raises(errors.FrameError) as caught:
        decode(parse_hex(case["bytes"]))
    assert type(caught.value) is getattr(errors, kind)
    assert str(caught.value).startswith(message)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, errors.DeviceError)
