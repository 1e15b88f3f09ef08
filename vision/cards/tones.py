"""A frame's tones against its local white level, in one compiled pass.

The ink threshold compares each pixel's darkest channel (sharpened or not) with a share of
the white level around it: the darkest channel dilated by a square window, then averaged
over the same window. With OpenCV that is a split, two minima, a dilation, a box blur, a
Gaussian blur and a weighted sum for the sharpening, two scalings and three compares, each
a pass over a whole plane. Here the frame's
rows flow through the same steps a few rows apart, each row kept in a small ring while later
steps need it, so every plane but the three masks stays in the cache; the maxima down the
columns are taken over spans doubling in length (4 passes a row for 15, not 15), the
window's sums down the columns by the row entering less the row leaving and along the row
as five sums of three, and the arithmetic is done in 16-bit lanes where it fits, 32-bit
only in the sharpening's general case, so the pass costs less than OpenCV's chain (figures
in ``docs/benchmarks.md``).

Every step gives OpenCV's values to the last bit (``tests/vision/test_tones.py``):

* the dilation ignores pixels outside the frame (OpenCV's border for it);
* the box mean reflects at the edges (``BORDER_REFLECT_101``, ``cv2.blur``'s default) and
  rounds the window's sum to the nearest whole level; with an odd window the sum over its
  odd number of pixels never lies halfway, so no tie rule is needed;
* the Gaussian blur is OpenCV's bit-exact 8-bit one: the kernel in 8-bit fixed point (its
  taps rounded with the error carried on, ``_fixed_kernel``), rows then columns summed in
  integers, the sum rounded from 16 fractional bits;
* the weighted sum ``(1 + s) low - s blurred`` is exact in OpenCV's float arithmetic when
  ``s`` is a whole number of 2**-14 (and at most 2), rounded half to even as OpenCV rounds;
* a share of the white is ``ratio`` of it rounded down (``ink._scaled``), as whole numbers:
  a level is below ``share`` hundredths of the white, rounded down, where
  ``100 (level + 1) <= share * white``.

Other windows (even ones, wider than 31) and other sharpening amounts are left to OpenCV
(``ink._opencv_tones``).
"""

from __future__ import annotations

import functools

import cv2
import numba
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]

SHARPEN_BITS = 14  # sharpening amounts that are whole numbers of 2**-14 are exact here
_GAUSS_BITS = 8  # OpenCV's 8-bit Gaussian kernel: taps in 8-bit fixed point
_GAUSS_TAPS = 7  # the sharpening's Gaussian compiled: 7 taps (sigma 1, as OpenCV sizes it)


def compiled(window: int, sharpen: float, sigma: float) -> bool:
    """Whether ``tones`` computes these tones itself: an odd window up to 31, and no
    sharpening or an amount in ``[0, 2]`` that is a whole number of ``2**-SHARPEN_BITS``
    with a Gaussian of ``sigma`` 7 taps wide (as for 1); otherwise OpenCV does."""
    if window < 1 or window % 2 == 0 or window > 31:
        return False
    if sharpen <= 0:
        return True
    return (sharpen <= 2.0 and float(sharpen * (1 << SHARPEN_BITS)).is_integer()
            and len(_fixed_kernel(sigma)) == _GAUSS_TAPS)


