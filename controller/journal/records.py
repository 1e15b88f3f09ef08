"""A journal record: its stored columns, its hash, and the small words it is made of.

A row holds ``seq`` (1, 2, 3, ... with no gaps), ``round_id`` (``None`` for table-level
records), ``kind`` (the event's ``type``), ``event`` (canonical JSON text), ``actor`` and
``role`` (who did it), ``ts`` (from the journal's clock), ``randomness`` (``secrets``,
``seeded:N`` or ``None``), ``replay`` and ``prev_hash``.  Its ``hash`` is the HMAC-SHA256
under the journal's key (format ``paigow-journal/2``), or for an unkeyed journal the plain
SHA-256 (``paigow-journal/1``), of the canonical JSON of those ten columns; record 1 chains to
``GENESIS``.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, Literal, NamedTuple

from ..rules.records import Event, from_json
from .canonical import CanonicalError, Json, canonical, dumps, parse_canonical
from .clock import parse_ts
from .keys import JournalKey

GENESIS: Final = "0" * 64
"""The ``prev_hash`` of record 1."""
FORMAT: Final = "paigow-journal/1"
"""The unkeyed format (hash = SHA-256), stored in the journal's meta table."""
FORMAT_KEYED: Final = "paigow-journal/2"
"""The keyed format (hash = HMAC-SHA256 under the key whose fingerprint meta's ``key_id`` is)."""
FORMATS: Final = (FORMAT, FORMAT_KEYED)

_KIND = re.compile(r"[a-z][a-z0-9_]{0,39}")
KIND_WORD: Final = _KIND
"""What a record kind looks like: a lower-case word of 40 characters at most."""
_ROUND = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")
_HASH = re.compile(r"[0-9a-f]{64}")
_SEEDED = re.compile(r"seeded:(-?[0-9]{1,40})")


class Role(StrEnum):
    """Who may stand behind a record."""

    SYSTEM = "system"
    DEALER = "dealer"
    SUPERVISOR = "supervisor"
    DEVICE = "device"
    CAMERA = "camera"


@dataclass(frozen=True, slots=True)
class Randomness:
    """Where a record's draws came from: ``secrets`` (production) or a seed (test and replay)."""

    source: Literal["secrets", "seeded"]
    seed: int | None = None

    @classmethod
    def production(cls) -> Randomness:
        """Draws from the operating system's ``secrets``."""
        return cls("secrets")

    @classmethod
    def seeded(cls, seed: int) -> Randomness:
        """Draws from a seeded generator: repeatable, so test and replay only."""
        return cls("seeded", seed)

    @classmethod
    def parse(cls, text: str) -> Randomness:
        """``secrets`` or ``seeded:N``; ValueError otherwise."""
        if text == "secrets":
            return cls.production()
        match = _SEEDED.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise ValueError(f"randomness must be 'secrets' or 'seeded:N', not {text!r}")
        return cls.seeded(int(match.group(1)))

    def __str__(self) -> str:
        return "secrets" if self.source == "secrets" else f"seeded:{self.seed}"


_ROLES: Final = frozenset(role.value for role in Role)


class Row(NamedTuple):
    """The stored columns of one record, exactly as a back end returns them."""

    seq: int
    round_id: str | None
    kind: str
    event: str
    actor: str
    role: str
    ts: str
    randomness: str | None
    replay: bool
    prev_hash: str
    hash: str


COLUMNS: Final = Row._fields


def hash_row(row: Row, key: JournalKey | None = None) -> str:
    """The SHA-256 (hex) of a row's canonical JSON, every column but ``hash`` itself; with a
    key, its HMAC-SHA256 under that key."""
    fields: dict[str, Any] = row._asdict()
    del fields["hash"]
    body = dumps(fields).encode("ascii")
    return hashlib.sha256(body).hexdigest() if key is None else key.mac(body)


