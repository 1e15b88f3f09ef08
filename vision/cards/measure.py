"""Each connected component of an ink mask measured in one compiled pass: its box, area and
raw pixel moments.

The numpy way (list the ink's pixels, look their labels up, then one ``ufunc.at`` or
``bincount`` pass per statistic) took about 2.9 ms per 1280 x 720 frame over the reader's
two looks; one pass of a compiled loop over the mask's rows, skipping eight empty bytes at a
time, takes about 0.5 ms. The sums run in raster order, as ``bincount`` over the ink's
pixels in raster order ran them, so every moment is the same float to the last bit (and all
are whole numbers far below 2**53, so exact).
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
F64 = NDArray[np.float64]
I32 = NDArray[np.int32]
_NONE = np.iinfo(np.int32).max  # a box's least x and y before any pixel is seen


class Measures(NamedTuple):
    """Per label: ``stats`` (x, y, width, height, area, as OpenCV's component statistics
    give them; a label with no ink pixel has width and height -INT32_MAX and area 0) and
    ``moments`` (n, sx, sy, sxx, syy, sxy of its ink pixels' coordinates)."""

    stats: I32
    moments: F64


def measure(mask: Image, labels: I32, count: int) -> Measures:
    """The box, area and moments of each of ``count`` labels, over the pixels where ``mask``
    is set (``labels``: the mask's connected components, as ``cv2.connectedComponents``
    numbers them)."""
    stats = np.empty((count, 5), np.int32)
    moments = np.zeros((count, 6), np.float64)
    _reset(stats, 0)
    _measure(np.ascontiguousarray(mask), np.ascontiguousarray(labels), stats, moments, 0,
             count, 0, 0)
    _boxes(stats, 0)
    return Measures(stats, moments)


def measure_more(mask: Image, labels: I32, measures: Measures, first: int, last: int,
                 box: tuple[int, int, int, int]) -> Measures:
    """``measures`` grown to the labels ``first`` to ``last`` (not included): components cut
    from a larger one after it was measured, all of whose pixels lie within ``box`` (x, y,
    width, height); the rows below ``first`` are kept as they are."""
    stats = np.empty((last, 5), np.int32)
    moments = np.zeros((last, 6), np.float64)
    stats[:first], moments[:first] = measures.stats[:first], measures.moments[:first]
    _reset(stats, first)
    x, y, w, h = box
    _measure(np.ascontiguousarray(mask[y:y + h, x:x + w]),
             np.ascontiguousarray(labels[y:y + h, x:x + w]), stats, moments, first, last, x, y)
    _boxes(stats, first)
    return Measures(stats, moments)


def _reset(stats: I32, start: int) -> None:
    stats[start:, :2] = _NONE
    stats[start:, 2:4] = -1
    stats[start:, 4] = 0


def _boxes(stats: I32, start: int) -> None:
    """Far corners to widths and heights, for the rows from ``start`` on."""
    stats[start:, 2] -= stats[start:, 0] - 1
    stats[start:, 3] -= stats[start:, 1] - 1


@numba.njit(cache=True, nogil=True)
def _measure(mask, labels, stats, moments, first, last, x0, y0):  # type: ignore[no-untyped-def]
    """Adds each pixel set in ``mask`` whose label is from ``first`` to ``last`` (not
    included) to its label's running box (least x, least y, most x, most y), area and
    moments; the mask's pixel (x, y) lies at (x0 + x, y0 + y) in the frame."""
    h, w = mask.shape
    words = w // 8
    for y in range(h):
        row = mask[y]
        # Ink is a few percent of a frame: eight empty bytes are skipped as one word.
        packed = row[:words * 8].view(np.uint64)
        fy = float(y0 + y)
        for j in range(words + 1):
            if j < words and packed[j] == 0:
                continue
            end = min(j * 8 + 8, w)
            for x in range(j * 8, end):
                if row[x] == 0:
                    continue
                k = labels[y, x]
                if k < first or k >= last:
                    continue
                gx = x0 + x
                gy = y0 + y
                if gx < stats[k, 0]:
                    stats[k, 0] = gx
                if gy < stats[k, 1]:
                    stats[k, 1] = gy
                if gx > stats[k, 2]:
                    stats[k, 2] = gx
                if gy > stats[k, 3]:
                    stats[k, 3] = gy
                stats[k, 4] += 1
                fx = float(gx)
                moments[k, 0] += 1.0
                moments[k, 1] += fx
                moments[k, 2] += fy
                moments[k, 3] += fx * fx
                moments[k, 4] += fy * fy
                moments[k, 5] += fx * fy
