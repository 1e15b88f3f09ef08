"""Marks joined into groups (``link.link_marks``): the compiled pass over pairs within reach
joins exactly the pairs that the rules, checked pair by pair over every pair of marks,
join; and the groups are the sets of marks those joins connect, numbered by their leftmost
mark. Candidates (``link.candidates``): the compiled search offers the subsets its rules
name, written out over plain sets, in their order.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.cards.link import (
    ALONG,
    ALONG_COS,
    AXIS,
    REACH_MIN,
    SIMILAR,
    SIMILAR_ACROSS,
    SIMILAR_LOOSE,
    Links,
    candidates,
    link_marks,
    shape,
)


def _marks(seed: int, n: int) -> tuple[np.ndarray, ...]:
    """``n`` marks packed into a small field (so many lie within reach of each other):
    boxes, a few of them cut, and moments of random pixels inside each box, some of them
    thin lines (hairline pieces)."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 120, n).astype(np.int32)
    y = rng.integers(0, 80, n).astype(np.int32)
    w = rng.integers(1, 20, n).astype(np.int32)
    h = rng.integers(1, 25, n).astype(np.int32)
    thin = rng.random(n) < 0.3
    w[thin & (rng.random(n) < 0.5)] = 1
    h[thin & (w > 1)] = 1
    moments = np.zeros((n, 6))
    for k in range(n):
        px = x[k] + rng.integers(0, w[k], 12).astype(float)
        py = y[k] + rng.integers(0, h[k], 12).astype(float)
        moments[k] = [12, px.sum(), py.sum(), (px * px).sum(), (py * py).sum(),
                      (px * py).sum()]
    cut = rng.random(n) < 0.2
    return x, y, w, h, cut, moments


def _rules(x: np.ndarray, y: np.ndarray, w: np.ndarray, h: np.ndarray, cut: np.ndarray,
           moments: np.ndarray, link: float
           ) -> tuple[dict[tuple[int, int], bool], list[int], set[tuple[int, int]]]:
    """The joined pairs (mark, mark) with whether each joins along the axis, each mark's
    group, and the loose pairs (one over the other, alike in size only within
    ``SIMILAR_LOOSE``), by the rules written out for one pair at a time, over every pair."""
    _, cx, cy, theta, major, minor = shape(moments)
    elong = major / np.maximum(minor, 1e-6)
    n = len(x)
    order = sorted(range(n), key=lambda k: (int(x[k]), k))
    size = [float(max(w[k], h[k])) for k in range(n)]

    def gap(a: int, b: int) -> float:  # a left of b by left edge
        return max(float(x[b]) - float(x[a] + w[a]),
                   max(float(y[b]) - float(y[a] + h[a]), float(y[a]) - float(y[b] + h[b])))

    def thin(k: int) -> bool:
        return bool(elong[k] >= 3.0 and minor[k] <= 2.0)

    line = [False] * n
    pairs: dict[tuple[int, int], bool] = {}
    loose: set[tuple[int, int]] = set()
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            dx, dy = cx[b] - cx[a], cy[b] - cy[a]
            small = min(size[a], size[b])
            # Hairline pieces are told only among marks within reach of the left one.
            within = float(x[b]) <= float(x[a] + w[a]) + max(max(ALONG, link) * size[a],
                                                               REACH_MIN)
            if within and thin(a) and thin(b):
                dist = max(float(np.hypot(dx, dy)), 1e-6)
                ca = abs(dx * math.cos(theta[a]) + dy * math.sin(theta[a]))
                cb = abs(dx * math.cos(theta[b]) + dy * math.sin(theta[b]))
                lateral = abs(dy * math.cos(theta[a]) - dx * math.sin(theta[a]))
                if ca >= 0.95 * dist and cb >= 0.95 * dist and lateral <= 1.5 and (
                        gap(a, b) <= 2 * small):
                    line[a] = line[b] = True
            ref = a if (elong[a] >= elong[b] and not cut[a]) or cut[b] else b
            c, s = math.cos(theta[ref]), math.sin(theta[ref])
            along = bool(abs(dx * c + dy * s) >= ALONG_COS * np.hypot(dx, dy)
                         and elong[ref] >= AXIS and abs(dy * c - dx * s) <= 0.5 * small)
            reach = max((ALONG if along else link) * small, REACH_MIN)
            alike = SIMILAR_ACROSS if not along and elong[ref] >= 1.25 else SIMILAR
            allowed = not (cut[a] or cut[b]) or (along and cut[a] != cut[b])
            if gap(a, b) <= reach and allowed:
                if max(size[a], size[b]) <= alike * small:
                    pairs[(a, b)] = along
                elif along and max(size[a], size[b]) <= SIMILAR_LOOSE * small:
                    loose.add((a, b))
    pairs = {p: v for p, v in pairs.items() if not (line[p[0]] or line[p[1]])}
    loose = {p for p in loose if not (line[p[0]] or line[p[1]])}
    # Groups: marks connected by joins, numbered by their leftmost marks' order.
    root = list(range(n))

    def find(k: int) -> int:
        while root[k] != k:
            k = root[k]
        return k

    for a, b in pairs:
        root[find(a)] = find(b)
    leftmost: dict[int, int] = {}
    for i, k in enumerate(order):
        leftmost.setdefault(find(k), i)
    numbers = sorted(set(leftmost.values()))
    return pairs, [numbers.index(leftmost[find(k)]) for k in range(n)], loose


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.integers(min_value=1, max_value=40),
       st.sampled_from([0.3, 0.45, 0.6, 1.0]))
