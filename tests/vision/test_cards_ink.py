"""Ink, candidates, patches and the felt: the pieces the card reader is made of.

A group's subsets are offered only where their marks hang together; a two-mark group's
patches cut as one strip are the patches cut in each sense; the felt is told from marks tied
to it by a card's edge line; and a card read where the felt lies is withdrawn (a crop of
bench frame 332 of 4color, seed 2026, stored in tests/golden/vision); a frame with more
candidates than one ``cv2.remap`` takes is cut in blocks; a glyph tied to the felt by the
edge line of a card on top is ink, and the line is not (a crop of bench frame 1 of
2color-bf); a patch keeps only its own marks' ink (a crop of bench frame 36 of 2color-bf);
a share of the white level is rounded down, for every ratio in hundredths and every level;
components labelled by runs are OpenCV's, their boxes and areas its statistics and their
moments the pixels' sums, also for the pieces a large mark's opening cuts it into.
"""

from __future__ import annotations

import dataclasses
import functools
import math

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from tests.vision.conftest import deck, faces, golden, outlined_face
from vision.cards import CardReader, parting, patch
from vision.cards import reader as reader_module
from vision.cards.felt import Felt
from vision.cards.ground import on_cards
from vision.cards.ink import (
    CORE_RATIO,
    DEEP_RATIO,
    INK_RATIO,
    Groups,
    Limits,
    Masks,
    _aggregate,
    _scaled,
    _tones,
    find_groups,
    masks,
)
from vision.cards.link import Links, candidates
from vision.cards.link import shape as moments_shape
from vision.cards.measure import clear_reaching, filled, label, reaching_border
from vision.cards.measure import opened as opened_marks
from vision.cards.pyramid import Pyramid
from vision.cards.reads import Read
from vision.scene import Camera, Pose, Scene

STILL = Camera(tilt=0.0, light=(1.0, 1.0), glare=(0, 0.0), blur=(0.0, 0.0), noise=(1.0, 1.0))


def _offered(joins: list[tuple[int, int]], marks: int, beside: tuple[tuple[int, int], ...] = ()
             ) -> set[tuple[int, ...]]:
    """The candidates ``link.candidates`` offers for one group of ``marks`` marks so joined,
    the joins ``beside`` side by side, the rest one over the other."""
    pa = np.array([a for a, _ in joins], np.int64)
    pb = np.array([b for _, b in joins], np.int64)
    along = np.array([j not in beside for j in joins], np.bool_)
    members, owners, _ = candidates(Links(np.zeros(marks, np.int64), pa, pb, along), most=6)
    return {tuple(sorted(members[owners == k].tolist())) for k in np.unique(owners).tolist()}


def test_a_groups_subsets_are_offered_only_where_they_hang_together() -> None:
    # a chain 0-1-2: the pairs joined, not the pair 0, 2 (joined only through 1)
    assert _offered([(0, 1), (1, 2)], 3) == {(0, 1, 2), (0, 1), (1, 2)}
    # all three joined: every pair
    assert _offered([(0, 1), (1, 2), (0, 2)], 3) == {(0, 1, 2), (0, 1), (1, 2), (0, 2)}
    # a chain 0-1-2-3: three marks only where two of their joins are their own
    offered = _offered([(0, 1), (1, 2), (2, 3)], 4)
    assert {(0, 1, 2), (1, 2, 3)} <= offered
    assert not {(0, 1, 3), (0, 2, 3), (0, 2), (1, 3), (0, 3)} & offered


def test_a_subset_is_offered_only_with_a_mark_over_another() -> None:
    """A ten's "1" and "0" side by side (0, 1) over its suit (2): the whole, the "0" over
    the suit and the three, not the "1" and "0" alone; marks only side by side (a row of
    pips, a chain of eight) offer no subset."""
    assert _offered([(0, 1), (1, 2)], 3, beside=((0, 1),)) == {(0, 1, 2), (1, 2)}
    row = [(k, k + 1) for k in range(7)]
    assert _offered(row, 8, beside=tuple(row)) == {tuple(range(8))}
    assert _offered(row, 8) >= {(0, 1), (0, 1, 2)}


@pytest.mark.parametrize("code", ["7c", "Td"])
def test_both_senses_cut_as_one_strip_are_the_patches_cut_in_each_sense(code: str) -> None:
    """Two-mark groups (7c) are cut as one strip, three-mark ones (a ten) sense by sense:
    either way the vectors are those ``cut`` makes for each sense, to rounding."""
    face = faces("2color")[code]
    scene = Scene(size=(400, 300))
    scene.place(face, Pose(200.0, 150.0, 17.0, 160.0 / face.shape[1]), code)
    image, _ = scene.render(np.random.default_rng(3), STILL)
    groups = find_groups(image)
    assert (groups.marks == 2).any() and (code != "Td" or (groups.marks == 3).any())
    pyramid = Pyramid(image)
    for shape in (patch.COARSE, patch.FINE):
        both = patch.cut_both(pyramid, groups, shape)
        for sense in (0, 1):
            alone = patch.cut(pyramid, groups, sense, shape)
            for got, want in zip(both[sense], alone, strict=True):
                assert got.shape == want.shape
                assert np.abs(got - want).max() < 0.01


def _paper() -> np.ndarray:
    """A paper mask: cards over a square, the felt around it; on the cards a pip tied to the
    felt by a card's edge line (2 pixels wide) and a band of felt 30 pixels wide."""
    paper = np.zeros((400, 400), np.uint8)
    paper[50:350, 50:350] = 255
    paper[100:130, 100:130] = 0  # a pip ...
    paper[40:200, 100:102] = 0  # ... on a card's edge line that runs out onto the felt
    paper[240:270, 50:350] = 0  # felt between two rows of cards
    return paper


