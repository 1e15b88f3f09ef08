"""Five- and two-card ranking with the bug joker, checked against counts and a brute force."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.poker.cards import JOKER, Card, full_deck, parse_cards
from controller.rules.poker.hand_rules import JokerMode, PokerRules, Wheel
from controller.rules.poker.hands import (
    FIVE_OF_A_KIND,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    Evaluator,
    category_of,
    describe,
)

EV = Evaluator()
NATURALS = [c for c in full_deck() if not c.is_joker]


def r5(text: str, ev: Evaluator = EV) -> int:
    return ev.rank5(parse_cards(text, 5))


def test_52_card_five_card_counts_match_the_textbook() -> None:
    # Every five-card hand of the 52-card deck; the standard counts (royals inside SF).
    counts = Counter(category_of(EV.rank5(h)) for h in combinations(range(52), 5))
    assert counts == {
        STRAIGHT_FLUSH: 40, QUADS: 624, FULL_HOUSE: 3744, FLUSH: 5108, STRAIGHT: 10200,
        TRIPS: 54912, TWO_PAIR: 123552, PAIR: 1098240, HIGH_CARD: 1302540,
    }


def _brute_joker(four: tuple[Card, ...], ev: Evaluator) -> int:
    """The joker as an ace, or as any real card completing a straight, flush or straight flush."""
    if sum(1 for c in four if c.rank == 12) == 4:
        return 1 << 40  # five aces: above everything, compared separately
    best = 0
    for sub in NATURALS:
        if sub in four:
            continue
        rank = ev.rank5((*four, sub))
        if sub.rank == 12 or category_of(rank) in (STRAIGHT, FLUSH, STRAIGHT_FLUSH):
            best = max(best, rank)
    return best


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(NATURALS), min_size=4, max_size=4, unique=True))
def test_joker_matches_brute_force_over_real_substitutes(four: list[Card]) -> None:
    hand = (*four, JOKER)
    expected = _brute_joker(tuple(four), EV)
    got = EV.rank5(hand)
    if expected == 1 << 40:
        assert category_of(got) == FIVE_OF_A_KIND
    else:
        assert got == expected, describe(hand, EV)


def test_order_of_categories_with_the_bug() -> None:
    ladder = [
        "As Ad Ah Ac Jk",  # five aces
        "As Ks Qs Js Ts",  # royal
        "Ks Qs Js Ts 9s",  # straight flush
        "9c 9d 9h 9s 2c",  # quads
        "8c 8d 8h 2s 2c",  # full house
        "Kh Jh 9h 6h 3h",  # flush
        "Ac Kd Qh Js Tc",  # A-high straight
        "Ac 2d 3h 4s 5c",  # wheel, second-highest by default
        "Kc Qd Jh Ts 9c",  # K-high straight
        "7c 7d 7h Ks 2c",  # trips
        "7c 7d 5h 5s 2c",  # two pair
        "7c 7d 5h 4s 2c",  # pair
        "Ac Jd 5h 4s 2c",  # high card
    ]
    ranks = [r5(h) for h in ladder]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == len(ranks)


def test_joker_royal_ties_a_natural_royal_and_suits_never_break_ties() -> None:
    assert r5("Jk Ks Qs Js Ts") == r5("As Ks Qs Js Ts") == r5("Ah Kh Qh Jh Th")
    assert r5("Ac Kd 9h 5s 3c") == r5("Ad Kh 9s 5c 3d")


def test_joker_is_not_wild_for_pairs() -> None:
    assert describe(parse_cards("Jk Kc Kd Qh 2s"), EV) == "pair of kings"
    assert r5("Jk Kc Kd Qh 2s") == r5("As Kc Kd Qh 2s")
    assert r5("Jk Kc Kd Kh 2s") == r5("Ac Kc Kd Kh 2s")  # three kings, ace kicker


def test_joker_completes_the_highest_missing_flush_card() -> None:
    assert r5("Jk Kh 9h 6h 3h") == r5("Ah Kh 9h 6h 3h")
    assert r5("Jk Ah 9h 6h 3h") == r5("Ah Kh 9h 6h 3h")  # ace present: the king


def test_wheel_switch() -> None:
    low = Evaluator(PokerRules(wheel=Wheel.LOWEST))
    assert r5("Ac 2d 3h 4s 5c") > r5("Kc Qd Jh Ts 9c")
    assert r5("Ac 2d 3h 4s 5c", low) < r5("6c 2d 3h 4s 5c", low)
    # The joker as the highest card completing the straight: the wheel (2nd) vs the six.
    assert describe(parse_cards("Jk 2d 3h 4s 5c"), EV) == "straight, five high (wheel)"
    assert describe(parse_cards("Jk 2d 3h 4s 5c"), low) == "straight, six high"


def test_fully_wild_joker_makes_five_of_a_kind() -> None:
    wild = Evaluator(PokerRules(joker=JokerMode.WILD))
    assert describe(parse_cards("Jk Kc Kd Kh Ks"), wild) == "five kings"
    assert category_of(r5("Jk Kc Kd Qh 2s", wild)) == TRIPS


@pytest.mark.parametrize(
    ("low", "high", "legal"),
    [
        ("7c 7d", "8c 8d 2h 3s 4c", True),
        ("8c 8d", "7c 7d Ah Ks 4c", False),
        ("Ac Kd", "Ah Qd 9h 7s 4c", False),
        ("Kc Qd", "Ah 3d 9h 7s 4c", True),
        ("8c 8d", "8h 8s Ah Ks 4c", True),  # split four of a kind: equal pair, kickers behind
    ],
)
def test_foul_check(low: str, high: str, legal: bool) -> None:
    lo, hi = EV.rank2(parse_cards(low)), EV.rank5(parse_cards(high))
    assert EV.high_beats_low(hi, lo) is legal


def test_strict_outrank_rule_makes_an_equal_pair_a_foul() -> None:
    strict = Evaluator(PokerRules(high_may_equal_low=False))
    lo, hi = strict.rank2(parse_cards("8c 8d")), strict.rank5(parse_cards("8h 8s Ah Ks 4c"))
    assert not strict.high_beats_low(hi, lo)


def test_two_card_ranking() -> None:
    r2 = EV.rank2
    assert r2(parse_cards("Jk Ah")) == r2(parse_cards("Ac Ad"))  # joker pairs an ace
    assert r2(parse_cards("2c 2d")) > r2(parse_cards("Ac Kd")) > r2(parse_cards("Ac Qd"))
    assert r2(parse_cards("Jk 4c")) == r2(parse_cards("Ad 4h"))
    assert r2(parse_cards("3c 2d")) < r2(parse_cards("4c 2d"))
