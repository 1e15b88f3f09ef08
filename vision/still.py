"""Wait for a still felt in a table camera's video: a frame to read once nothing moves.

``vision.dice.still`` compares each frame with the one before, which suits dice coming to
rest in their area; over a whole table a dealer's arm moving slowly changes each frame from
the last by little, yet is far from still. ``StillScene`` therefore compares each frame with
the *first* of the current still run (its anchor): a hand in view that drifts, however
slowly, soon differs from the anchor and starts a new run. Frames are shrunk by
``SHRINK`` (area averaging) and blurred before they are compared, which averages sensor noise
and JPEG's block flicker down to a grey level or two, far below ``CHANGE``; a card laid, a
die rolled or an arm in view changes far more pixels than ``MOVING_SHARE``.

The scene is still once its run has lasted ``hold`` seconds by the frames' own times, so the
same wait holds at 10 fps and at 30. ``feed`` reports each still period once, when it begins
(``Still``: the mean of the run's frames, which halves the noise a reader sees, and the
run's last frame, the one a journal keeps); it reports again only after the scene has moved.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from .errors import ImageError

Image = NDArray[np.uint8]
SHRINK = 4  # frames compared at a quarter size
CHANGE = 12  # a pixel changed when its grey level (shrunk, blurred) moved this much
MOVING_SHARE = 0.001  # more changed pixels than this share: the scene moves
MOST_FRAMES = 8  # a still run's frames averaged, at most


@dataclass(frozen=True)
class Still:
    """A still felt: the mean of the run's frames, its last frame, and the run's first and
    last frame numbers and times."""

    image: Image
    last_frame: Image
    first: int
    last: int
    since: float
    until: float


def changed_share(a: NDArray[np.int16], b: NDArray[np.int16]) -> float:
    """The share of pixels that differ between two ``signature``s (0: none)."""
    if a.shape != b.shape:
        return 1.0
    return float(np.count_nonzero(np.abs(a - b) > CHANGE)) / a.size


def signature(frame: Image) -> NDArray[np.int16]:
    """A frame shrunk, grey and blurred: what ``StillScene`` compares."""
    if frame.dtype != np.uint8 or frame.ndim not in (2, 3):
        raise ImageError(f"expected an 8-bit image, got {frame.dtype} {frame.shape}")
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    h, w = grey.shape
    small = cv2.resize(grey, (max(1, w // SHRINK), max(1, h // SHRINK)),
                       interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.GaussianBlur(small, (3, 3), 0), np.int16)


class StillScene:
    """Fed a camera's frames in order with their times, says when the felt lies still."""

    def __init__(self, hold: float = 0.4) -> None:
        if not hold >= 0:
            raise ValueError(f"hold must be 0 or more seconds, got {hold!r}")
        self.hold = hold
        self._anchor: NDArray[np.int16] | None = None
        self._since = 0.0
        self._first = 0
        self._sum: NDArray[np.float32] | None = None
        self._kept = 0
        self._told = False
        self._count = 0

    @property
    def still(self) -> bool:
        """Whether the frames fed last have lain still for ``hold`` seconds."""
        return self._told

    def feed(self, frame: Image, t: float) -> Still | None:
        """Add the next frame, taken at ``t`` seconds; a ``Still`` the moment the scene has
        lain still for ``hold`` seconds, else ``None``."""
        index = self._count
        self._count += 1
        sig = signature(frame)
        if self._anchor is None or changed_share(self._anchor, sig) > MOVING_SHARE:
            self._anchor, self._since, self._first = sig, t, index
            self._sum, self._kept, self._told = None, 0, False
        if self._kept < MOST_FRAMES:
            work = frame.astype(np.float32)
            self._sum = work if self._sum is None else self._sum + work
            self._kept += 1
        if self._told or t - self._since < self.hold - 1e-9 or self._sum is None:
            return None
        self._told = True
        mean = np.clip(np.round(self._sum / self._kept), 0, 255).astype(np.uint8)
        return Still(mean, frame, self._first, index, self._since, t)

    def reset(self) -> None:
        """Forget the frames seen: the next still scene is reported even if nothing moved."""
        self._anchor, self._sum, self._kept, self._told = None, None, 0, False
