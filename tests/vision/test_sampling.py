"""Compiled patch sampling against OpenCV and numpy, value for value.

``sampling.bilinear`` is ``cv2.remap`` INTER_LINEAR with BORDER_REPLICATE and
``sampling.nearest`` is INTER_NEAREST with BORDER_CONSTANT 0, then looked up, on random
images and maps (inside and beyond the image, far beyond it, on exact half-way ties);
``sampling.grid`` is the numpy grid bit for bit; ``sampling.own_ink`` is the dilation and
paint it replaces, on whole patches and on boxes turned by half a turn; ``sampling.cut``
of a rendered crop is the grid remapped and looked up.
"""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from tests.vision.conftest import golden
from vision.cards import sampling

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def _maps(rng: np.random.Generator, shape: tuple[int, int], size: tuple[int, int], kind: int
          ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Maps of ``size`` (rows, columns) over an image of ``shape``: anywhere near it, on a
    1/64 lattice (ties of the fractions), on half pixels (ties of rounding), or far off."""
    h, w = shape
    if kind == 0:
        mx, my = rng.uniform(-3, w + 2, size), rng.uniform(-3, h + 2, size)
    elif kind == 1:
        mx = rng.integers(-200, 64 * w + 200, size) / 64
        my = rng.integers(-200, 64 * h + 200, size) / 64
    elif kind == 2:
        mx = rng.integers(-10, 2 * w + 10, size) / 2
        my = rng.integers(-10, 2 * h + 10, size) / 2
    else:
        mx, my = rng.uniform(-1e6, 1e6, size), rng.uniform(-1e6, 1e6, size)
    return mx.astype(np.float32), my.astype(np.float32)


@settings(max_examples=150, deadline=None)
@given(SEEDS, st.integers(1, 40), st.integers(1, 40), st.integers(1, 60), st.integers(1, 40),
       st.integers(0, 3))
def test_bilinear_is_cv2_remap(seed: int, h: int, w: int, rows: int, cols: int,
                               kind: int) -> None:
    rng = np.random.default_rng(seed)
    image = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    mx, my = _maps(rng, (h, w), (rows, cols), kind)
    want = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    assert np.array_equal(sampling.bilinear(image, mx, my), want)


def test_bilinear_is_cv2_remap_on_many_points() -> None:
    """Enough points that each of OpenCV's three fused multiply-adds tells (one unfused
    changes about one value in a million, where the fractions carry all 24 bits: near the
    origin), on rows wide enough for its vector code and with tails."""
    rng = np.random.default_rng(7)
    image = rng.integers(0, 256, (60, 70, 3), dtype=np.uint8)
    for cols, far in ((7, 70.0), (22, 70.0), (200, 2.0)):
        mx, my = (rng.uniform(0, far, (30000, cols)).astype(np.float32) for _ in range(2))
        want = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        assert np.array_equal(sampling.bilinear(image, mx, my), want)


@settings(max_examples=150, deadline=None)
@given(SEEDS, st.integers(1, 40), st.integers(1, 40), st.integers(1, 60), st.integers(1, 40),
       st.integers(0, 3))
def test_nearest_is_cv2_remap_looked_up(seed: int, h: int, w: int, rows: int, cols: int,
                                        kind: int) -> None:
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 50, (h, w)).astype(np.int32)
    lut = rng.integers(-1, 3000, 50).astype(np.int16)
    mx, my = _maps(rng, (h, w), (rows, cols), kind)
    sampled = cv2.remap(labels, mx, my, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT,
                        borderValue=0)
    assert np.array_equal(sampling.nearest(labels, lut, mx, my), np.take(lut, sampled))


def _grid(centre: NDArray[np.float64], down: NDArray[np.float64], step: NDArray[np.float64],
          f: float, size: tuple[int, int]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """The numpy grid the patches were cut on before (``step`` already scaled by ``f``)."""
    w, h = size
    u = np.arange(w, dtype=np.float32) - (w - 1) / 2
    v = np.arange(h, dtype=np.float32) - (h - 1) / 2
    dx = (down[:, 0] * step).astype(np.float32)[:, None, None]
    dy = (down[:, 1] * step).astype(np.float32)[:, None, None]
    cx = ((centre[:, 0] + 0.5) * f - 0.5).astype(np.float32)[:, None, None]
    cy = ((centre[:, 1] + 0.5) * f - 0.5).astype(np.float32)[:, None, None]
    uu, vv = u[None, None, :], v[None, :, None]
    return (cx + uu * dy + vv * dx).reshape(-1, w), (cy - uu * dx + vv * dy).reshape(-1, w)


def _geometry(rng: np.random.Generator, n: int
              ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    centre = rng.uniform(-40, 400, (n, 2))
    angle = rng.uniform(0, 2 * np.pi, n)
    return centre, np.stack([np.cos(angle), np.sin(angle)], 1), rng.uniform(0.2, 8, n)


@settings(max_examples=100, deadline=None)
@given(SEEDS, st.integers(0, 20), st.integers(1, 50), st.integers(1, 50), st.integers(0, 3))
def test_grid_is_numpys_bit_for_bit(seed: int, n: int, w: int, h: int, level: int) -> None:
    centre, down, step = _geometry(np.random.default_rng(seed), n)
    f = 0.5**level
    got, want = sampling.grid(centre, down, step, f, (w, h)), _grid(centre, down, step * f, f,
                                                                    (w, h))
    for a, b in zip(got, want, strict=True):
        assert np.array_equal(a.view(np.uint32), b.view(np.uint32))


def _own_ink(patches: NDArray[np.uint8], marks: NDArray[np.int16], own: NDArray[np.int64]
             ) -> NDArray[np.uint8]:
    """The dilation and paint ``sampling.own_ink`` replaced (``patch._own_ink``)."""
    n, h, w = marks.shape
    own16 = np.where(own >= 0, own, -2).astype(np.int16)
    mine = marks == own16[:, :1, None]
    for k in range(1, own16.shape[1]):
        mine |= marks == own16[:, k:k + 1, None]
    apart = np.zeros((h, n, w + 1), np.uint8)
    apart[:, :, :w] = mine.transpose(1, 0, 2)
    grown = np.ascontiguousarray(cv2.dilate(apart.reshape(h, n * (w + 1)), np.ones(
        (3, 3), np.uint8)).reshape(h, n, w + 1)[:, :, :w].transpose(1, 0, 2)).reshape(n * h, w)
    paper = patches.reshape(n, h * w, 3).max(axis=1)
    out = np.ascontiguousarray(np.repeat(paper[:, None, :], h * w, axis=1))
    cv2.copyTo(np.ascontiguousarray(patches).reshape(n * h, w, 3), grown,
               out.reshape(n * h, w, 3))
    return out.reshape(n, h, w, 3)


@settings(max_examples=100, deadline=None)
@given(SEEDS, st.integers(1, 12), st.integers(3, 30), st.integers(3, 30), st.integers(1, 4),
       st.booleans())
def test_own_ink_is_the_dilation_and_paint(seed: int, n: int, h: int, w: int, k: int,
                                           turn: bool) -> None:
    rng = np.random.default_rng(seed)
    patches = rng.integers(0, 256, (n, h, w, 3), dtype=np.uint8)
    marks = rng.integers(-1, 6, (n, h, w)).astype(np.int16)
    own = rng.integers(-1, 6, (n, k))
    assert np.array_equal(sampling.own_ink(patches, marks, own), _own_ink(patches, marks, own))
    # A box of the patches, turned or not: the box cut out (and turned) first.
    top, left = int(rng.integers(0, h - 1)), int(rng.integers(0, w - 1))
    bh, bw = int(rng.integers(1, h - top + 1)), int(rng.integers(1, w - left + 1))
    part = (slice(None), slice(top, top + bh), slice(left, left + bw))
    want = _own_ink(patches[part], marks[part], own)
    got = sampling.own_ink(patches, marks, own, (top, left, bh, bw), turn)
    assert np.array_equal(got, want[:, ::-1, ::-1] if turn else want)


def test_cut_of_a_rendered_crop_is_the_grid_remapped() -> None:
    """Patches of a bench crop, at the frame's size and a pyramid level's, with the marks
    of a labelled copy: the grid remapped by OpenCV and looked up."""
    image = golden("2color-bf-frame36-own-ink.png")
    rng = np.random.default_rng(36)
    n, (w, h) = 60, (22, 24)
    centre, down, _ = _geometry(rng, n)
    centre[:, 0] *= image.shape[1] / 400
    centre[:, 1] *= image.shape[0] / 400
    step = rng.uniform(0.5, 3.0, n)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    count, labels = cv2.connectedComponents((grey < 128).astype(np.uint8))
    lut = rng.integers(-1, 100, count).astype(np.int16)
    for level in (0, 1):
        f = 0.5**level
        source = image if level == 0 else np.asarray(cv2.pyrDown(image), np.uint8)
        which = np.flatnonzero(rng.random(n) < 0.7)
        out = np.zeros((n, h, w, 3), np.uint8)
        marks = np.zeros((n, h, w), np.int16)
        sampling.cut(source, f, centre, down, step, which, out, (labels, lut, marks))
        mx, my = _grid(centre[which], down[which], step[which] * f, f, (w, h))
        want = cv2.remap(source, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        assert np.array_equal(out[which], want.reshape(-1, h, w, 3))
        mx, my = _grid(centre[which], down[which], step[which], 1.0, (w, h))
        shown = np.take(lut, cv2.remap(labels.astype(np.int32), mx, my, cv2.INTER_NEAREST,
                                       borderMode=cv2.BORDER_CONSTANT, borderValue=0))
        assert np.array_equal(marks[which], shown.reshape(-1, h, w))
        assert not out[np.setdiff1d(np.arange(n), which)].any()  # the rest left alone