def tones(frame: Image, window: int, sharpen: float, sigma: float, ink: int, core: int,
          white_min: int) -> tuple[Image, Image, Image]:
    """The dark, core and lit masks (255 where true) of a BGR frame: dark where its darkest
    channel, sharpened (``(1 + sharpen)`` times itself less ``sharpen`` times itself blurred
    by a Gaussian of ``sigma``), is below ``ink`` hundredths of the white level (the darkest
    channel dilated by a ``window`` square, then its mean over that square), rounded down;
    core where the darkest channel is below ``core`` hundredths of it; lit where the darkest
    channel is above ``white_min``. Only where ``compiled`` says so, and for shares
    ``ink`` and ``core`` from 0 to 100 hundredths."""
    if not compiled(window, sharpen, sigma):
        raise ValueError(f"no compiled tones for window {window}, sharpen {sharpen}")
    if not (0 <= ink <= 100 and 0 <= core <= 100):
        raise ValueError(f"shares of the white in hundredths, not {ink} and {core}")
    image = np.ascontiguousarray(frame, np.uint8)
    h, w = image.shape[:2]
    dark, core_mask, lit = (np.empty((h, w), np.uint8) for _ in range(3))
    # A window's sum of 255s fits 16 bits up to 15 x 15; wider windows sum in 32 bits.
    sums = np.uint16 if window * window * 255 < 1 << 16 else np.uint32
    amount = round(sharpen * (1 << SHARPEN_BITS)) if sharpen > 0 else 0
    taps = _fixed_kernel(sigma) if amount else np.ones(1, np.int32)
    half, multiplier = _divider15() if window == 15 else _divider(window)
    _tones(image, window, half, multiplier, np.zeros(1, sums), taps, amount, ink, core,
           white_min, dark, core_mask, lit)
    return dark, core_mask, lit


_DIVIDER_SHIFT = 40


@functools.cache
def _divider(window: int) -> tuple[int, int]:
    """``half`` and ``multiplier`` such that ``((s + half) * multiplier) >> _DIVIDER_SHIFT``
    is the mean of a sum s of window x window levels, rounded (an odd count: the mean never
    lies halfway), for every such sum; checked here for all of them."""
    count = window * window
    half = (count - 1) // 2
    multiplier = (1 << _DIVIDER_SHIFT) // count + 1
    sums = np.arange(count * 255 + 1, dtype=np.uint64)
    exact = (2 * sums + count) // (2 * count)
    if not np.array_equal(((sums + half) * multiplier) >> _DIVIDER_SHIFT, exact):
        raise ArithmeticError(f"no exact divider for a {window} x {window} window")
    return half, multiplier


# The decks' window, 15, in 16-bit lanes: the mean of a sum s of 225 levels, rounded, is
# ``(((s + half) * multiplier) >> 16) >> _SHIFT15`` with a 16-bit multiplier.
_SHIFT15 = 7


@functools.cache
def _divider15() -> tuple[int, int]:
    """``half`` and ``multiplier`` for ``_white15``: checked for every sum of 15 x 15
    levels (each term below 2**16)."""
    count = 15 * 15
    half = (count - 1) // 2
    multiplier = (1 << (16 + _SHIFT15)) // count + 1
    sums = np.arange(count * 255 + 1, dtype=np.uint64)
    exact = (2 * sums + count) // (2 * count)
    if (multiplier >= 1 << 16 or int(sums[-1]) + half >= 1 << 16
            or not np.array_equal((((sums + half) * multiplier) >> 16) >> _SHIFT15, exact)):
        raise ArithmeticError("no exact 16-bit divider for a 15 x 15 window")
    return half, multiplier


