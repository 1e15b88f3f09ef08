"""Each pixel's darkest and brightest channel by a byte-row morphology (``channels``)
against numpy's reductions over the channels."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.cards.channels import brightest, darkest


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), h=st.integers(1, 40), w=st.integers(1, 70),
       strided=st.booleans())
def test_the_darkest_and_brightest_channels_are_numpys(seed: int, h: int, w: int,
                                                      strided: bool) -> None:
    """On random frames of any size (one pixel wide or high included), contiguous or a
    strided view of a wider one: the least and greatest of each pixel's three bytes."""
    rng = np.random.default_rng(seed)
    frame = rng.integers(0, 256, (h, 2 * w if strided else w, 3), np.uint8)
    if strided:
        frame = frame[:, ::2]
    frame[rng.random((h, w)) < 0.1] = 0  # black and white pixels: the window's ends
    frame[rng.random((h, w)) < 0.1] = 255
    assert np.array_equal(darkest(frame), frame.min(axis=2))
    assert np.array_equal(brightest(frame), frame.max(axis=2))
