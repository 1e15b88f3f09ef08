"""The journal: append records, read them back, verify the chain; SQLite or PostgreSQL by URL.

``open_journal("table.db")`` (or ``sqlite:///var/lib/paigow/table.db``) opens a SQLite file;
``open_journal("postgresql://user@host/db?schema=table7")`` a PostgreSQL database.  The API
appends and reads; it has no way to update or delete a record.  A journal is keyed (each hash an
HMAC under a key kept outside it, ``keys.py``) or, only when asked with ``key=UNKEYED``, not;
a controller opens it with ``writer=`` and is then its only writer (``lock.py``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import Any

from ..rules.records import Event, to_json
from .backend import Backend
from .chain import Anchor, VerifyReport, verify_rows
from .clock import Clock, format_ts, system_clock
from .errors import (
    JournalCorruptError,
    JournalError,
    JournalKeyError,
    JournalURLError,
    QueryError,
    RecordError,
    one_line,
)
from .keys import UNKEYED, JournalKey, JournalKeyChoice, Unkeyed, key_from_env
from .kinds import CLOSING, FAULT_KINDS, SETTLE
from .lock import Holder
from .postgres_store import PostgresBackend
from .recall import OpenRound, RoundRecall, active_faults, open_rounds, recalls
from .records import (
    FORMAT,
    FORMAT_KEYED,
    KIND_WORD,
    Randomness,
    Record,
    Role,
    Row,
    check_actor,
    check_payload,
    check_round_id,
)
from .records import hash_row as _hash_row
from .sqlite_store import SqliteBackend

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
_ROUNDS_PER_QUERY = 500  # round ids per query: well inside SQLite's and libpq's limits


def _marks(values: tuple[object, ...]) -> str:
    return ", ".join("?" for _ in values)


class Journal:
    """An append-only, hash-chained event store over one back end."""

    def __init__(self, backend: Backend, clock: Clock = system_clock, *,
                 key: JournalKey | Unkeyed | None = None, meta: Mapping[str, str] | None = None):
        self._backend = backend
        self._clock = clock
        self._key = key
        meta = backend.check_meta() if meta is None else meta
        self.key_id: str | None = meta.get("key_id") if meta.get("format") == FORMAT_KEYED else None
        """The fingerprint of the journal's key, or None for an unkeyed journal."""

    def write_problem(self) -> str | None:
        """Why this journal cannot be appended to with the key it was opened with, or None."""
        if self.key_id is not None:
            if not isinstance(self._key, JournalKey):
                return (f"the journal is keyed (key id {self.key_id}) and no key was given "
                        f"(--key-file, $PAIGOW_JOURNAL_KEY or $PAIGOW_JOURNAL_KEY_FILE)")
            if self._key.key_id != self.key_id:
                return (f"wrong key: the journal's key id is {self.key_id}, the key given "
                        f"has key id {self._key.key_id}")
            return None
        if isinstance(self._key, JournalKey):
            return (f"the journal is unkeyed and a key (key id {self._key.key_id}) was given: "
                    f"a keyed controller starts a new journal")
        if self._key is None:
            return "the journal is unkeyed: it is written only when opened with key=UNKEYED"
        return None

    @property
    def where(self) -> str:
        """The file or URL (password hidden) the journal is stored at."""
        return self._backend.where

    @contextmanager
    def _driver(self) -> Iterator[None]:
        try:
            yield
        except JournalError:
            raise
        except self._backend.driver_errors() as err:
            raise JournalError(f"{self.where}: {one_line(err)}") from err

    def append(self, event: Event | Mapping[str, Any], *, actor: str, role: Role | str,
               round_id: str | None = None, randomness: Randomness | None = None,
               replay: bool = False) -> Record:
        """Store one event (a rules record or a ``{"type", "v", ...}`` object), durably."""
        try:
            payload = dict(event) if isinstance(event, Mapping) else to_json(event)
            kind, text = check_payload(payload)
            check_round_id(round_id)
            check_actor(actor)
            role = Role(role)
        except ValueError as err:
            raise RecordError(f"refusing record: {err}") from err
        if kind in FAULT_KINDS and not (isinstance(payload.get("fault"), str) and payload["fault"]):
            raise RecordError(f"a {kind!r} record needs a 'fault' id, not {payload.get('fault')!r}")
        if not isinstance(replay, bool):
            raise RecordError(f"replay must be True or False, not {replay!r}")
        note = None if randomness is None else str(randomness)
        problem = self.write_problem()
        if problem:
            raise JournalKeyError(f"{self.where}: refusing record: {problem}")
        key = self._key if isinstance(self._key, JournalKey) else None

        def build(seq: int, prev_hash: str, prev_ts: str | None) -> Row:
            try:
                ts = format_ts(self._clock())
            except ValueError as err:
                raise RecordError(f"refusing record: {err}") from err
            # A clock stepped back (NTP) must not write a time before the last record's.
            ts = max(ts, prev_ts or ts)
            row = Row(seq, round_id, kind, text, actor, role.value, ts, note, replay,
                      prev_hash, "")
            return row._replace(hash=_hash_row(row, key))

        with self._driver():
            row = self._backend.append(round_id, replay, kind, build)
        return Record.from_row(row)

    def head(self) -> tuple[int, str]:
        """The last sequence number and hash written (0 and the genesis value when empty)."""
        with self._driver():
            return self._backend.head()

    def _records(self, where: str = "", params: tuple[Any, ...] = (),
                 limit: int | None = None) -> list[Record]:
        with self._driver():
            rows = self._backend.rows(where, params, limit)
        try:
            return [Record.from_row(row) for row in rows]
        except ValueError as err:
            raise JournalCorruptError(f"{self.where}: {err}; run verify") from err

    def records(self, *, after: int = 0, limit: int | None = None) -> list[Record]:
        """Records with a sequence number above ``after``, at most ``limit`` of them."""
        if limit is not None and limit < 1:
            raise QueryError(f"ask for one record or more, not {limit!r}")
        return self._records("WHERE seq > ?", (after,), limit)

    def iter_records(self, batch: int = 1000) -> Iterator[Record]:
        """Every record in order, read ``batch`` at a time (each batch its own snapshot)."""
        after = 0
        while chunk := self.records(after=after, limit=batch):
            yield from chunk
            after = chunk[-1].seq

    def records_of_kind(self, kinds: str | Iterable[str], *, last: int | None = None,
                        after: int = 0, before: int | None = None,
                        round_ids: Iterable[str] | None = None) -> list[Record]:
        """Records of the given kinds, oldest first, read through the ``(kind, seq)`` index:
        with ``last=N`` only the latest N; ``after``/``before`` bound the sequence numbers
        (exclusive); ``round_ids`` keeps only those rounds' records (asked 500 ids a query)."""
        wanted = (kinds,) if isinstance(kinds, str) else tuple(dict.fromkeys(kinds))
        if not wanted:
            raise QueryError("ask for one record kind or more")
        for kind in wanted:
            if not isinstance(kind, str) or not KIND_WORD.fullmatch(kind):
                raise QueryError(f"record kind must be a lower-case word, not {kind!r}")
        if last is not None and (isinstance(last, bool) or not isinstance(last, int)
                                 or last < 1):
            raise QueryError(f"ask for one record or more, not {last!r}")
        for name, bound in (("after", after), ("before", before)):
            if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int)):
                raise QueryError(f"{name} must be a record number, not {bound!r}")
        rounds = None if round_ids is None else tuple(dict.fromkeys(round_ids))
        if rounds is not None:
            bad = [r for r in rounds if not isinstance(r, str)]
            if bad:
                raise QueryError(f"round ids must be text, not {bad[0]!r}")
            if not rounds:
                return []
        batches = [None] if rounds is None else [
            rounds[i:i + _ROUNDS_PER_QUERY] for i in range(0, len(rounds), _ROUNDS_PER_QUERY)]
        rows = []
        with self._driver():
            for batch in batches:
                rows += self._backend.rows_of_kinds(wanted, after=after, before=before,
                                                    last=last, round_ids=batch)
        if len(batches) > 1:
            rows.sort(key=lambda row: row.seq)
            rows = rows if last is None else rows[-last:]
        try:
            return [Record.from_row(row) for row in rows]
        except ValueError as err:
            raise JournalCorruptError(f"{self.where}: {err}; run verify") from err

    def last_of_kind(self, kind: str) -> Record | None:
        """The latest record of ``kind``, or None when there is none."""
        found = self.records_of_kind(kind, last=1)
        return found[0] if found else None

    def round(self, round_id: str) -> list[Record]:
        """A round's records in order."""
        return self._records("WHERE round_id = ?", (round_id,))

    def last_rounds(self, n: int = 10, *, replays: bool = True) -> list[RoundRecall]:
        """The last ``n`` settled rounds, oldest first (replayed ones marked, or left out)."""
        if n < 1:
            raise QueryError(f"ask for one round or more, not {n!r}")
        only_real = "" if replays else "AND replay = ? "
        params: tuple[Any, ...] = (SETTLE, *(() if replays else (False,)), n)
        return recalls(self._records(
            "WHERE round_id IN (SELECT round_id FROM journal_records WHERE kind = ? "
            f"AND round_id IS NOT NULL {only_real}GROUP BY round_id "
            "ORDER BY MAX(seq) DESC LIMIT ?)", params))

    def open_rounds(self) -> list[OpenRound]:
        """Rounds with no settle or void record: after a crash, resume or void each."""
        closing = tuple(sorted(CLOSING))
        return open_rounds(self._records(
            "WHERE round_id IN (SELECT round_id FROM journal_records WHERE round_id IS NOT NULL "
            f"GROUP BY round_id HAVING SUM(CASE WHEN kind IN ({_marks(closing)}) "
            "THEN 1 ELSE 0 END) = 0)", closing))

    def active_faults(self) -> list[Record]:
        """The ``fault_raised`` records that no ``fault_cleared`` of the same id followed."""
        kinds = tuple(sorted(FAULT_KINDS))
        return active_faults(self._records(f"WHERE kind IN ({_marks(kinds)})", kinds))

    def verify(self, anchor: Anchor | None = None, *, batch: int | None = None) -> VerifyReport:
        """Walk the whole chain once; the report names the first bad record and why, or why
        the keys could not be checked (no key, the wrong key, or an unkeyed journal where a
        key was given).  With ``batch`` (a controller verifying its own journal while it
        writes) the records up to the head as it was at the start are read ``batch`` at a
        time, the connection free for appends between batches; later records are the next
        verify's."""
        key, unchecked = None, None
        if self.key_id is not None:
            problem = self.write_problem()
            if problem is None:
                key = self._key if isinstance(self._key, JournalKey) else None
            else:
                unchecked = problem
        elif isinstance(self._key, JournalKey):
            unchecked = (f"the journal is unkeyed ({FORMAT}) but key id {self._key.key_id} "
                         f"was given: an unkeyed chain proves nothing against someone who "
                         f"can write to the database")
        macs = unchecked is None or self.key_id is None
        with self._driver():
            if batch is None:
                report = self._backend.scan(
                    lambda rows, head: verify_rows(rows, head, anchor, key=key, macs=macs))
            else:
                head = self._backend.head()
                report = verify_rows(self._batches(head[0], batch), head, anchor, key=key,
                                     macs=macs)
        return replace(report, key_id=self.key_id,
                       unchecked=unchecked if report.first_bad is None else None)

    def _batches(self, last: int, size: int) -> Iterator[Row]:
        """The stored rows up to ``last``, in order, read ``size`` at a time."""
        after = 0
        while after < last:
            rows = self._backend.rows("WHERE seq > ? AND seq <= ?", (after, last), size)
            yield from rows
            if len(rows) < size:
                return
            after = rows[-1].seq

    def close(self) -> None:
        """Close the connection; the journal object is unusable afterwards."""
        with self._driver():
            self._backend.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _backend(location: str, create: bool) -> Backend:
    if location.startswith(("postgresql://", "postgres://")):
        return PostgresBackend(location, create=create)
    if location.startswith("sqlite:"):
        rest = location.removeprefix("sqlite:")
        return SqliteBackend(Path(rest[2:] if rest.startswith("//") else rest), create=create)
    if _SCHEME.match(location):
        raise JournalURLError(f"unknown journal URL {location!r}: "
                              f"use a file path, sqlite:PATH or postgresql://...")
    return SqliteBackend(Path(location), create=create)