def test_the_felt_is_told_from_marks_its_edge_lines_touch() -> None:
    paper = _paper()
    felt = Felt(paper)
    x = np.array([115.0, 100.0, 200.0, 10.0, 200.0])
    y = np.array([115.0, 150.0, 255.0, 10.0, 200.0])
    # the pip and the edge line are the cards'; the band and the rim are felt; paper is not
    assert felt.under(x, y, outside=True).tolist() == [False, False, True, True, False]
    # the cards mask of ``masks`` (paper outlines filled) leaves that pip out
    outlines = cv2.findContours(paper, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[-2]
    filled = np.zeros_like(paper)
    cv2.drawContours(filled, outlines, -1, 255, -1)
    assert filled[115, 115] == 0
    # out of the frame: as asked
    out = np.array([-5.0, 500.0])
    assert felt.under(out, out, outside=True).all()
    assert not felt.under(out, out, outside=False).any()


def test_a_read_must_imply_a_card_off_the_felt() -> None:
    """At most a tenth of a read card's points may lie on the felt. Out of the frame counts
    as felt for a read named only by the fine cut, not for a plain read."""
    aspect = deck("2color").aspect
    felt = Felt(_paper())
    # over the pip tied to the felt by an edge line
    plain = Read("As", 1.0, np.array([130.0, 140.0]), np.array([1.0, 0.0]),
                 np.array([0.0, 1.0]), 100.0, None, 20.0, 0.1)
    settled = dataclasses.replace(plain, odds=4.0, fit=0.6, settled=True)
    for r in (plain, settled):
        # two fifths of it over the felt around the cards, or a quarter on the band of felt
        away = [dataclasses.replace(r, center=np.array(c)) for c in ([340.0, 140.0],
                                                                      [130.0, 240.0])]
        assert on_cards(felt, [r, *away], aspect).tolist() == [True, False, False]
    # half out of the frame (the rest on the cards): a plain read stands, a settled one not
    frame = Felt(np.full((400, 400), 255, np.uint8))
    edge = np.array([5.0, 200.0])
    at_edge = [dataclasses.replace(r, center=edge) for r in (plain, settled)]
    assert on_cards(frame, at_edge, aspect).tolist() == [True, False]
    assert on_cards(frame, [], aspect).shape == (0,)


def test_a_card_read_where_the_felt_lies_is_withdrawn() -> None:
    """Bench frame 332 of 4color (seed 2026), cropped: a turned spread whose last card, the
    5d, lies on the felt. Beside it a mark was read as a 7d with a card lying on the felt
    (the reader before ``felt`` named it); it was withdrawn as off cards, and since patches
    keep only their own marks' ink it is not read as an index at all. The spread's cards
    read, and nothing else is named; a read withdrawn as off cards is not reported at all.
    (A card cut off by the crop's left side, its centre beyond it, may show as unknown.)"""
    image = golden("4color-frame332-felt.png")
    found = CardReader(deck("4color")).read(image)
    assert [i.code for i in found if i.code] == ["3d", "9s", "5d"]  # the cards in the crop
    inside = [i for i in found if 0 <= i.center[0] < image.shape[1]]
    assert not [i for i in inside if i.code is None]
    ink, cards, paper, _ = masks(image)
    assert not (ink.astype(bool) & ~cards.astype(bool)).any()  # no glyph tied to the felt
    assert paper.shape == image.shape[:2]


def test_a_frame_with_more_patches_than_one_remap_takes_is_cut_in_blocks() -> None:
    """cv2.remap takes maps of fewer than 32,767 rows: 3,000 candidates (72,000 rows of rank
    patches) are cut in blocks, each patch as when cut alone."""
    face = faces("2color")["7c"]
    scene = Scene(size=(400, 300))
    scene.place(face, Pose(200.0, 150.0, 17.0, 160.0 / face.shape[1]), "7c")
    image, _ = scene.render(np.random.default_rng(3), STILL)
    groups = find_groups(image)
    many = groups.take(np.arange(3000) % len(groups))
    assert 3000 * patch.COARSE.rank[1] > 32767
    pyramid = Pyramid(image)
    ranks, suits = patch.cut(pyramid, many, 0)
    alone = patch.cut(pyramid, groups, 0)
    assert np.array_equal(ranks, alone[0][np.arange(3000) % len(groups)])
    assert np.array_equal(suits, alone[1][np.arange(3000) % len(groups)])


def test_a_glyph_tied_to_the_felt_by_an_edge_line_is_ink_and_the_line_is_not() -> None:
    """A black glyph on a white card touches a grey edge line (a card on top, its shadow)
    that runs out onto the felt: the glyph is no hole in the paper, yet it is ink, and the
    line is not, beyond the pixel the glyph grows by. Without ``tied`` the glyph is lost."""
    frame = np.full((200, 200, 3), (40, 110, 40), np.uint8)  # green felt
    frame[40:180, 40:180] = 230  # a card's paper
    cv2.circle(frame, (70, 100), 8, (20, 20, 20), -1)  # a glyph
    frame[10:140, 78:80] = 150  # a grey edge line touching it, run out onto the felt
    ink = masks(frame).ink
    assert ink[100, 70] and ink[95:106, 64:77].all()  # the glyph's core
    assert not ink[44:90, 78:80].any() and not ink[112:140, 78:80].any()  # the line
    assert not ink[:40].any()  # the felt
    assert not masks(frame, tied=False).ink[95:106, 64:77].any()


def test_a_covered_index_tied_to_the_felt_by_the_card_on_top_is_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A crop of bench frame 1 of 2color-bf (seed 2026, stored in tests/golden/vision): a
    spread turned upside down, whose covered 3h touches the edge line of the 7c on top,
    which runs out to the felt. Every card is named; without the tied glyphs the 3h is lost."""
    image = golden("2color-bf-frame1-tied.png")
    cards = ["2c", "5s", "9s", "3h", "7c"]
    reader = CardReader(deck("2color-bf"))
    assert [i.code for i in reader.read(image)] == cards
    monkeypatch.setattr(reader_module, "masks", functools.partial(masks, tied=False))
    assert [i.code for i in reader.read(image)] == [c for c in cards if c != "3h"]


def test_a_patch_keeps_only_its_own_marks_ink() -> None:
    """A line drawn beside a card's index, apart from it (the edge of a card on top), leaves
    the index's patches as they were: pixels of other marks are painted with the paper. Cut
    without the frame's map of marks, the line shows in them."""
    face = faces("2color-bf")["7c"]
    scene = Scene(size=(400, 300))
    scene.place(face, Pose(200.0, 150.0, 0.0, 120.0 / face.shape[1]), "7c")
    clean, _ = scene.render(np.random.default_rng(3), STILL)
    groups = find_groups(clean)
    index = int(np.argmin(np.hypot(groups.cx - 153, groups.cy - 85)))  # the top-left index
    right = int(np.ceil(groups.cx[index] + 2.5 * groups.minor[index])) + 3
    lined = clean.copy()
    lined[40:140, right:right + 2] = 40
    near = find_groups(lined)
    again = int(np.argmin(np.hypot(near.cx - groups.cx[index], near.cy - groups.cy[index])))
    assert np.hypot(near.cx[again] - groups.cx[index], near.cy[again] - groups.cy[index]) < 0.5
    one, two = groups.take(np.array([index])), near.take(np.array([again]))
    base = patch.cut(Pyramid(clean), one, 0)
    kept = patch.cut(Pyramid(lined), two, 0)
    plain = patch.cut(Pyramid(lined), dataclasses.replace(two, mark_map=None), 0)
    for b, k, p in zip(base, kept, plain, strict=True):
        assert np.abs(b - k).max() < 0.02
        assert np.abs(b - p).max() > 0.05


def test_a_spread_of_blurred_covered_indices_beside_edge_lines_is_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A crop of bench frame 36 of 2color-bf (seed 2026, stored in tests/golden/vision): a
    blurred spread whose covered indices each touch or nearly touch the edge line of the
    card on top. Every card is named (the reader before patches kept only their own ink
    named the 5s alone); with patches cut whole, not all are."""
    image = golden("2color-bf-frame36-own-ink.png")
    cards = ["7d", "2c", "Td", "Kh", "5s"]
    reader = CardReader(deck("2color-bf"))
    assert [i.code for i in reader.read(image)] == cards
    monkeypatch.setattr(patch, "_own", lambda groups: None)
    assert [i.code for i in reader.read(image) if i.code] != cards


def test_sharpening_keeps_a_faint_thin_stroke_and_two_glyphs_apart() -> None:
    """A stroke a pixel wide, blurred by the camera's largest sigma, is too faint for the
    ink threshold; sharpened (``ink.SHARPEN_SIGMA``) it shows along its whole length, while
    two bold glyphs three pixels apart stay two marks."""
    card = np.full((80, 120, 3), 225, np.uint8)
    cv2.line(card, (20, 20), (20, 60), (110, 110, 110), 1)
    cv2.rectangle(card, (40, 20), (46, 60), (40, 40, 40), -1)
    cv2.rectangle(card, (50, 20), (56, 60), (40, 40, 40), -1)
    frame = np.zeros((100, 140, 3), np.uint8)
    frame[:] = (40, 120, 30)
    frame[10:90, 10:130] = cv2.GaussianBlur(card, (0, 0), 1.0)
    shown = {}
    for sharpen in (0.0, 1.0):
        ink = masks(frame, sharpen=sharpen).ink
        shown[sharpen] = float((ink[30:70, 29:32].max(axis=1) > 0).mean())
        assert cv2.connectedComponents(ink[:, 45:75])[0] - 1 == 2
    assert shown[0.0] < 0.5 and shown[1.0] > 0.9


def test_a_thin_stroked_deck_is_read_by_its_sharpened_ink(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A crop of bench frame 11 of 2color (seed 2026, stored in tests/golden/vision): a 9h
    on a 7d, cards 90 px wide, blurred, their thin rank strokes faint. The reader sharpens
    the ink (``reader.READ_SHARPEN``, at least as much as the deck learned at,
    ``Deck.sharpen``) and names both; read without sharpening, neither is named."""
    image = golden("2color-frame11-thin.png")
    thin = deck("2color")
    assert 0 < thin.sharpen <= reader_module.READ_SHARPEN
    assert {"9h", "7d"} <= {i.code for i in CardReader(thin).read(image)}
    monkeypatch.setattr(reader_module, "READ_SHARPEN", 0.0)
    plain = CardReader(dataclasses.replace(thin, sharpen=0.0)).read(image)
    assert not {"9h", "7d"} & {i.code for i in plain}


def test_a_bold_deck_is_read_sharpened_too() -> None:
    """A bold deck learns unsharpened ink (its strokes are wide on clean renders), yet the
    camera's blur thins its strokes as any deck's: its frames are read sharpened."""
    bold = dataclasses.replace(deck("2color-bf"), read_sharpen=0.0)
    assert bold.sharpen == 0.0
    assert CardReader(bold).limits.sharpen == reader_module.READ_SHARPEN


def test_a_deck_whose_tables_read_more_sharpened_is_read_so() -> None:
    """A deck that chose to be read sharpened more (``Deck.read_sharpen``, by
    ``trial.in_light``) is read so, whatever it learned at."""
    more = 2 * reader_module.READ_SHARPEN
    for name in ("2color", "2color-bf"):
        made = dataclasses.replace(deck(name), read_sharpen=more)
        assert CardReader(made).limits.sharpen == more


def _merged_index() -> NDArray[np.uint8]:
    """A card's corner: a rank bar over a suit block two pixels below it, a pip beside the
    suit two pixels away, all blurred into one mark whose necks stay fainter than the glyphs."""
    card = np.full((90, 120, 3), 225, np.uint8)
    cv2.rectangle(card, (30, 20), (35, 38), (30, 30, 30), -1)  # the rank: a bar
    cv2.rectangle(card, (28, 41), (37, 49), (30, 30, 30), -1)  # the suit under it
    cv2.rectangle(card, (40, 38), (60, 62), (30, 30, 30), -1)  # a pip beside the suit
    frame = np.zeros((110, 140, 3), np.uint8)
    frame[:] = (40, 120, 30)
    frame[10:100, 10:130] = cv2.GaussianBlur(card, (0, 0), 1.0)
    return frame


def test_a_mark_of_glyphs_blurred_together_is_offered_split() -> None:
    """Rank, suit and the pip beside them blur into one mark (``_merged_index``): no
    candidate of the plain marks holds the rank over its suit; with the deeper ink
    (``ink.DEEP_RATIO``) the mark is offered split, a candidate of the rank over the suit
    alone, whose parts are that mark's ink (``Groups.whole``) and show their own pixels."""
    frame = _merged_index()
    limits = Limits(sharpen=0.0, split=True)
    found = masks(frame, deep=True)
    assert found.deep is not None
    assert cv2.connectedComponents(found.ink)[0] - 1 == 1  # one mark
    plain = find_groups(frame, limits, found.ink)
    assert plain.whole is None and len(plain) == 0
    split = find_groups(frame, limits, found.ink, found.deep)
    assert split.whole is not None and split.mark_map is not None
    rank, suit = (42.5, 39.0), (42.5, 55.0)  # centroids in the frame
    near = [k for k in range(len(split)) if split.marks[k] == 2 and any(
        np.abs(split.ends[k, sense] - (rank, suit)).max() < 1.5 for sense in (0, 1))]
    assert near
    k = near[0]
    first = split.mark_map.first_part
    own = [int(m) for m in split.members[k] if m >= 0]
    assert all(m >= first for m in own) and len(set(split.whole[own].tolist())) == 1
    shown = split.mark_map.shows(own)
    assert shown[30:48, 40:46].any() and shown[51:59, 38:47].any() and not shown[60:70, 55:65].any()
    assert find_groups(frame, Limits(sharpen=0.0)).whole is None  # a deck that does not split


@given(st.integers(min_value=1, max_value=99))
def test_a_share_of_the_white_is_rounded_down_for_every_level(hundredths: int) -> None:
    ratio = hundredths / 100
    levels = np.arange(256, dtype=np.uint8).reshape(16, 16)
    want = (np.arange(256) * hundredths // 100).reshape(16, 16)
    assert np.array_equal(_scaled(levels, ratio), want)


def test_the_ink_and_core_ratios_are_hundredths() -> None:
    # ``_scaled`` rounds down exactly for ratios in hundredths only
    for ratio in (INK_RATIO, CORE_RATIO, DEEP_RATIO):
        assert round(ratio * 100) == pytest.approx(ratio * 100, abs=1e-9)


def _opencv_labels(mask: np.ndarray) -> tuple[int, np.ndarray]:
    """OpenCV's components of ``mask`` (8-connectivity, block-based labelling)."""
    count, labels = cv2.connectedComponentsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_BBDT)
    return int(count), labels


def _opencv_and_sums(mask: np.ndarray, labels: np.ndarray, count: int
                     ) -> tuple[np.ndarray, np.ndarray]:
    """OpenCV's statistics of ``labels`` (the mask's components, numbered as OpenCV does)
    and each component's moments as plain sums over its pixels."""
    stats = cv2.connectedComponentsWithStats((labels > 0).astype(np.uint8), 8, cv2.CV_32S)[2]
    if len(stats) != count:  # not OpenCV's own numbering: box each label by its pixels
        stats = np.zeros((count, 5), np.int32)
        for k in range(1, count):
            ys, xs = np.nonzero(labels == k)
            if len(xs):
                stats[k] = (xs.min(), ys.min(), np.ptp(xs) + 1, np.ptp(ys) + 1, len(xs))
    ys, xs = np.nonzero(mask)
    sums = np.zeros((count, 6))
    for k in range(1, count):
        x, y = xs[labels[ys, xs] == k].astype(float), ys[labels[ys, xs] == k].astype(float)
        sums[k] = [len(x), x.sum(), y.sum(), (x * x).sum(), (y * y).sum(), (x * y).sum()]
    return stats, sums


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.floats(min_value=0.05, max_value=0.6))
def test_components_are_opencvs_with_its_statistics_and_the_pixel_sums(seed: int,
                                                                        share: float) -> None:
    """Components labelled by runs (``label``) are OpenCV's block-based labelling's, in its
    numbering; their boxes and areas are OpenCV's statistics, and their moments their
    pixels' sums, on random masks of any density and width (rows that are not a whole
    number of eight-byte words included, and ink of any non-zero value)."""
    rng = np.random.default_rng(seed)
    shape = (int(rng.integers(1, 60)), int(rng.integers(1, 90)))
    mask = np.where(rng.random(shape) < share, rng.integers(1, 256, shape), 0).astype(np.uint8)
    count, labels, got = label(mask)
    want_count, want_labels = _opencv_labels(mask)
    assert count == want_count and np.array_equal(labels, want_labels)
    stats, sums = _opencv_and_sums(mask, labels, count)
    assert np.array_equal(got.stats[1:], stats[1:])
    assert np.array_equal(got.moments[1:], sums[1:])
    assert got.stats[0].tolist()[4] == 0  # the background has no ink pixel


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.floats(min_value=0.4, max_value=0.95))
def test_large_marks_are_opened_into_opencvs_pieces(seed: int, share: float) -> None:
    """Each large label ``opened`` is OpenCV's opening of its pixels within its box, cut
    into OpenCV's components of the opening, numbered after the labels there are, one large
    label after another, and measured (boxes, areas, moments) as its pieces' pixels; every
    other label and row is kept as it was."""
    rng = np.random.default_rng(seed)
    shape = (int(rng.integers(3, 50)), int(rng.integers(3, 70)))
    mask = np.where(rng.random(shape) < share, 255, 0).astype(np.uint8)
    count, labels, before = label(mask)
    big = np.flatnonzero(before.stats[:, 4] >= 6)
    big = big[big > 0]
    want = labels.copy()
    total = count
    for k in big.tolist():  # as find_groups did it with OpenCV
        bx, by, bw, bh = (int(v) for v in before.stats[k, :4])
        roi = want[by:by + bh, bx:bx + bw]
        opened = cv2.morphologyEx((roi == k).astype(np.uint8) * 255, cv2.MORPH_OPEN,
                                  np.ones((3, 3), np.uint8))
        pieces, piece_labels = _opencv_labels(opened)
        if pieces > 1:
            inside = opened > 0
            roi[inside] = piece_labels[inside] + (total - 1)
            total += pieces - 1
    got_count, got, origin = opened_marks(labels, before, big)
    assert got_count == total and np.array_equal(labels, want)
    assert len(origin) == total - count and np.isin(origin, big).all()
    assert (np.diff(origin) >= 0).all()  # each large mark's pieces in turn
    stats, sums = _opencv_and_sums(mask, np.where(np.isin(labels, big), 0, labels), total)
    assert np.array_equal(got.stats[:count], before.stats)
    assert np.array_equal(got.moments[:count], before.moments)
    assert np.array_equal(got.stats[count:], stats[count:])
    assert np.array_equal(got.moments[count:], sums[count:])


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_groups_are_their_marks_moments_with_the_suit_at_either_end(seed: int) -> None:
    """A group's moments are its marks' summed in the order listed, and its ends, in each
    sense of its axis, put the suit at the mark lying last along the axis (sense 0; of
    marks lying level, the last listed) or first (sense 1; the first listed), the rank at
    the others' centroid; marks on whole pixels, so that ties occur."""
    rng = np.random.default_rng(seed)
    marks = int(rng.integers(1, 12))
    xy = rng.integers(0, 6, (marks, 2)).astype(float)  # one pixel each, often level
    m = np.column_stack([np.ones(marks), xy[:, 0], xy[:, 1], xy[:, 0] ** 2, xy[:, 1] ** 2,
                         xy[:, 0] * xy[:, 1]]) * rng.integers(1, 4, (marks, 1))
    groups = int(rng.integers(1, 5))
    owners = np.sort(rng.integers(0, groups, int(rng.integers(groups, 20))))
    owners[:groups] = np.arange(groups)  # every group has a member
    owners.sort()
    members = rng.integers(0, marks, len(owners))
    got = _aggregate(m, members, owners, groups, np.arange(groups))
    for g in range(groups):
        mine = members[owners == g].tolist()
        sums = np.zeros(6)
        for k in mine:
            sums += m[k]
        assert got.pixels[g] == sums[0] and got.marks[g] == len(mine)
        _, cx, cy, theta = (float(v[0]) for v in moments_shape(sums[None])[:4])
        assert (got.cx[g], got.cy[g], got.theta[g]) == (cx, cy, theta)
        along = [(m[k, 1] / max(m[k, 0], 1) - cx) * math.cos(theta)
                 + (m[k, 2] / max(m[k, 0], 1) - cy) * math.sin(theta) for k in mine]
        last = mine[max(range(len(mine)), key=lambda i: (along[i], i))]
        first = mine[min(range(len(mine)), key=lambda i: (along[i], i))]
        for sense, suit in ((0, last), (1, first)):
            rest = sums[:3] - m[suit, :3]
            want_rank = rest[1:] / max(rest[0], 1.0)
            want_suit = m[suit, 1:3] / max(m[suit, 0], 1.0)
            assert np.allclose(got.ends[g, sense, 0], want_rank, rtol=0, atol=1e-9)
            assert got.ends[g, sense, 1].tolist() == want_suit.tolist()


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.floats(min_value=0.1, max_value=0.9))
def test_the_parts_reaching_the_border_are_opencvs_components_that_do(seed: int,
                                                                      share: float) -> None:
    """``reaching_border`` keeps exactly the 4-connected components (OpenCV's labelling)
    with a pixel on the image's border, on random masks of any size and density."""
    rng = np.random.default_rng(seed)
    shape = (int(rng.integers(1, 50)), int(rng.integers(1, 70)))
    mask = np.where(rng.random(shape) < share, 255, 0).astype(np.uint8)
    _, labels = cv2.connectedComponents(mask, connectivity=4)
    rim = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    want = np.isin(labels, rim[rim > 0])
    assert np.array_equal(reaching_border(mask) > 0, want)


