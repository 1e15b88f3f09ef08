"""The table's journal: an append-only, hash-chained event store (SQLite or PostgreSQL).

``open_journal(path_or_url)`` returns a ``Journal``: ``append`` stores an event with who did it,
``round``/``last_rounds``/``open_rounds``/``active_faults`` read, and ``verify`` finds the first
record edited, deleted, inserted or moved behind the journal's back.  See ``docs/journal.md``.
"""

from __future__ import annotations

from .canonical import CanonicalError, canonical, parse_canonical
from .chain import Anchor, VerifyReport
from .clock import Clock, StepClock, format_ts, parse_ts, system_clock
from .errors import (
    JournalCorruptError,
    JournalError,
    JournalURLError,
    QueryError,
    RecordError,
    ReplayMixError,
)
from .journal import Journal, open_journal
from .recall import OpenRound, RoundRecall
from .records import FORMAT, GENESIS, Randomness, Record, Role

__all__ = [
    "FORMAT",
    "GENESIS",
    "Anchor",
    "CanonicalError",
    "Clock",
    "Journal",
    "JournalCorruptError",
    "JournalError",
    "JournalURLError",
    "OpenRound",
    "QueryError",
    "Randomness",
    "Record",
    "RecordError",
    "ReplayMixError",
    "Role",
    "RoundRecall",
    "StepClock",
    "VerifyReport",
    "canonical",
    "format_ts",
    "open_journal",
    "parse_canonical",
    "parse_ts",
    "system_clock",
]
