"""Whether a ten's "1" shows beside its "0", however faintly.

The reader learns a ten's "0" with its suit as a rank of its own (``codes.TEN_PART``) that
names no card: a thick "A" can be read as a "0" as surely. A ten's "1" is a hairline on many
decks, and the table camera can lose it from the ink mask; but where it is printed, the
paper beside the "0" (on the side away from the card's body) still shows a stroke across a
row of the index: darker than the paper on both sides of it, and ending with the glyph (paper
above it). An "A" has the card's margin beside it: paper down to the card's edge, or to a
border line printed about the card, which runs on above the index.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .ground import tones_at

F64 = NDArray[np.float64]
Image = NDArray[np.uint8]

# Where the "1" is looked for, in card widths from the "0"'s centroid, away from the card's
# body along the index's row (ACROSS) and above and below it (ROWS, the "0"'s height about).
ACROSS = np.linspace(0.02, 0.12, 21)
ROWS = np.linspace(-0.035, 0.035, 7)
# ... and the row ABOVE the "0"'s centroid (past the glyph's top, short of the card's edge),
# where a "1" has ended and a printed border line runs on.
ABOVE = 0.075
# A stroke is darker than the paper on both sides of it by at least DIP of that paper's
# darkest channel (a hairline the camera blurs into the paper keeps a few hundredths).
DIP = 0.05
# The paper on the two sides of a stroke is one paper: the lighter side's darkest channel
# at most SIDES over the darker's (shading across an index is a few hundredths), not the
# step from the paper to the felt, a picture or another card's shadow.
SIDES = 0.1


def one_beside(image: Image, zero: F64, right: F64, down: F64, width: float) -> bool:
    """Whether a stroke (``DIP``) crosses the row left of a "0" at ``zero`` (frame x, y) in
    ``image`` (BGR or grey), the index's ``right`` and ``down`` unit vectors and the card's
    ``width`` in pixels given: past the "0"'s own stroke, the row's darkest point, darker
    by ``DIP`` than the paper on either side of it (one paper, ``SIDES``), and not so dark
    above the glyph (``ABOVE``)."""
    a = -ACROSS[:, None] * width
    b = np.append(ROWS, -ABOVE)[None, :] * width
    x = zero[0] + a * right[0] + b * down[0]
    y = zero[1] + a * right[1] + b * down[1]
    h, w = image.shape[:2]
    # No "1" is told unless the frame shows every point (``tones_at`` would take one outside
    # at the frame's edge): a point's pixel is its coordinates plus a half, cut to whole.
    if min(x.min(), y.min()) + 0.5 < 0 or x.max() + 0.5 >= w or y.max() + 0.5 >= h:
        return False
    dark = tones_at(image, x, y)[0].astype(np.float64)
    profile = dark[:, :-1].mean(axis=1)  # along the row, away from the "0"
    above = dark[:, -1]
    # Past the glyph's own outer stroke, at each point: the lightest paper between that
    # stroke and it (the gap before a "1"), and after it. The row begins on that stroke, or,
    # as light as the paper, in the glyph's counter (an "A"'s, a wide "0"'s) before it.
    start, n = 0, len(profile)
    if profile[0] >= (1.0 - DIP) * profile.max():
        while start + 1 < n and profile[start + 1] >= profile[start]:
            start += 1
    while start + 1 < n and profile[start + 1] <= profile[start]:
        start += 1
    rest = profile[start + 1:]
    if len(rest) < 3:
        return False
    before = np.maximum.accumulate(rest)[:-2]
    after = np.maximum.accumulate(rest[::-1])[::-1][2:]
    stroke, over = rest[1:-1], above[start + 1:][1:-1]
    paper = np.minimum(before, after)
    one = ((paper >= (1.0 - SIDES) * np.maximum(before, after))
           & (stroke <= (1.0 - DIP) * paper) & (over > (1.0 - DIP) * paper))
    return bool(one.any())
