"""Exact ranking of five-card and two-card Pai Gow Poker hands, joker included.

A hand's rank is one int; a higher int is a better hand and equal ints are a copy.  Layout:
``category << 20`` then five 4-bit tie-break fields, high first (ranks as 2..14, so a present
kicker is never 0).  Two-card hands use the same layout (category 0 or 1), which lets the foul
check compare the fields a two-card hand has against the same fields of the five-card hand.

Five-card ranks come from two lookup tables built once per ruleset, in the spirit of the
prime-product evaluators: one keyed by the product of per-rank primes (no flush), one keyed by the
rank bit set (flush).  The joker has its own prime and rank bit and all four suit bits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations_with_replacement
from typing import Final

from ..errors import CardCountError
from .cards import JOKER_INDEX, RANK_NAMES, RANK_PLURALS, Card
from .hand_rules import DEFAULT_RULES, JokerMode, PokerRules, Wheel

HIGH_CARD: Final = 0
PAIR: Final = 1
TWO_PAIR: Final = 2
TRIPS: Final = 3
STRAIGHT: Final = 4
FLUSH: Final = 5
FULL_HOUSE: Final = 6
QUADS: Final = 7
STRAIGHT_FLUSH: Final = 8
FIVE_OF_A_KIND: Final = 9  # five aces under the bug rule

CATEGORY_NAMES: Final = (
    "high card", "pair", "two pair", "three of a kind", "straight", "flush",
    "full house", "four of a kind", "straight flush", "five of a kind",
)
CATEGORY_KEYS: Final = (
    "high-card", "pair", "two-pair", "trips", "straight", "flush",
    "full-house", "quads", "straight-flush", "five-aces",
)

_PRIMES: Final = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_JOKER_PRIME: Final = 43
_JOKER_BIT: Final = 13
_ACE: Final = 12


def _code(index: int) -> int:
    if index == JOKER_INDEX:
        return _JOKER_PRIME | (0xF << 12) | (1 << (16 + _JOKER_BIT))
    rank, suit = index >> 2, index & 3
    return _PRIMES[rank] | (1 << (12 + suit)) | (1 << (16 + rank))


CODES: Final = tuple(_code(i) for i in range(53))


def _pack(category: int, fields: Sequence[int]) -> int:
    value = category
    for i in range(5):
        value = (value << 4) | (fields[i] if i < len(fields) else 0)
    return value


def _straight_tops(wheel: Wheel) -> dict[frozenset[int], int]:
    """Rank sets of the ten straights -> a tie-break value (higher is better)."""
    tops: dict[frozenset[int], int] = {}
    for top in range(4, 13):  # 6-high (top rank index 4) .. ace-high (12)
        tops[frozenset(range(top - 4, top + 1))] = top + 2
    # Ace-high is 15 so that the wheel fits between it and king-high (13) as 14 when it ranks
    # second-highest, or below six-high (6) as 1 when it ranks lowest.
    tops[frozenset(range(8, 13))] = 15
    tops[frozenset({12, 0, 1, 2, 3})] = 14 if wheel is Wheel.SECOND else 1
    return tops


def _plain_rank(ranks: Sequence[int], flush: bool, straights: dict[frozenset[int], int]) -> int:
    """Rank of five natural ranks (0..12, repeats allowed up to five)."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(c for _, c in groups)
    ordered = [r + 2 for r, _ in groups]
    if shape == (5,):
        return _pack(FIVE_OF_A_KIND, ordered)
    if len(counts) == 5:
        top = straights.get(frozenset(ranks))
        if top is not None:
            return _pack(STRAIGHT_FLUSH if flush else STRAIGHT, [top])
        return _pack(FLUSH if flush else HIGH_CARD, ordered)
    category = {
        (4, 1): QUADS, (3, 2): FULL_HOUSE, (3, 1, 1): TRIPS,
        (2, 2, 1): TWO_PAIR, (2, 1, 1, 1): PAIR,
    }[shape]
    return _pack(category, ordered)


def _rank_with_joker(
    naturals: Sequence[int], flush: bool, rules: PokerRules, straights: dict[frozenset[int], int]
) -> int:
    """Best rank of four natural ranks plus the joker under the ruleset."""
    present = set(naturals)
    best = 0
    for sub in range(13):
        candidate = [*naturals, sub]
        distinct = len(present | {sub}) == 5
        if flush:
            if sub in present:
                continue  # a flush cannot hold the same rank twice
            best = max(best, _plain_rank(candidate, True, straights))
            continue
        if rules.joker is JokerMode.WILD or sub == _ACE or (
            distinct and frozenset(candidate) in straights
        ):
            best = max(best, _plain_rank(candidate, False, straights))
    return best


@cache
def _tables(rules: PokerRules) -> tuple[dict[int, int], tuple[int, ...]]:
    straights = _straight_tops(rules.wheel)
    by_prime: dict[int, int] = {}
    for size, joker in ((5, False), (4, True)):
        for ranks in combinations_with_replacement(range(13), size):
            if any(ranks.count(r) > 4 for r in ranks):
                continue
            product = _JOKER_PRIME if joker else 1
            for r in ranks:
                product *= _PRIMES[r]
            if joker:
                by_prime[product] = _rank_with_joker(ranks, False, rules, straights)
            else:
                by_prime[product] = _plain_rank(ranks, False, straights)
    by_bits = [0] * (1 << 14)
    for bits in range(1 << 14):
        suited = [r for r in range(13) if bits >> r & 1]
        joker = bool(bits >> _JOKER_BIT & 1)
        if len(suited) + joker != 5:
            continue
        by_bits[bits] = (
            _rank_with_joker(suited, True, rules, straights)
            if joker
            else _plain_rank(suited, True, straights)
        )
    return by_prime, tuple(by_bits)


