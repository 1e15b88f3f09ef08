"""The three dice that pick which position receives the first packet.

The banker's position counts as 1, 8 and 15 at a seven-position Pai Gow Poker table (1, 9 and
17 at the eight-position tile table), and the count runs counter-clockwise round the table
(docs/sources.md: [P8] for cards,
[T2] for tiles).  A roll is the record of the "roll" act; its text
form is ``3,5,6``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from .errors import NotationError

FACES: Final = range(1, 7)
POSITIONS: Final = 7  # Pai Gow Poker: the banker and six players
TILE_POSITIONS: Final = 8  # Pai Gow tiles: eight stacks, every position counted
MAX_POSITIONS: Final = max(POSITIONS, TILE_POSITIONS)  # the most positions any table has


@dataclass(frozen=True, slots=True)
class Dice:
    """Three dice as rolled, each 1..6. Text form ``3,5,6``."""

    faces: tuple[int, int, int]

    def __post_init__(self) -> None:
        faces = self.faces
        if not isinstance(faces, tuple) or len(faces) != 3:
            raise NotationError(f"dice {faces!r} must be three faces")
        for face in faces:
            if isinstance(face, bool) or not isinstance(face, int) or face not in FACES:
                raise NotationError(f"die {face!r} in {faces!r} is not a face 1..6")

    @classmethod
    def of(cls, faces: Iterable[int]) -> Dice:
        """Build from any three faces."""
        values = tuple(faces)
        if len(values) != 3:
            raise NotationError(f"dice {values!r} must be three faces")
        return cls((values[0], values[1], values[2]))

    @classmethod
    def parse(cls, text: str) -> Dice:
        """Read ``"3,5,6"`` or ``"3 5 6"``; NotationError names the bad text or die."""
        tokens = [t for t in re.split(r"[,\s]+", text.strip()) if t]
        if len(tokens) != 3:
            raise NotationError(f"dice {text!r} must be three faces like '3,5,6'")
        faces = []
        for token in tokens:
            if not token.isdigit() or int(token) not in FACES:
                raise NotationError(f"die {token!r} in {text!r} is not a face 1..6")
            faces.append(int(token))
        return cls.of(faces)

    @property
    def total(self) -> int:
        """The sum of the three faces, 3..18."""
        return sum(self.faces)

    def __str__(self) -> str:
        return ",".join(str(f) for f in self.faces)


def first_position(total: int, positions: int = POSITIONS) -> int:
    """Position (1 = banker, counting counter-clockwise) that the dice total points at."""
    if isinstance(positions, bool) or not isinstance(positions, int) or positions < 1:
        raise NotationError(f"position count {positions!r} must be a whole number >= 1")
    if isinstance(total, bool) or not isinstance(total, int) or total < 1:
        raise NotationError(f"dice total {total!r} must be a whole number >= 1")
    return (total - 1) % positions + 1