def _holes_filled(mask: np.ndarray) -> np.ndarray:
    """255 but where a pixel is unset and its unset part (OpenCV's 4-connected components)
    reaches the image's border."""
    _, parts = cv2.connectedComponents((mask == 0).astype(np.uint8), connectivity=4)
    rim = np.unique(np.concatenate([parts[0], parts[-1], parts[:, 0], parts[:, -1]]))
    return np.where(np.isin(parts, rim[rim > 0]), 0, 255).astype(np.uint8)


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.floats(min_value=0.2, max_value=0.95))
def test_shapes_are_filled_where_no_unset_path_reaches_the_border(seed: int, share: float
                                                                  ) -> None:
    """``filled`` leaves out exactly the unset pixels whose 4-connected part reaches the
    border, on random masks of any size and density, of any non-zero value, with rows of
    whole eight-byte words (read where they lie) and of others (copied to be read)."""
    rng = np.random.default_rng(seed)
    width = int(rng.integers(1, 12)) * 8 if rng.random() < 0.4 else int(rng.integers(1, 90))
    shape = (int(rng.integers(1, 50)), width)
    mask = np.where(rng.random(shape) < share, rng.integers(1, 256, shape), 0).astype(np.uint8)
    assert np.array_equal(filled(mask), _holes_filled(mask))


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.floats(min_value=0.2, max_value=0.95))
def test_a_mask_is_cleared_where_the_unset_parts_reaching_the_border_lie(seed: int,
                                                                         share: float) -> None:
    """``clear_reaching`` leaves another mask as ``filled`` of the first cuts it: cleared on
    the first's unset parts that reach the border, kept elsewhere, in place."""
    rng = np.random.default_rng(seed)
    width = int(rng.integers(1, 12)) * 8 if rng.random() < 0.4 else int(rng.integers(1, 90))
    shape = (int(rng.integers(1, 50)), width)
    mask = np.where(rng.random(shape) < share, 255, 0).astype(np.uint8)
    out = np.where(rng.random(shape) < 0.5, 255, 0).astype(np.uint8)
    want = cv2.bitwise_and(out, _holes_filled(mask))
    clear_reaching(mask, out)
    assert np.array_equal(out, want)


