"""The compiled pieces of the joker's strip search (``vision.cards.strips``): each gives what
the numpy it stands for gives, bit for bit."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.cards import strips


def _numpy_lows(frame: np.ndarray, corner: np.ndarray, right: np.ndarray, down: np.ndarray,
                u: np.ndarray, v: np.ndarray, reach: int = 0) -> np.ndarray:
    """``strips.lows`` in numpy: the reference."""
    pts = (corner[..., None, :] + u[:, None] * right[..., None, :]
           + v[:, None] * down[..., None, :])
    h, w = frame.shape[:2]
    x = np.round(pts[..., 0]).astype(int)
    y = np.round(pts[..., 1]).astype(int)
    if reach:
        step = np.arange(-reach, reach + 1)
        x = x[..., None, None] + step[None, :]
        y = y[..., None, None] + step[:, None]
    bgr = np.take(frame.reshape(-1, 3), np.clip(y, 0, h - 1) * w + np.clip(x, 0, w - 1), axis=0)
    low = np.minimum(np.minimum(bgr[..., 0], bgr[..., 1]), bgr[..., 2])
    return (low.reshape(*pts.shape[:-1], -1).max(axis=-1) if reach else low).astype(np.float32)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_lows_are_numpys(seed: int) -> None:
    """The darkest channel at points of cards, and the brightest of it about them
    (``reach``), for one card and several, points off the frame and halfway between pixels
    (rounded half to even) included."""
    rng = np.random.default_rng(seed)
    frame = rng.integers(0, 256, (int(rng.integers(1, 90)), int(rng.integers(1, 120)), 3),
                         np.uint8)
    n, m = int(rng.integers(1, 5)), int(rng.integers(1, 30))
    corner = np.round(rng.uniform(-20, 130, (n, 2)) * 2) / 2
    right, down = np.round(rng.normal(0, 40, (n, 2))), np.round(rng.normal(0, 50, (n, 2)))
    u, v = np.round(rng.uniform(-0.3, 1.3, m) * 8) / 8, rng.uniform(-0.3, 1.3, m)
    for reach in (0, int(rng.integers(1, 4))):
        assert np.array_equal(strips.lows(frame, corner, right, down, u, v, reach),
                              _numpy_lows(frame, corner, right, down, u, v, reach))
        assert np.array_equal(strips.lows(frame, corner[0], right[0], down[0], u, v, reach),
                              _numpy_lows(frame, corner[0], right[0], down[0], u, v, reach))


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_the_ninetieth_percentile_is_numpys(seed: int) -> None:
    """``_ninetieth`` is ``np.percentile(values, 90)`` of float32 values, interpolated above
    and below the middle of two values, repeated values and a single one included."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 400))
    values = (rng.integers(0, 256, n) if seed % 2 else rng.random(n) * 255).astype(np.float32)
    assert float(strips._ninetieth(values.copy())) == float(np.percentile(values, 90))


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_the_edge_ratio_is_numpys(seed: int) -> None:
    """``_edge_ratio``: the least over the columns of the median over the rows of the
    darkest three pixels left over the mean of the three right, as numpy gives it in
    float32 (rows odd and even in number)."""
    rng = np.random.default_rng(seed)
    h, w = int(rng.integers(1, 50)), int(rng.integers(8, 40))
    grey = (rng.random((h, w)) * 255).astype(np.float32)
    first = int(rng.integers(3, w - 4))
    last = int(rng.integers(first, w - 3))
    at = np.arange(first, last + 1)
    outside = grey[:, at[:, None] + np.arange(-3, 0)].min(axis=2)
    inside = grey[:, at[:, None] + np.arange(1, 4)].mean(axis=2)
    want = float(np.median(outside / np.maximum(inside, 1.0), axis=0).min())
    assert float(strips._edge_ratio(grey, first, last)) == want


def _numpy_eyes(frame: np.ndarray, corner: np.ndarray, right: np.ndarray, down: np.ndarray,
                aspect: float, white: float) -> bool:
    """``strips._eyes`` in numpy: the reference."""
    ring = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    shift = np.linspace(-strips.SHIFT, strips.SHIFT,
                        2 * round(strips.SHIFT / strips.SHIFT_STEP) + 1)
    du, dv = (a.ravel() for a in np.meshgrid(shift, shift))
    t = np.linspace(0.25, 0.75, 11)
    for eyes in (strips.EYES, tuple((1 - u, aspect - v) for u, v in strips.EYES)):
        u = np.array([e[0] for e in eyes])[None, :] + du[:, None]
        v = np.array([e[1] for e in eyes])[None, :] + dv[:, None]
        dots = _numpy_lows(frame, corner, right, down, u.ravel(), v.ravel()).reshape(u.shape)
        keep = dots.max(axis=1) < 0.5 * white
        u, v = u[keep], v[keep]
        ru = (u[:, :, None] + 0.07 * np.cos(ring)).ravel()
        rv = (v[:, :, None] + 0.07 * np.sin(ring)).ravel()
        around = _numpy_lows(frame, corner, right, down, ru, rv).reshape(len(u), 2 * len(ring))
        keep = around.min(axis=1) > 0.75 * white
        u, v = u[keep], v[keep]
        bu = (u[:, :1] + t * (u[:, 1:] - u[:, :1])).ravel()
        bv = (v[:, :1] + t * (v[:, 1:] - v[:, :1])).ravel()
        between = _numpy_lows(frame, corner, right, down, bu, bv).reshape(len(u), len(t))
        if (between.min(axis=1) > 0.85 * white).any():
            return True
    return False


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_the_eyes_are_found_where_numpy_finds_them(seed: int) -> None:
    """``_eyes`` answers as the numpy search over every shift did: on paper with two dots
    where a joker's eyes lie (moved, upright or turned, faint or broken by a stroke between
    them, or none), thresholds at whole and fractional levels of the paper's white."""
    rng = np.random.default_rng(seed)
    width, aspect = float(rng.uniform(40, 120)), 1.4
    frame = np.full((300, 300, 3), int(rng.integers(150, 256)), np.uint8)
    frame += rng.integers(0, 30, frame.shape, np.uint8) * (seed % 3 == 0)
    a = rng.uniform(0, 2 * np.pi)
    right = width * np.array([np.cos(a), np.sin(a)])
    down = width * np.array([-np.sin(a), np.cos(a)])
    corner = np.array([150.0, 150.0]) - (right + aspect * down) / 2
    eyes = strips.EYES if seed % 2 else tuple((1 - u, aspect - v) for u, v in strips.EYES)
    du, dv = rng.uniform(-0.12, 0.12, 2)
    for u, v in eyes if rng.random() < 0.8 else ():
        x, y = corner + (u + du) * right + (v + dv) * down
        cv2.circle(frame, (round(x), round(y)), max(1, round(0.035 * width)),
                   (int(rng.integers(0, 120)),) * 3, -1)
    if rng.random() < 0.3:
        (x0, y0), (x1, y1) = (corner + (u + du) * right + (v + dv) * down for u, v in eyes)
        cv2.line(frame, (round(x0), round(y0)), (round(x1), round(y1)), (90, 90, 90), 1)
    white = float(rng.choice([float(frame.max()), 200.0, 201.0, float(rng.integers(100, 256))]))
    assert strips._eyes(frame, corner, right, down, aspect, white) == _numpy_eyes(
        frame, corner, right, down, aspect, white)
