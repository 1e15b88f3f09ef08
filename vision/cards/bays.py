"""A glyph joined to the card's printed outline, cut from it as a bay of the paper.

Some decks print a thick border line round the card and their index close inside it; at the
table camera's scale blur fills the gap, the glyph joins the border, and through it the felt:
it is then no hole in the paper, so no ink (``ink.masks``). Where a deck needs it
(``ink.Limits.bays``, chosen by ``calibrate.choose_bays``) the paper's bays are filled before
its holes are: the glyph becomes a hole, so ink, cut free of the border, which stays outside.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]

# A glyph printed close to the card's own printed outline (a thick border line) joins it
# where blur fills the gap, and through it the felt: it is no hole in the paper, so no ink.
# Where a deck needs it (``ink.Limits.bays``, ``calibrate.choose_bays``) such a glyph is cut from
# the outline as a bay of the paper (``bays_of``): a stretch of a paper patch's outer contour
# that leaves the straight chord of its convexity defect by more than BAY_SHORE pixels (a
# card edge's steps stay within it), at least BAY_DEPTH deep, whose mouth (the shore points
# either side) is at most BAY_MOUTH times the patch's size (the square root of its area)
# wide. The mouth spans the glyph's join to the outline, and across the card's rounded corner
# where the glyph sits by it. Bellot's index was found in its training sheets most often
# with a mouth of 0.3 (0.1 and 0.2 left more ranks joined to the outline, 0.4 and 0.6 took
# in more than the glyph; ``docs/benchmarks.md``).
BAY_DEPTH = 1.5
BAY_MOUTH = 0.3
BAY_SHORE = 1.0


def bays_of(paper: Image) -> Image:
    """255 on the pixels of the paper's bays (``BAY_MOUTH``) that are no paper. A bay lies
    in a convexity defect of a paper patch's outer contour: the defect's contour, from one
    hull point to the next, runs along the chord between them (a straight card edge, within
    ``BAY_SHORE``) but where it goes round a bay; each such stretch at least ``BAY_DEPTH``
    deep and at most ``BAY_MOUTH`` times the patch's size wide at its mouth (the chord from
    the shore point before it to the one after it) is filled up to that chord."""
    out = np.zeros_like(paper)
    contours = cv2.findContours(paper, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[-2]
    for contour in contours:
        if len(contour) < 4:
            continue
        size = float(np.sqrt(cv2.contourArea(contour)))
        try:
            defects = cv2.convexityDefects(contour, cv2.convexHull(contour, returnPoints=False))
        except cv2.error:  # a contour whose hull OpenCV cannot order: no bay sought in it
            continue
        if defects is None:
            continue
        points = np.asarray(contour, np.int64).reshape(-1, 2)
        for start, end, _, depth in np.asarray(defects, np.int64).reshape(-1, 4).tolist():
            if depth / 256.0 < BAY_DEPTH:
                continue
            stretch = (points[start:end + 1] if end >= start
                       else np.concatenate([points[start:], points[:end + 1]]))
            for bay in _bays_along(stretch, BAY_MOUTH * size):
                cv2.fillPoly(out, [bay.astype(np.int32)], 255)
    return np.asarray(cv2.bitwise_and(out, cv2.bitwise_not(paper)), np.uint8)


def _bays_along(stretch: NDArray[np.int64], widest: float) -> list[NDArray[np.int64]]:
    """The bays of a contour ``stretch`` (points from one hull point to the next): its runs
    of points farther than ``BAY_SHORE`` from the chord between its ends, at least
    ``BAY_DEPTH`` deep, each with the shore point before and after it, where those lie at
    most ``widest`` pixels apart."""
    chord = (stretch[-1] - stretch[0]).astype(np.float64)
    length = float(np.hypot(*chord))
    if length < 1.0:
        return []
    off = stretch - stretch[0]
    away = np.abs(off[:, 0] * chord[1] - off[:, 1] * chord[0]) / length
    out = (away > BAY_SHORE).astype(np.int8)
    edges = np.diff(np.concatenate([[0], out, [0]]))
    bays = []
    for first, last in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1), strict=True):
        a, b = max(int(first) - 1, 0), min(int(last), len(stretch) - 1)
        mouth = stretch[a] - stretch[b]
        if away[first:last].max() >= BAY_DEPTH and float(np.hypot(*mouth)) <= widest:
            bays.append(stretch[a:b + 1])
    return bays
