"""Strategies as tables: each face class's setting(s) as small comparable rank codes.

A strategy is any callable from four tiles to the ``(low_rank, high_rank)`` of the setting it
plays, ranks as ``controller.rules.tiles.hands.rank_hand`` gives them. The tables turn those ranks
into dense codes in which every 0-0 hand is the same code, so "the player's hand beats the
banker's" is plain ``>``: equal codes (copies, and any 0-0) are the banker's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from typing import Final

import numpy as np
import numpy.typing as npt

from controller.errors import ControllerError
from controller.rules.tiles.dominoes import FACES, Tile
from controller.rules.tiles.hands import DEFAULT_TILE_RULES, TileRules, rank_hand
from controller.rules.tiles.setting import RankedTileSetting, tile_settings

from ..progress import Progress
from .classes import TileClasses

TileStrategy = Callable[[tuple[Tile, ...]], tuple[int, int]]
"""Four tiles -> the (low_rank, high_rank) of the setting played."""

CodeArray = npt.NDArray[np.int16]
_POINTS_LIMIT: Final = 1 << 8  # ranks below this are points hands; their zero is every 0-0


class AnalysisError(ControllerError, ValueError):
    """A strategy that cannot be analysed: an illegal setting, an unknown rank or way."""


@dataclass(frozen=True, slots=True, eq=False)
class RankCodes:
    """Dense codes for the two-tile ranks of one ruleset; every 0-0 shares code 0."""

    by_rank: dict[int, int]

    def code(self, rank: int) -> int:
        """The code of a rank; an unknown rank is an AnalysisError naming it."""
        try:
            return self.by_rank[_fold(rank)]
        except KeyError as err:
            raise AnalysisError(f"rank {rank!r} is not a two-tile hand's rank") from err


def _fold(rank: int) -> int:
    # A 0-0 hand's rank still holds its high tile; every 0-0 is a copy, so drop it.
    return 0 if rank < _POINTS_LIMIT else rank


@cache
def rank_codes(rules: TileRules = DEFAULT_TILE_RULES) -> RankCodes:
    """Codes for every two-tile hand's rank under ``rules``, in rank order."""
    ranks = {_fold(rank_hand((a, b), rules))
             for a, b in combinations_with_replacement(FACES, 2)}
    return RankCodes({rank: code for code, rank in enumerate(sorted(ranks))})


def strategy_table(classes: TileClasses, strategy: TileStrategy,
                   rules: TileRules = DEFAULT_TILE_RULES,
                   progress: Progress | None = None) -> CodeArray:
    """(N, 1, 2): the one setting a fixed strategy plays for each class, as (low, high) codes."""
    codes = rank_codes(rules)
    table = np.empty((len(classes), 1, 2), dtype=np.int16)
    for i, hand in enumerate(classes.hands):
        low, high = strategy(hand)
        if high < low:
            raise AnalysisError(f"strategy sets {' '.join(map(str, hand))!r} with the high hand "
                                f"below the low (ranks {low!r} > {high!r})")
        table[i, 0] = codes.code(low), codes.code(high)
        if progress is not None and i % 512 == 511:
            progress(i + 1, len(classes))
    return table


def choices_table(classes: TileClasses, rules: TileRules = DEFAULT_TILE_RULES,
                  progress: Progress | None = None) -> tuple[CodeArray, npt.NDArray[np.int8]]:
    """(N, 3, 2) codes of every legal setting of each class, and how many each has (1..3).

    Classes with fewer than three distinct settings repeat their first, which changes no best
    choice (the first of equal scores is kept)."""
    codes = rank_codes(rules)
    table = np.empty((len(classes), 3, 2), dtype=np.int16)
    sizes = np.empty(len(classes), dtype=np.int8)
    for i, hand in enumerate(classes.hands):
        settings = tile_settings(hand, rules)
        sizes[i] = len(settings)
        for s in range(3):
            ranked = settings[s] if s < len(settings) else settings[0]
            table[i, s] = codes.code(ranked.low_rank), codes.code(ranked.high_rank)
        if progress is not None and i % 512 == 511:
            progress(i + 1, len(classes))
    return table, sizes


def from_setting(choose: Callable[[tuple[Tile, ...]], RankedTileSetting]) -> TileStrategy:
    """A strategy from anything that picks a ranked setting for four tiles."""

    def strategy(tiles: tuple[Tile, ...]) -> tuple[int, int]:
        ranked = choose(tiles)
        return ranked.low_rank, ranked.high_rank

    return strategy


def max_high(rules: TileRules = DEFAULT_TILE_RULES) -> TileStrategy:
    """The legal setting with the highest high hand (then the highest low): a plain baseline."""
    return from_setting(
        lambda tiles: max(tile_settings(tiles, rules), key=lambda s: (s.high_rank, s.low_rank)))


def max_low(rules: TileRules = DEFAULT_TILE_RULES) -> TileStrategy:
    """The legal setting with the highest low hand (then the highest high): a plain baseline."""
    return from_setting(
        lambda tiles: max(tile_settings(tiles, rules), key=lambda s: (s.low_rank, s.high_rank)))


BASELINES: Final[dict[str, Callable[[TileRules], TileStrategy]]] = {
    "max-high": max_high,
    "max-low": max_low,
}
"""Built-in strategies that need no house-way file; the names are not casino ways."""