def test_a_mask_of_another_size_is_not_cleared() -> None:
    with pytest.raises(ValueError, match=r"\(4, 6\)"):
        clear_reaching(np.zeros((5, 6), np.uint8), np.zeros((4, 6), np.uint8))


@pytest.mark.parametrize("seed", range(12))
def test_filled_shapes_are_their_outlines_drawn_filled(seed: int) -> None:
    """On shapes of more than a few pixels (discs, rings, a ring round a disc, shapes
    cut by the border), ``filled`` is OpenCV's outer outlines drawn filled, which
    ``masks`` took before: the two part only on specks, whose outline of fewer than four
    points the old way left out (paper there, never ink)."""
    rng = np.random.default_rng(seed)
    mask = np.zeros((120, 168), np.uint8)
    for _ in range(8):
        centre = (int(rng.integers(-10, 178)), int(rng.integers(-10, 130)))
        axes = (int(rng.integers(4, 30)), int(rng.integers(4, 30)))
        thick = -1 if rng.random() < 0.4 else int(rng.integers(2, 5))
        cv2.ellipse(mask, centre, axes, float(rng.uniform(0, 180)), 0, 360, 255, thick)
    outlines = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[-2]
    drawn = np.zeros_like(mask)
    cv2.drawContours(drawn, outlines, -1, 255, -1)
    assert np.array_equal(filled(mask), drawn)
    assert cv2.countNonZero(drawn) > cv2.countNonZero(mask)  # there were holes to fill


