"""``paigow set tiles``: JSON shape, ways, files, and bad input as one line with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_run import run


def test_set_tiles_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "set", "tiles", "6-6", "4-5", "1-2", "3-3", "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj == {
        "tiles": ["6-6", "4-5", "1-2", "3-3"], "way": "foxwoods", "side": "banker",
        "low": ["3-3", "1-2"], "high": ["6-6", "4-5"],
        "low_rank": "9 (Chong high)", "high_rank": "wong (Teen)",
        "rule": "foxwoods.strong", "source": obj["source"],
    }
    assert obj["source"].startswith("FW wong, gong and high nine")


def test_tiles_in_either_order_and_options_first(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "set", "tiles", "--way", "jb-player", "--json",
                       "3-1", "2-2", "4-1", "5-4")
    obj = json.loads(out)
    assert code == 0 and obj["way"] == "jb-player"
    assert obj["tiles"] == ["1-3", "2-2", "1-4", "4-5"]
    assert obj["low"] == ["2-2", "4-5"] and obj["high"] == ["1-3", "1-4"]
    assert obj["rule"] == "jb-player.exceptions.H4-L4-5-9"


def test_the_ways_differ_where_the_texts_do(capsys: pytest.CaptureFixture[str]) -> None:
    _, taj, _ = run(capsys, "set", "tiles", "1-3", "2-2", "1-4", "4-5", "--way", "taj-mahal",
                    "--json")
    assert json.loads(taj)["low"] == ["1-3", "4-5"]  # high 3/9 (JB plays 3/high 9)


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "set", "tiles", "6-6", "6-6", "1-5", "1-6")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 3
    assert lines[0].split()[:3] == ["low", "6-6", "1-5"] and "8 (Teen high)" in lines[0]
    assert "high nine (Teen)" in lines[1]
    assert lines[2].startswith("rule foxwoods.pairs.C: FW pair C")


def test_set_tiles_file_one_object_per_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "hands.txt"
    f.write_text("6-6 4-5 1-2 3-3\n# a comment\n\n6-6 6-6 1-1 1-1  # two pairs\n")
    code, out, _ = run(capsys, "set", "tiles", "--file", str(f), "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(lines) == 2
    assert lines[1]["low"] == ["1-1", "1-1"] and lines[1]["rule"] == "foxwoods.two_pairs"


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["6-6", "4-5", "1-2", "7-7"], "unknown tile '7-7'"),
        (["6-6", "6-6", "6-6", "1-1"], "tile '6-6' appears 3 times"),
        (["4-5", "4-5", "1-1", "2-2"], "tile '4-5' appears 2 times"),
        (["6-6", "4-5", "1-2"], "needs 4 tiles, got 3: '6-6 4-5 1-2'"),
        (["6-6", "4-5", "1-2", "3-3", "1-1"], "needs 4 tiles, got 5"),
        (["--way", "palms", "6-6", "4-5", "1-2", "3-3"], "unknown tile house way 'palms'"),
        (["--profile", "classic", "6-6", "4-5", "1-2", "3-3"], "game 'poker'"),
        (["--file", "/no/such/file"], "'/no/such/file'"),
        ([], "give four tiles"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "set", "tiles", *argv)
    assert code == 2 and not out
    assert len(err.strip().splitlines()) == 1 and named in err, err


def test_file_errors_name_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "hands.txt"
    f.write_text("6-6 4-5 1-2 3-3\n6-6 4-5 1-2 9-9\n")
    code, _, err = run(capsys, "set", "tiles", "--file", str(f))
    assert code == 2 and f"{f}:2" in err and "'9-9'" in err


def test_poker_set_still_works(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "set", "poker", "As", "Kd", "Qh", "9s", "9c", "4d", "Jk", "--json")
    assert code == 0 and json.loads(out)["way"] == "trump-plaza"


def test_console_script_runs_without_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "controller.cli", "set", "tiles", "6-6", "6-6", "6-6", "4-5"],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1


def test_set_tiles_side_picks_the_ways_player_column(capsys: pytest.CaptureFixture[str]) -> None:
    from itertools import combinations

    from controller.config.house_ways import tile_engine
    from controller.rules.tiles.dominoes import full_set

    banker, player = tile_engine("luger-optimal"), tile_engine("luger-optimal", side="player")
    hand = next(list(h) for h in combinations(full_set(), 4)
                if banker.set_hand(list(h)).setting.setting
                != player.set_hand(list(h)).setting.setting)
    text = [str(t) for t in hand]
    shown = {}
    for side in ("banker", "player"):
        code, out, _ = run(capsys, "set", "tiles", *text, "--way", "luger-optimal",
                           "--side", side, "--json")
        assert code == 0
        shown[side] = json.loads(out)
        assert shown[side]["side"] == side
    expected = player.set_hand(hand).setting.setting
    assert shown["player"]["low"] == [str(t) for t in expected.low]
    assert (shown["banker"]["low"], shown["banker"]["high"]) != \
        (shown["player"]["low"], shown["player"]["high"])


def test_side_is_refused_for_poker(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "set", "poker", "As", "Kd", "Qh", "9s", "9c", "4d", "Jk",
                       "--side", "player")
    assert code == 2 and "--side player is for tile ways" in err
