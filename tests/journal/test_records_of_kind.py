"""``Journal.records_of_kind`` / ``last_of_kind`` on each back end, checked against a plain
filter of every record, and ``round/history.py`` built on them checked against a linear read
of the whole journal (what it did before), across restarts, other profiles, voids and replays."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from controller.journal import Journal, QueryError, Record, Role
from controller.round import PokerRound, Who
from controller.round.history import TableHistory
from controller.rules.poker.dealing import HOUSE
from controller.rules.poker.home_pot import PotStatus
from tests.journal.helpers import Store, append_round, deal_and_set, note, profile_round

D, S, SYS = Who.dealer(), Who.supervisor(), Who.system()


# --- the query ----------------------------------------------------------------------------------

def _filled(journal: Journal) -> list[Record]:
    journal.append(note(0), actor="table", role=Role.SYSTEM)
    for n, seed in enumerate((31, 32, 33)):
        # the note opens the round: nothing may follow its settlement
        journal.append(note(n + 1, f"r{n}"), actor="table", role=Role.SYSTEM, round_id=f"r{n}",
                       replay=n == 1)
        append_round(journal, f"r{n}", seed, replay=n == 1)
    return journal.records()


def test_records_of_kind_is_a_filter_of_the_records(store: Store) -> None:
    journal = store.open()
    every = _filled(journal)
    head = every[-1].seq
    kinds_cases = [("settle",), ("note",), ("bet", "settle"), ("set", "note", "roll"),
                   ("nothing_of_this",)]
    rounds_cases: list[tuple[str, ...] | None] = [None, ("r1",), ("r0", "r2", "zz")]
    for kinds, last, after, before, rounds in itertools.product(
            kinds_cases, (None, 1, 3, 100), (0, 5), (None, head - 4), rounds_cases):
        expected = [r for r in every if r.kind in kinds and r.seq > after
                    and (before is None or r.seq < before)
                    and (rounds is None or r.round_id in rounds)]
        expected = expected if last is None else expected[-last:]
        got = journal.records_of_kind(kinds, last=last, after=after, before=before,
                                      round_ids=rounds)
        assert got == expected, (kinds, last, after, before, rounds)
    assert journal.records_of_kind("note") == journal.records_of_kind(["note", "note"])
    assert journal.last_of_kind("settle") == [r for r in every if r.kind == "settle"][-1]
    assert journal.last_of_kind("nothing_of_this") is None
    assert journal.records_of_kind("settle", round_ids=[]) == []


def test_many_round_ids_are_asked_in_batches(store: Store) -> None:
    journal = store.open()
    for i in range(3):
        journal.append(note(i, f"q{i}"), actor="table", role=Role.SYSTEM, round_id=f"q{i}")
    asked = [f"x{i}" for i in range(1_200)] + ["q0", "q2"]  # three batches of round ids
    assert [r.round_id for r in journal.records_of_kind("note", round_ids=asked)] == ["q0", "q2"]
    assert [r.round_id for r in journal.records_of_kind("note", round_ids=asked, last=1)] \
        == ["q2"]


@pytest.mark.parametrize(("call", "named"), [
    (lambda j: j.records_of_kind([]), "one record kind or more"),
    (lambda j: j.records_of_kind("Settle"), "'Settle'"),
    (lambda j: j.records_of_kind(["settle", 7]), "7"),
    (lambda j: j.records_of_kind("settle", last=0), "not 0"),
    (lambda j: j.records_of_kind("settle", last=True), "True"),
    (lambda j: j.records_of_kind("settle", after="3"), "'3'"),
    (lambda j: j.records_of_kind("settle", before=2.5), "2.5"),
    (lambda j: j.records_of_kind("settle", round_ids=["r1", 3]), "not 3"),
])
def test_bad_questions_are_named(store: Store, call: Any, named: str) -> None:
    with pytest.raises(QueryError, match=named):
        call(store.open())


def test_the_sqlite_plan_reads_the_kind_index(tmp_path: Any) -> None:
    import sqlite3

    from controller.journal import open_journal
    open_journal(tmp_path / "j.db").close()
    conn = sqlite3.connect(tmp_path / "j.db")
    plan = " ".join(str(row) for row in conn.execute(
        "EXPLAIN QUERY PLAN SELECT * FROM journal_records WHERE kind = ? AND seq > ? "
        "AND seq < ? ORDER BY seq DESC LIMIT ?", ("settle", 0, 10, 5)))
    conn.close()
    assert "journal_records_kind" in plan and "TEMP B-TREE" not in plan


# --- the table's history ------------------------------------------------------------------------

def _linear(journal: Journal, profile: str, replay: bool = False
            ) -> tuple[dict[int, int], int | None, PotStatus]:
    """What the history said before: every record read once, in order (the reference)."""
    mine: set[str] = set()
    wagers: dict[int, int] = {}
    offered, pot = None, PotStatus()
    for record in journal.records():
        if record.round_id is None or record.replay != replay:
            continue
        data = record.payload()
        if record.kind == "round_opened" and data.get("profile") == profile:
            mine.add(record.round_id)
        elif record.round_id not in mine:
            continue
        elif record.kind == "bank_offered":
            offered = data["position"]
        elif record.kind == "settle" and "pot" in data:
            pot = PotStatus(data["pot"]["carry"], frozenset(data["pot"]["exempt_next"]))
        elif record.kind == "settle":
            for seat in data["seats"]:
                if seat["bet"]["position"] != HOUSE and seat["bet"]["wager"]:
                    wagers[seat["bet"]["position"]] = seat["bet"]["wager"]
    return wagers, offered, pot


def _finish(engine: PokerRound, expose: bool = True) -> None:
    deal_and_set(engine)
    if expose:
        engine.expose_dealer(D)
    engine.settle(D)


def _heads_up(engine: PokerRound, wager: int) -> None:
    engine.open_round(D)
    engine.take_bet(D, 2, wager)
    _finish(engine)


def _rotation(engine: PokerRound, take: bool, wagers: dict[int, int]) -> None:
    engine.open_round(D)
    engine.offer_bank(D)
    assert engine.round is not None and engine.round.bank_offer is not None
    if take:
        engine.bank(S, engine.round.bank_offer, 50_000)
        engine.take_bet(D, 1, 2_500)
    else:
        engine.decline_bank(D)
    for position, wager in wagers.items():
        if position != engine.round.bank_offer:
            engine.take_bet(D, position, wager)
    _finish(engine)


def _home(engine: PokerRound) -> None:
    engine.open_round(D)
    for position in range(2, 8):
        engine.take_bet(D, position, engine.ante_due(position))
    _finish(engine, expose=False)


def _answers(history: TableHistory) -> tuple[dict[int, int], int | None, PotStatus]:
    wagers = {p: w for p in range(2, 8) if (w := history.last_wager(p)) is not None}
    return wagers, history.last_offered(), history.pot()


def _check(journal: Journal, profile: str, kept: TableHistory | None = None) -> TableHistory:
    """A fresh reader (a restart) and a kept one both say what the linear read says."""
    expected = _linear(journal, profile)
    fresh = TableHistory(journal, "poker", profile, False)
    assert _answers(fresh) == expected
    if kept is not None:
        assert _answers(kept) == expected
    return fresh


def test_history_matches_a_linear_read_across_tables_and_restarts(store: Store) -> None:
    journal = store.open()
    heads_up = profile_round(journal, "heads-up", 1)
    rotation = profile_round(journal, "rotation", 2)
    home = profile_round(journal, "home", 3)
    kept: dict[str, TableHistory | None] = {"heads-up": None, "rotation": None, "home": None}
    for n in range(4):
        _heads_up(heads_up, 500 + 100 * n)
        _rotation(rotation, take=n % 2 == 0, wagers={2: 500 + n, 3: 700, 5 + n % 2: 900})
        _home(home)
        if n == 1:  # a voided round leaves the wager, the turn and the pot as they were
            heads_up.open_round(D)
            heads_up.take_bet(D, 2, 45_000)
            heads_up.void(S, "misdeal")
            rotation.open_round(D)
            rotation.offer_bank(D)
            rotation.void(S, "misdeal")
            home.open_round(D)
            home.take_bet(D, 2, home.ante_due(2))
            home.void(S, "misdeal")
        for profile in kept:  # restarted readers, and readers kept across new rounds
            kept[profile] = _check(journal, profile, kept[profile])
    wagers, offered, _ = _linear(journal, "rotation")
    assert offered is not None and {2, 3} <= set(wagers)
    assert _linear(journal, "heads-up")[0] == {2: 800}  # the voided 450.00 does not count
    assert _answers(TableHistory(journal, "poker", "heads-up", True)) == ({}, None, PotStatus())
    assert _answers(TableHistory(journal, "tiles", "heads-up", False)) == ({}, None, PotStatus())


def test_a_round_open_across_a_restart_counts(store: Store) -> None:
    journal = store.open()
    first = profile_round(journal, "heads-up", 1)
    _heads_up(first, 700)
    first.open_round(D)
    first.take_bet(D, 2, 1_200)
    reader = TableHistory(journal, "poker", "heads-up", False)
    assert reader.last_wager(2) == 700  # the reader starts while a round is open
    _finish(first)  # the round settles after the reader noted the head
    assert reader.last_wager(2) == 1_200 == _linear(journal, "heads-up")[0][2]


class _Counting:
    """A journal that counts the records each query hands back (the history's reads)."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.read: dict[str, int] = {}

    def __getattr__(self, name: str) -> Any:
        call = getattr(self.journal, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            found = call(*args, **kwargs)
            if isinstance(found, list):
                self.read[name] = self.read.get(name, 0) + len(found)
            return found
        return counted


def test_a_restart_reads_the_newest_rounds_not_the_whole_journal(tmp_path: Any) -> None:
    from controller.journal import StepClock, open_journal
    journal = open_journal(tmp_path / "j.db", clock=StepClock())
    heads_up, home = profile_round(journal, "heads-up", 1), profile_round(journal, "home", 3)
    for n in range(40):
        _heads_up(heads_up, 500 + 100 * (n % 7))
    _home(home)
    for n in range(20):
        _heads_up(heads_up, 600 + n)
    total = journal.head()[0]
    counting = _Counting(journal)
    history = TableHistory(counting, "poker", "heads-up", False)  # type: ignore[arg-type]
    assert history.last_wager(2) == 619
    assert "records" not in counting.read and sum(counting.read.values()) < total / 10
    counting.read.clear()
    pot = TableHistory(counting, "poker", "home", False).pot()  # type: ignore[arg-type]
    assert pot == _linear(journal, "home")[2]
    assert "records" not in counting.read and sum(counting.read.values()) < total / 5