@pytest.mark.parametrize("name", ["2color-bf-frame1-tied.png", "2color-frame11-thin.png",
                                  "2color-bf-frame36-own-ink.png"])
@pytest.mark.parametrize("sharpen", [0.0, 1.0])
@pytest.mark.parametrize("tied", [True, False])
def test_the_masks_are_their_rule_in_opencv_steps(name: str, sharpen: float, tied: bool
                                                  ) -> None:
    """``masks``' compiled steps give the rule its docstring states, written out in
    OpenCV's bitwise operations: paper is lit and not dark, the cards mask is the paper
    with its holes filled (``_holes_filled``), ink is dark inside it or, tied, dark where
    the cores outside it (in a hole of the paper taken with the fainter dark) reach, grown
    by a pixel."""
    frame = golden(name)
    dark, core, lit, deeper = _tones(frame, 15, sharpen, True)
    paper = cv2.bitwise_and(lit, cv2.bitwise_not(dark))
    inside = _holes_filled(paper)
    ink = cv2.bitwise_and(dark, inside)
    if tied:
        outside = cv2.bitwise_not(inside)
        enclosed = _holes_filled(cv2.bitwise_and(lit, cv2.bitwise_not(core)))
        cores = cv2.bitwise_and(cv2.bitwise_and(core, outside), enclosed)
        ink = cv2.bitwise_or(ink, cv2.bitwise_and(cv2.dilate(cores, np.ones((3, 3), np.uint8)),
                                                  cv2.bitwise_and(dark, outside)))
    got = masks(frame, sharpen=sharpen, tied=tied, deep=True)
    assert np.array_equal(got.paper, paper) and np.array_equal(got.cards, inside)
    assert np.array_equal(got.ink, ink)
    assert deeper is not None and got.deep is not None
    assert np.array_equal(got.deep, cv2.bitwise_and(deeper, ink))  # the deeper dark that is ink
    assert not cv2.countNonZero(cv2.bitwise_and(deeper, cv2.bitwise_not(dark)))
    assert masks(frame, sharpen=sharpen, tied=tied).deep is None
    if tied and name == "2color-bf-frame1-tied.png":  # a glyph tied to the felt: ink outside
        assert cv2.countNonZero(cv2.bitwise_and(got.ink, cv2.bitwise_not(inside)))


