"""Table variants: what the main game charges, and which dealer hands push every bet.

A variant changes two things only, so one settlement serves them all: the commission on a win and
a push condition on the dealer's hand (docs/sources.md: [P1], [P9]):

* ``classic``: 5 % commission (rate and rounding configurable); player banking allowed.
* ``ez`` (EZ Pai Gow): no commission; every bet pushes when the dealer's high hand is exactly
  queen-high pai gow (no pair, straight or flush, top card a queen).
* ``face-up`` (Face Up Pai Gow): no commission; every bet pushes when the dealer holds ace-high
  pai gow.  Read, as Stones Gambling Hall words it, as a "seven-card ace-high hand": the best
  five-card hand among all seven cards is no-pair ace-high (the joker counts as the ace; a hand
  holding the joker and no pair is ace-high), whatever the setting.  This is the event counted in
  section 4.4 (14,430,780 hands).
* ``nine-high`` (Golden Nugget Commission Free): no commission; every bet pushes when the dealer's
  low hand is 9-high.

The commission-free games forbid player banking (sections 3.3 and 5.4).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from ..config_check import check_keys
from ..errors import ProfileError
from ..money import FIVE_PERCENT, NO_COMMISSION, Commission
from .hands import HIGH_CARD, Evaluator, category_of
from .setting import Setting
from .seven_cards import best_five_rank

QUEEN: Final = 12  # rank values in an evaluator rank run 2..14
ACE: Final = 14
NINE: Final = 9


class PushRule(StrEnum):
    """Which dealer hand pushes every player bet."""

    NONE = "none"
    QUEEN_HIGH = "queen_high"  # high hand exactly queen-high pai gow (EZ)
    ACE_HIGH_SEVEN = "ace_high_seven"  # seven cards no-pair ace-high (Face Up)
    NINE_HIGH_LOW = "nine_high_low"  # low hand 9-high (Golden Nugget)


def _top(rank: int) -> int:
    """The first tie-break field of a rank: the top card of a no-pair hand."""
    return (rank >> 16) & 0xF


@dataclass(frozen=True, slots=True)
class Variant:
    """A main-game variant: its commission, its dealer push condition, whether players bank."""

    name: str
    commission: Commission
    push_rule: PushRule = PushRule.NONE
    player_banking: bool = True

    def dealer_pushes(self, setting: Setting, evaluator: Evaluator) -> bool:
        """True when the dealer's setting pushes every player bet under this variant."""
        if self.push_rule is PushRule.QUEEN_HIGH:
            rank = evaluator.rank5(setting.high)
            return category_of(rank) == HIGH_CARD and _top(rank) == QUEEN
        if self.push_rule is PushRule.ACE_HIGH_SEVEN:
            rank = best_five_rank(setting.cards, evaluator)
            return category_of(rank) == HIGH_CARD and _top(rank) == ACE
        if self.push_rule is PushRule.NINE_HIGH_LOW:
            rank = evaluator.rank2(setting.low)
            return category_of(rank) == HIGH_CARD and _top(rank) == NINE
        return False

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> Variant:
        """Read ``{name, commission}``; a commission table is allowed only where one is charged."""
        check_keys(data, ("name", "commission"), ProfileError, what="variant key")
        base = variant_named(data.get("name", "classic"))
        table = data.get("commission")
        if table is None:
            return base
        if base.commission.free:
            raise ProfileError(f"variant {base.name!r} is commission-free; remove its commission")
        if not isinstance(table, Mapping):
            raise ProfileError(f"variant commission {table!r} must be a table")
        return Variant(base.name, Commission.from_mapping(table), base.push_rule,
                       base.player_banking)


CLASSIC: Final = Variant("classic", FIVE_PERCENT)
VARIANTS: Final[Mapping[str, Variant]] = {
    "classic": CLASSIC,
    "ez": Variant("ez", NO_COMMISSION, PushRule.QUEEN_HIGH, player_banking=False),
    "face-up": Variant("face-up", NO_COMMISSION, PushRule.ACE_HIGH_SEVEN, player_banking=False),
    "nine-high": Variant("nine-high", NO_COMMISSION, PushRule.NINE_HIGH_LOW,
                         player_banking=False),
}


def variant_named(name: object) -> Variant:
    """The built-in variant of that name; ProfileError names an unknown one."""
    if not isinstance(name, str) or name not in VARIANTS:
        raise ProfileError(f"unknown variant {name!r}; known: {list(VARIANTS)}")
    return VARIANTS[name]
