"""The Fortune side bet on the best hand in all seven cards, and its Envy Bonus.

Lines are in pay order, not poker order: the seven-card straight flushes and the royal match pay
above five aces, and three of a kind pays above a straight, so a hand holding both is paid as
trips (docs/sources.md: [P1], [P10]).  The first
line that applies is the hand's line; the joker may complete the royal of a royal match but not
its suited K-Q (Marina Bay Sands rules, section 5.1).  Three pair is a line of its own (two pairs
and a third, the joker counting as an ace) because PT1 pushes it; every other table loses it.

The counts in section 4.3 are for the bug joker; with a fully wild joker the same lines apply and
five of a kind of any rank is paid on the five-aces line.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType
from typing import Final

from ..errors import ProfileError, SettlementError
from .cards import Card
from .hands import (
    FIVE_OF_A_KIND,
    FLUSH,
    FULL_HOUSE,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    Evaluator,
    category_of,
)
from .setting import SPLITS, seven
from .seven_cards import five_card_ranks

_KING, _QUEEN, _ACE = 11, 10, 12  # Card.rank values
_ROYAL_TOP: Final = 15  # an ace-high straight's tie-break field (see poker_eval)
_WINDOWS: Final = (
    frozenset({12, 0, 1, 2, 3, 4, 5}),  # A-2-3-4-5-6-7
    *(frozenset(range(low, low + 7)) for low in range(7)),  # 2-8 .. 8-A
)


class Line(StrEnum):
    """A Fortune pay line, in pay order (the first that applies is paid)."""

    NATURAL_SEVEN_CARD_STRAIGHT_FLUSH = "natural_7_card_straight_flush"
    ROYAL_MATCH = "royal_match"
    WILD_SEVEN_CARD_STRAIGHT_FLUSH = "wild_7_card_straight_flush"
    FIVE_ACES = "five_aces"
    ROYAL_FLUSH = "royal_flush"
    STRAIGHT_FLUSH = "straight_flush"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    THREE_OF_A_KIND = "three_of_a_kind"
    STRAIGHT = "straight"
    THREE_PAIR = "three_pair"
    NOTHING = "nothing"


PayTable = Mapping[Line, int]
"""Odds paid to 1 per line; 0 is a push; a line not listed loses the bet."""

def _table(top: tuple[int, int, int, int, int, int, int], three_pair: int | None) -> PayTable:
    """A pay table from its seven top lines, the common 5/4/3/2 and the three-pair rule."""
    pays = dict(zip(tuple(Line)[:7], top, strict=True))
    pays |= {Line.FULL_HOUSE: 5, Line.FLUSH: 4, Line.THREE_OF_A_KIND: 3, Line.STRAIGHT: 2}
    if three_pair is not None:
        pays[Line.THREE_PAIR] = three_pair
    return MappingProxyType(pays)


# Section 5.1 pay table, one column each (natural 7SF, royal match, wild 7SF, five aces, royal,
# straight flush, quads; then full house 5, flush 4, trips 3, straight 2 in every column):
PAY_TABLES: Final[Mapping[str, PayTable]] = MappingProxyType({
    "PT1": _table((5000, 1000, 750, 250, 100, 50, 20), 0),  # PT1: three pair "0 (push)"
    "PT2": _table((8000, 2000, 1000, 400, 150, 50, 25), None),  # PT2: Wizard's most common
    "PT3": _table((5000, 2000, 1000, 400, 150, 50, 25), None),  # PT3 (Grochowski's table)
    "PT4": _table((2500, 1000, 750, 250, 125, 50, 25), None),  # PT4
    "PT5": _table((5000, 2000, 1000, 400, 150, 50, 25), None),  # PT5 (as copied, = PT3)
    "PT6": _table((5000, 1000, 500, 300, 110, 45, 25), None),  # PT6
    "PT7": _table((8000, 2000, 1000, 400, 150, 50, 25), None),  # PT7 Golden Nugget (= PT2)
})

# Section 5.1, Envy amounts in cents per other player's qualifying hand (Renton):
# natural 7SF $5,000; royal + match $1,000; wild 7SF $500; five aces $250; royal $50; SF $20;
# quads $5.
ENVY_TABLES: Final[Mapping[str, Mapping[Line, int]]] = MappingProxyType({
    "renton": MappingProxyType(dict(zip(
        tuple(Line)[:7], (500_000, 100_000, 50_000, 25_000, 5_000, 2_000, 500), strict=True
    ))),
})
ENVY_MINIMUM: Final = 500  # a Fortune bet of at least $5 earns the Envy Bonus (sections 5.1, 5.8)


def pay_table(name: object) -> PayTable:
    """The Fortune pay table of that name (PT1..PT7); ProfileError names an unknown one."""
    if not isinstance(name, str) or name not in PAY_TABLES:
        raise ProfileError(f"unknown Fortune pay table {name!r}; known: {list(PAY_TABLES)}")
    return PAY_TABLES[name]


def envy_table(name: object) -> Mapping[Line, int]:
    """The Envy Bonus table of that name; ProfileError names an unknown one."""
    if not isinstance(name, str) or name not in ENVY_TABLES:
        raise ProfileError(f"unknown Envy table {name!r}; known: {list(ENVY_TABLES)}")
    return ENVY_TABLES[name]


def _seven_card_straight_flush(hand: Sequence[Card]) -> Line | None:
    """The seven-card straight flush line, natural or with the joker, if the hand is one."""
    naturals = [c for c in hand if not c.is_joker]
    if len({c.suit for c in naturals}) != 1:
        return None
    ranks = {c.rank for c in naturals}
    if not any(ranks <= window for window in _WINDOWS):
        return None
    if len(naturals) == 7:
        return Line.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH
    return Line.WILD_SEVEN_CARD_STRAIGHT_FLUSH


def _royal_match(hand: Sequence[Card], evaluator: Evaluator) -> bool:
    """A royal flush in five cards (joker allowed) and a natural suited K-Q in the other two."""
    for (i, j), rest in SPLITS:
        a, b = hand[i], hand[j]
        if a.is_joker or b.is_joker or a.suit != b.suit or {a.rank, b.rank} != {_KING, _QUEEN}:
            continue
        rank = evaluator.rank5([hand[k] for k in rest])
        if category_of(rank) == STRAIGHT_FLUSH and (rank >> 16) & 0xF == _ROYAL_TOP:
            return True
    return False


def _three_pair(hand: Sequence[Card]) -> bool:
    """Three ranks held twice each (the joker counts as an ace)."""
    counts: dict[int, int] = {}
    for card in hand:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    return sorted(counts.values(), reverse=True)[:3] == [2, 2, 2]


_BY_CATEGORY: Final = {
    FIVE_OF_A_KIND: Line.FIVE_ACES, QUADS: Line.FOUR_OF_A_KIND, FULL_HOUSE: Line.FULL_HOUSE,
    FLUSH: Line.FLUSH, TRIPS: Line.THREE_OF_A_KIND,
}


def fortune_line(cards: Sequence[Card], evaluator: Evaluator) -> Line:
    """The first Fortune line that seven cards make, however they are set."""
    hand = seven(cards)
    seven_card = _seven_card_straight_flush(hand)
    if seven_card is not None:
        return seven_card
    ranks = five_card_ranks(hand, evaluator)
    best = max(ranks)
    category = category_of(best)
    if category == STRAIGHT_FLUSH:
        if (best >> 16) & 0xF != _ROYAL_TOP:
            return Line.STRAIGHT_FLUSH
        return Line.ROYAL_MATCH if _royal_match(hand, evaluator) else Line.ROYAL_FLUSH
    if category in _BY_CATEGORY:
        return _BY_CATEGORY[category]
    if category == STRAIGHT:
        # Trips pay more than a straight: a straight hand that also holds trips is paid as trips.
        if any(category_of(r) == TRIPS for r in ranks):
            return Line.THREE_OF_A_KIND
        return Line.STRAIGHT
    if category == TWO_PAIR and _three_pair(hand):
        return Line.THREE_PAIR
    return Line.NOTHING


@dataclass(frozen=True, slots=True)
class FortuneResult:
    """A settled Fortune bet: the line, the wager and the odds paid (None: the bet loses)."""

    line: Line
    wager: int
    odds: int | None

    @property
    def net(self) -> int:
        """The player's net result in cents: odds times the wager, or minus the wager."""
        return -self.wager if self.odds is None else self.odds * self.wager


