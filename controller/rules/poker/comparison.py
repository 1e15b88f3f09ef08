"""Pai Gow Poker's side of the showdown: two- and five-card hands, copies, and fouls.

The game-neutral parts (sides, outcomes, the foul policy, one seat against the bank) live in
``showdown`` and are re-exported here; this module adds how card hands compare and when a card
setting is legal, as ``PokerHands`` (a ``showdown.SettingRules`` for ``Setting``), and keeps the
poker-shaped helpers ``compare_hands``, ``play_setting`` and ``compare_seat``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..comparison import (
    Comparison,
    FoulPolicy,
    HandResult,
    Outcome,
    Played,
    Reason,
    Side,
    compare_played,
    outcome_of,
    play,
)
from ..errors import CardCountError
from .cards import Card, format_cards
from .hands import Evaluator
from .setting import Setting, rank_setting

__all__ = [
    "Comparison", "FoulPolicy", "HandResult", "Outcome", "Played", "PokerHands", "Reason",
    "Reset", "Side", "compare_hands", "compare_seat", "outcome_of", "play_setting",
    "reset_setting",
]

Reset = Callable[[Sequence[Card]], Setting]
"""Sets seven cards by the house way; supplied by the caller (the house-way engine)."""


def compare_hands(
    player_cards: Sequence[Card], banker_cards: Sequence[Card], evaluator: Evaluator
) -> HandResult:
    """Compare two two-card or two five-card hands; ties (copies) go to the banker."""
    if len(player_cards) != len(banker_cards) or len(player_cards) not in (2, 5):
        raise CardCountError(
            f"compare two-card or five-card hands of equal size, got "
            f"{format_cards(player_cards)!r} against {format_cards(banker_cards)!r}"
        )
    if len(player_cards) == 5:
        mine, theirs = evaluator.rank5(player_cards), evaluator.rank5(banker_cards)
    else:
        mine, theirs = evaluator.rank2(player_cards), evaluator.rank2(banker_cards)
    if mine > theirs:
        return HandResult(Side.PLAYER)
    return HandResult(Side.BANKER, copy=mine == theirs)


@dataclass(frozen=True, slots=True)
class PokerHands:
    """Card settings as the showdown sees them, under one evaluator's ruleset."""

    evaluator: Evaluator

    @property
    def noun(self) -> str:
        """Pieces are cards."""
        return "cards"

    def legal(self, setting: Setting) -> bool:
        """The five-card hand outranks the two-card hand."""
        return rank_setting(setting, self.evaluator).legal

    def pieces(self, setting: Setting) -> tuple[int, ...]:
        """The seven cards."""
        return setting.cards

    def compare(self, player: Setting, banker: Setting) -> tuple[HandResult, HandResult]:
        """(high hands' result, low hands' result)."""
        return (compare_hands(player.high, banker.high, self.evaluator),
                compare_hands(player.low, banker.low, self.evaluator))


def reset_setting(reset: Reset | None) -> Callable[[Setting], Setting] | None:
    """A house-way callable on seven cards, as the showdown's re-set of a whole setting."""
    if reset is None:
        return None
    by_cards = reset
    return lambda setting: by_cards(setting.cards)


def play_setting(
    setting: Setting, evaluator: Evaluator, policy: FoulPolicy, reset: Reset | None = None
) -> Played[Setting]:
    """Apply the foul policy: a legal setting plays as is; a foul one stands foul or is re-set."""
    return play(setting, PokerHands(evaluator), policy, reset_setting(reset))


def compare_seat(
    position: int,
    player: Played[Setting],
    banker: Played[Setting],
    evaluator: Evaluator,
    *,
    variant_push: bool = False,
) -> Comparison[Setting]:
    """Settle one seat's played setting against the bank's (no money yet)."""
    return compare_played(position, player, banker, PokerHands(evaluator),
                          bank_pushes=variant_push)
