"""The best five-card hand that seven cards hold, however they are set."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .cards import Card
from .hands import Evaluator
from .setting import seven


def five_card_ranks(cards: Sequence[Card], evaluator: Evaluator) -> tuple[int, ...]:
    """Ranks of the 21 five-card hands inside seven distinct cards."""
    return tuple(evaluator.rank5(five) for five in combinations(seven(cards), 5))


def best_five_rank(cards: Sequence[Card], evaluator: Evaluator) -> int:
    """Rank of the best five-card hand inside seven distinct cards."""
    return max(five_card_ranks(cards, evaluator))
