"""A frame's tones against its local white level, in one compiled pass.

The ink threshold compares each pixel's darkest channel (sharpened or not) with a share of
the white level around it: the darkest channel dilated by a square window, then averaged
over the same window. With OpenCV that is a split, two minima, a dilation, a box blur, a
Gaussian blur and a weighted sum for the sharpening, two scalings and three compares, each
a pass over a whole plane (1.5 ms per 1280 x 720 frame, 2.3 sharpened). Here the frame's
rows flow through the same steps a few rows apart, each row kept in a small ring while later
steps need it, so every plane but the three masks stays in the cache (1.25 ms, 1.9
sharpened).

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
* a share of the white is ``ratio`` of it rounded down (``ink._scaled``), as whole numbers.

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
    channel is above ``white_min``. Only where ``compiled`` says so."""
    if not compiled(window, sharpen, sigma):
        raise ValueError(f"no compiled tones for window {window}, sharpen {sharpen}")
    image = np.ascontiguousarray(frame, np.uint8)
    h, w = image.shape[:2]
    dark, core_mask, lit = (np.empty((h, w), np.uint8) for _ in range(3))
    # A window's sum of 255s fits 16 bits up to 15 x 15; wider windows sum in 32 bits.
    sums = np.uint16 if window * window * 255 < 1 << 16 else np.uint32
    amount = round(sharpen * (1 << SHARPEN_BITS)) if sharpen > 0 else 0
    taps = _fixed_kernel(sigma) if amount else np.ones(1, np.int32)
    half, multiplier = _divider(window)
    _tones(image, window, half, multiplier, np.zeros(1, sums), taps, amount, ink, core,
           white_min, dark, core_mask, lit)
    return dark, core_mask, lit


# A level's hundredths divided by 100, rounded down, as a multiply and a shift: exact for
# every level and every whole number of hundredths (checked in ``_divider``).
_HUNDREDTH, _HUNDREDTH_SHIFT = 5243, 19
_DIVIDER_SHIFT = 40


