"""Which marks of ink belong together: the rank and suit of one corner index.

Marks (connected components, with their pixel moments) join when close for their size: one
above the other along the long axis of the more elongated one (rank over suit) within
``ALONG`` times the smaller size; side by side ("1" and "0" of a ten) only within the
deck's ``link`` and when alike in size, so an index does not join the pips and pictures
beside it. Pieces of one hairline (a card's edge) join nothing. Each group, and those of its
parts that may be an index by themselves, is offered as a candidate (``candidates``).
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

import numba
import numpy as np
from numpy.typing import NDArray

F64 = NDArray[np.float64]

ALONG = 0.6  # rank over suit: join when closer than this times the smaller height
ALONG_COS = 0.76  # "over": within 40 degrees of the long axis
LINK = 0.3  # default: marks join when their boxes are closer than this times the smaller height
REACH_MIN = 1.5  # ... or than this many pixels
SIMILAR = 2.5  # rank over suit: the larger at most this times the smaller
SIMILAR_ACROSS = 1.4  # side by side ("1" and "0"): about the same size


def shape(m: F64) -> tuple[F64, F64, F64, F64, F64, F64]:
    """Pixel count, centroid, long-axis angle and spreads from raw moments."""
    n = np.maximum(m[:, 0], 1.0)
    mx, my = m[:, 1] / n, m[:, 2] / n
    cxx = m[:, 3] / n - mx * mx
    cyy = m[:, 4] / n - my * my
    cxy = m[:, 5] / n - mx * my
    half_tr = (cxx + cyy) / 2
    root = np.sqrt(((cxx - cyy) / 2) ** 2 + cxy**2)
    major = np.sqrt(np.maximum(half_tr + root, 0))
    minor = np.sqrt(np.maximum(half_tr - root, 1e-6))
    theta = 0.5 * np.arctan2(2 * cxy, cxx - cyy)
    return m[:, 0], mx, my, theta, major, minor


class Links(NamedTuple):
    """How marks join: each mark's group number (``group_of``), and the pairs of marks
    joined (``pa``, ``pb``: mark numbers), each ``along`` the axis (one over the other) or
    not (side by side, or two round marks)."""

    group_of: NDArray[np.int64]
    pa: NDArray[np.int64]
    pb: NDArray[np.int64]
    along: NDArray[np.bool_]


def link_marks(
    x: NDArray[np.int32], y: NDArray[np.int32], w: NDArray[np.int32], h: NDArray[np.int32],
    cut: NDArray[np.bool_], moments: F64, link: float,
) -> Links:
    """Group numbers of marks of like height (within ``SIMILAR``) that lie close, and the
    pairs of marks joined (``Links``).

    Marks one above the other along the long axis of the more elongated one (rank over suit)
    join when their boxes are closer than ``ALONG`` times the smaller height; marks side by
    side ("1" and "0" of a ten) only when closer than ``link`` times it, so an index does not
    join the pips and pictures beside it.
    """
    _, cx, cy, theta, major, minor = shape(moments)
    elong = major / np.maximum(minor, 1e-6)
    order = np.argsort(x, kind="stable")
    pa, pb, along, label = _joins(
        order, x.astype(np.float64), y.astype(np.float64), w.astype(np.float64),
        h.astype(np.float64), cut.astype(np.bool_), cx, cy, np.cos(theta), np.sin(theta), elong,
        minor, float(link))
    # Each group's number: its root's rank among the roots (what np.unique's inverse gives,
    # without sorting).
    root = np.zeros(len(x), np.bool_)
    root[label] = True
    dense = np.cumsum(root)[label] - 1
    out = np.empty(len(x), np.int64)
    out[order] = dense
    return Links(out, order[pa], order[pb], along)


@numba.njit(cache=True, nogil=True)
def _joins(order, x, y, w, h, cut, cx, cy, cos, sin, elong, minor, link):  # type: ignore[no-untyped-def]
    """The pairs of marks joined, as positions in ``order`` (marks by left edge), whether
    each joins along the axis, and each position's group as the least position joined to
    it (see ``link_marks``). Each mark is paired with the marks after it (by left edge) that
    start within its reach; every test is the float arithmetic of the numpy version it
    replaced, in the same order, so the same pairs join."""
    n = len(order)
    x0 = np.empty(n)
    y0 = np.empty(n)
    x1 = np.empty(n)
    y1 = np.empty(n)
    hh = np.empty(n)
    for i in range(n):
        k = order[i]
        x0[i], y0[i] = x[k], y[k]
        x1[i], y1[i] = x[k] + w[k], y[k] + h[k]
        hh[i] = max(w[k], h[k])  # a mark's size, nearly whatever its turn
    wide = max(ALONG, link)
    # Pieces of one hairline (a card's edge, broken by noise) lie thin and end to end: they
    # join nothing, else they chain whole spreads into one group.
    line = np.zeros(n, np.bool_)
    found = []
    for i in range(n):
        reach = max(wide * hh[i], REACH_MIN)
        limit = x1[i] + reach
        oa = order[i]
        for j in range(i + 1, n):
            if x0[j] > limit:
                break
            ob = order[j]
            gap = max(x0[j] - x1[i], max(y0[j] - y1[i], y0[i] - y1[j]))
            small = min(hh[i], hh[j])
            dx, dy = cx[ob] - cx[oa], cy[ob] - cy[oa]
            if elong[oa] >= 3.0 and minor[oa] <= 2.0 and elong[ob] >= 3.0 and minor[ob] <= 2.0:
                dist = max(np.hypot(dx, dy), 1e-6)
                if (abs(dx * cos[oa] + dy * sin[oa]) >= 0.95 * dist
                        and abs(dx * cos[ob] + dy * sin[ob]) >= 0.95 * dist
                        and abs(dy * cos[oa] - dx * sin[oa]) <= 1.5 and gap <= 2 * small):
                    line[i] = True
                    line[j] = True
            # The axis is the more elongated mark's; a cut mark only ever joins along the
            # axis of a whole one (a suit cut from a frame, under its rank).
            ref = oa if (elong[oa] >= elong[ob] and not cut[oa]) or cut[ob] else ob
            c, s = cos[ref], sin[ref]
            along = (abs(dx * c + dy * s) >= ALONG_COS * np.hypot(dx, dy)
                     and elong[ref] >= 1.25 and abs(dy * c - dx * s) <= 0.5 * small)
            reach_ab = (ALONG if along else link) * small
            # Side by side needs like sizes ("1" and "0"); two round marks have no axis.
            like = max(hh[i], hh[j]) <= (
                SIMILAR_ACROSS if not along and elong[ref] >= 1.25 else SIMILAR) * small
            allowed = not (cut[oa] or cut[ob]) or (along and cut[oa] != cut[ob])
            if gap <= max(reach_ab, REACH_MIN) and like and allowed:
                found.append((i, j, along))
    pa = np.empty(len(found), np.int64)
    pb = np.empty(len(found), np.int64)
    pair_along = np.empty(len(found), np.bool_)
    kept = 0
    for i, j, along in found:
        if not (line[i] or line[j]):
            pa[kept], pb[kept], pair_along[kept] = i, j, along
            kept += 1
    # Groups: each position's least joined position (union by the lesser root).
    label = np.arange(n)
    for t in range(kept):
        ra, rb = pa[t], pb[t]
        while label[ra] != ra:
            ra = label[ra]
        while label[rb] != rb:
            rb = label[rb]
        if ra < rb:
            label[rb] = ra
        elif rb < ra:
            label[ra] = rb
    for i in range(n):
        label[i] = label[label[i]]
    return pa[:kept], pb[:kept], pair_along[:kept], label


def candidates(links: Links, most: int
               ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Candidate indices as (member marks, candidate of each, parent group of each candidate).

    Every group is one candidate. A group of three to ``most`` marks may be an index with a
    neighbour's marks joined (or a ten): it is also offered as every subset of two or three
    of its marks that hangs together by itself (two joined marks; three with two joins: an
    index's marks join one another, not through a neighbour's). A larger group is a chain
    through several cards (an edge line touching their indices): it is offered as each
    joined pair and each path of three marks. A subset is offered only where two of its
    marks join along the axis (``Links.along``): an index is a rank over its suit, and
    marks joined only side by side (a ten's "1" and "0", a row of pips) are none (see
    ``_over``). The reader keeps, among candidates sharing marks, the one that fits an
    index best.
    """
    group_of, pa, pb = links.group_of, links.pa, links.pb
    nmarks = np.bincount(group_of)
    members: list[NDArray[np.int64]] = [np.arange(len(group_of))]
    owners: list[NDArray[np.int64]] = [group_of]
    parent: list[int] = list(range(len(nmarks)))
    subsets: list[tuple[int, ...]] = []
    by_group = np.argsort(group_of, kind="stable")
    starts = np.concatenate([[0], np.cumsum(nmarks)])
    joined = _both_ways(pa.tolist(), pb.tolist())
    over = _both_ways(pa[links.along].tolist(), pb[links.along].tolist())
    for gid in np.flatnonzero((nmarks >= 3) & (nmarks <= most)).tolist():
        own = by_group[starts[gid]:starts[gid + 1]].tolist()
        subsets += [s for size in (2, 3) if size < len(own)
                    for s in itertools.combinations(own, size)
                    if _hangs(s, joined) and _over(s, over)]
    chained = nmarks[group_of] > most
    if chained.any():
        keep = chained[pa]
        edges = list(zip(pa[keep].tolist(), pb[keep].tolist(), strict=True))
        near: dict[int, list[int]] = {}
        for a, b in edges:
            near.setdefault(a, []).append(b)
            near.setdefault(b, []).append(a)
        subsets += [tuple(sorted(e)) for e in edges if e in over]
        subsets += [tuple(sorted((mid, *ends))) for mid, around in near.items()
                    for ends in itertools.combinations(around, 2) if _over((mid, *ends), over)]
    unique = list(dict.fromkeys(subsets))
    if unique:
        sizes = np.fromiter(map(len, unique), np.int64, len(unique))
        members.append(np.fromiter(itertools.chain.from_iterable(unique), np.int64,
                                   int(sizes.sum())))
        owners.append(np.repeat(np.arange(len(nmarks), len(nmarks) + len(unique)), sizes))
        parent += group_of[[subset[0] for subset in unique]].tolist()
    return np.concatenate(members), np.concatenate(owners), np.array(parent, np.int64)


def _both_ways(pa: list[int], pb: list[int]) -> set[tuple[int, int]]:
    """The pairs (``pa``, ``pb``) of marks joined, each both ways round."""
    pairs = set(zip(pa, pb, strict=True))
    return pairs | {(b, a) for a, b in pairs}


def _hangs(marks: tuple[int, ...], joined: set[tuple[int, int]]) -> bool:
    """Whether two or three marks hang together by their own joins (``joined``: both ways)."""
    joins = sum(pair in joined for pair in itertools.combinations(marks, 2))
    return joins >= len(marks) - 1


def _over(marks: tuple[int, ...], over: set[tuple[int, int]]) -> bool:
    """Whether two of ``marks`` join one over the other (``over``: both ways).

    Over 300 bench frames per style (seed 2026) offering only such subsets took the
    candidates of a 2color frame from 237 to 141 (those from chains of more than six marks
    from 95 to 21) and the median read from 47.7 to 43.4 ms (2color), 50.2 to 43.4
    (4color), 39.4 to 38.3 (2color-bf) and 38.9 to 37.5 (4color-bf), with the same cards
    read right (one fewer in 2color-bf, of 14,700) and none wrong.
    """
    return any(pair in over for pair in itertools.combinations(marks, 2))
