"""One seat's setting against the banker's: hand by hand, copies to the banker, fouls.

Both hands higher wins, one each pushes, both lower loses; a tie on a hand ("copy") goes to the
banker, so win + copy is a push and copy + copy a loss (../shared/reference/pai_gow_poker.md
section 0 fact 4, section 1 "Copies", section 7 item 16).  A foul setting (low hand above the
high hand) either loses or is re-set by the house way, as the table profile says; the house-way
engine is handed in as a plain callable so that this module does not depend on it.

Readings where the sources are silent: a seat that stands foul loses before anything else is
looked at; a bank that stands foul (possible only for a player-banker under the "loss" policy)
loses to every seat that is not itself foul; a commission-free variant's push on the dealer's
hand (see ``variants``) comes after the foul checks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .cards import Card, format_cards
from .errors import CardCountError, SettlementError
from .poker_eval import Evaluator
from .setting import Setting, rank_setting

Reset = Callable[[Sequence[Card]], Setting]
"""Sets seven cards by the house way; supplied by the caller (the house-way engine)."""


class Side(StrEnum):
    """Who takes a hand."""

    PLAYER = "player"
    BANKER = "banker"


class Outcome(StrEnum):
    """A seat's result against the bank."""

    WIN = "win"
    PUSH = "push"
    LOSS = "loss"


class FoulPolicy(StrEnum):
    """What happens to a foul setting: it loses, or the dealer re-sets it by the house way."""

    LOSS = "loss"
    HOUSE_WAY = "house_way"


class Reason(StrEnum):
    """Why a comparison came out as it did."""

    HANDS = "hands"  # both hands were compared
    FOUL = "foul"  # the seat's setting stands foul
    BANK_FOUL = "bank_foul"  # the bank's setting stands foul
    VARIANT_PUSH = "variant_push"  # the dealer's hand pushes every bet under the variant


@dataclass(frozen=True, slots=True)
class HandResult:
    """Who took one hand (high or low), and whether it was a copy that went to the banker."""

    winner: Side
    copy: bool = False

    def __post_init__(self) -> None:
        if self.copy and self.winner is not Side.BANKER:
            raise SettlementError(f"a copy goes to the banker, not to {self.winner.value!r}")


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


def outcome_of(high: HandResult, low: HandResult) -> Outcome:
    """Both hands to the player: win; both to the banker: loss; one each: push."""
    if high.winner is low.winner:
        return Outcome.WIN if high.winner is Side.PLAYER else Outcome.LOSS
    return Outcome.PUSH


@dataclass(frozen=True, slots=True)
class Played:
    """A setting as it is played after the foul policy."""

    setting: Setting
    fouled: bool = False  # stands foul and loses (policy "loss")
    reset_from: Setting | None = None  # the foul setting the house way replaced


def play_setting(
    setting: Setting, evaluator: Evaluator, policy: FoulPolicy, reset: Reset | None = None
) -> Played:
    """Apply the foul policy: a legal setting plays as is; a foul one stands foul or is re-set."""
    if rank_setting(setting, evaluator).legal:
        return Played(setting)
    if policy is FoulPolicy.LOSS:
        return Played(setting, fouled=True)
    if reset is None:
        raise SettlementError(f"foul setting {str(setting)!r} must be re-set by the house way, "
                              f"but no house way was given")
    fixed = reset(setting.cards)
    if sorted(fixed.cards) != sorted(setting.cards):
        raise SettlementError(f"the house way re-set {str(setting)!r} as {str(fixed)!r}, "
                              f"which holds other cards")
    if not rank_setting(fixed, evaluator).legal:
        raise SettlementError(f"the house way re-set {str(setting)!r} as {str(fixed)!r}, "
                              f"which is foul too")
    return Played(fixed, reset_from=setting)


@dataclass(frozen=True, slots=True)
class Comparison:
    """Record of the compare act for one seat; ``high``/``low`` are None when not compared."""

    position: int
    setting: Setting  # as played
    outcome: Outcome
    reason: Reason = Reason.HANDS
    high: HandResult | None = None
    low: HandResult | None = None
    reset_from: Setting | None = None


def compare_seat(
    position: int,
    player: Played,
    banker: Played,
    evaluator: Evaluator,
    *,
    variant_push: bool = False,
) -> Comparison:
    """Settle one seat's played setting against the bank's (no money yet)."""

    def result(outcome: Outcome, reason: Reason) -> Comparison:
        return Comparison(position, player.setting, outcome, reason,
                          reset_from=player.reset_from)

    if player.fouled:
        return result(Outcome.LOSS, Reason.FOUL)
    if banker.fouled:
        return result(Outcome.WIN, Reason.BANK_FOUL)
    if variant_push:
        return result(Outcome.PUSH, Reason.VARIANT_PUSH)
    high = compare_hands(player.setting.high, banker.setting.high, evaluator)
    low = compare_hands(player.setting.low, banker.setting.low, evaluator)
    return Comparison(position, player.setting, outcome_of(high, low), Reason.HANDS, high, low,
                      player.reset_from)
