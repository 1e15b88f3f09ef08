"""``paigow audit``: the report, CSV and JSON files, and one-line errors with status 2."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from controller.audit.tabular import FINDING_COLUMNS, GROUP_COLUMNS
from controller.cli import main
from tests.audit.conftest import Planted


def test_writes_report_csv_and_json(planted: Planted, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = {name: tmp_path / name for name in ("r.html", "g.csv", "f.csv", "a.json")}
    code = main(["audit", str(planted.path), "--report", str(out["r.html"]),
                 "--csv", str(out["g.csv"]), "--findings-csv", str(out["f.csv"]),
                 "--json", str(out["a.json"]), "--samples", "300"])
    assert code == 0
    summary = capsys.readouterr().out
    assert ("5 rounds, 2 dealer deviations, 1 overrides, 1 fouls, 1 corrections "
            "(0 after exposure), 1 voids") in summary
    html = out["r.html"].read_text()
    assert html.count("<svg") >= 3 and "<script" not in html and "http://" not in \
        html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    for text in ("Dealer audit", "ann", "bob", planted.rounds["entered"],
                 "cards exposed during the deal", "Foul calls"):
        assert text in html
    groups = list(csv.DictReader(out["g.csv"].open()))
    assert tuple(groups[0]) == GROUP_COLUMNS
    assert {g["dealer"]: g["deviations"] for g in groups} == {"ann": "2", "bob": "0"}
    rows = list(csv.DictReader(out["f.csv"].open()))
    assert tuple(rows[0]) == FINDING_COLUMNS
    assert sorted(r["kind"] for r in rows) == ["correction", "deviation", "deviation", "foul",
                                               "override", "void"]
    data = json.loads(out["a.json"].read_text())
    assert data["audit"] == "dealers" and len(data["groups"]) == 2
    deviations = [f for f in data["findings"] if f["kind"] == "deviation"]
    assert all(isinstance(f["expected_cents"], float) and f["method"].startswith("simulation")
               for f in deviations)


def test_dealer_and_time_filters_reach_the_report(planted: Planted,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(planted.path), "--dealer", "bob", "--no-costs", "--json",
                 "-"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {g["dealer"] for g in data["groups"]} == {"bob"}
    assert data["scope"]["dealer"] == "bob"
    assert main(["audit", str(planted.path), "--from", "2026-11-23", "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["groups"] == []


@pytest.mark.parametrize(("args", "message"), [
    (["--from", "yesterday"], "--from 'yesterday' is not a date"),
    (["--from", "2026-11-22", "--to", "2026-11-21"], "is not after --from"),
    (["--shifts", "6,25"], "shift start '25'"),
    (["--samples", "1"], "--samples 1 must be 2 or more"),
    (["--randomness", "--findings-csv", "x.csv"], "--findings-csv belongs to the dealer"),
    (["--json", "-", "--csv", "-"], "only one output"),
])
def test_bad_options_are_one_line_with_status_2(planted: Planted, args: list[str],
                                                 message: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["audit", str(planted.path), *args])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert re.fullmatch(r"paigow: error: .+\n", err), err
    assert message in err


def test_a_missing_journal_is_named(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "controller.cli", "audit",
                          str(tmp_path / "none.db")], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 2 and "none.db" in run.stderr and run.stderr.count("\n") == 1
    assert not (tmp_path / "none.db").exists()  # the audit never creates a journal


def test_randomness_by_dealer_counts_only_that_dealers_rounds(
        planted: Planted, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(planted.path), "--randomness", "--json", "-"]) == 0
    every = json.loads(capsys.readouterr().out)
    assert main(["audit", str(planted.path), "--randomness", "--dealer", "bob", "--json",
                 "-"]) == 0
    bob = json.loads(capsys.readouterr().out)
    n = {c["name"]: c["n"] for c in every["checks"]}
    assert n["dice_totals"] == 5 and n["card_packets"] == 5
    assert {c["name"]: c["n"] for c in bob["checks"]}["dice_totals"] == 2
