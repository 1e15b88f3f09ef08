"""Win / loss / push counts of Pai Gow Poker rounds and the house edge they imply.

One side wins a round when both its hands beat the other's, loses when both are beaten or
copied, else pushes; copies go to the bank (reference section 1).  Commission is taken from the
analysed side's wins, so its expectation per unit bet is ``(1 - commission) * win - loss``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import sqrt
from typing import Final

import numpy as np
import numpy.typing as npt

DEFAULT_COMMISSION: Final = Fraction(5, 100)
Z95: Final = 1.959964  # two-sided 95 % normal quantile


@dataclass(frozen=True, slots=True)
class Counts:
    """Rounds won, lost and pushed by the analysed side."""

    win: int
    loss: int
    push: int

    @property
    def total(self) -> int:
        """All rounds counted."""
        return self.win + self.loss + self.push

    def fractions(self) -> tuple[float, float, float]:
        """(win, loss, push) as fractions of the total."""
        n = self.total
        return self.win / n, self.loss / n, self.push / n

    def expectation(self, commission: Fraction = DEFAULT_COMMISSION) -> Fraction:
        """What the analysed side wins per unit bet, exactly, paying commission on its wins."""
        return ((1 - commission) * self.win - self.loss) / self.total

    def house_edge(self, commission: Fraction = DEFAULT_COMMISSION) -> Fraction:
        """What the analysed side loses per unit bet: minus the expectation."""
        return -self.expectation(commission)

    def standard_error(self, commission: Fraction = DEFAULT_COMMISSION) -> float:
        """Standard error of the mean result per round, the rounds being independent."""
        n = self.total
        keep = float(1 - commission)
        mean = float(self.expectation(commission))
        second = (keep * keep * self.win + self.loss) / n
        return sqrt(max(second - mean * mean, 0.0) / n)

    def edge_interval(self, commission: Fraction = DEFAULT_COMMISSION) -> tuple[float, float]:
        """A 95 % confidence interval of the house edge (normal approximation)."""
        edge = float(self.house_edge(commission))
        half = Z95 * self.standard_error(commission)
        return edge - half, edge + half

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.win + other.win, self.loss + other.loss, self.push + other.push)


def beats(ours: npt.NDArray[np.int32] | np.int32, theirs: npt.NDArray[np.int32],
          banking: bool) -> npt.NDArray[np.bool_]:
    """Our hand beats theirs; a copy goes to us only when we are the bank."""
    return ours >= theirs if banking else ours > theirs
