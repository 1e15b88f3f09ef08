"""Hand classes: they partition the deck's hands, and the fast lookup finds the right class."""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.analysis.poker.classes import (
    JOKER_DIGIT,
    build_classes,
    class_index,
    hand_keys,
    key_of,
    poker_classes,
)
from controller.analysis.poker.lookup import build_lookup
from controller.analysis.tiles.strategy import AnalysisError
from controller.rules.poker.cards import RANKS, parse_cards


def deck_of(ranks: str, joker: bool = True) -> list[int]:
    """Card indices of four suits of the given rank letters (and the joker)."""
    cards = [RANKS.index(r) * 4 + s for r in ranks for s in range(4)]
    return cards + ([52] if joker else [])


@pytest.fixture(scope="module")
def full():
    return poker_classes()


@pytest.fixture(scope="module")
def lookup(full):
    return build_lookup(full)


def test_full_deck_classes_count_every_hand_once(full):
    assert full.hands == comb(53, 7)
    with_joker = full.counts[:, JOKER_DIGIT] == 1
    assert int(full.multiplicity[with_joker].sum()) == comb(52, 6)
    assert (full.multiplicity > 0).all()
    assert (np.diff(full.keys) > 0).all()  # sorted, no key twice


def test_each_class_representative_has_the_class_key(full):
    reps = np.array([[int(c) for c in full.representative(i)] for i in range(len(full))])
    assert (np.sort(reps, axis=1)[:, :-1] < np.sort(reps, axis=1)[:, 1:]).all()  # distinct
    assert (hand_keys(reps) == full.keys).all()


@pytest.mark.parametrize(("ranks", "joker"), [("TJQKA", True), ("A2345", True), ("789TJ", False),
                                              ("234567", False)])
def test_reduced_deck_classes_match_every_hand(ranks, joker):
    """Every hand of a small deck, classified one by one, gives the classes' multiplicities."""
    deck = deck_of(ranks, joker)
    classes = build_classes([RANKS.index(r) for r in ranks], joker=joker)
    hands = np.array(list(combinations(deck, 7)), dtype=np.int64)
    keys, counts = np.unique(hand_keys(hands), return_counts=True)
    assert classes.hands == comb(len(deck), 7) == len(hands)
    assert (keys == classes.keys).all()
    assert (counts == classes.multiplicity).all()


def test_flush_key_marks_the_suit_that_can_make_a_flush():
    no_flush = key_of(parse_cards("As Ks Qs Js 9h 8d 7c"))
    flush = key_of(parse_cards("As Ks Qs Js 9s 8d 7c"))
    joker_flush = key_of(parse_cards("As Ks Qs Js Jk 8d 7c"))
    assert no_flush & 0x1FFF == 0
    assert flush & 0x1FFF == sum(1 << RANKS.index(r) for r in "AKQJ9")
    assert joker_flush & 0x1FFF == sum(1 << RANKS.index(r) for r in "AKQJ")
    assert no_flush >> 13 == flush >> 13  # same ranks


def test_hand_outside_the_deck_of_the_classes_is_an_error():
    small = build_classes([RANKS.index(r) for r in "TJQKA"])
    hand = np.array([[int(c) for c in parse_cards("2c 3d Ts Js Qs Ks Ac")]])
    with pytest.raises(AnalysisError, match="no class"):
        class_index(small, hand_keys(hand))
    with pytest.raises(AnalysisError, match=r"ranks must be 0\.\.12"):
        build_classes([13])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.permutations(range(53)), min_size=1, max_size=40))
def test_lookup_finds_the_class_of_the_key(full, lookup, decks):
    hands = np.array([deck[:7] for deck in decks], dtype=np.int8)
    index = lookup.index(hands)
    assert (full.keys[index] == hand_keys(hands)).all()
    assert (index == class_index(full, hand_keys(hands))).all()
