"""The round engine for a table profile by name: ``PokerRound`` or ``TileRound``, as it says."""

from __future__ import annotations

from typing import Any

from ..journal import Journal
from ..profiles.poker import load_profile, profile_file, profile_game
from ..profiles.tiles import load_tile_profile
from .oversight import OversightEngine
from .poker import PokerRound
from .ports import CameraPort, DicePort, ShufflerPort
from .tiles import TileRound


def table_engine(journal: Journal, profile: str, *, shuffler: ShufflerPort, dice: DicePort,
                 camera: CameraPort | None = None, replay: bool = False) -> OversightEngine[Any]:
    """The engine of the profile ``profile`` (a shipped name or a ``.toml`` path); an unknown
    name is a ConfigError naming it.  A tile table takes no shuffler."""
    path = profile_file(profile)
    if path.is_file() and profile_game(path) == "tiles":
        return TileRound(journal, load_tile_profile(profile), dice, camera, replay=replay)
    return PokerRound(journal, load_profile(profile), shuffler, dice, camera, replay=replay)
