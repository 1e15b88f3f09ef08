"""Settling a Pai Gow Poker round: the shared bank core plus variants, Fortune and Envy.

The main wagers settle through the game-neutral ``bank.settle_bank`` (outcomes, commission,
fouls, player banking; the tile game uses the same code).  What is poker's own is added here:
a variant's commission and its dealer-hand push (``variants``), and the Fortune side bet with its
Envy Bonus, always banked by the house, also when a player banks
(docs/sources.md: [P1], [P8], [P9]).  Every cent moves between
positions, so the nets always sum to zero.

Co-banking (a player sharing the bank 50/50 with the house, the hand set by the house way) is
settled by the bank core (``co_bank=True``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from ..bank import BankRules, SeatResult, Settlement, foul_policy, settle_bank
from ..config_check import check_keys
from ..dice import POSITIONS
from ..errors import ProfileError, SettlementError
from ..seat import Bet, HandSet, TableLimits
from .comparison import FoulPolicy, PokerHands, Reset, compare_hands, reset_setting
from .dealing import HOUSE
from .fortune import (
    FortuneResult,
    Line,
    envy_bonus,
    envy_table,
    fortune_line,
    pay_table,
    settle_fortune,
)
from .hands import Evaluator
from .setting import Setting
from .variants import CLASSIC, Variant, variant_named

__all__ = ["SeatResult", "Settlement", "TableRules", "compare_hands", "settle"]


@dataclass(frozen=True, slots=True)
class TableRules:
    """Everything a table profile says about settling: variant, fouls, limits, side bets."""

    variant: Variant = CLASSIC
    foul: FoulPolicy = FoulPolicy.LOSS
    limits: TableLimits = field(default_factory=TableLimits)
    fortune: str | None = "PT2"  # Fortune pay table name, or None: no Fortune bets taken
    envy: str | None = "renton"  # Envy Bonus table name, or None: no Envy paid

    def __post_init__(self) -> None:
        if self.fortune is not None:
            pay_table(self.fortune)
        if self.envy is not None:
            envy_table(self.envy)

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> TableRules:
        """Read ``{variant, foul, limits, fortune, envy}``; unknown keys and values are errors."""
        check_keys(data, ("variant", "foul", "limits", "fortune", "envy"), ProfileError,
                   what="settlement key")
        raw_variant = data.get("variant", "classic")
        variant = (
            Variant.from_mapping(raw_variant) if isinstance(raw_variant, Mapping)
            else variant_named(raw_variant)
        )
        foul = foul_policy(data.get("foul"))
        limits = data.get("limits", {})
        if not isinstance(limits, Mapping):
            raise ProfileError(f"table limits {limits!r} must be a table")
        return cls(variant, foul, TableLimits.from_mapping(limits),
                   _optional_name(data, "fortune", "PT2"), _optional_name(data, "envy", "renton"))

    @property
    def bank(self) -> BankRules:
        """The game-neutral part: the variant's commission, the foul policy, the limits."""
        return BankRules(self.variant.commission, self.foul, self.limits)


def _optional_name(data: Mapping[str, object], key: str, default: str) -> str | None:
    """A table name, or None where the profile says false or "none"."""
    value = data.get(key, default)
    if value is False or value == "none":
        return None
    if not isinstance(value, str):
        raise ProfileError(f"{key} {value!r} must be a table name, false or 'none'")
    return value


def _side_bets(
    bet: Bet, hands: Mapping[int, HandSet[Setting]], rules: TableRules, evaluator: Evaluator,
    lines: dict[int, Line],
) -> tuple[FortuneResult | None, int]:
    """The Fortune result of a bet, and its Envy on every other player's hand (not the dealer's)."""
    if not bet.fortune or rules.fortune is None:
        return None, 0
    fortune = settle_fortune(hands[bet.position].setting.cards, bet.fortune,
                             pay_table(rules.fortune), evaluator)
    lines[bet.position] = fortune.line
    if rules.envy is None:
        return fortune, 0
    for position in hands:
        if position not in lines:
            lines[position] = fortune_line(hands[position].setting.cards, evaluator)
    others = (line for p, line in lines.items() if p not in (HOUSE, bet.position))
    return fortune, envy_bonus(bet.fortune, others, envy_table(rules.envy))


def settle(
    hands: Iterable[HandSet[Setting]],
    bets: Iterable[Bet],
    evaluator: Evaluator,
    rules: TableRules | None = None,
    *,
    banker: int = HOUSE,
    reset: Reset | None = None,
    bank: int | None = None,
    co_bank: bool = False,
) -> Settlement[Setting]:
    """Settle every bet of a round against the bank at ``banker`` (the house by default).

    ``reset`` sets seven cards by the house way, for the "house_way" foul policy; ``bank``, if
    given, is what a player-banker has put up, and must cover every wager; ``co_bank``: that
    player shares the bank 50/50 with the house.
    """
    rules = rules or TableRules()
    hands = tuple(hands)
    if banker != HOUSE and not rules.variant.player_banking:
        raise SettlementError(f"variant {rules.variant.name!r} does not allow a player to bank "
                              f"(position {banker!r})")
    variant = rules.variant

    def pushes(setting: Setting) -> bool:
        return variant.dealer_pushes(setting, evaluator)

    main = settle_bank(hands, bets, PokerHands(evaluator), rules.bank, positions=POSITIONS,
                       banker=banker, reset=reset_setting(reset), bank=bank, bank_pushes=pushes,
                       side_bets=rules.fortune is not None, co_bank=co_bank)
    by_position = {hand.position: hand for hand in hands}
    lines: dict[int, Line] = {}  # Fortune lines of the hands seen so far, for Envy
    seats = []
    for seat in main.seats:
        fortune, envy = _side_bets(seat.bet, by_position, rules, evaluator, lines)
        seats.append(seat if fortune is None else replace(seat, fortune=fortune, envy=envy))
    return replace(main, seats=tuple(seats))
