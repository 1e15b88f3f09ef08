"""From seven dealt cards to their class, vectorised, for simulation at millions of hands a second.

Most hands (about 96 %) hold no suit that can make a flush; their class is fixed by the rank
multiset alone, found without sorting: one table gather per card yields a packed sum holding the
base-5 key of ranks 2-8, the base-5 key of ranks 9-A and the joker, how many cards sit in the
lower half and the count of each suit.  The multiset's index in the combinatorial number system
(seven ranks of fourteen, sorted, ``sum C(r_i + i, i + 1)``) is then two table gathers, and one
more gives the class.  Hands with a flush-capable suit take the full class key
(``poker_classes.hand_keys``) and a binary search.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import Final

import numpy as np
import numpy.typing as npt

from ..tiles.strategy import AnalysisError
from .classes import JOKER_DIGIT, PokerClasses, class_index, hand_keys

_HALF: Final = 7  # ranks 0..6 in the lower half, 7..12 and the joker (13) in the upper
_LO_BITS: Final = 20
_COUNT_SHIFT: Final = 40
_SUIT_SHIFT: Final = 44
_FLUSH_TEST: Final = 0x3333 << _SUIT_SHIFT  # a suit count of 5..7 (+3) sets its bit 3
_FLUSH_BITS: Final = 0x8888 << _SUIT_SHIFT


def _packed(card: int) -> int:
    rank = JOKER_DIGIT if card == 52 else card >> 2
    value = 5**rank if rank < _HALF else (5 ** (rank - _HALF)) << _LO_BITS
    if rank < _HALF:
        value |= 1 << _COUNT_SHIFT
    # The joker counts towards every suit: four naturals of a suit and the joker make a flush.
    suits = 0x1111 if card == 52 else 1 << (4 * (card & 3))
    return int(value | (suits << _SUIT_SHIFT))


_PACKED: Final = np.array([_packed(c) for c in range(53)], dtype=np.int64)


@dataclass(frozen=True, slots=True, eq=False)
class ClassLookup:
    """Tables that find the class of dealt hands."""

    classes: PokerClasses
    low_part: npt.NDArray[np.int32]  # base-5 key of ranks 0..6 -> their share of the index
    high_part: npt.NDArray[np.int32]  # (cards below, key of ranks 7..13) -> their share
    plain_class: npt.NDArray[np.int32]  # multiset index -> class without a flush-capable suit

    def index(self, hands: npt.NDArray[np.integer]) -> npt.NDArray[np.intp]:
        """The class of each row of seven card indices."""
        hands = np.asarray(hands)
        v = _PACKED[hands[:, 0]]
        for column in range(1, hands.shape[1]):
            v = v + _PACKED[hands[:, column]]
        low_key = v & ((1 << _LO_BITS) - 1)
        high_key = (v >> _LO_BITS) & ((1 << _LO_BITS) - 1)
        below = (v >> _COUNT_SHIFT) & 0xF
        multiset = self.low_part[low_key] + self.high_part[below, high_key]
        out: npt.NDArray[np.intp] = self.plain_class[multiset].astype(np.intp)
        flush = ((v + _FLUSH_TEST) & _FLUSH_BITS) != 0
        if flush.any():
            out[flush] = class_index(self.classes, hand_keys(hands[flush]))
        if (out < 0).any():
            raise AnalysisError("a hand holds cards outside the deck of its classes")
        return out


def build_lookup(classes: PokerClasses) -> ClassLookup:
    """The lookup tables for a set of classes (a fraction of a second)."""
    low_part = np.zeros(5**_HALF, dtype=np.int32)
    high_part = np.zeros((8, 5**_HALF), dtype=np.int32)
    plain_class = np.full(comb(20, 7), -1, dtype=np.int32)
    for i, counts in enumerate(classes.counts):
        if classes.flush[i]:
            continue
        ranks = [r for r in range(14) for _ in range(int(counts[r]))]
        lows = [r for r in ranks if r < _HALF]
        highs = [r for r in ranks if r >= _HALF]
        low_key = sum(5**r for r in lows)
        high_key = sum(5 ** (r - _HALF) for r in highs)
        low_share = sum(comb(r + k, k + 1) for k, r in enumerate(lows))
        high_share = sum(comb(r + k, k + 1) for k, r in enumerate(highs, start=len(lows)))
        low_part[low_key] = low_share
        high_part[len(lows), high_key] = high_share
        plain_class[low_share + high_share] = i
    return ClassLookup(classes, low_part, high_part, plain_class)
