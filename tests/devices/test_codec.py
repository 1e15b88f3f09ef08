"""CRCs, the frame text form, the payload text form and typed records (pure, no I/O)."""

from __future__ import annotations

import pytest

from firmware_interfaces.errors import FrameError, PayloadError, ProtocolError
from firmware_interfaces.protocol import shaker, shuffler
from firmware_interfaces.protocol.common import ControlCmd, Err, HelloCmd, Ident
from firmware_interfaces.protocol.crc import (
    CRC8_CHECK,
    CRC16_CHECK,
    crc8_smbus,
    crc16_ccitt_false,
)
from firmware_interfaces.protocol.frame import MAX_PAYLOAD, Frame, Kind, decode, encode
from firmware_interfaces.protocol.payload import Message
from firmware_interfaces.protocol.records import encode_record
from firmware_interfaces.sim.base import firmware_hash


def test_crc_check_values_from_the_catalogue() -> None:
    assert crc16_ccitt_false(b"123456789") == CRC16_CHECK == 0x29B1
    assert crc8_smbus(b"123456789") == CRC8_CHECK == 0xF4
    assert crc16_ccitt_false(b"") == 0xFFFF
    assert crc16_ccitt_false(b"56789", crc16_ccitt_false(b"1234")) == CRC16_CHECK


def test_frame_limits() -> None:
    assert len(encode(Frame(Kind.EVENT, 0, b"x" * MAX_PAYLOAD))) == MAX_PAYLOAD + 9
    with pytest.raises(FrameError, match="exceeds 1024"):
        Frame(Kind.EVENT, 0, b"x" * (MAX_PAYLOAD + 1))
    with pytest.raises(FrameError, match="256"):
        Frame(Kind.ACK, 256)
    with pytest.raises(FrameError, match="not a frame"):
        Frame.parse("X 1 PING")
    assert decode(encode(Frame(Kind.NAK, 9, b"\xa5\x00\xff"))).payload == b"\xa5\x00\xff"


def test_message_text_round_trip_and_errors() -> None:
    message = Message.parse("PACKET shuffle=1 n=2 count=7 cards=As,Kd")
    assert str(message) == "PACKET shuffle=1 n=2 count=7 cards=As,Kd"
    assert message.get("cards") == "As,Kd" and message.get("nope") is None
    for bad, named in [
        ("", "empty"),
        ("deal", "'deal'"),
        ("DEAL n", "'n'"),
        ("DEAL n=1 n=2", "given twice"),
        ("DEAL N=1", "'N'"),
        ("DEAL n=", "value ''"),
    ]:
        with pytest.raises(PayloadError, match=named):
            Message.parse(bad)


def test_records_round_trip_through_their_catalogues() -> None:
    records = [
        shuffler.Packet(1, 3, 7, ("As", "Kd", "Qh", "9s", "9c", "4d", "Jk")),
        shuffler.Packet(1, 3, 7, None),
        shuffler.ShuffleResult(2, 52, "missing", ("7h",)),
        shuffler.ShufflerStatus("ready", False, 2, 0, 53),
        shuffler.ShufflerCounters(1, 2, 3, 4, 5, 6),
        Err("DEAL", "jam"),
        Ident("shuffler", "PGS-7", "S1", 1, "1.0", firmware_hash("PGS-7"), "secrets"),
    ]
    for record in records:
        assert shuffler.DEVICE_CATALOGUE.decode(encode_record(record)) == record
    dice = shaker.ShakeResult(4, (3, 5, 6), "ok", 87, "command")
    assert shaker.DEVICE_CATALOGUE.decode(encode_record(dice)) == dice
    control = ControlCmd((("garbage", "0.2"), ("jam_after", "2")))
    assert shuffler.REQUEST_CATALOGUE.decode(encode_record(control)) == control
    assert shuffler.REQUEST_CATALOGUE.decode(b"HELLO proto=1") == HelloCmd(1, None)


@pytest.mark.parametrize(
    ("payload", "named"),
    [
        (b"TELEPORT", "unknown message 'TELEPORT'"),
        (b"PACKET shuffle=1 n=9 count=7 cards=-", "packet number 9"),
        (b"PACKET shuffle=1 n=1 count=7 cards=As,Xx", "card 'Xx'"),
        (b"PACKET shuffle=1 n=1 count=2 cards=As", "count=2 but 1 cards"),
        (b"PACKET shuffle=1 n=1", "missing field(s) count"),
        (b"PACKET shuffle=1 n=1 count=7 colour=red", "unknown field 'colour'"),
        (b"PACKET shuffle=one n=1 count=7", "bad shuffle='one'"),
        (b"SHUFFLED shuffle=1 count=53 deck=ok cards=As,Kd", "sorted order"),
        (b"SHUFFLED shuffle=1 count=53 deck=fine", "deck 'fine'"),
        (b"STATE state=ready door_open=2 shuffle=1 packets=0 count=53", "bad door_open='2'"),
        (b"IDENT device=x model=m serial=s proto=1 fw=1 fw_hash=md5:0 rng=secrets", "fw_hash"),
        (b"\xff\xfe", "not ASCII"),
    ],
)
def test_bad_payloads_name_what_is_wrong(payload: bytes, named: str) -> None:
    with pytest.raises(PayloadError) as caught:
        shuffler.DEVICE_CATALOGUE.decode(payload)
    assert named in str(caught.value)
    assert isinstance(caught.value, ProtocolError) and isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    ("payload", "named"),
    [
        (b"DICE shake=1 dice=3,5 result=ok quality=80 source=command", "three values"),
        (b"DICE shake=1 dice=3,5,7 result=ok quality=80 source=command", "three values"),
        (b"DICE shake=1 dice=- result=ok quality=80 source=command", "exactly when"),
        (b"DICE shake=1 dice=1,2,3 result=cocked quality=80 source=command", "exactly when"),
        (b"DICE shake=1 dice=1,2,3 result=ok quality=101 source=command", "quality 101"),
        (b"DICE shake=1 dice=1,2,3 result=ok quality=90 source=elbow", "source 'elbow'"),
    ],
)
def test_bad_dice_name_what_is_wrong(payload: bytes, named: str) -> None:
    with pytest.raises(PayloadError, match=named):
        shaker.DEVICE_CATALOGUE.decode(payload)


def test_requests_and_replies_live_in_separate_catalogues() -> None:
    with pytest.raises(PayloadError, match="unknown message 'DEAL'"):
        shuffler.DEVICE_CATALOGUE.decode(b"DEAL")
    with pytest.raises(PayloadError, match="unknown message 'SHAKE'"):
        shuffler.REQUEST_CATALOGUE.decode(b"SHAKE")
