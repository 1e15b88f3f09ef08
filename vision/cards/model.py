"""A linear discriminant: classes as Gaussians sharing one covariance, learned from samples.

Vectors are centred, reduced by principal components and whitened by the pooled within-class
covariance, so that the squared distance to a class mean is a Mahalanobis distance. Half the
difference of the two smallest distances is the log-likelihood ratio of the best class over
the runner-up, and the smallest distance itself tells whether the sample looks like any
class at all; ``reader`` turns both into "read" or "unknown".
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]

# ``Lda.typical`` is the median of the training samples' squared distances to their own
# class times SPREAD: the reader's thresholds (``verdict.Thresholds``) are in its units. It
# was the 99.9th percentile, which rests on the two or three farthest of a deck's ~1,900
# samples (a mark cut wrong) and so moved with the calibration's random renders: 591-1,677
# over two seeds of the 2color deck, four of the photographed deck and two of aguilar, while
# the median stayed within 45-56. The percentile was 11-34 times the median, 25 on average
# over those 32 fits (four discriminants each), so the thresholds keep their scale on
# average (figures in ``docs/benchmarks.md``).
SPREAD = 25.0


@dataclass(frozen=True)
class Lda:
    """A fitted discriminant: ``names`` of the classes, the ``centre`` and ``projection``
    (D x k) into the whitened space, the class ``means`` there, and ``typical``: how far from
    its own class mean a training sample may lie, the median squared distance times
    ``SPREAD``."""

    names: tuple[str, ...]
    centre: F32
    projection: F32
    means: F32
    typical: float
    # ``distances``' constants, made once: the means in float64 doubled (``2 z @ m.T`` is
    # ``z @ (2 m).T`` to the bit: doubling is exact) and their squared lengths, not made
    # again at every call.
    _twice: F64 = field(init=False, repr=False, compare=False)
    _lengths: F64 = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        m = self.means.astype(np.float64)
        object.__setattr__(self, "_twice", 2 * m)
        object.__setattr__(self, "_lengths", (m * m).sum(axis=1))

    @classmethod
    def fit(cls, x: F32, labels: list[str], dims: int = 64, ridge: float = 1e-3) -> Lda:
        """Fit from samples ``x`` (N x D) with one label each."""
        names = tuple(sorted(set(labels)))
        y = np.array([names.index(label) for label in labels])
        centre = x.mean(axis=0)
        xc = (x - centre).astype(np.float64)
        pca = _components(xc, dims)  # D x k, largest variance first
        z = xc @ pca
        means = np.stack([z[y == c].mean(axis=0) for c in range(len(names))])
        within = z - means[y]
        cov = within.T @ within / max(len(z) - len(names), 1)
        cov += ridge * np.trace(cov) / len(cov) * np.eye(len(cov))
        vals, vecs = np.linalg.eigh(cov)
        whiten = vecs / np.sqrt(vals)  # k x k
        projection = (pca @ whiten).astype(np.float32)
        model = cls(names, centre.astype(np.float32), projection,
                    (means @ whiten).astype(np.float32), 0.0)
        d1 = model.distances(x)[np.arange(len(x)), y]
        return cls(names, model.centre, projection, model.means,
                   SPREAD * float(np.median(d1)))

    def distances(self, x: F32) -> F64:
        """Squared whitened distances (N x classes) of samples to every class mean:
        ``|z|^2 - 2 z m + |m|^2``, each step rounded as ever, the means' parts made once
        (``_twice``, ``_lengths``) and the sums made in place."""
        z = ((x - self.centre) @ self.projection).astype(np.float64)
        out: F64 = z @ self._twice.T
        np.subtract((z * z).sum(axis=1)[:, None], out, out=out)
        out += self._lengths[None, :]
        return out

    def arrays(self, prefix: str) -> dict[str, NDArray[np.float32]]:
        """The arrays to save, keyed ``prefix_centre`` ... (names and ``typical`` go apart)."""
        return {f"{prefix}_centre": self.centre, f"{prefix}_projection": self.projection,
                f"{prefix}_means": self.means}

    @classmethod
    def from_arrays(cls, prefix: str, arrays: dict[str, NDArray[np.float32]],
                    names: list[str], typical: float) -> Lda:
        """The model back from ``arrays`` output and its names and ``typical``."""
        return cls(tuple(names), arrays[f"{prefix}_centre"].astype(np.float32),
                   arrays[f"{prefix}_projection"].astype(np.float32),
                   arrays[f"{prefix}_means"].astype(np.float32), float(typical))


def _components(xc: F64, dims: int) -> F64:
    """The ``dims`` principal directions (D x k) of centred samples ``xc`` (N x D), from
    the smaller of the two Gram matrices (a fine patch has more pixels than a deck samples)."""
    n, d = xc.shape
    if d <= n:
        _, vecs = np.linalg.eigh(xc.T @ xc)
        out: F64 = vecs[:, ::-1][:, :min(dims, d)]
        return out
    vals, vecs = np.linalg.eigh(xc @ xc.T)
    k = min(dims, int((vals > vals.max() * 1e-12).sum()))
    top = vecs[:, ::-1][:, :k]
    directions = xc.T @ top
    out = directions / np.linalg.norm(directions, axis=0, keepdims=True)
    return out
