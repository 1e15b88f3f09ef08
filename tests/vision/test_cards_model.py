"""The linear discriminant behind rank and suit reads: its principal directions either way."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.cards.model import SPREAD, Lda, _components


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.integers(min_value=8, max_value=40))
def test_few_samples_of_many_pixels_give_the_same_directions(seed: int, n: int) -> None:
    """With fewer samples than pixels the directions come from the samples' Gram matrix; they
    span what the pixels' covariance gives, unit length and orthogonal."""
    rng = np.random.default_rng(seed)
    d = 60
    scales = np.geomspace(10.0, 0.01, d)  # distinct variances, so the directions are defined
    x = rng.normal(size=(n, d)) * scales
    xc = x - x.mean(axis=0)
    k = 5
    few = _components(xc, k)
    _, vecs = np.linalg.eigh(xc.T @ xc)
    full = vecs[:, ::-1][:, :k]
    assert few.shape == (d, k)
    assert np.allclose(few.T @ few, np.eye(k), atol=1e-8)
    # the same subspace: projecting one basis on the other keeps its length
    assert np.allclose(np.linalg.svd(full.T @ few, compute_uv=False), 1.0, atol=1e-6)


def test_a_discriminant_from_few_wide_samples_tells_its_classes() -> None:
    rng = np.random.default_rng(3)
    d, per = 500, 30
    centres = rng.normal(size=(3, d)) * 3
    x = np.concatenate([c + rng.normal(size=(per, d)) for c in centres]).astype(np.float32)
    labels = [name for name in "abc" for _ in range(per)]
    model = Lda.fit(x, labels, dims=20)
    test = np.concatenate([c + rng.normal(size=(10, d)) for c in centres]).astype(np.float32)
    assert [model.names[i] for i in model.distances(test).argmin(axis=1)] == [
        name for name in "abc" for _ in range(10)]


def test_distances_are_the_plain_expressions_bits() -> None:
    """The distances with the means' parts made once and the sums made in place are the
    bits of ``|z|^2 - 2 z m + |m|^2`` written out, for one sample and for many."""
    rng = np.random.default_rng(4)
    for d, k, classes in ((528, 64, 15), (972, 64, 4), (60, 7, 3)):
        model = Lda(tuple("abcdefghijklmnopq"[:classes]),
                    rng.normal(size=d).astype(np.float32),
                    rng.normal(size=(d, k)).astype(np.float32),
                    rng.normal(size=(classes, k)).astype(np.float32), 1.0)
        for n in (0, 1, 2, 97):
            x = rng.normal(size=(n, d)).astype(np.float32)
            z = ((x - model.centre) @ model.projection).astype(np.float64)
            m = model.means.astype(np.float64)
            want = (z * z).sum(axis=1)[:, None] - 2 * z @ m.T + (m * m).sum(axis=1)[None, :]
            got = model.distances(x)
            assert got.dtype == np.float64 and got.tobytes() == want.tobytes()


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_how_far_a_class_spreads_rests_on_the_bulk_of_its_samples(seed: int) -> None:
    """A few samples cut wrong, far from their class (as a deck's renders now and then give),
    barely move ``typical``, ``SPREAD`` times the median distance, while they move the
    99.9th percentile that it was many times over."""
    rng = np.random.default_rng(seed)
    d, per = 40, 400
    centres = rng.normal(size=(4, d)) * 4
    x = np.concatenate([c + rng.normal(size=(per, d)) for c in centres]).astype(np.float32)
    labels = [name for name in "abcd" for _ in range(per)]
    y = np.repeat(np.arange(4), per)
    spoilt = x.copy()
    spoilt[rng.choice(len(x), 4, replace=False)] += rng.normal(size=(4, d)).astype(
        np.float32) * 5  # 4 of 1,600 samples cut wrong
    fits = [Lda.fit(v, labels, dims=20) for v in (x, spoilt)]
    own = [m.distances(v)[np.arange(len(v)), y] for m, v in zip(fits, (x, spoilt), strict=True)]
    assert fits[1].typical == SPREAD * float(np.median(own[1]))
    assert abs(fits[1].typical / fits[0].typical - 1) < 0.1
    assert np.percentile(own[1], 99.9) > 5 * np.percentile(own[0], 99.9)
