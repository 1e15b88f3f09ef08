"""Two-tile hands: the reference's category counts, Gee Joon, ties, copies, and a total order."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.errors import ProfileError
from controller.rules.tiles.dominoes import FACES, Tile, full_set
from controller.rules.tiles.hands import (
    DEFAULT_TILE_RULES,
    PAIR_BASE,
    GeeJoonTie,
    TileRules,
    category,
    describe,
    is_copy,
    parse_hand,
    player_wins,
    points,
    rank_hand,
    single_rank,
    word,
)

SET = full_set()
HANDS = list(combinations(range(len(SET)), 2))  # the 496 hands of distinguishable tiles
BY_PIPS = TileRules(GeeJoonTie.BY_PIPS)


def hand(text: str) -> tuple[Tile, Tile]:
    return parse_hand(text)


def rank(text: str, rules: TileRules = DEFAULT_TILE_RULES) -> int:
    return rank_hand(hand(text), rules)


# --- the reference's counts (docs/sources.md: [T1]) --------------------

def test_category_counts_over_all_496_hands() -> None:
    assert len(HANDS) == 496
    counts = Counter(word(category(SET[i], SET[j])) for i, j in HANDS)
    assert counts == {
        "pair": 16, "wong": 8, "gong": 16, "nine": 48, "eight": 56, "seven": 52, "six": 56,
        "five": 44, "four": 52, "three": 48, "two": 44, "one": 32, "zero": 24,
    }


def test_sixteen_of_the_nines_are_high_nines_and_twenty_hands_rank() -> None:
    nines = [(SET[i], SET[j]) for i, j in HANDS if category(SET[i], SET[j]) == 9]
    assert sum(describe(h).startswith("high nine") for h in nines) == 16
    ranking = sum(category(SET[i], SET[j]) >= 10 for i, j in HANDS)
    # "20 ranking hands" counts kinds: 16 pairs + 2 wongs + 2 gongs (Teen or Day high).
    kinds = {describe((SET[i], SET[j])) for i, j in HANDS if category(SET[i], SET[j]) >= 10}
    assert ranking == 40 and len(kinds) == 20


def test_136_classes_of_two_tile_hands() -> None:
    assert len({tuple(sorted((SET[i].group, SET[j].group))) for i, j in HANDS}) == 136
    assert len({tuple(sorted((int(SET[i]), int(SET[j])))) for i, j in HANDS}) == 221


# --- pairs, wong, gong, Gee Joon ----------------------------------------------------------------

def test_pair_order_gee_joon_first_then_by_pair_rank() -> None:
    pairs = ["1-2 2-4", "6-6 6-6", "1-1 1-1", "4-4 4-4", "1-3 1-3", "5-5 5-5", "3-3 3-3",
             "2-2 2-2", "5-6 5-6", "4-6 4-6", "1-6 1-6", "1-5 1-5", "4-5 3-6", "3-5 2-6",
             "3-4 2-5", "1-4 2-3"]
    ranks = [rank(p) for p in pairs]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 16
    assert all(r >> 8 >= PAIR_BASE for r in ranks)
    assert rank("3-3 3-3") > rank("6-6 4-5")  # any pair beats a wong


def test_same_pips_without_a_pair_group_is_no_pair() -> None:
    assert category(*hand("4-4 3-5")) == 6  # 16 pips, Yun + Chop Bot: not a pair
    # "4-2 played with 5-1 would be a pair" is the misconception of section 2.1: it is a nine,
    # the 2-4 counting 3 (the wild rule is for points only).
    assert category(*hand("2-4 1-5")) == 9
    assert category(*hand("1-2 3-3")) == 9  # 1-2 as 3 + 6


def test_wong_gong_and_high_nine() -> None:
    assert describe(hand("6-6 4-5")) == "wong (Teen)"
    assert describe(hand("1-1 3-6")) == "wong (Day)"
    assert describe(hand("6-6 4-4")) == "gong (Teen)"  # the 4-4 is an eight too
    assert describe(hand("1-1 2-6")) == "gong (Day)"
    assert describe(hand("6-6 1-6")) == "high nine (Teen)"
    assert rank("1-1 4-5") > rank("6-6 3-5") > rank("6-6 2-5") > rank("5-6 4-4")
    assert rank("1-1 2-5") > rank("5-6 4-4")  # a high nine beats every other nine


def test_gee_joon_counts_three_or_six_for_points_only() -> None:
    assert points(*hand("1-2 5-6")) == 7  # the reference's example: seven rather than four
    assert points(*hand("2-4 5-6")) == 7
    assert points(*hand("2-4 6-6")) == 8
    assert category(*hand("6-6 2-4")) == 8  # not a gong: a Gee Joon tile is no eight
    assert category(*hand("1-1 1-2")) == 8  # nor a nine for a wong
    assert category(*hand("1-2 3-4")) == 3  # 3+7=10 -> 0 or 6+7=13 -> 3: the higher


# --- ties, copies and 0-0 -----------------------------------------------------------------------

def test_ties_go_by_the_highest_tile_only() -> None:
    assert player_wins(rank("4-4 4-6"), rank("5-6 1-6"))  # 8 against 8, Yun over Foo
    assert not player_wins(rank("5-6 1-6"), rank("4-4 4-6"))
    # The lower tile is never used: Mooy with a Chop Bot against Mooy with the other Chop Bot.
    assert is_copy(rank("5-5 3-5"), rank("5-5 2-6"))
    assert is_copy(rank("1-1 1-6"), rank("1-1 1-6"))
    assert is_copy(rank("6-6 4-5"), rank("6-6 3-6"))  # wong against wong, both Teen high
    assert not player_wins(rank("5-5 3-5"), rank("5-5 2-6"))


def test_every_zero_zero_goes_to_the_banker() -> None:
    zeros = ["1-3 3-3", "1-3 1-5", "5-5 4-6", "2-2 3-3", "2-2 1-5", "1-5 2-2"]
    assert all(category(*hand(z)) == 0 for z in zeros)
    # Gor high would beat Mooy high on any other total; at 0-0 the banker wins regardless.
    assert rank("1-3 3-3") > rank("5-5 4-6")
    for a in zeros:
        for b in zeros:
            assert is_copy(rank(a), rank(b)) and not player_wins(rank(a), rank(b))
    # Teen and Day never make 0-0: with an eight they are a gong.
    assert category(*hand("6-6 2-6")) == category(*hand("1-1 4-4")) == 10


def test_single_gee_joon_tile_rank_under_both_conventions() -> None:
    one_two, two_four, two_three = Tile.parse("1-2"), Tile.parse("2-4"), Tile.parse("2-3")
    assert single_rank(one_two) == single_rank(two_four) == 0 < single_rank(two_three)
    assert single_rank(one_two, BY_PIPS) < single_rank(two_three, BY_PIPS)
    assert single_rank(two_three, BY_PIPS) < single_rank(two_four, BY_PIPS)
    assert single_rank(two_four, BY_PIPS) < single_rank(Tile.parse("3-4"), BY_PIPS)


def test_the_two_conventions_differ_in_exactly_the_two_named_matchups() -> None:
    """Section 0 fact 5: 2 of 215,760 ordered disjoint matchups (VERIFIED in the reference)."""
    lowest = [rank_hand((SET[i], SET[j])) for i, j in HANDS]
    by_pips = [rank_hand((SET[i], SET[j]), BY_PIPS) for i, j in HANDS]
    matchups = 0
    differ = []
    for p, (a, b) in enumerate(HANDS):
        for q, (c, d) in enumerate(HANDS):
            if len({a, b, c, d}) < 4:
                continue
            matchups += 1
            if player_wins(lowest[p], lowest[q]) != player_wins(by_pips[p], by_pips[q]):
                differ.append((f"{SET[a]} {SET[b]}", f"{SET[c]} {SET[d]}"))
    assert matchups == 215_760
    named = {("2-4 1-4", "1-2 2-3"), ("2-4 2-3", "1-2 1-4")}
    assert {(_canon(x), _canon(y)) for x, y in differ} == {(_canon(x), _canon(y))
                                                         for x, y in named}
    assert len(differ) == 2


def _canon(text: str) -> str:
    return " ".join(sorted(text.split()))


def test_tile_rules_from_a_profile_table() -> None:
    assert TileRules.from_mapping({}) == TileRules()
    assert TileRules.from_mapping({"gee_joon_tie": "by_pips"}) == BY_PIPS
    with pytest.raises(ProfileError, match="'colour'"):
        TileRules.from_mapping({"colour": 1})
    with pytest.raises(ProfileError, match="'sideways'"):
        TileRules.from_mapping({"gee_joon_tie": "sideways"})


# --- the comparison is a total order apart from the banker-wins ties ----------------------------

hands_st = st.lists(st.sampled_from(FACES), min_size=2, max_size=2).map(lambda t: (t[0], t[1]))


@settings(max_examples=600, deadline=None)
@given(hands_st, hands_st, hands_st, st.sampled_from([TileRules(), BY_PIPS]))
def test_comparison_is_a_total_order_apart_from_banker_wins_ties(
    a: tuple[Tile, Tile], b: tuple[Tile, Tile], c: tuple[Tile, Tile], rules: TileRules
) -> None:
    ra, rb, rc = (rank_hand(h, rules) for h in (a, b, c))
    # Trichotomy: exactly one of a beats b, b beats a, a ties b (a copy: the banker's either way).
    assert [player_wins(ra, rb), player_wins(rb, ra), is_copy(ra, rb)].count(True) == 1
    assert is_copy(ra, ra) and is_copy(ra, rb) == is_copy(rb, ra)
    # Transitivity of beating and of tying.
    if player_wins(ra, rb) and player_wins(rb, rc):
        assert player_wins(ra, rc)
    if is_copy(ra, rb) and is_copy(rb, rc):
        assert is_copy(ra, rc)
    if is_copy(ra, rb):  # tied hands beat and lose to the same hands
        assert player_wins(ra, rc) == player_wins(rb, rc)
        assert player_wins(rc, ra) == player_wins(rc, rb)
    # A tie is the same rank, or two 0-0 hands.
    assert is_copy(ra, rb) == (ra == rb or (ra >> 8 == 0 and rb >> 8 == 0))
