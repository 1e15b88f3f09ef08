"""Tile-table profiles: ``game = "tiles"`` files under ``config/profiles/``, validated once.

A tile profile names the house way, the ranking ruleset (``gee_joon_tie``: how a single Gee Joon
tile ranks in a tie, docs/sources.md: [T8]), how the main wager
settles (commission with its rounding, foul policy, limits) and the eight positions.  Unknown
keys are errors, as for the Pai Gow Poker profiles (``profile``); a tile table takes no side bets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from ..config.files import read_text
from ..config.house_ways import load_tile_way
from ..errors import ConfigError
from ..rules.bank import BankRules
from ..rules.comparison import FoulPolicy
from ..rules.dice import TILE_POSITIONS
from ..rules.errors import RulesError
from ..rules.tiles.hands import TileRules
from .play import TablePlay, parse_play
from .poker import HEADS_UP, play_positions, profile_file, profile_names, read_toml, table_section

DEFAULT_TILE_PROFILE = "tiles-classic"
_KEYS = {"name", "title", "game", "house_way", "positions", "ruleset", "settlement", "play"}
TILE_TABLE_POSITIONS = (HEADS_UP, TILE_POSITIONS)
"""A tile table is heads-up or has all eight positions."""


@dataclass(frozen=True, slots=True)
class TileProfile:
    """A validated tile-table profile."""

    name: str
    title: str
    house_way: str
    ruleset: TileRules
    settlement: BankRules
    positions: int = TILE_POSITIONS
    game: str = "tiles"
    play: TablePlay = field(default_factory=TablePlay)

    @property
    def resets_fouls(self) -> bool:
        """True when a foul is re-set by the house way rather than lost."""
        return self.settlement.foul is FoulPolicy.HOUSE_WAY


def tile_profile_names() -> list[str]:
    """The names of the shipped tile-table profiles."""
    return profile_names("tiles")


def parse_tile_profile(text: str, where: str) -> TileProfile:
    """Validate a tile profile's TOML text; every error names the file and the bad key or value."""
    data = read_toml(text, where, _KEYS)
    if data.get("game") != "tiles":
        raise ConfigError(f"{where}: game {data.get('game')!r}: a tile profile says "
                          f"game = 'tiles'")
    for key in ("name", "title", "house_way"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise ConfigError(f"{where}: {key!r} must be a non-empty string, got "
                              f"{data.get(key)!r}")
    positions = play_positions(data, where, TILE_TABLE_POSITIONS, "a Pai Gow tiles table")
    try:
        ruleset = TileRules.from_mapping(table_section(data, "ruleset", where))
        settlement = BankRules.from_mapping(table_section(data, "settlement", where))
        load_tile_way(str(data["house_way"]))
    except RulesError as err:
        raise ConfigError(f"{where}: {err}") from err
    play = parse_play(table_section(data, "play", where), None, where, "tiles")
    return TileProfile(str(data["name"]), str(data["title"]), str(data["house_way"]), ruleset,
                       settlement, positions, play=play)


@cache
def load_tile_profile(name: str = DEFAULT_TILE_PROFILE) -> TileProfile:
    """Load a shipped tile profile by name, or a profile file by path."""
    path = profile_file(name)
    if not path.is_file():
        raise ConfigError(f"unknown tile profile {name!r}; known: "
                          f"{', '.join(tile_profile_names())}")
    profile = parse_tile_profile(read_text(path, "profile"), str(path))
    if path.stem != profile.name:
        raise ConfigError(f"{path}: its name {profile.name!r} differs from the file name")
    return profile
