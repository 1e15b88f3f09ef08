"""The felt's colour test in 8-bit planes (``felt._at_least``) against the float32 one it
replaced: the same pixels pass it; the felt is of one colour, so a picture printed to its
card's edge is not felt (``felt.FELT_CHROMA``), nor a card tinted in its light, as light as
paper (``felt.LIGHT_SHARE``); and paper is as grey as the frame's own
paper, so a pale wooden table is felt (``felt.paper_grey``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.cards import felt as felt_module
from vision.cards.felt import GREY, Felt
from vision.cards.measure import reaching_border


def _grey_f32(frame: np.ndarray, grey: float = GREY) -> np.ndarray:
    """The paper's colour test as ``Felt`` made it in float32 planes, for reference."""
    b, g, r = cv2.split(frame.astype(np.float32))
    return np.asarray(cv2.compare(cv2.min(cv2.min(b, g), r),
                                  cv2.max(cv2.max(b, g), r) * np.float32(grey), cv2.CMP_GE))


def test_every_pair_of_darkest_and_brightest_is_judged_as_in_float32() -> None:
    darkest, brightest = np.meshgrid(np.arange(256), np.arange(256))
    keep = darkest <= brightest
    frame = np.zeros((256, 256, 3), np.uint8)
    frame[..., 0], frame[..., 2] = darkest, brightest
    frame[..., 1] = np.where(keep, darkest, brightest)  # a middle channel between them
    lo, hi = cv2.min(frame[..., 0], frame[..., 2]), cv2.max(frame[..., 0], frame[..., 2])
    got = cv2.compare(lo, felt_module._at_least(hi), cv2.CMP_GE)
    assert np.array_equal(got, _grey_f32(frame))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), h=st.integers(2, 60), w=st.integers(2, 60))
