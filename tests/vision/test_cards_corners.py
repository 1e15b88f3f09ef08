"""A deck that prints its index at all four corners (``corners``, ``calibrate.twin_corner``):
each read is placed as the corner it is, by the votes of its name's reads, the felt, the
row of a spread and the card's own edge beside its index, and withdrawn where none tells.
Reads are made by hand first; then the test deck's faces, the index stamped at the other
two corners too, are calibrated and read. The compiled vote (``corners._vote``) gives the
sides numpy's steps, name by name, give."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from controller.config.locations import assets_dir
from tests.vision.conftest import deck, faces
from vision.cards import CardReader, Deck
from vision.cards.cache import cached_deck
from vision.cards.corners import (
    AS_READ,
    CORNER,
    EDGE_MARGIN,
    OTHER,
    UNKNOWN,
    _votes,
    edge_sides,
    follow,
    place,
)
from vision.cards.evaluate import evaluate
from vision.cards.reads import SAME, Read

TWIN = (0.8, 0.0)  # card widths from the top-left index to the top-right one
WIDTH = 100.0
UP, DOWN = np.array([0.0, -1.0]), np.array([0.0, 1.0])


def _index(code: str | None, x: float, y: float, turned: bool = False) -> Read:
    """A read of an index (its suit's centroid) at (x, y), upright or turned half round,
    placed as a top-left index places its card (0.4 card widths across, 0.5 down)."""
    down = UP if turned else DOWN
    right = np.array([down[1], -down[0]])
    point = np.array([x, y])
    centre = point + WIDTH * (0.4 * right + 0.5 * down)
    return Read(code, 1.0, centre, right, down, WIDTH, None if code else "unsure", 40.0, 0.05,
                indices=((point, right, down),))


# Where a card 1.4 card widths tall prints its indices, from its top-left corner in card
# widths: "l" top left, "r" top right, "L" and "R" turned, at the bottom right and left.
SPOTS = {"l": (0.1, 0.2, False), "r": (0.9, 0.2, False), "L": (0.9, 1.2, True),
         "R": (0.1, 1.2, True)}


def _card(code: str, left: float, which: str) -> list[Read]:
    """The reads of the indices ``which`` names of an upright card whose top-left corner
    lies at (left, 0)."""
    return [_index(code, left + WIDTH * SPOTS[w][0], WIDTH * SPOTS[w][1], SPOTS[w][2])
            for w in which]


def _centre(left: float) -> NDArray[np.float64]:
    return np.array([left + 0.5 * WIDTH, 0.7 * WIDTH])


def _all_on(reads: Sequence[Read]) -> NDArray[np.bool_]:
    return np.ones(len(reads), np.bool_)


def test_a_whole_card_is_placed_by_its_four_indices() -> None:
    out = place(_card("As", 0.0, "lrLR"), TWIN, _all_on)
    assert all(r.code == "As" and np.allclose(r.center, _centre(0.0)) for r in out)


def test_a_lone_index_is_withdrawn_unless_the_felt_tells_its_side() -> None:
    alone = _card("Kd", 0.0, "r")
    assert place(alone, TWIN, _all_on)[0].note == CORNER

    def left_only(reads: Sequence[Read]) -> NDArray[np.bool_]:  # felt right of x = 100
        return np.array([r.center[0] < 100.0 for r in reads])

    out = place(alone, TWIN, left_only)
    assert out[0].code == "Kd" and np.allclose(out[0].center, _centre(0.0))


def test_a_spread_tells_the_side_of_its_covered_cards() -> None:
    # Three cards a third of a card apart, the last on top: the covered ones show their
    # left strips alone (an upright and a turned index, just as the other side of a card
    # turned half round shows), the top one all four indices.
    reads = _card("2c", 0.0, "lR") + _card("3c", 33.0, "lR") + _card("4c", 66.0, "lrLR")
    out = place(reads, TWIN, _all_on)
    assert all(r.code is not None for r in out)
    for code, left in (("2c", 0.0), ("3c", 33.0), ("4c", 66.0)):
        assert all(np.allclose(r.center, _centre(left)) for r in out if r.code == code), code
    # With nothing to tell them, the covered cards' reads are withdrawn, not misplaced.
    alone = place(_card("2c", 0.0, "lR"), TWIN, _all_on)
    assert all(r.code is None and r.note == CORNER for r in alone)


# Where a read's card's edge lies as each corner (``corners.edge_sides``): a top-left index
# 0.1 of a card right of the card's left edge, the top-right one 0.1 left of its right edge.
PLACES = (-0.1, 0.1)
PAPER, FELT, LINE = 230, 90, 120


def _darkest(lefts: Sequence[float], line: bool = True) -> NDArray[np.uint8]:
    """The darkest channel of a spread of upright cards (a card's width ``WIDTH``, 1.4 tall)
    whose top-left corners lie at (left, 0) of a frame whose felt begins 20 px down and
    right: each later card on top, its edge a darker line (its shadow on the card beneath)
    where ``line``."""
    image = np.full((200, 400), FELT, np.uint8)
    for left in lefts:
        x, y = int(left) + 20, 20
        image[y:y + int(1.4 * WIDTH), x:x + int(WIDTH)] = PAPER
        if line:
            image[y:y + int(1.4 * WIDTH), x:x + 2] = LINE
            image[y:y + int(1.4 * WIDTH), x + int(WIDTH) - 2:x + int(WIDTH)] = LINE
    return image


def _framed(reads: Sequence[Read]) -> list[Read]:
    """``reads`` moved into ``_darkest``'s frame (20 px down and right)."""
    shift = np.array([20.0, 20.0])
    return [dataclasses.replace(r, center=r.center + shift, indices=tuple(
        (point + shift, right, down) for point, right, down in r.indices)) for r in reads]


def _edges(image: NDArray[np.uint8]) -> Callable[[Sequence[Read]], NDArray[np.int64]]:
    return lambda rs: edge_sides(image, rs, np.tile(PLACES, (len(rs), 1)))


def test_a_covered_cards_side_is_told_by_its_edge_beside_its_index() -> None:
    """A spread of covered cards, each showing its left strip alone (an upright and a
    turned index: the votes tie, the felt cannot tell, every row agrees): the card's
    edge runs beside each index on the side its card does not lie, its own paper on the
    other."""
    lefts = [0.0, 35.0, 70.0, 105.0]
    reads = _framed([r for k, left in enumerate(lefts)
                     for r in _card(f"{k + 2}h", left, "lR")])
    assert all(r.note == CORNER for r in place(reads, TWIN, _all_on))  # nothing else tells
    out = place(reads, TWIN, _all_on, _edges(_darkest(lefts)))
    assert [r.code for r in out] == [r.code for r in reads]
    for k, left in enumerate(lefts):
        for r in out[2 * k:2 * k + 2]:
            assert np.allclose(r.center, _centre(left) + 20.0), (r.code, r.center)


def test_an_index_with_no_darker_edge_on_either_side_is_not_placed_by_it() -> None:
    """A covered card whose edge shows no line on the card beneath (paper meets paper), and
    a read whose two places both lie on the felt: the edge tells no side, and the covered
    card's reads stay withdrawn."""
    lefts = [0.0, 35.0, 70.0]
    reads = _framed(_card("Ts", 35.0, "lR"))
    out = place(reads, TWIN, _all_on, _edges(_darkest(lefts, line=False)))
    assert all(r.code is None and r.note == CORNER for r in out)
    adrift = _framed([_index("5d", 300.0, 100.0)])
    assert edge_sides(_darkest(lefts), adrift, np.array([PLACES])).tolist() == [UNKNOWN]


def test_a_strip_whose_other_place_is_the_edge_of_the_card_on_it_is_not_placed() -> None:
    """A covered card's strip twice as wide as its index lies from its edge: the edge of the
    card lying on it runs where its own paper would be, a line as dark as its own edge
    (darker, where its shadow is deeper): no side is told (``EDGE_PAPER``)."""
    lefts = [0.0, 20.0, 40.0]
    image = _darkest(lefts)
    image[:, 60:62] = LINE // 2  # the covering card's edge, darker than the strip's own
    reads = _framed(_card("Ts", 20.0, "lR"))
    assert edge_sides(image, reads, np.tile(PLACES, (2, 1))).tolist() == [UNKNOWN, UNKNOWN]
    assert all(r.note == CORNER for r in place(reads, TWIN, _all_on, _edges(image)))


def test_the_darker_edge_must_be_darker_by_the_margin() -> None:
    """The covered card above, its edge a line darker than its paper by half the margin,
    then by one and a half times it."""
    reads = _framed(_card("Ts", 35.0, "l"))
    faint = _darkest([0.0, 35.0, 70.0], line=False)
    faint[:, 55:57] = round(PAPER * (1 - EDGE_MARGIN / 2))
    assert edge_sides(faint, reads, np.array([PLACES])).tolist() == [UNKNOWN]
    faint[:, 55:57] = round(PAPER * (1 - 1.5 * EDGE_MARGIN))
    assert edge_sides(faint, reads, np.array([PLACES])).tolist() == [AS_READ]
    turned = _framed(_card("Ts", 35.0, "R"))  # the same edge, beside its turned index
    assert edge_sides(faint, turned, np.array([PLACES])).tolist() == [OTHER]


def _measured(r: Read, scale: float) -> Read:
    """``r`` as read with its width measured ``scale`` times the true one (its card's
    centre placed from its index by that width)."""
    point, right, down = r.indices[0]
    centre = point + WIDTH * scale * (0.4 * right + 0.5 * down)
    return dataclasses.replace(r, center=centre, width=WIDTH * scale)


def test_one_cards_two_top_corners_are_placed_though_their_widths_disagree() -> None:
    # A card's two top indices, one read a fifth narrow: their centres, each as the corner
    # it is, lie more than SAME apart, so the votes tell neither side; nor does the felt.
    left, right = _card("Qc", 0.0, "lr")
    reads = [_measured(left, 0.8), _measured(right, 1.0)]
    gap = np.linalg.norm(reads[0].center - (reads[1].center - WIDTH * np.array(TWIN)))
    assert gap > SAME * 0.8 * WIDTH
    out = place(reads, TWIN, _all_on)
    assert [r.code for r in out] == ["Qc", "Qc"]
    assert np.allclose(out[0].center, reads[0].center)  # the left one, as read
    assert np.allclose(out[1].center, _centre(0.0))  # the right one, moved back
    # Turned half round, the one to the left along its own right is still the top-left's.
    turned = [_measured(_index("Qc", 20.0, 0.0, turned=True), 0.8),
              _measured(_index("Qc", 100.0, 0.0, turned=True), 1.0)]
    out = place(turned, TWIN, _all_on)
    assert [r.code for r in out] == ["Qc", "Qc"]
    assert np.allclose(out[1].center, turned[1].center)
    assert np.allclose(out[0].center, turned[0].center - 0.8 * WIDTH * TWIN[0] * turned[0].right)
    # Two names so placed are two cards: nothing tells their sides.
    other = [reads[0], dataclasses.replace(reads[1], code="Qh")]
    assert all(r.code is None for r in place(other, TWIN, _all_on))


def test_a_deck_printing_one_corner_reads_as_before() -> None:
    reads = _card("As", 0.0, "r")
    assert place(reads, (0.0, 0.0), _all_on) == reads
    assert follow(reads[0], reads[0], (0.0, 0.0)) is reads[0]


def test_the_twin_is_saved_and_a_deck_saved_without_it_prints_one_corner(
        tmp_path: Path) -> None:
    path = tmp_path / "deck.npz"
    dataclasses.replace(deck("2color"), twin=(0.78, 0.01)).save(path)
    assert Deck.load(path).twin == (0.78, 0.01)
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    del meta["twin"]
    np.savez(path, **{**arrays, "meta": np.array(json.dumps(meta))})
    assert Deck.load(path).twin == (0.0, 0.0)


def _stamped(face: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """A face with its top-left index stamped at the top right too, and its bottom-right one
    at the bottom left (the darker of the two pixels: ink over paper)."""
    def top_right(f: NDArray[np.uint8]) -> NDArray[np.uint8]:
        f = f.copy()
        w = f.shape[1]
        box = (slice(0, int(0.34 * w)), slice(int(0.02 * w), int(0.16 * w)))
        source = f[box[0], box[1], :3]
        dest = f[box[0], w - (box[1].stop - box[1].start):, :3]
        np.minimum(dest, source, out=dest)
        return f
    return top_right(top_right(face)[::-1, ::-1])[::-1, ::-1].copy()


def test_a_four_corner_deck_calibrates_and_reads_with_no_wrong_read() -> None:
    plain = faces("2color")
    assert deck("2color").twin == (0.0, 0.0)
    four = {code: _stamped(face) if code != "Jk" else face for code, face in plain.items()}
    learned = cached_deck("2color-four-corners", four, assets_dir() / "decks")
    assert 0.6 < learned.twin[0] < 0.9 and abs(learned.twin[1]) < 0.05
    tally = evaluate(CardReader(learned), four, frames=2, seed=2026)
    assert tally.wrong == 0, tally.mistakes
    assert tally.right >= 0.8 * tally.cards, f"{tally.right} of {tally.cards} read right"


def _numpy_votes(codes: Sequence[str | None], centre: NDArray[np.float64],
                 moved: NDArray[np.float64], width: NDArray[np.float64]) -> NDArray[np.int64]:
    """``corners._votes`` by numpy's steps, name by name."""
    side = np.zeros(len(codes), np.int64)
    by_code: dict[str, list[int]] = {}
    for k, code in enumerate(codes):
        if code is not None:
            by_code.setdefault(code, []).append(k)
    for rows in by_code.values():
        if len(rows) < 2:
            continue
        points = np.stack([centre[rows], moved[rows]], axis=1)
        wide = width[rows]
        flat = points.reshape(-1, 2)
        near = np.hypot(*(flat[:, None, None, :] - points[None]).transpose(3, 0, 1, 2)) < (
            SAME * np.minimum(wide[:, None, None], wide[None, :, None]).repeat(2, axis=0))
        voters = near.any(axis=2).sum(axis=1)
        best = int(np.argmax(voters))
        apart = np.hypot(*(flat - flat[best]).T) >= SAME * float(wide.min())
        if (voters[apart] >= voters[best]).any():
            continue
        for j, k in enumerate(rows):
            ways = np.flatnonzero(near[best, j])
            if len(ways):
                side[k] = AS_READ if int(ways[0]) == 0 else OTHER
    return side


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 40))
def test_the_compiled_vote_gives_numpys_sides(seed: int, n: int) -> None:
    """Random reads of a few names, their centres as read and moved scattered about a few
    places (so that many agree within ``SAME``, some tie, some lie at its very edge), some
    unnamed: ``_votes`` gives the sides numpy's steps give."""
    rng = np.random.default_rng(seed)
    codes = [None if rng.random() < 0.15 else str(c) for c in rng.integers(0, 6, n)]
    places = rng.uniform(0, 400, (4, 2))
    width = rng.choice([50.0, 60.0, 61.5], n)
    centre = places[rng.integers(0, 4, n)] + rng.normal(0, 6, (n, 2))
    moved = places[rng.integers(0, 4, n)] + rng.normal(0, 6, (n, 2))
    edge = rng.random(n) < 0.2  # moved exactly ``SAME`` widths from the centre as read
    moved[edge] = centre[edge] + np.array([SAME * 50.0, 0.0])
    want = _numpy_votes(codes, centre, moved, width)
    np.testing.assert_array_equal(_votes(codes, centre, moved, width), want)
