"""The pair pattern of a seven-card hand, as house ways read it (the joker counts as an ace)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .cards import Card


class Pattern(StrEnum):
    """Which section of a house way applies to a hand, by its pairs, trips and quads."""

    NO_PAIR = "no_pair"
    ONE_PAIR = "one_pair"
    TWO_PAIR = "two_pair"
    THREE_PAIR = "three_pair"
    TRIPS = "trips"
    TWO_TRIPS = "two_trips"
    FULL_HOUSE = "full_house"  # trips and one pair
    FULL_HOUSE_TWO_PAIR = "full_house_two_pair"  # trips and two pairs
    QUADS = "quads"
    QUADS_PAIR = "quads_pair"
    QUADS_TRIPS = "quads_trips"
    FIVE_ACES = "five_aces"


@dataclass(frozen=True, slots=True)
class Shape:
    """Cards grouped by rank, biggest groups first, then higher ranks; singles high to low."""

    pattern: Pattern
    groups: tuple[tuple[Card, ...], ...]  # groups of two or more, (size, rank) descending
    singles: tuple[Card, ...]  # rank descending
    has_joker: bool

    def group_rank(self, i: int) -> int:
        """Rank (0..12) of the i-th group."""
        return self.groups[i][0].rank

    @property
    def kicker(self) -> int:
        """Rank of the highest single card, or -1 when there is none."""
        return self.singles[0].rank if self.singles else -1


def _by_strength(cards: Sequence[Card]) -> tuple[Card, ...]:
    # Natural cards before the joker within a rank, so a split puts a natural ace forward and
    # keeps the joker in the five-card hand, where it can still complete a straight or flush.
    return tuple(sorted(cards, key=lambda c: (-c.rank, c.is_joker, -int(c))))


def shape_of(cards: Sequence[Card]) -> Shape:
    """Classify seven cards by their pair pattern."""
    by_rank: dict[int, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    groups = sorted(
        (_by_strength(g) for g in by_rank.values() if len(g) >= 2),
        key=lambda g: (len(g), g[0].rank),
        reverse=True,
    )
    singles = _by_strength([g[0] for g in by_rank.values() if len(g) == 1])
    sizes = tuple(len(g) for g in groups)
    pattern = _PATTERNS.get(sizes)
    if pattern is None:
        raise ValueError(f"impossible group sizes {sizes!r}")  # seven cards cannot do this
    return Shape(pattern, tuple(groups), singles, any(c.is_joker for c in cards))


_PATTERNS: dict[tuple[int, ...], Pattern] = {
    (): Pattern.NO_PAIR,
    (2,): Pattern.ONE_PAIR,
    (2, 2): Pattern.TWO_PAIR,
    (2, 2, 2): Pattern.THREE_PAIR,
    (3,): Pattern.TRIPS,
    (3, 3): Pattern.TWO_TRIPS,
    (3, 2): Pattern.FULL_HOUSE,
    (3, 2, 2): Pattern.FULL_HOUSE_TWO_PAIR,
    (4,): Pattern.QUADS,
    (4, 2): Pattern.QUADS_PAIR,
    (4, 3): Pattern.QUADS_TRIPS,
    (5,): Pattern.FIVE_ACES,
    (5, 2): Pattern.FIVE_ACES,
}
