"""Names to strategies: the shipped tile house ways, the built-in baselines, ``optimal``."""

from __future__ import annotations

from functools import cache
from typing import Final

from controller.config.house_ways import load_tile_way, tile_engine
from controller.rules.errors import RulesError
from controller.rules.tiles.dominoes import Tile
from controller.rules.tiles.hands import TileRules
from controller.rules.tiles.house_way import TileWayEngine

from .strategy import BASELINES, AnalysisError, TileStrategy

OPTIMAL: Final = "optimal"
"""Not a way: the player's best response to the dealer's way, computed per hand."""


BANKER: Final = "banker"
PLAYER: Final = "player"


@cache
def way_engine(name: str, rules: TileRules, side: str = BANKER) -> TileWayEngine:
    """The engine of a shipped tile way for one side: the catalog's cached engine for the
    banker, one cached here for the player (ways with a player column, e.g. luger-optimal)."""
    if side == BANKER:
        return tile_engine(name, rules)
    return TileWayEngine(load_tile_way(name), rules, side)


def house_way_strategy(name: str, rules: TileRules, side: str = BANKER) -> TileStrategy:
    """The shipped tile house way ``name`` (config/house_ways/tiles/) as a strategy, played by
    ``side`` (``banker`` or ``player``: it matters only to ways with side rules).

    This is the one place the analysis meets the tile house-way engine."""
    try:
        engine = way_engine(name, rules, side)
    except RulesError as err:
        raise AnalysisError(f"{err}; built in: {', '.join(BASELINES)}") from err

    def strategy(tiles: tuple[Tile, ...]) -> tuple[int, int]:
        ranked = engine.set_hand(tiles).setting  # memoised per face multiset by the engine
        return ranked.low_rank, ranked.high_rank

    return strategy


def resolve_strategy(name: str, rules: TileRules, side: str = BANKER) -> TileStrategy:
    """A built-in baseline by name, else a shipped tile house way played by ``side``."""
    if name == OPTIMAL:
        raise AnalysisError("'optimal' is the player's best response; it cannot be the dealer's")
    baseline = BASELINES.get(name)
    return baseline(rules) if baseline is not None else house_way_strategy(name, rules, side)


def has_sides(name: str) -> bool:
    """Whether a strategy plays differently for the banker and the player (a shipped way with
    ``side`` rules); baselines and unknown names do not."""
    if name in BASELINES or name == OPTIMAL:
        return False
    try:
        way = load_tile_way(name)
    except RulesError:
        return False  # resolve_strategy names the unknown way
    rules = [*way.exceptions]
    for section in way.sections.values():
        rules += [section.default, *section.unless]
    return any(rule.when.side is not None for rule in rules)
