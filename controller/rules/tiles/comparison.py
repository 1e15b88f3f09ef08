"""Pai Gow tiles' side of the showdown: two-tile hands against each other, and tile fouls.

The player takes a hand only when it ranks strictly higher; an equal rank (the same category and
points with the same highest tile) is a copy, and so is every 0-0 whatever the tiles: both go to
the banker (docs/sources.md: [T1], [T2], [T8]).  The
outcome rule, fouls and the bank are the game-neutral ``showdown`` and ``bank`` modules; this
module gives them ``TileHands``, a ``showdown.SettingRules`` for ``TileSetting``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..comparison import HandResult, Side
from .dominoes import Tile, TileSetError, check_one_set, format_tiles
from .hands import DEFAULT_TILE_RULES, TileRules, is_copy, player_wins, rank_hand
from .setting import TileSetting, rank_tile_setting

TileReset = Callable[[Sequence[Tile]], TileSetting]
"""Sets four tiles by the house way; supplied by the caller (the tile house-way engine)."""


def compare_tile_hands(
    player: Sequence[Tile], banker: Sequence[Tile], rules: TileRules = DEFAULT_TILE_RULES
) -> HandResult:
    """Compare two two-tile hands that can come from one set; copies and 0-0 go to the banker."""
    if len(player) != 2 or len(banker) != 2:
        raise TileSetError(f"compare two-tile hands, got {format_tiles(player)!r} against "
                           f"{format_tiles(banker)!r}")
    check_one_set((*player, *banker), "the two hands")
    mine, theirs = rank_hand(player, rules), rank_hand(banker, rules)
    if player_wins(mine, theirs):
        return HandResult(Side.PLAYER)
    return HandResult(Side.BANKER, copy=is_copy(mine, theirs))


@dataclass(frozen=True, slots=True)
class TileHands:
    """Tile settings as the showdown sees them, under one ranking ruleset."""

    rules: TileRules = DEFAULT_TILE_RULES

    @property
    def noun(self) -> str:
        """Pieces are tiles."""
        return "tiles"

    def legal(self, setting: TileSetting) -> bool:
        """The high hand is not below the low hand."""
        return rank_tile_setting(setting, self.rules).legal

    def pieces(self, setting: TileSetting) -> tuple[int, ...]:
        """The four tiles."""
        return setting.tiles

    def compare(
        self, player: TileSetting, banker: TileSetting
    ) -> tuple[HandResult, HandResult]:
        """(high hands' result, low hands' result)."""
        return (compare_tile_hands(player.high, banker.high, self.rules),
                compare_tile_hands(player.low, banker.low, self.rules))


def reset_tile_setting(reset: TileReset | None) -> Callable[[TileSetting], TileSetting] | None:
    """A house-way callable on four tiles, as the showdown's re-set of a whole setting."""
    if reset is None:
        return None
    by_tiles = reset
    return lambda setting: by_tiles(setting.tiles)
