"""Tampering behind the journal's back, by raw SQL, on both back ends: verify names the first
bad record and why."""

from __future__ import annotations

import pytest

from controller.journal import UNKEYED, Anchor, Journal, Role, canonical
from controller.journal.records import Row, hash_row
from tests.journal.helpers import Store, append_round, note

COLS = "seq, round_id, kind, event, actor, role, ts, randomness, replay, prev_hash, hash"


@pytest.fixture
def journal(store: Store) -> Journal:
    """A journal of two demo rounds and two table-level notes (40-odd records); guards off.
    Unkeyed, so a hash can be recomputed as a forger would (``tests/security/test_keyed_chain``
    does the same to a keyed one)."""
    journal = store.open(key=UNKEYED)
    journal.append(note(0), actor="table", role=Role.SYSTEM)
    append_round(journal, "r1", seed=5)
    append_round(journal, "r2", seed=6)
    journal.append(note(1), actor="table", role=Role.SYSTEM)
    assert journal.verify().ok
    store.drop_guards()
    return journal


def row(store: Store, seq: int) -> Row:
    """A stored row as the back end holds it."""
    raw = store.raw(f"SELECT {COLS} FROM journal_records WHERE seq = ?", (seq,))[0]
    return Row(*raw)._replace(replay=bool(raw[8]))


def put(store: Store, new: Row, *, rehash: bool = True) -> None:
    """Insert a row, with a correctly computed hash unless told otherwise."""
    if rehash:
        new = new._replace(hash=hash_row(new))
    store.raw(f"INSERT INTO journal_records ({COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
              tuple(new))


def bad(journal: Journal, anchor: Anchor | None = None) -> tuple[int | None, str]:
    """The first bad record and why."""
    report = journal.verify(anchor)
    assert not report.ok
    assert report.reason is not None and "\n" not in report.reason
    return report.first_bad, report.reason


def test_an_edited_payload_is_named(store: Store, journal: Journal) -> None:
    event = row(store, 9).event.replace('"wager":5000', '"wager":9000')
    assert event != row(store, 9).event
    store.raw("UPDATE journal_records SET event = ? WHERE seq = 9", (event,))
    assert bad(journal) == (9, "contents do not match its hash (edited, moved or inserted)")


@pytest.mark.parametrize(("column", "value"), [
    ("actor", "mallory"), ("role", "supervisor"), ("ts", "2030-01-01T00:00:00.000000Z"),
    ("round_id", "r9"), ("randomness", "secrets"), ("replay", True), ("kind", "deal"),
])
def test_any_edited_column_is_named(store: Store, journal: Journal, column: str,
                                    value: object) -> None:
    store.raw(f"UPDATE journal_records SET {column} = ? WHERE seq = 12", (value,))
    assert bad(journal)[0] == 12


def test_an_edit_with_its_hash_recomputed_breaks_the_link_to_the_next(
        store: Store, journal: Journal) -> None:
    edited = row(store, 9)._replace(actor="mallory")
    store.raw("UPDATE journal_records SET actor = ?, hash = ? WHERE seq = 9",
              (edited.actor, hash_row(edited)))
    seq, reason = bad(journal)
    assert seq == 9 and "record 10 is chained to" in reason


def test_a_rewritten_last_record_differs_from_the_head(store: Store, journal: Journal) -> None:
    last = journal.head()[0]
    edited = row(store, last)._replace(actor="mallory")
    store.raw("UPDATE journal_records SET actor = ?, hash = ? WHERE seq = ?",
              (edited.actor, hash_row(edited), last))
    assert bad(journal) == (last, "hash differs from the journal's head (rewritten)")


def test_a_non_canonical_event_with_a_valid_hash_was_not_written_by_the_journal(
        store: Store, journal: Journal) -> None:
    last = journal.head()[0]
    spaced = row(store, last)._replace(event='{"i": 1, "round": null, "type": "note", "v": 1}')
    store.raw("UPDATE journal_records SET event = ?, hash = ? WHERE seq = ?",
              (spaced.event, hash_row(spaced), last))
    seq, reason = bad(journal)
    assert seq == last and "not in canonical form" in reason


