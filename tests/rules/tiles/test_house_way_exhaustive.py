"""Every shipped tile house way sets every one of the 35,960 four-tile deals legally.

The deals are enumerated over the 32 physical tiles of a set; the engine caches per face
multiset, so each way decides its 8,130 multisets once.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from controller.config.house_ways import tile_engine, tile_way_names
from controller.rules.tiles.dominoes import full_set
from controller.rules.tiles.hands import GeeJoonTie, TileRules
from controller.rules.tiles.house_way import face_multisets

WAYS = tile_way_names()
DEALS = list(combinations(full_set(), 4))


def test_the_counts_of_the_reference() -> None:
    assert len(DEALS) == 35_960
    assert len(list(face_multisets())) == 8_130
    groups = {tuple(sorted(t.group for t in hand)) for hand in DEALS}
    assert len(groups) == 3_620


@pytest.mark.parametrize("way", WAYS)
def test_every_deal_gets_a_legal_setting_of_its_own_tiles(way: str) -> None:
    table = tile_engine(way).table()
    rules: Counter[str] = Counter()
    for deal in DEALS:
        choice = table[tuple(sorted(deal))]
        ranked = choice.setting
        assert ranked.legal, f"{way} fouls {deal}: {ranked.setting}"
        assert ranked.high_rank >= ranked.low_rank
        assert sorted(ranked.setting.tiles) == sorted(deal)
        rules[choice.rule] += 1
    assert sum(rules.values()) == 35_960
    assert all(choice.source for choice in table.values())


@pytest.mark.parametrize("way", WAYS)
def test_the_result_depends_only_on_pair_groups(way: str) -> None:
    """Under the casino tie convention the 3,620 group classes are exact: swapping a tile for
    the other tile of its group (4-5 for 3-6, 1-2 for 2-4) never changes the ranks."""
    seen: dict[tuple[int, ...], tuple[int, int]] = {}
    for key, choice in tile_engine(way).table().items():
        groups = tuple(sorted(t.group for t in key))
        ranks = (choice.setting.low_rank, choice.setting.high_rank)
        assert seen.setdefault(groups, ranks) == ranks, f"{way}: {key} differs from its class"


@pytest.mark.parametrize("way", WAYS)
def test_set_hand_ignores_tile_order_and_agrees_with_the_table(way: str) -> None:
    engine = tile_engine(way)
    for deal in DEALS[::997]:
        forward = engine.set_hand(list(deal))
        backward = engine.set_hand(list(reversed(deal)))
        assert forward == backward == engine.table()[tuple(sorted(deal))]


def test_the_other_tie_convention_is_legal_too() -> None:
    rules = TileRules(GeeJoonTie.BY_PIPS)
    for way in WAYS:
        table = tile_engine(way, rules).table()
        assert all(choice.setting.legal for choice in table.values())
