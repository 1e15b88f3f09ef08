"""Comparison of hands is a total preorder: total, transitive, and ties exactly when ranks tie."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.poker.cards import Card, full_deck
from controller.rules.poker.comparison import Side, compare_hands
from controller.rules.poker.hand_rules import PokerRules, Wheel
from controller.rules.poker.hands import Evaluator

EVALUATORS = [Evaluator(), Evaluator(PokerRules(wheel=Wheel.LOWEST))]


def beats(a: tuple[Card, ...], b: tuple[Card, ...], ev: Evaluator) -> bool:
    """a beats b outright (as the player against the banker, with no copy)."""
    return compare_hands(a, b, ev).winner is Side.PLAYER


def ties(a: tuple[Card, ...], b: tuple[Card, ...], ev: Evaluator) -> bool:
    return compare_hands(a, b, ev).copy


@st.composite
def three_hands(draw: st.DrawFn) -> tuple[tuple[Card, ...], ...]:
    size = draw(st.sampled_from([2, 5]))
    # Hands of one comparison share no card; across pairs they may (they are compared pairwise).
    return tuple(
        tuple(draw(st.lists(st.sampled_from(full_deck()), min_size=size, max_size=size,
                            unique=True)))
        for _ in range(3)
    )


@settings(max_examples=500, deadline=None)
@given(three_hands(), st.sampled_from(EVALUATORS))
def test_total_preorder(hands: tuple[tuple[Card, ...], ...], ev: Evaluator) -> None:
    a, b, c = hands
    # Totality and antisymmetry: exactly one of a > b, b > a, a ~ b.
    outcomes = [beats(a, b, ev), beats(b, a, ev), ties(a, b, ev)]
    assert outcomes.count(True) == 1
    assert ties(a, b, ev) == ties(b, a, ev)
    # Transitivity of "at least as good".
    def geq(x: tuple[Card, ...], y: tuple[Card, ...]) -> bool:
        return beats(x, y, ev) or ties(x, y, ev)

    if geq(a, b) and geq(b, c):
        assert geq(a, c)


@given(st.lists(st.sampled_from(full_deck()), min_size=5, max_size=5, unique=True))
def test_a_hand_copies_itself_and_every_suit_relabelling(hand: list[Card]) -> None:
    ev = EVALUATORS[0]
    swap = {0: 3, 1: 2, 2: 1, 3: 0}  # c<->s, d<->h: a suit relabelling keeps every rank
    other = tuple(c if c.is_joker else Card((int(c) & ~3) | swap[int(c) & 3]) for c in hand)
    assert ties(tuple(hand), tuple(hand), ev)
    assert ties(tuple(hand), other, ev)
