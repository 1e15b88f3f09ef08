"""Settings: a seven-card hand split into a two-card low hand and a five-card high hand."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from ..errors import CardCountError, FoulError, NotationError
from .cards import Card, format_cards, parse_cards, sorted_cards
from .hands import Evaluator, describe2, describe5

# The 21 ways to choose the two low cards out of seven positions, and the five that remain.
SPLITS: Final = tuple(
    (pair, tuple(i for i in range(7) if i not in pair)) for pair in combinations(range(7), 2)
)


@dataclass(frozen=True, slots=True)
class Setting:
    """A low (two-card) and a high (five-card) hand. Text form: ``Kd Qh / As Jk 9s 9c 4d``."""

    low: tuple[Card, Card]
    high: tuple[Card, Card, Card, Card, Card]

    @classmethod
    def of(cls, low: Iterable[Card], high: Iterable[Card]) -> Setting:
        """Build from any iterables, in display order; checks counts and duplicates."""
        lo = sorted_cards(low)
        hi = sorted_cards(high)
        if len(lo) != 2:
            raise CardCountError(f"low hand needs 2 cards, got {len(lo)}: {format_cards(lo)!r}")
        if len(hi) != 5:
            raise CardCountError(f"high hand needs 5 cards, got {len(hi)}: {format_cards(hi)!r}")
        parse_cards((*lo, *hi), 7, what="setting")
        return cls((lo[0], lo[1]), (hi[0], hi[1], hi[2], hi[3], hi[4]))

    @classmethod
    def parse(cls, text: str) -> Setting:
        """Read ``LOW / HIGH``, e.g. ``Kd Qh / As Jk 9s 9c 4d``."""
        parts = text.split("/")
        if len(parts) != 2:
            raise NotationError(f"setting {text!r} must read 'LOW / HIGH' with one '/'")
        low = parse_cards(parts[0], what="low hand")
        return cls.of(low, parse_cards(parts[1], what="high hand"))

    @property
    def cards(self) -> tuple[Card, ...]:
        """All seven cards, low hand first."""
        return (*self.low, *self.high)

    def __str__(self) -> str:
        return f"{format_cards(self.low)} / {format_cards(self.high)}"


@dataclass(frozen=True, slots=True)
class RankedSetting:
    """A setting with its two ranks, as the evaluator sees them."""

    setting: Setting
    low_rank: int
    high_rank: int
    legal: bool

    def words(self) -> tuple[str, str]:
        """(low hand in words, high hand in words)."""
        return describe2(self.low_rank), describe5(self.high_rank)


def seven(cards: str | Sequence[Card | str]) -> tuple[Card, ...]:
    """Read exactly seven distinct cards."""
    return parse_cards(cards, 7, what="seven-card hand")


def rank_setting(setting: Setting, evaluator: Evaluator) -> RankedSetting:
    """Rank both hands and say whether the setting is legal (the high hand beats the low)."""
    low = evaluator.rank2(setting.low)
    high = evaluator.rank5(setting.high)
    return RankedSetting(setting, low, high, evaluator.high_beats_low(high, low))


def all_settings(cards: Sequence[Card], evaluator: Evaluator) -> tuple[RankedSetting, ...]:
    """All 21 splits of seven cards, ranked, legal or not."""
    hand = seven(cards)
    out = []
    for (i, j), rest in SPLITS:
        low = (hand[i], hand[j])
        high = tuple(hand[k] for k in rest)
        lo_rank = evaluator.rank2(low)
        hi_rank = evaluator.rank5(high)
        out.append(
            RankedSetting(Setting.of(low, high), lo_rank, hi_rank,
                          evaluator.high_beats_low(hi_rank, lo_rank))
        )
    return tuple(out)


def legal_settings(cards: Sequence[Card], evaluator: Evaluator) -> tuple[RankedSetting, ...]:
    """The splits whose five-card hand outranks the two-card hand (never empty)."""
    return tuple(s for s in all_settings(cards, evaluator) if s.legal)


def check_legal(setting: Setting, evaluator: Evaluator) -> RankedSetting:
    """Rank a setting and raise FoulError naming it when the low hand outranks the high hand."""
    ranked = rank_setting(setting, evaluator)
    if not ranked.legal:
        low_words, high_words = ranked.words()
        raise FoulError(f"foul setting {str(setting)!r}: low {low_words} is not below high "
                        f"{high_words}")
    return ranked