def _text(value: object, name: str, pattern: re.Pattern[str] | None = None) -> str | None:
    if not isinstance(value, str) or not value or not value.isprintable() or len(value) > 200:
        return f"{name} must be printable text, not {value!r}"
    if pattern is not None and not pattern.fullmatch(value):
        return f"{name} {value!r} is malformed"
    return None


def row_problem(row: Row) -> str | None:
    """Why a row could not have been written by the journal, or None if it could."""
    if not isinstance(row.seq, int) or isinstance(row.seq, bool) or row.seq < 1:
        return f"sequence number {row.seq!r} is not a positive integer"
    if row.round_id is not None and (problem := _text(row.round_id, "round id", _ROUND)):
        return problem
    problem = (_text(row.kind, "kind", _KIND) or _text(row.actor, "actor")
               or _text(row.prev_hash, "previous hash", _HASH) or _text(row.hash, "hash", _HASH))
    if problem:
        return problem
    if row.role not in _ROLES:
        return f"unknown role {row.role!r}"
    if not isinstance(row.replay, bool):
        return f"replay flag {row.replay!r} is not a boolean"
    try:
        parse_ts(row.ts)
        if row.randomness is not None:
            Randomness.parse(row.randomness)
        payload = parse_canonical(row.event)
    except (CanonicalError, ValueError) as err:
        return f"{err}"
    if payload.get("type") != row.kind:
        return f"kind {row.kind!r} differs from the event's type {payload.get('type')!r}"
    return None


@dataclass(frozen=True, slots=True)
class Record:
    """One stored record, read back and checked."""

    seq: int
    round_id: str | None
    kind: str
    event: str
    actor: str
    role: Role
    ts: str
    randomness: Randomness | None
    replay: bool
    prev_hash: str
    hash: str

    @classmethod
    def from_row(cls, row: Row) -> Record:
        """The record a row holds; ValueError names what is wrong with it."""
        problem = row_problem(row)
        if problem:
            raise ValueError(f"record {row.seq!r}: {problem}")
        randomness = None if row.randomness is None else Randomness.parse(row.randomness)
        return cls(row.seq, row.round_id, row.kind, row.event, row.actor, Role(row.role),
                   row.ts, randomness, row.replay, row.prev_hash, row.hash)

    def payload(self) -> Json:
        """The event as a JSON object."""
        return parse_canonical(self.event)

    def rules_event(self) -> Event:
        """The rules core's record this event encodes (NotationError for other kinds)."""
        return from_json(self.payload())

    def to_json(self) -> Json:
        """Every field, the event as an object: what ``journal show --json`` prints."""
        return {
            "seq": self.seq, "round_id": self.round_id, "kind": self.kind,
            "event": self.payload(), "actor": self.actor, "role": self.role.value,
            "ts": self.ts, "randomness": None if self.randomness is None else str(self.randomness),
            "replay": self.replay, "prev_hash": self.prev_hash, "hash": self.hash,
        }


def check_payload(payload: object) -> tuple[str, str]:
    """(kind, canonical text) of an event to append; ValueError says what is wrong."""
    if not isinstance(payload, dict):
        raise ValueError(f"an event must be a JSON object, not {payload!r}")
    kind, version = payload.get("type"), payload.get("v")
    if not isinstance(kind, str) or not _KIND.fullmatch(kind):
        raise ValueError(f"event type must be a lower-case word, not {kind!r}")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ValueError(f"event {kind!r} needs a version 'v' >= 1, not {version!r}")
    return kind, canonical(payload)


def check_round_id(round_id: str | None) -> None:
    """ValueError unless ``round_id`` is None or a short id of letters, digits, ``._:-``."""
    if round_id is not None and _text(round_id, "round id", _ROUND):
        raise ValueError(f"round id must be letters, digits and ._:- (64 at most), "
                         f"not {round_id!r}")


def check_actor(actor: str) -> None:
    """ValueError unless ``actor`` is non-empty printable text."""
    if _text(actor, "actor"):
        raise ValueError(f"actor must be non-empty printable text, not {actor!r}")
