"""Settling a round: every seat against the bank, commission, Fortune and Envy, in cents.

Win pays even money less the variant's commission, push is 0, loss loses the wager
(../shared/reference/pai_gow_poker.md section 0 fact 4, section 1).  The house is position 1 and
banks by default.  When a player banks instead, the other seats play against that player and so
does the house, whose hand plays as a seat with its own wager (no commission: the house would pay
itself).  The player-banker pays commission on its net win across the table, only when that is
positive.  Fortune bets and Envy Bonuses are always banked by the house (section 5.8), also when
a player banks.  Every cent moves between positions, so the nets always sum to zero.

Not implemented: co-banking (a player and the house sharing the bank, section 1 "Banking /
co-banking"); the caller must settle such a round as a house-banked one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .comparison import (
    Comparison,
    FoulPolicy,
    Outcome,
    Reset,
    compare_hands,
    compare_seat,
    play_setting,
)
from .dealing import HOUSE
from .errors import ProfileError, SettlementError
from .fortune import (
    FortuneResult,
    Line,
    envy_bonus,
    envy_table,
    fortune_line,
    pay_table,
    settle_fortune,
)
from .poker_eval import Evaluator
from .seat import Bet, HandSet, TableLimits
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
        known = ("variant", "foul", "limits", "fortune", "envy")
        for key in data:
            if key not in known:
                raise ProfileError(f"unknown settlement key {key!r}; known: {list(known)}")
        raw_variant = data.get("variant", "classic")
        variant = (
            Variant.from_mapping(raw_variant) if isinstance(raw_variant, Mapping)
            else variant_named(raw_variant)
        )
        foul_text = data.get("foul", FoulPolicy.LOSS.value)
        if foul_text not in tuple(p.value for p in FoulPolicy):
            raise ProfileError(f"foul policy {foul_text!r} is not one of "
                               f"{[p.value for p in FoulPolicy]}")
        foul = FoulPolicy(str(foul_text))
        limits = data.get("limits", {})
        if not isinstance(limits, Mapping):
            raise ProfileError(f"table limits {limits!r} must be a table")
        return cls(variant, foul, TableLimits.from_mapping(limits),
                   _optional_name(data, "fortune", "PT2"), _optional_name(data, "envy", "renton"))


def _optional_name(data: Mapping[str, object], key: str, default: str) -> str | None:
    """A table name, or None where the profile says false or "none"."""
    value = data.get(key, default)
    if value is False or value == "none":
        return None
    if not isinstance(value, str):
        raise ProfileError(f"{key} {value!r} must be a table name, false or 'none'")
    return value


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One position's bets settled: the main wager against the bank, Fortune and Envy."""

    bet: Bet
    comparison: Comparison | None  # None for a player-banker's own Fortune-only bet
    commission: int = 0
    fortune: FortuneResult | None = None
    envy: int = 0

    @property
    def gross(self) -> int:
        """The main wager's even-money result in cents, before commission."""
        if self.comparison is None or self.comparison.outcome is Outcome.PUSH:
            return 0
        return self.bet.wager if self.comparison.outcome is Outcome.WIN else -self.bet.wager

    @property
    def net(self) -> int:
        """Everything this position wins (+) or loses (-) on its bets, commission paid."""
        side = self.fortune.net if self.fortune is not None else 0
        return self.gross - self.commission + side + self.envy


@dataclass(frozen=True, slots=True)
class Settlement:
    """Record of the settle act: the bank's played setting and every seat's result."""

    banker: int
    banker_setting: Setting  # as played, after any house-way re-set
    seats: tuple[SeatResult, ...]
    banker_commission: int = 0
    banker_fouled: bool = False
    banker_reset_from: Setting | None = None
    variant_push: bool = False

    @property
    def banker_gross(self) -> int:
        """The bank's result on the main wagers in cents, before its commission."""
        return -sum(seat.gross for seat in self.seats)

    @property
    def commission_total(self) -> int:
        """All commission collected by the house, in cents."""
        return self.banker_commission + sum(seat.commission for seat in self.seats)

    def net_by_position(self) -> dict[int, int]:
        """Each position's net in cents (the house, position 1, takes commission and side bets)."""
        out: dict[int, int] = {}

        def move(position: int, amount: int) -> None:
            out[position] = out.get(position, 0) + amount

        for seat in self.seats:
            position = seat.bet.position
            move(position, seat.gross - seat.commission)
            move(HOUSE, seat.commission)
            side = (seat.fortune.net if seat.fortune is not None else 0) + seat.envy
            move(position, side)
            move(HOUSE, -side)  # the house banks every side bet
        move(self.banker, self.banker_gross - self.banker_commission)
        move(HOUSE, self.banker_commission)
        return out


