"""Issue 30 item 4: the journal's files are readable by their owner only (the SQLite file, its
``-wal`` and ``-shm``, the lock file, the key file ``paigow demo`` makes), and on PostgreSQL the
controller works as an insert-only role that cannot change or remove a record."""

from __future__ import annotations

import os
import stat
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from controller.commands import journal as journal_command
from controller.commands.journal import open_writer
from controller.journal import Role, StepClock, open_journal
from tests.journal.helpers import PG_URL, append_round, note, pg_schema


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_sqlite_files_are_private_whatever_the_umask(tmp_path: Path) -> None:
    where = tmp_path / "table.db"
    old = os.umask(0o002)
    try:
        with open_journal(where, clock=StepClock(), writer="paigow demo") as journal:
            append_round(journal, "r1", seed=2)
            files = [where, Path(f"{where}-wal"), Path(f"{where}-shm"), Path(f"{where}.lock")]
            assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}
    finally:
        os.umask(old)


def test_demo_makes_a_private_key_beside_its_journal(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    monkeypatch.delenv("PAIGOW_JOURNAL_KEY")
    where = tmp_path / "demo.db"
    args = argparse.Namespace(key_file=None, unkeyed=False)
    with open_writer(str(where), args, "paigow demo", make_key=True) as journal:
        journal.append(note(1), actor="table", role=Role.SYSTEM)
        key_id = journal.key_id
    key = Path(f"{where}.key")
    assert mode(key) == 0o600 and key_id is not None
    with open_writer(str(where), args, "paigow display") as journal:  # found beside it
        assert journal.key_id == key_id and journal.verify().ok


@pytest.fixture
def insert_only() -> Iterator[tuple[str, str]]:
    """(admin URL, insert-only role URL) of a journal schema an administrator made."""
    role = f"paigow_writer_{uuid.uuid4().hex[:8]}"
    with pg_schema("journal_role") as schema:
        admin = f"{PG_URL}?schema={schema}"
        assert journal_command.main(["journal", "init", admin]) == 0
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f'CREATE ROLE "{role}" LOGIN')
            conn.execute(f'GRANT USAGE ON SCHEMA "{schema}" TO "{role}"')
            conn.execute(f'GRANT SELECT, INSERT ON "{schema}".journal_records, '
                         f'"{schema}".journal_meta TO "{role}"')
            conn.execute(f'GRANT SELECT, UPDATE ON "{schema}".journal_head TO "{role}"')
        try:
            yield admin, PG_URL.replace("postgres@", f"{role}@", 1) + f"?schema={schema}"
        finally:
            with psycopg.connect(PG_URL, autocommit=True) as conn:
                conn.execute(f'DROP OWNED BY "{role}"')
                conn.execute(f'DROP ROLE "{role}"')


def test_the_controller_works_as_an_insert_only_role(insert_only: tuple[str, str]) -> None:
    admin, writer = insert_only
    with open_journal(writer, clock=StepClock(), writer="paigow run") as journal:
        append_round(journal, "r1", seed=2)
        assert journal.verify().ok
    with open_journal(admin, create=False) as journal:
        assert journal.verify().ok and journal.last_rounds(1)[0].round_id == "r1"
    schema = writer.rsplit("=", 1)[1]
    with psycopg.connect(writer.split("?")[0], autocommit=True) as conn:
        conn.execute(f'SET search_path TO "{schema}"')
        for sql in ("UPDATE journal_records SET actor = 'mallory' WHERE seq = 2",
                    "DELETE FROM journal_records WHERE seq = 2",
                    "TRUNCATE journal_records",
                    "DROP TRIGGER journal_records_append_only ON journal_records",
                    "UPDATE journal_meta SET value = 'paigow-journal/1' WHERE key = 'format'"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(sql)
