"""Two-tile Pai Gow hands: pairs, wongs, gongs and points, ranked as one int each.

Order (docs/sources.md: [T1], [T2], [T8]): the Gee Joon pair >
the other pairs by pair rank > wong (Teen or Day with a nine) > gong (Teen or Day with an eight,
4-4 included) > points 9..0 (pips mod 10; a Gee Joon tile counts 3 or 6, whichever is higher, for
points only).  The high nine (Teen or Day with a seven) is a nine whose high tile outranks every
other nine's, so it needs no category of its own (section 2.2).  Equal hands are broken by the
highest single tile only; the same high tile is a copy, and every 0-0 is a copy: both go to the
banker.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from ..config_check import check_keys
from ..errors import ProfileError
from .dominoes import GROUP_NAMES, Tile, parse_tiles

GONG: Final = 10
WONG: Final = 11
PAIR_BASE: Final = 12  # pair categories are 12 (Chop Ng) .. 27 (Gee Joon)


class GeeJoonTie(StrEnum):
    """How a single Gee Joon tile ranks when ties are broken by the highest tile (section 2.6)."""

    LOWEST = "lowest"  # casino charts, Pagat, older Wikipedia: no value, below every tile
    BY_PIPS = "by_pips"  # newer Wikipedia: 2-4 below the sevens above the fives, 1-2 last


@dataclass(frozen=True, slots=True)
class TileRules:
    """Ruleset switches for ranking tile hands."""

    gee_joon_tie: GeeJoonTie = GeeJoonTie.LOWEST

    @classmethod
    def from_mapping(cls, data: dict[str, object]) -> TileRules:
        """Build from a profile table; unknown keys and values are errors naming them."""
        check_keys(data, ("gee_joon_tie",), ProfileError, what="tile rule")
        value = data.get("gee_joon_tie", GeeJoonTie.LOWEST.value)
        try:
            return cls(GeeJoonTie(str(value)))
        except ValueError as err:
            raise ProfileError(f"gee_joon_tie {value!r} is not one of "
                               f"{[g.value for g in GeeJoonTie]}") from err


DEFAULT_TILE_RULES: Final = TileRules()


def single_rank(tile: Tile, rules: TileRules = DEFAULT_TILE_RULES) -> int:
    """A tile's rank for tie-breaks: Teen highest; tiles of one mixed group rank equally."""
    group = tile.group
    if group:
        return 2 * (16 - group)  # Teen 30, Day 28 ... Chop Chit 4, Chop Ng 2
    if rules.gee_joon_tie is GeeJoonTie.BY_PIPS and tile.pips == 6:
        return 3  # the 2-4: below the sevens (4), above the fives (2)
    return 0


def _is_teen_or_day(tile: Tile) -> bool:
    return tile.group in (1, 2)


def points(a: Tile, b: Tile) -> int:
    """Pips mod 10, a Gee Joon tile counting 3 or 6 whichever is higher."""
    best = 0
    for x in (3, 6) if a.is_gee_joon else (a.pips,):
        for y in (3, 6) if b.is_gee_joon else (b.pips,):
            best = max(best, (x + y) % 10)
    return best


def category(a: Tile, b: Tile) -> int:
    """0..9 points, 10 gong, 11 wong, 12..27 pairs (27 the Gee Joon pair)."""
    if a.group == b.group:
        return PAIR_BASE + 15 - a.group
    for high, other in ((a, b), (b, a)):
        if _is_teen_or_day(high) and not other.is_gee_joon:
            if other.pips == 9:
                return WONG
            if other.pips == 8:
                return GONG
    return points(a, b)


def rank_hand(hand: Sequence[Tile], rules: TileRules = DEFAULT_TILE_RULES) -> int:
    """One int per two-tile hand: higher is better; equal ints are a copy (banker wins)."""
    a, b = hand[0], hand[1]
    cat = category(a, b)
    if cat >= PAIR_BASE:
        return cat << 8
    return (cat << 8) | max(single_rank(a, rules), single_rank(b, rules))


def is_copy(player: int, banker: int) -> bool:
    """True when neither hand beats the other: the same rank, or any 0-0 (banker wins both)."""
    return player == banker or (player >> 8 == 0 and banker >> 8 == 0)


def player_wins(player: int, banker: int) -> bool:
    """True when the player's hand beats the banker's outright."""
    return player > banker and not is_copy(player, banker)


_POINT_WORDS: Final = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                       "nine")


def describe(hand: Sequence[Tile], rules: TileRules = DEFAULT_TILE_RULES) -> str:
    """The hand in words, e.g. ``pair of Teen``, ``wong (Day)``, ``high nine``, ``7 (Foo high)``."""
    a, b = hand[0], hand[1]
    cat = category(a, b)
    if cat >= PAIR_BASE:
        return f"pair of {GROUP_NAMES[a.group]}" if a.group else "Gee Joon pair"
    high = a if single_rank(a, rules) >= single_rank(b, rules) else b
    if cat == WONG:
        return f"wong ({high.name})"
    if cat == GONG:
        return f"gong ({high.name})"
    if cat == 9 and _is_teen_or_day(high):
        return f"high nine ({high.name})"
    return f"{cat} ({high.name} high)"


def parse_hand(text: str) -> tuple[Tile, Tile]:
    """Read a two-tile hand."""
    a, b = parse_tiles(text, 2, what="two-tile hand")
    return (a, b)


def word(cat: int) -> str:
    """The name of a category number."""
    if cat >= PAIR_BASE:
        return "pair"
    if cat in (WONG, GONG):
        return "wong" if cat == WONG else "gong"
    return _POINT_WORDS[cat]