def settle_fortune(
    cards: Sequence[Card], wager: int, table: PayTable, evaluator: Evaluator
) -> FortuneResult:
    """Settle a Fortune bet of ``wager`` cents on seven cards by a pay table."""
    if isinstance(wager, bool) or not isinstance(wager, int) or wager < 1:
        raise SettlementError(f"Fortune wager {wager!r} must be whole cents >= 1")
    line = fortune_line(cards, evaluator)
    return FortuneResult(line, wager, table.get(line))


def envy_bonus(
    wager: int, other_lines: Iterable[Line], table: Mapping[Line, int] = ENVY_TABLES["renton"]
) -> int:
    """Envy Bonus in cents: one fixed amount per other player's qualifying hand, if wager >= $5."""
    if wager < ENVY_MINIMUM:
        return 0
    return sum(table.get(line, 0) for line in other_lines)


def expected_return(table: PayTable, counts: Mapping[Line, int]) -> Fraction:
    """Exact return per unit bet, given how many hands fall on each line (all lines counted)."""
    total = sum(counts.values())
    if total <= 0:
        raise SettlementError(f"line counts {dict(counts)!r} hold no hands")
    won = sum(n * (-1 if table.get(line) is None else table[line]) for line, n in counts.items())
    return Fraction(won, total)
