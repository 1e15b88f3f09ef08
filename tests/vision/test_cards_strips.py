"""The joker's strip search (``vision.cards.strips``): the edge ratio by slices is what numpy's
fancy indexing and reductions give, bit for bit."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.cards import strips


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
