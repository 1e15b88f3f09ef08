"""The device protocol, version 1: frames, their stream decoder, and typed messages (pure)."""

from .crc import CRC8_CHECK, CRC16_CHECK, crc8_smbus, crc16_ccitt_false
from .frame import MAX_PAYLOAD, PROTOCOL_VERSION, SOF, Frame, Kind, decode, encode
from .payload import Message, decode_message, encode_message
from .records import Catalogue, Record, encode_record
from .stream import Damaged, StreamDecoder

__all__ = [
    "CRC8_CHECK",
    "CRC16_CHECK",
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
