"""The randomness audit on journals of real rounds dealt by the shuffler simulator (its own
process on a pty): a fair simulator passes, one told to repeat, leak or bias is caught."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cli import main
from tests.audit.helpers import journal_at, shuffled_rounds, simulated_devices


def _journal(path: Path, seed: int, rig: str, rounds: int) -> Path:
    journal = journal_at(path)
    try:
        with simulated_devices(seed, rig) as (shuffler, dice):
            shuffled_rounds(journal, shuffler, dice, rounds)
    finally:
        journal.close()
    return path


def _audit(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, object]]:
    code = main(["audit", str(path), "--randomness", "--json", "-"])
    return code, json.loads(capsys.readouterr().out)


def _status(report: dict[str, object]) -> dict[str, str]:
    checks = report["checks"]
    assert isinstance(checks, list)
    return {c["name"]: c["status"] for c in checks}


def test_a_fair_simulator_passes_every_test_it_has_data_for(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _audit(_journal(tmp_path / "fair.db", 21, "none", 60), capsys)
    status = _status(report)
    assert code == 0 and report["verdict"] == "incomplete"  # card by slot needs ~265 deals
    assert status == {"dice_totals": "pass", "dice_faces": "pass", "first_positions_7": "pass",
                      "card_packets": "pass", "card_slots": "too few", "repeats": "pass",
                      "carry_over": "pass"}
    assert report["randomness_notes"] == {"seeded:21": 60, "seeded:22": 60}


@pytest.mark.parametrize(("rig", "rounds", "caught"), [
    ("repeat", 12, {"repeats", "carry_over"}),
    ("leak", 12, {"carry_over"}),
    ("bias", 45, {"card_packets"}),
])
def test_a_misbehaving_simulator_is_caught(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           rig: str, rounds: int, caught: set[str]) -> None:
    code, report = _audit(_journal(tmp_path / f"{rig}.db", 31, rig, rounds), capsys)
    status = _status(report)
    assert code == 1 and report["verdict"] == "fail"
    assert {name for name, s in status.items() if s == "fail"} == caught
