"""The table's journal: an append-only, hash-chained event store (SQLite or PostgreSQL).

``open_journal(path_or_url)`` returns a ``Journal``: ``append`` stores an event with who did it,
``round``/``last_rounds``/``open_rounds``/``active_faults`` read, and ``verify`` finds the first
record edited, deleted, inserted or moved behind the journal's back, or that the engine never
writes.  A journal is keyed (``JournalKey``: each hash an HMAC-SHA256) unless opened with
``key=UNKEYED``; a controller opens it with ``writer=`` and is its only writer.  See
``docs/journal.md`` and ``docs/security.md``.
"""

from __future__ import annotations

from .canonical import CanonicalError, canonical, parse_canonical
from .chain import Anchor, VerifyReport
from .clock import Clock, StepClock, format_ts, parse_ts, system_clock
from .errors import (
    JournalCorruptError,
    JournalError,
    JournalKeyError,
    JournalLockedError,
    JournalURLError,
    QueryError,
    RecordError,
    ReplayMixError,
    RoundClosedError,
)
from .journal import Journal, open_journal
from .keys import (
    KEY_ENV,
    KEY_FILE_ENV,
    UNKEYED,
    JournalKey,
    Unkeyed,
    key_beside,
    key_from_env,
    write_key,
)
from .recall import OpenRound, RoundRecall
from .records import FORMAT, FORMAT_KEYED, GENESIS, Randomness, Record, Role

__all__ = [
    "FORMAT",
    "FORMAT_KEYED",
    "GENESIS",
    "KEY_ENV",
    "KEY_FILE_ENV",
    "UNKEYED",
    "Anchor",
    "CanonicalError",
    "Clock",
    "Journal",
    "JournalCorruptError",
    "JournalError",
    "JournalKey",
    "JournalKeyError",
    "JournalLockedError",
    "JournalURLError",
    "OpenRound",
    "QueryError",
    "Randomness",
    "Record",
    "RecordError",
    "ReplayMixError",
    "Role",
    "RoundClosedError",
    "RoundRecall",
    "StepClock",
    "Unkeyed",
    "VerifyReport",
    "canonical",
    "format_ts",
    "key_beside",
    "key_from_env",
    "open_journal",
    "parse_canonical",
    "parse_ts",
    "system_clock",
    "write_key",
]
