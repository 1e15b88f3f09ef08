"""The same planted rounds on a PostgreSQL journal give the same audit as on SQLite (skipped,
with the reason, only when the test server cannot be reached)."""

from __future__ import annotations

import json

import pytest

from controller.cli import main
from controller.journal import StepClock, open_journal
from tests.audit.conftest import Planted, build_planted
from tests.audit.helpers import START


def _findings(location: str, capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    assert main(["audit", location, "--json", "-", "--samples", "200"]) == 0
    rows: list[dict[str, object]] = json.loads(capsys.readouterr().out)["findings"]
    for row in rows:
        row.pop("table")
    return rows


def test_postgres_and_sqlite_audits_agree(pg_url: str, planted: Planted,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    journal = open_journal(pg_url, clock=StepClock(START))
    try:
        build_planted(journal, planted.path)
    finally:
        journal.close()
    on_pg = _findings(pg_url, capsys)
    assert on_pg == _findings(str(planted.path), capsys)
    assert sorted(str(r["kind"]) for r in on_pg) == ["correction", "deviation", "deviation",
                                                     "foul", "override", "void"]
    assert main(["audit", pg_url, "--randomness", "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["checks"]
