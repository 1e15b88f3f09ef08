"""The joker's strip search (``vision.cards.strips``): the edge ratio by slices is what numpy's
fancy indexing and reductions give, bit for bit; the box a face found by its strip must show
blank is where the deck's indices print ink, and a joker with ink there is refused."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.conftest import STYLES, deck, faces
from vision.cards import calibrate, card_face, strips
from vision.cards.calibrate import UnusableFaces


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




@pytest.mark.parametrize("style", STYLES)
def test_every_indexed_face_has_ink_in_the_blank_box_and_the_joker_none(style: str) -> None:
    """The learned box (``index_box``), where a face found by its strip must be blank: every
    face printing an index shows ink there, so a card whose index went unread is not taken
    for the joker, and the joker, placed a band pixel off either way, shows none."""
    box = deck(style).blank
    assert box != strips.CORNER
    given = faces(style)
    inked = [code for code, face in given.items() if code != "Jk"
             and not strips.blank_face(card_face(face), box)]
    assert len(inked) == 52
    assert strips.blank_face(card_face(given["Jk"]), box)


def test_a_joker_with_ink_where_the_indices_lie_is_refused_naming_it() -> None:
    """A joker with a star printed in its corner, where the other faces print their index,
    has no index to be read by and cannot be told from a card whose index went unread: the
    calibration refuses it by name, and learns the deck without its image."""
    given = dict(faces("2color"))
    x0, x1, y0, y1 = deck("2color").blank
    starred = given["Jk"].copy()
    w = starred.shape[1]
    centre = (round((x0 + x1) / 2 * w), round((y0 + y1) / 2 * w))
    cv2.circle(starred, centre, round(0.03 * w), (0, 0, 200, 255), -1)
    given["Jk"] = starred
    with pytest.raises(UnusableFaces, match=r"Jk shows no corner index, yet has ink") as err:
        calibrate(given, name="starred", rounds=6)
    assert err.value.faces == ("Jk",)
    del given["Jk"]
    assert calibrate(given, name="starred", rounds=6).strip_codes == ()


def test_a_joker_with_ink_right_of_the_index_column_narrows_the_box() -> None:
    """Ink on the joker right of where the indices lie (a picture reaching near the corner)
    narrows the blank box so that it stays clear of it, placed a band pixel off, and the
    joker is kept; a clean joker gets the widest box."""
    made = deck("2color")
    joker = card_face(faces("2color")["Jk"])
    widest, inked = strips.index_box(made.offsets, made.lengths, made.aspect, [joker])
    assert inked == []
    _, x1, y0, y1 = widest
    w = joker.shape[1]
    dotted = joker.copy()
    at = x1  # on the widest box's edge, well right of the narrowest one
    cv2.circle(dotted, (round(at * w), round((y0 + y1) / 2 * w)), round(0.02 * w),
               (0, 0, 0, 255), -1)
    box, inked = strips.index_box(made.offsets, made.lengths, made.aspect, [dotted])
    assert inked == [] and box[1] < x1
    assert strips.blank_face(dotted, box) and not strips.blank_face(dotted, widest)