def test_the_felt_is_as_the_float32_test_found_it(seed: int, h: int, w: int) -> None:
    rng = np.random.default_rng(seed)
    frame = rng.integers(0, 256, (h, w, 3), np.uint8)
    frame[rng.random((h, w)) < 0.5] //= 4  # darker patches, felt-like
    paper = np.where(rng.random((h, w)) < 0.6, 255, 0).astype(np.uint8)
    # The reference: the felt as ``Felt`` found it with the float32 test.
    shrunk = (max(w // felt_module.SHRINK, 1), max(h // felt_module.SHRINK, 1))
    small = cv2.resize(paper, shrunk, interpolation=cv2.INTER_NEAREST)
    seen = cv2.resize(frame, shrunk, interpolation=cv2.INTER_AREA)
    low, high = seen.min(axis=2), seen.max(axis=2)

    def found(grey: float) -> np.ndarray:
        wide = cv2.morphologyEx(cv2.bitwise_not(cv2.bitwise_and(small, _grey_f32(seen, grey))),
                                cv2.MORPH_OPEN, np.ones((felt_module.OPEN,) * 2, np.uint8))
        return reaching_border(np.asarray(wide, np.uint8))

    ground = found(GREY)
    border = np.concatenate([ground[0], ground[-1], ground[1:-1, 0], ground[1:-1, -1]]) > 0
    if border.mean() < felt_module.BORDER_FOUND:  # a table as pale as paper
        ground = found(felt_module.paper_grey(low, high, small))
    step, coarse = felt_module.SAMPLE, felt_module.COARSE
    tiny = (max(seen.shape[1] // coarse, 1), max(seen.shape[0] // coarse, 1))
    lab = cv2.cvtColor(cv2.resize(seen, tiny, interpolation=cv2.INTER_AREA),
                       cv2.COLOR_BGR2Lab).astype(np.float64)
    sample = cv2.resize(ground, tiny, interpolation=cv2.INTER_NEAREST)[::step, ::step] > 0
    if sample.any():
        # ... and of the ground's colour, told at a coarser size: Lab's a and b each near
        # their median there.
        centre = np.median(lab[::step, ::step][sample][:, 1:], axis=0)
        near = (np.abs(lab[..., 1:] - centre) <= felt_module.FELT_CHROMA).all(axis=-1)
        # ... and, a dark felt, no lighter than LIGHT_SHARE of the way to the paper's.
        felt_light = np.median(lab[::step, ::step][sample][:, 0])
        white = cv2.resize(small, tiny, interpolation=cv2.INTER_NEAREST)[::step, ::step] > 0
        if white.any():
            paper_light = np.quantile(lab[::step, ::step][white][:, 0],
                                      felt_module.PAPER_QUANTILE)
            if felt_light <= felt_module.DARK_FELT * paper_light:
                near &= lab[..., 0] <= np.floor(
                    felt_light + felt_module.LIGHT_SHARE * (paper_light - felt_light))
        near = cv2.resize(near.astype(np.uint8), ground.shape[::-1],
                          interpolation=cv2.INTER_NEAREST) > 0
        ground = reaching_border(np.where(near & (ground > 0), 255, 0).astype(np.uint8))
    assert np.array_equal(Felt(paper, frame)._felt, ground.view(np.bool_))


def test_a_picture_printed_to_its_cards_edge_is_not_felt() -> None:
    frame = np.full((120, 160, 3), (40, 110, 30), np.uint8)  # green felt
    frame[20:100, 40:120] = 250  # a card
    frame[30:100, 60:110] = (160, 40, 30)  # its blue picture, reaching the card's edge
    paper = np.where(frame.min(axis=2) > 200, 255, 0).astype(np.uint8)
    felt = Felt(paper, frame)
    picture, ground = (80, 60), (10, 10)
    assert felt.under(np.array([ground[0], picture[0]], np.float64),
                      np.array([ground[1], picture[1]], np.float64), False).tolist() == [
        True, False]
    # Not paper, it would be felt by that alone: it reaches the felt.
    assert Felt(paper)._felt[picture[1] // felt_module.SHRINK, picture[0] // felt_module.SHRINK]


def test_a_card_tinted_in_its_light_is_not_felt_though_of_the_felts_colour() -> None:
    # A felt of low chroma and, touching it, a card photographed in warm light: its darkest
    # channel 0.74 of its brightest, short of GREY, and Lab's a and b within FELT_CHROMA of
    # the felt's. It is as light as the white card beside it, not as the dark felt.
    frame = np.full((300, 500, 3), (60, 86, 76), np.uint8)
    frame[20:100, 30:90] = 245  # a white card
    frame[20:100, 110:170] = (147, 166, 198)  # the tinted card
    paper = np.where(frame.min(axis=2) > 120, 255, 0).astype(np.uint8)
    lab = cv2.cvtColor(frame, cv2.COLOR_BGR2Lab).astype(np.float64)
    felt_ab, tinted_ab = lab[5, 5, 1:], lab[60, 140, 1:]
    assert (np.abs(felt_ab - tinted_ab) <= felt_module.FELT_CHROMA).all()
    assert frame[60, 140].min() < GREY * frame[60, 140].max()
    felt = Felt(paper, frame)
    xs, ys = np.array([5.0, 60.0, 140.0]), np.array([5.0, 60.0, 60.0])
    assert felt.under(xs, ys, False).tolist() == [True, False, False]
    # A wooden table's grain as light and as tinted is felt: the wood is no dark cloth.
    frame[:] = (120, 150, 180)
    frame[(np.arange(len(frame)) % 20) < 8] = (175, 205, 245)  # light stripes of grain
    frame[20:100, 30:90] = 245
    paper = np.where(frame.min(axis=2) > 200, 255, 0).astype(np.uint8)
    wood = Felt(paper, frame)
    assert wood.under(np.array([300.0, 300.0, 60.0]), np.array([202.0, 212.0, 60.0]),
                      False).tolist() == [True, True, False]


def _ratio_quantile(low: np.ndarray, high: np.ndarray, paper: np.ndarray, q: float) -> float:
    """The ``q`` quantile of darkest over brightest channel on ``paper``, in float."""
    ratio = low.astype(np.float64) / np.maximum(high, 1)
    return float(np.quantile(ratio[paper > 0], q, method="inverted_cdf"))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_the_paper_level_follows_the_frames_paper(seed: int) -> None:
    rng = np.random.default_rng(seed)
    high = rng.integers(1, 256, (30, 40)).astype(np.uint8)
    low = (high * rng.uniform(0.5, 1.0, high.shape)).astype(np.uint8)
    paper = np.where(rng.random(high.shape) < 0.5, 255, 0).astype(np.uint8)
    grey = felt_module.paper_grey(low, high, paper)
    assert grey >= GREY
    if paper.any():
        # The histogram's bin (1/255 wide) of the quantile, less the spread, or GREY.
        level = _ratio_quantile(low, high, paper, felt_module.PAPER_QUANTILE)
        assert grey == pytest.approx(max(GREY, level - felt_module.PAPER_SPREAD), abs=1.5 / 255)
    else:
        assert grey == GREY


def test_a_pale_wooden_table_is_felt_and_the_cards_paper_is_not() -> None:
    rng = np.random.default_rng(3)
    # Pale wood, its darkest channel 0.76-0.8 of its brightest: as light as the paper and
    # grey enough for GREY alone, with a grain of darker rows.
    bright = rng.integers(200, 216, (120, 160)).astype(np.float64)
    frame = np.stack([bright * rng.uniform(0.76, 0.8, bright.shape), bright * 0.9, bright],
                     axis=-1).astype(np.uint8)
    frame[::6] = (frame[::6] * 0.8).astype(np.uint8)
    frame[20:100, 40:120] = 245  # a card's white paper
    paper = np.where(frame.min(axis=2) > 140, 255, 0).astype(np.uint8)  # the wood is paper
    felt = Felt(paper, frame)
    card, wood = (80, 60), (10, 10)
    assert felt.under(np.array([wood[0], card[0]], np.float64),
                      np.array([wood[1], card[1]], np.float64), False).tolist() == [True, False]
