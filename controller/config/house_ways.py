"""Finding and loading the house ways (cards and tiles) among the config folders
(``controller.config.locations``: a casino's own, then the shipped data)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path

from ..rules.errors import HouseWayError
from ..rules.poker.hand_rules import DEFAULT_RULES, PokerRules
from ..rules.poker.hands import Evaluator
from ..rules.poker.house_way import HouseWayEngine
from ..rules.poker.house_way_model import HouseWay
from ..rules.tiles.dominoes import Tile
from ..rules.tiles.hands import DEFAULT_TILE_RULES, TileRules
from ..rules.tiles.house_way import TileWayChoice, TileWayEngine
from ..rules.tiles.house_way_model import TileWay
from .files import read_text
from .locations import config_dirs, config_files


def config_dir() -> Path:
    """The first config folder searched: the casino's own (``--config``, ``$PAIGOW_CONFIG``),
    else the shipped data (``controller.config.locations``)."""
    return config_dirs()[0]


def poker_way_dir() -> Path:
    """The first config folder's Pai Gow Poker house ways."""
    return config_dir() / "house_ways" / "poker"


def poker_way_files() -> dict[str, Path]:
    """The Pai Gow Poker house ways by name, a casino's own before the shipped ones."""
    return config_files("house_ways", "poker")


def poker_way_names() -> list[str]:
    """The names of the Pai Gow Poker house ways (shipped and the casino's own)."""
    return list(poker_way_files())


def poker_way_file(name: str) -> Path:
    """The file of one Pai Gow Poker house way; an unknown name lists the known ones."""
    path = poker_way_files().get(name)
    if path is None:
        raise HouseWayError(f"unknown house way {name!r}; known: {', '.join(poker_way_names())}")
    return path


@cache
def load_poker_way(name: str) -> HouseWay:
    """Read and validate one house way by name; an unknown name lists the known ones."""
    return HouseWay.from_toml(read_text(poker_way_file(name), "house way"), name)


def poker_engine(name: str, rules: PokerRules = DEFAULT_RULES) -> HouseWayEngine:
    """A house-way engine for the named way under the given ruleset."""
    return HouseWayEngine(load_poker_way(name), Evaluator(rules))


def tile_way_dir() -> Path:
    """The first config folder's Pai Gow tile house ways."""
    return config_dir() / "house_ways" / "tiles"


def tile_way_files() -> dict[str, Path]:
    """The Pai Gow tile house ways by name, a casino's own before the shipped ones."""
    return config_files("house_ways", "tiles")


def tile_way_names() -> list[str]:
    """The names of the Pai Gow tile house ways (shipped and the casino's own)."""
    return list(tile_way_files())


def tile_way_file(name: str) -> Path:
    """The file of one tile house way; an unknown name lists the known ones."""
    path = tile_way_files().get(name)
    if path is None:
        raise HouseWayError(
            f"unknown tile house way {name!r}; known: {', '.join(tile_way_names())}"
        )
    return path


@cache
def load_tile_way(name: str) -> TileWay:
    """Read and validate one tile house way by name; an unknown name lists the known ones."""
    return TileWay.from_toml(read_text(tile_way_file(name), "house way"), name)


@cache
def tile_engine(name: str, rules: TileRules = DEFAULT_TILE_RULES,
                side: str = "banker") -> TileWayEngine:
    """The tile house-way engine for the named way under the given ruleset, for the banker's
    or the player's column of the way (one per triple, so its per-hand cache is shared)."""
    return TileWayEngine(load_tile_way(name), rules, side=side)


def tile_way_table(
    name: str, rules: TileRules = DEFAULT_TILE_RULES
) -> Mapping[tuple[Tile, ...], TileWayChoice]:
    """The named way's choice for every face multiset (8,130 keys, each ``tuple(sorted(tiles))``),
    computed once: the fast path for exact odds enumeration."""
    return tile_engine(name, rules).table()
