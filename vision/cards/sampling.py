"""Patches sampled from an image as ``cv2.remap`` samples them, in compiled loops.

A patch is a turned, scaled grid of points (``grid``) sampled bilinearly from a frame or a
pyramid level (``bilinear``, as ``cv2.remap`` with ``INTER_LINEAR`` and
``BORDER_REPLICATE``), with the mark each point shows (``nearest``, as ``INTER_NEAREST``
with ``BORDER_CONSTANT`` 0, then looked up); ``own_ink`` then paints all but a patch's own
marks with its paper. ``cut`` does the first three in one pass per patch, the grid made as
it is sampled. Not yet used by ``patch``: wired in (cutting through ``cv2.remap``, numpy's
grid, ``np.take`` and the cv2 dilation replaced) it cut the same patches, decks and reads
but no quicker (``_by_level`` about 5 ms per loaded 2color frame either way): the sampling
loop is scalar (a pixel's twelve byte gathers are not vectorised) where OpenCV's is not.

Every value is OpenCV's to the last bit. OpenCV 5's remap of 8-bit images no longer runs
in fixed point: it splits each coordinate into ``floor`` and fraction in float32 and
interpolates with fused multiply-adds, ``v0 = fma(a, p01 - p00, p00)``, ``v1 = fma(a, p11 -
p10, p10)``, ``fma(b, v1 - v0, v0)``, rounded half to even (found so on opencv-python
5.0.0, whose AVX2 code fuses them; OpenCV 4's fixed point, weights in 32nds, differs from
it in many values of random maps). Coordinates must be finite; beyond +-2**31 they are
taken as OpenCV's vector code takes them.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from numba import types
from numba.extending import intrinsic
from numpy.typing import NDArray

Image = NDArray[np.uint8]
F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
I16 = NDArray[np.int16]
I32 = NDArray[np.int32]
I64 = NDArray[np.int64]
Box = tuple[int, int, int, int]  # top row, left column, height, width


def _fma_typed(typingctx, a, b, c):  # type: ignore[no-untyped-def]
    """``a * b + c`` rounded once, as OpenCV's ``v_fma`` (float32)."""
    sig = types.float32(types.float32, types.float32, types.float32)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        fn = builder.module.declare_intrinsic("llvm.fma", [a.type for a in args])
        return builder.call(fn, args)

    return sig, codegen


_fma: Any = intrinsic(_fma_typed)  # LLVM's fma: one rounding on any CPU, fused where it can


@numba.njit(cache=True, nogil=True, inline="always")
def _start(centre, down, step, f, i):  # type: ignore[no-untyped-def]
    """Patch ``i``'s centre and step vector in an image ``f`` times the original size, as
    float32, by the float64 sums numpy made them with (so the same floats)."""
    s = step[i] * f
    dx = np.float32(down[i, 0] * s)
    dy = np.float32(down[i, 1] * s)
    cx = np.float32((centre[i, 0] + 0.5) * f - 0.5)
    cy = np.float32((centre[i, 1] + 0.5) * f - 0.5)
    return cx, cy, dx, dy


@numba.njit(cache=True, nogil=True, inline="always")
def _point(cx, cy, dx, dy, u, v):  # type: ignore[no-untyped-def]
    """A grid point: float32 products and sums in numpy's order, none fused (numba
    contracts nothing without fastmath)."""
    return (cx + u * dy) + v * dx, (cy - u * dx) + v * dy


_INT_MIN = -2147483648  # what cvtps2dq gives a float beyond int32 (as OpenCV takes floor)
_LO, _HI = np.float32(-2147483648.0), np.float32(2147483648.0)
_ROUND = np.float32(8388608.0)  # 2**23: x + 2**23 - 2**23 rounds 0 <= x < 2**23 half to even


@numba.njit(cache=True, nogil=True, inline="always")
def _floor(t):  # type: ignore[no-untyped-def]
    """``floor(t)`` as an int, INT_MIN beyond int32, without a branch (so loops of it are
    vectorised)."""
    r = np.floor(t)
    return np.int64(r) if (r >= _LO) & (r < _HI) else np.int64(_INT_MIN)


@numba.njit(cache=True, nogil=True, inline="always")
def _bilinear_row(flat, h, w, xs, ys, dst, base, frac, offsets):  # type: ignore[no-untyped-def]
    """The points ``xs``, ``ys`` of an image (h x w x 3, ``flat``) sampled as cv2.remap
    INTER_LINEAR, BORDER_REPLICATE samples them (see the module's docstring) into ``dst``
    from ``base`` on. Where each point's four pixels lie, then their values: two loops, the
    first without branches, so compiled as vector code (``frac``, ``offsets``: scratch)."""
    n = len(xs)
    for c in range(n):
        ix, iy = _floor(xs[c]), _floor(ys[c])
        frac[0, c] = xs[c] - np.float32(ix)
        frac[1, c] = ys[c] - np.float32(iy)
        x0, x1 = min(max(ix, 0), w - 1), min(max(ix + 1, 0), w - 1)  # BORDER_REPLICATE
        y0, y1 = min(max(iy, 0), h - 1) * w, min(max(iy + 1, 0), h - 1) * w
        offsets[0, c], offsets[1, c] = (y0 + x0) * 3, (y0 + x1) * 3
        offsets[2, c], offsets[3, c] = (y1 + x0) * 3, (y1 + x1) * 3
    for c in range(n):
        a, b = frac[0, c], frac[1, c]
        o00, o01, o10, o11 = offsets[0, c], offsets[1, c], offsets[2, c], offsets[3, c]
        for k in range(3):
            p00, p01 = np.float32(flat[o00 + k]), np.float32(flat[o01 + k])
            p10, p11 = np.float32(flat[o10 + k]), np.float32(flat[o11 + k])
            v0 = _fma(a, p01 - p00, p00)
            v1 = _fma(a, p11 - p10, p10)
            # 0 <= v <= 255: each step lies between two of the pixels' values.
            dst[base + c * 3 + k] = np.uint8((_fma(b, v1 - v0, v0) + _ROUND) - _ROUND)