_SUIT_BITS: Final = tuple(15 if i == JOKER_INDEX else 1 << (i & 3) for i in range(53))
_PRIME_OF: Final = tuple(code & 0xFF for code in CODES)
Rank5 = Callable[[Sequence[int]], int]


def _make_rank5(by_prime: dict[int, int], by_bits: tuple[int, ...]) -> Rank5:
    """The hot five-card ranker, with its tables bound as locals (no attribute look-ups)."""

    def rank5(
        cards: Sequence[int], suits: tuple[int, ...] = _SUIT_BITS,
        primes: tuple[int, ...] = _PRIME_OF, codes: tuple[int, ...] = CODES,
    ) -> int:
        """Rank of exactly five distinct cards (Card or plain indices)."""
        a, b, c, d, e = cards
        if suits[a] & suits[b] & suits[c] & suits[d] & suits[e]:
            return by_bits[(codes[a] | codes[b] | codes[c] | codes[d] | codes[e]) >> 16]
        return by_prime[primes[a] * primes[b] * primes[c] * primes[d] * primes[e]]

    return rank5


class Evaluator:
    """Ranks hands under one ruleset. Build once, then call ``rank5`` / ``rank2`` in loops."""

    __slots__ = ("rank5", "rules")

    def __init__(self, rules: PokerRules = DEFAULT_RULES) -> None:
        self.rules = rules
        by_prime, by_bits = _tables(rules)
        self.rank5: Rank5 = _make_rank5(by_prime, by_bits)

    @staticmethod
    def rank2(cards: Sequence[int]) -> int:
        """Rank of a two-card hand: pairs above non-pairs; the joker is an ace."""
        x = 12 if cards[0] == JOKER_INDEX else cards[0] >> 2
        y = 12 if cards[1] == JOKER_INDEX else cards[1] >> 2
        if x == y:
            return (PAIR << 20) | ((x + 2) << 16)
        if x < y:
            x, y = y, x
        return ((x + 2) << 16) | ((y + 2) << 12)

    def high_beats_low(self, high: int, low: int) -> bool:
        """True when a five-card rank legally stands behind a two-card rank (no foul)."""
        shift = 16 if low >> 20 == PAIR else 12
        if self.rules.high_may_equal_low:
            return high >> shift >= low >> shift
        return high >> shift > low >> shift


def category_of(rank: int) -> int:
    """The hand category (HIGH_CARD .. FIVE_OF_A_KIND) of a rank int."""
    return rank >> 20


def _field(rank: int, i: int) -> int:
    return (rank >> (16 - 4 * i)) & 0xF


def _name(value: int) -> str:
    return RANK_NAMES[value - 2]


def _plural(value: int) -> str:
    return RANK_PLURALS[value - 2]


def describe5(rank: int) -> str:
    """The five-card hand in words, e.g. ``two pair, kings and nines, ace kicker``."""
    cat = category_of(rank)
    f = [_field(rank, i) for i in range(5)]
    if cat == FIVE_OF_A_KIND:
        return "five aces" if f[0] == 14 else f"five {_plural(f[0])}"
    if cat in (STRAIGHT, STRAIGHT_FLUSH):
        word = "straight flush" if cat == STRAIGHT_FLUSH else "straight"
        if f[0] == 15:
            return "royal flush" if cat == STRAIGHT_FLUSH else "straight, ace high"
        if f[0] in (14, 1):
            return f"{word}, five high (wheel)"
        return f"{word}, {_name(f[0])} high"
    if cat == QUADS:
        return f"four {_plural(f[0])}, {_name(f[1])} kicker"
    if cat == FULL_HOUSE:
        return f"full house, {_plural(f[0])} full of {_plural(f[1])}"
    if cat == FLUSH:
        return f"flush, {_name(f[0])} high"
    if cat == TRIPS:
        return f"three {_plural(f[0])}"
    if cat == TWO_PAIR:
        return f"two pair, {_plural(f[0])} and {_plural(f[1])}, {_name(f[2])} kicker"
    if cat == PAIR:
        return f"pair of {_plural(f[0])}"
    return f"{_name(f[0])} high"


def describe2(rank: int) -> str:
    """The two-card hand in words, e.g. ``pair of aces`` or ``king-queen``."""
    f0, f1 = _field(rank, 0), _field(rank, 1)
    if category_of(rank) == PAIR:
        return f"pair of {_plural(f0)}"
    return f"{_name(f0)}-{_name(f1)}"


def rank_hand(cards: Sequence[Card], evaluator: Evaluator | None = None) -> int:
    """Rank of a two- or five-card hand."""
    ev = evaluator or Evaluator()
    if len(cards) == 5:
        return ev.rank5(cards)
    if len(cards) == 2:
        return ev.rank2(cards)
    raise CardCountError(f"a hand has two or five cards, got {len(cards)}")


def describe(cards: Sequence[Card], evaluator: Evaluator | None = None) -> str:
    """A two- or five-card hand in words."""
    rank = rank_hand(cards, evaluator)
    return describe5(rank) if len(cards) == 5 else describe2(rank)
