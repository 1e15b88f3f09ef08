"""Simulation: the deal is uniform and distinct, and each simulated round is the rules core's."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from controller.analysis.outcome import Outcome
from controller.analysis.poker.classes import poker_classes
from controller.analysis.poker.lookup import build_lookup
from controller.analysis.poker.simulation import deal, simulate
from controller.analysis.poker.strategy import WayTable, way_engine
from controller.analysis.tiles.strategy import AnalysisError
from controller.rules.comparison import Side
from controller.rules.poker.cards import Card
from controller.rules.poker.comparison import compare_hands
from controller.rules.poker.hand_rules import DEFAULT_RULES
from controller.rules.poker.hands import Evaluator

ROUNDS = 400


@pytest.fixture(scope="module")
def lookup():
    return build_lookup(poker_classes())


def test_deal_gives_fourteen_distinct_cards_uniformly():
    cards = deal(np.random.Generator(np.random.PCG64(7)), 53_000).astype(np.int64)
    assert cards.shape == (53_000, 14)
    ordered = np.sort(cards, axis=1)
    assert (np.diff(ordered, axis=1) > 0).all() and cards.min() >= 0 and cards.max() <= 52
    # Each card is dealt in 14 of 53 positions: 14,000 times each here; chi-square, 52 d.f.
    seen = np.bincount(cards.ravel(), minlength=53)
    expected = 14_000
    chi2 = float(((seen - expected) ** 2 / expected).sum())
    assert chi2 < 100  # p < 1e-4 of failing by chance


def partial_table(lookup, way: str, hands: np.ndarray) -> WayTable:
    """A way table filled only for the classes of these hands (the rest: never looked at)."""
    engine = way_engine(way)
    n = len(lookup.classes)
    low = np.full(n, -1, dtype=np.int32)
    high = np.full(n, -1, dtype=np.int32)
    for cls in np.unique(lookup.index(hands)):
        ranked = engine.set_hand(lookup.classes.representative(int(cls))).setting
        low[cls], high[cls] = ranked.low_rank, ranked.high_rank
    return WayTable(way, DEFAULT_RULES, low, high)


@pytest.mark.parametrize(("way", "vs", "banking"), [("foxwoods", "foxwoods", False),
                                                   ("trump-plaza", "simple", True)])
def test_each_round_is_the_rules_cores_round(lookup, way, vs, banking):
    """Replay the simulation's deals: set both hands with the engine, compare with the rules
    core, and count as the table does (copies to the bank)."""
    cards = deal(np.random.Generator(np.random.PCG64(11)), ROUNDS)
    dealer = partial_table(lookup, way, cards[:, 7:])
    player = partial_table(lookup, vs, cards[:, :7])
    sim = simulate(lookup, dealer, player, ROUNDS, seed=11, banking=banking)
    ev = Evaluator()
    win = loss = 0
    for row in cards:
        mine = way_engine(vs).set_hand([Card(int(c)) for c in row[:7]]).setting.setting
        theirs = way_engine(way).set_hand([Card(int(c)) for c in row[7:]]).setting.setting
        if banking:  # the player banks: the dealer's hands are the ones compared as a player's
            lo = compare_hands(theirs.low, mine.low, ev).winner is Side.BANKER
            hi = compare_hands(theirs.high, mine.high, ev).winner is Side.BANKER
        else:
            lo = compare_hands(mine.low, theirs.low, ev).winner is Side.PLAYER
            hi = compare_hands(mine.high, theirs.high, ev).winner is Side.PLAYER
        win += lo and hi
        loss += not (lo or hi)
    assert (sim.counts.win, sim.counts.loss, sim.counts.total) == (win, loss, ROUNDS)
    assert sim.seeded and sim.seed == 11


def test_seed_repeats_a_run_and_secrets_seed_is_reported(lookup):
    cards = deal(np.random.Generator(np.random.PCG64(5)), 50)
    table = partial_table(lookup, "simple", cards.reshape(100, 7))
    first = simulate(lookup, table, table, 50, seed=5)
    again = simulate(lookup, table, table, 50, seed=5)
    assert first == again
    with pytest.raises(AnalysisError, match="-1"):
        simulate(lookup, table, table, 50, seed=-1)
    with pytest.raises(AnalysisError, match="0"):
        simulate(lookup, table, table, 0, seed=5)


def test_counts_edge_and_interval():
    counts = Outcome(win=2, loss=1, push=1)
    assert counts.house_edge() == Fraction(1, 4) - Fraction(19, 20) * Fraction(2, 4)
    low, high = counts.edge_interval()
    assert low < float(counts.house_edge()) < high
    # Mean +0.225 over the 4 rounds (0.95, 0.95, -1, 0), taken from the second moment
    assert counts.standard_error() == pytest.approx(((2 * 0.9025 + 1) / 4 - 0.225**2) ** 0.5 / 2)
