"""The SQLite back end: one file in WAL mode, ``synchronous=FULL``, one transaction per append.

In WAL mode with ``synchronous=FULL`` the write-ahead log is synced to disk at every commit,
so a record is durable once ``append`` returns, whether the process is killed or the power
fails; readers in other processes see a consistent snapshot and never block the writer.
A new file is created 0600 (readable by its owner only); SQLite gives its ``-wal`` and
``-shm`` files the database file's mode.  The writer lock is ``PATH.lock`` (``lock.py``).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from .backend import APPEND_ONLY, SEED_ROWS, Backend, Cursor
from .errors import JournalError, JournalURLError, one_line
from .lock import FileLock, Holder
from .records import Row

BUSY_TIMEOUT_S: Final = 10.0
SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS journal_records (
        seq INTEGER PRIMARY KEY,
        round_id TEXT,
        kind TEXT NOT NULL,
        event TEXT NOT NULL,
        actor TEXT NOT NULL,
        role TEXT NOT NULL,
        ts TEXT NOT NULL,
        randomness TEXT,
        replay INTEGER NOT NULL CHECK (replay IN (0, 1)),
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS journal_records_round ON journal_records (round_id, seq)",
    "CREATE INDEX IF NOT EXISTS journal_records_kind ON journal_records (kind, seq)",
    """CREATE TABLE IF NOT EXISTS journal_head (
        id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL, hash TEXT NOT NULL)""",
    "CREATE TABLE IF NOT EXISTS journal_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    f"""CREATE TRIGGER IF NOT EXISTS journal_records_no_update
        BEFORE UPDATE ON journal_records BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS journal_records_no_delete
        BEFORE DELETE ON journal_records BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END""",
)


class SqliteBackend(Backend):
    """A journal in one SQLite file."""

    def __init__(self, path: Path, *, create: bool = True):
        super().__init__(str(path))
        self._path = path
        self._writer: FileLock | None = None
        if not create and not path.is_file():
            raise JournalURLError(f"no journal at {str(path)!r}")
        if create:
            _create_private(path)
        try:
            self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                                         timeout=BUSY_TIMEOUT_S)
            # The one connection is shared by the threads of a process (the dealer display's
            # workers read while the round writes): a transaction holds it whole, and closing
            # waits for the transaction under way, since CPython's sqlite3 crashes the process
            # when a connection closes beneath another thread's cursor.
            self._using = threading.RLock()
            mode = self._conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            self._conn.execute("PRAGMA synchronous=FULL")
            if create:
                with self._transaction(write=True) as cur:
                    for statement in SCHEMA:
                        cur.execute(statement)
                    for sql, params in SEED_ROWS:
                        cur.execute(sql, params)
        except sqlite3.Error as err:
            raise JournalURLError(f"cannot open journal {str(path)!r}: {one_line(err)}") from err
        if mode != "wal":
            raise JournalError(f"{str(path)!r}: SQLite refused WAL mode (got {mode!r})")

    def _integrity_errors(self) -> tuple[type[Exception], ...]:
        return (sqlite3.IntegrityError,)

    def driver_errors(self) -> tuple[type[Exception], ...]:
        """SQLite's exceptions."""
        return (sqlite3.Error,)

    @contextmanager
    def _transaction(self, write: bool) -> Iterator[Cursor]:
        with self._using:
            cur = self._conn.cursor()
            cur.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield cur
            except BaseException:
                cur.execute("ROLLBACK")
                raise
            else:
                cur.execute("COMMIT")
            finally:
                cur.close()

    def _row(self, raw: Sequence[Any]) -> Row:
        row = Row(*raw)
        return row._replace(replay=bool(row.replay)) if row.replay in (0, 1) else row

    def lock_writer(self, holder: Holder) -> None:
        """Take the ``PATH.lock`` file's lock (JournalLockedError names its holder)."""
        if self._writer is None:
            self._writer = FileLock(self._path, holder)

    def close(self) -> None:
        """Close the file (the WAL is checkpointed by SQLite when the last connection closes)
        and let the next writer in."""
        try:
            with self._using:
                self._conn.close()
        finally:
            if self._writer is not None:
                self._writer.release()
                self._writer = None


def _create_private(path: Path) -> None:
    """Create the journal's file 0600 before SQLite opens it, unless it exists."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    except OSError as err:
        raise JournalURLError(f"cannot create journal {str(path)!r}: {err.strerror}") from err
    os.fchmod(fd, 0o600)  # exact, whatever the umask
    os.close(fd)
