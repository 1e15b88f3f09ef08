"""Tile-table profiles: the shipped one loads, a bad one is refused naming the key."""

from __future__ import annotations

import pytest

from controller.errors import ConfigError
from controller.profiles.poker import load_profile, profile_names
from controller.profiles.tiles import load_tile_profile, parse_tile_profile, tile_profile_names
from controller.rules.comparison import FoulPolicy
from controller.rules.money import Commission, Rounding
from controller.rules.tiles.hands import GeeJoonTie

GOOD = """
name = "t"
title = "test tile table"
game = "tiles"
house_way = "foxwoods"
[ruleset]
gee_joon_tie = "by_pips"
[settlement]
commission = { rate_bp = 500, unit_cents = 5, mode = "up" }
foul = "house_way"
limits = { min_bet_cents = 1000, max_bet_cents = 100000 }
"""


def test_the_shipped_tile_profile() -> None:
    assert "tiles-classic" in tile_profile_names()
    p = load_tile_profile()
    assert (p.name, p.game, p.positions, p.house_way) == ("tiles-classic", "tiles", 8, "foxwoods")
    assert p.ruleset.gee_joon_tie is GeeJoonTie.LOWEST
    assert p.settlement.commission == Commission(500, 25, Rounding.DOWN)
    assert p.settlement.foul is FoulPolicy.LOSS and not p.resets_fouls


def test_card_profiles_and_tile_profiles_stay_apart() -> None:
    assert "tiles-classic" not in profile_names()
    assert set(tile_profile_names()).isdisjoint(profile_names())
    with pytest.raises(ConfigError, match="tile table's profile"):
        load_profile("tiles-classic")
    with pytest.raises(ConfigError, match="game 'poker'"):
        load_tile_profile("classic")


def test_a_tile_profile_sets_ruleset_commission_and_fouls() -> None:
    p = parse_tile_profile(GOOD, "t.toml")
    assert p.ruleset.gee_joon_tie is GeeJoonTie.BY_PIPS and p.resets_fouls
    assert p.settlement.commission.commission_on(1010) == 55
    assert p.settlement.limits.min_bet == 1000


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (("[ruleset]", "[ruleset]\ncolour = 1"), "'colour'"),
        (('house_way = "foxwoods"', 'house_way = "nowhere"'), "'nowhere'"),
        (('gee_joon_tie = "by_pips"', 'gee_joon_tie = "sideways"'), "'sideways'"),
        (('foul = "house_way"', 'foul = "shrug"'), "'shrug'"),
        (('game = "tiles"', 'game = "poker"'), "'poker'"),
        (('game = "tiles"', 'game = "tiles"\npositions = 7'), "positions 7"),
        (("max_bet_cents = 100000", "fortune_max_cents = 5"), "'fortune_max_cents'"),
        (("unit_cents = 5", "unit_cents = -5"), "-5"),
        (('title = "test tile table"', 'title = ""'), "'title'"),
        (("name = ", "nom = "), "'nom'"),
        (("[settlement]", "[settlement\n"), "bad TOML"),
        (("[settlement]", "[settlement]\nvariant = 'ez'"), "'variant'"),
    ],
)
def test_bad_tile_profile_is_named(change: tuple[str, str], named: str) -> None:
    with pytest.raises(ConfigError, match=r"t\.toml") as info:
        parse_tile_profile(GOOD.replace(*change), "t.toml")
    assert named in str(info.value)


def test_unknown_tile_profile() -> None:
    with pytest.raises(ConfigError, match="'nowhere'"):
        load_tile_profile("nowhere")
