"""Per-device hello keys: read from a key file or an environment variable, never from the table
file itself, and checked once at start-up.

A key is 16 to 64 bytes written as hex digits on one line (``make_key`` writes 32). A key file
must be readable by its owner only (mode 600), as an SSH key must.
"""

from __future__ import annotations

import os
import re
import secrets
import stat
from pathlib import Path

from .errors import DeviceConfigError

KEY_BYTES = 32
_HEX = re.compile(r"(?:[0-9a-fA-F]{2}){16,64}")


def parse_key(text: str, where: str) -> bytes:
    """The key written in ``text`` (hex); ``DeviceConfigError`` naming ``where`` (never the key)."""
    cleaned = text.strip()
    if not _HEX.fullmatch(cleaned):
        raise DeviceConfigError(f"{where}: a device key is 32 to 128 hex digits on one line "
                                f"({len(cleaned)} characters found)")
    return bytes.fromhex(cleaned)


def read_key_file(path: str | Path) -> bytes:
    """The key in the file at ``path``; refused when missing, malformed or readable by others."""
    where = f"key file {str(path)!r}"
    try:
        mode = os.stat(path).st_mode
        text = Path(path).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) else "not ASCII text"
        raise DeviceConfigError(f"cannot read {where}: {reason}") from err
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise DeviceConfigError(f"{where} may be read by others (mode {stat.S_IMODE(mode):o}); "
                                f"chmod 600 it")
    return parse_key(text, where)


def key_from_env(name: str) -> bytes:
    """The key in the environment variable ``name``; refused when unset or malformed."""
    value = os.environ.get(name)
    if value is None:
        raise DeviceConfigError(f"environment variable {name!r} (a device key) is not set")
    return parse_key(value, f"environment variable {name!r}")


def make_key() -> bytes:
    """A fresh random key (from ``secrets``)."""
    return secrets.token_bytes(KEY_BYTES)


def write_key_file(path: str | Path, key: bytes) -> None:
    """Write ``key`` as hex to a new file readable by its owner only."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(key.hex() + "\n")
