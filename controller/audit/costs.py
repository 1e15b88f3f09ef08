"""What a dealer's setting cost the house compared with the house way's setting of the same hand.

Two figures.  The *realized* cost (in ``rounds``) re-settles the round as it was played with the
house way's setting in place of the dealer's.  The *expected* cost here asks what the choice is
worth before anyone's hand is known: the dealer's pieces are fixed, each opponent's hand is
drawn from the pieces the dealer does not hold and set by the house way, and both dealer
settings meet the same hands (the rules core's foul policy, variant push and commission
apply).  Tiles are exact: every four of the 28 other tiles (20,475 hands, grouped by faces).
Cards are simulated: ``samples`` hands of seven from the 46 other cards, from a generator
seeded by the caller (the audit uses the round's first record hash and the exposure record's
number, so a report is repeatable), and the result carries the half-width of its 95%
confidence interval (1.96 standard errors of the paired differences) and Hoeffding's
distribution-free 95% bound (each difference lies within twice the stakes either way).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from ..config.house_ways import tile_engine
from ..profiles.poker import load_profile
from ..profiles.tiles import load_tile_profile
from ..rules.bank import BankRules
from ..rules.comparison import FoulPolicy, Outcome, Played, compare_played, play
from ..rules.money import Commission
from ..rules.poker.cards import full_deck
from ..rules.poker.comparison import PokerHands
from ..rules.poker.setting import Setting
from ..rules.tiles.comparison import TileHands
from ..rules.tiles.dominoes import full_set
from ..rules.tiles.setting import TileSetting
from .errors import AuditInputError

DEFAULT_SAMPLES = 4000
"""Opponent hands simulated per card deviation (the error shrinks as 1/sqrt(samples))."""
Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Table:
    """One profile's rules for a seat against the bank, and its house way for any hand."""

    game: str
    rules: Any  # PokerHands or TileHands: the rules core's SettingRules
    policy: FoulPolicy
    reset: Callable[[Any], Any] | None
    pushes: Callable[[Any], bool] | None
    commission: Commission
    house_way: Callable[[Sequence[str]], Any]
    universe: tuple[str, ...]  # every piece of a deck or set, duplicates included
    hand_size: int


@cache
def table_rules(game: str, profile: str) -> Table:
    """The rules of profile ``profile`` of ``game`` (``poker`` or ``tiles``)."""
    if game == "poker":
        prof = load_profile(profile)
        evaluator = prof.evaluator()
        engine = prof.engine()
        variant = prof.settlement.variant

        def set_cards(pieces: Sequence[str]) -> Setting:
            return engine.set_hand(list(pieces)).setting.setting

        bank: BankRules = prof.settlement.bank
        return Table("poker", PokerHands(evaluator), bank.foul,
                     (lambda s: set_cards([str(c) for c in s.cards]))
                     if prof.resets_fouls else None,
                     lambda s: variant.dealer_pushes(s, evaluator), bank.commission, set_cards,
                     tuple(str(c) for c in full_deck()), 7)
    if game == "tiles":
        tprof = load_tile_profile(profile)
        tiles = tile_engine(tprof.house_way, tprof.ruleset)

        def set_tiles(pieces: Sequence[str]) -> TileSetting:
            return tiles.set_hand(list(pieces)).setting.setting

        return Table("tiles", TileHands(tprof.ruleset), tprof.settlement.foul,
                     (lambda s: set_tiles([str(t) for t in s.tiles]))
                     if tprof.resets_fouls else None,
                     None, tprof.settlement.commission, set_tiles,
                     tuple(str(t) for t in full_set()), 4)
    raise AuditInputError(f"game {game!r} is not 'poker' or 'tiles'")


@dataclass(frozen=True, slots=True)
class Stake:
    """A wager the dealer's hand plays: the house as the bank against a seat, or the house's
    own wager against a player's bank (``house_banks`` False)."""

    wager: int
    house_banks: bool = True


@dataclass(frozen=True, slots=True)
class ExpectedCost:
    """The expected cost to the house in cents (positive: the dealer's setting lost money)."""

    cents: float
    error_cents: float  # 0.0 when exact; else the half-width of the 95% confidence interval
    hands: int  # opponent hands weighed (enumerated, or simulated)
    exact: bool
    staked: int  # cents the dealer's hand played for
    bound_cents: float = 0.0  # 0.0 when exact; else Hoeffding's distribution-free 95% bound

    @property
    def method(self) -> str:
        """How the figure was reached, in words."""
        if self.exact:
            return f"exact over {self.hands:,} opponent hands"
        return (f"simulation of {self.hands:,} opponent hands, 95% interval "
                f"±{self.error_cents:.2f} cents (at worst ±{self.bound_cents:.2f})")


