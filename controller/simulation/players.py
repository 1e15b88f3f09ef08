"""The simulated people at the table (``paigow demo``, tests): players who bet and set, a
dealer who sometimes strays; they are what ``controller.table.people`` asks for.

Players bet within the table limits and set their hands mostly by the house way, sometimes
another legal way, now and then a foul; the dealer sets by the house way except at a
configurable deviation rate.  So a demo always has deviations, fouls and alerts to show.
Draws come from a seeded ``random.Random`` (demo, tests) or ``secrets.SystemRandom``.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from ..config.house_ways import tile_engine
from ..profiles.poker import TableProfile
from ..profiles.tiles import TileProfile
from ..rules.poker.cards import parse_cards
from ..rules.poker.setting import all_settings
from ..rules.seat import TableLimits
from ..rules.tiles.dominoes import parse_tiles
from ..rules.tiles.setting import TileSetting, tile_settings
from ..table.errors import TableError
from ..table.people import Choice, Decision, Options, Setter


class HabitsError(TableError, ValueError):
    """A rate outside 0..1, or rates that add up to more than 1; the message names it."""


@dataclass(frozen=True, slots=True)
class Habits:
    """How often players stray or foul, how often the dealer strays, how full the table is."""

    player_other_rate: float = 0.15
    foul_rate: float = 0.03
    deviation_rate: float = 0.1
    vacancy_rate: float = 0.2
    bank_rate: float = 0.3  # banking rotation: how often the player offered the bank takes it
    fortune_rate: float = 0.25  # how often a seated player adds a Fortune bet, where it is taken

    def __post_init__(self) -> None:
        for name in ("player_other_rate", "foul_rate", "deviation_rate", "vacancy_rate",
                     "bank_rate", "fortune_rate"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) \
                    or not 0 <= value <= 1:
                raise HabitsError(f"{name.replace('_', ' ')} {value!r} must be between 0 and 1")
        if self.player_other_rate + self.foul_rate > 1:
            raise HabitsError(f"player other rate {self.player_other_rate!r} and foul rate "
                              f"{self.foul_rate!r} add up to more than 1")


class PokerSetter:
    """The 21 splits of seven cards under a card profile and its house way."""

    def __init__(self, profile: TableProfile) -> None:
        self._engine = profile.engine()
        self._evaluator = self._engine.evaluator

    def options(self, pieces: Sequence[str]) -> Options:
        """House way, other legal splits and fouling splits of seven cards."""
        cards = parse_cards(list(pieces), 7, what="hand")
        way = str(self._engine.set_hand(list(cards)).setting.setting)
        ranked = all_settings(cards, self._evaluator)
        others = tuple(sorted({str(r.setting) for r in ranked if r.legal} - {way}))
        fouls = tuple(sorted({str(r.setting) for r in ranked if not r.legal}))
        return Options(way, others, fouls)


class TileSetter:
    """The (at most three) splits of four tiles, each also turned around as a foul."""

    def __init__(self, profile: TileProfile) -> None:
        self._rules = profile.ruleset
        self._engine = tile_engine(profile.house_way, profile.ruleset)

    def options(self, pieces: Sequence[str]) -> Options:
        """House way, other legal splits, and splits with the better hand put low."""
        tiles = parse_tiles(list(pieces), 4, what="hand")
        way = str(self._engine.set_hand(list(tiles)).setting.setting)
        ranked = tile_settings(tiles, self._rules)
        others = tuple(sorted({str(r.setting) for r in ranked} - {way}))
        fouls = tuple(sorted({str(TileSetting.of(r.setting.high, r.setting.low))
                              for r in ranked if r.high_rank > r.low_rank}))
        return Options(way, others, fouls)


def make_rng(seed: int | None) -> random.Random:
    """Seeded for a repeatable demo or test, else the operating system's ``secrets``."""
    return random.Random(seed) if seed is not None else secrets.SystemRandom()


class SimPlayers:
    """The players at positions 2..N: who sits, what they bet, how they set."""

    def __init__(self, setter: Setter, limits: TableLimits, habits: Habits,
                 rng: random.Random) -> None:
        self.setter = setter
        self.limits = limits
        self.habits = habits
        self.rng = rng

    def bets(self, positions: Sequence[int]) -> dict[int, int]:
        """Wagers in cents by position (never empty): multiples of the minimum, within limits."""
        seated = [p for p in positions if self.rng.random() >= self.habits.vacancy_rate]
        if not seated:
            seated = [self.rng.choice(list(positions))]
        steps = (1, 1, 2, 2, 3, 5, 10, 20)
        return {p: min(self.limits.max_bet, self.limits.min_bet * self.rng.choice(steps))
                for p in seated}

    def fortunes(self, positions: Sequence[int]) -> dict[int, int]:
        """Fortune bets in cents by position, for some of ``positions``: within the limits."""
        steps = (1, 1, 1, 2, 5)
        return {p: min(self.limits.fortune_max, self.limits.fortune_min * self.rng.choice(steps))
                for p in positions if self.rng.random() < self.habits.fortune_rate}

    def takes_bank(self) -> bool:
        """Whether the player offered the bank (banking rotation) takes it."""
        return self.rng.random() < self.habits.bank_rate

    def bank_amount(self, positions: int) -> int:
        """A bank that covers the largest wager at every other position, in cents."""
        return self.limits.max_bet * (positions - 1)

    def decide(self, pieces: Sequence[str]) -> Decision:
        """Mostly the house way; sometimes another legal setting; now and then a foul."""
        options = self.setter.options(pieces)
        draw = self.rng.random()
        if draw < self.habits.foul_rate and options.fouls:
            return Decision(self.rng.choice(options.fouls), Choice.FOUL)
        if draw < self.habits.foul_rate + self.habits.player_other_rate and options.others:
            return Decision(self.rng.choice(options.others), Choice.OTHER)
        return Decision(options.house_way, Choice.HOUSE_WAY)


class SimDealer:
    """The dealer: sets the house hand by the house way, except at the deviation rate."""

    def __init__(self, setter: Setter, habits: Habits, rng: random.Random) -> None:
        self.setter = setter
        self.habits = habits
        self.rng = rng

    def decide(self, pieces: Sequence[str]) -> Decision:
        """The house way, or (at the deviation rate) another legal setting when one exists."""
        options = self.setter.options(pieces)
        if options.others and self.rng.random() < self.habits.deviation_rate:
            return Decision(self.rng.choice(options.others), Choice.OTHER)
        return Decision(options.house_way, Choice.HOUSE_WAY)


__all__ = ["Choice", "Decision", "Habits", "HabitsError", "Options", "PokerSetter", "Setter",
           "SimDealer", "SimPlayers", "TileSetter", "make_rng"]