@numba.njit(cache=True, nogil=True, inline="always")
def _nearest_row(labels, lut, xs, ys, dst):  # type: ignore[no-untyped-def]
    """The marks at the points ``xs``, ``ys`` into ``dst``: the label of the pixel nearest
    each (rounded half to even, as cvRound), 0 beyond ``labels``, looked up in ``lut``
    (without a branch: a pixel read inside, then dropped where the point lies outside)."""
    h, w = labels.shape
    for c in range(len(xs)):
        ix, iy = np.rint(xs[c]), np.rint(ys[c])
        inside = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
        label = labels[np.int64(min(max(iy, 0), h - 1)), np.int64(min(max(ix, 0), w - 1))]
        dst[c] = lut[label if inside else 0]


@numba.njit(cache=True, nogil=True)
def _grid(centre, down, step, f, w, h, mx, my):  # type: ignore[no-untyped-def]
    hw, hh = np.float32((w - 1) / 2), np.float32((h - 1) / 2)
    for i in range(len(step)):
        cx, cy, dx, dy = _start(centre, down, step, f, i)
        for r in range(h):
            v = np.float32(r) - hh
            for c in range(w):
                mx[i * h + r, c], my[i * h + r, c] = _point(cx, cy, dx, dy,
                                                            np.float32(c) - hw, v)


@numba.njit(cache=True, nogil=True)
def _bilinear(image, mx, my, out):  # type: ignore[no-untyped-def]
    h, w = image.shape[0], image.shape[1]
    n = mx.shape[1]
    flat, dst = image.reshape(-1), out.reshape(-1)
    frac, offsets = np.empty((2, n), np.float32), np.empty((4, n), np.int64)
    for r in range(mx.shape[0]):
        _bilinear_row(flat, h, w, mx[r], my[r], dst, r * n * 3, frac, offsets)


@numba.njit(cache=True, nogil=True)
def _nearest(labels, lut, mx, my, out):  # type: ignore[no-untyped-def]
    for r in range(mx.shape[0]):
        _nearest_row(labels, lut, mx[r], my[r], out[r])


@numba.njit(cache=True, nogil=True)
def _cut(image, f, labels, lut, centre, down, step, which, out, marks):  # type: ignore[no-untyped-def]
    """Patches ``which`` sampled from ``image`` (``f`` times the original size) into
    ``out``, and where ``marks`` has rows the marks they show at the original size."""
    h, w = out.shape[1], out.shape[2]
    hw, hh = np.float32((w - 1) / 2), np.float32((h - 1) / 2)
    with_marks = marks.shape[0] > 0
    flat, dst = image.reshape(-1), out.reshape(-1)
    xs, ys = np.empty(w, np.float32), np.empty(w, np.float32)
    frac, offsets = np.empty((2, w), np.float32), np.empty((4, w), np.int64)
    for i in which:
        cx, cy, dx, dy = _start(centre, down, step, f, i)
        # The marks' grid is the frame's: the patch's own where the image is the frame.
        mcx, mcy, mdx, mdy = _start(centre, down, step, 1.0, i)
        for r in range(h):
            v = np.float32(r) - hh
            for c in range(w):
                xs[c], ys[c] = _point(cx, cy, dx, dy, np.float32(c) - hw, v)
            _bilinear_row(flat, image.shape[0], image.shape[1], xs, ys, dst,
                          ((i * h + r) * w) * 3, frac, offsets)
            if with_marks:
                if f != 1.0:
                    for c in range(w):
                        xs[c], ys[c] = _point(mcx, mcy, mdx, mdy, np.float32(c) - hw, v)
                _nearest_row(labels, lut, xs, ys, marks[i, r])


