"""The table felt: a coloured cloth with a fine weave and slow shading, drawn per scene."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

# BGR felt colours seen on casino tables: green, blue, red, grey-green.
FELT_COLOURS: tuple[tuple[int, int, int], ...] = (
    (45, 110, 30), (40, 125, 55), (110, 70, 25), (35, 40, 120), (70, 95, 70),
)


@dataclass(frozen=True)
class Felt:
    """Felt of one of ``colours`` (or a random one), with weave grain and blotches."""

    colours: tuple[tuple[int, int, int], ...] = FELT_COLOURS
    jitter: float = 12.0
    grain: float = 5.0

    def render(self, size: tuple[int, int], rng: np.random.Generator) -> NDArray[np.uint8]:
        """A BGR felt image of ``size`` (width, height)."""
        w, h = size
        base = np.array(self.colours[int(rng.integers(len(self.colours)))], np.float32)
        base = base + rng.uniform(-self.jitter, self.jitter, 3).astype(np.float32)
        small = rng.standard_normal((h // 32 + 2, w // 32 + 2)).astype(np.float32)
        blotch = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC) * 0.05
        fine = np.empty((h, w), np.float32)
        cv2.setRNGSeed(int(rng.integers(2**31)))
        cv2.randn(fine, np.float64(1.0), np.float64(self.grain / 100.0))  # type: ignore[call-overload]
        shade = fine + blotch
        felt = cv2.merge([shade * float(c) for c in base])
        return np.clip(felt, 0, 255).astype(np.uint8)
