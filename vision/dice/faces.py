"""Die faces as the camera sees them: pip places on a 3 x 3 grid, and which faces touch.

A die is read as its value, code ``"1"`` .. ``"6"``.  Places are (u, v) in the face, 0..1 across
and down; a face may lie turned any way, so the reader accepts each layout a quarter turn round.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

Point = tuple[float, float]
LO, MID, HI = 0.25, 0.5, 0.75

LAYOUTS: Final[Mapping[int, tuple[Point, ...]]] = {
    1: ((MID, MID),),
    2: ((LO, LO), (HI, HI)),
    3: ((LO, LO), (MID, MID), (HI, HI)),
    4: ((LO, LO), (HI, LO), (LO, HI), (HI, HI)),
    5: ((LO, LO), (HI, LO), (MID, MID), (LO, HI), (HI, HI)),
    6: ((LO, LO), (HI, LO), (LO, MID), (HI, MID), (LO, HI), (HI, HI)),
}
# A standard die: opposite faces add up to seven; these are the four faces around each top.
AROUND: Final[Mapping[int, tuple[int, int, int, int]]] = {
    1: (2, 3, 5, 4), 2: (1, 4, 6, 3), 3: (1, 2, 6, 5),
    4: (1, 5, 6, 2), 5: (1, 3, 6, 4), 6: (2, 4, 5, 3),
}
CODES: Final = ("1", "2", "3", "4", "5", "6")


def turned(points: tuple[Point, ...], quarter_turns: int) -> tuple[Point, ...]:
    """The places turned a number of quarter turns about the face's centre."""
    out = points
    for _ in range(quarter_turns % 4):
        out = tuple((1.0 - v, u) for u, v in out)
    return out


def layout(value: int, quarter_turns: int = 0) -> tuple[Point, ...]:
    """Pip places of a face showing ``value``, turned ``quarter_turns`` quarter turns."""
    return turned(LAYOUTS[value], quarter_turns)
