"""Card stock as a camera sees it: fibres, the stock's own cast and a sheen across the card.

A printed face image is flat white and flat ink; real card stock is not. Its fibres give the
paper a fine mottle, its coating gives each card a cast (creamy, or cool under a blueing
agent) and a sheen that brightens one side of the card more than the other, and the ink is
never quite as dark as the file's black. ``Paper.finish`` applies all four to a face at the
scale it is composited at, so the mottle is about a camera pixel, not a file pixel.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]


@dataclass(frozen=True)
class Paper:
    """Ranges of one card's finish, each drawn uniformly per card.

    ``fibre``: sigma of the mottle (0..255) at the composited scale; ``cast``: the largest
    per-channel tint of the stock (0.04: +-4 %); ``sheen``: the largest brightening (0..255)
    across the card, rising linearly from one side; ``ink``: the range of the darkest ink's
    level (0..255) the file's black is lifted to (printing ink on coated stock reflects some
    light).
    """

    fibre: tuple[float, float] = (1.5, 5.0)
    cast: float = 0.04
    sheen: tuple[float, float] = (0.0, 25.0)
    ink: tuple[float, float] = (8.0, 40.0)

    def finish(self, face: Image, rng: np.random.Generator) -> Image:
        """``face`` (BGRA) as this stock shows it; alpha unchanged."""
        h, w = face.shape[:2]
        bgr = face[:, :, :3].astype(np.float32)
        floor = float(rng.uniform(*self.ink))
        bgr = floor + bgr * np.float32((255.0 - floor) / 255.0)
        bgr *= (1.0 + rng.uniform(-self.cast, self.cast, 3)).astype(np.float32)
        # The mottle: noise at half resolution, so a fibre spans about two pixels.
        small = np.empty((max(h // 2, 1), max(w // 2, 1)), np.float32)
        cv2.setRNGSeed(int(rng.integers(2**31)))
        cv2.randn(small, np.float64(0.0), np.float64(rng.uniform(*self.fibre)))  # type: ignore[call-overload]
        mottle = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
        a = rng.uniform(0, 2 * np.pi)
        # The sheen's ramp broadcast from a row and a column: the same sums, to the bit, as
        # over a grid of both, without making the grid for every card of every table.
        xs = np.arange(w, dtype=np.float32)
        ys = np.arange(h, dtype=np.float32)[:, None]
        ramp = (np.cos(a) * (xs / w - 0.5) + np.sin(a) * (ys / h - 0.5) + 0.5).clip(0, 1)
        lift = mottle + ramp * np.float32(rng.uniform(*self.sheen))
        bgr += lift[:, :, None]
        out = face.copy()
        out[:, :, :3] = np.clip(bgr, 0, 255).astype(np.uint8)
        return out
