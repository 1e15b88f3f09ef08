"""The joker's strip search (``vision.cards.strips``): the edge ratio by slices is what numpy's
fancy indexing and reductions give, bit for bit."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.cards import strips
from vision.cards.felt import Felt
from vision.cards.ink import dark_and_paper


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_the_edge_ratio_is_numpys(seed: int) -> None:
    """``_edge_ratio``: the least over the columns of the median over the rows of the
    darkest three pixels left over the mean of the three right, as numpy gives it in
    float32 (rows odd and even in number)."""
    rng = np.random.default_rng(seed)
    h, w = int(rng.integers(1, 50)), int(rng.integers(8, 40))
    grey = (rng.random((h, w)) * 255).astype(np.float32)
    first = int(rng.integers(3, w - 4))
    last = int(rng.integers(first, w - 3))
    at = np.arange(first, last + 1)
    outside = grey[:, at[:, None] + np.arange(-3, 0)].min(axis=2)
    inside = grey[:, at[:, None] + np.arange(1, 4)].mean(axis=2)
    want = float(np.median(outside / np.maximum(inside, 1.0), axis=0).min())
    assert float(strips._edge_ratio(grey, first, last)) == want


def test_a_coloured_picture_beside_a_card_is_room_for_a_card_and_the_felt_is_not() -> None:
    """Beside a card, a picture printed to the edge of the card beneath (a yellow star) is
    no paper by its darkest channel, yet no felt either: with the frame's felt, it is room
    for a card (``strips._room``); the felt itself is not, nor is anything without it."""
    frame = np.zeros((400, 600, 3), np.uint8)
    frame[:] = (40, 110, 30)  # green felt
    frame[100:240, 200:300] = 235  # the card read, its top-left corner at (200, 100)
    frame[100:240, 300:330] = 235  # and paper beyond its right edge
    frame[100:240, 170:200] = (20, 220, 230)  # a yellow picture beyond its left edge
    felt = Felt(dark_and_paper(frame)[1], frame)
    corner = np.array([[200.0, 100.0]])
    right, down = np.array([[100.0, 0.0]]), np.array([[0.0, 140.0]])
    white = np.array([235.0], np.float32)

    def room(u: float, with_felt: bool) -> bool:
        return bool(strips._room(frame, corner, right, down, u, white,
                                 felt if with_felt else None)[0])

    assert room(-0.08, with_felt=True) and not room(-0.08, with_felt=False)
    assert room(1.08, with_felt=True) and room(1.08, with_felt=False)  # paper
    frame[100:240, 300:330] = (40, 110, 30)  # the felt beyond its right edge
    felt = Felt(dark_and_paper(frame)[1], frame)
    assert not room(1.08, with_felt=True)


def test_a_card_with_a_picture_at_its_rim_lies_on_cards_and_one_on_the_felt_does_not() -> None:
    """A card whose picture reaches its rim (a yellow star) lies on cards where the felt
    does not show there (``strips._on_cards`` given the frame's felt), though its darkest
    channel is no paper's; a card reaching over the felt does not, felt or not."""
    frame = np.zeros((400, 600, 3), np.uint8)
    frame[:] = (40, 110, 30)  # green felt
    frame[100:240, 200:300] = 235  # the card, its top-left corner at (200, 100)
    frame[150:220, 203:225] = (20, 220, 230)  # a yellow picture at its left rim
    felt = Felt(dark_and_paper(frame)[1], frame)
    corner, right, down = np.array([200.0, 100.0]), np.array([100.0, 0.0]), np.array([0.0, 140.0])
    assert strips._on_cards(frame, corner, right, down, 235.0, felt)
    assert not strips._on_cards(frame, corner, right, down, 235.0)
    wider = np.array([130.0, 0.0])  # reaching 30 pixels over the felt on its right
    assert not strips._on_cards(frame, corner, wider, down, 235.0, felt)
    assert not strips._on_cards(frame, corner, wider, down, 235.0)
