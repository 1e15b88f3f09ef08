"""The Pai Gow tiles round: the dealer builds the woodpile; no shuffler, no packets.

Tiles become known as positions set them (or as the dealer enters a hand for the house way);
the engine refuses tiles that could not all come from one set.
"""

from __future__ import annotations

from ..journal import Journal, Record
from ..rules.tile_setting import TileSetting
from ..tile_profile import TileProfile
from .acts import Who
from .games import TileGame
from .oversight import OversightEngine
from .ports import CameraPort, DicePort
from .state import Phase


class TileRound(OversightEngine[TileSetting]):
    """The round engine of a Pai Gow tiles table."""

    def __init__(self, journal: Journal, profile: TileProfile, dice: DicePort,
                 camera: CameraPort | None = None, *, replay: bool = False) -> None:
        super().__init__(journal, TileGame(profile), dice, camera, replay=replay)

    def verify_build_woodpile(self, who: Who) -> None:
        """The woodpile is built once bets are closed."""
        self._check("build_woodpile", who, Phase.CLOSED)

    def can_build_woodpile(self, who: Who) -> bool:
        """Whether ``build_woodpile`` would be accepted."""
        return self._can(lambda: self.verify_build_woodpile(who))

    def build_woodpile(self, who: Who) -> Record:
        """The dealer has washed the tiles and built eight stacks of four: roll next."""
        self.verify_build_woodpile(who)
        return self._append({"type": "woodpile_built", "v": 1}, who.actor, who.role)
