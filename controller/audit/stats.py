"""Distribution tails in plain Python: the regularised incomplete gamma function and what it
gives, the chi-square and Poisson tail probabilities (no scipy).

``gamma_p`` uses the power series below ``a + 1`` and ``gamma_q`` a continued fraction (modified
Lentz) above it, each where it converges fast; both run in log space for large arguments.
"""

from __future__ import annotations

import math

_EPS = 1e-15
_TINY = 1e-300
_MAX_TERMS = 10_000


def _check(a: float, x: float) -> None:
    if not a > 0 or not math.isfinite(a):
        raise ValueError(f"shape a={a!r} must be a positive finite number")
    if not x >= 0 or math.isnan(x):
        raise ValueError(f"x={x!r} must be a number >= 0")


def _log_prefix(a: float, x: float) -> float:
    """log(x**a * exp(-x) / Gamma(a))."""
    return a * math.log(x) - x - math.lgamma(a)


def _series_p(a: float, x: float) -> float:
    """P(a, x) by its power series (converges for any x, fast for x < a + 1)."""
    term = total = 1.0 / a
    denominator = a
    for _ in range(_MAX_TERMS):
        denominator += 1.0
        term *= x / denominator
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(_log_prefix(a, x))


def _fraction_q(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction (fast for x > a + 1), modified Lentz."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_TERMS):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        step = d * c
        h *= step
        if abs(step - 1.0) < _EPS:
            break
    return h * math.exp(_log_prefix(a, x))


def gamma_p(a: float, x: float) -> float:
    """The regularised lower incomplete gamma function P(a, x)."""
    _check(a, x)
    if x == 0:
        return 0.0
    if x < a + 1.0:
        return min(1.0, _series_p(a, x))
    return max(0.0, 1.0 - _fraction_q(a, x))


def gamma_q(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    _check(a, x)
    if x == 0:
        return 1.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _series_p(a, x))
    return min(1.0, _fraction_q(a, x))


def chi2_sf(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-square with ``df`` degrees of freedom (the p-value)."""
    if isinstance(df, bool) or not isinstance(df, int) or df < 1:
        raise ValueError(f"degrees of freedom {df!r} must be an integer >= 1")
    if not statistic >= 0:
        raise ValueError(f"chi-square statistic {statistic!r} must be >= 0")
    return gamma_q(df / 2.0, statistic / 2.0)


def poisson_sf(count: int, mean: float) -> float:
    """P(N >= count) for N Poisson with the given mean (P(count, mean) for count >= 1)."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"count {count!r} must be an integer >= 0")
    if not mean > 0:
        raise ValueError(f"Poisson mean {mean!r} must be > 0")
    return 1.0 if count == 0 else gamma_p(float(count), mean)


def pearson(observed: list[int], expected: list[float]) -> float:
    """Pearson's statistic: the sum of (observed - expected)**2 / expected over the cells."""
    if len(observed) != len(expected):
        raise ValueError(f"{len(observed)} observed cells against {len(expected)} expected")
    for e in expected:
        if not e > 0:
            raise ValueError(f"expected count {e!r} must be > 0")
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
