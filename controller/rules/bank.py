"""Settling a round against the bank, for either game: outcomes, commission, player banking.

Win pays even money less commission, push is 0, loss loses the wager (docs/sources.md: [P1], [P8];
[T8] for tiles).  The house is position 1 and banks by default.  When a player banks instead, the
other seats play against that player and so does the house, whose hand plays as a seat with its own
wager (no commission: the house would pay itself).  The player-banker pays commission on its net win
across the table, only when that is positive. Every cent moves between positions, so the nets always
sum to zero.

The game comes in as a ``showdown.SettingRules`` (how hands compare, when a setting is legal); Pai
Gow Poker adds its variants' push and its Fortune and Envy side bets around this core
(``settlement``), the tile game adds nothing (``tile_settlement``).

Co-banking (docs/sources.md: [P8] for cards, [T8] for tiles): a player and the house share the bank
50/50.  The co-banker's hand, which must have been set by the house way, plays as the bank against
every other seat; the house plays no hand of its own.  The bank's result is split in halves, the
house taking the odd cent (explicit rounding: the player's half is rounded toward zero); the player
pays commission on a winning half.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Generic, TypeVar

from .comparison import Comparison, FoulPolicy, Outcome, SettingRules, compare_played, play
from .config_check import check_keys
from .errors import ProfileError, SettlementError
from .money import FIVE_PERCENT, Commission
from .poker.dealing import HOUSE
from .poker.fortune import FortuneResult
from .seat import Bet, HandSet, SetBy, TableLimits

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class BankRules:
    """What every table says about settling the main wager: commission, fouls, limits."""

    commission: Commission = FIVE_PERCENT
    foul: FoulPolicy = FoulPolicy.LOSS
    limits: TableLimits = field(default_factory=TableLimits)

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> BankRules:
        """Read ``{commission, foul, limits}`` (a table without side bets); unknown keys are
        errors naming them."""
        check_keys(data, ("commission", "foul", "limits"), ProfileError, what="settlement key")
        commission = data.get("commission", {})
        if not isinstance(commission, Mapping):
            raise ProfileError(f"commission {commission!r} must be a table")
        limits = data.get("limits", {})
        if not isinstance(limits, Mapping):
            raise ProfileError(f"table limits {limits!r} must be a table")
        for key in limits:
            if str(key).startswith("fortune_"):
                raise ProfileError(f"table limit {key!r}: this table takes no side bets")
        return cls(Commission.from_mapping(commission), foul_policy(data.get("foul")),
                   TableLimits.from_mapping(limits))


def foul_policy(value: object) -> FoulPolicy:
    """Read a profile's foul policy (``loss`` when absent); ProfileError names a bad one."""
    text = FoulPolicy.LOSS.value if value is None else value
    if text not in tuple(p.value for p in FoulPolicy):
        raise ProfileError(f"foul policy {text!r} is not one of {[p.value for p in FoulPolicy]}")
    return FoulPolicy(str(text))


@dataclass(frozen=True, slots=True)
class SeatResult(Generic[S]):
    """One position's bets settled: the main wager against the bank, and Pai Gow Poker's side
    bets (Fortune and Envy; always None and 0 at a tile table)."""

    bet: Bet
    comparison: Comparison[S] | None  # None for a player-banker's own side-bet-only bet
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
class Settlement(Generic[S]):
    """Record of the settle act: the bank's played setting and every seat's result."""

    banker: int
    banker_setting: S  # as played, after any house-way re-set
    seats: tuple[SeatResult[S], ...]
    banker_commission: int = 0
    banker_fouled: bool = False
    banker_reset_from: S | None = None
    variant_push: bool = False
    co_banked: bool = False  # the player at ``banker`` shares the bank 50/50 with the house

    @property
    def banker_share(self) -> int:
        """The player-banker's part of the bank's gross: all of it, or half when co-banked."""
        gross = self.banker_gross
        if not self.co_banked:
            return gross
        return gross // 2 if gross >= 0 else -((-gross) // 2)

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
        share = self.banker_share
        move(self.banker, share - self.banker_commission)
        move(HOUSE, self.banker_gross - share + self.banker_commission)
        return out


