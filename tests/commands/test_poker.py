"""The paigow command line as operators script it: JSON shapes, files, exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_run import run


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


DATA = Path(__file__).parents[1] / "data"


def test_compare_json_winner_and_copy(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", "poker", "Ah Kd", "Qs Qd", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["winner"] == "banker" and obj["copy"] is False
    code, out, _ = run(capsys, "compare", "poker", "Ah Kd", "Ac Kc", "--json")
    assert json.loads(out)["winner"] == "banker" and json.loads(out)["copy"] is True
    code, out, _ = run(capsys, "compare", "poker", "As Ks Qs Js Ts", "Jk Kh Qh Jh Th", "--json")
    assert json.loads(out)["winner"] == "banker"  # a joker royal ties a natural royal: copy
    code, out, _ = run(capsys, "compare", "poker", "2c 2d", "Ah Kh", "--json")
    assert json.loads(out)["winner"] == "player"


def test_compare_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "pairs.txt"
    f.write_text("Ah Kd | Qs Qd\n9c 9d 9h 2s 3s | 8c 8d 8h As Ks\n")
    code, out, _ = run(capsys, "compare", "poker", "--file", str(f), "--json")
    winners = [json.loads(line)["winner"] for line in out.splitlines()]
    assert code == 0 and winners == ["banker", "player"]


@pytest.mark.parametrize(
    ("hands", "named"),
    [(["Ah Kd", "Qs Qd Qh"], "got 2 and 3"), (["Ah Kd", "Ah Qd"], "duplicate card 'Ah'")],
)
def test_compare_bad_input(
    hands: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "compare", "poker", *hands)
    assert code == 2 and named in err


def test_deal_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "--dice", "3,5,6", "--vacant", "4,6", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["total"] == 14 and obj["first"] == 7
    assert [p["position"] for p in obj["packets"]] == [7, 1, 2, 3, 4, 5, 6]
    assert [p["packet"] for p in obj["packets"] if p["collect"]] == [5, 7]


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["deal", "--dice", "3,5,7"], "'7'"),
        (["deal", "--dice", "3,5"], "3,5"),
        (["deal", "--dice", "1,1,1", "--vacant", "1"], "1"),
    ],
)
def test_deal_bad_input(argv: list[str], named: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and named in err and len(err.strip().splitlines()) == 1


def test_settle_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "settle", str(DATA / "round_classic.json"), "--json")
    obj = json.loads(out)
    seats = {s["position"]: s for s in obj["seats"]}
    assert code == 0 and obj["banker_low"] == ["9s", "9c"]
    assert seats[2]["outcome"] == "push" and seats[2]["net"] == 0
    assert seats[3]["outcome"] == "loss" and seats[3]["net"] == -1000
    assert seats[4]["reason"] == "foul" and seats[4]["net"] == -10000
    assert sum(obj["net_by_position"].values()) == 0


def test_settle_bad_round_names_the_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = {
        "not json": "not JSON",
        json.dumps({"hands": {"1": "As Kd Qh 9s 9c 4d Jk"}, "bets": [],
                    "colour": 1}): "'colour'",
        json.dumps({"hands": {"1": "As Kd Qh 9s 9c 4d Jk", "2": "As Kh / 2c 3c 4c 5c 6c"}}):
            "duplicate card 'As'",
        json.dumps({"hands": {"1": "As Kd Qh 9s 9c 4d Jk", "2": "Ah Kh / 2c 3c 4c 5c 6c"},
                    "bets": [{"position": 2, "wager": "1.00"}]}): "outside the limits",
    }
    for text, named in cases.items():
        f = tmp_path / "round.json"
        f.write_text(text)
        code, _, err = run(capsys, "settle", str(f))
        assert code == 2 and named in err, err


def test_demo_is_the_whole_table_and_refuses_bad_options(
        capsys: pytest.CaptureFixture[str]) -> None:
    # The demo itself runs simulator processes: tests/table/test_demo_cli.py plays it.
    code, _, err = run(capsys, "demo", "--rounds", "0")
    assert code == 2 and "rounds '0'" in err
    code, _, err = run(capsys, "demo", "--game", "cards")
    assert code == 2 and "'cards'" in err


