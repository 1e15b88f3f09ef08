"""Which marks of ink belong together: the rank and suit of one corner index.

Marks (connected components, with their pixel moments) join when close for their size: one
above the other along the long axis of the more elongated one (rank over suit) within
``ALONG`` times the smaller size; side by side ("1" and "0" of a ten) only within the
deck's ``link`` and when alike in size, so an index does not join the pips and pictures
beside it. Pieces of one hairline (a card's edge) join nothing. Each group, and those of
its parts that may be an index by themselves, is offered as a candidate (``candidates``);
so is each pair of marks one over the other too unlike in size to join (a small suit
blurred under a tall rank), joining no group.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np
from numba import types
from numba.typed import Dict, List
from numpy.typing import NDArray

F64 = NDArray[np.float64]

ALONG = 0.6  # rank over suit: join when closer than this times the smaller height
ALONG_COS = 0.76  # "over": within 40 degrees of the long axis
LINK = 0.3  # default: marks join when their boxes are closer than this times the smaller height
REACH_MIN = 1.5  # ... or than this many pixels
SIMILAR = 2.5  # rank over suit: the larger at most this times the smaller
# ... or, offered as a pair only (``Links.loose_a``), up to this: a small suit with sharp
# tips (a diamond) loses them to blur and shrinks far more than the tall rank above it, and
# a wider bound in the groups would join ranks to the specks and pips about them.
SIMILAR_LOOSE = 3.2
SIMILAR_ACROSS = 1.4  # side by side ("1" and "0"): about the same size
# A mark at least this elongated has an axis to join along (rank over suit). A wide rank
# such as kde-standard's "A" measures 1.19-1.21 in real light, so at 1.25 it joined its suit
# only at the side-by-side reach; solid pips measure 1.02-1.09 (spades, clubs). At 1.15,
# over 200 real frames of each hold-out deck (seed 2026), 64 more cards were read right and
# 2 fewer wrongly (``docs/benchmarks.md``, stop 50).
AXIS = 1.15


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
    not (side by side, or two round marks); and the pairs one over the other that are alike
    in size only within ``SIMILAR_LOOSE`` (``loose_a``, ``loose_b``), which join no group
    and are offered as pairs by themselves."""

    group_of: NDArray[np.int64]
    pa: NDArray[np.int64]
    pb: NDArray[np.int64]
    along: NDArray[np.bool_]
    loose_a: NDArray[np.int64] = np.zeros(0, np.int64)
    loose_b: NDArray[np.int64] = np.zeros(0, np.int64)


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
    pa, pb, along, label, la, lb = _joins(
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
    return Links(out, order[pa], order[pb], along, order[la], order[lb])


@numba.njit(cache=True, nogil=True)
def _joins(order, x, y, w, h, cut, cx, cy, cos, sin, elong, minor, link):  # type: ignore[no-untyped-def]
    """The pairs of marks joined, as positions in ``order`` (marks by left edge), whether
    each joins along the axis, and each position's group as the least position joined to
    it (see ``link_marks``), and the loose pairs (``Links.loose_a``). Each mark is paired
    with the marks after it (by left edge) that start within its reach; every test is the
    float arithmetic of the numpy version it replaced, in the same order, so the same pairs
    join."""
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
    loose = []
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
                     and elong[ref] >= AXIS and abs(dy * c - dx * s) <= 0.5 * small)
            reach_ab = (ALONG if along else link) * small
            # Side by side needs like sizes ("1" and "0"); two round marks have no axis.
            like = max(hh[i], hh[j]) <= (
                SIMILAR_ACROSS if not along and elong[ref] >= 1.25 else SIMILAR) * small
            allowed = not (cut[oa] or cut[ob]) or (along and cut[oa] != cut[ob])
            if gap <= max(reach_ab, REACH_MIN) and allowed:
                if like:
                    found.append((i, j, along))
                elif along and max(hh[i], hh[j]) <= SIMILAR_LOOSE * small:
                    loose.append((i, j))
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
    la = np.empty(len(loose), np.int64)
    lb = np.empty(len(loose), np.int64)
    nloose = 0
    for i, j in loose:
        if not (line[i] or line[j]):
            la[nloose], lb[nloose] = i, j
            nloose += 1
    return pa[:kept], pb[:kept], pair_along[:kept], label, la[:nloose], lb[:nloose]


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
    marks joined only side by side (a ten's "1" and "0", a row of pips) are none: offering
    only such subsets leaves far fewer candidates to read, chains' most of all, and reads
    the same cards. The reader keeps, among candidates sharing marks, the one that fits an
    index best. Subsets come in a fixed order (the small groups' in
    group order, each group's pairs then triples in lexicographic order of their marks;
    then the chains' pairs in the order of the joins, then their paths of three by middle
    mark in order of first appearance), each once, where it first comes; then each loose
    pair (``Links.loose_a``), its marks in ascending order, its parent the group of the
    first.
    """
    group_of = links.group_of.astype(np.int64)
    ngroups = int(group_of.max()) + 1 if len(group_of) else 0
    subsets, sizes = _subsets(group_of, links.pa.astype(np.int64), links.pb.astype(np.int64),
                              links.along.astype(np.bool_), ngroups, most)
    if len(links.loose_a):
        pairs = np.sort(np.stack([links.loose_a, links.loose_b], 1), axis=1).astype(np.int64)
        subsets = np.concatenate([subsets, pairs.ravel()])
        sizes = np.concatenate([sizes, np.full(len(pairs), 2, np.int64)])
    members = np.concatenate([np.arange(len(group_of)), subsets])
    owners = np.concatenate([group_of, np.repeat(np.arange(ngroups, ngroups + len(sizes)),
                                                 sizes)])
    firsts = subsets[np.cumsum(sizes) - sizes] if len(sizes) else np.zeros(0, np.int64)
    parent = np.concatenate([np.arange(ngroups), group_of[firsts]])
    return members, owners, parent


def loose_pairs(links: Links, count: int) -> NDArray[np.bool_]:
    """Which of the ``count`` candidates ``candidates`` offered for ``links`` are its loose
    pairs (``Links.loose_a``): it offers them last."""
    out: NDArray[np.bool_] = np.arange(count) >= count - len(links.loose_a)
    return out


@numba.njit(cache=True, nogil=True)
def _subsets(group_of, pa, pb, along, ngroups, most):  # type: ignore[no-untyped-def]
    """The subsets ``candidates`` offers, as their marks one after another, and their
    sizes."""
    n = len(group_of)
    nmarks = np.zeros(ngroups, np.int64)
    for k in range(n):
        nmarks[group_of[k]] += 1
    # Each mark's joins: the marks joined to it, and whether one over the other.
    degree = np.zeros(n + 1, np.int64)
    for t in range(len(pa)):
        degree[pa[t] + 1] += 1
        degree[pb[t] + 1] += 1
    start = np.cumsum(degree)
    fill = start[:-1].copy()
    other = np.empty(2 * len(pa), np.int64)
    over = np.empty(2 * len(pa), np.bool_)
    for t in range(len(pa)):
        for a, b in ((pa[t], pb[t]), (pb[t], pa[t])):
            other[fill[a]], over[fill[a]] = b, along[t]
            fill[a] += 1
    out = List.empty_list(types.int64)
    sizes = List.empty_list(types.int64)
    seen = Dict.empty(types.int64, types.boolean)
    # Groups of three to ``most`` marks: their subsets of two and three that hang together.
    order = np.argsort(group_of, kind="mergesort")
    first = np.zeros(ngroups + 1, np.int64)
    first[1:] = np.cumsum(nmarks)
    for g in range(ngroups):
        m = nmarks[g]
        if m < 3 or m > most:
            continue
        own = order[first[g]:first[g + 1]]
        for i in range(m):
            for j in range(i + 1, m):
                a, b = own[i], own[j]
                ab = _join(other, over, start, a, b)
                if ab == 2:
                    _offer(out, sizes, seen, n, a, b, -1)
        if m > 3:
            for i in range(m):
                for j in range(i + 1, m):
                    for k in range(j + 1, m):
                        a, b, c = own[i], own[j], own[k]
                        ab = _join(other, over, start, a, b)
                        ac = _join(other, over, start, a, c)
                        bc = _join(other, over, start, b, c)
                        joins = (ab > 0) + (ac > 0) + (bc > 0)
                        if joins >= 2 and (ab == 2 or ac == 2 or bc == 2):
                            _offer(out, sizes, seen, n, a, b, c)
    # Chains of more than ``most`` marks: each pair joined one over the other, then each
    # path of three (a middle mark and two of its joined marks) with a join one over the
    # other, the middle marks in order of first appearance among the joins.
    middles = List.empty_list(types.int64)
    around_start = np.full(n, -1, np.int64)
    for t in range(len(pa)):
        if nmarks[group_of[pa[t]]] <= most:
            continue
        if along[t]:
            _offer(out, sizes, seen, n, min(pa[t], pb[t]), max(pa[t], pb[t]), -1)
        for a in (pa[t], pb[t]):
            if around_start[a] < 0:
                around_start[a] = len(middles)
                middles.append(a)
    for mid in middles:
        # Its joins within the chain, in the order of the joins.
        ends = List.empty_list(types.int64)
        for t in range(len(pa)):
            if nmarks[group_of[pa[t]]] <= most:
                continue
            if pa[t] == mid:
                ends.append(pb[t])
            elif pb[t] == mid:
                ends.append(pa[t])
        for i in range(len(ends)):
            for j in range(i + 1, len(ends)):
                e, f = ends[i], ends[j]
                if (_join(other, over, start, mid, e) == 2
                        or _join(other, over, start, mid, f) == 2
                        or _join(other, over, start, e, f) == 2):
                    lo, hi = min(e, f), max(e, f)
                    if mid < lo:
                        _offer(out, sizes, seen, n, mid, lo, hi)
                    elif mid < hi:
                        _offer(out, sizes, seen, n, lo, mid, hi)
                    else:
                        _offer(out, sizes, seen, n, lo, hi, mid)
    result = np.empty(len(out), np.int64)
    for i in range(len(out)):
        result[i] = out[i]
    size_out = np.empty(len(sizes), np.int64)
    for i in range(len(sizes)):
        size_out[i] = sizes[i]
    return result, size_out


@numba.njit(cache=True, nogil=True)
def _join(other, over, start, a, b):  # type: ignore[no-untyped-def]
    """0: marks ``a`` and ``b`` not joined, 1: joined side by side, 2: one over the other."""
    for t in range(start[a], start[a + 1]):
        if other[t] == b:
            return 2 if over[t] else 1
    return 0


@numba.njit(cache=True, nogil=True)
def _offer(out, sizes, seen, n, a, b, c):  # type: ignore[no-untyped-def]
    """Appends the subset (``a``, ``b``) or (``a``, ``b``, ``c``; ascending; ``c`` -1 for
    a pair) where it is not offered yet."""
    key = (a * n + b) * (n + 1) + (c + 1)
    if key in seen:
        return
    seen[key] = True
    out.append(a)
    out.append(b)
    if c >= 0:
        out.append(c)
    sizes.append(3 if c >= 0 else 2)
