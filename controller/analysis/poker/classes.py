"""Seven-card Pai Gow Poker hands grouped into classes the house way cannot tell apart.

A house way reads ranks, the joker and which five cards make a flush; suits matter only
through flushes.  Seven cards (six with the joker) hold at most one suit that can make a flush
(five naturals, or four with the joker), so a hand's class is its rank counts, whether it holds
the joker, and the ranks of its flush-capable suit (none for most hands).  Every hand of a class
has the same ranks of every split and the same flushes up to a renaming of suits, so the house
way gives every one of them a setting of the same two ranks.  Each class carries how many hands
of the deck it stands for; over the full deck the 154,143,080 hands fall into 292,253 classes.

A class key is one int64: the rank counts in base 5 (the joker as a fourteenth rank), shifted
left 13 bits, or'ed with the rank bit set of the flush-capable suit.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from math import comb
from typing import Final

import numpy as np
import numpy.typing as npt

from controller.rules.poker.cards import JOKER_INDEX, Card

from ..tiles.strategy import AnalysisError

ALL_RANKS: Final = tuple(range(13))
JOKER_DIGIT: Final = 13  # the joker's place in the base-5 rank key
FLUSH_BITS: Final = 13
_POW5: Final = tuple(5**r for r in range(14))
_FLUSH_SUIT: Final = 3  # the representative hand's flush suit (spades)

IntArray = npt.NDArray[np.int64]


def _count_vectors(ranks: Sequence[int], total: int) -> Iterator[tuple[int, ...]]:
    """Every way to hold ``total`` natural cards of ``ranks``, at most four of each rank, as
    (rank, count) counts over the 13 ranks."""
    def walk(i: int, left: int, acc: list[int]) -> Iterator[tuple[int, ...]]:
        if i == len(ranks):
            if left == 0:
                yield tuple(acc)
            return
        for n in range(min(4, left) + 1):
            acc[ranks[i]] = n
            yield from walk(i + 1, left - n, acc)
        acc[ranks[i]] = 0

    yield from walk(0, total, [0] * 13)


def _subsets(items: Sequence[int], least: int) -> Iterator[tuple[int, ...]]:
    n = len(items)
    for mask in range(1 << n):
        if mask.bit_count() >= least:
            yield tuple(items[i] for i in range(n) if mask >> i & 1)


def _flush_multiplicity(counts: Sequence[int], flush: Sequence[int]) -> int:
    """Hands of these rank counts whose one flush-capable suit holds exactly ``flush``."""
    ways = 4  # which suit it is
    for rank, n in enumerate(counts):
        ways *= comb(3, n - 1) if rank in flush else comb(3, n)
    return ways


@dataclass(frozen=True, slots=True, eq=False)
class PokerClasses:
    """All classes of seven-card hands of a deck, sorted by key."""

    ranks: tuple[int, ...]  # the deck's ranks (all 13 for the real deck)
    joker: bool  # whether the deck holds the joker
    keys: IntArray  # (N,) sorted class keys
    counts: npt.NDArray[np.int8]  # (N, 14) cards per rank, the joker last
    flush: npt.NDArray[np.int16]  # (N,) rank bits of the flush-capable suit, 0 for none
    multiplicity: IntArray  # (N,) hands of the deck in the class

    def __len__(self) -> int:
        return len(self.keys)

    @property
    def hands(self) -> int:
        """How many seven-card hands the deck has (the multiplicities' sum)."""
        return int(self.multiplicity.sum())

    def representative(self, index: int) -> tuple[Card, ...]:
        """One hand of the class: the flush-capable suit is spades, the other cards are spread
        over clubs, diamonds and hearts so that no other suit can make a flush."""
        counts = self.counts[index]
        flush = int(self.flush[index])
        load = [0, 0, 0, 0]
        cards: list[Card] = []
        for rank in range(12, -1, -1):
            n = int(counts[rank])
            if n == 0:
                continue
            suits: list[int] = []
            if flush >> rank & 1:
                suits.append(_FLUSH_SUIT)
            pool = [0, 1, 2] if flush else [0, 1, 2, 3]
            pool.sort(key=lambda s: (load[s], s))
            suits += pool[: n - len(suits)]
            for suit in suits:
                load[suit] += 1
                cards.append(Card(rank * 4 + suit))
        if counts[JOKER_DIGIT]:
            cards.append(Card(JOKER_INDEX))
        return tuple(cards)


def _rank_key(counts: Sequence[int]) -> int:
    return sum(n * p for n, p in zip(counts, _POW5, strict=False))


def build_classes(ranks: Sequence[int] = ALL_RANKS, joker: bool = True) -> PokerClasses:
    """Enumerate the classes of seven cards from four suits of ``ranks`` (and the joker)."""
    ranks = tuple(sorted(set(ranks)))
    if not ranks or any(not 0 <= r < 13 for r in ranks):
        raise AnalysisError(f"ranks must be 0..12, got {ranks!r}")
    rows: list[tuple[int, tuple[int, ...], int, int]] = []  # key, counts, flush bits, weight
    for with_joker in ((False, True) if joker else (False,)):
        naturals = 6 if with_joker else 7
        threshold = 4 if with_joker else 5
        for counts in _count_vectors(ranks, naturals):
            full = (*counts, int(with_joker))
            base = _rank_key(full) << FLUSH_BITS
            plain = 1
            for n in counts:
                plain *= comb(4, n)
            present = [r for r in ranks if counts[r]]
            for flush in _subsets(present, threshold):
                weight = _flush_multiplicity(counts, flush)
                if weight:
                    bits = sum(1 << r for r in flush)
                    rows.append((base | bits, full, bits, weight))
                    plain -= weight
            if plain:
                rows.append((base, full, 0, plain))
    rows.sort(key=lambda row: row[0])
    if not rows:
        raise AnalysisError(f"a deck of ranks {ranks!r} has no seven-card hand")
    return PokerClasses(
        ranks=ranks,
        joker=joker,
        keys=np.array([r[0] for r in rows], dtype=np.int64),
        counts=np.array([r[1] for r in rows], dtype=np.int8),
        flush=np.array([r[2] for r in rows], dtype=np.int16),
        multiplicity=np.array([r[3] for r in rows], dtype=np.int64),
    )


@cache
def poker_classes() -> PokerClasses:
    """The classes of the full 53-card deck (built once per process: seconds of work)."""
    return build_classes()


# Per card: its base-5 rank digit, and its bit in a 52-bit suit-by-rank mask.
_CARD_POW5: Final = np.array([5 ** (c >> 2) for c in range(52)] + [5**JOKER_DIGIT], np.int64)
_CARD_BIT: Final = np.array([1 << (13 * (c & 3) + (c >> 2)) for c in range(52)] + [0], np.int64)


def hand_keys(hands: npt.NDArray[np.integer]) -> IntArray:
    """The class key of each row of seven card indices (0..52)."""
    hands = np.asarray(hands)
    rank_key = _CARD_POW5[hands].sum(axis=1)
    suit_bits = np.bitwise_or.reduce(_CARD_BIT[hands], axis=1)
    joker = rank_key >= _POW5[JOKER_DIGIT]
    threshold = np.where(joker, 4, 5)
    flush = np.zeros(len(hands), dtype=np.int64)
    for suit in range(4):
        bits = (suit_bits >> (13 * suit)) & 0x1FFF
        flush = np.where(np.bitwise_count(bits) >= threshold, bits, flush)
    keys: IntArray = (rank_key << FLUSH_BITS) | flush
    return keys


def class_index(classes: PokerClasses, keys: IntArray) -> npt.NDArray[np.intp]:
    """The class of each key; a key of no class (a hand outside the deck) is an error."""
    index = np.searchsorted(classes.keys, keys)
    index = np.minimum(index, len(classes) - 1)
    bad = classes.keys[index] != keys
    if bad.any():
        raise AnalysisError(f"hand key {int(keys[bad][0])!r} is in no class of this deck")
    return index


def key_of(cards: Sequence[int]) -> int:
    """The class key of one hand of seven cards."""
    return int(hand_keys(np.array([list(map(int, cards))]))[0])
