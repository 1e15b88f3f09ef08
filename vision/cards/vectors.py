"""Index patches as unit vectors: the rank's darkness, the suit's ink per colour channel.

Both are centred and scaled to unit length, so the paper's brightness cancels and the
model (``model.Lda``) compares shapes. The steps are compiled (``_inks``, ``_unit_row``)
and give numpy's float32 arithmetic to the last bit, its summation orders included, so
decks learned before they were compiled read alike. They are kept for speed: with
``measure``'s and ``patch``'s copies the whole read is over twice as fast as with the
library calls (``bench/bench_vision_copies.py``, its ``kept`` line; issue 33), though none
of them earns that alone.
"""

from __future__ import annotations

import cv2
import numba
import numpy as np
from numpy.typing import NDArray

F32 = NDArray[np.float32]


def describe(ranks: NDArray[np.uint8], suits: NDArray[np.uint8]) -> tuple[F32, F32]:
    """Unit vectors: rank patches as grey ink, suit patches as ink per colour channel.

    A rank is compared by shape alone: its darkness, centred and scaled to unit length, so
    the paper's brightness cancels. A suit keeps its colour: each channel is taken relative
    to the patch's paper in that channel (the brightest of its 3 x 3 means) before the
    three are joined.
    """
    n, (rh, rw), (sh, sw) = len(ranks), ranks.shape[1:3], suits.shape[1:3]
    if n == 0:
        return np.zeros((0, rh * rw), np.float32), np.zeros((0, sh * sw * 3), np.float32)
    ranks, suits = np.ascontiguousarray(ranks), np.ascontiguousarray(suits)
    # The 3 x 3 means run across neighbouring patches of the stack, as they always have.
    soft = cv2.blur(suits.reshape(n * sh, sw, 3), (3, 3))
    grey, ink = np.empty((n, rh * rw), np.float32), np.empty((n, sh * sw * 3), np.float32)
    _inks(ranks, suits, np.asarray(soft, np.uint8), grey, ink)
    return grey, ink


@numba.njit(cache=True, nogil=True)
def _inks(ranks, suits, soft, grey, ink):  # type: ignore[no-untyped-def]
    """Into ``grey``: each rank pixel's darkest channel, negated (``-min`` as float32);
    into ``ink``: each suit pixel's channels times ``-1 / paper`` in float32, the paper a
    channel's brightest value of ``soft`` (at least 1). The float32 operations numpy's
    ``-grey.astype(float32)``, ``-1.0 / maximum(brightest, 1).astype(float32)`` and
    ``multiply(uint8, float32)`` make, one at a time, so the same bits, in one pass each
    instead of numpy's strided channel views and temporaries. Each row is then centred and
    scaled to unit length (``_unit_row``) while it is in the cache, not by numpy
    afterwards, with the same bits."""
    u = np.uint64
    n = ranks.shape[0]
    rflat, sflat, bflat, gflat, iflat = (ranks.ravel(), suits.ravel(), soft.ravel(),
                                         grey.ravel(), ink.ravel())
    rarea, sarea = u(ranks.shape[1] * ranks.shape[2]), u(suits.shape[1] * suits.shape[2])
    for i in range(n):
        iu = u(i)
        rb, gb = iu * rarea * u(3), iu * rarea
        for p in range(ranks.shape[1] * ranks.shape[2]):
            q = rb + u(3) * u(p)
            dark = min(min(rflat[q], rflat[q + u(1)]), rflat[q + u(2)])
            gflat[gb + u(p)] = -np.float32(dark)
        _unit_row(gflat, gb, rarea)
        sb = iu * sarea * u(3)
        b, g, r = np.uint8(0), np.uint8(0), np.uint8(0)
        for p in range(suits.shape[1] * suits.shape[2]):
            q = sb + u(3) * u(p)
            b = max(b, bflat[q])
            g = max(g, bflat[q + u(1)])
            r = max(r, bflat[q + u(2)])
        kb = np.float32(-1.0) / np.float32(max(b, np.uint8(1)))
        kg = np.float32(-1.0) / np.float32(max(g, np.uint8(1)))
        kr = np.float32(-1.0) / np.float32(max(r, np.uint8(1)))
        for p in range(suits.shape[1] * suits.shape[2]):
            q = sb + u(3) * u(p)
            iflat[q] = np.float32(sflat[q]) * kb
            iflat[q + u(1)] = np.float32(sflat[q + u(1)]) * kg
            iflat[q + u(2)] = np.float32(sflat[q + u(2)]) * kr
        _unit_row(iflat, sb, sarea * u(3))


