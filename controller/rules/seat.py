"""What a position puts on the table: its bets (within the table limits) and its set hand.

Both games use these records: a ``HandSet`` holds a card ``Setting`` or a ``TileSetting``.
Positions run 1..8 here (the tile table has eight); each game's settlement checks its own count.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

from .config_check import check_keys
from .dice import MAX_POSITIONS
from .errors import ProfileError, SettlementError

S = TypeVar("S")


def _cents(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SettlementError(f"{what} {value!r} must be a whole number of cents >= 0")
    return value


def _position(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_POSITIONS:
        raise SettlementError(f"position {value!r} is not one of 1..{MAX_POSITIONS}")
    return value


class SetBy(StrEnum):
    """Who set a hand: the player, or the dealer by the house way (dealer, dragon, on request)."""

    PLAYER = "player"
    HOUSE_WAY = "house_way"


@dataclass(frozen=True, slots=True)
class Bet:
    """Record of the bet act: the main wager and the Fortune side bet of one position, in cents."""

    position: int
    wager: int
    fortune: int = 0

    def __post_init__(self) -> None:
        _position(self.position)
        _cents(self.wager, f"wager at position {self.position}")
        _cents(self.fortune, f"Fortune bet at position {self.position}")


@dataclass(frozen=True, slots=True)
class HandSet(Generic[S]):
    """Record of the set act: the setting (cards or tiles) a position plays and who set it."""

    position: int
    setting: S
    by: SetBy = SetBy.PLAYER

    def __post_init__(self) -> None:
        _position(self.position)


@dataclass(frozen=True, slots=True)
class TableLimits:
    """Minimum and maximum main wager and Fortune bet, in cents."""

    min_bet: int = 500
    max_bet: int = 100_000
    fortune_min: int = 100
    fortune_max: int = 10_000

    def __post_init__(self) -> None:
        for name in ("min_bet", "max_bet", "fortune_min", "fortune_max"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ProfileError(f"table limit {name} {value!r} must be whole cents >= 1")
        if self.min_bet > self.max_bet:
            raise ProfileError(f"min_bet {self.min_bet!r} is above max_bet {self.max_bet!r}")
        if self.fortune_min > self.fortune_max:
            raise ProfileError(f"fortune_min {self.fortune_min!r} is above fortune_max "
                               f"{self.fortune_max!r}")

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> TableLimits:
        """Build from ``{min_bet_cents, max_bet_cents, fortune_min_cents, fortune_max_cents}``."""
        defaults = cls()
        names = ("min_bet", "max_bet", "fortune_min", "fortune_max")
        check_keys(data, [f"{name}_cents" for name in names], ProfileError, what="table limit")
        values: list[int] = []
        for name in names:
            value = data.get(f"{name}_cents", getattr(defaults, name))
            if isinstance(value, bool) or not isinstance(value, int):
                raise ProfileError(f"table limit {name}_cents {value!r} must be whole cents")
            values.append(value)
        return cls(*values)

    def check(self, bet: Bet, *, banker: bool = False) -> None:
        """Raise SettlementError naming a wager outside the limits (the banker wagers nothing)."""
        if banker:
            if bet.wager:
                raise SettlementError(f"the banker at position {bet.position} cannot also "
                                      f"wager {bet.wager!r} cents against itself")
        elif not self.min_bet <= bet.wager <= self.max_bet:
            raise SettlementError(f"wager {bet.wager!r} cents at position {bet.position} is "
                                  f"outside the limits {self.min_bet}..{self.max_bet}")
        if bet.fortune and not self.fortune_min <= bet.fortune <= self.fortune_max:
            raise SettlementError(f"Fortune bet {bet.fortune!r} cents at position {bet.position}"
                                  f" is outside the limits {self.fortune_min}.."
                                  f"{self.fortune_max}")