def open_journal(location: str | os.PathLike[str], *, clock: Clock = system_clock,
                 create: bool = True, key: JournalKeyChoice = None,
                 writer: str | None = None) -> Journal:
    """The journal at a path or URL; with ``create=False`` it must already exist.

    ``key``: a ``JournalKey``, ``UNKEYED``, or None for the environment's
    (``PAIGOW_JOURNAL_KEY``, ``PAIGOW_JOURNAL_KEY_FILE``) if any.  A new journal is keyed with
    it, or unkeyed only with ``UNKEYED``; reading needs no key, appending needs the journal's.
    ``writer`` (the command, e.g. ``paigow display``) takes the journal's writer lock for as
    long as it is open: JournalLockedError names the holder when another process has it.
    """
    text = os.fspath(location)
    if not text:
        raise JournalURLError("no journal location given")
    chosen: JournalKey | Unkeyed | None = key_from_env() if key is None else key
    if chosen is not None and not isinstance(chosen, JournalKey | Unkeyed):
        raise JournalKeyError(f"key must be a JournalKey or UNKEYED, not {chosen!r}")
    backend = _backend(text, create)
    try:
        try:
            meta = backend.meta()
        except backend.driver_errors() as err:
            raise JournalURLError(f"{backend.where} holds no journal: {one_line(err)}") from err
        if "format" not in meta and create:
            if chosen is None:
                raise JournalKeyError(
                    f"{backend.where}: a new journal needs a key (key=, $PAIGOW_JOURNAL_KEY or "
                    f"$PAIGOW_JOURNAL_KEY_FILE; paigow journal keygen makes one), or "
                    f"key=UNKEYED for an unkeyed one")
            backend.seed_meta({"format": FORMAT} if chosen is UNKEYED else
                              {"format": FORMAT_KEYED, "key_id": chosen.key_id}
                              if isinstance(chosen, JournalKey) else {})
        journal = Journal(backend, clock, key=chosen, meta=backend.check_meta())
        if writer is not None:
            backend.lock_writer(Holder.me(writer))
            problem = journal.write_problem()
            if problem:
                raise JournalKeyError(f"{backend.where}: {problem}")
    except JournalError:
        backend.close()
        raise
    except backend.driver_errors() as err:
        backend.close()
        raise JournalError(f"{backend.where}: {one_line(err)}") from err
    return journal
