"""Names to strategies: the shipped tile house ways, the built-in baselines, ``optimal``."""

from __future__ import annotations

from typing import Final

from controller.catalog import tile_engine
from controller.rules.errors import RulesError
from controller.rules.tile_hands import TileRules
from controller.rules.tiles import Tile

from .strategy import BASELINES, AnalysisError, TileStrategy

OPTIMAL: Final = "optimal"
"""Not a way: the player's best response to the dealer's way, computed per hand."""


def house_way_strategy(name: str, rules: TileRules) -> TileStrategy:
    """The shipped tile house way ``name`` (config/house_ways/tiles/) as a strategy.

    This is the one place the analysis meets the tile house-way engine."""
    try:
        engine = tile_engine(name, rules)
    except RulesError as err:
        raise AnalysisError(f"{err}; built in: {', '.join(BASELINES)}") from err

    def strategy(tiles: tuple[Tile, ...]) -> tuple[int, int]:
        ranked = engine.set_hand(tiles).setting  # memoised per face multiset by the engine
        return ranked.low_rank, ranked.high_rank

    return strategy


def resolve_strategy(name: str, rules: TileRules) -> TileStrategy:
    """A built-in baseline by name, else a shipped tile house way."""
    if name == OPTIMAL:
        raise AnalysisError("'optimal' is the player's best response; it cannot be the dealer's")
    baseline = BASELINES.get(name)
    return baseline(rules) if baseline is not None else house_way_strategy(name, rules)
