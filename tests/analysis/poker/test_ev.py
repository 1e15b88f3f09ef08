"""Exact EV of a hand's settings: dealer-hand counts per class and small hand-checked cases."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest

from controller.analysis.poker.classes import build_classes, hand_keys, poker_classes
from controller.analysis.poker.ev import dealer_counts, setting_values
from controller.analysis.poker.strategy import way_engine, way_table
from controller.analysis.tiles.strategy import AnalysisError
from controller.rules.comparison import Side
from controller.rules.poker.cards import RANKS, parse_cards
from controller.rules.poker.comparison import compare_hands
from controller.rules.poker.hands import Evaluator


def ranks_of(letters: str) -> list[int]:
    return [RANKS.index(r) for r in letters]


def brute_counts(classes, available):
    """Dealer hands per class, one hand at a time."""
    hands = np.array(list(combinations(sorted(available), 7)), dtype=np.int64)
    index = np.searchsorted(classes.keys, hand_keys(hands))
    return np.bincount(index, minlength=len(classes))


@pytest.mark.parametrize("player", ["As Kd Qh 9s 9c 4d Jk", "2c 2d 2h 7s 8s 9s Ts",
                                    "Ah Kh Qh Jh Th 3c 3d"])
def test_full_deck_dealer_counts_add_up(player):
    held = {int(c) for c in parse_cards(player)}
    counts = dealer_counts(poker_classes(), [c for c in range(53) if c not in held])
    assert int(counts.sum()) == comb(46, 7)
    assert (counts >= 0).all()


@pytest.mark.parametrize(("ranks", "removed"), [
    ("TJQKA", "As Ks Qs Js Jk"),  # the flush suit half gone, no joker left
    ("TJQKA", "Ah Ad Tc"),  # joker left, some aces gone
    ("9TJQK", "9s 9h 9d 9c Ks Kh Kd"),  # a rank gone
    ("A2345", "2s 3s"),
])
def test_reduced_deck_dealer_counts_match_every_hand(ranks, removed):
    classes = build_classes(ranks_of(ranks))
    deck = [RANKS.index(r) * 4 + s for r in ranks for s in range(4)] + [52]
    gone = {int(c) for c in parse_cards(removed)}
    available = [c for c in deck if c not in gone]
    assert (dealer_counts(classes, available) == brute_counts(classes, available)).all()


def test_one_dealer_hand_by_hand():
    """Seven cards left: the dealer's hand is 2c 3d 4h 5s 7c 8d 9h, set 9-high behind, 8-7 front
    (no pair, no straight: 7-8-9 and 2-3-4-5 do not join). Four aces, the joker and two kings
    keep at least three aces behind and king-high or better in front in all 21 splits, so every
    setting wins both hands: exactly +0.95 after the 5 % commission."""
    dealer = parse_cards("2c 3d 4h 5s 7c 8d 9h")
    player = parse_cards("As Ah Ad Ac Jk Ks Kh")
    classes = build_classes(ranks_of("23456789"), joker=False)
    table = way_table(classes, "foxwoods", workers=1)
    values = setting_values(player, classes, table, [int(c) for c in dealer])
    assert len(values) == 21  # no split of these cards can foul
    for v in values:
        assert v.counts.total == 1
        assert (v.counts.win, v.ev) == (1, Fraction(19, 20))


def test_small_deck_settings_against_every_dealer_hand():
    """Eight cards left (eight dealer hands): each setting's counts, compared hand by hand with
    the rules core's own comparison of the engine's dealer setting."""
    player = parse_cards("Ks Kh 9c 8d 4s 3h 2c")
    left = parse_cards("As Ad Qs Qd Jc Ts 5h 5d")
    classes = build_classes(ranks_of("2345689TJQKA"))
    engine = way_engine("foxwoods")
    table = way_table(classes, "foxwoods", workers=1)
    values = setting_values(player, classes, table, [int(c) for c in left])
    ev = Evaluator()
    dealer_sets = [engine.set_hand(h).setting.setting for h in combinations(left, 7)]
    assert len(dealer_sets) == 8
    for v in values:
        win = loss = 0
        for d in dealer_sets:
            lo = compare_hands(v.setting.setting.low, d.low, ev).winner is Side.PLAYER
            hi = compare_hands(v.setting.setting.high, d.high, ev).winner is Side.PLAYER
            win += lo and hi
            loss += not (lo or hi)
        assert (v.counts.win, v.counts.loss, v.counts.total) == (win, loss, 8)
        assert v.ev == Fraction(19 * win - 20 * loss, 20 * 8)
    assert [v.ev for v in values] == sorted((v.ev for v in values), reverse=True)


def test_dealer_cards_overlapping_the_player_is_an_error():
    classes = build_classes(ranks_of("TJQKA"))
    table = way_table(classes, "simple", workers=1)
    player = parse_cards("As Ks Qs Js Ts 9c 9d")
    with pytest.raises(AnalysisError, match="must not include"):
        setting_values(player, classes, table, [int(c) for c in player])