@numba.njit(cache=True, nogil=True)
def _unit_row(flat, lo, d):  # type: ignore[no-untyped-def]
    """``flat[lo:lo + d]`` (float32) centred and scaled to unit length in place, to the bit
    as numpy's ``v -= v.mean(axis=1, keepdims=True)``, then ``v /= np.maximum(norm,
    1e-6)[:, None]``, the norm ``np.sqrt(np.einsum("ij,ij->i", v, v))``, make it for a row
    of a C-contiguous ``v``: each sum in numpy's order, the mean's by ``_pairwise``, the
    norm's as einsum's float32 dot product sums it (numpy's baseline SSE: four lanes, four
    vectors a step, each product added to its lane's sum unfused, the tail's lanes one by
    one, then the lanes as ``(0 + 1) + (2 + 3)``). ``lo`` and ``d`` unsigned (uint64).
    A numpy built for another baseline (FMA, wider lanes) would sum otherwise: the tests
    compare rows of every patch size, and of sizes about the blocks, with numpy's bits."""
    u = np.uint64
    zero = np.float32(0)
    mean = _pairwise(flat, lo, d) / np.float32(d)
    for k in range(d):
        flat[lo + u(k)] -= mean
    s0, s1, s2, s3 = zero, zero, zero, zero
    for b in range(d // u(16)):
        x = flat[lo + u(16) * u(b):]
        s0 = x[0] * x[0] + (x[4] * x[4] + (x[8] * x[8] + (x[12] * x[12] + s0)))
        s1 = x[1] * x[1] + (x[5] * x[5] + (x[9] * x[9] + (x[13] * x[13] + s1)))
        s2 = x[2] * x[2] + (x[6] * x[6] + (x[10] * x[10] + (x[14] * x[14] + s2)))
        s3 = x[3] * x[3] + (x[7] * x[7] + (x[11] * x[11] + (x[15] * x[15] + s3)))
    for k in range(d - d % u(16), d):
        y = flat[lo + u(k)]
        if k % u(4) == u(0):
            s0 = y * y + s0
        elif k % u(4) == u(1):
            s1 = y * y + s1
        elif k % u(4) == u(2):
            s2 = y * y + s2
        else:
            s3 = y * y + s3
    scale = max(np.sqrt((s0 + s1) + (s2 + s3)), np.float32(1e-6))
    for k in range(d):
        flat[lo + u(k)] /= scale


@numba.njit(cache=True, nogil=True)
def _pairwise(a, lo, n):  # type: ignore[no-untyped-def]
    """The float32 sum of ``a[lo:lo + n]`` as numpy's ``add.reduce`` of a contiguous row
    makes it (``pairwise_sum``): halves (a multiple of 8 first) down to blocks of at most
    128, a block summed by 8 running sums, folded ``((0 + 1) + (2 + 3)) + ((4 + 5) + (6 +
    7))``, then its last ``n % 8`` one by one; fewer than 8 one by one from 0."""
    u = np.uint64
    if n > u(128):
        half = n // u(2)
        half -= half % u(8)
        return _pairwise(a, lo, half) + _pairwise(a, lo + half, n - half)
    res = np.float32(0)
    if n < u(8):
        for k in range(n):
            res += a[lo + u(k)]
        return res
    r0, r1, r2, r3 = a[lo], a[lo + u(1)], a[lo + u(2)], a[lo + u(3)]
    r4, r5, r6, r7 = a[lo + u(4)], a[lo + u(5)], a[lo + u(6)], a[lo + u(7)]
    blocks = n // u(8)
    for b in range(1, blocks):
        k = lo + u(8) * u(b)
        r0 += a[k]
        r1 += a[k + u(1)]
        r2 += a[k + u(2)]
        r3 += a[k + u(3)]
        r4 += a[k + u(4)]
        r5 += a[k + u(5)]
        r6 += a[k + u(6)]
        r7 += a[k + u(7)]
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    for k in range(blocks * u(8), n):
        res += a[lo + u(k)]
    return res
