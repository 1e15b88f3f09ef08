"""The engine keys added for the ways of docs/sources.md [D1]: ``side`` (Luger's banker and player
columns) and ``prefer_top_tile`` (the Australian way's "high tile on the high hand when given a
choice")."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.rules.errors import HouseWayError
from controller.rules.tiles.house_way import TileWayEngine
from controller.rules.tiles.house_way_model import TileWay

WAYS = Path(__file__).resolve().parents[3] / "config" / "house_ways" / "tiles"
BASE = (WAYS / "foxwoods.toml").read_text(encoding="utf-8")


def _way(old: str, new: str) -> TileWay:
    assert old in BASE, f"foxwoods.toml no longer holds {old!r}"
    return TileWay.from_toml(BASE.replace(old, new, 1), "foxwoods")


SIDED = ('{ id = "A", pair = ["4", "5", "6", "10", "11"]',
         '{ id = "P", side = "player", pair = "H6", others = ["2", "12"], play = "split", '
         'source = "test" },\n  { id = "A", pair = ["4", "5", "6", "10", "11"]')


def test_a_side_rule_holds_only_for_its_side() -> None:
    way = _way(*SIDED)
    hand = "3-3 3-3 6-6 1-1"
    banker = TileWayEngine(way).set_hand(hand)  # the default side is the banker's
    player = TileWayEngine(way, side="player").set_hand(hand)
    assert banker.rule == "foxwoods.pairs.A" and str(banker.setting.setting) == (
        "6-6 1-1 / 3-3 3-3")
    assert player.rule == "foxwoods.pairs.P" and str(player.setting.setting) == (
        "1-1 3-3 / 6-6 3-3")
    # a hand the rule does not name is set alike on both sides
    assert (TileWayEngine(way).set_hand("3-3 3-3 6-6 5-6")
            == TileWayEngine(way, side="player").set_hand("3-3 3-3 6-6 5-6"))


def test_bad_sides_are_refused_naming_the_value() -> None:
    with pytest.raises(HouseWayError, match=r"side must be one of.*'croupier'"):
        _way(SIDED[0], SIDED[1].replace('"player"', '"croupier"'))
    with pytest.raises(HouseWayError, match="side 'croupier' is not one of"):
        TileWayEngine(_way(*SIDED), side="croupier")


PREFER = ('[other]\nplay = "best_low"', '[other]\nplay = "best_low"\nprefer_top_tile = "{}"')


@pytest.mark.parametrize(("prefer", "expected"), [
    ("high", "1-1 1-3 / 6-6 3-3"),  # 6/8 either way: the Teen goes to the high hand
    ("low", "6-6 1-3 / 1-1 3-3"),
])
def test_prefer_top_tile_chooses_among_settings_of_equal_points(prefer: str,
                                                                 expected: str) -> None:
    engine = TileWayEngine(_way(PREFER[0], PREFER[1].format(prefer)))
    choice = engine.set_hand("6-6 1-1 1-3 3-3")
    assert choice.rule == "foxwoods.other"
    assert str(choice.setting.setting) == expected
    assert (choice.setting.low_rank >> 8, choice.setting.high_rank >> 8) == (6, 8)


def test_prefer_top_tile_never_gives_up_points() -> None:
    """5-6 3-4 2-3 2-6: 5/6 is the best low; 'prefer high' does not turn it into a worse low."""
    plain = TileWayEngine(TileWay.from_toml(BASE, "foxwoods")).set_hand("5-6 3-4 2-3 2-6")
    engine = TileWayEngine(_way(PREFER[0], PREFER[1].format("high")))
    chosen = engine.set_hand("5-6 3-4 2-3 2-6").setting
    assert (chosen.low_rank >> 8, chosen.high_rank >> 8) == (
        plain.setting.low_rank >> 8, plain.setting.high_rank >> 8)


def test_a_bad_preference_is_refused() -> None:
    with pytest.raises(HouseWayError, match="prefer_top_tile must be 'high' or 'low', not 'up'"):
        _way(PREFER[0], PREFER[1].format("up"))