def test_marks_join_as_the_rules_say_pair_by_pair(seed: int, n: int, link: float) -> None:
    x, y, w, h, cut, moments = _marks(seed, n)
    links = link_marks(x, y, w, h, cut, moments, link)
    pairs, groups, loose = _rules(x, y, w, h, cut, moments, link)
    got = {(int(a), int(b)): bool(v)
           for a, b, v in zip(links.pa, links.pb, links.along, strict=True)}
    assert got == pairs
    assert links.group_of.tolist() == groups
    assert set(zip(links.loose_a.tolist(), links.loose_b.tolist(), strict=True)) == loose


def test_no_marks_no_links() -> None:
    empty = np.zeros(0, np.int32)
    links = link_marks(empty, empty, empty, empty, np.zeros(0, np.bool_), np.zeros((0, 6)),
                       0.3)
    assert len(links.group_of) == 0 and len(links.pa) == 0


def _offered_by_the_rules(links: Links, most: int) -> list[tuple[int, ...]]:
    """The subsets ``candidates`` offers, in its order, by its docstring's rules written
    out over plain sets."""
    group_of, pa, pb = links.group_of.tolist(), links.pa.tolist(), links.pb.tolist()
    joined = {frozenset(p) for p in zip(pa, pb, strict=True)}
    over = {frozenset(p) for p, a in zip(zip(pa, pb, strict=True), links.along.tolist(),
                                         strict=True) if a}
    size = Counter(group_of)
    out: list[tuple[int, ...]] = []
    for g in sorted(size):
        own = [k for k in range(len(group_of)) if group_of[k] == g]
        if not 3 <= size[g] <= most:
            continue
        for n in (2, 3):
            for s in itertools.combinations(own, n):
                pairs = [frozenset(p) for p in itertools.combinations(s, 2)]
                if n < len(own) and sum(p in joined for p in pairs) >= n - 1 and any(
                        p in over for p in pairs):
                    out.append(s)
    chain = [(a, b) for a, b in zip(pa, pb, strict=True) if size[group_of[a]] > most]
    out += [tuple(sorted(e)) for e in chain if frozenset(e) in over]
    near: dict[int, list[int]] = {}
    for a, b in chain:
        near.setdefault(a, []).append(b)
        near.setdefault(b, []).append(a)
    for mid, around in near.items():
        for e, f in itertools.combinations(around, 2):
            if any(frozenset(p) in over for p in ((mid, e), (mid, f), (e, f))):
                out.append(tuple(sorted((mid, e, f))))
    out = list(dict.fromkeys(out))
    return out + [tuple(sorted(p)) for p in zip(links.loose_a.tolist(), links.loose_b.tolist(),
                                                strict=True)]


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.integers(min_value=1, max_value=40),
       st.integers(min_value=3, max_value=6))
