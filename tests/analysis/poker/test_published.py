"""Published Pai Gow Poker figures that our code must reproduce, or whose distance
docs/poker_odds.md explains ("Every published figure"; docs/sources.md [P1], [P10]).

- The seven-card facts (ref 4.1, 4.3, 4.4) are exact: every hand counted through its class.
- The published edges follow from their own win / push / loss triples with a plain commission
  of 5 % of wins (none in the commission-free games), so a distance between their edge and ours
  lies in the outcome frequencies, never in how commission is charged.
- The No-Push tie-break probability is the chance two cards of the deck pair (joker as ace).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations

import pytest

from controller.analysis.outcome import Outcome
from controller.analysis.poker.classes import poker_classes
from controller.rules.poker.cards import full_deck
from controller.rules.poker.hand_shape import Pattern, shape_of
from controller.rules.poker.hands import CATEGORY_KEYS, STRAIGHT_FLUSH, Evaluator, category_of
from controller.rules.poker.seven_cards import best_five_rank

# Ref 4.1 (Alspach and the Wizard; royal 26,132 as the Wizard's Pai Gow Mania table, not
# Alspach's 26,124) and ref 4.4 (no-pair hands by top card), ref 4.3 (three pair).
BEST_HAND = {
    "five-aces": 1_128, "royal": 26_132, "straight-flush": 184_832, "quads": 307_472,
    "full-house": 4_188_528, "flush": 6_172_088, "straight": 11_236_028, "trips": 7_470_676,
    "two-pair": 35_553_816, "pair": 64_221_960, "high-card": 24_780_420,
}
NO_PAIR_BY_TOP = {9: 31_080, 10: 248_640, 11: 963_480, 12: 2_719_500, 13: 6_386_940,
                  14: 14_430_780}
THREE_PAIR = 2_898_720


def test_seven_card_counts_match_the_published_tables() -> None:
    classes = poker_classes()
    ev = Evaluator()
    best: Counter[str] = Counter()
    tops: Counter[int] = Counter()
    three_pair = 0
    for i in range(len(classes)):
        hand = classes.representative(i)
        weight = int(classes.multiplicity[i])
        rank = best_five_rank(hand, ev)
        cat, top = category_of(rank), (rank >> 16) & 0xF
        best["royal" if cat == STRAIGHT_FLUSH and top == 14 else CATEGORY_KEYS[cat]] += weight
        if cat == 0:
            tops[top] += weight
        if shape_of(hand).pattern is Pattern.THREE_PAIR:
            three_pair += weight
    assert dict(best) == BEST_HAND
    assert dict(tops) == NO_PAIR_BY_TOP
    assert three_pair == THREE_PAIR
    # Queen's Dragon (ref 5.3): 50 to 1 on the dealer's queen-high pai gow, "10.022 %".
    assert round((1 - 51 * Fraction(tops[12], sum(BEST_HAND.values()))) * 100, 3) == \
        Fraction("10.022")


def _edge(win: str, push: str, loss: str, commission: str) -> Fraction:
    """The house edge a published triple implies (fractions given as decimal text)."""
    scale = 10 ** max(len(x.split(".")[1]) for x in (win, push, loss))
    counts = Outcome(*(int(Fraction(x) * scale) for x in (win, loss, push)))
    assert counts.total in (scale - 1, scale, scale + 1)  # the triple sums to one, rounded
    return Fraction(counts.house_edge(Fraction(commission)) * counts.total, scale)


@pytest.mark.parametrize(
    ("triple", "commission", "published", "tolerance"),
    [
        # Ask the Wizard, Trump Plaza against itself (ref 0 fact 5, 3.1): 2.73 %.
        (("0.2861", "0.4148", "0.2991"), "0.05", "0.0273", "0.00005"),
        # No-Push appendix's Trump Plaza simulation (ref 3.1): "regular" edge 2.85 %.  Its
        # triple, rounded to 0.01 points, gives 2.8575 %: within the rounding of its inputs.
        (("0.2855", "0.4147", "0.2998"), "0.05", "0.0285", "0.0001"),
        # Commission free, Golden Nugget (ref 3.3): -0.025096, no commission.
        (("0.273726", "0.427453", "0.298822"), "0", "0.025096", "0.0000005"),
        # EZ Pai Gow, Nevada (ref 3.3): -0.024694, no commission.
        (("0.274597", "0.426112", "0.299291"), "0", "0.024694", "0.0000005"),
    ],
)
def test_published_edges_follow_from_their_triples_with_plain_commission(
    triple: tuple[str, str, str], commission: str, published: str, tolerance: str
) -> None:
    win, push, loss = triple
    assert abs(_edge(win, push, loss, commission) - Fraction(published)) <= Fraction(tolerance)


def test_no_push_card_tie_probability() -> None:
    """Ref 3.3: (48/53)(3/52) + (5/53)(4/52) = 0.05950, two cards of the deck, joker as ace."""
    ties = sum(1 for a, b in permutations(full_deck(), 2) if a.rank == b.rank)  # joker: ace
    probability = Fraction(ties, 53 * 52)
    assert probability == Fraction(48, 53) * Fraction(3, 52) + Fraction(5, 53) * Fraction(4, 52)
    # 164 / 2,756 = 0.0595065: the page prints it cut to five places.
    assert Fraction("0.05950") <= probability < Fraction("0.05951")
