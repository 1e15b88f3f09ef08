"""``journal verify`` and ``journal show`` through their handlers (as ``paigow`` will run them)."""

from __future__ import annotations

import json

import pytest

from controller.commands.journal import main
from controller.journal import Role
from tests.journal.helpers import Store, append_round, note


@pytest.fixture
def filled(store: Store) -> Store:
    """A journal with a table note, two settled rounds (one a replay) and an open round."""
    journal = store.open()
    journal.append(note(0), actor="table", role=Role.SYSTEM)
    append_round(journal, "r1", seed=21)
    append_round(journal, "r2", seed=22, replay=True)
    journal.append(note(1, "r3"), actor="dealer-7", role=Role.DEALER, round_id="r3")
    return store


def test_verify_an_intact_journal(filled: Store, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["journal", "verify", filled.url]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and ": ok: " in out
    assert main(["journal", "verify", filled.url, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True and report["first_bad"] is None and report["records"] > 20
    anchor = f"{report['last_seq']}:{report['last_hash']}"
    assert main(["journal", "verify", filled.url, "--anchor", anchor]) == 0


def test_verify_names_the_first_bad_record_in_one_line(
        filled: Store, capsys: pytest.CaptureFixture[str]) -> None:
    filled.drop_guards()
    filled.raw("DELETE FROM journal_records WHERE seq = 4")
    assert main(["journal", "verify", filled.url]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "record 4: missing" in captured.err
    assert main(["journal", "verify", filled.url, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and report["first_bad"] == 4


@pytest.mark.parametrize(("anchor", "status"), [("nope", 2), ("1:" + "f" * 64, 1)])
def test_verify_with_a_malformed_or_wrong_anchor(filled: Store, anchor: str, status: int) -> None:
    assert main(["journal", "verify", filled.url, "--anchor", anchor]) == status


def test_show_every_record_as_text_and_json(
        filled: Store, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["journal", "show", filled.url]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:4] == ["1", "2025-01-01T00:00:00.000000Z", "-", "note"]
    assert any("REPLAY seeded:22" in line for line in lines)
    assert main(["journal", "show", filled.url, "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["seq"] for r in records] == list(range(1, len(lines) + 1))
    assert records[0]["event"] == note(0)


def test_show_one_round(filled: Store, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["journal", "show", filled.url, "--round", "r3", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["round_id"] for r in records] == ["r3"]
    assert main(["journal", "show", filled.url, "--round", "nope"]) == 2
    assert "no round 'nope'" in capsys.readouterr().err


def test_show_the_last_rounds(filled: Store, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["journal", "show", filled.url, "--last", "10"]) == 0
    out = capsys.readouterr().out
    assert out.index("round r1") < out.index("round r2")
    assert "REPLAY (no real wagers)" in out.split("round r2")[1]
    assert "wager 50.00" in out and "banker 1" in out
    assert main(["journal", "show", filled.url, "--last", "1", "--json"]) == 0
    rounds = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["round_id"], r["replay"]) for r in rounds] == [("r2", True)]
    assert main(["journal", "show", filled.url, "--last", "0"]) == 2


def test_a_missing_journal_is_an_error_not_an_empty_one(
        tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    missing = f"{tmp_path}/none.db"
    assert main(["journal", "verify", missing]) == 2
    assert main(["journal", "show", missing]) == 2
    err = capsys.readouterr().err
    assert err.count("paigow: error: no journal at") == 2
