"""The band beside a read card where a face found by its strip is sought (``strips``).

A spread puts a neighbour one step (``SLOT``) left or right of a card, level with it
(``LEVEL``), and keeps the turn and size of its cards: so the band there is straightened in
the read card's frame, at ``WIDTH`` pixels per card width, and softened (``band``). The
blank index corner of a face found there (``blank_corner``) and its corner mark
(``corner_marks``) are measured at the same scale and softening.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
F32 = NDArray[np.float32]
Box = tuple[float, float, float, float]

WIDTH = 40  # card width in band pixels
SLOT = (0.2, 0.45)  # where a neighbour's left edge lies from a card's in a spread, card widths
LEVEL = 0.1  # how far its top may lie above or below the card's, card widths
BLUR = 1.0


def band(frame: Image, quad: NDArray[np.float64], height: int,
         span: tuple[float, float]) -> tuple[F32, NDArray[np.float64]]:
    """The band of a card's frame from ``span[0]`` to ``span[1]`` card widths right of its
    left edge (and a little above and below), straightened to ``WIDTH`` pixels per card
    width; with the affine map from band pixels to the image."""
    tl, tr, _, bl = quad
    width = float(np.hypot(*(tr - tl)))
    right = (tr - tl) / width
    down = (bl - tl) / max(float(np.hypot(*(bl - tl))), 1e-6)
    scale = width / WIDTH
    origin = tl + scale * (span[0] * WIDTH * right - 0.06 * height * down)
    m = np.array([[right[0] * scale, down[0] * scale, origin[0]],
                  [right[1] * scale, down[1] * scale, origin[1]]])
    size = (int((span[1] - span[0]) * WIDTH) + 2, int(height * 1.12))
    out = cv2.warpAffine(frame, m.astype(np.float32), size,
                         flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                         borderMode=cv2.BORDER_REPLICATE)
    return soft_grey(np.asarray(out, np.uint8)), m


def soft_grey(image: Image) -> F32:
    """The darkest channel, white where the image is transparent, softened."""
    planes = cv2.split(image)  # three or four (with alpha)
    grey = cv2.min(cv2.min(planes[0], planes[1]), planes[2]).astype(np.float32)
    if image.shape[2] == 4:
        grey[image[:, :, 3] < 128] = 255.0
    out: F32 = np.asarray(cv2.GaussianBlur(grey, (0, 0), BLUR), np.float32)
    return out