def _at_table(position: int, positions: int) -> None:
    if not 1 <= position <= positions:
        raise SettlementError(f"position {position!r} is not one of 1..{positions} at this table")


def _index_hands(hands: Iterable[HandSet[S]], positions: int) -> dict[int, HandSet[S]]:
    by_position: dict[int, HandSet[S]] = {}
    for hand in hands:
        _at_table(hand.position, positions)
        if hand.position in by_position:
            raise SettlementError(f"position {hand.position!r} has two hands set")
        by_position[hand.position] = hand
    return by_position


def _check_bets(
    bets: Iterable[Bet], hands: Mapping[int, HandSet[S]], limits: TableLimits, banker: int,
    bank: int | None, side_bets: bool,
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
        limits.check(bet, banker=bet.position == banker)
        if bet.fortune and not side_bets:
            raise SettlementError(f"this table takes no Fortune bets: {bet!r}")
    ordered = tuple(seen[p] for p in sorted(seen))
    covered = sum(bet.wager for bet in ordered)
    if bank is not None and covered > bank:
        raise SettlementError(f"the bank of {bank!r} cents does not cover {covered!r} cents "
                              f"of wagers")
    return ordered


def settle_bank(
    hands: Iterable[HandSet[S]],
    bets: Iterable[Bet],
    game: SettingRules[S],
    rules: BankRules,
    *,
    positions: int,
    banker: int = HOUSE,
    reset: Callable[[S], S] | None = None,
    bank: int | None = None,
    bank_pushes: Callable[[S], bool] | None = None,
    side_bets: bool = False,
    co_bank: bool = False,
) -> Settlement[S]:
    """Settle every main wager of a round against the bank at ``banker``.

    ``game`` compares hands and judges fouls; ``reset`` re-sets a foul setting by the house way
    (the "house_way" foul policy); ``bank``, if given, is what a player-banker has put up and
    must cover every wager; ``bank_pushes`` says whether the bank's played setting pushes every
    bet; ``side_bets`` whether Fortune bets are taken (they are settled by the caller: the seats
    come back with none); ``co_bank`` that the player at ``banker`` shares the bank with the house.
    """
    by_position = _index_hands(hands, positions)
    _at_table(banker, positions)
    if banker not in by_position:
        raise SettlementError(f"the bank at position {banker!r} has no hand set")
    if co_bank:
        _check_co_bank(by_position, bets, banker)
    ordered = _check_bets(bets, by_position, rules.limits, banker, bank, side_bets)

    bank_played = play(by_position[banker].setting, game, rules.foul, reset)
    pushes = (not bank_played.fouled and bank_pushes is not None
              and bank_pushes(bank_played.setting))
    seats: list[SeatResult[S]] = []
    for bet in ordered:
        comparison = None
        fee = 0
        if bet.position != banker:
            played = play(by_position[bet.position].setting, game, rules.foul, reset)
            comparison = compare_played(bet.position, played, bank_played, game,
                                        bank_pushes=pushes)
            if comparison.outcome is Outcome.WIN and bet.position != HOUSE:
                fee = rules.commission.commission_on(bet.wager)
        seats.append(SeatResult(bet, comparison, fee))

    result = Settlement(
        banker=banker, banker_setting=bank_played.setting, seats=tuple(seats),
        banker_fouled=bank_played.fouled, banker_reset_from=bank_played.reset_from,
        variant_push=pushes, co_banked=co_bank,
    )
    if banker == HOUSE:
        return result
    return replace(result, banker_commission=rules.commission.commission_on(result.banker_share))


def _check_co_bank(hands: Mapping[int, HandSet[S]], bets: Iterable[Bet], banker: int) -> None:
    """A co-bank is a player's, set by the house way, and the house plays no hand against it."""
    if banker == HOUSE:
        raise SettlementError("co-banking needs a player at the bank, not the house (position 1)")
    if hands[banker].by is not SetBy.HOUSE_WAY:
        raise SettlementError(f"the co-banked hand at position {banker!r} must be set by the "
                              f"house way, not by the {hands[banker].by.value}")
    for bet in bets:
        if bet.position == HOUSE:
            raise SettlementError(f"the house shares the bank and cannot also wager: {bet!r}")
