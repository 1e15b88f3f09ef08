"""The felt's colour test in 8-bit planes (``felt._at_least``) against the float32 one it
replaced: the same pixels pass it."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.cards import felt as felt_module
from vision.cards.felt import GREY, Felt
from vision.cards.measure import reaching_border


def _grey_f32(frame: np.ndarray) -> np.ndarray:
    """The paper's colour test as ``Felt`` made it in float32 planes, for reference."""
    b, g, r = cv2.split(frame.astype(np.float32))
    return np.asarray(cv2.compare(cv2.min(cv2.min(b, g), r),
                                  cv2.max(cv2.max(b, g), r) * np.float32(GREY), cv2.CMP_GE))


def test_every_pair_of_darkest_and_brightest_is_judged_as_in_float32() -> None:
    darkest, brightest = np.meshgrid(np.arange(256), np.arange(256))
    keep = darkest <= brightest
    frame = np.zeros((256, 256, 3), np.uint8)
    frame[..., 0], frame[..., 2] = darkest, brightest
    frame[..., 1] = np.where(keep, darkest, brightest)  # a middle channel between them
    lo, hi = cv2.min(frame[..., 0], frame[..., 2]), cv2.max(frame[..., 0], frame[..., 2])
    got = cv2.compare(lo, felt_module._at_least(hi), cv2.CMP_GE)
    assert np.array_equal(got, _grey_f32(frame))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), h=st.integers(2, 60), w=st.integers(2, 60))
def test_the_felt_is_as_the_float32_test_found_it(seed: int, h: int, w: int) -> None:
    rng = np.random.default_rng(seed)
    frame = rng.integers(0, 256, (h, w, 3), np.uint8)
    frame[rng.random((h, w)) < 0.5] //= 4  # darker patches, felt-like
    paper = np.where(rng.random((h, w)) < 0.6, 255, 0).astype(np.uint8)
    # The reference: the felt as ``Felt`` found it with the float32 test.
    shrunk = (max(w // felt_module.SHRINK, 1), max(h // felt_module.SHRINK, 1))
    small = cv2.resize(paper, shrunk, interpolation=cv2.INTER_NEAREST)
    seen = cv2.resize(frame, shrunk, interpolation=cv2.INTER_AREA)
    small = cv2.bitwise_and(small, _grey_f32(seen))
    wide = np.asarray(cv2.morphologyEx(cv2.bitwise_not(small), cv2.MORPH_OPEN,
                                       np.ones((felt_module.OPEN, felt_module.OPEN), np.uint8)),
                      np.uint8)
    reference = reaching_border(wide).view(np.bool_)
    assert np.array_equal(Felt(paper, frame)._felt, reference)
