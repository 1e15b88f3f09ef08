"""The connected components of a mask, labelled and measured in compiled passes.

``label`` finds the mask's runs of set pixels row by row (``_runs``: eight pixels at a
time, passing over words where nothing changes, ink being a few percent of a frame), joins
runs of adjacent rows that touch (8-connectivity) and numbers the components as OpenCV's
block-based labelling (``cv2.CCL_BBDT``) does: by the first 2 x 2 block, in raster order of
blocks, holding a pixel of each. It measures each one's box, area and raw moments from its
runs. Every moment is a sum of whole numbers far below 2**53, so exact in any order: the
same floats as summing pixel by pixel. Labelling and measuring come from the same pass over
the runs, which are taken from each word's bits with each run's root kept at hand while it
is joined (cheaper than OpenCV's labels plus a measuring pass; figures in
``docs/benchmarks.md``). ``opened`` cuts the large marks apart by OpenCV's opening and
labelling; ``reaching_border`` keeps the 4-connected parts of a mask that reach
its border (the felt), and ``filled`` keeps all but the unset ones (shapes with their
holes filled: the cards, in ``ink.masks``).

``label`` and the fills are kept for speed, compiled copies of OpenCV's labelling and
filling though they are: with ``patch``'s and ``vectors``' copies the whole read is over
twice as fast as with the library calls (``bench/bench_vision_copies.py``, its ``kept``
line; issue 33), though none of them earns that alone.
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numba
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
F64 = NDArray[np.float64]
I32 = NDArray[np.int32]
_NONE = np.iinfo(np.int32).max  # a box's least x and y before any pixel is seen
_SQUARE = np.ones((3, 3), np.uint8)


class Measures(NamedTuple):
    """Per label: ``stats`` (x, y, width, height, area, as OpenCV's component statistics
    give them; a label with no ink pixel has width and height -INT32_MAX and area 0) and
    ``moments`` (n, sx, sy, sxx, syy, sxy of its ink pixels' coordinates)."""

    stats: I32
    moments: F64


def label(mask: Image) -> tuple[int, I32, Measures]:
    """The number of labels (the background's 0 included), the label of every pixel of
    ``mask`` (0 where it is not set) and each label's ``Measures``: the labels and their
    numbering are ``cv2.connectedComponentsWithAlgorithm(mask, 8, cv2.CV_32S,
    cv2.CCL_BBDT)``'s."""
    mask = np.ascontiguousarray(mask)
    labels = np.zeros(mask.shape, np.int32)
    count, stats, sums = _label(mask, labels)
    stats[0, :2] = _NONE
    stats[0, 2:4] = -1
    _boxes(stats, 0)
    return int(count), labels, Measures(stats, sums.astype(np.float64))


def reaching_border(mask: Image) -> Image:
    """255 on the 4-connected components of ``mask`` (set where non-zero) that reach the
    image's border, 0 elsewhere."""
    out = np.zeros(mask.shape, np.uint8)
    _reaching(np.ascontiguousarray(mask), False, out, 255)
    return out


def filled(mask: Image) -> Image:
    """255 on ``mask``'s set pixels (non-zero) and on its holes, 0 elsewhere: the unset
    pixels whose 4-connected component reaches the image's border are the outside, all
    else is inside (8-connected shapes with their holes filled)."""
    out = np.full(mask.shape, 255, np.uint8)
    _reaching(np.ascontiguousarray(mask), True, out, 0)
    return out


def clear_reaching(mask: Image, out: Image) -> None:
    """``out`` (a mask of ``mask``'s size) cleared in place where ``mask``'s unset pixels'
    4-connected components reach the border: ``out & filled(mask)``, without ``filled``'s
    plane made, kept and read again."""
    if out.shape != mask.shape or not out.flags.c_contiguous:
        raise ValueError(f"a contiguous mask of {mask.shape} to clear, not {out.shape}")
    _reaching(np.ascontiguousarray(mask), True, out, 0)


def opened(labels: I32, measures: Measures, big: NDArray[np.int64]
           ) -> tuple[int, Measures, NDArray[np.int64]]:
    """Each label of ``big`` opened by a 3 x 3 square within its box
    (``cv2.morphologyEx(..., cv2.MORPH_OPEN)``, whose default border neither erodes nor
    grows it), which cuts the hairlines joining solid marks; the pieces left, numbered as
    ``label`` numbers them in that box (OpenCV's ``CCL_BBDT``), are relabelled in
    ``labels`` (in place) after the labels there are, one big label after another. Returns
    the number of labels now (the background included), ``measures`` grown by the
    pieces' rows (their moments by ``np.bincount``) and the big label each piece was cut
    from (in the pieces' order)."""
    count = len(measures.stats)
    stats, moments = [measures.stats], [measures.moments]
    origin: list[NDArray[np.int64]] = [np.zeros(0, np.int64)]
    for k in big.tolist():
        bx, by, bw, bh = (int(v) for v in measures.stats[k, :4])
        box = labels[by:by + bh, bx:bx + bw]
        grown = cv2.morphologyEx((box == k).astype(np.uint8), cv2.MORPH_OPEN, _SQUARE)
        n, found, boxes, _ = cv2.connectedComponentsWithStatsWithAlgorithm(
            grown, 8, cv2.CV_32S, cv2.CCL_BBDT)
        if n <= 1:
            continue
        pieces: I32 = np.asarray(found, np.int32)
        on = pieces > 0
        box[on] = pieces[on] + (count - 1)
        piece_stats: I32 = np.asarray(boxes[1:], np.int32)
        piece_stats[:, 0] += bx
        piece_stats[:, 1] += by
        stats.append(piece_stats)
        moments.append(_moments(pieces, n, bx, by))
        origin.append(np.full(n - 1, k, np.int64))
        count += n - 1
    return count, Measures(np.concatenate(stats), np.concatenate(moments)), np.concatenate(origin)


def _moments(pieces: I32, n: int, dx: int, dy: int) -> F64:
    """Per piece 1 to ``n - 1`` of ``pieces``: n, sx, sy, sxx, syy, sxy of its pixels'
    coordinates shifted by (``dx``, ``dy``)."""
    ys, xs = np.nonzero(pieces)
    k = pieces[ys, xs]
    x, y = (xs + dx).astype(np.float64), (ys + dy).astype(np.float64)
    out = np.zeros((n, 6), np.float64)
    for i, weights in enumerate((None, x, y, x * x, y * y, x * y)):
        out[:, i] = np.bincount(k, weights, minlength=n)[:n]
    return out[1:]


def _boxes(stats: I32, start: int) -> None:
    """Far corners to widths and heights, for the rows from ``start`` on."""
    stats[start:, 2] -= stats[start:, 0] - 1
    stats[start:, 3] -= stats[start:, 1] - 1


# A byte's position in a word, by the lowest set bit of a byte of flags (0 for none).
_LOWEST = np.array([0] + [(i & -i).bit_length() - 1 for i in range(1, 256)], np.int64)


@numba.njit(cache=True, nogil=True)
def _runs(mask, diagonal, unset=False):  # type: ignore[no-untyped-def]
    """The runs of set pixels of ``mask`` (``unset``: of its unset pixels) in raster order
    (their count, rows, first columns and ends one past the last) and each run's root run:
    the least run of its component, runs of adjacent rows joined where they touch
    (``diagonal``: corner to corner too, 8-connectivity; otherwise side by side only,
    4-connectivity). Rows are read eight pixels at a time (where they lie when a row is a
    whole number of words, else copied into a buffer of whole words with a pixel of no run
    after them): a word that continues the run (or the gap) before it is passed over, and
    in any other the pixels' flags are gathered into one byte whose changes from pixel to
    pixel are the starts and ends of runs, taken bit by bit (quicker than a loop over those
    words' bytes)."""
    h, w = mask.shape
    # Room for the most runs there can be (the pages never written are never touched):
    # arrays grown inside the loop were kept in memory, not in registers, and made reading
    # twice as slow.
    most = h * (w // 2 + 1)
    run_y = np.empty(most, np.int32)
    run_s = np.empty(most, np.int32)  # first pixel
    run_e = np.empty(most, np.int32)  # one past the last
    parent = np.empty(most, np.int32)
    starts = ends = 0  # runs started, runs ended
    prev_lo = prev_hi = 0
    reach = 1 if diagonal else 0
    u = np.uint64
    low7, high, gather = u(0x7F7F7F7F7F7F7F7F), u(0x8080808080808080), u(0x0002040810204081)
    flip = high if unset else u(0)
    # Rows of whole words are read where they lie; others are copied into a buffer of whole
    # words, a pixel of no run after them (a copy per row cost more than the reading).
    aligned = w % 8 == 0
    words = w // 8 if aligned else w // 8 + 1
    row = np.full(words * 8, 255 if unset else 0, np.uint8)
    packed = mask.ravel().view(np.uint64) if aligned else row.view(np.uint64)
    for y in range(h):
        lo = ends
        at = y * words if aligned else 0
        if not aligned:
            row[:w] = mask[y]
        inside = u(0)  # 1 while a run is open
        for j in range(words):
            # Each byte's high bit: whether its pixel is of a run.
            word = packed[at + j]
            word = ((((word & low7) + low7) | word) & high) ^ flip
            if (word == u(0) and inside == u(0)) or (word == high and inside == u(1)):
                continue
            flags = (word * gather) >> u(56)  # the eight high bits in one byte
            changed = (flags ^ ((flags << u(1)) | inside)) & u(0xFF)
            rising, falling = changed & flags, changed & ~flags
            base = j * 8
            while rising:
                run_s[starts] = base + _LOWEST[rising]
                run_y[starts] = y
                starts += 1
                rising &= rising - u(1)
            while falling:
                run_e[ends] = base + _LOWEST[falling]
                parent[ends] = ends
                ends += 1
                falling &= falling - u(1)
            inside = flags >> u(7)
        if inside:  # a run to the row's end
            run_e[ends] = w
            parent[ends] = ends
            ends += 1
        # Join each run to the runs of the row above that touch it, the greater root to
        # the lesser, so that a run's parent never follows it. The run's own root is kept
        # at hand (only its joins change it), not sought again for each run it touches.
        j = prev_lo
        for r in range(lo, ends):
            while j < prev_hi and run_e[j] + reach <= run_s[r]:
                j += 1
            k = j
            a = r
            while k < prev_hi and run_s[k] < run_e[r] + reach:
                b = _root(parent, k)
                if a < b:
                    parent[b] = a
                elif b < a:
                    parent[a] = b
                    a = b
                k += 1
        prev_lo, prev_hi = lo, ends
    # Each run's root: its parent's, found before it (parents precede their runs).
    for r in range(ends):
        parent[r] = parent[parent[r]]
    return ends, run_y, run_s, run_e, parent


@numba.njit(cache=True, nogil=True)
def _reaching(mask, unset, out, value):  # type: ignore[no-untyped-def]
    """Sets ``out`` to ``value`` on the 4-connected components of ``mask``'s set pixels
    (``unset``: of its unset pixels) that reach its border."""
    h, w = mask.shape
    runs, run_y, run_s, run_e, parent = _runs(mask, False, unset)
    rim = np.zeros(runs, np.bool_)
    for r in range(runs):
        if run_y[r] == 0 or run_y[r] == h - 1 or run_s[r] == 0 or run_e[r] == w:
            rim[parent[r]] = True
    flat = out.ravel()
    for r in range(runs):
        if rim[parent[r]]:
            at = run_y[r] * w
            flat[at + run_s[r]:at + run_e[r]] = value


@numba.njit(cache=True, nogil=True)
def _label(mask, labels):  # type: ignore[no-untyped-def]
    """Labels ``mask``'s components (8-connectivity) into ``labels`` (zeros); returns their
    number (the background included), their boxes as least and most x and y and areas, and
    their moments as whole numbers."""
    w = mask.shape[1]
    runs, run_y, run_s, run_e, parent = _runs(mask, True)
    # Number the components by their first 2 x 2 block, as OpenCV's BBDT does.
    half = (w + 1) // 2
    first = np.full(runs, np.iinfo(np.int64).max, np.int64)
    for r in range(runs):
        root = parent[r]
        block = np.int64(run_y[r] // 2) * half + run_s[r] // 2
        if block < first[root]:
            first[root] = block
    roots = np.flatnonzero(parent[:runs] == np.arange(runs))
    order = roots[np.argsort(first[roots])]
    final = np.zeros(runs, np.int32)
    for n in range(len(order)):
        final[order[n]] = n + 1
    count = len(order) + 1
    stats = np.empty((count, 5), np.int32)
    stats[:, 0] = stats[:, 1] = np.iinfo(np.int32).max
    stats[:, 2] = stats[:, 3] = -1
    stats[:, 4] = 0
    sums = np.zeros((count, 6), np.int64)
    for r in range(runs):
        k = final[parent[r]]
        y, s, e = run_y[r], run_s[r], run_e[r]
        for x in range(s, e):
            labels[y, x] = k
        n = e - s
        stats[k, 0] = min(stats[k, 0], s)
        stats[k, 1] = min(stats[k, 1], y)
        stats[k, 2] = max(stats[k, 2], e - 1)
        stats[k, 3] = max(stats[k, 3], y)
        stats[k, 4] += n
        # Sums of x and x * x over s .. e - 1, in closed form.
        sx = np.int64(s + e - 1) * n // 2
        sxx = _squares(np.int64(e) - 1) - _squares(np.int64(s) - 1)
        sums[k, 0] += n
        sums[k, 1] += sx
        sums[k, 2] += np.int64(y) * n
        sums[k, 3] += sxx
        sums[k, 4] += np.int64(y) * y * n
        sums[k, 5] += np.int64(y) * sx
    return count, stats, sums


@numba.njit(cache=True, nogil=True)
def _root(parent, r):  # type: ignore[no-untyped-def]
    """The root of run ``r``'s set, halving the path on the way."""
    while parent[r] != r:
        parent[r] = parent[parent[r]]
        r = parent[r]
    return r


@numba.njit(cache=True, nogil=True)
def _squares(k):  # type: ignore[no-untyped-def]
    """0 * 0 + 1 * 1 + ... + k * k (0 for k below 1)."""
    return k * (k + 1) * (2 * k + 1) // 6 if k > 0 else np.int64(0)
