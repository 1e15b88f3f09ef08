"""``paigow settle ROUND.json`` at the issue-8 profiles: a heads-up table (cards and tiles) is
the dealer and one seat, and home play settles a deal of the pot from its antes and the pot
carried in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main
from controller.profiles.poker import load_profile
from controller.rules.poker.home_pot import PokerPotRanks, PotRules, PotStatus, settle_pot
from controller.rules.poker.setting import Setting
from controller.rules.seat import HandSet

WIN = {"1": "2c 3d 5h 7s 9c Jd Kh", "2": "Ac Ad / Kc Kd Ks 2h 3h"}  # the seat wins both hands


def settle(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: dict[str, Any],
           *flags: str) -> tuple[int, str, str]:
    f = tmp_path / "round.json"
    f.write_text(json.dumps(data))
    try:
        code = main(["settle", str(f), *flags])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_heads_up_settles_its_one_seat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = settle(tmp_path, capsys, {"profile": "heads-up", "hands": WIN,
                                             "bets": [{"position": 2, "wager": "25.00"}]},
                          "--json")
    obj = json.loads(out)
    assert code == 0 and obj["profile"] == "heads-up" and len(obj["seats"]) == 1
    seat = obj["seats"][0]
    # even money less 5% commission ([D4] l.16), rounded down to the quarter
    assert (seat["outcome"], seat["commission"], seat["net"]) == ("win", 125, 2_375)
    assert obj["net_by_position"] == {"1": -2_375, "2": 2_375}


@pytest.mark.parametrize(("change", "named"), [
    ({"hands": {**WIN, "3": "4c 4d 6s 8h Tc Qd 2d"}}, "hand of position 3: position 3 is not "
                                                      "at table profile 'heads-up'"),
    ({"bets": [{"position": 2, "wager": "25.00"}, {"position": 5, "wager": "25.00"}]},
     "bet at position 5"),
    ({"banker": 4}, "banker: position 4"),
    ({"antes": {"2": 500}}, "'antes' is for a pot profile"),
    ({"bets": [{"position": 2, "wager": "501.00"}]}, "outside the limits"),
])
def test_heads_up_refuses_a_second_seat_by_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, Any],
        named: str) -> None:
    data = {"profile": "heads-up", "hands": WIN, "bets": [{"position": 2, "wager": "25.00"}],
            **change}
    code, out, err = settle(tmp_path, capsys, data)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("paigow: error: ") and named in err, err


def test_tile_heads_up_refuses_a_second_seat(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    data = {"game": "tiles", "profile": "tiles-heads-up",
            "hands": {"1": "6-6 4-5 1-2 3-3", "2": "2-2 5-6 1-3 4-4"},
            "bets": [{"position": 2, "wager": "25.00"}]}
    code, out, _ = settle(tmp_path, capsys, data, "--json")
    assert code == 0 and [s["position"] for s in json.loads(out)["seats"]] == [2]
    data["hands"]["6"] = "1-1 5-5 2-4 3-6"  # type: ignore[index]
    code, _, err = settle(tmp_path, capsys, data)
    assert code == 2 and "hand of position 6: position 6 is not at table profile " \
                          "'tiles-heads-up' (a heads-up table" in err


HOME = {"2": "Ac Ad / Kc Kd Ks 2h 3h", "3": "Qc Jd / 9s 9h 4c 5d 6h",
        "4": "Tc 8d / 7c 7d 2s 3s 4s"}


def _direct(hands: dict[str, str], antes: dict[int, int], status: PotStatus) -> Any:
    profile = load_profile("home")
    rules = profile.play.pot
    assert isinstance(rules, PotRules)
    sets = [HandSet(int(p), Setting.parse(text)) for p, text in hands.items()]
    return settle_pot(sets, antes, status, rules, PokerPotRanks(profile.evaluator()))


def test_home_play_settles_a_deal_with_the_pot_carried_in(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = {"profile": "home", "pot": "15.00", "exempt": [3], "hands": HOME}
    code, out, _ = settle(tmp_path, capsys, data, "--json")
    obj = json.loads(out)
    direct = _direct(HOME, {2: 500, 3: 0, 4: 500}, PotStatus(1_500, frozenset({3})))
    assert code == 0 and obj["mode"] == "pot" and direct.winner == 2
    assert (obj["carried"], obj["antes"], obj["total"], obj["winner"], obj["carry"]) == \
        (1_500, 1_000, 2_500, 2, 0)
    assert obj["net_by_position"] == {"2": 2_000, "3": 0, "4": -500}
    assert obj["net_by_position"] == {str(p): n for p, n in direct.net_by_position().items()}
    assert [s["ante"] for s in obj["seats"]] == [500, 0, 500]
    assert obj["seats"][0]["best_low"] and obj["seats"][0]["best_high"]
    code, out, _ = settle(tmp_path, capsys, data)
    assert code == 0 and "pot: 15.00 carried in + 10.00 antes = 25.00" in out
    assert "position 2 holds both highest hands and takes the pot of 25.00" in out


def test_home_play_carries_a_split_pot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hands = {"2": "Ac Ad / 9s 9h 9c 5d 6h", "3": "Qc Jd / Kc Kd Ks Kh 3h"}
    code, out, _ = settle(tmp_path, capsys, {"profile": "home", "hands": hands,
                                             "antes": {"2": "5.00", "3": 500}}, "--json")
    obj = json.loads(out)
    assert code == 0 and obj["winner"] is None and obj["carry"] == obj["total"] == 1_000
    assert obj["exempt_next"] == [2, 3] and obj["net_by_position"] == {"2": -500, "3": -500}
    code, out, _ = settle(tmp_path, capsys, {"profile": "home", "hands": hands})
    assert "the pot of 10.00 carries over; positions 2, 3 do not ante next deal" in out


@pytest.mark.parametrize(("change", "named"), [
    ({"bets": [{"position": 2, "wager": "5.00"}]}, "'bets' is refused"),
    ({"banker": 2}, "'banker' is refused"),
    ({"antes": {"2": 500, "3": 500, "4": 500}, "exempt": [3]},
     "ante 500 cents at position 3: it held a highest hand"),
    ({"antes": {"2": 400, "3": 500, "4": 500}}, "ante 400 cents at position 2: the ante is 500"),
    ({"antes": {"2": 500, "3": 500}}, "position 4 has a hand but no ante"),
    ({"hands": {**HOME, "1": "2c 3d 5h 7s 9c Jd Kh"}}, "position 1: in home play"),
    ({"pot": "-1.00"}, "-1.00"),
    ({"exempt": 3}, "'exempt' must be a list"),
    ({"hands": {"2": HOME["2"]}}, "a pot needs 2 players"),
])
def test_home_play_refuses_what_a_pot_has_not(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, Any],
        named: str) -> None:
    code, out, err = settle(tmp_path, capsys, {"profile": "home", "hands": HOME, **change})
    assert code == 2 and out == "" and err.count("\n") == 1 and named in err, err


@pytest.mark.parametrize(("name", "named"), [("home", "plays a pot"),
                                             ("heads-up", "has 2 positions")])
def test_the_rules_level_demo_round_refuses_pot_and_heads_up(name: str, named: str) -> None:
    from controller.errors import ConfigError
    from controller.simulation.demo import play_round
    with pytest.raises(ConfigError, match=f"table profile '{name}' {named}"):
        play_round(load_profile(name), seed=1)
    assert play_round(load_profile("rotation"), seed=1).settlement.banker == 1
