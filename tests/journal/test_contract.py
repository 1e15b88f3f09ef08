"""The journal's contract, run against SQLite and the real PostgreSQL server alike."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from controller.journal import (
    GENESIS,
    UNKEYED,
    Journal,
    JournalCorruptError,
    JournalURLError,
    QueryError,
    Randomness,
    RecordError,
    ReplayMixError,
    Role,
    StepClock,
    canonical,
    open_journal,
)
from controller.journal.kinds import fault_cleared, fault_raised, round_voided
from controller.journal.records import Row, hash_row
from controller.rules.bank import Settlement
from tests.journal.helpers import TEST_KEY, Store, append_round, demo_events, note


def test_an_empty_journal_verifies_and_starts_at_genesis(store: Store) -> None:
    journal = store.open()
    assert journal.head() == (0, GENESIS)
    assert journal.records() == []
    report = journal.verify()
    assert report.ok and report.records == 0 and report.last_hash == GENESIS


def test_append_returns_the_stored_record_with_every_field(store: Store) -> None:
    clock = StepClock(datetime(2025, 3, 1, 12, 0, tzinfo=UTC), timedelta(milliseconds=250))
    journal = store.open(clock=clock)
    first = journal.append(note(1, "r1"), actor="alice", role=Role.DEALER, round_id="r1",
                           randomness=Randomness.production())
    second = journal.append(note(2), actor="table", role="system")
    assert (first.seq, first.round_id, first.kind, first.actor, first.role) == \
        (1, "r1", "note", "alice", Role.DEALER)
    assert first.ts == "2025-03-01T12:00:00.000000Z"
    assert second.ts == "2025-03-01T12:00:00.250000Z"
    assert str(first.randomness) == "secrets" and second.randomness is None
    assert first.prev_hash == GENESIS and second.prev_hash == first.hash
    assert second.round_id is None and not second.replay
    assert store.open().records() == [first, second]
    assert journal.head() == (2, second.hash)


def test_events_are_stored_as_canonical_json(store: Store) -> None:
    journal = store.open()
    record = journal.append({"v": 1, "type": "note", "z": [1, {"b": 2, "a": "é"}], "a": None},
                            actor="a", role=Role.SYSTEM)
    assert record.event == '{"a":null,"type":"note","v":1,"z":[1,{"a":"\\u00e9","b":2}]}'
    stored = store.raw("SELECT event FROM journal_records WHERE seq = 1")[0][0]
    assert stored == record.event == canonical(json.loads(stored))


@pytest.mark.parametrize("keyed", [True, False])
def test_the_hash_is_the_hmac_or_sha256_of_the_documented_encoding(store: Store,
                                                                   keyed: bool) -> None:
    import hashlib
    import hmac

    journal = store.open() if keyed else store.open(key=UNKEYED)
    record = journal.append(note(1, "r1"), actor="bob", role=Role.SUPERVISOR,
                            round_id="r1", randomness=Randomness.seeded(42), replay=True)
    body = ('{"actor":"bob","event":' + json.dumps(record.event) + ',"kind":"note",'
            '"prev_hash":"' + GENESIS + '","randomness":"seeded:42","replay":true,'
            '"role":"supervisor","round_id":"r1","seq":1,"ts":"2025-01-01T00:00:00.000000Z"}')
    if keyed:
        assert journal.key_id == TEST_KEY.key_id
        assert record.hash == hmac.new(TEST_KEY.secret, body.encode(), "sha256").hexdigest()
    else:
        assert journal.key_id is None
        assert record.hash == hashlib.sha256(body.encode()).hexdigest()


def test_rules_events_read_back_as_the_same_records(store: Store) -> None:
    journal = store.open()
    append_round(journal, "r1", seed=11)
    records = journal.round("r1")
    assert [r.rules_event() for r in records] == demo_events(11)
    assert [r.kind for r in records][-1] == "settle"
    assert {str(r.randomness) for r in records} == {"seeded:11"}


def test_records_page_by_sequence_number(store: Store) -> None:
    journal = store.open()
    for i in range(7):
        journal.append(note(i), actor="a", role=Role.SYSTEM)
    assert [r.seq for r in journal.records(after=2, limit=3)] == [3, 4, 5]
    assert [r.seq for r in journal.iter_records(batch=2)] == list(range(1, 8))
    with pytest.raises(QueryError):
        journal.records(limit=0)


def test_round_records_and_the_last_settled_rounds(store: Store) -> None:
    journal = store.open()
    for n in range(12):
        append_round(journal, f"r{n}", seed=n)
        journal.append(note(n), actor="table", role=Role.SYSTEM)
    journal.append(note(99, "open"), actor="a", role=Role.DEALER, round_id="open")
    recall = journal.last_rounds(10)
    assert [r.round_id for r in recall] == [f"r{n}" for n in range(2, 12)]
    last = recall[-1]
    assert isinstance(last.settlement(), Settlement)
    assert last.settlement() == demo_events(11)[-1]
    view = last.to_json()
    assert view["round_id"] == "r11" and view["replay"] is False
    assert len(view["records"]) == len(demo_events(11))
    seats = view["seats"]
    assert seats and all({"position", "setting", "wager", "outcome", "net"} <= s.keys()
                         for s in seats)
    assert sum(s["net"] for s in seats) + view["banker_net"] == 0
    assert [r.round_id for r in journal.last_rounds(1)] == ["r11"]
    with pytest.raises(QueryError):
        journal.last_rounds(0)


def test_replayed_rounds_are_marked_and_never_mixed_with_real_ones(store: Store) -> None:
    journal = store.open()
    append_round(journal, "real", seed=1)
    append_round(journal, "again", seed=1, replay=True)
    recall = journal.last_rounds(10)
    assert [(r.round_id, r.replay) for r in recall] == [("real", False), ("again", True)]
    assert [r.round_id for r in journal.last_rounds(10, replays=False)] == ["real"]
    with pytest.raises(ReplayMixError, match="replayed round"):
        journal.append(note(1), actor="a", role=Role.DEALER, round_id="again")
    with pytest.raises(ReplayMixError, match="real round"):
        journal.append(note(1), actor="a", role=Role.DEALER, round_id="real", replay=True)
    assert journal.head()[0] == 2 * len(demo_events(1))


def test_open_rounds_are_those_neither_settled_nor_voided(store: Store) -> None:
    journal = store.open()
    append_round(journal, "settled", seed=2)
    journal.append(note(1, "voided"), actor="a", role=Role.DEALER, round_id="voided")
    journal.append(round_voided("misdeal"), actor="a", role=Role.DEALER, round_id="voided")
    journal.append(note(1, "open-1"), actor="a", role=Role.DEALER, round_id="open-1")
    journal.append(note(1, "open-2"), actor="a", role=Role.DEALER, round_id="open-2",
                   replay=True)
    journal.append(note(2, "open-1"), actor="a", role=Role.DEALER, round_id="open-1")
    found = store.open().open_rounds()
    assert [(r.round_id, r.replay, [x.seq for x in r.records]) for r in found] == [
        ("open-1", False, [r.seq for r in journal.round("open-1")]),
        ("open-2", True, [r.seq for r in journal.round("open-2")]),
    ]


def test_active_faults_are_raised_ones_not_cleared(store: Store) -> None:
    journal = store.open()
    raise_ = journal.append(fault_raised("lid", "DOOR", "lid open", "shuffler-1"),
                            actor="shuffler-1", role=Role.DEVICE)
    journal.append(fault_raised("cam", "COMM", "camera lost", critical=True),
                   actor="table", role=Role.SYSTEM, round_id="r1")
    journal.append(fault_cleared("cam"), actor="pat", role=Role.SUPERVISOR, round_id="r1")
    journal.append(fault_raised("cam2", "COMM", "camera lost"), actor="t", role=Role.SYSTEM)
    journal.append(fault_cleared("cam2"), actor="pat", role=Role.SUPERVISOR)
    journal.append(fault_raised("cam2", "COMM", "camera lost again"), actor="t",
                   role=Role.SYSTEM)
    active = store.open().active_faults()
    assert [r.payload()["fault"] for r in active] == ["lid", "cam2"]
    assert active[0] == raise_


@pytest.mark.parametrize(("event", "options", "message"), [
    ({"type": "note", "v": 1, "x": 1.5}, {}, "floats are not stored"),
    ({"type": "note", "v": 1, 3: 1}, {}, "keys must be text"),
    ({"type": "Note", "v": 1}, {}, "lower-case word"),
    ({"type": "note"}, {}, "version"),
    ({"type": "note", "v": True}, {}, "version"),
    ({"type": "note", "v": 1}, {"actor": ""}, "actor"),
    ({"type": "note", "v": 1}, {"actor": "a\nb"}, "actor"),
    ({"type": "note", "v": 1}, {"role": "janitor"}, "janitor"),
    ({"type": "note", "v": 1}, {"round_id": "r 1"}, "round id"),
    ({"type": "note", "v": 1}, {"replay": 1}, "replay"),
    ({"type": "fault_raised", "v": 1}, {}, "fault"),
    ({"type": "fault_cleared", "v": 1, "fault": ""}, {}, "fault"),
])
def test_bad_records_are_refused_and_nothing_is_stored(
        store: Store, event: dict[object, object], options: dict[str, object],
        message: str) -> None:
    journal = store.open()
    arguments: dict[str, object] = {"actor": "a", "role": Role.SYSTEM, **options}
    with pytest.raises(RecordError, match=message):
        journal.append(event, **arguments)  # type: ignore[arg-type]
    assert journal.head() == (0, GENESIS)


def test_a_clock_without_timezone_is_refused(store: Store) -> None:
    journal = store.open(clock=lambda: datetime(2025, 1, 1))
    with pytest.raises(RecordError, match="timezone"):
        journal.append(note(1), actor="a", role=Role.SYSTEM)
    assert journal.head()[0] == 0


def test_the_api_has_no_way_to_change_or_remove_a_record(store: Store) -> None:
    journal = store.open()
    public = {name for name in dir(Journal) if not name.startswith("_")}
    assert not {n for n in public if any(w in n for w in ("update", "delete", "remove", "edit",
                                                          "set", "truncate", "drop"))}
    record = journal.append(note(1), actor="a", role=Role.SYSTEM)
    with pytest.raises(AttributeError):
        record.event = "{}"  # type: ignore[misc]


def test_the_database_refuses_updates_and_deletes_too(store: Store) -> None:
    store.open().append(note(1), actor="a", role=Role.SYSTEM)
    for sql in ("UPDATE journal_records SET actor = 'x'", "DELETE FROM journal_records"):
        with pytest.raises(Exception, match="append-only"):
            store.raw(sql)
    assert store.open().verify().ok


def test_records_survive_reopening_and_appends_continue_the_chain(store: Store) -> None:
    first = store.open()
    append_round(first, "r1", seed=3)
    first.close()
    second = store.open(create=False)
    record = second.append(note(1), actor="a", role=Role.SYSTEM)
    assert record.seq == len(demo_events(3)) + 1
    assert second.verify().ok


def test_opening_without_create_needs_an_existing_journal(store: Store) -> None:
    with pytest.raises(JournalURLError):
        store.open(create=False)


def test_an_append_after_a_row_was_slipped_in_is_refused(store: Store) -> None:
    journal = store.open()
    journal.append(note(1), actor="a", role=Role.SYSTEM)
    row = Row(2, None, "note", canonical(note(2)), "x", "system",
              "2025-01-01T00:00:00.000000Z", None, False, journal.head()[1], "")
    store.raw("INSERT INTO journal_records VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
              tuple(row._replace(hash=hash_row(row))))
    with pytest.raises(JournalCorruptError, match="behind its back"):
        journal.append(note(3), actor="a", role=Role.SYSTEM)
    assert not journal.verify().ok


@pytest.mark.parametrize("location", ["mysql://h/db", "", "sqlite:///nonexistent/dir/x.db"])
def test_bad_locations_are_refused(location: str) -> None:
    with pytest.raises(JournalURLError):
        open_journal(location)


def test_the_recall_reads_a_tile_round_too(store: Store) -> None:
    from pathlib import Path

    from controller.settle.tiles import load_tile_round, settle_tile_round

    path = Path(__file__).parents[1] / "data" / "round_tiles.json"
    settlement = settle_tile_round(load_tile_round(path.read_text(), str(path)))
    journal = store.open()
    journal.append(settlement, actor="dealer-7", role=Role.DEALER, round_id="t1")
    (recall,) = journal.last_rounds(10)
    view = recall.to_json()
    assert view["game"] == "tiles" and recall.settlement() == settlement
    assert all("-" in tile for seat in view["seats"] for tile in seat["setting"]["high"])
