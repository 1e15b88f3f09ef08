"""The Fortune side bet: its lines in pay order, its pay tables' house edges, the Envy Bonus."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rules.errors import ProfileError, SettlementError
from controller.rules.poker.cards import JOKER, Card, full_deck, parse_cards
from controller.rules.poker.fortune import (
    ENVY_MINIMUM,
    ENVY_TABLES,
    PAY_TABLES,
    Line,
    envy_bonus,
    expected_return,
    fortune_line,
    pay_table,
    settle_fortune,
)
from controller.rules.poker.hands import (
    FIVE_OF_A_KIND,
    FLUSH,
    FULL_HOUSE,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    Evaluator,
    category_of,
)
from controller.rules.poker.setting import Setting
from controller.rules.poker.settlement import settle
from controller.rules.poker.seven_cards import best_five_rank
from controller.rules.seat import Bet, HandSet

EV = Evaluator()
TOTAL = 154_143_080  # C(53, 7)

# Section 4.3: hands on each line, first line that applies, in pay-table order.
LINE_COUNTS = {
    Line.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH: 32,
    Line.ROYAL_MATCH: 72,
    Line.WILD_SEVEN_CARD_STRAIGHT_FLUSH: 196,
    Line.FIVE_ACES: 1_128,
    Line.ROYAL_FLUSH: 26_020,
    Line.STRAIGHT_FLUSH: 184_644,
    Line.FOUR_OF_A_KIND: 307_472,
    Line.FULL_HOUSE: 4_188_528,
    Line.FLUSH: 6_172_088,
    Line.THREE_OF_A_KIND: 7_672_500,
    Line.STRAIGHT: 11_034_204,
    Line.NOTHING: 124_556_196,
}
THREE_PAIR_NOTHING_ELSE = 2_862_000  # section 4.3: three pair with no straight or flush


@pytest.mark.parametrize(
    ("hand", "line"),
    [
        ("8s 9s Ts Js Qs Ks As", Line.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH),
        ("Ah 2h 3h 4h 5h 6h 7h", Line.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH),
        ("As Ks Qs Js Ts Kh Qh", Line.ROYAL_MATCH),
        ("As Ks Qs Jk Ts Kh Qh", Line.ROYAL_MATCH),  # the joker may complete the royal
        ("As Ks Qs Js Ts Kh Jk", Line.ROYAL_FLUSH),  # ... but not the K-Q
        ("As Ks Qs Js Ts Kh Qd", Line.ROYAL_FLUSH),  # an unsuited K-Q is no match
        ("Jk 9s Ts Js Qs Ks As", Line.WILD_SEVEN_CARD_STRAIGHT_FLUSH),
        ("2d 3d 4d 6d 7d 8d Jk", Line.WILD_SEVEN_CARD_STRAIGHT_FLUSH),  # the joker fills a gap
        ("Ac Ad Ah As Jk 2c 3d", Line.FIVE_ACES),
        ("As Ks Qs Js Ts 2h 3d", Line.ROYAL_FLUSH),
        ("Jk Ks Qs Js Ts 2h 3d", Line.ROYAL_FLUSH),  # a joker royal pays as a royal
        ("9c Tc Jc Qc Kc 2h 3d", Line.STRAIGHT_FLUSH),
        ("Ac 2c 3c 4c 5c Kh Kd", Line.STRAIGHT_FLUSH),  # wheel straight flush
        ("7c 7d 7h 7s Kc Kd 2h", Line.FOUR_OF_A_KIND),
        ("Ac Ad Ah Jk Kc 9d 2h", Line.FOUR_OF_A_KIND),  # the joker as the fourth ace
        ("Qc Qd Qh 5s 5c 2d 3h", Line.FULL_HOUSE),
        ("Ah Jk Qs Qh Qd 7s 2s", Line.FULL_HOUSE),  # section 7 item 1
        ("Kh 9h 6h 3h Jk 2c 4d", Line.FLUSH),  # the joker completes a flush
        ("5c 5d 5h 6s 7c 8d 9h", Line.THREE_OF_A_KIND),  # trips pay above the straight
        ("Ac Ad Jk 9s 7c 4d 2h", Line.THREE_OF_A_KIND),  # two aces and the joker
        ("5s 6d 7c 8h 9s 9d Kc", Line.STRAIGHT),
        ("Jk 2c 3d 4h 5s Kc 9d", Line.STRAIGHT),  # section 7 item 4, the joker wheel
        ("Ac Ad Kh Ks Qc Qd 2h", Line.THREE_PAIR),
        ("Kc Kd Qh Qs Jc Jd Jk", Line.THREE_PAIR),  # the joker is the odd ace
        ("Ac Jk Kh Ks Qc Qd 2h", Line.THREE_PAIR),  # the joker pairs the ace
        ("Kc Kd Qh Qs 3c 7d 9h", Line.NOTHING),
        ("Kc Kd Qh 5s 3c 7d 9h", Line.NOTHING),
        ("2c 3d 4h 5s 7c 9d Jh", Line.NOTHING),
        ("Kc Kd Jk 5s 3c 7d 9h", Line.NOTHING),  # the joker does not pair kings
    ],
)
def test_each_line_on_a_hand_picked_hand(hand: str, line: Line) -> None:
    assert fortune_line(parse_cards(hand), EV) is line


def test_seven_card_straight_flushes_count_as_published() -> None:
    """All one-suit hands, with and without the joker, hold every seven-card straight flush."""
    lines: Counter[Line] = Counter()
    for suit in range(4):
        cards = [Card(rank * 4 + suit) for rank in range(13)]
        for seven in combinations(cards, 7):
            lines[fortune_line(seven, EV)] += 1
        for six in combinations(cards, 6):
            lines[fortune_line((*six, JOKER), EV)] += 1
    assert lines[Line.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH] == 32
    assert lines[Line.WILD_SEVEN_CARD_STRAIGHT_FLUSH] == 196


def test_royal_lines_count_as_published() -> None:
    """Every hand holding a royal (natural or with the joker) lands on a royal or better line."""
    hands: set[frozenset[Card]] = set()
    deck = full_deck()
    for suit in range(4):
        royal = [Card(rank * 4 + suit) for rank in range(8, 13)]
        fives = [royal, *([c for c in royal if c != gone] + [JOKER] for gone in royal)]
        for five in fives:
            rest = [c for c in deck if c not in five]
            hands.update(frozenset((*five, a, b)) for a, b in combinations(rest, 2))
    lines = Counter(fortune_line(sorted(hand), EV) for hand in hands)
    assert lines[Line.ROYAL_FLUSH] == LINE_COUNTS[Line.ROYAL_FLUSH]
    assert lines[Line.ROYAL_MATCH] == LINE_COUNTS[Line.ROYAL_MATCH]
    assert len(hands) == 26_132  # section 4.1: every royal, 40 of them in 7-card SFs
    assert sum(lines.values()) - lines[Line.ROYAL_FLUSH] - lines[Line.ROYAL_MATCH] == 40


def test_five_aces_count_as_published() -> None:
    aces = parse_cards("Ac Ad Ah As Jk")
    others = [c for c in full_deck() if c not in aces]
    lines = Counter(fortune_line((*aces, a, b), EV) for a, b in combinations(others, 2))
    assert lines == {Line.FIVE_ACES: LINE_COUNTS[Line.FIVE_ACES]}


# Section 5.1: each table's published house edge, three pair pushing on PT1 only.
@pytest.mark.parametrize(
    ("name", "edge"),
    [("PT1", "8.0008"), ("PT2", "7.7656"), ("PT3", "7.8279"), ("PT4", "8.4900"),
     ("PT5", "7.8279"), ("PT6", "9.2855"), ("PT7", "7.7656")],
)
def test_pay_tables_give_the_published_house_edge(name: str, edge: str) -> None:
    counts = dict(LINE_COUNTS)
    counts[Line.THREE_PAIR] = THREE_PAIR_NOTHING_ELSE
    counts[Line.NOTHING] -= THREE_PAIR_NOTHING_ELSE
    house_edge = -expected_return(PAY_TABLES[name], counts) * 100
    assert round(house_edge, 4) == Fraction(edge)


def test_pt2_edge_is_exact() -> None:
    assert expected_return(pay_table("PT2"), LINE_COUNTS) == Fraction(-11_970_096, TOTAL)


def test_renton_envy_is_worth_the_published_amount_per_other_hand() -> None:
    envy = ENVY_TABLES["renton"]
    per_hand = Fraction(sum(envy.get(line, 0) * n for line, n in LINE_COUNTS.items()), TOTAL)
    assert round(per_hand / 100, 6) == Fraction("0.046342")  # dollars per other hand


def test_envy_pays_per_qualifying_hand_from_five_dollars() -> None:
    others = [Line.FOUR_OF_A_KIND, Line.FULL_HOUSE, Line.STRAIGHT_FLUSH, Line.FOUR_OF_A_KIND]
    assert envy_bonus(ENVY_MINIMUM, others) == 500 + 2_000 + 500
    assert envy_bonus(ENVY_MINIMUM - 1, others) == 0


def test_settle_fortune_pays_odds_pushes_and_loses() -> None:
    win = settle_fortune(parse_cards("7c 7d 7h 7s Kc Kd 2h"), 500, PAY_TABLES["PT2"], EV)
    assert (win.line, win.odds, win.net) == (Line.FOUR_OF_A_KIND, 25, 12_500)
    three_pair = parse_cards("Ac Ad Kh Ks Qc Qd 2h")
    assert settle_fortune(three_pair, 500, PAY_TABLES["PT1"], EV).net == 0
    assert settle_fortune(three_pair, 500, PAY_TABLES["PT2"], EV).net == -500
    with pytest.raises(SettlementError, match="0"):
        settle_fortune(three_pair, 0, PAY_TABLES["PT2"], EV)
    with pytest.raises(ProfileError, match="'PT8'"):
        pay_table("PT8")


def test_a_round_pays_envy_for_other_players_only() -> None:
    quads = Setting.parse("Kc Kd / 7c 7d 7h 7s 2h")
    hands = [
        HandSet(1, Setting.parse("Qc Qd / 9c 9d 9h 9s 3h")),  # the dealer's quads: no envy
        HandSet(2, quads),
        HandSet(3, Setting.parse("Ac Jd / 8c 6d 5h 4s 2c")),
    ]
    result = settle(hands, [Bet(2, 1_000, 500), Bet(3, 1_000, 500)], EV)
    by_position = {seat.bet.position: seat for seat in result.seats}
    assert by_position[2].envy == 0  # its own quads earn no envy
    assert by_position[3].envy == 500  # seat 2's quads
    assert by_position[2].fortune is not None and by_position[2].fortune.net == 12_500


_CATEGORY_OF_LINE = {
    Line.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH: {STRAIGHT_FLUSH},
    Line.ROYAL_MATCH: {STRAIGHT_FLUSH},
    Line.WILD_SEVEN_CARD_STRAIGHT_FLUSH: {STRAIGHT_FLUSH},
    Line.FIVE_ACES: {FIVE_OF_A_KIND},
    Line.ROYAL_FLUSH: {STRAIGHT_FLUSH},
    Line.STRAIGHT_FLUSH: {STRAIGHT_FLUSH},
    Line.FOUR_OF_A_KIND: {QUADS},
    Line.FULL_HOUSE: {FULL_HOUSE},
    Line.FLUSH: {FLUSH},
    Line.THREE_OF_A_KIND: {TRIPS, STRAIGHT},  # a straight holding trips is paid as trips
    Line.STRAIGHT: {STRAIGHT},
}


@st.composite
def rich_hands(draw: st.DrawFn) -> list[Card]:
    """Seven cards, often crowded into one suit or a few ranks so the top lines come up."""
    deck = list(range(53))
    kind = draw(st.sampled_from(["any", "suited", "ranks"]))
    if kind == "suited":
        suit = draw(st.integers(0, 3))
        deck = [r * 4 + suit for r in range(13)] + [52] + draw(st.permutations(range(52)))[:4]
    elif kind == "ranks":
        low = draw(st.integers(0, 9))
        deck = [i for i in range(52) if low <= i // 4 < low + 4] + [52, 48, 49]
    picked = draw(st.lists(st.sampled_from(sorted(set(deck))), min_size=7, max_size=7,
                           unique=True))
    return [Card(i) for i in picked]


@given(rich_hands())
def test_the_line_agrees_with_the_best_seven_card_hand(cards: list[Card]) -> None:
    line = fortune_line(cards, EV)
    category = category_of(best_five_rank(cards, EV))
    if line in _CATEGORY_OF_LINE:
        assert category in _CATEGORY_OF_LINE[line]
    else:  # three pair and nothing: two pair at best
        assert category < TRIPS
    if category == STRAIGHT_FLUSH:
        assert line in {Line.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH, Line.ROYAL_MATCH,
                        Line.WILD_SEVEN_CARD_STRAIGHT_FLUSH, Line.ROYAL_FLUSH,
                        Line.STRAIGHT_FLUSH}
    natural_seven = len({c.suit for c in cards}) == 1 and JOKER not in cards
    assert (line is Line.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH) is (
        natural_seven and category == STRAIGHT_FLUSH
        and (max(c.rank for c in cards) - min(c.rank for c in cards) == 6
             or {c.rank for c in cards} == {12, 0, 1, 2, 3, 4, 5})
    )
