"""Wait for the dice to come to rest: consecutive frames that agree, then read the roll.

A cheap per-frame score (after the ZHAW dice work, reference section 3.4): frames are shrunk,
blurred and compared; the scene is still when ``agree`` consecutive pairs differ in almost no
pixel.  The still frames are averaged, which also halves the sensor noise the reader sees.
"""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np
import numpy.typing as npt

from .reader import DiceRead, read_roll
from .render import Image

CHANGE = 18  # a pixel changed when its grey level moved this much (shrunk, blurred frames)
MOVING_SHARE = 0.002  # more changed pixels than this share: the scene is moving


def _small(frame: Image) -> npt.NDArray[np.int16]:
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    small = cv2.resize(grey, (max(1, grey.shape[1] // 4), max(1, grey.shape[0] // 4)),
                       interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.GaussianBlur(small, (3, 3), 0), np.int16)


def moved(a: Image, b: Image) -> float:
    """The share of pixels that changed between two frames (0: identical)."""
    sa, sb = _small(a), _small(b)
    if sa.shape != sb.shape:
        return 1.0
    return float(np.mean(np.abs(sa - sb) > CHANGE))


class StillDetector:
    """Fed frames one by one, hands back a still frame once ``agree`` pairs in a row agree."""

    def __init__(self, agree: int = 3) -> None:
        if agree < 1:
            raise ValueError(f"agree must be at least 1, got {agree!r}")
        self.agree = agree
        self._run: list[Image] = []

    def feed(self, frame: Image) -> Image | None:
        """Add a frame; the mean of the still run when the scene has just settled, else None."""
        if self._run and moved(self._run[-1], frame) > MOVING_SHARE:
            self._run = []
        self._run.append(frame)
        if len(self._run) < self.agree + 1:
            return None
        run = self._run[-(self.agree + 1):]
        return np.asarray(np.mean(np.stack(run), axis=0).round(), np.uint8)

    def reset(self) -> None:
        """Forget the frames seen (a new roll starts)."""
        self._run = []


def still_frame(frames: Iterable[Image], agree: int = 3) -> Image | None:
    """The first still moment of a frame sequence (mean of its frames), or None if none."""
    detector = StillDetector(agree)
    for frame in frames:
        still = detector.feed(frame)
        if still is not None:
            return still
    return None


def read_still_roll(frames: Iterable[Image], count: int = 3, agree: int = 3,
                    dice_area: bool = True) -> DiceRead:
    """Read the roll once the dice rest; no game when the frames never settle."""
    still = still_frame(frames, agree)
    if still is None:
        return DiceRead(None, "the dice never came to rest", ())
    return read_roll(still, count, dice_area)
