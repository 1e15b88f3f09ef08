"""The 32 Pai Gow tiles as the camera sees them: faces, pip layouts per end, red pips.

Pure data, no imaging.  A tile code is its two ends low first (``"1-2"``, ``"6-6"``), as in the
rules core, which vision does not import (docs/sources.md: [T1]).

Layouts are given per end in the end's own frame: ``u`` runs across the tile (0 left, 1 right),
``v`` from the outer end (0) to the middle of the tile (1).  The lower end of an upright tile is
the same layout turned half a turn, so either way up a tile shows the same two ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

Point = tuple[float, float]

# The 21 faces; civil faces (the first eleven) come twice in a set, military faces once.
CIVIL: Final = (
    (6, 6), (1, 1), (4, 4), (1, 3), (5, 5), (3, 3), (2, 2), (5, 6), (4, 6), (1, 6), (1, 5),
)
MILITARY: Final = ((4, 5), (3, 6), (3, 5), (2, 6), (3, 4), (2, 5), (1, 4), (2, 3), (2, 4), (1, 2))
FACES: Final = CIVIL + MILITARY
CODES: Final = tuple(f"{a}-{b}" for a, b in FACES)


def code_of(a: int, b: int) -> str:
    """The code of the tile whose ends show ``a`` and ``b`` pips (low end first)."""
    lo, hi = sorted((a, b))
    return f"{lo}-{hi}"


def copies(code: str) -> int:
    """How many tiles with this face a set holds (2 civil, 1 military, 0 not a face)."""
    ends = tuple(int(p) for p in code.split("-"))
    if ends in CIVIL:
        return 2
    return 1 if ends in MILITARY else 0


def full_set() -> tuple[str, ...]:
    """The 32 codes of one set, civil faces twice."""
    return tuple(code for code in CODES for _ in range(copies(code)))


# Per-end layouts (section 8: twos side by side at the outer end, threes on a diagonal, sixes in
# two columns).  The double three is drawn as two across, two along and two across: each end holds
# a pair across at its outer end and one pip near the middle, in line with the other end's.
_U0, _U1 = 0.27, 0.73
LAYOUTS: Final[Mapping[int, tuple[Point, ...]]] = {
    1: ((0.5, 0.5),),
    2: ((_U0, 0.3), (_U1, 0.3)),
    3: ((0.24, 0.2), (0.5, 0.5), (0.76, 0.8)),
    4: ((_U0, 0.25), (_U1, 0.25), (_U0, 0.75), (_U1, 0.75)),
    5: ((0.25, 0.2), (0.75, 0.2), (0.5, 0.5), (0.25, 0.8), (0.75, 0.8)),
    6: ((_U0, 0.17), (_U1, 0.17), (_U0, 0.5), (_U1, 0.5), (_U0, 0.83), (_U1, 0.83)),
}
DOUBLE_THREE: Final[tuple[Point, ...]] = ((_U0, 0.22), (_U1, 0.22), (0.5, 0.86))
# A one is drawn larger than the other pips, as on most sets.
ONE_SCALE: Final = 1.3


def layout(pips: int, other_end: int) -> tuple[Point, ...]:
    """Pip centres of an end with ``pips`` pips on a tile whose other end has ``other_end``."""
    if pips == 3 and other_end == 3:
        return DOUBLE_THREE
    return LAYOUTS[pips]


@dataclass(frozen=True, slots=True)
class PipColours:
    """Which pips are red: every pip of the counts in ``red_ends``; ``double_six_red`` per end."""

    red_ends: frozenset[int] = frozenset({1, 4})
    double_six_red: int = 3

    def red_count(self, pips: int, other_end: int) -> int:
        """Red pips on an end with ``pips`` pips whose other end has ``other_end``."""
        if pips == 6 and other_end == 6:
            return self.double_six_red
        return pips if pips in self.red_ends else 0

    def red_mask(self, pips: int, other_end: int) -> tuple[bool, ...]:
        """Per pip of ``layout(pips, other_end)``: is it red (the 6-6 has its left column red)."""
        if pips == 6 and other_end == 6:
            # Layout order is left, right per row: even indices are the left column.
            order = (0, 2, 4, 1, 3, 5)
            return tuple(order.index(i) < self.double_six_red for i in range(6))
        red = self.red_count(pips, other_end) == pips
        return (red,) * pips


STANDARD_COLOURS: Final = PipColours()
