"""One seat's setting against the bank's, for either game: hand by hand, copies, fouls.

Both games share the outcome rule: both hands higher wins, one each pushes, both lower loses; a
tie on a hand ("copy") goes to the banker, so win + copy is a push and copy + copy a loss
(docs/sources.md: [P1] for cards,
[T8] for tiles).  What differs between Pai Gow Poker and Pai Gow tiles is how two hands compare
and when a setting is legal; a game hands that in as a ``SettingRules`` object (``comparison``
for the cards, ``tile_comparison`` for the tiles), so this module knows neither game.

A foul setting (high hand below the low hand) either loses or is re-set by the house way, as the
table profile says; the house-way engine is handed in as a plain callable.  Readings where the
sources are silent: a seat that stands foul loses before anything else is looked at; a bank that
stands foul (possible only for a player-banker under the "loss" policy) loses to every seat that
is not itself foul; a push of every bet decided by the bank's hand (a Pai Gow Poker variant's,
see ``variants``) comes after the foul checks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, Protocol, TypeVar

from .errors import SettlementError

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)


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


def outcome_of(high: HandResult, low: HandResult) -> Outcome:
    """Both hands to the player: win; both to the banker: loss; one each: push."""
    if high.winner is low.winner:
        return Outcome.WIN if high.winner is Side.PLAYER else Outcome.LOSS
    return Outcome.PUSH


class SettingRules(Protocol[S_contra]):
    """What settling needs from a game: is a setting legal, and who takes each hand."""

    @property
    def noun(self) -> str:
        """What the game's pieces are called in messages: ``cards`` or ``tiles``."""
        ...

    def legal(self, setting: S_contra) -> bool:
        """True when the setting's high hand is not below its low hand."""
        ...

    def pieces(self, setting: S_contra) -> tuple[int, ...]:
        """The cards or tiles of a setting, to check that a re-set kept them."""
        ...

    def compare(self, player: S_contra, banker: S_contra) -> tuple[HandResult, HandResult]:
        """The high hands' result and the low hands' result, copies to the banker."""
        ...


@dataclass(frozen=True, slots=True)
class Played(Generic[S]):
    """A setting as it is played after the foul policy."""

    setting: S
    fouled: bool = False  # stands foul and loses (policy "loss")
    reset_from: S | None = None  # the foul setting the house way replaced


def play(
    setting: S, rules: SettingRules[S], policy: FoulPolicy,
    reset: Callable[[S], S] | None = None,
) -> Played[S]:
    """Apply the foul policy: a legal setting plays as is; a foul one stands foul or is re-set.

    ``reset`` re-sets a setting's pieces by the house way.
    """
    if rules.legal(setting):
        return Played(setting)
    if policy is FoulPolicy.LOSS:
        return Played(setting, fouled=True)
    if reset is None:
        raise SettlementError(f"foul setting {str(setting)!r} must be re-set by the house way, "
                              f"but no house way was given")
    fixed = reset(setting)
    if sorted(rules.pieces(fixed)) != sorted(rules.pieces(setting)):
        raise SettlementError(f"the house way re-set {str(setting)!r} as {str(fixed)!r}, "
                              f"which holds other {rules.noun}")
    if not rules.legal(fixed):
        raise SettlementError(f"the house way re-set {str(setting)!r} as {str(fixed)!r}, "
                              f"which is foul too")
    return Played(fixed, reset_from=setting)


@dataclass(frozen=True, slots=True)
class Comparison(Generic[S]):
    """Record of the compare act for one seat; ``high``/``low`` are None when not compared."""

    position: int
    setting: S  # as played
    outcome: Outcome
    reason: Reason = Reason.HANDS
    high: HandResult | None = None
    low: HandResult | None = None
    reset_from: S | None = None


def compare_played(
    position: int,
    player: Played[S],
    banker: Played[S],
    rules: SettingRules[S],
    *,
    bank_pushes: bool = False,
) -> Comparison[S]:
    """Settle one seat's played setting against the bank's (no money yet)."""

    def result(outcome: Outcome, reason: Reason) -> Comparison[S]:
        return Comparison(position, player.setting, outcome, reason,
                          reset_from=player.reset_from)

    if player.fouled:
        return result(Outcome.LOSS, Reason.FOUL)
    if banker.fouled:
        return result(Outcome.WIN, Reason.BANK_FOUL)
    if bank_pushes:
        return result(Outcome.PUSH, Reason.VARIANT_PUSH)
    high, low = rules.compare(player.setting, banker.setting)
    return Comparison(position, player.setting, outcome_of(high, low), Reason.HANDS, high, low,
                      player.reset_from)
