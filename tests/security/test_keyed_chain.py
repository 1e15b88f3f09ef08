"""Issue 30 item 4: the chain has a key.  A forger with write access but not the key edits a
payout, deletes a round or forges a supervisor's act and recomputes the chain as the unkeyed
format did (SHA-256): verify, which said ok before, names the first forged record."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from pathlib import Path

import pytest

from controller.commands import journal as journal_command
from controller.journal import (
    KEY_ENV,
    UNKEYED,
    JournalKey,
    JournalKeyError,
    Role,
    StepClock,
    VerifyReport,
    canonical,
    open_journal,
)
from controller.journal.records import Row
from tests.journal.helpers import TEST_KEY, append_round, note
from tests.security.forge import first_of, rechain, rows

OTHER_KEY = JournalKey(bytes(range(1, 33)))


@pytest.fixture
def keyed(tmp_path: Path) -> Path:
    """A keyed journal of a note and two settled demo rounds."""
    path = tmp_path / "table.db"
    with open_journal(path, key=TEST_KEY, clock=StepClock()) as journal:
        journal.append(note(0), actor="table", role=Role.SYSTEM)
        append_round(journal, "r1", seed=5)
        append_round(journal, "r2", seed=6)
        assert journal.verify().ok
    return path


def verify(path: Path, key: JournalKey | None = TEST_KEY) -> VerifyReport:
    with open_journal(path, create=False, key=key or UNKEYED) as journal:
        return journal.verify()


def test_a_payout_edited_and_the_chain_recomputed_is_caught(keyed: Path) -> None:
    found = rows(keyed)
    at = first_of(found, "settle")

    def pay_more(old: list[Row]) -> list[Row]:
        settle = old[at]
        event = json.loads(settle.event)
        seat = next(p for p in event["net"] if p != str(event["banker"]))
        event["net"][seat] += 100_000  # the seat is paid $1,000 more, the bank loses it
        event["net"][str(event["banker"])] -= 100_000
        return [*old[:at], settle._replace(event=canonical(event)), *old[at + 1:]]

    rechain(keyed, pay_more)
    report = verify(keyed)
    assert not report.ok
    assert report.first_bad == found[at].seq
    assert report.reason == "contents do not match its hash (edited, moved or inserted)"


def test_the_last_round_cut_off_shows_only_against_an_anchor(keyed: Path) -> None:
    """What a keyed chain cannot prove: nothing was cut off the end, unless the head is kept
    elsewhere (``docs/security.md``)."""
    with open_journal(keyed, create=False) as journal:
        head = journal.verify()
    rechain(keyed, lambda old: [r for r in old if r.round_id != "r2"])
    assert verify(keyed).ok  # a shorter, intact chain
    from controller.journal import Anchor
    with open_journal(keyed, create=False) as journal:
        report = journal.verify(Anchor(head.last_seq, head.last_hash))
    assert not report.ok and "anchor" in (report.reason or "")


def test_a_round_deleted_from_the_middle_is_caught(keyed: Path) -> None:
    found = rows(keyed)
    first_r1 = next(r.seq for r in found if r.round_id == "r1")
    rechain(keyed, lambda old: [r for r in old if r.round_id != "r1"])
    report = verify(keyed)
    assert not report.ok
    assert report.first_bad == first_r1
    assert "do not match its hash" in (report.reason or "")


def test_a_forged_supervisor_act_is_caught(keyed: Path) -> None:
    found = rows(keyed)
    last = found[-1]
    forged = Row(0, None, "fault_cleared",
                 canonical({"type": "fault_cleared", "v": 1, "fault": "r2/shuffler/1",
                            "text": "cleared by supervisor-1"}),
                 "supervisor-1", Role.SUPERVISOR.value, last.ts, None, False, "", "")
    rechain(keyed, lambda old: [*old, forged])
    report = verify(keyed)
    assert not report.ok and report.first_bad == last.seq + 1
    assert "do not match its hash" in (report.reason or "")


def test_an_unkeyed_chain_is_what_the_forger_could_pass_off(tmp_path: Path) -> None:
    """Before the key, this was the whole story: a recomputed chain verified."""
    path = tmp_path / "old.db"
    with open_journal(path, key=UNKEYED, clock=StepClock()) as journal:
        append_round(journal, "r1", seed=5)
    at = first_of(rows(path), "bet")
    rechain(path, lambda old: [*old[:at], old[at]._replace(actor="mallory"), *old[at + 1:]])
    assert verify(path, None).ok  # no key: nothing tells
    report = verify(path, TEST_KEY)  # whoever expects a keyed journal is told
    assert not report.ok and report.unchecked is not None
    assert "unkeyed" in report.unchecked


def test_a_keyed_journal_turned_unkeyed_is_refused_by_the_key_holder(keyed: Path) -> None:
    at = first_of(rows(keyed), "bet")
    rechain(keyed, lambda old: [*old[:at], old[at]._replace(actor="mallory"), *old[at + 1:]],
            everything=True)
    db = sqlite3.connect(keyed)
    with db:
        db.execute("UPDATE journal_meta SET value = 'paigow-journal/1' WHERE key = 'format'")
        db.execute("DELETE FROM journal_meta WHERE key = 'key_id'")
    db.close()
    assert verify(keyed, None).ok  # a consistent unkeyed chain, for whoever expects no key
    report = verify(keyed)
    assert not report.ok and report.first_bad is None
    assert report.line().startswith("cannot check: the journal is unkeyed (paigow-journal/1) "
                                    f"but key id {TEST_KEY.key_id} was given")


def test_without_the_key_verify_says_it_cannot_check(keyed: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV)
    with open_journal(keyed, create=False) as journal:
        report = journal.verify()
    assert not report.ok and report.first_bad is None
    assert report.line() == (f"cannot check: the journal is keyed (key id {TEST_KEY.key_id}) "
                             f"and no key was given (--key-file, $PAIGOW_JOURNAL_KEY or "
                             f"$PAIGOW_JOURNAL_KEY_FILE)")
    with open_journal(keyed, create=False, key=OTHER_KEY) as journal:
        report = journal.verify()
        with pytest.raises(JournalKeyError, match="wrong key"):
            journal.append(note(9), actor="table", role=Role.SYSTEM)
    assert report.unchecked == (f"wrong key: the journal's key id is {TEST_KEY.key_id}, the "
                                f"key given has key id {OTHER_KEY.key_id}")


def test_the_cli_verifies_with_a_key_file_and_names_a_missing_key(
        keyed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(KEY_ENV)
    assert journal_command.main(["journal", "verify", str(keyed)]) == 1
    assert "cannot check: the journal is keyed" in capsys.readouterr().err
    key_file = tmp_path / "k"
    key_file.write_text(TEST_KEY.text())
    key_file.chmod(0o600)
    assert journal_command.main(["journal", "verify", str(keyed), "--key-file",
                                 str(key_file)]) == 0
    assert f"(keyed, key id {TEST_KEY.key_id})" in capsys.readouterr().out
    key_file.chmod(0o640)
    assert journal_command.main(["journal", "verify", str(keyed), "--key-file",
                                 str(key_file)]) == 2
    assert "readable by others (mode 0640)" in capsys.readouterr().err


def test_keygen_makes_a_private_key_file_and_never_overwrites(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "journal.key"
    old = os.umask(0)  # even a permissive umask gives 0600
    try:
        assert journal_command.main(["journal", "keygen", str(out)]) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    key = JournalKey.load(out)
    assert key.key_id in capsys.readouterr().out
    assert key.secret.hex() not in repr(key)
    assert journal_command.main(["journal", "keygen", str(out)]) == 2
    assert JournalKey.load(out) == key


def test_a_new_journal_without_a_key_is_refused_unless_asked_unkeyed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV)
    with pytest.raises(JournalKeyError, match="a new journal needs a key"):
        open_journal(tmp_path / "a.db")
    with open_journal(tmp_path / "b.db", key=UNKEYED) as journal:
        assert journal.key_id is None
    with open_journal(tmp_path / "b.db") as journal, \
            pytest.raises(JournalKeyError, match="key=UNKEYED"):
        journal.append(note(1), actor="table", role=Role.SYSTEM)
