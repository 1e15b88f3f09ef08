"""Money in integer cents: the commission on a win, and the text form of an amount.

Every amount in the rules core is an int of cents; nothing here touches a float.  The classic
game takes 5 % of a player's net win, rounded down to the quarter at most tables
(docs/sources.md: [P1]); both the rate and the rounding are
table-profile values because rooms differ.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from .config_check import check_keys
from .errors import NotationError, ProfileError

BASIS_POINTS: Final = 10_000  # 100 %
_MONEY: Final = re.compile(r"(-?)(\d+)(?:\.(\d{1,2}))?")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Rounding(StrEnum):
    """Which way a commission is rounded to a multiple of the rounding unit."""

    DOWN = "down"  # in the player's favour: the usual "down to the quarter"
    NEAREST = "nearest"  # halves round up
    UP = "up"  # in the house's favour


@dataclass(frozen=True, slots=True)
class Commission:
    """A commission of ``rate_bp`` basis points on a net win, rounded to ``unit_cents``."""

    rate_bp: int = 500
    unit_cents: int = 25
    mode: Rounding = Rounding.DOWN

    def __post_init__(self) -> None:
        if not _is_int(self.rate_bp) or not 0 <= self.rate_bp <= BASIS_POINTS:
            raise ProfileError(f"commission rate {self.rate_bp!r} must be 0..10000 basis points")
        if not _is_int(self.unit_cents) or self.unit_cents < 1:
            raise ProfileError(f"commission unit {self.unit_cents!r} must be a whole cent >= 1")
        if not isinstance(self.mode, Rounding):
            raise ProfileError(f"commission rounding {self.mode!r} is not one of "
                               f"{[m.value for m in Rounding]}")

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> Commission:
        """Build from a profile table ``{rate_bp, unit_cents, mode}``; unknown keys are errors."""
        check_keys(data, ("rate_bp", "unit_cents", "mode"), ProfileError,
                   what="commission key")
        rate = data.get("rate_bp", 500)
        unit = data.get("unit_cents", 25)
        if not isinstance(rate, int) or isinstance(rate, bool):
            raise ProfileError(f"commission rate_bp {rate!r} must be an integer")
        if not isinstance(unit, int) or isinstance(unit, bool):
            raise ProfileError(f"commission unit_cents {unit!r} must be an integer")
        mode_text = data.get("mode", Rounding.DOWN.value)
        if mode_text not in tuple(m.value for m in Rounding):
            raise ProfileError(f"commission mode {mode_text!r} is not one of "
                               f"{[m.value for m in Rounding]}")
        mode = Rounding(str(mode_text))
        return cls(rate_bp=rate, unit_cents=unit, mode=mode)

    @property
    def free(self) -> bool:
        """True when no commission is ever charged."""
        return self.rate_bp == 0

    def commission_on(self, net_win_cents: int) -> int:
        """The commission on a net win in cents (0 on a push or a loss); never more than the win."""
        if not _is_int(net_win_cents):
            raise NotationError(f"net win {net_win_cents!r} must be an integer number of cents")
        if net_win_cents <= 0 or self.rate_bp == 0:
            return 0
        # Exact fee = win * rate / 10000 cents; count it in rounding units: win * rate / (10000*u).
        numerator = net_win_cents * self.rate_bp
        denominator = BASIS_POINTS * self.unit_cents
        if self.mode is Rounding.DOWN:
            units = numerator // denominator
        elif self.mode is Rounding.UP:
            units = -(-numerator // denominator)
        else:
            units = (2 * numerator + denominator) // (2 * denominator)
        # Rounding up could charge more than a tiny win; the fee never exceeds what was won.
        return min(units * self.unit_cents, net_win_cents)


NO_COMMISSION: Final = Commission(rate_bp=0, unit_cents=1)
FIVE_PERCENT: Final = Commission()


def parse_money(text: str) -> int:
    """Read ``"25.50"``, ``"25"``, ``"-3.5"`` as cents (2550, 2500, -350); reject anything else."""
    if not isinstance(text, str):
        raise NotationError(f"amount {text!r} must be text like '25.50'")
    match = _MONEY.fullmatch(text.strip())
    if match is None:
        raise NotationError(f"unknown amount {text!r}: expected dollars and up to two decimals, "
                            f"like '25.50'")
    sign, dollars, cents = match.groups()
    value = int(dollars) * 100 + int((cents or "0").ljust(2, "0"))
    return -value if sign else value


def format_money(cents: int) -> str:
    """Print cents as dollars with two decimals: 2550 -> ``"25.50"``, -25 -> ``"-0.25"``."""
    if not _is_int(cents):
        raise NotationError(f"amount {cents!r} must be an integer number of cents")
    sign = "-" if cents < 0 else ""
    dollars, rest = divmod(abs(cents), 100)
    return f"{sign}{dollars}.{rest:02d}"
