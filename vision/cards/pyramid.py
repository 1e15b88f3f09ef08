"""A frame and its half-size copies (an image pyramid), each made by ``cv2.pyrDown`` when
first asked for.

Patches whose pixels span more than the frame's are cut from a copy shrunk by half (or by
half again), so that sampling does not alias (``patch``). A level is made whole, when a
patch first reads it. It was made tile by tile, only where patches read it, by a compiled
copy of ``cv2.pyrDown``, until a same-run comparison of the whole card read
(``bench/bench_vision_copies.py``) showed that copy no quicker than OpenCV's whole level
(issue 33; figures in ``docs/benchmarks.md``).
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]


class Pyramid:
    """A frame and its half-size copies, each made when first needed."""

    def __init__(self, frame: Image) -> None:
        self.levels: list[Image] = [frame]

    def level(self, k: int) -> Image:
        """The frame shrunk ``k`` times by half (``cv2.pyrDown`` ``k`` times)."""
        while len(self.levels) <= k:
            self.levels.append(np.asarray(cv2.pyrDown(self.levels[-1]), np.uint8))
        return self.levels[k]
