"""Tile settings: four tiles split into a low and a high two-tile hand, the high not lower."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..errors import FoulError, NotationError
from .dominoes import Tile, check_one_set, format_tiles, parse_tiles
from .hands import DEFAULT_TILE_RULES, TileRules, describe, parse_hand, rank_hand

# The three ways to pair four tiles: the low hand's two positions, the high hand's two.
TILE_SPLITS: Final = (((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2)))


@dataclass(frozen=True, slots=True)
class TileSetting:
    """A low and a high two-tile hand. Text form: ``1-2 3-3 / 6-6 4-5`` (low first)."""

    low: tuple[Tile, Tile]
    high: tuple[Tile, Tile]

    @classmethod
    def of(cls, low: Sequence[Tile], high: Sequence[Tile]) -> TileSetting:
        """Build from two hands, each written higher tile first; checks one set."""
        lo, hi = _ordered(low), _ordered(high)
        check_one_set((*lo, *hi), "setting")
        return cls(lo, hi)

    @classmethod
    def parse(cls, text: str) -> TileSetting:
        """Read ``LOW / HIGH``."""
        parts = text.split("/")
        if len(parts) != 2:
            raise NotationError(f"tile setting {text!r} must read 'LOW / HIGH' with one '/'")
        return cls.of(parse_hand(parts[0]), parse_hand(parts[1]))

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """All four tiles, low hand first."""
        return (*self.low, *self.high)

    def __str__(self) -> str:
        return f"{format_tiles(self.low)} / {format_tiles(self.high)}"


def _ordered(hand: Sequence[Tile]) -> tuple[Tile, Tile]:
    a, b = parse_hand(format_tiles(hand)) if len(hand) != 2 else (hand[0], hand[1])
    # Higher tile first (Teen before Day ..., Gee Joon last), so equal settings print alike.
    return (a, b) if (a.group or 16, a) <= (b.group or 16, b) else (b, a)


@dataclass(frozen=True, slots=True)
class RankedTileSetting:
    """A tile setting with both ranks and its legality."""

    setting: TileSetting
    low_rank: int
    high_rank: int

    @property
    def legal(self) -> bool:
        """The high hand is not lower than the low hand."""
        return self.high_rank >= self.low_rank

    def words(self, rules: TileRules = DEFAULT_TILE_RULES) -> tuple[str, str]:
        """(low hand in words, high hand in words)."""
        return describe(self.setting.low, rules), describe(self.setting.high, rules)


def four(tiles: str | Sequence[Tile | str]) -> tuple[Tile, ...]:
    """Read exactly four tiles that can come from one set."""
    return parse_tiles(tiles, 4, what="four-tile hand")


def rank_tile_setting(
    setting: TileSetting, rules: TileRules = DEFAULT_TILE_RULES
) -> RankedTileSetting:
    """Rank both hands of a setting."""
    return RankedTileSetting(setting, rank_hand(setting.low, rules), rank_hand(setting.high, rules))


def tile_settings(
    tiles: Sequence[Tile], rules: TileRules = DEFAULT_TILE_RULES
) -> tuple[RankedTileSetting, ...]:
    """The distinct ways to split four tiles (three, fewer when tiles repeat), each made legal
    by putting the better hand high."""
    hand = four(tiles)
    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    out = []
    for (i, j), (k, m) in TILE_SPLITS:
        first = rank_hand((hand[i], hand[j]), rules)
        second = rank_hand((hand[k], hand[m]), rules)
        low, high = ((i, j), (k, m)) if first <= second else ((k, m), (i, j))
        setting = TileSetting.of((hand[low[0]], hand[low[1]]), (hand[high[0]], hand[high[1]]))
        key = (tuple(sorted(map(int, setting.low))), tuple(sorted(map(int, setting.high))))
        if key in seen:
            continue
        seen.add(key)
        out.append(rank_tile_setting(setting, rules))
    return tuple(out)


def check_tile_legal(
    setting: TileSetting, rules: TileRules = DEFAULT_TILE_RULES
) -> RankedTileSetting:
    """Rank a setting; raise FoulError naming it when its high hand is lower than its low."""
    ranked = rank_tile_setting(setting, rules)
    if not ranked.legal:
        low, high = ranked.words(rules)
        raise FoulError(f"foul tile setting {str(setting)!r}: high {high} is below low {low}")
    return ranked
