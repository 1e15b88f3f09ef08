"""Issue 30 item 4: ``journal verify`` also checks what the engine can never write, so even a
forger who holds the key (or any writer of an unkeyed journal) is caught at the first such
record: a time going backwards, a replay flag on part of a round, a settlement that does not
balance, a record after its round closed."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.commands import journal as journal_command
from controller.journal import Role, StepClock, canonical, open_journal
from controller.journal.kinds import round_voided
from controller.journal.records import Row
from tests.journal.helpers import TEST_KEY, append_round, note
from tests.security.forge import first_of, rechain, rows


@pytest.fixture
def path(tmp_path: Path) -> Path:
    """A keyed journal of two settled demo rounds and a note."""
    where = tmp_path / "table.db"
    with open_journal(where, clock=StepClock()) as journal:
        append_round(journal, "r1", seed=5)
        append_round(journal, "r2", seed=6)
        journal.append(note(1), actor="table", role=Role.SYSTEM)
    return where


def forged(path: Path, edit: Callable[[list[Row]], list[Row]]) -> tuple[int | None, str]:
    """Re-chain with the key after ``edit`` (an insider's forgery); the first bad record."""
    rechain(path, edit, TEST_KEY)
    with open_journal(path, create=False) as journal:
        report = journal.verify()
    assert not report.ok and report.reason is not None and "\n" not in report.reason
    return report.first_bad, report.reason


def at(found: list[Row], i: int, row: Row) -> list[Row]:
    return [*found[:i], row, *found[i + 1:]]


def test_an_intact_journal_passes_every_check(path: Path) -> None:
    rechain(path, lambda old: old, TEST_KEY)
    with open_journal(path, create=False) as journal:
        assert journal.verify().ok


def test_a_time_going_backwards(path: Path) -> None:
    found = rows(path)
    i = first_of(found, "settle")
    earlier = found[i]._replace(ts=found[i - 2].ts)
    seq, reason = forged(path, lambda old: at(old, i, earlier))
    assert seq == found[i].seq
    assert reason == (f"its time {found[i - 2].ts} is before record {found[i - 1].seq}'s "
                      f"{found[i - 1].ts} (the journal's time never goes back)")


def test_a_replay_flag_on_part_of_a_round(path: Path) -> None:
    found = rows(path)
    i = first_of(found, "set")
    seq, reason = forged(path, lambda old: at(old, i, old[i]._replace(replay=True)))
    assert seq == found[i].seq
    assert reason.startswith("replay flag True in round 'r1', whose first record 1 has False")


def test_a_settlement_that_does_not_balance(path: Path) -> None:
    found = rows(path)
    i = first_of(found, "settle")
    event = json.loads(found[i].event)
    seat = next(p for p in event["net"] if p != str(event["banker"]))
    event["net"][seat] += 100_000  # a payout raised, the bank's side left as it was
    seq, reason = forged(path, lambda old: at(old, i, old[i]._replace(event=canonical(event))))
    assert seq == found[i].seq
    assert reason.startswith("the settlement is not one the rules make: settlement nets")


def test_a_settlement_whose_nets_balance_but_not_its_seats(path: Path) -> None:
    found = rows(path)
    i = first_of(found, "settle")
    event = json.loads(found[i].event)
    banker = str(event["banker"])
    seat = next(p for p in event["net"] if p != banker)
    event["net"][seat] += 100_000
    event["net"][banker] -= 100_000  # balanced, but not what the seats' outcomes pay
    seq, reason = forged(path, lambda old: at(old, i, old[i]._replace(event=canonical(event))))
    assert seq == found[i].seq and "do not match its seats" in reason


def test_a_record_after_its_round_closed(path: Path) -> None:
    found = rows(path)
    i = first_of(found, "settle")
    settle = found[i]
    void = settle._replace(kind="round_voided", event=canonical(round_voided("stale copy")),
                           actor="supervisor-1", role=Role.SUPERVISOR.value)
    seq, reason = forged(path, lambda old: [*old[:i + 1], void, *old[i + 1:]])
    assert seq == settle.seq + 1
    assert reason == (f"a 'round_voided' record for round 'r1' after record {settle.seq} "
                      f"(settle) closed it")


def test_the_cli_names_the_first_bad_record(path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    found = rows(path)
    i = first_of(found, "set")
    rechain(path, lambda old: at(old, i, old[i]._replace(replay=True)), TEST_KEY)
    assert journal_command.main(["journal", "verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f": record {found[i].seq}: replay flag True" in err