def _value(outcome: Outcome, stake: Stake, commission: Commission) -> int:
    """The house's result in cents on one stake, from the seat's outcome against the bank."""
    w = stake.wager
    if stake.house_banks:
        if outcome is Outcome.WIN:
            return -(w - commission.commission_on(w))
        return w if outcome is Outcome.LOSS else 0
    # The house plays position 1 against a player's bank and pays no commission there; when it
    # loses, the bank's win pays the house its commission (counted here as if the house's
    # wager were the bank's only action: the bank's commission is on its net over all seats).
    if outcome is Outcome.LOSS:
        return -(w - commission.commission_on(w))
    return w if outcome is Outcome.WIN else 0


def _bank_played(table: Table, setting: Any) -> tuple[Played[Any], bool]:
    played = play(setting, table.rules, table.policy, table.reset)
    pushes = (not played.fouled and table.pushes is not None and table.pushes(played.setting))
    return played, pushes


def _outcome(table: Table, dealer: tuple[Played[Any], bool], other: Any,
             house_banks: bool) -> Outcome:
    """The seat's outcome against the bank (the seat is the opponent or the house)."""
    other_played = play(other, table.rules, table.policy, table.reset)
    if house_banks:
        return compare_played(2, other_played, dealer[0], table.rules,
                              bank_pushes=dealer[1]).outcome
    pushes = table.pushes is not None and not other_played.fouled \
        and table.pushes(other_played.setting)
    return compare_played(1, dealer[0], other_played, table.rules, bank_pushes=pushes).outcome


def _diff(table: Table, actual: tuple[Played[Any], bool], house: tuple[Played[Any], bool],
          other: Any, stakes: Sequence[Stake]) -> int:
    """House-way result minus actual result, summed over the stakes, against one hand."""
    total = 0
    for banks in (True, False):
        group = [s for s in stakes if s.house_banks is banks]
        if not group:
            continue
        with_house = _outcome(table, house, other, banks)
        with_actual = _outcome(table, actual, other, banks)
        if with_house is not with_actual:
            total += sum(_value(with_house, s, table.commission)
                         - _value(with_actual, s, table.commission) for s in group)
    return total


def _others(table: Table, pieces: Sequence[str]) -> list[str]:
    left = Counter(table.universe)
    left.subtract(pieces)
    if any(n < 0 for n in left.values()):
        raise AuditInputError(f"hand {' '.join(pieces)!r} holds pieces no "
                              f"{'deck' if table.game == 'poker' else 'set'} has")
    return sorted(left.elements())


def expected_cost(table: Table, pieces: Sequence[str], actual: Any, house_way: Any,
                  stakes: Sequence[Stake], *, samples: int = DEFAULT_SAMPLES,
                  seed: int = 0) -> ExpectedCost:
    """The expected cost of playing ``actual`` instead of ``house_way`` with ``pieces``."""
    staked = sum(s.wager for s in stakes)
    if actual == house_way or not stakes:
        return ExpectedCost(0.0, 0.0, 0, True, staked)
    others = _others(table, pieces)
    act, hw = _bank_played(table, actual), _bank_played(table, house_way)
    if table.game == "tiles":
        groups = Counter(tuple(sorted(c)) for c in itertools.combinations(others,
                                                                          table.hand_size))
        total = Fraction(0)
        for hand, weight in groups.items():
            total += weight * _diff(table, act, hw, table.house_way(hand), stakes)
        hands = sum(groups.values())
        return ExpectedCost(float(total / hands), 0.0, hands, True, staked)
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 2:
        raise AuditInputError(f"samples {samples!r} must be a whole number >= 2")
    rng = random.Random(seed)
    diffs = [_diff(table, act, hw, table.house_way(rng.sample(others, table.hand_size)),
                   stakes) for _ in range(samples)]
    mean = sum(diffs) / samples
    variance = sum((d - mean) ** 2 for d in diffs) / (samples - 1)
    # Each difference lies in [-2 * staked, 2 * staked]: Hoeffding bounds the error of the mean
    # with 95% confidence whatever the distribution.
    bound = 4 * staked * math.sqrt(math.log(2 / 0.05) / (2 * samples))
    return ExpectedCost(mean, Z95 * math.sqrt(variance / samples), samples, False, staked,
                        bound)
