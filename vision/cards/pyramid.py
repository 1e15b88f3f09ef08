"""A frame and its half-size copies (an image pyramid), each shrunk only where it is read.

Patches whose pixels span more than the frame's are cut from a copy shrunk by half (or by
half again), so that sampling does not alias (``patch``). A level is made in tiles of
``TILE`` x ``TILE`` pixels, only those the patches cut from it reach, when first asked
for: a frame's patches read only a part of the half-size copy, a small one in the plain
styles (figures in ``docs/benchmarks.md``). Each pixel is ``cv2.pyrDown``'s to the last
bit: the 5 x 5 kernel ``[1 4 6 4 1]`` along the rows and down the columns, summed in whole
numbers, ``(sum + 128) >> 8``, the frame's edges reflected (``BORDER_REFLECT_101``)
(``tests/vision/test_pyramid.py`` compares them).
"""

from __future__ import annotations

import cv2
import numba
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
TILE = 16  # a level's pixels are made in tiles this wide and high
# Where more than WHOLE of a level's tiles are to be made at once, OpenCV makes the whole
# level: it shrinks a pixel more quickly than ``_shrink``, so tiles pay only where they
# are few.
WHOLE = 0.5


class Pyramid:
    """A frame and its half-size copies, made when first needed, where first needed."""

    def __init__(self, frame: Image) -> None:
        self.levels: list[Image] = [frame]
        self._made: list[NDArray[np.bool_]] = [np.ones((1, 1), np.bool_)]
        # Only BGR frames are shrunk tile by tile; any other image whole, by OpenCV.
        self._tiled = frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8

    def level(self, k: int) -> Image:
        """The frame shrunk ``k`` times by half, all of it."""
        while len(self.levels) <= k:
            self._add()
        if k and self._tiled:
            self._make(k, np.ones_like(self._made[k]))
        return self.levels[k]

    def sampled(self, k: int, mx: NDArray[np.float32], my: NDArray[np.float32],
                area: int, width: int = 0) -> Image:
        """The frame shrunk ``k`` times by half, right wherever the sampling grids ``mx``,
        ``my`` (``area`` points a patch, in that level's pixels) read it, bilinearly (two
        pixels to spare on either side of each patch's points); undefined elsewhere
        unless asked for before. ``width``: each patch's points are rows of that many, an
        affine map of their rows and columns rounded in float32 (``patch._grid``), so that
        its corners bound them (``_reached_grids``); 0: any points, each looked at."""
        while len(self.levels) <= k:
            self._add()
        if k and self._tiled:
            need = np.zeros_like(self._made[k])
            h, w = self.levels[k].shape[:2]
            if width:
                _reached_grids(mx.ravel(), my.ravel(), area, width, h, w, TILE, need)
            else:
                _reached(mx.ravel(), my.ravel(), area, h, w, TILE, need)
            self._make(k, need)
        return self.levels[k]

    def _make(self, k: int, need: NDArray[np.bool_]) -> None:
        """Makes the tiles of level ``k`` flagged in ``need`` not made yet, and first the
        tiles of the level above they read."""
        new = need & ~self._made[k]
        count = int(np.count_nonzero(new))
        if not count:
            return
        if count > WHOLE * new.size:  # OpenCV's whole level is the quicker
            made = self._made[k - 1]
            if not made.all():
                self._make(k - 1, np.ones_like(made))
            cv2.pyrDown(self.levels[k - 1], dst=self.levels[k])
            self._made[k][:] = True
            return
        if k > 1:
            above = np.zeros_like(self._made[k - 1])
            _above(new, TILE, self.levels[k - 1].shape[0], self.levels[k - 1].shape[1], above)
            self._make(k - 1, above)
        _shrink(self.levels[k - 1], self.levels[k], new, TILE)
        self._made[k] |= new

    def _add(self) -> None:
        """The next level: whole by OpenCV where the frame is not tiled, else to be made."""
        last = self.levels[-1]
        if not self._tiled:
            self.levels.append(np.asarray(cv2.pyrDown(last), np.uint8))
            self._made.append(np.ones((1, 1), np.bool_))
            return
        h, w = (last.shape[0] + 1) // 2, (last.shape[1] + 1) // 2
        self.levels.append(np.empty((h, w, 3), np.uint8))
        self._made.append(np.zeros((-(-h // TILE), -(-w // TILE)), np.bool_))


@numba.njit(cache=True, nogil=True)
def _mirrored(i, n):  # type: ignore[no-untyped-def]
    """Row ``i`` of ``n`` as ``BORDER_REFLECT_101`` reads it: the reflection repeats every
    ``2 n - 2`` rows and is even about row 0. Kept here, not taken from ``tones``: numba
    renews a kernel's cached code only when the kernel's own file changes, so a kernel
    calling another file's would keep its old code (docs/architecture.md)."""
    if 0 <= i < n:
        return i
    if n == 1:
        return 0
    period = 2 * n - 2
    j = abs(i) % period
    return j if j < n else period - j


@numba.njit(cache=True, nogil=True)
def _reached(xs, ys, area, h, w, tile, need):  # type: ignore[no-untyped-def]
    """Flags in ``need`` the tiles each patch's points (``area`` of them, flat) reach,
    from two pixels before the least point's floor to two after the most point's floor
    plus one, clipped to the level (h x w); all of them where a point is not a number."""
    for p in range(xs.shape[0] // area):
        lx = hx = xs[p * area]
        ly = hy = ys[p * area]
        for q in range(p * area, (p + 1) * area):
            lx, hx = min(lx, xs[q]), max(hx, xs[q])
            ly, hy = min(ly, ys[q]), max(hy, ys[q])
            if xs[q] != xs[q] or ys[q] != ys[q]:
                need[:, :] = True
                return
        x0 = min(max(int(np.floor(lx)) - 2, 0), w - 1) // tile
        x1 = min(max(int(np.floor(hx)) + 3, 0), w - 1) // tile
        y0 = min(max(int(np.floor(ly)) - 2, 0), h - 1) // tile
        y1 = min(max(int(np.floor(hy)) + 3, 0), h - 1) // tile
        need[y0:y1 + 1, x0:x1 + 1] = True


# How far a grid's point may lie beyond the bounds of its corners, in pixels: an affine map
# takes its extremes at the corners, and its float32 rounding errs by thousandths of a pixel
# in a frame's coordinates.
SLACK = 0.5
_FAR = 1e9  # a corner this far off, or not a number, has every tile made


@numba.njit(cache=True, nogil=True)
def _reached_grids(xs, ys, area, width, h, w, tile, need):  # type: ignore[no-untyped-def]
    """``_reached`` for grids (``Pyramid.sampled``'s ``width``): each patch's points
    bounded by its four corners, ``SLACK`` to spare, so the tiles flagged hold all those
    ``_reached`` flags (a few more at most), at four points a patch rather than all of them."""
    slack = np.float32(SLACK)
    for p in range(xs.shape[0] // area):
        a = p * area
        b, c, d = a + width - 1, a + area - width, a + area - 1
        for q in (a, b, c, d):
            if not (abs(xs[q]) < _FAR and abs(ys[q]) < _FAR):  # not a number, or infinite
                need[:, :] = True
                return
        lx = min(min(xs[a], xs[b]), min(xs[c], xs[d])) - slack
        hx = max(max(xs[a], xs[b]), max(xs[c], xs[d])) + slack
        ly = min(min(ys[a], ys[b]), min(ys[c], ys[d])) - slack
        hy = max(max(ys[a], ys[b]), max(ys[c], ys[d])) + slack
        x0 = min(max(int(np.floor(lx)) - 2, 0), w - 1) // tile
        x1 = min(max(int(np.floor(hx)) + 3, 0), w - 1) // tile
        y0 = min(max(int(np.floor(ly)) - 2, 0), h - 1) // tile
        y1 = min(max(int(np.floor(hy)) + 3, 0), h - 1) // tile
        need[y0:y1 + 1, x0:x1 + 1] = True


@numba.njit(cache=True, nogil=True)
def _above(tiles, tile, h, w, need):  # type: ignore[no-untyped-def]
    """Flags in ``need`` the tiles of the level above (h x w pixels) that the flagged
    ``tiles`` are made from: source pixels 2 x - 2 to 2 x + 2 of every pixel x."""
    for ty in range(tiles.shape[0]):
        for tx in range(tiles.shape[1]):
            if tiles[ty, tx]:
                x0 = max(2 * tx * tile - 2, 0) // tile
                x1 = min(2 * (tx + 1) * tile, w - 1) // tile
                y0 = max(2 * ty * tile - 2, 0) // tile
                y1 = min(2 * (ty + 1) * tile, h - 1) // tile
                need[y0:y1 + 1, x0:x1 + 1] = True


@numba.njit(cache=True, nogil=True)
def _shrink(src, dst, tiles, tile):  # type: ignore[no-untyped-def]
    """Into ``dst`` (``src`` shrunk by half, BGR, both C-contiguous): the pixels of the
    tiles flagged in ``tiles`` (``tile`` pixels a side), as ``cv2.pyrDown`` makes them. A
    row of tiles' runs of flagged tiles are made a row of pixels at a time: the kernel down
    the columns over the five source rows (reflected at the frame's edges), each column's
    three sums packed in 16-bit lanes of one word, then along the row on those words (a
    lane's sum is at most 16 x 16 x 255 + 128, below 2**16: no lane carries into the
    next). Flat arrays and unsigned offsets, as in ``patch``: no views made per row, no
    index checked for wrapping around."""
    u = np.uint64
    height, width = src.shape[0], src.shape[1]
    h, w = dst.shape[0], dst.shape[1]
    flat, out = src.ravel(), dst.ravel()
    span, out_span = u(3 * width), u(3 * w)
    # Each source column's sums down the columns, packed (blue, green, red in lanes of 16
    # bits), for columns -2 to width + 1 (reflected beyond the frame).
    down = np.zeros(width + 4, np.uint64)
    four, six, sixteen, thirty_two = u(4), u(6), u(16), u(32)
    half = u(128) | (u(128) << sixteen) | (u(128) << thirty_two)
    byte = u(0xFF)
    for ty in range(tiles.shape[0]):
        tx = 0
        while tx < tiles.shape[1]:
            if not tiles[ty, tx]:
                tx += 1
                continue
            end = tx
            while end < tiles.shape[1] and tiles[ty, end]:
                end += 1
            x0, x1 = tx * tile, min(end * tile, w)  # the run's pixels, x0 to x1 - 1
            c0, c1 = max(2 * x0 - 2, 0), min(2 * x1, width - 1)  # its source columns
            for y in range(ty * tile, min((ty + 1) * tile, h)):
                r0 = u(_mirrored(2 * y - 2, height)) * span
                r1 = u(_mirrored(2 * y - 1, height)) * span
                r2 = u(_mirrored(2 * y, height)) * span
                r3 = u(_mirrored(2 * y + 1, height)) * span
                r4 = u(_mirrored(2 * y + 2, height)) * span
                for c in range(u(c0), u(c1 + 1)):
                    i = u(3) * c
                    down[c + u(2)] = (_packed(flat, r0 + i) + _packed(flat, r4 + i)
                                      + four * (_packed(flat, r1 + i) + _packed(flat, r3 + i))
                                      + six * _packed(flat, r2 + i))
                for c in range(2 * x0 - 2, c0):  # left of the frame: reflected
                    down[c + 2] = down[_mirrored(c, width) + 2]
                for c in range(c1 + 1, 2 * x1 + 1):  # right of it
                    down[c + 2] = down[_mirrored(c, width) + 2]
                row = u(y) * out_span
                for x in range(u(x0), u(x1)):
                    at = x + x  # pixel x's sums start at column 2 x - 2
                    total = (down[at] + down[at + u(4)]
                             + four * (down[at + u(1)] + down[at + u(3)])
                             + six * down[at + u(2)] + half)
                    o = row + u(3) * x
                    out[o] = np.uint8((total >> u(8)) & byte)
                    out[o + u(1)] = np.uint8((total >> u(24)) & byte)
                    out[o + u(2)] = np.uint8((total >> u(40)) & byte)
            tx = end


@numba.njit(cache=True, nogil=True, inline="always")
def _packed(flat, i):  # type: ignore[no-untyped-def]
    """The three bytes of a pixel at ``i`` in lanes of 16 bits."""
    return (np.uint64(flat[i]) | (np.uint64(flat[i + np.uint64(1)]) << np.uint64(16))
            | (np.uint64(flat[i + np.uint64(2)]) << np.uint64(32)))
