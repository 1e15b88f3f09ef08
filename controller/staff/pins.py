"""PINs kept as salted scrypt hashes: ``scrypt$N$R$P$SALT$HASH`` (salt and hash in base64).

A PIN is never stored or printed; only its hash is, made with ``hashlib.scrypt`` and a fresh
16-byte salt each time, so two hashes of one PIN differ.  Checking a PIN recomputes the hash with
the stored parameters and compares in constant time (``hmac.compare_digest``).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Final

from .errors import StaffError

SCHEME: Final = "scrypt"
"""The first field of every stored PIN hash."""

N: Final = 2**14
"""scrypt's cost (CPU and memory: 128 * N * R bytes, 16 MiB here); raising it costs each sign-in."""
R: Final = 8
"""scrypt's block size."""
P: Final = 1
"""scrypt's parallelism."""
SALT_BYTES: Final = 16
HASH_BYTES: Final = 32

PIN_MIN: Final = 6
"""The shortest PIN accepted: with the sign-in throttle, six digits take months to guess."""
PIN_MAX: Final = 64
"""The longest PIN accepted (scrypt reads all of it, so a bound keeps a sign-in cheap)."""

_MAXMEM: Final = 64 * 1024 * 1024  # above 128 * N * R for every accepted parameter set


def check_pin(pin: str) -> str:
    """``pin`` if it is usable (printable, ``PIN_MIN`` to ``PIN_MAX`` characters), else
    ``StaffError`` (the message does not repeat the PIN)."""
    if not isinstance(pin, str) or not PIN_MIN <= len(pin) <= PIN_MAX:
        raise StaffError(f"a PIN must be {PIN_MIN} to {PIN_MAX} characters")
    if not pin.isprintable() or pin != pin.strip():
        raise StaffError("a PIN must be printable, with no space at either end")
    return pin


@dataclass(frozen=True, slots=True)
class PinHash:
    """One stored PIN: scrypt's parameters, the salt and the hash."""

    n: int
    r: int
    p: int
    salt: bytes
    digest: bytes

    @classmethod
    def make(cls, pin: str) -> PinHash:
        """Hash a new PIN with a fresh random salt."""
        salt = secrets.token_bytes(SALT_BYTES)
        return cls(N, R, P, salt, _scrypt(check_pin(pin), salt, N, R, P))

    @classmethod
    def parse(cls, text: str) -> PinHash:
        """From ``scrypt$N$R$P$SALT$HASH``; ``StaffError`` names what is wrong."""
        parts = text.split("$") if isinstance(text, str) else []
        if len(parts) != 6 or parts[0] != SCHEME:
            raise StaffError(f"a PIN hash must read 'scrypt$N$R$P$SALT$HASH', not {text!r}")
        try:
            n, r, p = (int(v) for v in parts[1:4])
            salt = base64.b64decode(parts[4], validate=True)
            digest = base64.b64decode(parts[5], validate=True)
        except (ValueError, binascii.Error) as err:
            raise StaffError(f"PIN hash {text!r}: {err}") from err
        if n < 2**10 or n & (n - 1) or not 1 <= r <= 32 or not 1 <= p <= 16:
            raise StaffError(f"PIN hash {text!r}: scrypt parameters N={n} R={r} P={p} are out "
                             f"of range (N a power of two >= 1024, R 1..32, P 1..16)")
        if 128 * n * r > _MAXMEM or len(salt) < 8 or len(digest) < 16:
            raise StaffError(f"PIN hash {text!r}: too costly a memory size or too short a "
                             f"salt or hash")
        return cls(n, r, p, salt, digest)

    def text(self) -> str:
        """The stored form, ``scrypt$N$R$P$SALT$HASH``."""
        b64 = base64.b64encode
        return (f"{SCHEME}${self.n}${self.r}${self.p}${b64(self.salt).decode()}$"
                f"{b64(self.digest).decode()}")

    def matches(self, pin: str) -> bool:
        """True if ``pin`` hashes to this (compared in constant time)."""
        if not isinstance(pin, str) or not 1 <= len(pin) <= PIN_MAX:
            return False
        candidate = _scrypt(pin, self.salt, self.n, self.r, self.p, len(self.digest))
        return hmac.compare_digest(candidate, self.digest)


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int, size: int = HASH_BYTES) -> bytes:
    return hashlib.scrypt(pin.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=_MAXMEM,
                          dklen=size)


DUMMY: Final = PinHash(N, R, P, b"\0" * SALT_BYTES, b"\0" * HASH_BYTES)
"""Checked against when a sign-in names no known staff id, so an unknown id costs the same
time as a wrong PIN and the answer does not tell which it was."""
