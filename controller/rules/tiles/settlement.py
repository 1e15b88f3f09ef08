"""Settling a Pai Gow tiles round: the shared bank core with the tile game's hands.

Everything money-related is the game-neutral ``bank.settle_bank``, the same code that settles
Pai Gow Poker: both hands higher wins, both lower or copies loses, anything else pushes; a win
pays even money less the profile's commission (5 %, with its rounding); a player may bank, the
house then playing position 1 against that player; a foul loses or is re-set by the house way
(docs/sources.md: [T8]).
A tile table has eight positions and takes no side bets.

Not implemented: co-banking (a player sharing the bank 50/50 with the house, the hand set by the
house way); settle such a round as a house-banked one.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..bank import BankRules, Settlement, settle_bank
from ..dice import TILE_POSITIONS
from ..poker.dealing import HOUSE
from ..seat import Bet, HandSet
from .comparison import TileHands, TileReset, reset_tile_setting
from .dominoes import check_one_set
from .hands import DEFAULT_TILE_RULES, TileRules
from .setting import TileSetting

__all__ = ["BankRules", "settle_tiles"]


def settle_tiles(
    hands: Iterable[HandSet[TileSetting]],
    bets: Iterable[Bet],
    tile_rules: TileRules = DEFAULT_TILE_RULES,
    rules: BankRules | None = None,
    *,
    banker: int = HOUSE,
    reset: TileReset | None = None,
    bank: int | None = None,
    co_bank: bool = False,
) -> Settlement[TileSetting]:
    """Settle every bet of a tile round against the bank at ``banker`` (the house by default).

    The hands' tiles must be able to come from one set.  ``reset`` sets four tiles by the house
    way, for the "house_way" foul policy; ``bank``, if given, is what a player-banker has put up,
    and must cover every wager; ``co_bank``: that player shares the bank 50/50 with the house.
    """
    hands = tuple(hands)
    check_one_set((t for hand in hands for t in hand.setting.tiles), "the round's hands")
    return settle_bank(hands, bets, TileHands(tile_rules), rules or BankRules(),
                       positions=TILE_POSITIONS, banker=banker, reset=reset_tile_setting(reset),
                       bank=bank, co_bank=co_bank)
