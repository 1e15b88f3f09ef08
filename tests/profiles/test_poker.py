"""Table profiles load once, completely, and a bad file is refused with the bad key named."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.errors import ConfigError
from controller.profiles.poker import load_profile, parse_profile, profile_names
from controller.rules.poker.comparison import FoulPolicy
from controller.rules.poker.hand_rules import Wheel

GOOD = """
name = "t"
title = "test table"
house_way = "foxwoods"
[ruleset]
wheel = "lowest"
[settlement]
foul = "house_way"
variant = { name = "classic", commission = { rate_bp = 500, unit_cents = 5, mode = "up" } }
"""


def test_every_shipped_profile_loads() -> None:
    assert {"classic", "ez", "face-up", "nine-high", "card-room"} <= set(profile_names())
    for name in profile_names():
        profile = load_profile(name)
        assert profile.name == name
        profile.engine().set_hand("As Kd Qh 9s 9c 4d Jk")


def test_a_profile_sets_ruleset_foul_policy_and_commission() -> None:
    p = parse_profile(GOOD, "t.toml")
    assert p.ruleset.wheel is Wheel.LOWEST and p.settlement.foul is FoulPolicy.HOUSE_WAY
    assert p.settlement.variant.commission.commission_on(1010) == 55  # 50.5 cents up to 55
    assert p.resets_fouls


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (("[ruleset]", "[ruleset]\ncolour = 1"), "'colour'"),
        (('house_way = "foxwoods"', 'house_way = "nowhere"'), "'nowhere'"),
        (('wheel = "lowest"', 'wheel = "sideways"'), "sideways"),
        (('foul = "house_way"', 'foul = "shrug"'), "'shrug'"),
        (("name = ", "nom = "), "'nom'"),
        (('title = "test table"', 'title = "x"\nextra_key = 3'), "'extra_key'"),
        (("unit_cents = 5", "unit_cents = -5"), "-5"),
        (("[settlement]", "[settlement\n"), "bad TOML"),
    ],
)
def test_bad_profile_is_named(change: tuple[str, str], named: str) -> None:
    text = GOOD.replace(*change)
    with pytest.raises(ConfigError, match=r"t\.toml") as info:
        parse_profile(text, "t.toml")
    assert named in str(info.value)


def test_unknown_profile_and_file_profile(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="'nowhere'"):
        load_profile("nowhere")
    path = tmp_path / "t.toml"
    path.write_text(GOOD)
    assert load_profile(str(path)).house_way == "foxwoods"
