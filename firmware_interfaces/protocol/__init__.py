"""The device protocol, version 2: frames, their stream decoder, typed messages (pure)."""

from .crc import CRC8_CHECK, CRC16_CHECK, crc8_smbus, crc16_ccitt_false
from .frame import (
    FRAME_VERSION,
    MAX_PAYLOAD,
    PROTOCOL_VERSION,
    SOF,
    Frame,
    Kind,
    decode,
    encode,
)
from .payload import Message, decode_message, encode_message
from .records import Catalogue, Record, encode_record
from .stream import Damaged, StreamDecoder

__all__ = [
    "CRC8_CHECK",
    "CRC16_CHECK",
    "FRAME_VERSION",
    "MAX_PAYLOAD",
    "PROTOCOL_VERSION",
    "SOF",
    "Catalogue",
    "Damaged",
    "Frame",
    "Kind",
    "Message",
    "Record",
    "StreamDecoder",
    "crc8_smbus",
    "crc16_ccitt_false",
    "decode",
    "decode_message",
    "encode",
    "encode_message",
    "encode_record",
]
