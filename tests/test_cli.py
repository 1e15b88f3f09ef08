"""The paigow command line as operators script it: JSON shapes, files, exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_set_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "set", "poker", "As", "Kd", "Qh", "9s", "9c", "4d", "Jk", "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["low"] == ["9s", "9c"] and obj["high"] == ["Jk", "As", "Kd", "Qh", "4d"]
    assert obj["way"] == "trump-plaza" and obj["rule"].startswith("trump-plaza.")


def test_set_file_one_object_per_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "hands.txt"
    f.write_text("as kd qh 9s 9c 4d jk\n# comment\n\nKs Qs Js Ts 9s 8s 7s\n")
    code, out, _ = run(capsys, "set", "poker", "--file", str(f), "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(lines) == 2
    assert lines[1]["low"] == ["Ks", "Qs"]


def test_options_may_come_before_the_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "set", "poker", "--way", "trump-plaza", "--json",
                       "As", "Kd", "Qh", "9s", "9c", "4d", "Jk")
    assert code == 0 and json.loads(out)["low"] == ["9s", "9c"]


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["set", "poker", "As", "Kd", "Qh", "9s", "9c", "4d"], "needs 7 cards, got 6"),
        (["set", "poker", "As", "Kd", "Qh", "9s", "9c", "4d", "Xx"], "'Xx'"),
        (["set", "poker", "As", "Kd", "Qh", "9s", "9c", "4d", "as"], "duplicate card 'As'"),
        (["set", "poker", "--way", "nowhere", "As", "Kd", "Qh", "9s", "9c", "4d", "2c"],
         "'nowhere'"),
        (["set", "poker", "--file", "/no/such/file"], "'/no/such/file'"),
        (["sett"], "invalid choice: 'sett'"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and named in err, err


def test_file_errors_name_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "hands.txt"
    f.write_text("As Kd Qh 9s 9c 4d Jk\nAs Kd Qh 9s 9c 4d Zz\n")
    code, _, err = run(capsys, "set", "poker", "--file", str(f))
    assert code == 2 and f"{f}:2" in err and "'Zz'" in err


def test_console_script_runs_without_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "controller.cli", "set", "poker", "As", "As"],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
