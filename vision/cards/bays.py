"""A glyph joined to the card's printed outline, cut from it as a bay of the paper.

Some decks print a thick border line round the card and their index close inside it; at the
table camera's scale blur fills the gap, the glyph joins the border, and through it the felt:
it is then no hole in the paper, so no ink (``ink.masks``). Where a deck needs it
(``ink.Limits.bays``, chosen by ``calibrate.choose_bays``) the paper's bays are filled before
its holes are: the glyph becomes a hole, so ink, cut free of the border, which stays outside.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import cv2
import numba
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
    for points, defects, size in patches(paper):
        ends = _bay_ends(points, defects, BAY_MOUTH * size)
        for first, last in ends.tolist():
            # A bay's points run from ``first`` to ``last`` round the contour (past its end
            # and on from its start where ``last`` lies before ``first``).
            bay = (points[first:last + 1] if last >= first
                   else np.concatenate([points[first:], points[:last + 1]]))
            cv2.fillPoly(out, [np.ascontiguousarray(bay, np.int32)], 255)
    return np.asarray(cv2.bitwise_and(out, cv2.bitwise_not(paper)), np.uint8)


def patches(paper: Image) -> Iterator[tuple[NDArray[np.int32], NDArray[np.int32], float]]:
    """Each paper patch's outer contour with a convexity defect: its points (n x 2), its
    defects as rows of start, end, farthest point and depth (in 256ths of a pixel), and its
    size (the square root of its area). A contour OpenCV cannot order a hull for has none."""
    for contour in cv2.findContours(paper, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[-2]:
        if len(contour) < 4:
            continue
        try:
            defects = cv2.convexityDefects(contour, cv2.convexHull(contour, returnPoints=False))
        except cv2.error:
            continue
        if defects is not None:
            yield (np.asarray(contour, np.int32).reshape(-1, 2),
                   np.asarray(defects, np.int32).reshape(-1, 4),
                   float(np.sqrt(cv2.contourArea(contour))))


@numba.njit(cache=True, nogil=True)
def _bay_ends(points, defects, widest):  # type: ignore[no-untyped-def]
    """The bays of a contour (``points``, n x 2) along its convexity ``defects`` (rows of
    start, end, farthest point, depth in 256ths of a pixel), as rows of their first and
    last point's index in the contour: in each defect at least ``BAY_DEPTH`` deep, the
    stretch of the contour from its start to its end (round past the contour's end where
    the end lies before the start), its runs of points farther than ``BAY_SHORE`` from the
    chord between its ends, at least ``BAY_DEPTH`` deep, each with the shore point before
    and after it, where those lie at most ``widest`` pixels apart. A loop over the points
    rather than numpy's calls: a frame's contours hold hundreds of short stretches, and
    numpy's calls on each cost more than the arithmetic."""
    n = len(points)
    firsts, lasts = [], []
    for d in range(len(defects)):
        start, end, depth = int(defects[d, 0]), int(defects[d, 1]), int(defects[d, 3])
        if depth / 256.0 < BAY_DEPTH:
            continue
        count = end - start + 1 if end >= start else n - start + end + 1
        x0, y0 = float(points[start, 0]), float(points[start, 1])
        cx = float(points[end, 0]) - x0
        cy = float(points[end, 1]) - y0
        length = math.hypot(cx, cy)
        if length < 1.0:
            continue
        run = -1  # the first point of the run of points off the shore, if in one
        deepest = 0.0
        for i in range(count + 1):
            away = -1.0  # past the stretch's end: on the shore
            if i < count:
                k = (start + i) % n
                away = abs((points[k, 0] - x0) * cy - (points[k, 1] - y0) * cx) / length
            if away > BAY_SHORE:
                if run < 0:
                    run, deepest = i, away
                else:
                    deepest = max(deepest, away)
            elif run >= 0:
                a, b = max(run - 1, 0), min(i, count - 1)
                ka, kb = (start + a) % n, (start + b) % n
                mouth = math.hypot(float(points[ka, 0] - points[kb, 0]),
                                   float(points[ka, 1] - points[kb, 1]))
                if deepest >= BAY_DEPTH and mouth <= widest:
                    firsts.append(ka)
                    lasts.append(kb)
                run = -1
    out = np.empty((len(firsts), 2), np.int64)
    for j in range(len(firsts)):
        out[j, 0], out[j, 1] = firsts[j], lasts[j]
    return out