@functools.cache
def _divider(window: int) -> tuple[int, int]:
    """``half`` and ``multiplier`` such that ``((s + half) * multiplier) >> _DIVIDER_SHIFT``
    is the mean of a sum s of window x window levels, rounded (an odd count: the mean never
    lies halfway), for every such sum; checked here for all of them, and the hundredths
    too."""
    count = window * window
    half = (count - 1) // 2
    multiplier = (1 << _DIVIDER_SHIFT) // count + 1
    sums = np.arange(count * 255 + 1, dtype=np.uint64)
    exact = (2 * sums + count) // (2 * count)
    if not np.array_equal(((sums + half) * multiplier) >> _DIVIDER_SHIFT, exact):
        raise ArithmeticError(f"no exact divider for a {window} x {window} window")
    levels = np.arange(256)[:, None] * np.arange(101)[None, :]
    if not np.array_equal((levels * _HUNDREDTH) >> _HUNDREDTH_SHIFT, levels // 100):
        raise ArithmeticError("no exact hundredths")
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
# (measured: 10 to 30 times quicker than one pixel at a time). Each is a small function of
# two or three rows (with more, the compiler gives up checking that they do not overlap and
# goes one pixel at a time), indexed by the loop's own counter, an offset taken as a view
# (``row[k:]``) rather than added to the index (an index that may be negative is checked
# for wrapping around, pixel by pixel), and none writes a row it reads.


@numba.njit(cache=True, nogil=True)
def _darkest(pixels, out):  # type: ignore[no-untyped-def]
    """``out[x]``: the darkest of the three channels of pixel x of the flat BGR row."""
    for x in range(out.shape[0]):
        b = pixels[3 * x]
        g = pixels[3 * x + 1]
        r = pixels[3 * x + 2]
        m = b if b < g else g
        out[x] = m if m < r else r


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
def _max_into(source, target):  # type: ignore[no-untyped-def]
    """``target[x]``: the most of itself and ``source[x]``."""
    for x in range(target.shape[0]):
        u = target[x]
        v = source[x]
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
def _slide(entering, leaving, target):  # type: ignore[no-untyped-def]
    """``target[x] += entering[x] - leaving[x]`` (modulo the type's range: a window's true
    sum fits it, so the result is exact)."""
    for x in range(target.shape[0]):
        target[x] += entering[x] - leaving[x]


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
def _shares(sums, half, multiplier, ink, core, ink_out, core_out):  # type: ignore[no-untyped-def]
    """``ink_out[x]`` and ``core_out[x]``: ``ink`` and ``core`` hundredths, rounded down, of
    the window's mean level, ``sums[x]`` over the window's pixels rounded (``_divider``:
    ``half`` and ``multiplier``). All in whole numbers, by multiplies and shifts."""
    m = np.uint64(multiplier)
    h = np.uint64(half)
    i = np.uint64(ink)
    c = np.uint64(core)
    hundredth = np.uint64(_HUNDREDTH)
    for x in range(ink_out.shape[0]):
        white = ((np.uint64(sums[x]) + h) * m) >> np.uint64(_DIVIDER_SHIFT)
        ink_out[x] = (white * i * hundredth) >> np.uint64(_HUNDREDTH_SHIFT)
        core_out[x] = (white * c * hundredth) >> np.uint64(_HUNDREDTH_SHIFT)


@numba.njit(cache=True, nogil=True)
def _below(levels, limits, out):  # type: ignore[no-untyped-def]
    """``out[x]``: 255 where ``levels[x]`` is below ``limits[x]``."""
    for x in range(out.shape[0]):
        out[x] = 255 if levels[x] < limits[x] else 0


@numba.njit(cache=True, nogil=True)
def _above(levels, least, out):  # type: ignore[no-untyped-def]
    """``out[x]``: 255 where ``levels[x]`` is above ``least``."""
    for x in range(out.shape[0]):
        out[x] = 255 if levels[x] > least else 0


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
def _tones(frame, window, half, multiplier, zero, taps, amount, ink, core, white_min,  # type: ignore[no-untyped-def]
           dark, core_mask, lit):
    """Fills ``dark``, ``core_mask`` and ``lit`` (see ``tones``); ``half`` and
    ``multiplier``: the window's mean as ``_divider`` gives it; ``zero``: a sum of the
    type the window's sums are kept in; ``taps``: the Gaussian kernel in 8-bit fixed point;
    ``amount``: the sharpening in 2**-14 (0 for none).

    Step t makes row t of the darkest channel, its maxima along the row and its Gaussian
    sums along the row; row t - a (a: half the window) of the dilation and its sums along
    the row; row t - lag of the masks. Each kind of row lives in a ring of ``ring`` rows,
    enough for every row (and every row reflected at the frame's edges) a later step
    reads."""
    h, w = dark.shape
    a = window // 2
    g = taps.shape[0] // 2
    lag = max(2 * a, g)
    ring = 1
    while ring < lag + a + g + 2:
        ring *= 2
    sum_type = zero.dtype
    low = np.empty((ring, w), np.uint8)
    maxima = np.empty((ring, w), np.uint8)
    sums = np.empty((ring, w), sum_type)
    smooth = np.empty((ring, w), np.uint16)  # rows of the Gaussian, 8 fractional bits
    padded = np.zeros(w + window, np.uint8)  # zeros: the dilation ignores the border
    first = np.empty(w + window, np.uint8)
    second = np.empty(w + window, np.uint8)
    reflected = np.empty(w + 2 * g, np.uint8)
    wide = np.empty(w + window, sum_type)
    wide_first = np.empty(w + window, sum_type)
    wide_second = np.empty(w + window, sum_type)
    dilated = np.empty(w, np.uint8)
    column = np.empty(w, sum_type)
    ink_limit = np.empty(w, np.uint8)
    core_limit = np.empty(w, np.uint8)
    blurred = np.empty(w, np.uint32)
    sharpened = np.empty(w, np.uint8)
    middle = padded[a:]
    for t in range(h + lag):
        if t < h:
            row = low[t % ring]
            _darkest(frame[t].reshape(3 * w), row)
            _copy(row, middle, w)
            _window_max(padded, maxima[t % ring], first, second, window)
            if amount:
                # The Gaussian along the row (the border reflected), 8 fractional bits.
                _pad_reflected(row, reflected, g)
                _gauss_row(reflected, taps, smooth[t % ring])
        d = t - a
        if 0 <= d < h:
            # The dilation's row d: the most of the maxima of rows d - a to d + a, then
            # its sums along the row (the border reflected).
            lo = max(d - a, 0)
            _copy(maxima[lo % ring], dilated, w)
            for j in range(lo + 1, min(d + a, h - 1) + 1):
                _max_into(maxima[j % ring], dilated)
            _pad_reflected(dilated, wide, a)
            _window_sum(wide, sums[d % ring], wide_first, wide_second, window)
        y = t - lag
        if 0 <= y < h:
            # The window's sum over rows y - a to y + a: the first one whole, each next
            # one by the row entering less the row leaving.
            if y == 0:
                column[:] = 0
                for i in range(-a, a + 1):
                    _add_ahead(sums[_reflect(i, h) % ring], 0, column)
            else:
                _slide(sums[_reflect(y + a, h) % ring], sums[_reflect(y - a - 1, h) % ring],
                       column)
            _shares(column, half, multiplier, ink, core, ink_limit, core_limit)
            row = low[y % ring]
            if amount:
                # The Gaussian down the columns (16 fractional bits), then the sharpening.
                _times(smooth[y % ring], np.uint32(taps[3]), blurred)
                for k in range(1, 4):
                    _add_pair(smooth[_reflect(y - k, h) % ring],
                              smooth[_reflect(y + k, h) % ring], np.uint32(taps[3 - k]), blurred)
                _sharpened(row, blurred, amount, sharpened)
                _below(sharpened, ink_limit, dark[y])
            else:
                _below(row, ink_limit, dark[y])
            _below(row, core_limit, core_mask[y])
            _above(row, white_min, lit[y])
