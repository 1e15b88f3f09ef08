"""The 32 Chinese dominoes of Pai Gow: 21 faces, their names, ranks and a text round-trip.

A tile is its face, written low end first (``1-2``, ``6-6``); input in either order (``2-1`` is
``1-2``).  Eleven civil faces appear twice in a set, ten military faces once
(docs/sources.md: [T1], [T2]).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final

from ..errors import NotationError, RulesError


class TileSetError(RulesError):
    """Tiles that cannot come from one set: a face too often, or the wrong number of tiles."""


@dataclass(frozen=True, slots=True)
class _Face:
    ends: tuple[int, int]
    group: int  # pair group 0 (Gee Joon) .. 15 (Chop Ng): two tiles of one group make a pair
    name: str
    civil: bool


# Pair groups, highest first (section 1.1); each face with its group and name.
_FACES: Final = (
    _Face((6, 6), 1, "Teen", True),
    _Face((1, 1), 2, "Day", True),
    _Face((4, 4), 3, "Yun", True),
    _Face((1, 3), 4, "Gor", True),
    _Face((5, 5), 5, "Mooy", True),
    _Face((3, 3), 6, "Chong", True),
    _Face((2, 2), 7, "Bon", True),
    _Face((5, 6), 8, "Foo", True),
    _Face((4, 6), 9, "Ping", True),
    _Face((1, 6), 10, "Tit", True),
    _Face((1, 5), 11, "Look", True),
    _Face((4, 5), 12, "Chop Gow", False),
    _Face((3, 6), 12, "Chop Gow", False),
    _Face((3, 5), 13, "Chop Bot", False),
    _Face((2, 6), 13, "Chop Bot", False),
    _Face((3, 4), 14, "Chop Chit", False),
    _Face((2, 5), 14, "Chop Chit", False),
    _Face((1, 4), 15, "Chop Ng", False),
    _Face((2, 3), 15, "Chop Ng", False),
    _Face((2, 4), 0, "Gee Joon", False),
    _Face((1, 2), 0, "Gee Joon", False),
)
GROUP_NAMES: Final = (
    "Gee Joon", "Teen", "Day", "Yun", "Gor", "Mooy", "Chong", "Bon", "Foo", "Ping", "Tit", "Look",
    "Chop Gow", "Chop Bot", "Chop Chit", "Chop Ng",
)
FACE_COUNT: Final = len(_FACES)
SET_SIZE: Final = 32


class Tile(int):
    """One face of the 21; ``Tile.parse("2-1")`` is the ``1-2`` Gee Joon tile."""

    __slots__ = ()

    def __new__(cls, index: int) -> Tile:
        if not 0 <= index < FACE_COUNT:
            raise NotationError(f"tile index {index!r} is outside 0..{FACE_COUNT - 1}")
        return _TILES[index] if _TILES else int.__new__(cls, index)

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read ``a-b`` with pips 1..6 at each end, in either order."""
        parts = text.strip().split("-")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise NotationError(f"unknown tile {text!r}: write the two ends as 'a-b', e.g. '6-6'")
        a, b = sorted(int(p) for p in parts)
        index = _BY_ENDS.get((a, b))
        if index is None:
            raise NotationError(f"unknown tile {text!r}: {a}-{b} is not a Pai Gow face")
        return _TILES[index]

    @property
    def ends(self) -> tuple[int, int]:
        """Pips at each end, low first."""
        return _FACES[self].ends

    @property
    def pips(self) -> int:
        """All the pips on the tile."""
        return sum(_FACES[self].ends)

    @property
    def group(self) -> int:
        """Pair group: 0 Gee Joon, 1 Teen ... 15 Chop Ng; two tiles of a group are a pair."""
        return _FACES[self].group

    @property
    def name(self) -> str:
        """Its Cantonese name (Teen, Day, Yun, Gor, ... Gee Joon)."""
        return _FACES[self].name

    @property
    def civil(self) -> bool:
        """Civil faces come twice in a set, military faces once."""
        return _FACES[self].civil

    @property
    def copies(self) -> int:
        """How many tiles of this face a set holds."""
        return 2 if _FACES[self].civil else 1

    @property
    def is_gee_joon(self) -> bool:
        """True for the 1-2 and 2-4 tiles, which count 3 or 6 for points."""
        return _FACES[self].group == 0

    @property
    def red_pips(self) -> int:
        """Red pips: every one and four is red; the 6-6 has half its pips red."""
        if _FACES[self].ends == (6, 6):
            return 6
        return sum(p for p in _FACES[self].ends if p in (1, 4))

    def __str__(self) -> str:
        a, b = _FACES[self].ends
        return f"{a}-{b}"

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"

    def __reduce__(self) -> tuple[type[Tile], tuple[int]]:
        return (Tile, (int(self),))


_BY_ENDS: Final = {face.ends: i for i, face in enumerate(_FACES)}
_TILES: tuple[Tile, ...] = ()
_TILES = tuple(Tile(i) for i in range(FACE_COUNT))
FACES: Final = _TILES


def full_set() -> tuple[Tile, ...]:
    """The 32 tiles of a set: each civil face twice, each military face once."""
    return tuple(t for t in _TILES for _ in range(t.copies))


def _tokens(text: str | Iterable[str | Tile]) -> Iterator[str | Tile]:
    if isinstance(text, str):
        yield from text.replace(",", " ").split()
    else:
        yield from text


def check_one_set(tiles: Iterable[Tile], what: str = "tiles") -> None:
    """Raise TileSetError naming a face that appears more often than a set holds it."""
    for tile, count in Counter(tiles).items():
        if count > tile.copies:
            raise TileSetError(
                f"tile {str(tile)!r} appears {count} times in {what}; a set holds {tile.copies}"
            )


def parse_tiles(
    text: str | Iterable[str | Tile], count: int | None = None, *, what: str = "hand"
) -> tuple[Tile, ...]:
    """Read tiles from ``"6-6 4-5 1-2 3-3"`` or a list; they must be able to come from one set."""
    tiles = tuple(t if isinstance(t, Tile) else Tile.parse(t) for t in _tokens(text))
    check_one_set(tiles, what)
    if count is not None and len(tiles) != count:
        raise TileSetError(f"{what} needs {count} tiles, got {len(tiles)}: {format_tiles(tiles)!r}")
    return tiles


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Tiles as text, space separated."""
    return " ".join(str(t) for t in tiles)


def check_full_set(tiles: Iterable[Tile]) -> None:
    """The set check: exactly the 16 pairs, 32 tiles; names the missing or extra face."""
    have = Counter(tiles)
    for tile in _TILES:
        if have[tile] > tile.copies:
            raise TileSetError(f"extra tile {str(tile)!r}: {have[tile]} in the set, "
                               f"it holds {tile.copies}")
    for tile in _TILES:
        if have[tile] < tile.copies:
            raise TileSetError(f"missing tile {str(tile)!r}: {have[tile]} in the set, "
                               f"it holds {tile.copies}")