@pytest.mark.parametrize("seq", [1, 2, 20])
def test_a_deleted_record_is_named(store: Store, journal: Journal, seq: int) -> None:
    store.raw("DELETE FROM journal_records WHERE seq = ?", (seq,))
    assert bad(journal) == (seq, f"missing (deleted?): the record after {seq - 1} is {seq + 1}")


def test_records_deleted_from_the_end_are_named(store: Store, journal: Journal) -> None:
    last = journal.head()[0]
    store.raw("DELETE FROM journal_records WHERE seq > ?", (last - 3,))
    seq, reason = bad(journal)
    assert seq == last - 2 and f"head is record {last}" in reason


def test_a_truncation_with_the_head_rewritten_is_caught_by_an_anchor(
        store: Store, journal: Journal) -> None:
    last, last_hash = journal.head()
    anchor = Anchor(last, last_hash)
    assert journal.verify(anchor).ok
    keep = row(store, last - 1)
    store.raw("DELETE FROM journal_records WHERE seq = ?", (last,))
    store.raw("UPDATE journal_head SET seq = ?, hash = ?", (keep.seq, keep.hash))
    assert journal.verify().ok  # a consistent rewrite: only something kept outside shows it
    seq, reason = bad(journal, anchor)
    assert seq == last and "anchor" in reason
    assert not journal.verify(Anchor(3, "0" * 64)).ok


def test_swapped_records_are_named(store: Store, journal: Journal) -> None:
    store.raw("UPDATE journal_records SET seq = -1 WHERE seq = 7")
    store.raw("UPDATE journal_records SET seq = 7 WHERE seq = 8")
    store.raw("UPDATE journal_records SET seq = 8 WHERE seq = -1")
    assert bad(journal)[0] == 7


def test_swapped_payloads_are_named(store: Store, journal: Journal) -> None:
    a, b = row(store, 10), row(store, 11)
    store.raw("UPDATE journal_records SET event = ?, kind = ? WHERE seq = 10", (b.event, b.kind))
    store.raw("UPDATE journal_records SET event = ?, kind = ? WHERE seq = 11", (a.event, a.kind))
    assert bad(journal)[0] == 10


def test_a_record_inserted_in_the_middle_is_named(store: Store, journal: Journal) -> None:
    last = journal.head()[0]
    for seq in range(last, 4, -1):  # make room at 5, from the top down
        store.raw("UPDATE journal_records SET seq = ? WHERE seq = ?", (seq + 1, seq))
    forged = Row(5, "r1", "note", canonical(note(7, "r1")), "mallory", "dealer",
                 "2025-01-01T00:00:04.500000Z", None, False, row(store, 4).hash, "")
    put(store, forged)
    first, reason = bad(journal)
    assert first == 6 and "do not match its hash" in reason


def test_a_record_inserted_before_the_first_is_named(store: Store, journal: Journal) -> None:
    put(store, Row(0, None, "note", canonical(note(0)), "m", "system",
                   "2025-01-01T00:00:00.000000Z", None, False, "0" * 64, ""))
    seq, reason = bad(journal)
    assert seq == 0 and "out of sequence" in reason


def test_a_record_slipped_onto_the_end_is_named(store: Store, journal: Journal) -> None:
    last, last_hash = journal.head()
    put(store, Row(last + 1, None, "note", canonical(note(9)), "m", "system",
                   "2025-01-01T01:00:00.000000Z", None, False, last_hash, ""))
    assert bad(journal) == (last + 1, f"not appended through the journal: its head ends at "
                                      f"record {last}")


def test_a_forged_first_record_is_not_chained_to_genesis(store: Store, journal: Journal) -> None:
    first = row(store, 1)._replace(prev_hash="1" * 64)
    store.raw("UPDATE journal_records SET prev_hash = ?, hash = ? WHERE seq = 1",
              (first.prev_hash, hash_row(first)))
    assert bad(journal) == (1, "not chained to the genesis value")


def test_reading_a_corrupt_row_says_so(store: Store, journal: Journal) -> None:
    store.raw("UPDATE journal_records SET role = 'janitor' WHERE seq = 3")
    from controller.journal import JournalCorruptError

    with pytest.raises(JournalCorruptError, match="janitor"):
        journal.round("r1")
    assert bad(journal)[0] == 3
