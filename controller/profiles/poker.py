"""Table profiles: one TOML file per table type under ``config/profiles/``, validated once.

A profile names the game, the house way, the ranking ruleset, how bets settle (variant and
commission, foul policy, limits, side bets) and the number of positions.  Unknown keys are
errors; a profile that loads is complete, so nothing downstream re-checks it.  This module loads
Pai Gow Poker profiles (``game = "poker"``, the default); ``tile_profile`` loads the tile game's
(``game = "tiles"``) from the same folder.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ..config.files import parse_toml, read_text
from ..config.house_ways import config_dir, load_poker_way
from ..config.locations import config_file, config_files
from ..errors import ConfigError
from ..rules.config_check import check_keys
from ..rules.errors import RulesError
from ..rules.poker.comparison import FoulPolicy
from ..rules.poker.hand_rules import PokerRules
from ..rules.poker.hands import Evaluator
from ..rules.poker.house_way import HouseWayEngine
from ..rules.poker.settlement import TableRules
from .play import PlayMode, TablePlay, parse_play

DEFAULT_PROFILE = "classic"
_KEYS = {"name", "title", "game", "house_way", "positions", "ruleset", "settlement", "play",
         "pot"}
HEADS_UP = 2
"""Positions of a heads-up table: the dealer and one seat (docs/sources.md: [D4])."""
POKER_POSITIONS = (HEADS_UP, 7)
"""A Pai Gow Poker table is heads-up or has the dealer and six player positions."""


@dataclass(frozen=True, slots=True)
class TableProfile:
    """A validated table profile."""

    name: str
    title: str
    game: str
    house_way: str
    positions: int
    ruleset: PokerRules
    settlement: TableRules
    play: TablePlay = field(default_factory=TablePlay)

    def evaluator(self) -> Evaluator:
        """The hand evaluator under this profile's ruleset."""
        return Evaluator(self.ruleset)

    def engine(self, way: str | None = None) -> HouseWayEngine:
        """The house-way engine of this profile (or of another named way, same ruleset)."""
        return HouseWayEngine(load_poker_way(way or self.house_way), self.evaluator())

    @property
    def resets_fouls(self) -> bool:
        """True when a foul is re-set by the house way rather than lost."""
        return self.settlement.foul is FoulPolicy.HOUSE_WAY


def profile_dir() -> Path:
    """The first config folder's table profiles (a casino's own, else the shipped)."""
    return config_dir() / "profiles"


def profile_file(name: str) -> Path:
    """The file a profile name stands for: a ``.toml`` path as given, else ``NAME.toml`` from
    the first config folder holding it (``controller.config.locations``)."""
    return Path(name) if name.endswith(".toml") else config_file("profiles", f"{name}.toml")


def profile_game(path: Path) -> str:
    """The ``game`` a profile file declares (``poker`` when absent or unreadable)."""
    try:
        game = parse_toml(read_text(path, "profile"), str(path)).get("game", "poker")
    except ConfigError:
        return "poker"  # loading it will name the fault
    return game if isinstance(game, str) else "poker"


def profile_names(game: str = "poker") -> list[str]:
    """The names of the shipped table profiles of one game (Pai Gow Poker by default)."""
    return [name for name, path in config_files("profiles").items() if profile_game(path) == game]


def table_section(data: Mapping[str, object], key: str, where: str) -> dict[str, object]:
    """A ``[key]`` table of a profile (empty when absent); ConfigError names a non-table."""
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: [{key}] must be a table, not {value!r}")
    return value


def read_toml(text: str, where: str, keys: set[str]) -> dict[str, object]:
    """Parse a profile's TOML text and refuse keys outside ``keys``, naming the file."""
    data = parse_toml(text, where)
    check_keys(data, keys, ConfigError, where)
    return data


def parse_profile(text: str, where: str) -> TableProfile:
    """Validate a profile's TOML text; every error names the file and the bad key or value."""
    data = read_toml(text, where, _KEYS)
    for key in ("name", "title", "house_way"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise ConfigError(f"{where}: {key!r} must be a non-empty string, got "
                              f"{data.get(key)!r}")
    game = data.get("game", "poker")
    if game == "tiles":
        raise ConfigError(f"{where}: game 'tiles': a tile table's profile, not a Pai Gow Poker "
                          f"one")
    if game != "poker":
        raise ConfigError(f"{where}: game {game!r} is not known; known: ['poker', 'tiles']")
    positions = play_positions(data, where, POKER_POSITIONS, "a Pai Gow Poker table")
    try:
        ruleset = PokerRules.from_mapping(dict(table_section(data, "ruleset", where)))
        settlement = TableRules.from_mapping(table_section(data, "settlement", where))
        load_poker_way(str(data["house_way"]))
    except RulesError as err:
        raise ConfigError(f"{where}: {err}") from err
    play = parse_play(table_section(data, "play", where),
                      table_section(data, "pot", where) if "pot" in data else None, where,
                      "poker")
    if play.rotation and not settlement.variant.player_banking:
        raise ConfigError(f"{where}: [play] banking 'rotation': variant "
                          f"{settlement.variant.name!r} does not allow a player to bank")
    if play.mode is PlayMode.POT and positions != max(POKER_POSITIONS):
        raise ConfigError(f"{where}: positions {positions!r}: home play deals all "
                          f"{max(POKER_POSITIONS)} packets")
    return TableProfile(str(data["name"]), str(data["title"]), "poker", str(data["house_way"]),
                        positions, ruleset, settlement, play)


def play_positions(data: Mapping[str, object], where: str, allowed: tuple[int, int],
                   what: str) -> int:
    """The profile's ``positions``, the dealer's included: heads-up or full (the default)."""
    positions = data.get("positions", allowed[1])
    if isinstance(positions, bool) or positions not in allowed:
        raise ConfigError(f"{where}: positions {positions!r}: {what} has {allowed[1]}, or "
                          f"{allowed[0]} heads-up (the dealer and one seat)")
    assert isinstance(positions, int)
    return positions


@cache
def load_profile(name: str = DEFAULT_PROFILE) -> TableProfile:
    """Load a shipped profile by name, or a profile file by path."""
    path = profile_file(name)
    if not path.is_file():
        raise ConfigError(f"unknown table profile {name!r}; known: {', '.join(profile_names())}")
    profile = parse_profile(read_text(path, "profile"), str(path))
    if path.stem != profile.name:
        raise ConfigError(f"{path}: its name {profile.name!r} differs from the file name")
    return profile
