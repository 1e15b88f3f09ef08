"""The PostgreSQL back end, chosen by a ``postgresql://`` URL.

Each append is one transaction that locks the head row (``SELECT ... FOR UPDATE``), so writers
in several processes take turns; ``synchronous_commit`` is forced on for the session, so a
record is on the server's disk once ``append`` returns.  Reads run in ``REPEATABLE READ READ
ONLY`` transactions (one snapshot for the head and the rows); ``verify`` streams the rows
through a server-side cursor.  The event is kept as ``text``, not ``jsonb``, because ``jsonb``
re-orders keys and would change the bytes the hash covers.

A ``schema=NAME`` query parameter (not a libpq one, removed before connecting) keeps the
journal's tables in that schema, created when missing.  When the tables exist already (made by
an administrator) nothing is created, so the controller can run as an insert-only role
(``docs/journal.md``).  The writer lock is a session advisory lock on (``WRITER_LOCK``, a hash
of the schema), and the holder names itself in its ``application_name``, which a refused second
writer reads back through ``pg_locks`` and ``pg_stat_activity``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import sql

from .backend import APPEND_ONLY, SEED_ROWS, Backend, Cursor
from .errors import JournalURLError, one_line
from .lock import Holder, refused
from .records import Row

CONNECT_TIMEOUT_S: Final = 5
SCAN_BATCH: Final = 2000
_SCHEMA_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")
_SETUP_LOCK: Final = 0x7061_6967  # pg_advisory_xact_lock key: one schema set-up at a time
WRITER_LOCK: Final = 0x7067_6A6C  # the first key of each journal's writer lock ("pgjl")
_APP: Final = "paigow"  # application_name: paigow|pid|since|host|command (63 bytes at most)
SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS journal_records (
        seq BIGINT PRIMARY KEY,
        round_id TEXT,
        kind TEXT NOT NULL,
        event TEXT NOT NULL,
        actor TEXT NOT NULL,
        role TEXT NOT NULL,
        ts TEXT NOT NULL,
        randomness TEXT,
        replay BOOLEAN NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS journal_records_round ON journal_records (round_id, seq)",
    "CREATE INDEX IF NOT EXISTS journal_records_kind ON journal_records (kind, seq)",
    """CREATE TABLE IF NOT EXISTS journal_head (
        id INTEGER PRIMARY KEY CHECK (id = 1), seq BIGINT NOT NULL, hash TEXT NOT NULL)""",
    "CREATE TABLE IF NOT EXISTS journal_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    f"""CREATE OR REPLACE FUNCTION journal_refuse_change() RETURNS trigger LANGUAGE plpgsql
        AS $$ BEGIN RAISE EXCEPTION '{APPEND_ONLY}'; END $$""",
    """CREATE OR REPLACE TRIGGER journal_records_append_only
        BEFORE UPDATE OR DELETE OR TRUNCATE ON journal_records
        FOR EACH STATEMENT EXECUTE FUNCTION journal_refuse_change()""",
)


def split_schema(url: str) -> tuple[str, str | None]:
    """(libpq URL, schema) from a journal URL; JournalURLError for a bad schema name."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    schemas = [value for key, value in query if key == "schema"]
    if not schemas:
        return url, None
    if len(schemas) > 1 or not _SCHEMA_NAME.fullmatch(schemas[0]):
        raise JournalURLError(f"schema must be one SQL name (letters, digits, _), not {schemas!r}")
    rest = urlencode([(k, v) for k, v in query if k != "schema"])
    return urlunsplit(parts._replace(query=rest)), schemas[0]


def _holder(name: str) -> Holder | None:
    parts = name.split("|", 4)
    if len(parts) != 5 or parts[0] != _APP or not parts[1].isdigit():
        return None
    return Holder(int(parts[1]), parts[3], parts[4], parts[2])


def public_url(url: str) -> str:
    """The URL with any password replaced by ``***``, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


class PostgresBackend(Backend):
    """A journal in a PostgreSQL database (optionally in one schema)."""

    lock_head = " FOR UPDATE"

    def __init__(self, url: str, *, create: bool = True):
        super().__init__(public_url(url))
        conninfo, self.schema = split_schema(url)
        try:
            self._conn = psycopg.connect(conninfo, autocommit=True,
                                         connect_timeout=CONNECT_TIMEOUT_S)
        except psycopg.Error as err:
            raise JournalURLError(f"cannot connect to {self.where}: {one_line(err)}") from err
        try:
            self._conn.execute("SET synchronous_commit = on")
            if self.schema is not None:
                self._conn.execute(sql.SQL("SET search_path TO {}").format(
                    sql.Identifier(self.schema)))
            if create:
                self._create()
        except psycopg.Error as err:
            self._conn.close()
            raise JournalURLError(
                f"cannot set up a journal at {self.where}: {one_line(err)}") from err

    def _exists(self) -> bool:
        row = self._conn.execute("SELECT to_regclass('journal_meta') IS NOT NULL").fetchone()
        if not row or not row[0]:
            return False
        found = self._conn.execute("SELECT 1 FROM journal_meta WHERE key = 'genesis'").fetchone()
        return found is not None

    def _writer_key(self) -> int:
        row = self._conn.execute("SELECT current_schema()").fetchone()
        name = str(row[0] if row else "")
        return int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "big") >> 1

    def lock_writer(self, holder: Holder) -> None:
        """Take this schema's writer lock for the session (JournalLockedError names the
        holder)."""
        key = self._writer_key()
        row = self._conn.execute("SELECT pg_try_advisory_lock(%s, %s)",
                                 (WRITER_LOCK, key)).fetchone()
        if row and row[0]:
            name = "|".join((_APP, str(holder.pid), holder.since, holder.host, holder.command))
            self._conn.execute("SELECT set_config('application_name', %s, false)",
                               (name.encode()[:63].decode("utf-8", "ignore"),))
            return
        found = self._conn.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a USING (pid) "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.classid = %s AND l.objid = %s "
            "AND l.objsubid = 2", (WRITER_LOCK, key)).fetchone()
        raise refused(self.where, _holder(str(found[0]) if found else ""))

    def _create(self) -> None:
        if self._exists():
            return  # made beforehand: an insert-only role may create nothing
        with self._conn.transaction():
            self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SETUP_LOCK,))
            if self.schema is not None:
                self._conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(
                    sql.Identifier(self.schema)))
            for statement in SCHEMA:
                self._conn.execute(statement)
            for text, params in SEED_ROWS:
                self._conn.execute(self._sql(text), params)

    def _sql(self, text: str) -> str:
        return text.replace("?", "%s")

    def _integrity_errors(self) -> tuple[type[Exception], ...]:
        return (psycopg.errors.IntegrityError,)

    def driver_errors(self) -> tuple[type[Exception], ...]:
        """psycopg's exceptions."""
        return (psycopg.Error,)

    @contextmanager
    def _transaction(self, write: bool) -> Iterator[Cursor]:
        with self._conn.transaction(), self._conn.cursor() as cur:
            if not write:
                cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield cur

    def _scan(self, cur: Cursor, sql_text: str,
              params: Sequence[Any]) -> Generator[Row, None, None]:
        # A server-side cursor in the same transaction: rows arrive in batches, not all at once.
        with self._conn.cursor(name="journal_scan") as named:
            named.itersize = SCAN_BATCH
            named.execute(self._sql(sql_text), tuple(params))
            for raw in named:
                yield self._row(raw)

    def close(self) -> None:
        """Close the connection."""
        self._conn.close()
