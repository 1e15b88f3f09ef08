"""The class tables are the house way: hand by hand, the engine gives every hand of a class the
ranks it gives the class's representative, and the exhaustive counts equal hand-by-hand counts."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.analysis.poker.classes import build_classes, poker_classes
from controller.analysis.poker.distribution import LOW_KEYS, count_distribution, low_key
from controller.analysis.poker.lookup import build_lookup
from controller.analysis.poker.strategy import way_engine, way_table
from controller.analysis.tiles.strategy import AnalysisError
from controller.config.house_ways import poker_way_names
from controller.rules.poker.cards import RANKS, Card
from controller.rules.poker.hand_rules import PokerRules
from controller.rules.poker.hands import CATEGORY_KEYS

SHIPPED = tuple(poker_way_names())


def deck_of(ranks: str) -> list[int]:
    return [RANKS.index(r) * 4 + s for r in ranks for s in range(4)] + [52]


def words(low: int, high: int) -> tuple[str, str]:
    """The distribution's keys of one setting, computed from the rank ints by hand."""
    first, second = (low >> 16) & 0xF, (low >> 12) & 0xF
    return (low_key(first, first if low >> 20 else second), CATEGORY_KEYS[high >> 20])


@pytest.mark.parametrize(("way", "ranks"), [("foxwoods", "A2345"), ("simple", "TJQKA")])
def test_every_hand_of_a_reduced_deck(way, ranks):
    """116,280 hands of 21 cards, each set by the engine, against the class table."""
    classes = build_classes([RANKS.index(r) for r in ranks])
    table = way_table(classes, way, workers=1)
    lookup = build_lookup(classes)
    engine = way_engine(way)
    hands = np.array(list(combinations(deck_of(ranks), 7)), dtype=np.int8)
    index = lookup.index(hands)
    high, low = Counter[str](), Counter[str]()
    for row, cls in zip(hands, index, strict=True):
        ranked = engine.set_hand([Card(int(c)) for c in row]).setting
        assert (ranked.low_rank, ranked.high_rank) == (table.low[cls], table.high[cls]), row
        low_word, high_word = words(ranked.low_rank, ranked.high_rank)
        low[low_word] += 1
        high[high_word] += 1
    dist = count_distribution(classes, table)
    assert dist.hands == len(hands)
    assert {k: v for k, v in dist.high.items() if v} == dict(high)
    assert {k: v for k, v in dist.low.items() if v} == dict(low)


@pytest.fixture(scope="module")
def lookup():
    return build_lookup(poker_classes())


@pytest.mark.parametrize("way", SHIPPED)
@settings(max_examples=300, deadline=None)
@given(deck=st.permutations(range(53)))
def test_random_hands_set_like_their_class(lookup, way, deck):
    """Any full-deck hand gets the ranks its class's representative gets."""
    engine = way_engine(way)
    cls = int(lookup.index(np.array([deck[:7]], dtype=np.int8))[0])
    mine = engine.set_hand([Card(c) for c in deck[:7]]).setting
    theirs = engine.set_hand(lookup.classes.representative(cls)).setting
    assert (mine.low_rank, mine.high_rank) == (theirs.low_rank, theirs.high_rank)


def test_every_shipped_way_is_tested():
    assert {"simple", "foxwoods", "trump-plaza"} <= set(SHIPPED) and len(SHIPPED) >= 8


def test_strict_ruleset_tables_never_foul():
    """Where the high hand must outrank the low, the tables hold only legal settings."""
    rules = PokerRules(high_may_equal_low=False)
    classes = build_classes([RANKS.index(r) for r in "8TQKA"])
    table = way_table(classes, "simple", rules, workers=2)
    serial = way_table(classes, "simple", rules, workers=1)
    assert (table.low == serial.low).all() and (table.high == serial.high).all()
    # A pair in front never stands before the same pair or less behind.
    pair_front = table.low >> 20 == 1
    assert ((table.high >> 16)[pair_front] > (table.low >> 16)[pair_front]).all()


def test_low_keys_cover_every_two_card_hand_once():
    assert len(LOW_KEYS) == len(set(LOW_KEYS)) == 13 + 78
    assert LOW_KEYS[:2] == ("A-A", "K-K") and LOW_KEYS[13:15] == ("A-K", "A-Q")
    assert LOW_KEYS[-1] == "3-2"


def test_unknown_way_is_named():
    with pytest.raises(AnalysisError, match="'nope'"):
        way_table(build_classes([8, 9, 10, 11, 12]), "nope")
