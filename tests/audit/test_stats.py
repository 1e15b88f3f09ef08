"""The incomplete gamma function against closed forms and published chi-square critical
values."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.audit.stats import chi2_sf, gamma_p, gamma_q, pearson, poisson_sf

xs = st.floats(min_value=0.0, max_value=400.0, allow_nan=False)


@given(xs)
def test_one_degree_of_freedom_is_the_normal_tail(x: float) -> None:
    assert chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-9, abs=1e-300)


@given(xs)
def test_two_degrees_of_freedom_is_an_exponential(x: float) -> None:
    assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-9, abs=1e-300)


@given(st.floats(min_value=0.01, max_value=500.0), xs)
def test_lower_and_upper_add_to_one(a: float, x: float) -> None:
    p, q = gamma_p(a, x), gamma_q(a, x)
    assert 0.0 <= p <= 1.0 and 0.0 <= q <= 1.0
    assert p + q == pytest.approx(1.0, abs=1e-12)


@given(st.integers(min_value=1, max_value=400), xs, xs)
def test_the_tail_falls_as_the_statistic_grows(df: int, a: float, b: float) -> None:
    low, high = sorted((a, b))
    assert chi2_sf(high, df) <= chi2_sf(low, df) + 1e-15


@given(st.integers(min_value=0, max_value=60), st.floats(min_value=0.05, max_value=40.0))
def test_poisson_tail_is_one_minus_the_sum_of_the_first_terms(k: int, mean: float) -> None:
    below = sum(math.exp(-mean) * mean ** i / math.factorial(i) for i in range(k))
    assert poisson_sf(k, mean) == pytest.approx(1.0 - below, abs=1e-12)


@pytest.mark.parametrize(("x", "df", "p"), [
    (3.841459, 1, 0.05), (6.634897, 1, 0.01), (11.070498, 5, 0.05), (15.086272, 5, 0.01),
    (23.209251, 10, 0.01), (124.342113, 100, 0.05), (135.806723, 100, 0.01),
])
def test_published_critical_values(x: float, df: int, p: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-5)


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="degrees of freedom 0 "):
        chi2_sf(1.0, 0)
    with pytest.raises(ValueError, match=r"statistic -1\.0 "):
        chi2_sf(-1.0, 3)
    with pytest.raises(ValueError, match="expected count 0"):
        pearson([1, 2], [0, 3])
    with pytest.raises(ValueError, match="2 observed cells against 1"):
        pearson([1, 2], [3.0])
