"""``paigow compare tiles``, ``paigow deal tiles`` and ``paigow settle`` for tile rounds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_run import run

DATA = Path(__file__).parents[1] / "data"


def test_compare_tiles_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", "tiles", "6-6 4-5", "1-1 3-6", "--json")
    assert code == 0
    assert json.loads(out) == {
        "player": ["6-6", "4-5"], "banker": ["1-1", "3-6"], "winner": "player", "copy": False,
        "player_rank": "wong (Teen)", "banker_rank": "wong (Day)",
    }


def test_compare_tiles_copies_and_zero_zero(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", "tiles", "6-6 4-5", "3-6 6-6", "--json")
    assert code == 0 and json.loads(out)["copy"] is True
    code, out, _ = run(capsys, "compare", "tiles", "3-1 3-3", "5-5 6-4")  # either end first
    assert code == 0 and out.startswith("banker wins (copy: ties and every 0-0")
    assert "0 (Gor high)" in out


def test_compare_tiles_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "pairs.txt"
    f.write_text("6-6 4-5 | 1-1 3-6\n# a comment\n\n1-3 3-3 | 5-5 4-6  # 0-0\n")
    code, out, _ = run(capsys, "compare", "tiles", "--file", str(f), "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [(r["winner"], r["copy"]) for r in rows] == [
        ("player", False), ("banker", True)]


def test_compare_tiles_under_the_other_gee_joon_convention(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    profile = tmp_path / "pips.toml"
    text = (Path(__file__).parents[2] / "config" / "profiles" / "tiles-classic.toml").read_text()
    profile.write_text(text.replace('"tiles-classic"', '"pips"').replace('"lowest"', '"by_pips"'))
    args = ("compare", "tiles", "2-4 1-4", "1-2 2-3", "--json")
    assert json.loads(run(capsys, *args)[1])["winner"] == "banker"
    assert json.loads(run(capsys, *args, "--profile", str(profile))[1])["winner"] == "player"


@pytest.mark.parametrize(
    ("hands", "named"),
    [
        (["7-7 4-5", "1-1 3-6"], "unknown tile '7-7'"),
        (["6-6 4-5", "1-1 3-x"], "unknown tile '3-x'"),
        (["6-6 6-6", "6-6 1-1"], "tile '6-6' appears 3 times"),
        (["4-5 1-1", "5-4 1-1"], "tile '4-5' appears 2 times"),
        (["6-6 4-5 1-1", "1-1 3-6"], "player hand needs 2 tiles, got 3: '6-6 4-5 1-1'"),
        (["6-6 4-5", "1-1"], "banker hand needs 2 tiles, got 1"),
        (["6-6 4-5"], "give two hands"),
    ],
)
def test_compare_tiles_bad_input_is_one_line_exit_2(
    hands: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "compare", "tiles", *hands)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and named in err, err


def test_compare_tiles_file_errors_name_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "pairs.txt"
    f.write_text("6-6 4-5 | 1-1 3-6\n6-6 4-5 1-2 | 1-1 3-6\n")
    code, _, err = run(capsys, "compare", "tiles", "--file", str(f))
    assert code == 2 and f"{f}:2" in err and "got 3" in err
    f.write_text("6-6 4-5 1-1 3-6\n")
    code, _, err = run(capsys, "compare", "tiles", "--file", str(f))
    assert code == 2 and "expected 'PLAYER | BANKER'" in err


def test_deal_tiles(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "tiles", "--dice", "3,5,6", "--vacant", "4,6", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["game"] == "tiles" and (obj["total"], obj["first"]) == (14, 6)
    assert [s["position"] for s in obj["stacks"]] == [6, 7, 8, 1, 2, 3, 4, 5]
    assert [s["stack"] for s in obj["stacks"] if s["collect"]] == [1, 7]
    code, out, _ = run(capsys, "deal", "tiles", "--dice", "3,3,3")
    assert code == 0 and out.splitlines()[1] == "stack 1 -> banker (dealer)"
    assert out.splitlines()[-1] == "all 32 tiles dealt"
    code, out, _ = run(capsys, "deal", "tiles", "--dice", "4,3,3", "--json")
    assert json.loads(out)["first"] == 2  # 10: the position to the banker's right


def test_deal_without_a_game_is_still_poker(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "--dice", "3,5,6", "--json")
    assert code == 0 and json.loads(out)["first"] == 7 and len(json.loads(out)["packets"]) == 7
    code, out, _ = run(capsys, "deal", "poker", "--dice", "3,5,6", "--json")
    assert code == 0 and json.loads(out)["first"] == 7


@pytest.mark.parametrize(
    ("argv", "named"),
    [(["deal", "tiles", "--dice", "3,5,7"], "'7'"),
     (["deal", "tiles", "--dice", "3,5,6", "--vacant", "9"], "9"),
     (["deal", "tiles", "--dice", "3,5,6", "--vacant", "1"], "cannot be vacant"),
     (["deal", "mahjong", "--dice", "3,5,6"], "'mahjong'")],
)
def test_deal_tiles_bad_input(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and len(err.strip().splitlines()) == 1 and named in err, err


def test_settle_a_tile_round(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "settle", str(DATA / "round_tiles.json"), "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["game"] == "tiles" and obj["way"] == "foxwoods"
    assert obj["banker_low"] == ["1-3", "1-5"] and obj["banker_high_rank"] == "9 (Yun high)"
    by_position = {s["position"]: s for s in obj["seats"]}
    assert (by_position[2]["outcome"], by_position[2]["commission"]) == ("win", 125)
    assert by_position[3]["outcome"] == "push"  # 0-0 low to the banker, the wong wins
    assert by_position[5]["outcome"] == "loss"  # copies both hands
    assert (by_position[8]["outcome"], by_position[8]["reason"]) == ("loss", "foul")
    assert obj["net_by_position"] == {"1": 10_000 + 3_000 - 2_375, "2": 2_375, "3": 0,
                                      "5": -10_000, "8": -3_000}
    assert sum(obj["net_by_position"].values()) == 0
    code, out, _ = run(capsys, "settle", str(DATA / "round_tiles.json"))
    assert code == 0 and "position 8:" in out and "loss (foul)" in out


def test_settle_a_tile_round_with_a_player_banker(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads((DATA / "round_tiles.json").read_text())
    data["banker"] = 2
    data["bets"] = [{"position": 1, "wager": "40.00"}, {"position": 3, "wager": "50.00"}]
    f = tmp_path / "r.json"
    f.write_text(json.dumps(data))
    code, out, err = run(capsys, "settle", str(f), "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["banker"] == 2 and sum(obj["net_by_position"].values()) == 0
    assert obj["banker_commission"] == 450  # wins 4000 + 5000 from the house and seat 3


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda d: d["hands"].update({"2": "3-4 1-4 / 6-6 9-9"}), "'9-9'"),
        (lambda d: d["hands"].update({"2": "3-4 1-4 / 6-6 3-6 4-5"}), "got 3"),
        (lambda d: d["hands"].update({"2": "3-4 6-6 / 6-6 3-6"}), "'6-6' appears 3 times"),
        (lambda d: d["bets"].append({"position": 4, "wager": 5000}), "position 4"),
        (lambda d: d["bets"][0].update({"fortune": 500}), "'fortune'"),
        (lambda d: d.update({"profile": "classic"}), "'poker'"),
        (lambda d: d.update({"dragon": 1}), "'dragon'"),
    ],
)
def test_settle_bad_tile_rounds(
    change: object, named: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads((DATA / "round_tiles.json").read_text())
    assert callable(change)
    change(data)
    f = tmp_path / "r.json"
    f.write_text(json.dumps(data))
    code, _, err = run(capsys, "settle", str(f))
    assert code == 2 and len(err.strip().splitlines()) == 1 and named in err, err


def test_a_card_round_still_settles(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "settle", str(DATA / "round_classic.json"), "--json")
    assert code == 0 and "game" not in json.loads(out)


def test_console_script_runs_without_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "controller.cli", "compare", "tiles", "6-6 6-6 6-6", "1-1 1-1"],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1


def _write_round(tmp_path: Path, **changes: object) -> Path:
    data = json.loads((DATA / "round_tiles.json").read_text())
    data.update(changes)
    f = tmp_path / "r.json"
    f.write_text(json.dumps(data))
    return f


def test_four_tiles_are_set_by_the_house_way(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hands = {"1": "6-6 4-5 1-2 3-3", "2": "1-3 1-5 / 4-4 5-6", "3": "1-1 2-6 5-5 4-6"}
    bets = [{"position": 2, "wager": 5000}, {"position": 3, "wager": 5000}]
    f = _write_round(tmp_path, hands=hands, bets=bets)
    code, out, err = run(capsys, "settle", str(f), "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert (obj["banker_low"], obj["banker_high"]) == (["3-3", "1-2"], ["6-6", "4-5"])
    assert obj["banker_high_rank"] == "wong (Teen)"
    assert sum(obj["net_by_position"].values()) == 0
    f = _write_round(tmp_path, hands=hands, bets=bets, way="nowhere")
    code, _, err = run(capsys, "settle", str(f))
    assert code == 2 and "'nowhere'" in err and len(err.strip().splitlines()) == 1


def test_a_foul_is_reset_by_the_house_way_when_the_profile_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (Path(__file__).parents[2] / "config" / "profiles" / "tiles-classic.toml").read_text()
    profile = tmp_path / "reset.toml"
    profile.write_text(text.replace('"tiles-classic"', '"reset"')
                       .replace('foul = "loss"', 'foul = "house_way"'))
    f = _write_round(tmp_path, profile=str(profile))
    code, out, err = run(capsys, "settle", str(f), "--json")
    assert code == 0, err
    seat = {s["position"]: s for s in json.loads(out)["seats"]}[8]
    assert seat["reason"] == "hands" and seat["reset_from"] == "6-6 2-6 / 2-3 1-2"
    assert (seat["low"], seat["high"]) == (["2-3", "1-2"], ["6-6", "2-6"])
