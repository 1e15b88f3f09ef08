"""The exact expectation of each legal setting of one hand: ``paigow ev poker``.

The dealer's hand is any seven of the 46 cards the player does not hold (53,524,680 hands), set
by the dealer's house way.  The dealer's ranks depend only on the hand's class
(``poker_classes``), so it is enough to know how many of the remaining hands fall in each class:
per rank, how many of its cards are left and whether the flush suit's card is among them.
A class with a flush-capable suit counts, for each suit that could be it, the hands holding
exactly its ranks in that suit; a class without one counts all hands of its rank counts less
those.  Each setting is then compared with every class at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np
import numpy.typing as npt

from controller.rules.poker.cards import JOKER_INDEX, Card
from controller.rules.poker.hands import Evaluator
from controller.rules.poker.setting import RankedSetting, all_settings

from ..outcome import DEFAULT_COMMISSION, Outcome
from ..tiles.strategy import AnalysisError
from .classes import FLUSH_BITS, JOKER_DIGIT, PokerClasses
from .outcome import beats
from .strategy import WayTable

IntArray = npt.NDArray[np.int64]
_BINOMIAL = np.array([[comb(n, k) for k in range(5)] for n in range(5)], dtype=np.int64)


def dealer_counts(classes: PokerClasses, available: Sequence[int]) -> IntArray:
    """How many seven-card hands of the ``available`` cards fall in each class."""
    have = np.zeros((13, 4), dtype=bool)
    joker = False
    for card in available:
        if card == JOKER_INDEX:
            joker = True
        else:
            have[card >> 2, card & 3] = True
    counts = classes.counts[:, :13].astype(np.int64)  # (N, 13)
    flush = classes.flush.astype(np.int64)
    in_flush = (flush[:, None] >> np.arange(13)) & 1 == 1  # (N, 13)
    total = np.zeros(len(classes), dtype=np.int64)
    for suit in range(4):
        others = (have.sum(axis=1) - have[:, suit]).astype(np.int64)  # (13,) other suits left
        in_suit = have[:, suit]
        take = np.where(in_flush, counts - 1, counts)  # cards drawn from the other suits
        factor = np.where(in_flush & ~in_suit, 0, _BINOMIAL[others, take])  # C(n, k > n) = 0
        total += np.prod(factor, axis=1)
    plain = classes.flush == 0
    all_ways = np.prod(_BINOMIAL[have.sum(axis=1), counts], axis=1)
    # A class without a flush-capable suit: every hand of its rank counts less the flush ones.
    groups = np.unique(classes.keys >> FLUSH_BITS, return_inverse=True)[1]
    flushed = np.zeros(groups.max() + 1, dtype=np.int64)
    np.add.at(flushed, groups[~plain], total[~plain])
    total = np.where(plain, all_ways - flushed[groups], total)
    if not joker:
        total[classes.counts[:, JOKER_DIGIT] == 1] = 0
    return total


@dataclass(frozen=True, slots=True)
class SettingValue:
    """One legal setting and its exact result against every dealer hand."""

    setting: RankedSetting
    counts: Outcome
    commission: Fraction

    @property
    def ev(self) -> Fraction:
        """Expected win per unit bet, exactly."""
        return self.counts.expectation(self.commission)


def setting_values(
    hand: Sequence[Card],
    classes: PokerClasses,
    dealer: WayTable,
    available: Sequence[int],
    commission: Fraction = DEFAULT_COMMISSION,
) -> list[SettingValue]:
    """Every legal setting of ``hand`` against every dealer hand of ``available``, best first."""
    if set(map(int, hand)) & set(map(int, available)):
        raise AnalysisError("the dealer's cards must not include the player's")
    weights = dealer_counts(classes, available)
    if int(weights.sum()) != comb(len(available), 7):
        raise AnalysisError("dealer hands do not add up: the classes do not fit the deck")
    evaluator = Evaluator(dealer.rules)
    out = []
    for ranked in all_settings(hand, evaluator):
        if not ranked.legal:
            continue
        low = beats(np.int32(ranked.low_rank), dealer.low, False)
        high = beats(np.int32(ranked.high_rank), dealer.high, False)
        win = int(weights[low & high].sum())
        loss = int(weights[~(low | high)].sum())
        counts = Outcome(win, loss, int(weights.sum()) - win - loss)
        out.append(SettingValue(ranked, counts, commission))
    out.sort(key=lambda v: v.ev, reverse=True)
    return out
