"""The tile deal: the woodpile of eight stacks of four, and which position takes each stack.

The 32 tiles are built face down into eight stacks of four (the "woodpile"); three dice, 3..18,
pick the position that takes stack 1, counting the banker as 1 and every one of the eight
positions counter-clockwise, vacant seats and the dead hand too: 9 or 17 is the banker, 10 or 18
the position at the banker's immediate right.  The stacks follow in the same direction and all
32 tiles are dealt; a vacant position's stack is discarded unseen
(docs/sources.md: [T2], [T8]).  The counting is the cards' (``dealing.deal`` with eight
positions); this module adds the tiles.  The dead hand is a position like any other: mark it vacant.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from ..dice import TILE_POSITIONS, Dice
from ..poker.dealing import HOUSE, Deal, Packet, deal
from .dominoes import Tile, check_full_set

STACK_SIZE: Final = 4


@dataclass(frozen=True, slots=True)
class TileDeal:
    """Record of the deal act at a tile table: who takes each stack, and the stacks' tiles."""

    plan: Deal  # dice, receivers (stack k goes to receivers[k - 1]), vacant, banker
    stacks: tuple[tuple[Tile, ...], ...]  # stacks[k - 1] is stack k's four tiles

    @property
    def dice(self) -> Dice:
        """The roll that picked the first stack's receiver."""
        return self.plan.dice

    @property
    def first(self) -> int:
        """The position that takes stack 1."""
        return self.plan.first

    @property
    def vacant(self) -> frozenset[int]:
        """Positions whose stack is discarded unseen."""
        return self.plan.vacant

    @property
    def packets(self) -> tuple[Packet, ...]:
        """Every stack in dealing order: its number, receiver, and whether it is discarded."""
        return self.plan.packets

    @property
    def playing(self) -> tuple[int, ...]:
        """Positions that keep their stack, in dealing order."""
        return self.plan.playing

    def hand_of(self, position: int) -> tuple[Tile, ...]:
        """The four tiles ``position`` receives."""
        return self.stacks[self.plan.packet_of(position) - 1]


def _read(order: str | Sequence[Tile | str]) -> tuple[Tile, ...]:
    tokens: Iterable[Tile | str] = (
        [t for t in re.split(r"[,\s]+", order.strip()) if t] if isinstance(order, str) else order
    )
    return tuple(t if isinstance(t, Tile) else Tile.parse(t) for t in tokens)


def deal_tiles(
    set_order: str | Sequence[Tile | str],
    dice: Dice,
    vacant: Iterable[int] = (),
    banker: int = HOUSE,
) -> TileDeal:
    """Deal one full set, in woodpile order (stack 1's four tiles first), to the eight positions.

    TileSetError names a missing or extra tile; the count starts at ``banker``.
    """
    tiles = _read(set_order)
    check_full_set(tiles)  # so exactly 32 tiles
    plan = deal(dice, vacant, TILE_POSITIONS, banker)
    stacks = tuple(
        tiles[STACK_SIZE * k : STACK_SIZE * (k + 1)] for k in range(TILE_POSITIONS)
    )
    return TileDeal(plan, stacks)
