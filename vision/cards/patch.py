"""Index patches: a group's rank and suit cut out upright, at one size, as unit vectors.

The same cut is used to learn a deck and to read a frame, so both see an index alike. The
axis runs from the rank's ink centroid to the suit's, which gives the turn and the size
(``Shape.scale`` patch pixels for that distance); the rank patch is centred on the rank, the
suit patch on the suit. Ranks are compared by shape alone (the ink's darkness), suits by shape
and colour. Each group is cut in both senses of its axis; the wrong one matches nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from .ink import Groups, MarkMap

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
Image = NDArray[np.uint8]
REMAP_ROWS = 32000  # cv2.remap takes maps of fewer than SHRT_MAX (32767) rows
# The frame's map of marks (``Groups.mark_map``) and each patch's own marks (-1 beyond them).
# A patch keeps only its own marks' ink (``_own_ink``). Over 1,000 bench frames per style
# (seed 2026) right reads went 99.25, 99.29, 98.70, 98.80 -> 99.32, 99.37, 99.64, 99.65 %
# (2color, 4color, 2color-bf, 4color-bf), wrong reads 2, 2, 3, 3 -> 3, 3, 0, 0. Before the
# "1" of a ten was learned as a part (``codes.TEN_ONE``) the plain styles had 8 and 6 wrong
# (tens read as sevens); keeping the ink of the candidate's whole linked group instead of
# its own marks read 98.68 and 98.64 % with 8 and 9 wrong.
Own = tuple[MarkMap, NDArray[np.int64]]
_GROW = np.ones((3, 3), np.uint8)


@dataclass(frozen=True)
class Shape:
    """How patches are cut: ``scale`` patch pixels from the rank's centroid to the suit's,
    and the rank and suit patches' (width, height)."""

    scale: float
    rank: tuple[int, int]
    suit: tuple[int, int]


# Tried on ``bench/bench_vision.py`` (1,000 frames, seed 2026): scale 14, with 28 x 30 and
# 22 x 22 patches and the reader's odds raised from 9 to 15, read 98.37 and 95.40 % of 2color
# and 2color-bf cards right against 98.13 and 93.93 % at 11, but 2.0 and 3.1 in 10,000 wrong
# against 1.0 and 2.0, and took 15-25 % longer; kept at 11. Close calls are cut again at twice
# the resolution (``FINE``) and settled there (``reader``).
COARSE = Shape(11.0, (22, 24), (18, 18))
FINE = Shape(22.0, (44, 48), (36, 36))


def _strip_fits(shape: Shape) -> bool:
    """Whether one strip holds a two-mark group's patches in both senses (``cut_both``): the
    rank and suit grids align when ``scale`` is whole and the patches differ by even sizes."""
    (rw, rh), (sw, sh) = shape.rank, shape.suit
    return (float(shape.scale).is_integer() and rw >= sw and rh >= sh
            and (rw - sw) % 2 == 0 and (rh - sh) % 2 == 0)


class Pyramid:
    """A frame and its half-size copies, made when first needed (to shrink without aliasing)."""

    def __init__(self, frame: Image) -> None:
        self.levels: list[Image] = [frame]

    def level(self, k: int) -> Image:
        """The frame shrunk ``k`` times by half."""
        while len(self.levels) <= k:
            self.levels.append(np.asarray(cv2.pyrDown(self.levels[-1]), np.uint8))
        return self.levels[k]


def geometry(groups: Groups, sense: int | NDArray[np.int_]) -> tuple[F64, F64, F64, F64]:
    """Rank centroids, suit centroids, unit "down" vectors and rank-to-suit lengths."""
    way = np.broadcast_to(np.asarray(sense), (len(groups),))
    ends = groups.ends[np.arange(len(groups)), way]
    rank = ends[:, 0]
    suit = ends[:, 1]
    axis = suit - rank
    length = np.maximum(np.hypot(axis[:, 0], axis[:, 1]), 1e-6)
    return rank, suit, axis / length[:, None], length