@numba.njit(cache=True, nogil=True)
def _own_ink(patches, marks, own, top, left, h, w, turn, out):  # type: ignore[no-untyped-def]
    """The box (``top``, ``left``, ``h``, ``w``) of each patch into ``out``, turned by half a
    turn with ``turn``, every pixel not of the patch's own marks grown by one (a 3 x 3
    square, within the box) painted with the box's brightest value per channel."""
    # Grown in two passes, along rows then down columns, a rim of nothing round both:
    # nothing grows from beyond the box.
    mine = np.zeros((h, w + 2), np.uint8)
    wide = np.zeros((h + 2, w), np.uint8)
    for i in range(patches.shape[0]):
        p0, p1, p2 = np.uint8(0), np.uint8(0), np.uint8(0)
        for r in range(h):
            row = patches[i, top + r]
            for c in range(left, left + w):
                p0, p1, p2 = max(p0, row[c, 0]), max(p1, row[c, 1]), max(p2, row[c, 2])
            shown = marks[i, top + r]
            for c in range(w):
                m = shown[left + c]
                hit = np.uint8(0)
                for j in range(own.shape[1]):
                    hit |= np.uint8(m == own[i, j])
                mine[r, c + 1] = hit
            for c in range(w):
                wide[r + 1, c] = mine[r, c] | mine[r, c + 1] | mine[r, c + 2]
        for r in range(h):
            rr = h - 1 - r if turn else r
            for c in range(w):
                cc = w - 1 - c if turn else c
                if wide[r, c] | wide[r + 1, c] | wide[r + 2, c]:
                    out[i, rr, cc, 0] = patches[i, top + r, left + c, 0]
                    out[i, rr, cc, 1] = patches[i, top + r, left + c, 1]
                    out[i, rr, cc, 2] = patches[i, top + r, left + c, 2]
                else:
                    out[i, rr, cc, 0], out[i, rr, cc, 1], out[i, rr, cc, 2] = p0, p1, p2


def grid(centre: F64, down: F64, step: F64, f: float, size: tuple[int, int]
         ) -> tuple[F32, F32]:
    """The sampling grids ((N * h) x w each, as ``cv2.remap`` takes them) of patches of
    ``size`` (w, h) centred on ``centre`` (original pixels, patch x axis (dy, -dx) for
    ``down`` (dx, dy)), ``step`` original pixels per patch pixel, in an image ``f`` times
    the original size."""
    w, h = size
    mx = np.empty((len(step) * h, w), np.float32)
    my = np.empty_like(mx)
    _grid(_f64(centre), _f64(down), np.ascontiguousarray(step, np.float64), float(f), w, h,
          mx, my)
    return mx, my


def bilinear(image: Image, mx: F32, my: F32) -> Image:
    """``image`` (H x W x 3) sampled at ``mx``, ``my``: ``cv2.remap(image, mx, my,
    INTER_LINEAR, borderMode=BORDER_REPLICATE)``, for maps of any number of rows."""
    out = np.empty((1, *mx.shape, 3), np.uint8)
    _bilinear(np.ascontiguousarray(image), np.ascontiguousarray(mx, np.float32),
              np.ascontiguousarray(my, np.float32), out)
    return np.asarray(out[0], np.uint8)


def nearest(labels: I32, lut: I16, mx: F32, my: F32) -> I16:
    """``lut`` at ``cv2.remap(labels, mx, my, INTER_NEAREST, borderMode=BORDER_CONSTANT,
    borderValue=0)``, for maps of any number of rows."""
    out = np.empty(mx.shape, np.int16)
    _nearest(np.ascontiguousarray(labels), lut, np.ascontiguousarray(mx, np.float32),
             np.ascontiguousarray(my, np.float32), out)
    return out


def cut(image: Image, f: float, centre: F64, down: F64, step: F64, which: I64,
        out: Image, marks: tuple[I32, I16, I16] | None = None) -> None:
    """Patches ``which`` of ``out`` (N x h x w x 3) sampled (``bilinear``) from ``image``,
    ``f`` times the original size, on their ``grid``; with ``marks`` (labels, lut and
    N x h x w output) also the mark each of their pixels shows in the original frame
    (``nearest``, on the patches' grid at ``f`` = 1)."""
    labels, lut, shown = marks if marks is not None else (
        np.zeros((1, 1), np.int32), np.full(1, -1, np.int16), np.empty((0, 1, 1), np.int16))
    _cut(np.ascontiguousarray(image), float(f), np.ascontiguousarray(labels), lut,
         _f64(centre), _f64(down), np.ascontiguousarray(step, np.float64),
         np.ascontiguousarray(which, np.int64), out, shown)


def own_ink(patches: Image, marks: I16, own: I64, box: Box | None = None,
            turn: bool = False) -> Image:
    """``box`` of ``patches`` (N x H x W x 3; all of them by default), turned by half a turn
    with ``turn``, with every pixel that is not of its own marks (``own``, N x k, -1 beyond
    them; ``marks``: the mark each patch pixel shows, -1 for none) grown by a pixel (their
    blurred rims) painted with the box's paper (its brightest value per channel)."""
    top, left, h, w = box if box is not None else (0, 0, *patches.shape[1:3])
    own16 = np.where(own >= 0, own, -2).astype(np.int16)  # no pixel shows mark -2
    out = np.empty((len(patches), h, w, 3), np.uint8)
    _own_ink(patches, marks, own16, top, left, h, w, turn, out)
    return out


def _f64(a: F64) -> F64:
    """``a`` as a C-contiguous float64 array (the kernels are compiled for those)."""
    return np.ascontiguousarray(a, np.float64)
