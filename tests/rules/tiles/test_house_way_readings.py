"""Properties of the ways read from docs/sources.md [D1] (australian, luger-optimal,
harrahs), over every face multiset: the readings the golden files rest on, checked as a whole."""

from __future__ import annotations

import re

import pytest

from controller.config.house_ways import load_tile_way, tile_engine, tile_way_dir
from controller.rules.tiles.dominoes import Tile
from controller.rules.tiles.house_way import TileWayEngine, face_multisets
from controller.rules.tiles.house_way_model import TileWay

HANDS = list(face_multisets())


def _without(name: str, pattern: str) -> TileWayEngine:
    """The way with every line matching ``pattern`` taken out."""
    text = (tile_way_dir() / f"{name}.toml").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not re.search(pattern, line)]
    return TileWayEngine(TileWay.from_toml("\n".join(lines), name))


def _values(engine: TileWayEngine, hand: tuple[Tile, ...]) -> tuple[int, int]:
    s = engine.set_hand(hand).setting
    return s.low_rank, s.high_rank


def test_each_australian_exception_departs_from_the_general_play() -> None:
    """l.261-279 are 'exceptions to general play': with our reading of l.256-259, each of the
    nineteen changes the setting of every hand it decides, so none is redundant."""
    way = tile_engine("australian")
    general = _without("australian", r'\{ id = "x\d+"')
    decided: dict[str, int] = {}
    for hand in HANDS:
        rule = way.set_hand(hand).rule
        if re.search(r"\.x\d+$", rule):
            decided[rule] = decided.get(rule, 0) + 1
            assert _values(way, hand) != _values(general, hand), (rule, hand)
    assert len(decided) == 19


def test_the_australian_choice_rule_never_costs_points() -> None:
    """prefer_top_tile (l.257-258) only chooses among settings of equal points."""
    way = tile_engine("australian")
    plain = _without("australian", r"prefer_top_tile")
    for hand in HANDS:
        if way.set_hand(hand).rule in ("australian.other", "australian.other.high-8"):
            ours, theirs = _values(way, hand), _values(plain, hand)
            assert (ours[0] >> 8, ours[1] >> 8) == (theirs[0] >> 8, theirs[1] >> 8), hand


@pytest.mark.parametrize("side", ["banker", "player"])
def test_harrahs_and_luger_differ_only_in_pair_hands(side: str) -> None:
    luger = TileWayEngine(load_tile_way("luger-optimal"), side=side)
    harrahs = TileWayEngine(load_tile_way("harrahs"), side=side)
    differ = [h for h in HANDS if _values(luger, h) != _values(harrahs, h)]
    assert differ
    assert all(len({t.group for t in h}) == 3 for h in differ)  # exactly one pair


def test_lugers_columns_differ_only_where_the_table_says() -> None:
    """Banker and player columns differ for Long, Long Leg Seven, Big Head Six and Mixed Five
    ([D1] l.185, 189-197, 209); Harrah's way is the same on both sides."""
    banker = TileWayEngine(load_tile_way("luger-optimal"), side="banker")
    player = TileWayEngine(load_tile_way("luger-optimal"), side="player")
    pairs = set()
    for hand in HANDS:
        if _values(banker, hand) != _values(player, hand):
            groups = [t.group for t in hand]
            pairs |= {g for g in groups if groups.count(g) == 2}
    assert pairs == {6, 10, 11, 15}  # Chong, Tit, Look, Chop Ng
    harrahs = [TileWayEngine(load_tile_way("harrahs"), side=s) for s in ("banker", "player")]
    assert all(_values(harrahs[0], h) == _values(harrahs[1], h) for h in HANDS)
