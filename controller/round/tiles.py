"""The Pai Gow tiles round: the dealer builds the woodpile; no shuffler, no packets.

Tiles become known as positions set them (or as the dealer enters a hand for the house way);
the engine refuses tiles that could not all come from one set.  Before the deal the dealer may
call a named Pai Gow cut (``cut``, ``controller/rules/tiles/cuts.py``): it is journaled, and the
``woodpile_built`` record, the tile game's deal record, carries it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..journal import Journal, Record
from ..profiles.tiles import TileProfile
from ..rules.tiles.cuts import Cut
from ..rules.tiles.setting import TileSetting
from .acts import Who
from .errors import IllegalActError
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
        """The dealer has washed the tiles and built eight stacks of four: roll next.  The
        record names the cut called for this round, if any."""
        self.verify_build_woodpile(who)
        event: dict[str, Any] = {"type": "woodpile_built", "v": 1}
        cut = self.cut_record()
        if cut is not None:  # the cut record itself comes just before, in the same round
            event["cut"] = {k: v for k, v in cut.payload().items() if k not in ("type", "v")}
        return self._append(event, who.actor, who.role)

    def cut_record(self) -> Record | None:
        """This round's ``cut`` record, or None when no cut was called."""
        state = self.round
        if state is None:
            return None
        return next((r for r in state.records if r.kind == "cut"), None)

    def verify_cut(self, who: Who, cut: str | Cut,
                   options: Mapping[str, str] | None = None) -> Cut:
        """A named cut ([D1] l.29-64), once per round, while betting or once bets are
        closed, before the woodpile is dealt; returns the cut as it would be journaled."""
        self._check("cut", who, Phase.BETTING, Phase.CLOSED)
        done = self.cut_record()
        if done is not None:
            raise IllegalActError("cut", f"the cut {done.payload()['cut']!r} was already called "
                                         f"(record {done.seq})")
        if isinstance(cut, Cut):
            return cut
        return self._rules("cut", lambda: Cut.of(cut, options) if options is not None
                           else Cut.parse(cut))

    def can_cut(self, who: Who, cut: str | Cut, options: Mapping[str, str] | None = None) -> bool:
        """Whether ``cut`` would be accepted."""
        return self._can(lambda: self.verify_cut(who, cut, options))

    def cut(self, who: Who, cut: str | Cut, options: Mapping[str, str] | None = None) -> Record:
        """Record the banker's cut (``cup-say:right,top``, or a name and its options).  No public
        source gives the stacks a cut deals, so it is recorded and shown, and the deal keeps the
        standard count (``effect`` says so in the record)."""
        chosen = self.verify_cut(who, cut, options)
        return self._append({"type": "cut", "v": 1, **chosen.to_json()}, who.actor, who.role)
