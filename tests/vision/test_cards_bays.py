"""Bays of the paper: a glyph joined to a card's printed outline is cut from it.

A notch as narrow as a glyph's join to the outline is filled, one wider than ``BAY_MOUTH``
of the patch's size is not; and the compiled search for bays (``bays._bay_ends``) finds
the bays a plain numpy version, one defect at a time, finds: on random paper patches, on
their contours started at every point (a defect then runs round past the contour's end),
and through ``bays_of`` on whole masks.
"""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from vision.cards.bays import BAY_DEPTH, BAY_MOUTH, BAY_SHORE, _bay_ends, bays_of, patches

Image = NDArray[np.uint8]


def _plain_bays_along(stretch: NDArray[np.int64], widest: float) -> list[NDArray[np.int64]]:
    """The bays of a contour ``stretch`` as ``bays._bay_ends`` defines them, one numpy
    call per step."""
    chord = (stretch[-1] - stretch[0]).astype(np.float64)
    length = float(np.hypot(*chord))
    if length < 1.0:
        return []
    off = stretch - stretch[0]
    away = np.abs(off[:, 0] * chord[1] - off[:, 1] * chord[0]) / length
    out = (away > BAY_SHORE).astype(np.int8)
    edges = np.diff(np.concatenate([[0], out, [0]]))
    bays = []
    for first, last in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1), strict=True):
        a, b = max(int(first) - 1, 0), min(int(last), len(stretch) - 1)
        mouth = stretch[a] - stretch[b]
        if away[first:last].max() >= BAY_DEPTH and float(np.hypot(*mouth)) <= widest:
            bays.append(stretch[a:b + 1])
    return bays


def _plain_bays(points: NDArray[np.int64], defects: NDArray[np.int64], widest: float
                ) -> list[NDArray[np.int64]]:
    """Every bay of a contour along its defects (``_plain_bays_along``), as its points."""
    bays = []
    for start, end, _, depth in defects.tolist():
        if depth / 256.0 < BAY_DEPTH:
            continue
        stretch = (points[start:end + 1] if end >= start
                   else np.concatenate([points[start:], points[:end + 1]]))
        bays += _plain_bays_along(stretch, widest)
    return bays


def _kernel_bays(points: NDArray[np.int32], defects: NDArray[np.int32], widest: float
                 ) -> list[NDArray[np.int64]]:
    """Every bay ``_bay_ends`` finds, as its points (as ``bays_of`` takes them)."""
    out = []
    for first, last in _bay_ends(points, defects, widest).tolist():
        out.append(np.asarray(points[first:last + 1] if last >= first
                              else np.concatenate([points[first:], points[:last + 1]]),
                              np.int64))
    return out


def _plain_bays_of(paper: Image) -> Image:
    """``bays_of`` with ``_plain_bays``."""
    out = np.zeros_like(paper)
    for contour, defects, size in patches(paper):
        points = np.asarray(contour, np.int64)
        for bay in _plain_bays(points, np.asarray(defects, np.int64), BAY_MOUTH * size):
            cv2.fillPoly(out, [bay.astype(np.int32)], 255)
    return np.asarray(cv2.bitwise_and(out, cv2.bitwise_not(paper)), np.uint8)