def test_candidates_are_the_groups_and_the_subsets_the_rules_offer(seed: int, n: int,
                                                                   most: int) -> None:
    """Every group is a candidate, then the subsets the rules offer (small groups' subsets
    that hang together with a mark over another, chains' joined pairs and paths of three),
    each once, in the rules' order; each subset's parent is its marks' group."""
    x, y, w, h, cut, moments = _marks(seed, n)
    links = link_marks(x, y, w, h, cut, moments, 1.0)  # a wide link: chains form
    members, owners, parent = candidates(links, most)
    groups = int(links.group_of.max()) + 1
    assert members[:n].tolist() == list(range(n))
    assert owners[:n].tolist() == links.group_of.tolist()
    got = [tuple(members[owners == k].tolist()) for k in range(groups, len(parent))]
    assert got == _offered_by_the_rules(links, most)
    assert parent.tolist() == list(range(groups)) + [int(links.group_of[s[0]]) for s in got]


def _drawn(shapes: list[np.ndarray]) -> tuple[np.ndarray, ...]:
    """Boxes, cut flags and moments of filled polygons drawn apart, as ``link_marks``
    takes them."""
    boxes, moments = [], []
    for pts in shapes:
        mask = np.zeros((80, 80), np.uint8)
        cv2.fillPoly(mask, [pts.astype(np.int32)], 255)
        ys, xs = np.nonzero(mask)
        px, py = xs.astype(float), ys.astype(float)
        boxes.append((xs.min(), ys.min(), xs.max() - xs.min() + 1, ys.max() - ys.min() + 1))
        moments.append([len(xs), px.sum(), py.sum(), (px * px).sum(), (py * py).sum(),
                        (px * py).sum()])
    x, y, w, h = (np.array(c, np.int32) for c in zip(*boxes, strict=True))
    return x, y, w, h, np.zeros(len(shapes), np.bool_), np.array(moments, np.float64)


RANK = np.array([[10, 3], [18, 3], [18, 26], [10, 26]])  # a tall rank
DIAMOND = np.array([[14, 29], [18, 33], [14, 37], [10, 33]])  # a blurred small suit under it


def test_a_small_suit_under_a_tall_rank_is_offered_as_a_pair_of_its_own() -> None:
    x, y, w, h, cut, moments = _drawn([RANK, DIAMOND])
    suit, rank = max(w[1], h[1]), max(w[0], h[0])
    assert SIMILAR * suit < rank <= SIMILAR_LOOSE * suit  # too unlike for a group only
    links = link_marks(x, y, w, h, cut, moments, 0.3)
    assert links.group_of.tolist() == [0, 1]  # in no group together
    members, owners, _ = candidates(links, 6)
    assert [members[owners == k].tolist() for k in range(2, owners.max() + 1)] == [[0, 1]]



def test_a_wide_rank_joins_the_round_suit_under_it_along_its_axis() -> None:
    """A rank barely taller than wide (an "A" as some decks print it, ``AXIS``) over a round
    suit a third of its height below joins it as rank over suit: farther apart than the
    side-by-side reach, within the reach along the axis. Two round marks as far apart (two
    pips) join not."""
    wide = np.array([[10, 3], [24, 3], [24, 20], [10, 20]])  # 15 x 18: elongation about 1.2
    suit = np.array([[12, 26], [22, 26], [22, 36], [12, 36]])  # 11 x 11, 5 px below
    x, y, w, h, cut, moments = _drawn([wide, suit])
    _, _, _, _, major, minor = shape(moments)
    assert AXIS <= major[0] / minor[0] < 1.25
    links = link_marks(x, y, w, h, cut, moments, 0.2)
    assert links.group_of.tolist() == [0, 0] and links.along.tolist() == [True]
    pip = np.array([[12, 3], [22, 3], [22, 13], [12, 13]])  # round, 11 x 11
    x, y, w, h, cut, moments = _drawn([pip, suit - [0, 8]])
    assert link_marks(x, y, w, h, cut, moments, 0.2).group_of.tolist() == [0, 1]