def _index_hands(hands: Iterable[HandSet]) -> dict[int, HandSet]:
    by_position: dict[int, HandSet] = {}
    for hand in hands:
        if hand.position in by_position:
            raise SettlementError(f"position {hand.position!r} has two hands set")
        by_position[hand.position] = hand
    return by_position


def _check_bets(
    bets: Iterable[Bet], hands: Mapping[int, HandSet], rules: TableRules, banker: int,
    bank: int | None,
) -> tuple[Bet, ...]:
    seen: dict[int, Bet] = {}
    for bet in bets:
        if bet.position in seen:
            raise SettlementError(f"position {bet.position!r} has two bets")
        seen[bet.position] = bet
        if bet.position not in hands:
            raise SettlementError(f"position {bet.position!r} bet but has no hand set")
        if bet.position == HOUSE and banker != HOUSE:
            if bet.wager < 1 or bet.fortune:
                raise SettlementError(f"the house plays against the bank with a main wager "
                                      f"only, not {bet!r}")
            continue  # the house's own wager is not held to the players' table limits
        if bet.position == HOUSE and bet.fortune:
            raise SettlementError(f"the house cannot make a Fortune bet: {bet!r}")
        rules.limits.check(bet, banker=bet.position == banker)
        if bet.fortune and rules.fortune is None:
            raise SettlementError(f"this table takes no Fortune bets: {bet!r}")
    ordered = tuple(seen[p] for p in sorted(seen))
    covered = sum(bet.wager for bet in ordered)
    if bank is not None and covered > bank:
        raise SettlementError(f"the bank of {bank!r} cents does not cover {covered!r} cents "
                              f"of wagers")
    return ordered


def _side_bets(
    bet: Bet, hands: Mapping[int, HandSet], rules: TableRules, evaluator: Evaluator,
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
    hands: Iterable[HandSet],
    bets: Iterable[Bet],
    evaluator: Evaluator,
    rules: TableRules | None = None,
    *,
    banker: int = HOUSE,
    reset: Reset | None = None,
    bank: int | None = None,
) -> Settlement:
    """Settle every bet of a round against the bank at ``banker`` (the house by default).

    ``reset`` sets seven cards by the house way, for the "house_way" foul policy; ``bank``, if
    given, is what a player-banker has put up, and must cover every wager.
    """
    rules = rules or TableRules()
    by_position = _index_hands(hands)
    if banker not in by_position:
        raise SettlementError(f"the bank at position {banker!r} has no hand set")
    if banker != HOUSE and not rules.variant.player_banking:
        raise SettlementError(f"variant {rules.variant.name!r} does not allow a player to bank "
                              f"(position {banker!r})")
    ordered = _check_bets(bets, by_position, rules, banker, bank)

    bank_played = play_setting(by_position[banker].setting, evaluator, rules.foul, reset)
    pushes = not bank_played.fouled and rules.variant.dealer_pushes(bank_played.setting, evaluator)
    commission = rules.variant.commission

    lines: dict[int, Line] = {}  # Fortune lines of the hands seen so far, for Envy
    seats: list[SeatResult] = []
    for bet in ordered:
        comparison = None
        fee = 0
        if bet.position != banker:
            played = play_setting(by_position[bet.position].setting, evaluator, rules.foul, reset)
            comparison = compare_seat(bet.position, played, bank_played, evaluator,
                                      variant_push=pushes)
            if comparison.outcome is Outcome.WIN and bet.position != HOUSE:
                fee = commission.commission_on(bet.wager)
        fortune, envy = _side_bets(bet, by_position, rules, evaluator, lines)
        seats.append(SeatResult(bet, comparison, fee, fortune, envy))

    banker_gross = -sum(seat.gross for seat in seats)
    banker_fee = commission.commission_on(banker_gross) if banker != HOUSE else 0
    return Settlement(
        banker=banker, banker_setting=bank_played.setting, seats=tuple(seats),
        banker_commission=banker_fee, banker_fouled=bank_played.fouled,
        banker_reset_from=bank_played.reset_from, variant_push=pushes,
    )
