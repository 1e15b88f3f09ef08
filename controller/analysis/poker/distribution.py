"""The exact distribution of a house way's two hands over every seven-card hand of the deck.

``paigow analyze poker --way NAME --exhaustive``: the 154,143,080 hands (53 choose 7) are counted
class by class (``poker_classes``), each class weighted by the hands it stands for, with the
setting the house way gives it (``poker_strategy``).  High hands are counted by category, low
hands by their two ranks, higher first, the joker as an ace (``A-A``, ``A-K`` ... ``3-2``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np

from controller.rules.poker.cards import RANKS
from controller.rules.poker.hand_rules import DEFAULT_RULES, PokerRules
from controller.rules.poker.hands import CATEGORY_KEYS, PAIR

from ..progress import Progress, Stages
from .classes import PokerClasses, poker_classes
from .strategy import WayTable, way_table


def low_key(value_high: int, value_low: int) -> str:
    """``A-K`` from the two rank values (2..14), the higher given first."""
    return f"{RANKS[value_high - 2]}-{RANKS[value_low - 2]}"


# Every two-card hand, best first: the pairs A-A .. 2-2, then A-K .. 3-2.
LOW_KEYS: Final = tuple(
    [low_key(v, v) for v in range(14, 1, -1)]
    + [low_key(hi, lo) for hi in range(14, 2, -1) for lo in range(hi - 1, 1, -1)]
)


def _low_index(ranks: np.ndarray) -> np.ndarray:
    """Index into ``LOW_KEYS`` of each two-card rank int."""
    first = (ranks >> 16) & 0xF
    second = (ranks >> 12) & 0xF
    pair = (ranks >> 20) == PAIR
    # Non-pairs: hi in 3..14 and lo in 2..hi-1, ordered by hi descending then lo descending.
    before = 78 - (first - 2) * (first - 1) // 2  # non-pair hands with a higher top card
    return np.where(pair, 14 - first, 13 + before + (first - 1 - second))


@dataclass(frozen=True, slots=True)
class Distribution:
    """Hands counted by the category of the house way's high hand and the ranks of its low."""

    way: str
    hands: int
    classes: int
    high: dict[str, int]  # CATEGORY_KEYS -> hands
    low: dict[str, int]  # LOW_KEYS -> hands


def count_distribution(classes: PokerClasses, table: WayTable) -> Distribution:
    """Weigh each class's setting by its hands."""
    weights = classes.multiplicity
    high = np.zeros(len(CATEGORY_KEYS), dtype=np.int64)
    np.add.at(high, table.high >> 20, weights)
    low = np.zeros(len(LOW_KEYS), dtype=np.int64)
    np.add.at(low, _low_index(table.low.astype(np.int64)), weights)
    return Distribution(
        way=table.way, hands=classes.hands, classes=len(classes),
        high={k: int(n) for k, n in zip(CATEGORY_KEYS, high, strict=True)},
        low={k: int(n) for k, n in zip(LOW_KEYS, low, strict=True)},
    )


def exhaustive(way: str, rules: PokerRules = DEFAULT_RULES,
               progress: Progress | None = None) -> Distribution:
    """The distribution of ``way``'s high and low hands over all 154,143,080 hands."""
    stages = Stages(progress, (1, 12))
    classes = poker_classes()
    done = stages.stage(0)
    if done is not None:
        done(1, 1)
    return count_distribution(classes, way_table(classes, way, rules, stages.stage(1)))
