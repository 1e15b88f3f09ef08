"""Patch cutting's compiled passes against the numpy and OpenCV steps they replace: the own
marks' mask as OpenCV's nearest remap and a look-up make it,
a patch keeping its own ink byte for byte, turned or not, and the vectors bit for bit."""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards import patch, vectors


def test_own_marks_are_the_nearest_labels_looked_up_as_opencv_and_numpy_would() -> None:
    """Where a patch's pixels show its own marks: the labels ``cv2.remap`` gives (nearest,
    0 beyond the frame) at random points, half-way points, borders and far points, looked
    up and compared with the patch's marks (-1 beyond them) as numpy would."""
    rng = np.random.default_rng(11)
    labels = rng.integers(0, 40, (72, 128), dtype=np.int32)
    lut = np.where(rng.random(40) < 0.3, -1, rng.integers(0, 12, 40)).astype(np.int16)
    lut[0] = -1
    n, h, w = 60, 9, 7
    for most in (1, 2, 3, 5):
        own = rng.integers(-1, 12, (n + 3, most))
        order = rng.permutation(n + 3)[:n]
        kind = rng.integers(0, 4, (n * h, w))
        mx = np.select([kind == 0, kind == 1, kind == 2],
                       [rng.uniform(-3, 131, kind.shape), rng.integers(-2, 130, kind.shape) + 0.5,
                        rng.choice([-0.5, 0, 127, 127.5, 128], kind.shape)],
                       rng.uniform(-1e5, 1e5, kind.shape)).astype(np.float32)
        my = np.select([kind == 0, kind == 1, kind == 2],
                       [rng.uniform(-3, 75, kind.shape), rng.integers(-2, 74, kind.shape) + 0.5,
                        rng.choice([-0.5, 0, 71, 71.5, 72], kind.shape)],
                       rng.uniform(-1e5, 1e5, kind.shape)).astype(np.float32)
        out = np.full((n, h, w), 7, np.uint8)
        patch._mine_at(labels, lut, own, order, mx, my, out)
        shown = cv2.remap(labels, mx, my, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT,
                          borderValue=0)
        mark = lut[shown].reshape(n, h, w)
        for j, i in enumerate(order):
            want = np.isin(mark[j], own[i][own[i] >= 0])
            assert np.array_equal(out[j], want.astype(np.uint8))


def test_a_patch_keeps_its_own_ink_as_a_mask_a_dilation_and_its_paper_would() -> None:
    """Boxes of random patches, turned or not, put back in order and in their places: the
    pixels of other marks than the patch's own, grown by a pixel, are painted with the
    box's brightest value per channel; without a mask nothing is painted."""
    rng = np.random.default_rng(7)
    n, h, w = 40, 35, 22
    patches = rng.integers(0, 256, (n, h, w, 3), dtype=np.uint8)
    mine = (rng.random((n, h, w)) < 0.15).astype(np.uint8)
    order = rng.permutation(n)
    dest = rng.permutation(n + 5)[:n]
    for top, left, bh, bw in ((0, 0, 24, 22), (13, 2, 18, 18), (11, 0, 24, 22)):
        for turned in (False, True):
            out = np.zeros((n + 5, bh, bw, 3), np.uint8)
            patch._own_into(patches, mine, order, top, left, turned, out, dest)
            bare = np.zeros_like(out)
            patch._own_into(patches, mine[:0], order, top, left, turned, bare, dest)
            for j, i in enumerate(order):
                px, its = patches[j], mine[j]
                if turned:
                    px, its = px[::-1, ::-1], its[::-1, ::-1]
                px = px[top:top + bh, left:left + bw]
                its = its[top:top + bh, left:left + bw]
                grown = cv2.dilate(its, np.ones((3, 3), np.uint8),
                                   borderType=cv2.BORDER_CONSTANT, borderValue=0)
                want = np.where(grown[:, :, None] > 0, px, px.max(axis=(0, 1)))
                assert np.array_equal(out[dest[i]], want)
                assert np.array_equal(bare[dest[i]], px)


def _described_by_numpy(ranks: np.ndarray, suits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``describe`` as numpy's broadcasting made it before it was compiled."""
    n, (sh, sw) = len(ranks), suits.shape[1:3]
    flat = ranks.reshape(-1, 3)
    grey = cv2.min(cv2.min(flat[:, 0], flat[:, 1]), flat[:, 2]).reshape(n, -1)
    soft = cv2.blur(suits.reshape(n * sh, sw, 3), (3, 3)).reshape(n, -1, 3)
    scale = -1.0 / np.maximum(soft.max(axis=1), 1).astype(np.float32)
    ink = (suits.reshape(n, -1, 3) * scale[:, None, :]).astype(np.float32)
    return _unit_by_numpy(-grey.astype(np.float32)), _unit_by_numpy(ink.reshape(n, -1))


def _unit_by_numpy(v: np.ndarray) -> np.ndarray:
    """Rows centred and scaled to unit length, as numpy's float32 steps make them."""
    v -= v.mean(axis=1, keepdims=True)
    norm = np.sqrt(np.einsum("ij,ij->i", v, v))
    v /= np.maximum(norm, 1e-6)[:, None]
    return v


def test_unit_rows_are_numpys_bit_for_bit() -> None:
    """The compiled centring and scaling of a row sums as numpy does: random rows of the
    patches' sizes and of sizes about numpy's blocks of 8 and 128 and einsum's 4 and 16,
    of any scale and offset, and grey and colour ink levels, give numpy's bits."""
    rng = np.random.default_rng(5)
    for d in (528, 972, 2112, 3888, 1, 3, 4, 7, 8, 9, 15, 16, 17, 100, 127, 128, 129, 131,
              255, 256, 257, 1000, 5000):
        for trial in range(12):
            if trial % 3 == 0:
                v = -rng.integers(0, 256, (6, d)).astype(np.float32)
            elif trial % 3 == 1:
                v = rng.integers(0, 256, (6, d)).astype(np.float32) * np.float32(
                    -1.0 / rng.integers(1, 256))
            else:
                v = (rng.standard_normal((6, d)) * rng.uniform(0.01, 300)
                     - rng.uniform(0, 200)).astype(np.float32)
            want = _unit_by_numpy(v.copy())
            got = v.copy()
            flat = got.reshape(-1)
            for i in range(len(got)):
                vectors._unit_row(flat, np.uint64(i * d), np.uint64(d))
            assert got.tobytes() == want.tobytes(), d


def test_described_vectors_are_numpys_bit_for_bit() -> None:
    """Rank and suit vectors of random patches (dark, bright, zeros) are the bits numpy's
    float32 steps give, signed zeros included."""
    rng = np.random.default_rng(3)
    for n, (rw, rh), (sw, sh) in ((1, (22, 24), (18, 18)), (37, (22, 24), (18, 18)),
                                  (5, (44, 48), (36, 36))):
        for low, high in ((0, 256), (200, 256), (0, 2)):
            ranks = rng.integers(low, high, (n, rh, rw, 3), dtype=np.uint8)
            suits = rng.integers(low, high, (n, sh, sw, 3), dtype=np.uint8)
            for got, want in zip(vectors.describe(ranks, suits), _described_by_numpy(ranks, suits),
                                 strict=True):
                assert got.dtype == want.dtype and got.shape == want.shape
                assert got.tobytes() == want.tobytes()
    empty = vectors.describe(np.zeros((0, 24, 22, 3), np.uint8), np.zeros((0, 18, 18, 3), np.uint8))
    assert empty[0].shape == (0, 528) and empty[1].shape == (0, 972)
