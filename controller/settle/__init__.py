"""Settling a round given as a file (``paigow settle ROUND.json``), for both games.

One front door: ``load_round`` reads a round file's JSON and hands it to the reader of its
kind, ``settle_round`` settles it, ``settlement_json`` and ``settlement_text`` report it.
The kinds are a Pai Gow Poker round against a bank (``poker``), a home-play deal under a pot
profile (``pot``) and a Pai Gow tiles round (``tiles``, ``"game": "tiles"``); ``reader`` reads
what they share (money, positions, hands, bets, the bank) one way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from ..profiles.poker import DEFAULT_PROFILE, load_profile
from ..rules.bank import Settlement
from ..rules.errors import NotationError
from ..rules.poker.home_pot import PotResult
from ..rules.poker.setting import Setting
from ..rules.tiles.setting import TileSetting
from . import poker, pot, tiles
from .reader import load_json_round

RoundFile = poker.RoundInput | pot.PotRoundInput | tiles.TileRoundInput
"""A validated round of any kind."""
Result = Settlement[Setting] | PotResult[Setting] | Settlement[TileSetting]
"""What settling one gives."""


def read_round(data: Mapping[str, Any]) -> RoundFile:
    """Validate a round mapping by its kind; errors name the offending key, position or piece."""
    if not isinstance(data, Mapping):
        raise NotationError(f"a round must be a JSON object, not {data!r}")
    game = data.get("game", "poker")
    if game == "tiles":
        return tiles.read_tile_round(data)
    if game != "poker":
        raise NotationError(f"game {game!r}: a round is of 'poker' (the default) or 'tiles'")
    profile = load_profile(str(data.get("profile", DEFAULT_PROFILE)))
    if profile.play.pot is not None:
        return pot.read_pot_round(data, profile)
    return poker.read_round(data, profile)


def load_round(text: str, where: str) -> RoundFile:
    """Parse a round file's JSON text; any error names the file."""
    return load_json_round(text, where, read_round)


def settle_round(round_: RoundFile) -> Result:
    """Settle a validated round under its profile."""
    if isinstance(round_, tiles.TileRoundInput):
        return tiles.settle_tile_round(round_)
    if isinstance(round_, pot.PotRoundInput):
        return pot.settle_pot_round(round_)
    return poker.settle_round(round_)


def settlement_json(result: Result, round_: RoundFile) -> dict[str, object]:
    """The ``--json`` shape of ``paigow settle`` for the round's kind (money in cents)."""
    if isinstance(round_, tiles.TileRoundInput):
        return tiles.tile_settlement_json(cast(Settlement[TileSetting], result), round_)
    if isinstance(round_, pot.PotRoundInput):
        assert isinstance(result, PotResult)
        return pot.pot_json(result, round_)
    return poker.settlement_json(cast(Settlement[Setting], result), round_)


def settlement_text(result: Result, round_: RoundFile) -> str:
    """A dealer-readable table of the settlement, for the round's kind."""
    if isinstance(round_, tiles.TileRoundInput):
        return tiles.tile_settlement_text(cast(Settlement[TileSetting], result), round_)
    if isinstance(round_, pot.PotRoundInput):
        assert isinstance(result, PotResult)
        return pot.pot_text(result, round_)
    return poker.settlement_text(cast(Settlement[Setting], result), round_)


__all__ = ["Result", "RoundFile", "load_round", "read_round", "settle_round",
           "settlement_json", "settlement_text"]
