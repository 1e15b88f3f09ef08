"""A forger with write access to an SQLite journal: drop the guards, change rows, and rebuild a
consistent chain (hashes, links and head) from the first changed record on, as a person with
the database file, and perhaps the key, could."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from controller.journal import GENESIS, JournalKey
from controller.journal.records import COLUMNS, Row, hash_row

COLS = ", ".join(COLUMNS)
Edit = Callable[[list[Row]], list[Row]]


def rows(path: Path) -> list[Row]:
    """Every stored row, in order."""
    db = sqlite3.connect(path)
    try:
        return [Row(*raw)._replace(replay=bool(raw[8]))
                for raw in db.execute(f"SELECT {COLS} FROM journal_records ORDER BY seq")]
    finally:
        db.close()


def rechain(path: Path, edit: Edit, key: JournalKey | None = None, *,
            everything: bool = False) -> None:
    """Replace the journal's rows by ``edit(rows)``, renumbered 1.. and re-chained from the
    first changed row with ``key`` (None: plain SHA-256, what anyone can compute), the head
    set to match (``everything``: every hash recomputed, as to pass off another format)."""
    old = rows(path)
    new, prev = [], GENESIS
    for seq, row in enumerate(edit(list(old)), 1):
        row = row._replace(seq=seq, prev_hash=prev)
        kept = (not everything and seq <= len(old)
                and old[seq - 1]._replace(hash="") == row._replace(hash=""))
        # rows before the first change keep their hashes: only what changed needs forging
        row = row._replace(hash=old[seq - 1].hash if kept else hash_row(row, key))
        new.append(row)
        prev = row.hash
    db = sqlite3.connect(path)
    try:
        with db:
            for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'"
                                      ).fetchall():
                db.execute(f"DROP TRIGGER {name}")
            db.execute("DELETE FROM journal_records")
            db.executemany(f"INSERT INTO journal_records ({COLS}) VALUES "
                           f"({', '.join('?' * len(COLUMNS))})", [tuple(r) for r in new])
            db.execute("UPDATE journal_head SET seq = ?, hash = ? WHERE id = 1",
                       (len(new), prev))
    finally:
        db.close()


def first_of(found: list[Row], kind: str, actor: str | None = None) -> int:
    """The index of the first row of ``kind`` (by ``actor``)."""
    return next(i for i, r in enumerate(found) if r.kind == kind
                and (actor is None or r.actor == actor))
