"""Properties every shipped house way must keep: it never fouls, under either foul reading."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.config.house_ways import poker_engine, poker_way_names
from controller.rules.poker.cards import Card, full_deck, parse_cards
from controller.rules.poker.hand_rules import PokerRules, Wheel

RULESETS = [
    PokerRules(),
    PokerRules(high_may_equal_low=False),
    PokerRules(wheel=Wheel.LOWEST),
]
WAYS = poker_way_names()
DECK = full_deck()


def _structured_hands(rng: random.Random, count: int) -> list[list[Card]]:
    """Hands rich in the rare patterns: quads, full houses, five aces, joker straights."""
    hands = []
    for _ in range(count):
        rank = rng.randrange(13)
        group = [c for c in DECK if c.rank == rank and not c.is_joker]
        take = rng.choice([3, 4])
        core = rng.sample(group, take) + (
            [DECK[52]] if rng.random() < 0.5 and rank == 12 else []
        )
        rest = [c for c in DECK if c not in core]
        hands.append(core + rng.sample(rest, 7 - len(core)))
    return hands


@pytest.mark.parametrize("rules", RULESETS, ids=["default", "strict", "wheel-lowest"])
@pytest.mark.parametrize("way", WAYS)
def test_shipped_way_never_fouls(way: str, rules: PokerRules) -> None:
    engine = poker_engine(way, rules)
    rng = random.Random(f"{way}-{rules}")
    hands = [rng.sample(DECK, 7) for _ in range(1500)] + _structured_hands(rng, 600)
    for hand in hands:
        choice = engine.set_hand(hand)  # raises HouseWayError on a foul
        assert choice.setting.legal
        assert sorted(map(int, choice.setting.setting.cards)) == sorted(map(int, hand))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True), st.sampled_from(WAYS))
def test_setting_depends_only_on_the_cards_not_their_order(hand: list[Card], way: str) -> None:
    engine = poker_engine(way)
    first = engine.set_hand(hand).setting
    again = engine.set_hand(list(reversed(hand))).setting
    assert (first.low_rank, first.high_rank) == (again.low_rank, again.high_rank)


def test_text_and_cards_give_the_same_setting() -> None:
    engine = poker_engine(WAYS[0])
    text = "As Kd Qh 9s 9c 4d Jk"
    assert engine.set_hand(text) == engine.set_hand(parse_cards(text))


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True),
    st.sampled_from(WAYS),
    st.sampled_from(RULESETS),
)
def test_no_shipped_way_fouls_property(hand: list[Card], way: str, rules: PokerRules) -> None:
    choice = poker_engine(way, rules).set_hand(hand)
    assert choice.setting.legal
    assert sorted(map(int, choice.setting.setting.cards)) == sorted(map(int, hand))
