"""Ruleset switches for Pai Gow Poker hand ranking, with sourced defaults.

Sources (docs/sources.md: [P1], [P8]): the wheel A-2-3-4-5 ranks second-highest in most
Nevada and Atlantic City games and lowest in some rooms (section 0 fact 2, section 1); the joker is
a "bug" in those games and fully wild in some California rooms (section 1); regulations say the
high hand must "outrank" or be "equal to or higher than" the low hand (section 1; section 7,
item 15).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..config_check import check_keys
from ..errors import ProfileError


class Wheel(StrEnum):
    """Where A-2-3-4-5 ranks among straights and straight flushes."""

    SECOND = "second"  # below A-K-Q-J-T, above K-Q-J-T-9 (Nevada / Atlantic City default)
    LOWEST = "lowest"  # below 6-5-4-3-2 (e.g. Palace Casino Biloxi, Kings Card Club)


class JokerMode(StrEnum):
    """What the joker may stand for."""

    BUG = "bug"  # an ace, or any card completing a straight, flush or straight flush
    WILD = "wild"  # any card (some California rooms); five of a kind becomes possible


@dataclass(frozen=True, slots=True)
class PokerRules:
    """How hands rank and when a setting is legal."""

    wheel: Wheel = Wheel.SECOND
    joker: JokerMode = JokerMode.BUG
    # "Equal to or higher" (PA-style regulation, ref section 1): a five-card hand whose pair or top
    # cards equal the two-card hand's is legal, its extra kickers standing behind.  Every
    # published house way splits four of a kind into a pair in front and the same pair behind,
    # which only this reading allows.  False is the literal "must outrank" reading.
    high_may_equal_low: bool = True

    @classmethod
    def from_mapping(cls, data: dict[str, object]) -> PokerRules:
        """Build from a profile table; unknown keys and values are errors naming them."""
        check_keys(data, ("wheel", "joker", "high_may_equal_low"), ProfileError,
                   what="poker rule")
        try:
            wheel = Wheel(str(data.get("wheel", Wheel.SECOND.value)))
            joker = JokerMode(str(data.get("joker", JokerMode.BUG.value)))
        except ValueError as err:
            raise ProfileError(f"bad poker rule value: {err}") from err
        equal = data.get("high_may_equal_low", True)
        if not isinstance(equal, bool):
            raise ProfileError(f"high_may_equal_low must be true or false, not {equal!r}")
        return cls(wheel=wheel, joker=joker, high_may_equal_low=equal)


DEFAULT_RULES = PokerRules()
