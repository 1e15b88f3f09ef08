"""What both back ends share: the SQL of the journal and the one append transaction.

A back end supplies a connection-specific transaction (``_transaction``) and may stream a
long scan its own way (``_scan``); everything else is written once here with ``?`` marks.
The three tables are ``journal_records`` (one row per record, never updated or deleted;
triggers refuse both), ``journal_head`` (one row: the last sequence number and hash the
journal wrote, changed in the same transaction as each append) and ``journal_meta``
(``format``, ``genesis`` and, for a keyed journal, ``key_id``).
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, Final, Protocol, TypeVar

from .errors import JournalCorruptError, JournalError, ReplayMixError, RoundClosedError
from .kinds import CLOSING
from .lock import Holder
from .records import COLUMNS, FORMATS, GENESIS, Row

T = TypeVar("T")

COLS: Final = ", ".join(COLUMNS)
SELECT: Final = f"SELECT {COLS} FROM journal_records"
HEAD: Final = "SELECT seq, hash FROM journal_head WHERE id = 1"
INSERT: Final = f"INSERT INTO journal_records ({COLS}) VALUES ({', '.join('?' * len(COLUMNS))})"
SET_HEAD: Final = "UPDATE journal_head SET seq = ?, hash = ? WHERE id = 1"
LAST_TS: Final = "SELECT ts FROM journal_records WHERE seq = ?"
ROUND_MODE: Final = "SELECT replay FROM journal_records WHERE round_id = ? ORDER BY seq LIMIT 1"
META: Final = "SELECT key, value FROM journal_meta"
SEED_ROWS: Final = (
    ("INSERT INTO journal_head (id, seq, hash) VALUES (1, 0, ?) ON CONFLICT DO NOTHING",
     (GENESIS,)),
    ("INSERT INTO journal_meta (key, value) VALUES ('genesis', ?) ON CONFLICT DO NOTHING",
     (GENESIS,)),
)
SEED_META: Final = "INSERT INTO journal_meta (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING"
CLOSED: Final = ("SELECT seq, kind FROM journal_records WHERE round_id = ? "
                 f"AND kind IN ({', '.join(repr(k) for k in sorted(CLOSING))}) "
                 "ORDER BY seq LIMIT 1")
APPEND_ONLY: Final = "journal records are append-only"


class Cursor(Protocol):
    """The part of a DB-API cursor the journal uses."""

    def execute(self, sql: Any, params: Any = ..., /) -> Any:
        """Run one statement."""

    def fetchone(self) -> Any:
        """The next row, or None."""

    def fetchall(self) -> Any:
        """The remaining rows."""

    def __iter__(self) -> Iterator[Any]:
        """The remaining rows, one at a time."""


class Backend(ABC):
    """A journal's storage: one connection; threads may share it (one operation at a time)."""

    lock_head: str = ""
    """What the head query needs to lock the head row until commit (PostgreSQL)."""

    def __init__(self, where: str):
        self.where = where
        self._lock = threading.Lock()

    @abstractmethod
    def _transaction(self, write: bool) -> AbstractContextManager[Cursor]:
        """A transaction: the only writer when ``write``, else a read-only snapshot."""

    @abstractmethod
    def _integrity_errors(self) -> tuple[type[Exception], ...]:
        """The driver's exceptions for a refused insert (duplicate key)."""

    @abstractmethod
    def driver_errors(self) -> tuple[type[Exception], ...]:
        """The driver's exceptions, which the journal turns into JournalError."""

    @abstractmethod
    def close(self) -> None:
        """Close the connection."""

    def _sql(self, text: str) -> str:
        return text

    def _row(self, raw: Sequence[Any]) -> Row:
        return Row(*raw)

    def _scan(self, cur: Cursor, sql: str, params: Sequence[Any]) -> Generator[Row, None, None]:
        cur.execute(self._sql(sql), tuple(params))
        for raw in cur:
            yield self._row(raw)

    def lock_writer(self, holder: Holder) -> None:
        """Take the journal's writer lock for this connection's lifetime, or
        JournalLockedError naming the holder."""
        raise JournalError(f"{self.where}: this back end has no writer lock")

    def meta(self) -> dict[str, str]:
        """The ``journal_meta`` table as a dict."""
        with self._lock, self._transaction(write=False) as cur:
            cur.execute(self._sql(META))
            return {str(k): str(v) for k, v in cur.fetchall()}

    def seed_meta(self, values: dict[str, str]) -> None:
        """Store meta keys not stored yet (a new journal's format and key id)."""
        with self._lock, self._transaction(write=True) as cur:
            for key, value in values.items():
                cur.execute(self._sql(SEED_META), (key, value))

    def check_meta(self) -> dict[str, str]:
        """The meta; JournalError unless the stored format is one this code reads."""
        meta = self.meta()
        if meta.get("format") not in FORMATS or meta.get("genesis") != GENESIS:
            raise JournalError(f"{self.where}: not a {' or '.join(FORMATS)} journal "
                               f"(meta {meta!r})")
        return meta

    def append(self, round_id: str | None, replay: bool, kind: str,
               build: Callable[[int, str, str | None], Row]) -> Row:
        """Lock the head, build the next row from (seq, previous hash, previous time), store
        it, commit."""
        with self._lock, self._transaction(write=True) as cur:
            cur.execute(self._sql(HEAD + self.lock_head))
            last_seq, last_hash = cur.fetchone()
            if round_id is not None:
                cur.execute(self._sql(ROUND_MODE), (round_id,))
                found = cur.fetchone()
                if found is not None and bool(found[0]) != replay:
                    mode = "a replayed" if found[0] else "a real"
                    raise ReplayMixError(f"round {round_id!r} is {mode} round; "
                                         f"refusing a record with replay={replay}")
                # Inside the append transaction, so it holds for writers in other processes.
                cur.execute(self._sql(CLOSED), (round_id,))
                closed = cur.fetchone()
                if closed is not None:
                    raise RoundClosedError(
                        f"round {round_id!r} was closed by record {closed[0]} ({closed[1]}); "
                        f"refusing a {kind!r} record for it")
            prev_ts = None
            if last_seq:
                cur.execute(self._sql(LAST_TS), (last_seq,))
                found_ts = cur.fetchone()
                prev_ts = None if found_ts is None else str(found_ts[0])
            row = build(last_seq + 1, last_hash, prev_ts)
            try:
                cur.execute(self._sql(INSERT), tuple(row))
            except self._integrity_errors() as err:
                raise JournalCorruptError(
                    f"{self.where}: cannot append record {row.seq}: a row with that number "
                    f"exists, so the journal was changed behind its back (run verify)") from err
            cur.execute(self._sql(SET_HEAD), (row.seq, row.hash))
        return row

    def head(self) -> tuple[int, str]:
        """The last sequence number and hash the journal wrote."""
        with self._lock, self._transaction(write=False) as cur:
            cur.execute(self._sql(HEAD))
            seq, hash_ = cur.fetchone()
            return int(seq), str(hash_)

    def rows(self, where: str = "", params: Sequence[Any] = (),
             limit: int | None = None) -> list[Row]:
        """The rows matching a ``WHERE`` clause (with ``?`` marks), in sequence order."""
        sql = f"{SELECT} {where} ORDER BY seq"
        if limit is not None:
            sql, params = f"{sql} LIMIT ?", (*params, limit)
        with self._lock, self._transaction(write=False) as cur:
            cur.execute(self._sql(sql), tuple(params))
            return [self._row(raw) for raw in cur.fetchall()]

    def rows_of_kinds(self, kinds: Sequence[str], *, after: int = 0, before: int | None = None,
                      last: int | None = None,
                      round_ids: Sequence[str] | None = None) -> list[Row]:
        """Rows of ``kinds`` with ``after < seq < before`` (and in ``round_ids``), in sequence
        order; with ``last``, only the latest ``last`` of them.

        One query per kind, each ``kind = ? ... ORDER BY seq DESC LIMIT ?``, which the
        ``(kind, seq)`` index answers by reading only the rows returned (a query naming rounds
        uses the ``(round_id, seq)`` index); all in one snapshot, merged here.
        """
        found: list[Row] = []
        with self._lock, self._transaction(write=False) as cur:
            for kind in kinds:
                where, params = ["kind = ?", "seq > ?"], [kind, after]
                if before is not None:
                    where.append("seq < ?")
                    params.append(before)
                if round_ids is not None:
                    where.append(f"round_id IN ({', '.join('?' for _ in round_ids)})")
                    params.extend(round_ids)
                sql = f"{SELECT} WHERE {' AND '.join(where)} ORDER BY seq"
                if last is not None:
                    sql = f"{sql} DESC LIMIT ?"
                    params.append(last)
                cur.execute(self._sql(sql), tuple(params))
                found.extend(self._row(raw) for raw in cur.fetchall())
        found.sort(key=lambda row: row.seq)
        return found if last is None else found[-last:]

    def scan(self, consume: Callable[[Iterator[Row], tuple[int, str]], T]) -> T:
        """``consume(every row in order, head)`` inside one snapshot, rows streamed."""
        with self._lock, self._transaction(write=False) as cur:
            cur.execute(self._sql(HEAD))
            seq, hash_ = cur.fetchone()
            rows = self._scan(cur, f"{SELECT} ORDER BY seq", ())
            try:
                return consume(rows, (int(seq), str(hash_)))
            finally:
                rows.close()  # a scan that stopped early closes its cursor inside the snapshot
