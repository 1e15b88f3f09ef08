"""Checking a journal's hash chain: the first record that was edited, deleted, inserted or moved,
or that the engine could never have written (``sense``).

``verify_rows`` walks the stored rows in sequence order once and stops at
the first fault it can prove.  It needs the journal's head (the last sequence number and hash
the journal itself wrote) to see records deleted from, or slipped onto, the end; an ``Anchor``
(a sequence number and hash published outside the database) also catches a rewrite of the
whole tail, head included.  Memory is one small entry per round id (``sense``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .canonical import CanonicalError
from .keys import JournalKey
from .records import GENESIS, Row, hash_row, row_problem
from .sense import Sense

_ANCHOR = re.compile(r"([1-9][0-9]*):([0-9a-f]{64})")


class _Bad(Exception):
    def __init__(self, seq: int, reason: str):
        super().__init__(reason)
        self.seq, self.reason = seq, reason


@dataclass(frozen=True, slots=True)
class Anchor:
    """A record's sequence number and hash, kept outside the database (``SEQ:HASH``)."""

    seq: int
    hash: str

    @classmethod
    def parse(cls, text: str) -> Anchor:
        """``SEQ:HASH``; ValueError otherwise."""
        match = _ANCHOR.fullmatch(text.strip().lower())
        if match is None:
            raise ValueError(f"an anchor is SEQ:HASH (64 hex digits), not {text!r}")
        return cls(int(match.group(1)), match.group(2))

    def __str__(self) -> str:
        return f"{self.seq}:{self.hash}"


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """What ``verify`` found: how many records it checked, the first bad one if any, and
    whether the keys could be checked (``unchecked`` says why not)."""

    records: int
    last_seq: int
    last_hash: str
    first_bad: int | None = None
    reason: str | None = None
    key_id: str | None = None
    unchecked: str | None = None

    @property
    def ok(self) -> bool:
        """True when the whole chain checked out, its keys included."""
        return self.first_bad is None and self.unchecked is None

    def line(self) -> str:
        """One line for a person: the head when intact, else the first bad record and why,
        else why the chain could not be checked."""
        if self.first_bad is not None:
            return f"record {self.first_bad}: {self.reason}"
        if self.unchecked is not None:
            return f"cannot check: {self.unchecked}"
        keyed = f"keyed, key id {self.key_id}" if self.key_id else "unkeyed"
        return f"ok: {self.records} records, head {self.last_seq}:{self.last_hash} ({keyed})"

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON object (``journal verify --json``)."""
        return {"ok": self.ok, "records": self.records, "last_seq": self.last_seq,
                "last_hash": self.last_hash, "first_bad": self.first_bad, "reason": self.reason,
                "key_id": self.key_id, "unchecked": self.unchecked}


def _check_row(row: Row, prev_seq: int, prev_hash: str, key: JournalKey | None,
               macs: bool) -> None:
    expected = prev_seq + 1
    if row.seq != expected:
        if isinstance(row.seq, int) and row.seq > expected:
            raise _Bad(expected, f"missing (deleted?): the record after {prev_seq} is {row.seq}")
        seq = row.seq if isinstance(row.seq, int) else expected
        raise _Bad(seq, f"out of sequence (inserted?): expected record {expected} here")
    try:
        edited = macs and hash_row(row, key) != row.hash
    except CanonicalError:
        edited = False  # a column of the wrong type: row_problem names it
    if edited:
        raise _Bad(row.seq, "contents do not match its hash (edited, moved or inserted)")
    problem = row_problem(row)
    if problem:
        raise _Bad(row.seq, f"not written by the journal: {problem}")
    if row.prev_hash != prev_hash:
        if prev_seq == 0:
            raise _Bad(row.seq, "not chained to the genesis value")
        raise _Bad(prev_seq, f"hash differs from the one record {row.seq} is chained to "
                             f"(record {prev_seq} rewritten, or {row.seq} inserted)")


def verify_rows(rows: Iterable[Row], head: tuple[int, str], anchor: Anchor | None = None,
                *, key: JournalKey | None = None, macs: bool = True) -> VerifyReport:
    """Check rows (in sequence order) against each other, the journal's head and an anchor,
    then for what the engine never writes (``sense``).  Hashes are HMACs under ``key`` when
    given, else SHA-256; with ``macs=False`` (a keyed journal and no key) everything but the
    hashes themselves is checked."""
    count, prev_seq, prev_hash = 0, 0, GENESIS
    sense = Sense()
    try:
        for row in rows:
            _check_row(row, prev_seq, prev_hash, key, macs)
            if anchor is not None and row.seq == anchor.seq and row.hash != anchor.hash:
                raise _Bad(row.seq, f"hash differs from the anchor {anchor}")
            problem = sense.problem(row)
            if problem:
                raise _Bad(row.seq, problem)
            count, prev_seq, prev_hash = count + 1, row.seq, row.hash
        head_seq, head_hash = head
        if head_seq > prev_seq:
            raise _Bad(prev_seq + 1, f"missing (deleted?): the journal's head is record "
                                     f"{head_seq} but the last stored record is {prev_seq}")
        if head_seq < prev_seq:
            raise _Bad(head_seq + 1, f"not appended through the journal: its head ends at "
                                     f"record {head_seq}")
        if head_hash != prev_hash:
            raise _Bad(prev_seq, "hash differs from the journal's head (rewritten)")
        if anchor is not None and anchor.seq > prev_seq:
            raise _Bad(prev_seq + 1, f"missing (deleted?): the anchor names record {anchor.seq}"
                                     f" but the last stored record is {prev_seq}")
    except _Bad as bad:
        return VerifyReport(count, prev_seq, prev_hash, bad.seq, bad.reason)
    return VerifyReport(count, prev_seq, prev_hash)
