"""The journal's key: a 32-byte secret that turns each record's hash into an HMAC-SHA256.

A keyed chain proves that no one without the key rewrote it: an edit, a deleted round or a
forged act needs every later record's MAC recomputed, and that needs the key.  The key lives
outside the journal (a file readable by the controller's user only, or an environment
variable); the journal stores only its ``key_id``, a fingerprint that names the key and gives
nothing of it away.  ``paigow journal keygen OUT`` makes one.  See ``docs/security.md``.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from .errors import JournalKeyError

KEY_ENV: Final = "PAIGOW_JOURNAL_KEY"
"""An environment variable holding the key itself (64 hex digits)."""
KEY_FILE_ENV: Final = "PAIGOW_JOURNAL_KEY_FILE"
"""An environment variable naming a key file."""
KEY_BYTES: Final = 32
_ID_SALT: Final = b"paigow-journal-key-id\x00"


class Unkeyed:
    """The explicit choice of an unkeyed journal (tests, scratch replays, old journals)."""

    def __repr__(self) -> str:
        return "UNKEYED"


UNKEYED: Final = Unkeyed()
"""Pass as ``key=`` to make or write an unkeyed journal: its chain is a plain SHA-256."""


@dataclass(frozen=True, slots=True)
class JournalKey:
    """A journal key: the secret (never printed) and its fingerprint ``key_id``."""

    secret: bytes = field(repr=False)
    key_id: str = field(init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.secret, bytes) or len(self.secret) != KEY_BYTES:
            raise JournalKeyError(f"a journal key is {KEY_BYTES} bytes, not "
                                  f"{len(self.secret) if isinstance(self.secret, bytes) else 0}")
        digest = hashlib.sha256(_ID_SALT + self.secret).hexdigest()
        object.__setattr__(self, "key_id", digest[:16])

    @classmethod
    def generate(cls) -> JournalKey:
        """A fresh key from the operating system's ``secrets``."""
        return cls(secrets.token_bytes(KEY_BYTES))

    @classmethod
    def from_text(cls, text: str, where: str) -> JournalKey:
        """The key a text holds (64 hex digits, blanks around ignored); ``where`` names it."""
        word = text.strip().lower()
        if len(word) != 2 * KEY_BYTES or any(c not in "0123456789abcdef" for c in word):
            raise JournalKeyError(f"{where}: a journal key is {2 * KEY_BYTES} hex digits "
                                  f"(paigow journal keygen makes one)")
        return cls(bytes.fromhex(word))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> JournalKey:
        """The key in a file, which must be readable by its owner only (mode 0600 or 0400)."""
        where = os.fspath(path)
        try:
            fd = os.open(where, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError as err:
            raise JournalKeyError(f"cannot read journal key {where!r}: {err.strerror}") from err
        with os.fdopen(fd, "r", encoding="ascii", errors="replace") as handle:
            mode = os.fstat(handle.fileno()).st_mode
            if mode & (stat.S_IRWXG | stat.S_IRWXO):
                raise JournalKeyError(f"journal key {where!r} is readable by others (mode "
                                      f"{stat.S_IMODE(mode):04o}); chmod 600 it")
            return cls.from_text(handle.read(4 * KEY_BYTES), where)

    def text(self) -> str:
        """The key as stored in a key file: 64 hex digits and a newline."""
        return self.secret.hex() + "\n"

    def mac(self, data: bytes) -> str:
        """HMAC-SHA256 of ``data`` under this key, as 64 hex digits."""
        return hmac.new(self.secret, data, hashlib.sha256).hexdigest()


JournalKeyChoice = JournalKey | Unkeyed | None
"""What ``open_journal`` takes as ``key``: a key, ``UNKEYED``, or None (the environment's)."""


def write_key(path: str | os.PathLike[str], key: JournalKey) -> None:
    """Write a key file, created 0600 (never over an existing file)."""
    where = os.fspath(path)
    try:
        fd = os.open(where, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as err:
        raise JournalKeyError(f"cannot create journal key {where!r}: {err.strerror}") from err
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        os.fchmod(handle.fileno(), 0o600)  # the umask may only narrow it; make it exact
        handle.write(key.text())
        handle.flush()
        os.fsync(handle.fileno())


def key_from_env(environ: Mapping[str, str] | None = None) -> JournalKey | None:
    """The key ``PAIGOW_JOURNAL_KEY`` holds, else the one ``PAIGOW_JOURNAL_KEY_FILE`` names,
    else None."""
    env = os.environ if environ is None else environ
    if env.get(KEY_ENV):
        return JournalKey.from_text(env[KEY_ENV], f"${KEY_ENV}")
    if env.get(KEY_FILE_ENV):
        return JournalKey.load(env[KEY_FILE_ENV])
    return None


def key_beside(location: str) -> Path | None:
    """Where ``paigow demo`` keeps the key of an SQLite journal (``PATH.key``), or None for a
    PostgreSQL URL."""
    if "://" in location and not location.startswith("sqlite:"):
        return None
    rest = location.removeprefix("sqlite:")
    return Path((rest[2:] if rest.startswith("//") else rest) + ".key")
