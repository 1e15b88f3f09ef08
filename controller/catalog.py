"""Finding and loading the data files under ``config/``: house ways (cards and tiles) and table
profiles."""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from .files import read_text
from .rules.errors import HouseWayError
from .rules.house_way import HouseWayEngine
from .rules.house_way_model import HouseWay
from .rules.poker_eval import Evaluator
from .rules.poker_rules import DEFAULT_RULES, PokerRules
from .rules.tile_hands import DEFAULT_TILE_RULES, TileRules
from .rules.tile_way import TileWayChoice, TileWayEngine
from .rules.tile_way_model import TileWay
from .rules.tiles import Tile


def config_dir() -> Path:
    """The config folder: ``$PAIGOW_CONFIG`` or the repository's ``config/``."""
    override = os.environ.get("PAIGOW_CONFIG")
    return Path(override) if override else Path(__file__).resolve().parents[1] / "config"


def poker_way_dir() -> Path:
    """Where the Pai Gow Poker house ways live."""
    return config_dir() / "house_ways" / "poker"


def poker_way_names() -> list[str]:
    """The names of the shipped Pai Gow Poker house ways."""
    return sorted(p.stem for p in poker_way_dir().glob("*.toml"))


@cache
def load_poker_way(name: str) -> HouseWay:
    """Read and validate one house way by name; an unknown name lists the known ones."""
    path = poker_way_dir() / f"{name}.toml"
    if not path.is_file():
        raise HouseWayError(f"unknown house way {name!r}; known: {', '.join(poker_way_names())}")
    return HouseWay.from_toml(read_text(path, "house way"), name)


def poker_engine(name: str, rules: PokerRules = DEFAULT_RULES) -> HouseWayEngine:
    """A house-way engine for the named way under the given ruleset."""
    return HouseWayEngine(load_poker_way(name), Evaluator(rules))


def tile_way_dir() -> Path:
    """Where the Pai Gow tile house ways live."""
    return config_dir() / "house_ways" / "tiles"


def tile_way_names() -> list[str]:
    """The names of the shipped Pai Gow tile house ways."""
    return sorted(p.stem for p in tile_way_dir().glob("*.toml"))


@cache
def load_tile_way(name: str) -> TileWay:
    """Read and validate one tile house way by name; an unknown name lists the known ones."""
    path = tile_way_dir() / f"{name}.toml"
    if not path.is_file():
        raise HouseWayError(
            f"unknown tile house way {name!r}; known: {', '.join(tile_way_names())}"
        )
    return TileWay.from_toml(read_text(path, "house way"), name)


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