def _grid(centre: F64, down: F64, step: F64, f: float, size: tuple[int, int]
          ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """The remap grids ((N * h) x w each) of patches of ``size`` centred on ``centre``
    (original pixels), ``step`` image pixels per patch pixel, in an image ``f`` times the
    original size."""
    w, h = size
    u = np.arange(w, dtype=np.float32) - (w - 1) / 2
    v = np.arange(h, dtype=np.float32) - (h - 1) / 2
    dx = (down[:, 0] * step).astype(np.float32)[:, None, None]
    dy = (down[:, 1] * step).astype(np.float32)[:, None, None]
    cx = ((centre[:, 0] + 0.5) * f - 0.5).astype(np.float32)[:, None, None]
    cy = ((centre[:, 1] + 0.5) * f - 0.5).astype(np.float32)[:, None, None]
    uu, vv = u[None, None, :], v[None, :, None]
    # The patch x axis in the image is (dy, -dx).
    return (cx + uu * dy + vv * dx).reshape(-1, w), (cy - uu * dx + vv * dy).reshape(-1, w)


def _marks_at(mark_map: MarkMap, centre: F64, down: F64, step: F64,
              size: tuple[int, int]) -> NDArray[np.int16]:
    """The mark (``Groups.mark_map``) each pixel of the patches ``_by_level`` cuts shows, -1
    for none: the frame's labels are sampled at its own size, nearest pixel (``_looked_up``)."""
    return _looked_up(mark_map, *_grid(centre, down, step, 1.0, size)).reshape(
        len(centre), size[1], size[0])


def _looked_up(mark_map: MarkMap, mx: NDArray[np.float32], my: NDArray[np.float32]
               ) -> NDArray[np.int16]:
    """The marks at the frame's pixels nearest the grid ``mx``, ``my`` (label 0, no mark,
    beyond the frame)."""
    labels = _remap(mark_map.labels, mx, my, cv2.INTER_NEAREST, cv2.BORDER_CONSTANT, 0)
    out: NDArray[np.int16] = np.take(mark_map.lut, labels)
    return out


def _remap(image: NDArray[np.uint8] | NDArray[np.int32], mx: NDArray[np.float32],
           my: NDArray[np.float32], interpolation: int, border: int, value: int = 0
           ) -> NDArray[Any]:
    """``cv2.remap`` of ``image`` by maps of any number of rows: a busy frame's patches are
    cut in blocks of at most ``REMAP_ROWS`` rows."""
    out = np.empty((*mx.shape, *image.shape[2:]), image.dtype)
    for i in range(0, len(mx), REMAP_ROWS):
        out[i:i + REMAP_ROWS] = cv2.remap(image, mx[i:i + REMAP_ROWS], my[i:i + REMAP_ROWS],
                                          interpolation, borderMode=border, borderValue=value)
    return out


def _own_ink(patches: NDArray[np.uint8], marks: NDArray[np.int16], own: NDArray[np.int64]
             ) -> NDArray[np.uint8]:
    """``patches`` (N x h x w x 3) with every pixel that is not of its own
    marks (``own``, N x k, -1 beyond them; ``marks``: the mark each patch pixel shows, -1 for
    none) grown by a pixel (their blurred rims) painted with the patch's paper (its brightest
    value per channel): the edge line of a card on top, a neighbour's index or a pip beside
    an index are not read with it."""
    n, h, w = marks.shape
    patches = np.ascontiguousarray(patches)
    own16 = np.where(own >= 0, own, -2).astype(np.int16)  # no pixel shows mark -2
    mine = marks == own16[:, :1, None]
    for k in range(1, own16.shape[1]):
        mine |= marks == own16[:, k:k + 1, None]
    # Each patch grown alone: the patches side by side, a column of nothing between them,
    # for one dilation of long rows (1.5 -> 1.0 ms per frame against stacked patches).
    apart = np.zeros((h, n, w + 1), np.uint8)
    apart[:, :, :w] = mine.transpose(1, 0, 2)
    grown = np.ascontiguousarray(cv2.dilate(apart.reshape(h, n * (w + 1)), _GROW).reshape(
        h, n, w + 1)[:, :, :w].transpose(1, 0, 2)).reshape(n * h, w)
    # numpy's max over the middle axes is slow; over the last one (channels first) it is not
    paper = np.ascontiguousarray(patches.reshape(n, h * w, 3).transpose(0, 2, 1)).max(axis=2)
    out = np.asarray(cv2.resize(paper.reshape(n, 1, 3), (h * w, n),
                                interpolation=cv2.INTER_NEAREST), np.uint8)
    cv2.copyTo(patches.reshape(n * h, w, 3), grown, out.reshape(n * h, w, 3))
    return out.reshape(n, h, w, 3)


def _own(groups: Groups) -> Own | None:
    """The frame's map of marks and each group's marks, where the groups carry the map."""
    if groups.mark_map is None:
        return None
    most = int(groups.marks.max()) if len(groups) else 1
    return groups.mark_map, groups.members[:, :most]


def cut(pyramid: Pyramid, groups: Groups, sense: int | NDArray[np.int_],
        shape: Shape = COARSE) -> tuple[F32, F32]:
    """Rank and suit vectors of every group cut in one sense (see ``describe``); ``sense``
    is one for all groups or one per group."""
    return describe(*_patches(pyramid, groups, sense, shape))


def _patches(pyramid: Pyramid, groups: Groups, sense: int | NDArray[np.int_], shape: Shape
             ) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """The rank and suit patches (BGR) of every group cut in one sense."""
    rank, suit, down, length = geometry(groups, sense)
    step = length / shape.scale  # image pixels per patch pixel
    own = _own(groups)
    mark_map = None if own is None else own[0]
    ranks, rank_marks = _by_level(pyramid, rank, down, step, shape.rank, mark_map)
    suits, suit_marks = _by_level(pyramid, suit, down, step, shape.suit, mark_map)
    if own is None or rank_marks is None or suit_marks is None:
        return ranks, suits
    return _own_ink(ranks, rank_marks, own[1]), _own_ink(suits, suit_marks, own[1])


def _by_level(pyramid: Pyramid, centre: F64, down: F64, step: F64, size: tuple[int, int],
              mark_map: MarkMap | None = None
              ) -> tuple[NDArray[np.uint8], NDArray[np.int16] | None]:
    """Patches of ``size`` centred on ``centre`` (original pixels), ``step`` original pixels
    per patch pixel, each cut from the pyramid level that shrinks the frame as far as the
    patch allows (a patch pixel spans at most 1.5 image pixels); with ``mark_map``, the
    mark each of their pixels shows (``_marks_at``), by the patches' own grid where the
    level is the frame itself (the same grid: 0.3 ms per 2color frame not made twice)."""
    w, h = size
    out = np.empty((len(centre), h, w, 3), np.uint8)
    marks = None if mark_map is None else np.empty((len(centre), h, w), np.int16)
    level = np.where(step > 1.5, np.floor(np.log2(np.maximum(step, 1.5) / 1.5)) + 1, 0)
    for k in np.unique(level).astype(int).tolist():
        sel = level == k
        f = 0.5**k
        mx, my = _grid(centre[sel], down[sel], step[sel] * f, f, size)
        out[sel] = _remap(pyramid.level(k), mx, my, cv2.INTER_LINEAR,
                          cv2.BORDER_REPLICATE).reshape(-1, h, w, 3)
        if marks is not None and mark_map is not None and k == 0:
            marks[sel] = _looked_up(mark_map, mx, my).reshape(-1, h, w)
    if marks is not None and mark_map is not None and (level > 0).any():
        sel = level > 0
        marks[sel] = _marks_at(mark_map, centre[sel], down[sel], step[sel], size)
    return out, marks


def cut_both(pyramid: Pyramid, groups: Groups, shape: Shape = COARSE
             ) -> tuple[tuple[F32, F32], tuple[F32, F32]]:
    """``cut`` in sense 0 and in sense 1. A group of two marks turned is its own marks
    swapped, so its four patches are cut as one strip along its axis, from beyond the rank
    to beyond the suit, sampled once: the same points as ``cut`` samples, at half the cost."""
    n = len(groups)
    out = [(np.empty((n, shape.rank[1], shape.rank[0], 3), np.uint8),
            np.empty((n, shape.suit[1], shape.suit[0], 3), np.uint8)) for _ in range(2)]
    two = (groups.marks == 2) if _strip_fits(shape) else np.zeros(n, np.bool_)
    rest = ~two
    if rest.any():
        # Both senses in one cut: each group twice, turned the second time.
        which = np.flatnonzero(rest)
        m = len(which)
        ranks, suits = _patches(pyramid, groups.take(np.concatenate([which, which])),
                                np.repeat(np.array([0, 1]), m), shape)
        for sense in (0, 1):
            out[sense][0][rest] = ranks[sense * m:(sense + 1) * m]
            out[sense][1][rest] = suits[sense * m:(sense + 1) * m]
    if two.any():
        (rw, rh), (sw, sh) = shape.rank, shape.suit
        s = int(shape.scale)
        rank, _, down, length = geometry(groups.take(two), 0)
        # The strip's rows run from the rank's patch top to the turned rank's patch bottom;
        # its centre row lies halfway from the rank to the suit.
        mid, step = rank + down * (length / 2)[:, None], length / shape.scale
        own = _own(groups.take(two))
        strips, strip_marks = _by_level(pyramid, mid, down, step, (rw, rh + s),
                                        None if own is None else own[0])
        top, side = (rh - sh) // 2, (rw - sw) // 2
        boxes = ((0, rh, 0, rw), (s + top, s + top + sh, side, side + sw))  # rank, suit

        def cuts(a: NDArray[Any]) -> list[NDArray[Any]]:
            """A strip's rank and suit, then its turned rank and suit, the strips turned
            by one flip of their stack, which reverses their order too, undone by a view
            (numpy copies a view turned in both axes pixel by pixel: 1.0 -> 0.2 ms for 150
            BGR strips)."""
            turned = cv2.flip(a.reshape(-1, *a.shape[2:]), -1).reshape(a.shape)[::-1]
            return [b[:, r0:r1, c0:c1] for b in (a, turned) for r0, r1, c0, c1 in boxes]

        parts = cuts(strips)
        if own is not None and strip_marks is not None:
            parts = [_own_ink(p, m, own[1]) for p, m in zip(parts, cuts(strip_marks),
                                                             strict=True)]
        out[0][0][two], out[0][1][two], out[1][0][two], out[1][1][two] = parts
    return describe(*out[0]), describe(*out[1])


def describe(ranks: NDArray[np.uint8], suits: NDArray[np.uint8]) -> tuple[F32, F32]:
    """Unit vectors: rank patches as grey ink, suit patches as ink per colour channel.

    A rank is compared by shape alone: its darkness, centred and scaled to unit length, so
    the paper's brightness cancels. A suit keeps its colour: each channel is taken relative
    to the patch's paper in that channel (the brightest of its 3 x 3 means) before the
    three are joined.
    """
    n, (sh, sw) = len(ranks), suits.shape[1:3]
    if n == 0:
        return np.zeros((0, ranks.shape[1] * ranks.shape[2]), np.float32), np.zeros(
            (0, sh * sw * 3), np.float32)
    flat = ranks.reshape(-1, 3)
    grey = cv2.min(cv2.min(flat[:, 0], flat[:, 1]), flat[:, 2]).reshape(n, -1)
    soft = cv2.blur(suits.reshape(n * sh, sw, 3), (3, 3)).reshape(n, -1, 3)
    brightest = np.ascontiguousarray(soft.transpose(0, 2, 1)).max(axis=2)  # fast axis last
    scale = -1.0 / np.maximum(brightest, 1).astype(np.float32)
    # One channel at a time: numpy broadcasting over a last axis of 3 runs 3-long inner
    # loops (describe 4.4 -> 3.7 ms per 2color frame, the same vectors).
    plain, ink = suits.reshape(n, -1, 3), np.empty((n, sh * sw, 3), np.float32)
    for c in range(3):
        np.multiply(plain[:, :, c], scale[:, c:c + 1], out=ink[:, :, c])
    return _unit(-grey.astype(np.float32)), _unit(ink.reshape(n, -1))


def _unit(v: F32) -> F32:
    """``v``'s rows centred and scaled to unit length, in place (``v`` is a temporary)."""
    v -= v.mean(axis=1, keepdims=True)
    norm = np.sqrt(np.einsum("ij,ij->i", v, v))
    v /= np.maximum(norm, 1e-6)[:, None]
    return v
