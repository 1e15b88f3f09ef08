"""A table's log: ``paigow demo`` writes what the table does to a file beside its journal."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import _assets

ROOT = Path(__file__).resolve().parents[2]
ROUND_LINE = re.compile(r"^(r\d{6}) (poker|tiles) (?:.*(VOID))?", re.M)


@pytest.fixture(autouse=True)
def _artwork() -> None:
    if not _assets():
        pytest.skip("card artwork missing and scripts/test_assets.sh failed (no network?)")


def _demo(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=240, check=False)


def test_a_demo_logs_the_display_sign_ins_rounds_and_faults(tmp_path: Path) -> None:
    journal = tmp_path / "demo.sqlite"
    done = _demo("demo", "--rounds", "2", "--port", "0", "--pace", "0", "--seed", "41",
                 "--fault-rate", "1", "--journal", str(journal))
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr  # the log went to its file, not to the terminal
    log = (tmp_path / "demo.sqlite.log").read_text(encoding="utf-8")
    lines = [line.split(" ", 2)[2] for line in log.splitlines()]  # without the time
    assert lines[0].startswith("INFO controller.commands.table: dealer display started on "
                               "http://127.0.0.1:")
    assert "INFO controller.display.sign_in: dealer demo-dealer (Demo Dealer) signed in" in lines
    assert ("INFO controller.display.sign_in: supervisor demo-supervisor (Demo Supervisor) "
            "signed in") in lines
    ids = ROUND_LINE.findall(done.stdout)
    assert len(ids) == 2
    for round_id, _game, void in ids:
        assert f"INFO controller.simulation.runner: round {round_id} opened (poker)" in lines
        level = "WARNING" if void else "INFO"
        closed = [x for x in lines if x.startswith(
            f"{level} controller.simulation.runner: round {round_id} "
            f"{'voided' if void else 'settled'}: ")]
        assert len(closed) == 1, lines
    # Every device fault the demo reported is in the log, from the round engine.
    faults = re.findall(r"^  fault (\w+): ", done.stdout, re.M)
    assert faults
    logged = re.findall(r"^WARNING controller\.round\.base: round r\d+: fault (\w+) from ",
                        "\n".join(lines), re.M)
    assert logged == faults


def test_log_file_and_level_as_given(tmp_path: Path) -> None:
    log = tmp_path / "logs" / "table.log"
    done = _demo("--log-file", str(log), "--log-level", "warning", "demo", "--rounds", "1",
                 "--no-display", "--seed", "42", "--journal", str(tmp_path / "j.sqlite"))
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "j.sqlite.log").exists()
    assert " INFO " not in log.read_text(encoding="utf-8")  # only warnings and worse asked for


def test_a_new_log_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    done = _demo("demo", "--rounds", "1", "--no-display", "--seed", "42",
                 "--journal", str(tmp_path / "j.sqlite"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "j.sqlite.log").stat().st_mode & 0o777 == 0o600
