"""The hello's challenge-response (protocol 2), pure: what the device signs and how.

The host sends ``HELLO proto=2 session=S nonce=N`` with N 16 fresh random bytes as 32 hex
digits. The device answers ``IDENT <fields> mac=M``: M is HMAC-SHA256 under the device's key
over the 16 nonce bytes followed by the ASCII of the IDENT payload up to, not including,
`` mac=`` (the message name and every other field, as sent). A recorded answer carries the
MAC of an old nonce, so replayed against a new one it is refused.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import replace

from .common import Ident
from .records import encode_record

NONCE_BYTES = 16
MAC_FIELD = b" mac="


def signed_part(ident: Ident) -> bytes:
    """The IDENT payload the MAC covers: the whole message before `` mac=``."""
    payload = encode_record(replace(ident, mac=None))
    cut = payload.rfind(MAC_FIELD)
    return payload if cut < 0 else payload[:cut]


def hello_mac(key: bytes, nonce: str, ident: Ident) -> str:
    """The MAC a device with ``key`` answers ``nonce`` with (64 hex digits)."""
    message = bytes.fromhex(nonce) + signed_part(ident)
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def answer(key: bytes, nonce: str, ident: Ident) -> Ident:
    """``ident`` carrying its answer to ``nonce`` (the device side)."""
    return replace(ident, mac=hello_mac(key, nonce, ident))


def answered(key: bytes, nonce: str, ident: Ident) -> bool:
    """True when ``ident``'s MAC answers ``nonce`` under ``key`` (compared in constant time)."""
    if ident.mac is None:
        return False
    return hmac.compare_digest(ident.mac, hello_mac(key, nonce, ident))
