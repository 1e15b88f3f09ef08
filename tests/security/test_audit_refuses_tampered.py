"""Issue 30 item 4: ``paigow audit`` reported on a tampered journal with exit 0, and ``paigow
replay`` never checked the chain.  Both now verify first and refuse a journal that fails (exit
1, the first bad record named) unless asked ``--unverified``, and then every output opens with
an ``UNVERIFIED`` line: the summary's first line, the HTML page's first element, a ``#`` line
before the CSV header, the JSON object's first member (replay: a first JSON line)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from controller.commands.audit import main as audit_main
from controller.commands.replay import main as replay_main
from controller.journal import KEY_ENV
from tests.audit.helpers import (
    DEALER,
    deal_and_roll,
    journal_at,
    players_by_house_way,
    poker_engine,
)
from tests.security.forge import first_of, rechain, rows


@pytest.fixture
def path(tmp_path: Path) -> Path:
    """A keyed journal of two whole poker rounds, a bet then changed and the chain
    recomputed without the key."""
    where = tmp_path / "table.db"
    journal = journal_at(where)
    engine = poker_engine(journal, seed=2)
    for _ in range(2):
        deal_and_roll(engine)
        players_by_house_way(engine)
        engine.expose_dealer(DEALER)
        engine.settle(DEALER)
    journal.close()
    assert audit_main(["audit", str(where), "--no-costs"]) == 0
    assert replay_main(["replay", str(where)]) == 0
    return where


def tamper(path: Path) -> int:
    """Raise the first bet's wager and recompute the chain (no key): its sequence number."""
    found = rows(path)
    i = first_of(found, "bet")
    bet = found[i]._replace(event=found[i].event.replace('"wager":2500', '"wager":250000'))
    assert bet.event != found[i].event
    rechain(path, lambda old: [*old[:i], bet, *old[i + 1:]])
    return found[i].seq


def test_audit_refuses_a_tampered_journal_naming_the_record(
        path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    seq = tamper(path)
    assert audit_main(["audit", str(path), "--no-costs"]) == 1
    out, err = capsys.readouterr()
    assert not out
    assert err == (f"paigow: {path}: record {seq}: contents do not match its hash (edited, "
                   f"moved or inserted); refusing to audit a journal that does not verify "
                   f"(--unverified to go on)\n")
    assert audit_main(["audit", str(path), "--randomness"]) == 1


def test_replay_refuses_a_tampered_journal_naming_the_record(
        path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    seq = tamper(path)
    assert replay_main(["replay", str(path)]) == 1
    out, err = capsys.readouterr()
    assert not out and f": record {seq}: contents do not match its hash" in err
    assert replay_main(["replay", str(path), "--json", "--unverified"]) == 1
    first, *others = capsys.readouterr().out.splitlines()
    assert json.loads(first)["unverified"].startswith("UNVERIFIED: ")
    assert others and all("round_id" in json.loads(line) for line in others)


def test_audit_without_the_key_cannot_verify(path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(KEY_ENV)
    capsys.readouterr()
    assert audit_main(["audit", str(path), "--no-costs"]) == 1
    assert "cannot check: the journal is keyed" in capsys.readouterr().err


def test_an_unverified_report_says_so_first_in_every_form(
        path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tamper(path)
    capsys.readouterr()
    out = {name: tmp_path / name for name in ("r.html", "g.csv", "f.csv", "a.json")}
    assert audit_main(["audit", str(path), "--no-costs", "--unverified",
                       "--report", str(out["r.html"]), "--csv", str(out["g.csv"]),
                       "--findings-csv", str(out["f.csv"]), "--json", str(out["a.json"])]) == 0
    summary = capsys.readouterr().out
    assert summary.startswith("UNVERIFIED: the chain of ")
    html = out["r.html"].read_text()
    body = html.split("<body>", 1)[1]
    assert body.startswith('<p class="unverified"') and "UNVERIFIED: " in body.split("</p>")[0]
    for name in ("g.csv", "f.csv"):
        first, header = out[name].read_text().splitlines()[:2]
        assert first.startswith("# UNVERIFIED: ")
        assert next(csv.reader(io.StringIO(header)))  # the header follows the mark
    data = json.loads(out["a.json"].read_text())
    assert next(iter(data)) == "unverified" and data["unverified"].startswith("UNVERIFIED: ")
    assert out["a.json"].read_text().splitlines()[1].startswith(' "unverified": ')
    assert audit_main(["audit", str(path), "--randomness", "--unverified"]) in (0, 1)
    assert capsys.readouterr().out.startswith("UNVERIFIED: ")
