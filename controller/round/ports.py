"""What the engine asks of the devices and the camera: three small protocols.

A port reports what it saw as plain text (card codes, dice faces, a setting's text) and knows
nothing of rounds; the engine turns it into rules types and journals it.  A port that cannot
answer raises ``DeviceLostError``.  Fakes ship beside them in ``fakes``; replay uses
``recorded``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..journal import Randomness


@dataclass(frozen=True, slots=True)
class DiceRoll:
    """Three faces, or the reason the shake does not count (``no_game``)."""

    faces: tuple[int, int, int] | None
    no_game: str | None = None

    def __post_init__(self) -> None:
        if (self.faces is None) == (self.no_game is None):
            raise ValueError(f"a roll has either faces or a no-game reason, not "
                             f"{self.faces!r} and {self.no_game!r}")


class ShufflerPort(Protocol):
    """A card shuffler: shuffle and count, then hand out packets of seven one at a time.

    It never tells the order of the cards not yet dealt.
    """

    @property
    def name(self) -> str:
        """The device's name in the journal (``shuffler-1``)."""

    @property
    def randomness(self) -> Randomness | None:
        """Where its shuffles come from (``seeded`` for a fake, ``secrets``/None for a real one)."""

    def shuffle(self) -> int:
        """Shuffle and return how many cards it counted (53 when the deck is whole)."""

    def next_packet(self) -> tuple[str, ...]:
        """Deliver the next packet and return its card codes (``As``, ``Jk``)."""


class DicePort(Protocol):
    """A dice shaker: one shake gives three faces or a no-game reason."""

    @property
    def name(self) -> str:
        """The device's name in the journal (``shaker-1``)."""

    @property
    def randomness(self) -> Randomness | None:
        """Where its rolls come from."""

    def roll(self) -> DiceRoll:
        """Shake once."""


class CameraPort(Protocol):
    """The layout camera: what a position has actually set, or None when it cannot tell."""

    @property
    def name(self) -> str:
        """The camera's name in the journal (``camera-1``)."""

    def read(self, position: int) -> str | None:
        """The setting at ``position`` as text (``LOW / HIGH``), or None when unknown."""

    def read_dice(self) -> tuple[int, ...] | None:
        """The dice lying in the dice area, or None when it cannot tell (or does not look:
        a camera set not to read the dice)."""
