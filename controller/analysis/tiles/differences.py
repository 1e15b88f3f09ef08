"""Which hands two strategies set differently against one dealer, and what each difference is
worth: the ``--diff`` listing of ``paigow analyze tiles --way DEALER --vs PLAYER``.

The player's strategy (``vs``) is compared with the dealer's way played from the player's seat
(its ``player`` side, or its ``banker`` side when the player banks).  A face class differs when
the two settings' (low, high) ranks differ; a swap of the two tiles of one mixed pair is not a
difference.  Each differing class is scored exactly against every dealer hand its tiles leave,
as ``tiles_odds.enumerate_odds`` scores it, so the gains of all differences add up to the change
in the player's house edge (tested).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from controller.rules.tiles.dominoes import Tile
from controller.rules.tiles.hands import DEFAULT_TILE_RULES, TileRules
from controller.rules.tiles.setting import RankedTileSetting, tile_settings

from ..outcome import DEFAULT_COMMISSION
from ..progress import Progress, Stages
from .classes import tile_classes, weight_matrix
from .odds import MATCHUPS, TileOdds, enumerate_odds
from .strategy import choices_table, strategy_table
from .ways import BANKER, OPTIMAL, PLAYER, resolve_strategy, way_engine


@dataclass(frozen=True, slots=True)
class Difference:
    """One face class the two strategies set differently."""

    hand: tuple[Tile, ...]  # the class's faces, sorted
    hands: int  # physical four-tile hands in the class
    base: RankedTileSetting  # the dealer's way, played from the player's seat
    base_rule: str
    other: RankedTileSetting  # the player's strategy (``vs``)
    other_rule: str
    gain: Fraction  # what playing ``other`` instead of ``base`` adds to the player's expectation,
    # per unit bet, over all 736,281,000 matchups (its share of the house-edge change)


@dataclass(frozen=True, slots=True)
class WayDifferences:
    """The differences between the dealer's way and the player's strategy, with both runs."""

    base: TileOdds  # the player plays the dealer's way
    other: TileOdds  # the player plays ``vs``
    differences: tuple[Difference, ...]  # by gain, largest first

    @property
    def hands(self) -> int:
        """Physical four-tile hands set differently (of 35,960)."""
        return sum(d.hands for d in self.differences)

    @property
    def gain(self) -> Fraction:
        """The total gain: the base run's house edge minus the other's."""
        return sum((d.gain for d in self.differences), Fraction(0))


def _setting(name: str, side: str, rules: TileRules, hand: tuple[Tile, ...],
             choice: int) -> tuple[RankedTileSetting, str]:
    if name == OPTIMAL:
        return tile_settings(hand, rules)[choice], OPTIMAL
    found = way_engine(name, rules, side).set_hand(hand)
    return found.setting, found.rule


def way_differences(
    way: str,
    vs: str,
    *,
    banking: bool = False,
    rules: TileRules = DEFAULT_TILE_RULES,
    commission: Fraction = DEFAULT_COMMISSION,
    progress: Progress | None = None,
) -> WayDifferences:
    """Every face class that ``vs`` sets differently from ``way`` (both from the player's seat),
    each with its exact gain against the dealer playing ``way``."""
    classes = tile_classes()
    side, dealer_side = (BANKER, PLAYER) if banking else (PLAYER, BANKER)
    stages = Stages(progress, (4, 4, 2, 1))
    base_way = resolve_strategy(way, rules, side)
    other_way = None if vs == OPTIMAL else resolve_strategy(vs, rules, side)
    dealer = strategy_table(classes, resolve_strategy(way, rules, dealer_side), rules)
    weight_matrix(classes, stages.stage(0))
    base = strategy_table(classes, base_way, rules)
    if other_way is None:
        choices, _ = choices_table(classes, rules)
        best = enumerate_odds(choices, dealer, banking=banking, commission=commission,
                              classes=classes, progress=stages.stage(1))
        picked = best.choice.astype(np.intp)
        other = choices[np.arange(len(classes)), picked][:, None, :]
    else:
        picked = np.zeros(len(classes), dtype=np.intp)
        other = strategy_table(classes, other_way, rules, stages.stage(1))
    base_odds = enumerate_odds(base, dealer, banking=banking, commission=commission,
                               classes=classes, progress=stages.stage(2))
    other_odds = enumerate_odds(other, dealer, banking=banking, commission=commission,
                                classes=classes, progress=stages.stage(3))
    rows = np.flatnonzero((base != other).any(axis=(1, 2)))
    keep = 1 - commission
    differences = []
    for row in rows:
        hand = classes.hands[row]
        count = int(classes.multiplicity[row])
        gain = Fraction(count) * (keep * int(other_odds.win[row] - base_odds.win[row])
                                  - int(other_odds.loss[row] - base_odds.loss[row])) / MATCHUPS
        base_setting, base_rule = _setting(way, side, rules, hand, 0)
        other_setting, other_rule = _setting(vs, side, rules, hand, int(picked[row]))
        differences.append(Difference(hand, count, base_setting, base_rule, other_setting,
                                      other_rule, gain))
    differences.sort(key=lambda d: (-d.gain, d.hand))
    return WayDifferences(
        TileOdds(way, way, banking, commission, base_odds.outcome()),
        TileOdds(way, vs, banking, commission, other_odds.outcome()),
        tuple(differences),
    )


__all__ = ["Difference", "WayDifferences", "way_differences"]
