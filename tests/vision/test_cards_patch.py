"""Patch cutting's compiled passes against the numpy and OpenCV steps they replace: the remap
grids float for float, and a patch keeping its own ink byte for byte, turned or not."""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards import patch


def test_the_compiled_grid_is_numpys_broadcast_grid_float_for_float() -> None:
    """Each patch's grid at its pyramid level is ``cx + u dy + v dx`` (and ``cy - u dx +
    v dy``) in float32, as numpy broadcasts it."""
    rng = np.random.default_rng(5)
    n, w, h = 200, 22, 35
    centre = rng.uniform(0, 1280, (n, 2))
    angle = rng.uniform(0, 2 * np.pi, n)
    down = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    step = rng.uniform(0.3, 7.0, n)
    level = patch._level(step)
    mx, my = np.empty((n * h, w), np.float32), np.empty((n * h, w), np.float32)
    patch._grid(centre, down, step, level, w, h, mx, my)
    f = 0.5 ** level
    u = np.arange(w, dtype=np.float32) - (w - 1) / 2
    v = np.arange(h, dtype=np.float32) - (h - 1) / 2
    dx = (down[:, 0] * (step * f)).astype(np.float32)[:, None, None]
    dy = (down[:, 1] * (step * f)).astype(np.float32)[:, None, None]
    cx = ((centre[:, 0] + 0.5) * f - 0.5).astype(np.float32)[:, None, None]
    cy = ((centre[:, 1] + 0.5) * f - 0.5).astype(np.float32)[:, None, None]
    uu, vv = u[None, None, :], v[None, :, None]
    assert np.array_equal(mx, (cx + uu * dy + vv * dx).reshape(-1, w))
    assert np.array_equal(my, (cy - uu * dx + vv * dy).reshape(-1, w))


def test_a_patch_keeps_its_own_ink_as_a_mask_a_dilation_and_its_paper_would() -> None:
    """Boxes of random patches, turned or not, put back in order and in their places: the
    pixels of other marks than the patch's own, grown by a pixel, are painted with the
    box's brightest value per channel; without labels nothing is painted."""
    rng = np.random.default_rng(7)
    n, h, w, marks = 40, 35, 22, 6
    patches = rng.integers(0, 256, (n, h, w, 3), dtype=np.uint8)
    labels = rng.integers(0, 9, (n, h, w), dtype=np.int32)
    lut = np.array([-1, 0, 1, 2, 3, 4, 5, -1, 2], np.int16)
    own = rng.integers(-1, marks, (n, 3))
    order = rng.permutation(n)
    dest = rng.permutation(n + 5)[:n]
    for top, left, bh, bw in ((0, 0, 24, 22), (13, 2, 18, 18)):
        for turned in (False, True):
            out = np.zeros((n + 5, bh, bw, 3), np.uint8)
            patch._own_into(patches, labels, lut, own, order, top, left, turned, out, dest)
            bare = np.zeros_like(out)
            patch._own_into(patches, labels[:0], lut, own, order, top, left, turned, bare,
                            dest)
            for j, i in enumerate(order):
                px, mark = patches[j], lut[labels[j]]
                if turned:
                    px, mark = px[::-1, ::-1], mark[::-1, ::-1]
                px = px[top:top + bh, left:left + bw]
                mark = mark[top:top + bh, left:left + bw]
                mine = np.isin(mark, own[i][own[i] >= 0]).astype(np.uint8)
                grown = cv2.dilate(mine, np.ones((3, 3), np.uint8),
                                   borderType=cv2.BORDER_CONSTANT, borderValue=0)
                want = np.where(grown[:, :, None] > 0, px, px.max(axis=(0, 1)))
                assert np.array_equal(out[dest[i]], want)
                assert np.array_equal(bare[dest[i]], px)
