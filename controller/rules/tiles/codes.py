"""The words tile house ways use: tile codes, hand thresholds and exact hand values.

House-way texts name tiles by pips, with H/L for the two kinds of one pip count
(docs/sources.md: [T1], [T3], [T4], [T5]): ``12`` Teen, ``2`` Day, ``H8`` the
4-4, ``L8`` a mixed eight, ``8`` either, ``gee`` a Gee Joon tile.  ``H2``/``L2`` are the JB
Player Way's Teen/Day.  A code may also be a group name (``teen``, ``chop_bot``), a face
(``2-6``), ``any``, an alias the way defines, or alternatives joined by ``|`` (``2|10|12``).

A threshold is the lowest two-tile hand that passes: ``7`` (seven points, any high tile),
``3H6`` (three points led by the High 6 or a higher tile), ``high_nine``, ``gong``, ``wong``,
``pair``.  ``6/8`` is a low and a high threshold.  An exact value (``points``) is ``0``..``9``,
``high_nine``, ``gong``, ``wong``, ``pair`` or ``any``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from ..errors import HouseWayError, NotationError
from .dominoes import FACES, GROUP_NAMES, Tile
from .hands import DEFAULT_TILE_RULES, GONG, PAIR_BASE, WONG, TileRules, single_rank

Code = int  # a bit set of faces: bit i set for the face Tile(i)


def mask_of(tiles: Iterable[Tile]) -> Code:
    """The bit set of the faces among ``tiles``."""
    out = 0
    for t in tiles:
        out |= 1 << t
    return out


def _faces(*texts: str) -> Code:
    return mask_of(Tile.parse(t) for t in texts)


_PIP_CODES: Final[dict[str, Code]] = {
    "12": _faces("6-6"), "h2": _faces("6-6"), "2": _faces("1-1"), "l2": _faces("1-1"),
    "11": _faces("5-6"),
    "10": _faces("5-5", "4-6"), "h10": _faces("5-5"), "l10": _faces("4-6"),
    "9": _faces("4-5", "3-6"),
    "8": _faces("4-4", "3-5", "2-6"), "h8": _faces("4-4"), "l8": _faces("3-5", "2-6"),
    "7": _faces("1-6", "3-4", "2-5"), "h7": _faces("1-6"), "l7": _faces("3-4", "2-5"),
    "6": _faces("3-3", "1-5"), "h6": _faces("3-3"), "l6": _faces("1-5"),
    "5": _faces("1-4", "2-3"),
    "4": _faces("1-3", "2-2"), "h4": _faces("1-3"), "l4": _faces("2-2"),
    "gee": _faces("1-2", "2-4"), "gj": _faces("1-2", "2-4"),
    "any": (1 << len(FACES)) - 1,
}  # fmt: skip
BASE_CODES: Final[Mapping[str, Code]] = {
    **{name.lower().replace(" ", "_"): mask_of(t for t in FACES if t.group == g)
       for g, name in enumerate(GROUP_NAMES)},
    **_PIP_CODES,
}
_NAME: Final = re.compile(r"^[a-z][a-z0-9_]*$")


def parse_code(text: object, where: str, aliases: Mapping[str, Code] | None = None) -> Code:
    """The faces a code names: ``H8``, ``2|10|12``, ``teen``, ``2-6``, ``any`` or an alias."""
    if not isinstance(text, str) or not text.strip():
        raise HouseWayError(f"{where}: a tile code must be a non-empty string, not {text!r}")
    out = 0
    for part in text.split("|"):
        token = part.strip().lower()
        if aliases and token in aliases:
            out |= aliases[token]
        elif token in BASE_CODES:
            out |= BASE_CODES[token]
        elif "-" in token:
            try:
                out |= 1 << Tile.parse(token)
            except NotationError as err:
                raise HouseWayError(f"{where}: unknown tile code {part.strip()!r}") from err
        else:
            raise HouseWayError(f"{where}: unknown tile code {part.strip()!r} in {text!r}")
    return out


def faces_of(code: Code) -> tuple[Tile, ...]:
    """The faces a code holds."""
    return tuple(t for t in FACES if code >> t & 1)


def check_alias(name: str, where: str) -> str:
    """An alias must be a new lower-case word, not a built-in code."""
    token = name.lower()
    if not _NAME.match(token) or token in BASE_CODES:
        raise HouseWayError(f"{where}: alias {name!r} must be a new word (a-z, 0-9, _)")
    return token


@dataclass(frozen=True, slots=True)
class Threshold:
    """The lowest two-tile hand that passes: a category (0..9 points, 10 gong, 11 wong, 12 pair)
    and, optionally, the tile that must lead it (or a higher one)."""

    text: str
    cat: int
    tile: Tile | None = None

    def rank(self, rules: TileRules = DEFAULT_TILE_RULES) -> int:
        """The threshold as a hand rank (``rank_hand``) under a ruleset."""
        return (self.cat << 8) | (single_rank(self.tile, rules) if self.tile is not None else 0)


ANY: Final = Threshold("any", 0)
_WORDS: Final = {"pair": PAIR_BASE, "wong": WONG, "gong": GONG}


def parse_threshold(text: object, where: str) -> Threshold:
    """``7``, ``3H6``, ``8L10``, ``high_nine``, ``gong``, ``wong``, ``pair`` or ``any``."""
    if not isinstance(text, str):
        raise HouseWayError(f"{where}: a hand threshold must be a string, not {text!r}")
    token = text.strip().lower()
    if token == "any":
        return ANY
    if token in _WORDS:
        return Threshold(token, _WORDS[token])
    if token == "high_nine":
        return Threshold(token, 9, Tile.parse("1-1"))
    if not token or not token[0].isdigit():
        raise HouseWayError(f"{where}: unknown hand threshold {text!r}")
    if not token[1:]:
        return Threshold(token, int(token[0]))
    tiles = faces_of(parse_code(text.strip()[1:], where))
    if len({t.group for t in tiles}) != 1:
        raise HouseWayError(f"{where}: threshold {text!r} must name one tile rank, e.g. '3H6'")
    return Threshold(token, int(token[0]), max(tiles, key=lambda t: (single_rank(t), t.pips)))


def parse_two(text: object, where: str) -> tuple[str, str]:
    """Split ``LOW/HIGH`` into its two parts."""
    if not isinstance(text, str) or text.count("/") != 1:
        raise HouseWayError(f"{where}: expected 'LOW/HIGH' such as '6/8', not {text!r}")
    low, high = (p.strip() for p in text.split("/"))
    return low, high


def parse_makes(text: object, where: str) -> tuple[Threshold, Threshold]:
    """``6/8``: the low hand at least the first threshold, the high at least the second."""
    low, high = parse_two(text, where)
    return parse_threshold(low, where), parse_threshold(high, where)


VALUES: Final = frozenset({*map(str, range(10)), "high_nine", "gong", "wong", "pair", "any"})


def parse_points(text: object, where: str) -> tuple[str, str]:
    """``7/9``, ``3/gong``, ``any/8``: exact values of the low and the high hand."""
    pair = parse_two(text, where)
    for value in pair:
        if value.lower() not in VALUES:
            raise HouseWayError(f"{where}: unknown hand value {value!r}; known: {sorted(VALUES)}")
    return (pair[0].lower(), pair[1].lower())


def is_value(value: str, cat: int, hand: Sequence[Tile]) -> bool:
    """Whether a hand of category ``cat`` has the exact value ``value``."""
    if value == "any":
        return True
    if value == "pair":
        return cat >= PAIR_BASE
    if value == "wong":
        return cat == WONG
    if value == "gong":
        return cat == GONG
    if value == "high_nine":
        return cat == 9 and any(t.group in (1, 2) for t in hand)
    return cat == int(value)


def matches(tiles: Sequence[Tile], pattern: Sequence[Code]) -> bool:
    """Whether distinct tiles of ``tiles`` match every code of ``pattern``, one tile each."""
    held = mask_of(tiles)
    if len(pattern) > len(tiles) or not all(code & held for code in pattern):
        return False
    return _match(tuple(tiles), tuple(pattern), 0)


def _match(tiles: tuple[Tile, ...], pattern: tuple[Code, ...], used: int) -> bool:
    if not pattern:
        return True
    code = pattern[0]
    return any(
        not used >> i & 1 and code >> t & 1 and _match(tiles, pattern[1:], used | 1 << i)
        for i, t in enumerate(tiles)
    )