def _necked_index() -> NDArray[np.uint8]:
    """A card's corner: a rank bar over a round suit, the suit tied to a larger round pip
    beside it by a neck as dark as the glyphs (Dondorf's small clubs touching their pip),
    blurred a little: one mark that the deeper ink does not part."""
    card = np.full((90, 120, 3), 225, np.uint8)
    cv2.rectangle(card, (30, 14), (34, 32), (30, 30, 30), -1)  # the rank: a bar
    cv2.circle(card, (32, 42), 5, (30, 30, 30), -1)  # the suit under it
    cv2.circle(card, (52, 46), 10, (30, 30, 30), -1)  # a pip beside the suit
    cv2.line(card, (36, 43), (43, 44), (30, 30, 30), 2)  # the neck
    frame = np.zeros((110, 140, 3), np.uint8)
    frame[:] = (40, 120, 30)
    frame[10:100, 10:130] = cv2.GaussianBlur(card, (0, 0), 0.7)
    return frame


def test_a_suit_tied_to_a_pip_by_a_dark_neck_is_parted_by_its_shape(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The suit and the pip of ``_necked_index`` are one mark, and so is their deeper ink
    (its neck as dark as they are): cut where its shape narrows (``parting.NECK_DEPTHS``,
    ``Limits.necks``: calibration's samples), the mark is offered split, and a candidate of
    the rank over the suit alone is found; it is not without the cut."""
    frame = _necked_index()
    found = masks(frame, deep=True)
    assert found.deep is not None
    assert cv2.connectedComponents(found.ink)[0] - 1 == 2  # the rank, and suit with pip
    assert cv2.connectedComponents(found.deep)[0] - 1 == 2  # the neck is deep ink too
    limits = Limits(sharpen=0.0, split=True, necks=True)
    rank, suit = (42.0, 33.0), (42.0, 52.0)  # centroids in the frame

    def index(groups: Groups) -> list[int]:
        return [k for k in range(len(groups)) if groups.marks[k] == 2 and any(
            np.abs(groups.ends[k, sense] - (rank, suit)).max() < 1.5 for sense in (0, 1))]

    split = find_groups(frame, limits, found.ink, found.deep)
    near = index(split)
    assert near and split.mark_map is not None and split.whole is not None
    own = [int(m) for m in split.members[near[0]] if m >= 0]
    shown = split.mark_map.shows(own)
    assert shown[47:57, 37:47].any() and not shown[50:62, 58:70].any()  # suit, not pip
    monkeypatch.setattr(parting, "NECK_DEPTHS", ())
    assert not index(find_groups(frame, limits, found.ink, found.deep))
    monkeypatch.undo()  # the reader's limits do not cut necks (``Limits.necks``)
    assert not index(find_groups(frame, Limits(sharpen=0.0, split=True), found.ink,
                                 found.deep))


def test_a_glyph_joined_to_the_cards_printed_outline_is_cut_from_it() -> None:
    """A card 86 pixels wide, blurred: its rank joins the thick printed outline and through
    it the felt, so its bar is no ink and, in calibration's untied ink, the index is not
    found; with ``bays`` (``bays.bays_of``) the rank is ink, cut from the outline, and the
    index is found, while the outline and the felt stay no ink."""
    face = outlined_face(4)
    scene = Scene(size=(180, 180), shadow=0.0)
    pose = Pose(90.0, 90.0, 0.0, 86.0 / face.shape[1])
    scene.place(face, pose, "face")
    camera = dataclasses.replace(STILL, blur=(1.0, 1.0), noise=(0.0, 0.0))
    frame, _ = scene.render(np.random.default_rng(0), camera)
    left, top = int(pose.x - 43), int(pose.y - 62)
    bar = (slice(top + 3, top + 6), slice(left + 7, left + 17))  # the "7"'s, in the frame
    for tied in (False, True):  # the glyph's core tied to the felt (``masks``) is no bar
        plain = masks(frame, tied=tied)
        cut = masks(frame, tied=tied, bays=True)
        assert not plain.ink[bar].any()
        assert cut.ink[bar].sum() >= 10 * 255
        count, _, stats, _ = cv2.connectedComponentsWithStats(cut.ink)
        assert count > 3 and stats[1:, 2:4].max() < 40  # no outline ring among the marks
        assert not cut.ink[:top - 2].any()  # nor felt

    def index(groups: Groups) -> bool:
        return bool(((np.abs(groups.cx - (left + 10)) < 6) & (np.abs(groups.cy - (top + 12)) < 8)
                     & (groups.marks == 2)).any())

    # as calibration's samples take the ink (``samples``): the index only with ``bays``
    assert not index(find_groups(frame, Limits(), masks(frame, tied=False).ink))
    assert index(find_groups(frame, Limits(), masks(frame, tied=False, bays=True).ink))


def _rank_by_pip() -> NDArray[np.uint8]:
    """A card's corner: a thin-stroked rank (a ring) touching a large round pip beside it,
    as dark as the pip where they touch, and its suit below it, apart."""
    card = np.full((90, 120, 3), 225, np.uint8)
    cv2.rectangle(card, (30, 20), (37, 34), (30, 30, 30), 2)  # the rank: a ring
    cv2.circle(card, (49, 28), 11, (30, 30, 30), -1)  # the pip, touching it
    cv2.circle(card, (33, 44), 4, (30, 30, 30), -1)  # the suit under the rank
    frame = np.zeros((110, 140, 3), np.uint8)
    frame[:] = (40, 120, 30)
    frame[10:100, 10:130] = cv2.GaussianBlur(card, (0, 0), 0.7)
    return frame


def test_a_rank_joined_to_a_large_pip_is_parted_from_its_body() -> None:
    """The rank and the pip of ``_rank_by_pip`` are one mark, and so is their deeper ink:
    the split marks find no index there. Parted from the pip's body (``parting.pips``,
    ``Limits.pips``), the rank over its suit is a candidate, whose patches show the rank's
    ink and not the pip's."""
    frame = _rank_by_pip()
    found = masks(frame, deep=True)
    assert found.deep is not None
    assert cv2.connectedComponents(found.ink)[0] - 1 == 2  # the rank with the pip, the suit
    assert cv2.connectedComponents(found.deep)[0] - 1 == 2
    parted, shown = _parted_index(frame, found, (43.5, 37.0), (43.0, 54.0), 2.0)
    assert parted.whole is not None
    assert shown[30:45, 40:48].any() and not shown[32:44, 55:65].any()  # rank, not pip


def _club(card: NDArray[np.uint8], x: int, y: int, size: tuple[int, int, int],
          stem: int) -> None:
    """A club drawn on ``card``: three leaves of radius ``size[0]``, ``size[1]`` from its
    middle (at ``x``, ``y``), a disk of radius ``size[2]`` there joining them by necks
    narrower than the leaves, and a stem ``stem`` long."""
    r, d, mid = size
    for cx, cy in ((x, y - d), (x - d, y + d // 2), (x + d, y + d // 2)):
        cv2.circle(card, (cx, cy), r, (30, 30, 30), -1)
    cv2.circle(card, (x, y), mid, (30, 30, 30), -1)
    cv2.line(card, (x, y), (x, y + stem), (30, 30, 30), max(r // 2, 1))


def _suit_by_small_pip() -> NDArray[np.uint8]:
    """A card's corner as Bonded prints its clubs 4-10, blurred: a small index club touching
    the right leaf of the large club beside it (a pip whose deeper ink is 4-5 pixels deep,
    as Bonded's on the table camera's smallest cards), and the index's rank over the small
    club, apart."""
    card = np.full((90, 120, 3), 225, np.uint8)
    cv2.rectangle(card, (60, 12), (67, 26), (30, 30, 30), 2)  # the rank: a ring
    _club(card, 64, 36, (2, 3, 1), 5)  # the index's suit
    _club(card, 50, 36, (4, 7, 3), 10)  # the large pip, touching it
    frame = np.zeros((110, 140, 3), np.uint8)
    frame[:] = (40, 120, 30)
    frame[10:100, 10:130] = cv2.GaussianBlur(card, (0, 0), 0.7)
    return frame


def test_a_small_suit_joined_to_a_shallow_pip_is_parted_and_the_pip_kept_whole() -> None:
    """The small club and the large club of ``_suit_by_small_pip`` are one mark, and so is
    their deeper ink, whose deepest pixel is shallower than a large pip on a larger card is
    but deeper than ``PIP_DEPTH``: parted from the pip's body (``parting.pips``), the rank
    over the small club is a candidate whose patches show the small club and not the
    large one, and the large club's leaves stay one part (its middle, joining them, is the
    pip's own: ``parting.GLYPH_AREA``), no pieces that compete for the marks."""
    frame = _suit_by_small_pip()
    found = masks(frame, deep=True)
    assert found.deep is not None
    assert cv2.connectedComponents(found.ink)[0] - 1 == 2  # the rank, the clubs joined
    assert cv2.connectedComponents(found.deep)[0] - 1 == 2
    _, labels, measures = label(found.ink)
    deepest = cv2.distanceTransform(found.deep, cv2.DIST_L2, 3).max()
    assert 4.0 <= deepest < 5.0  # a shallow pip (``parting.PIP_DEPTH``)
    parted = parting.pips(labels, measures.stats, found.deep, np.zeros(0, np.int64))
    pieces = label(parted)[1]
    leaves = {int(pieces[y + 10, x + 10]) for x, y in ((50, 29), (43, 39), (57, 39))}
    suit = int(pieces[36 + 10, 64 + 10])
    assert len(leaves) == 1 and 0 not in leaves and suit not in leaves | {0}
    _, shown = _parted_index(frame, found, (73.5, 29.0), (74.0, 47.5), 2.5)
    assert shown[42:52, 70:78].any() and not shown[40:52, 54:66].any()  # small, not large


def _parted_index(frame: NDArray[np.uint8], found: Masks, rank: tuple[float, float],
                  suit: tuple[float, float], within: float
                  ) -> tuple[Groups, NDArray[np.bool_]]:
    """The candidates found parting glyphs from pips (``Limits.pips``), and what the marks
    of the one of rank over suit (centroids in the frame, ``within`` pixels) show; no such
    candidate is found without parting."""

    def index(groups: Groups) -> list[int]:
        return [k for k in range(len(groups)) if groups.marks[k] == 2 and any(
            np.abs(groups.ends[k, sense] - (rank, suit)).max() < within for sense in (0, 1))]

    assert not index(find_groups(frame, Limits(sharpen=0.0, split=True), found.ink,
                                 found.deep))
    parted = find_groups(frame, Limits(sharpen=0.0, split=True, pips=True), found.ink,
                         found.deep)
    near = index(parted)
    assert near and parted.mark_map is not None
    own = [int(m) for m in parted.members[near[0]] if m >= 0]
    return parted, parted.mark_map.shows(own)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_every_mark_holding_a_pip_body_is_measured(seed: int) -> None:
    """``parting._may_be_deep`` passes every mark that holds a pixel ``PIP_DEPTH`` deep (a
    distance transform of its own deep ink, as ``pips`` measures it), also where the mark
    reaches the frame's border: ``pips`` loses no mark it would part by measuring fewer.
    Random blobs of every depth about the threshold, blurred and cut at random levels."""
    rng = np.random.default_rng(seed)
    image = np.zeros((60, 80), np.uint8)
    for _ in range(int(rng.integers(1, 8))):
        centre = (int(rng.integers(-5, 85)), int(rng.integers(-5, 65)))
        axes = (int(rng.integers(1, 12)), int(rng.integers(1, 12)))
        cv2.ellipse(image, centre, axes, float(rng.uniform(0, 180)), 0, 360, 255, -1)
    image = cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.5, 2.0)))
    deep = np.where(image > rng.integers(60, 200), 255, 0).astype(np.uint8)
    count, labels = cv2.connectedComponents(deep, connectivity=8, ltype=cv2.CV_32S)
    passed = parting._may_be_deep(labels, deep, count)
    for m in range(1, count):
        own = np.where(labels == m, 255, 0).astype(np.uint8)
        if cv2.distanceTransform(own, cv2.DIST_L2, 3).max() >= parting.PIP_DEPTH:
            assert passed[m], m


def test_a_glyph_thinner_than_a_pip_is_not_parted_alone() -> None:
    """``parting.pips`` leaves marks no deeper than ``PIP_DEPTH`` as they are: an index
    alone (its suit a small pip) is not cut."""
    card = np.full((60, 60), 0, np.uint8)
    cv2.rectangle(card, (20, 10), (27, 24), 255, 2)
    cv2.circle(card, (23, 34), 4, 255, -1)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(card)
    out = parting.pips(labels.astype(np.int32), stats.astype(np.int32), card,
                       np.zeros(0, np.int64))
    assert (out == card).all()


def _rank_by_court() -> NDArray[np.uint8]:
    """``_rank_by_pip`` where the large pip touches a court's picture too (drawn in strokes
    shallower than the pip's body, as a picture's line work is): rank, pip and picture
    are one large mark, wider than ``Limits.mark_max``."""
    card = np.full((170, 210, 3), 225, np.uint8)
    cv2.rectangle(card, (30, 20), (37, 34), (30, 30, 30), 2)  # the rank: a ring
    cv2.circle(card, (49, 28), 11, (30, 30, 30), -1)  # the pip, touching it
    cv2.circle(card, (33, 44), 4, (30, 30, 30), -1)  # the suit under the rank
    cv2.rectangle(card, (60, 14), (195, 155), (30, 30, 30), 4)  # the picture's frame,
    for x in range(80, 195, 20):  # touching the pip, and its line work
        cv2.line(card, (x, 14), (x - 15, 155), (30, 30, 30), 3)
    frame = np.zeros((190, 230, 3), np.uint8)
    frame[:] = (40, 120, 30)
    frame[10:180, 10:220] = cv2.GaussianBlur(card, (0, 0), 0.7)
    return frame


def test_a_rank_joined_through_a_pip_to_a_picture_is_parted_with_courts() -> None:
    """The rank, the pip and the picture of ``_rank_by_court`` are one large mark, which
    ``parting.pips`` leaves as it is (``Limits.pips``: no index found there); with
    ``Limits.courts`` the large mark is parted too, and the rank over its suit is a
    candidate whose patches show the rank's ink, not the pip's."""
    frame = _rank_by_court()
    found = masks(frame, deep=True)
    assert found.deep is not None
    count, _, stats, _ = cv2.connectedComponentsWithStats(found.ink)
    assert count - 1 == 2 and stats[1:, 2].max() > Limits().mark_max  # one of them large
    rank, suit = (43.5, 37.0), (43.0, 54.0)  # centroids in the frame

    def index(groups: Groups) -> list[int]:
        return [k for k in range(len(groups)) if groups.marks[k] == 2 and any(
            np.abs(groups.ends[k, sense] - (rank, suit)).max() < 2.0 for sense in (0, 1))]

    assert not index(find_groups(frame, Limits(sharpen=0.0, split=True, pips=True),
                                 found.ink, found.deep))
    parted = find_groups(frame, Limits(sharpen=0.0, split=True, pips=True, courts=True),
                         found.ink, found.deep)
    near = index(parted)
    assert near and parted.mark_map is not None
    own = [int(m) for m in parted.members[near[0]] if m >= 0]
    shown = parted.mark_map.shows(own)
    assert shown[30:45, 40:48].any() and not shown[32:44, 55:65].any()  # rank, not pip


def test_a_large_mark_is_parted_only_with_large() -> None:
    """``parting.pips`` leaves a large mark (``big``) as it is unless asked (``large``),
    and then clears the ring about its deepest body."""
    frame = _rank_by_court()
    found = masks(frame, deep=True)
    assert found.deep is not None
    _, labels, stats, _ = cv2.connectedComponentsWithStats(found.ink)
    big = np.flatnonzero(stats[:, 2] > Limits().mark_max)
    big = big[big > 0]
    args = (labels.astype(np.int32), stats.astype(np.int32), found.deep, big)
    assert (parting.pips(*args) == found.deep).all()
    out = parting.pips(*args, large=True)
    assert (out <= found.deep).all() and (out != found.deep).any()