@functools.cache
def _fixed_kernel(sigma: float) -> NDArray[np.int32]:
    """OpenCV's 8-bit Gaussian kernel for ``sigma``: its size for 8-bit images, its taps
    in 8-bit fixed point, each rounded with the error so far carried on, the centre tap
    making the sum exactly one."""
    size = int(np.rint(sigma * 3 * 2 + 1)) | 1
    exact = cv2.getGaussianKernel(size, sigma, cv2.CV_64F).ravel()
    one = 1 << _GAUSS_BITS
    taps = np.zeros(size, np.int32)
    error = 0.0
    for i in range(size // 2):
        value = exact[i] * one + error
        taps[i] = taps[size - 1 - i] = int(np.rint(value))
        error = value - taps[i]
    taps[size // 2] = one - 2 * int(taps[:size // 2].sum())
    return taps


@numba.njit(cache=True, nogil=True)
def _reflect(i, n):  # type: ignore[no-untyped-def]
    """Row or column ``i`` of ``n`` as ``BORDER_REFLECT_101`` reads it (reflected as often as
    it takes, for sizes smaller than the window)."""
    if n == 1:
        return 0
    while i < 0 or i >= n:
        if i < 0:
            i = -i
        if i >= n:
            i = 2 * n - 2 - i
    return i


# The loops below are written so that the compiler turns them into vector instructions
# (many times quicker than one pixel at a time). Each is a small function
# writing one row (two at most: with more rows written, the compiler gives up checking that
# they do not overlap the rows read and goes one pixel at a time), indexed by the loop's own
# counter, an offset taken as a view (``row[k:]``) rather than added to the index (an index
# that may be negative is checked for wrapping around, pixel by pixel), and none writes a
# row it reads (but ``_slide_levels``, in place). Numba computes whole numbers in 64 bits:
# each step cast back to the narrowest type that holds it (``np.uint16(...)``) lets the
# compiler use lanes of that width, 4 times as many as of 64 bits.


@numba.njit(cache=True, nogil=True)
def _copy(source, target, n):  # type: ignore[no-untyped-def]
    """``target[:n] = source[:n]``."""
    for x in range(n):
        target[x] = source[x]


@numba.njit(cache=True, nogil=True)
def _max_ahead(source, span, target, n):  # type: ignore[no-untyped-def]
    """``target[x]``: the most of ``source[x]`` and ``source[x + span]``, for x below n."""
    ahead = source[span:]
    for x in range(n):
        u = source[x]
        v = ahead[x]
        target[x] = u if u > v else v


@numba.njit(cache=True, nogil=True)
def _sum_ahead(source, span, target, n):  # type: ignore[no-untyped-def]
    """``target[x]``: ``source[x] + source[x + span]``, for x below n."""
    ahead = source[span:]
    for x in range(n):
        target[x] = source[x] + ahead[x]


@numba.njit(cache=True, nogil=True)
def _add_ahead(source, offset, target):  # type: ignore[no-untyped-def]
    """``target[x] += source[x + offset]``."""
    part = source[offset:]
    for x in range(target.shape[0]):
        target[x] += part[x]


@numba.njit(cache=True, nogil=True)
def _pad_reflected(row, out, a):  # type: ignore[no-untyped-def]
    """``out``: ``row`` with ``a`` pixels on either side, reflected (``BORDER_REFLECT_101``)."""
    w = row.shape[0]
    _copy(row, out[a:], w)
    for x in range(a):
        out[x] = row[_reflect(x - a, w)]
        out[a + w + x] = row[_reflect(w + x, w)]


@numba.njit(cache=True, nogil=True)
def _window_max(padded, out, first, second, size):  # type: ignore[no-untyped-def]
    """``out[x]``: the most of ``padded[x:x + size]``. Maxima over spans doubling in length,
    passed between ``first`` and ``second``; two overlapping spans then cover the window, so
    no pixel is compared ``size`` times."""
    w = out.shape[0]
    n = w + size - 1
    if size == 1:
        _copy(padded, out, w)
        return
    _max_ahead(padded, 1, first, n - 1)
    in_first = True
    span = 2
    while span * 2 <= size:
        if in_first:
            _max_ahead(first, span, second, n - 2 * span + 1)
        else:
            _max_ahead(second, span, first, n - 2 * span + 1)
        in_first = not in_first
        span *= 2
    _max_ahead(first if in_first else second, size - span, out, w)


@numba.njit(cache=True, nogil=True)
def _window_sum(padded, out, first, second, size):  # type: ignore[no-untyped-def]
    """``out[x]``: the sum of ``padded[x:x + size]``: sums over spans doubling in length,
    passed between ``first`` and ``second``, those of ``size``'s bits added up."""
    w = out.shape[0]
    n = w + size - 1
    _copy(padded, out, w)  # the lowest bit: an odd window
    offset = 1
    _sum_ahead(padded, 1, first, n - 1)
    in_first = True
    span = 2
    left = size >> 1
    while left:
        if left & 1:
            _add_ahead(first if in_first else second, offset, out)
            offset += span
        left >>= 1
        if left:
            if in_first:
                _sum_ahead(first, span, second, n - 2 * span + 1)
            else:
                _sum_ahead(second, span, first, n - 2 * span + 1)
            in_first = not in_first
            span *= 2


@numba.njit(cache=True, nogil=True)
def _gauss_row(padded, taps, out):  # type: ignore[no-untyped-def]
    """``out[x]``: the 7 taps (symmetric) times ``padded[x:x + 7]``, in one pass."""
    t0 = np.uint16(taps[0])
    t1 = np.uint16(taps[1])
    t2 = np.uint16(taps[2])
    t3 = np.uint16(taps[3])
    p1 = padded[1:]
    p2 = padded[2:]
    p3 = padded[3:]
    p4 = padded[4:]
    p5 = padded[5:]
    p6 = padded[6:]
    for x in range(out.shape[0]):
        out[x] = (t0 * (np.uint16(padded[x]) + np.uint16(p6[x]))
                  + t1 * (np.uint16(p1[x]) + np.uint16(p5[x]))
                  + t2 * (np.uint16(p2[x]) + np.uint16(p4[x])) + t3 * np.uint16(p3[x]))


@numba.njit(cache=True, nogil=True)
def _times(row, tap, out):  # type: ignore[no-untyped-def]
    """``out[x]``: ``tap`` times ``row[x]``."""
    for x in range(out.shape[0]):
        out[x] = tap * np.uint32(row[x])


@numba.njit(cache=True, nogil=True)
def _add_pair(first, second, tap, out):  # type: ignore[no-untyped-def]
    """``out[x] += tap * (first[x] + second[x])``: two rows the same distance either side."""
    for x in range(out.shape[0]):
        out[x] += tap * (np.uint32(first[x]) + np.uint32(second[x]))


@numba.njit(cache=True, nogil=True)
def _sharpened(low, blurred, amount, out):  # type: ignore[no-untyped-def]
    """``out[x]``: ``(1 + s) low - s soft`` rounded half to even, ``amount`` being s in
    ``2**-SHARPEN_BITS`` and soft ``blurred[x]`` (16 fractional bits) rounded to a level."""
    # 32-bit arithmetic throughout (numba widens to 64 bits unless told), all exact:
    # |n| < 2**24.
    bits = np.int32(SHARPEN_BITS)
    s = np.int32(amount)
    whole = np.int32(1 << SHARPEN_BITS) + s
    below_half = np.int32((1 << (SHARPEN_BITS - 1)) - 1)
    one = np.int32(1)
    for x in range(out.shape[0]):
        soft = np.int32((blurred[x] + np.uint32(1 << 15)) >> np.uint32(16))
        n = whole * np.int32(low[x]) - s * soft
        q = (n + below_half + ((n >> bits) & one)) >> bits
        q = q if q > 0 else np.int32(0)
        out[x] = q if q < 255 else np.int32(255)


@numba.njit(cache=True, nogil=True)
def _darkest_lit(pixels, least, out, lit):  # type: ignore[no-untyped-def]
    """``out[x]``: the darkest of the three channels of pixel x of the flat BGR row;
    ``lit[x]``: 255 where that is above ``least``."""
    for x in range(out.shape[0]):
        b = pixels[3 * x]
        g = pixels[3 * x + 1]
        r = pixels[3 * x + 2]
        m = b if b < g else g
        m = m if m < r else r
        out[x] = m
        lit[x] = 255 if m > least else 0


@numba.njit(cache=True, nogil=True)
def _max_pair(first, second, target):  # type: ignore[no-untyped-def]
    """``target[x]``: the most of ``first[x]`` and ``second[x]``."""
    for x in range(target.shape[0]):
        u = first[x]
        v = second[x]
        target[x] = u if u > v else v


@numba.njit(cache=True, nogil=True)
def _zero(target):  # type: ignore[no-untyped-def]
    """``target[x] = 0``."""
    for x in range(target.shape[0]):
        target[x] = 0


@numba.njit(cache=True, nogil=True)
def _slide_levels(entering, leaving, target):  # type: ignore[no-untyped-def]
    """``target[x] += entering[x] - leaving[x]``, levels widened to the sums' type (modulo
    its range: a window's true sum fits it, so the result is exact)."""
    for x in range(target.shape[0]):
        target[x] += target.dtype.type(entering[x]) - target.dtype.type(leaving[x])


@numba.njit(cache=True, nogil=True)
def _reflect_edges(row, a):  # type: ignore[no-untyped-def]
    """Fills the ``a`` pixels either side of ``row[a:-a]``, reflected
    (``BORDER_REFLECT_101``)."""
    w = row.shape[0] - 2 * a
    if w > a:  # reflected once
        for x in range(a):
            row[a - 1 - x] = row[a + 1 + x]
            row[a + w + x] = row[a + w - 2 - x]
        return
    for x in range(a):
        row[x] = row[a + _reflect(x - a, w)]
        row[a + w + x] = row[a + _reflect(w + x, w)]


@numba.njit(cache=True, nogil=True)
def _sum3(source, out):  # type: ignore[no-untyped-def]
    """``out[x]``: ``source[x] + source[x + 1] + source[x + 2]``."""
    p1 = source[1:]
    p2 = source[2:]
    for x in range(out.shape[0]):
        out[x] = source[x] + p1[x] + p2[x]


@numba.njit(cache=True, nogil=True)
def _white15(threes, half, multiplier, out):  # type: ignore[no-untyped-def]
    """``out[x]``: the mean level of a 15 x 15 window, rounded, from ``threes`` (sums of
    three columns' sums, 16 bits): five of them side by side make the window's sum, then
    ``((sum + half) * multiplier) >> (16 + _SHIFT15)`` in 16-bit lanes (``_divider15``)."""
    p1 = threes[3:]
    p2 = threes[6:]
    p3 = threes[9:]
    p4 = threes[12:]
    h = np.uint16(half)
    m = np.uint32(multiplier)
    for x in range(out.shape[0]):
        box = np.uint16(threes[x] + p1[x] + p2[x] + p3[x] + p4[x] + h)
        high = np.uint16(np.uint32(np.uint32(box) * m) >> np.uint32(16))
        out[x] = high >> np.uint16(_SHIFT15)


@numba.njit(cache=True, nogil=True)
def _white(sums, half, multiplier, out):  # type: ignore[no-untyped-def]
    """``out[x]``: the window's mean level, rounded: ``sums[x]`` over the window's pixels
    (``_divider``: ``half`` and ``multiplier``)."""
    m = np.uint64(multiplier)
    h = np.uint64(half)
    for x in range(out.shape[0]):
        out[x] = ((np.uint64(sums[x]) + h) * m) >> np.uint64(_DIVIDER_SHIFT)


@numba.njit(cache=True, nogil=True)
def _below_share(levels, white, share, out):  # type: ignore[no-untyped-def]
    """``out[x]``: 255 where ``levels[x]`` is below ``share`` hundredths of ``white[x]``
    rounded down: where ``100 (level + 1) <= share * white``, whole numbers below 2**16."""
    s = np.uint16(share)
    for x in range(out.shape[0]):
        need = np.uint16(np.uint16(100) * np.uint16(np.uint16(levels[x]) + np.uint16(1)))
        have = np.uint16(np.uint16(white[x]) * s)
        out[x] = 255 if need <= have else 0


@numba.njit(cache=True, nogil=True)
def _sharpened_once(c0, a1, b1, a2, b2, a3, b3, taps, low, out):  # type: ignore[no-untyped-def]
    """``out[x]``: ``2 low - soft`` clamped to levels (the sharpening by 1, where the
    rounding is exact), soft the Gaussian down the column of rows ``c0`` (the middle) and
    ``ak``/``bk`` (k rows above and below; 8 fractional bits), rounded from 16 fractional
    bits, in 16-bit lanes: each row split into its whole levels h and fractions f, the
    taps' sums H of the h and F of the f (each at most 255 * 256, the taps summing to 256),
    and soft = (256 H + F + 2**15) >> 16 = (H + (F >> 8) + 128) >> 8, below 2**16 as
    H + F / 256 is at most 255 * 256."""
    t0 = np.uint16(taps[0])
    t1 = np.uint16(taps[1])
    t2 = np.uint16(taps[2])
    t3 = np.uint16(taps[3])
    e = np.uint16(8)
    f = np.uint16(255)
    for x in range(out.shape[0]):
        s0 = c0[x]
        s1 = a1[x]
        s2 = b1[x]
        s3 = a2[x]
        s4 = b2[x]
        s5 = a3[x]
        s6 = b3[x]
        whole = np.uint16(np.uint16(t3 * np.uint16(s0 >> e))
                          + np.uint16(t2 * np.uint16(np.uint16(s1 >> e) + np.uint16(s2 >> e)))
                          + np.uint16(t1 * np.uint16(np.uint16(s3 >> e) + np.uint16(s4 >> e)))
                          + np.uint16(t0 * np.uint16(np.uint16(s5 >> e) + np.uint16(s6 >> e))))
        part = np.uint16(np.uint16(t3 * np.uint16(s0 & f))
                         + np.uint16(t2 * np.uint16(np.uint16(s1 & f) + np.uint16(s2 & f)))
                         + np.uint16(t1 * np.uint16(np.uint16(s3 & f) + np.uint16(s4 & f)))
                         + np.uint16(t0 * np.uint16(np.uint16(s5 & f) + np.uint16(s6 & f))))
        soft = np.int16(np.uint16(np.uint16(whole + np.uint16(part >> e)) + np.uint16(128)) >> e)
        q = np.int16(np.int16(np.int16(2) * np.int16(low[x])) - soft)
        q = q if q > np.int16(0) else np.int16(0)
        out[x] = q if q < np.int16(255) else np.int16(255)


@numba.njit(cache=True, nogil=True)
def _max_at(source, a, b, c, out):  # type: ignore[no-untyped-def]
    """``out[x]``: the most of ``source`` at x, x + a, x + b and x + c (the most of 4
    pixels from x with 1, 2, 3; of 15 with 4, 8, 11 over maxima of 4)."""
    p1 = source[a:]
    p2 = source[b:]
    p3 = source[c:]
    for x in range(out.shape[0]):
        u = source[x]
        v = p1[x]
        m = u if u > v else v
        u = p2[x]
        v = p3[x]
        n = u if u > v else v
        out[x] = m if m > n else n


@numba.njit(cache=True, nogil=True)
def _tones(frame, window, half, multiplier, zero, taps, amount, ink, core, white_min,  # type: ignore[no-untyped-def]
           dark, core_mask, lit):
    """Fills ``dark``, ``core_mask`` and ``lit`` (see ``tones``); ``half`` and
    ``multiplier``: the window's mean as ``_divider`` gives it (``_divider15`` for 15);
    ``zero``: a sum of the type the window's sums are kept in; ``taps``: the Gaussian kernel
    in 8-bit fixed point; ``amount``: the sharpening in 2**-14 (0 for none).

    Step t (from -a, a: half the window) makes row t of the darkest channel (and of the lit
    mask) and its maxima along the row (zeros for rows outside the frame), and the maxima
    down the columns over spans of 2, 4, 8... rows ending at row t; row t - a of the
    dilation (two overlapping spans); row t - lag + g of the Gaussian along the rows (g:
    half its taps); row t - lag of the window's sums (down the columns by the row entering
    less the row leaving, then along the row), of the white level and of the dark and core
    masks. Each kind of row lives in a ring of ``ring`` rows, enough for every row (and
    every row reflected at the frame's edges) a later step reads: the dilation's 2a + 2
    rows, the darkest channel's lag + 1, the Gaussian's 2g + 1."""
    h, w = dark.shape
    a = window // 2
    g = taps.shape[0] // 2
    lag = max(2 * a, g)
    ring = 1
    while ring < max(lag + 1, 2 * a + 2, 2 * g + 1):
        ring *= 2
    mask = ring - 1
    levels = 0
    while (2 << levels) <= window:
        levels += 1
    top = 1 << levels  # the longest span, at least half the window
    low = np.zeros((ring, w + 2 * a), np.uint8)  # zeros either side: the dilation's border
    # spans[k, j]: maxima down the 2**k rows from row j; spans[levels + 1]: the dilation
    spans = np.empty((levels + 2, ring, w), np.uint8)
    dilated = spans[levels + 1]
    smooth = np.empty((ring, w), np.uint16)  # the Gaussian's rows, 8 fractional bits
    first = np.empty(w + window, np.uint8)
    second = np.empty(w + window, np.uint8)
    reflected = np.empty(w + 2 * g, np.uint8)
    column = np.zeros(w + 2 * a, zero.dtype)  # the sums down the columns, reflected
    middle = column[a:a + w]
    threes = np.empty(w + 2 * a, zero.dtype)
    wide_first = np.empty(w + window, zero.dtype)
    wide_second = np.empty(w + window, zero.dtype)
    box = np.empty(w, zero.dtype)
    white = np.empty(w, np.uint8)
    blurred = np.empty(w, np.uint32)
    sharpened = np.empty(w, np.uint8)
    for t in range(-a, h + lag):
        if 0 <= t < h:
            padded = low[t & mask]
            row = padded[a:a + w]
            _darkest_lit(frame[t].reshape(3 * w), white_min, row, lit[t])
            if window == 15:
                _max_at(padded, 1, 2, 3, first[:w + 11])
                _max_at(first, 4, 8, 11, spans[0, t & mask, :w])
            else:
                _window_max(padded, spans[0, t & mask, :w], first, second, window)
        else:
            _zero(spans[0, t & mask, :w])  # rows outside the frame: ignored by the dilation
        span = 1
        for k in range(1, levels + 1):
            j = t - 2 * span + 1
            _max_pair(spans[k - 1, j & mask], spans[k - 1, (j + span) & mask],
                      spans[k, j & mask, :w])
            span *= 2
        d = t - a
        if 0 <= d < h:
            # The dilation's row d: the most of rows d - a to d + a, two spans of ``top``.
            _max_pair(spans[levels, (d - a) & mask], spans[levels, (d + a + 1 - top) & mask],
                      dilated[d & mask, :w])
        r = t - lag + g
        if amount and 0 <= r < h:
            # The Gaussian along row r (the border reflected), 8 fractional bits.
            _pad_reflected(low[r & mask, a:a + w], reflected, g)
            _gauss_row(reflected, taps, smooth[r & mask, :w])
        y = t - lag
        if 0 <= y < h:
            # The window's sums down the columns over rows y - a to y + a: the first one
            # whole, each next one by the row entering less the row leaving.
            if y == 0:
                _zero(middle)
                for i in range(-a, a + 1):
                    _add_levels(dilated[_reflect(i, h) & mask], middle)
            else:
                _slide_levels(dilated[_reflect(y + a, h) & mask],
                              dilated[_reflect(y - a - 1, h) & mask], middle)
            # Then along the row (the border reflected), and the white level.
            _reflect_edges(column, a)
            if window == 15:
                _sum3(column, threes[:w + 2 * a - 2])
                _white15(threes, half, multiplier, white)
            else:
                _window_sum(column, box, wide_first, wide_second, window)
                _white(box, half, multiplier, white)
            row = low[y & mask, a:a + w]
            if amount == 1 << SHARPEN_BITS:
                _sharpened_once(smooth[y & mask], smooth[_reflect(y - 1, h) & mask],
                                smooth[_reflect(y + 1, h) & mask],
                                smooth[_reflect(y - 2, h) & mask],
                                smooth[_reflect(y + 2, h) & mask],
                                smooth[_reflect(y - 3, h) & mask],
                                smooth[_reflect(y + 3, h) & mask], taps, row, sharpened)
                _below_share(sharpened, white, ink, dark[y])
            elif amount:
                # The Gaussian down the columns (16 fractional bits), then the sharpening.
                _times(smooth[y & mask], np.uint32(taps[3]), blurred)
                for k in range(1, 4):
                    _add_pair(smooth[_reflect(y - k, h) & mask],
                              smooth[_reflect(y + k, h) & mask], np.uint32(taps[3 - k]), blurred)
                _sharpened(row, blurred, amount, sharpened)
                _below_share(sharpened, white, ink, dark[y])
            else:
                _below_share(row, white, ink, dark[y])
            _below_share(row, white, core, core_mask[y])


@numba.njit(cache=True, nogil=True)
def _add_levels(source, target):  # type: ignore[no-untyped-def]
    """``target[x] += source[x]``, levels widened to the sums' type."""
    for x in range(target.shape[0]):
        target[x] += target.dtype.type(source[x])
