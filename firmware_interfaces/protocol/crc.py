"""The two checksums of the frame: CRC-8/SMBUS on the header, CRC-16/CCITT-FALSE on the frame.

Parameters as in the CRC catalogue (reveng): both are MSB-first (no reflection), no final XOR.

- CRC-8/SMBUS: width 8, poly 0x07, init 0x00, check ``0xF4`` over ``b"123456789"``.
- CRC-16/CCITT-FALSE (CRC-16/IBM-3740): width 16, poly 0x1021, init 0xFFFF, check ``0x29B1``.
"""

from __future__ import annotations

import binascii

CRC8_CHECK = 0xF4
CRC16_CHECK = 0x29B1


def _table8() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
        table.append(crc)
    return tuple(table)


_T8 = _table8()


def crc8_smbus(data: bytes | bytearray | memoryview, crc: int = 0x00) -> int:
    """CRC-8/SMBUS of ``data`` (continue a running value with ``crc``)."""
    for byte in data:
        crc = _T8[crc ^ byte]
    return crc


def crc16_ccitt_false(data: bytes | bytearray | memoryview, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE of ``data`` (continue a running value with ``crc``)."""
    # binascii's CRC-CCITT is this very algorithm (poly 0x1021, MSB first) given the initial
    # value; it runs in C. tests/devices check it against a bit-by-bit definition.
    return binascii.crc_hqx(data, crc)