def _paper(seed: int, size: int = 64) -> Image:
    """A random paper mask: rectangles and discs of paper, notched by thin lines and small
    discs of ink (glyphs joined to the edge), blurred a little and cut again, as the
    camera's blur rounds them."""
    rng = np.random.default_rng(seed)
    paper = np.zeros((size, size), np.uint8)
    for _ in range(int(rng.integers(1, 4))):
        x, y = (int(v) for v in rng.integers(0, size, 2))
        w, h = (int(v) for v in rng.integers(8, size, 2))
        if rng.random() < 0.7:
            cv2.rectangle(paper, (x - w // 2, y - h // 2), (x + w // 2, y + h // 2), 255, -1)
        else:
            cv2.circle(paper, (x, y), w // 2, 255, -1)
    for _ in range(int(rng.integers(0, 8))):
        x0, y0, x1, y1 = (int(v) for v in rng.integers(0, size, 4))
        if rng.random() < 0.5:
            cv2.line(paper, (x0, y0), (x1, y1), 0, int(rng.integers(1, 4)))
        else:
            cv2.circle(paper, (x0, y0), int(rng.integers(1, 6)), 0, -1)
    blurred = cv2.GaussianBlur(paper, (0, 0), float(rng.uniform(0.3, 1.5)))
    return np.asarray(np.where(blurred > 127, 255, 0), np.uint8)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 10**6))
def test_the_compiled_search_finds_the_plain_one_s_bays(seed: int, roll: int) -> None:
    """Each contour of a random patch, started at a random point of it (so that a defect
    may run round past its end): ``_bay_ends`` gives the bays, the same points in the same
    order, that a numpy version defect by defect gives."""
    paper = _paper(seed)
    for contour in cv2.findContours(paper, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[-2]:
        if len(contour) < 4:
            continue
        contour = np.ascontiguousarray(np.roll(contour, roll % len(contour), axis=0))
        try:
            hull = cv2.convexHull(contour, returnPoints=False)
            rows = np.asarray(cv2.convexityDefects(contour, hull), np.int32).reshape(-1, 4)
        except (cv2.error, TypeError):  # no hull OpenCV can order, or no defect (None)
            continue
        points = np.asarray(contour, np.int32).reshape(-1, 2)
        for widest in (0.0, BAY_MOUTH * float(np.sqrt(cv2.contourArea(contour))), 1e9):
            plain = _plain_bays(np.asarray(points, np.int64), np.asarray(rows, np.int64),
                                widest)
            kernel = _kernel_bays(points, rows, widest)
            assert len(kernel) == len(plain)
            for a, b in zip(kernel, plain, strict=True):
                np.testing.assert_array_equal(a, b)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_bays_of_a_random_patch_are_the_plain_search_s(seed: int) -> None:
    paper = _paper(seed, size=96)
    np.testing.assert_array_equal(bays_of(paper), _plain_bays_of(paper))


def test_a_glyph_s_narrow_join_is_filled_and_a_wide_notch_is_not() -> None:
    """A card's paper (inside its printed outline) with a glyph joined to the outline by a
    narrow neck, and a notch wider than ``BAY_MOUTH`` of the card's size (about 89 pixels):
    the glyph and its neck are a bay, the wide notch is not."""
    paper = np.zeros((120, 100), np.uint8)
    cv2.rectangle(paper, (10, 10), (89, 109), 255, -1)
    glyph = np.zeros_like(paper)
    cv2.rectangle(glyph, (24, 10), (27, 16), 255, -1)  # the neck, 4 px wide, to the edge
    cv2.circle(glyph, (26, 24), 7, 255, -1)  # the glyph under it
    paper[glyph > 0] = 0
    wide = np.zeros_like(paper)
    cv2.rectangle(wide, (10, 50), (14, 90), 255, -1)  # 41 px along the left edge
    paper[wide > 0] = 0
    bays = bays_of(paper)
    # The glyph and its neck, a hole in the paper with its bay filled: all but the neck's
    # rows within ``BAY_SHORE`` of the edge, the shore the bay is filled up to.
    assert bays[12:][glyph[12:] > 0].all()
    assert not bays[:10].any()
    assert not bays[wide > 0].any()
    assert not bays[paper > 0].any()  # a bay holds no paper


def test_the_random_patches_hold_bays_some_round_the_contour_s_end() -> None:
    """The random patches the tests above compare on are no empty test: a fair share of
    them hold bays, and some of those bays run round past the end of their contour."""
    holding, wrapping = 0, 0
    for seed in range(100):
        holding += bool(bays_of(_paper(seed, size=96)).any())
        for contour in cv2.findContours(_paper(seed), cv2.RETR_EXTERNAL,
                                        cv2.CHAIN_APPROX_NONE)[-2]:
            if len(contour) < 4:
                continue
            for roll in range(0, len(contour), 5):
                turned = np.ascontiguousarray(np.roll(contour, roll, axis=0))
                try:
                    defects = cv2.convexityDefects(
                        turned, cv2.convexHull(turned, returnPoints=False))
                except cv2.error:
                    continue
                if defects is not None:
                    ends = _bay_ends(turned.reshape(-1, 2), defects.reshape(-1, 4), 1e9)
                    wrapping += bool((ends[:, 1] < ends[:, 0]).any())
    assert holding >= 20
    assert wrapping >= 20
