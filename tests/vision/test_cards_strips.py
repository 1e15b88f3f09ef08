"""The joker's strip search (``vision.cards.strips``): the edge ratio by slices is what numpy's
fancy indexing and reductions give, bit for bit; the box a face found by its strip must show
blank is where the deck's indices print ink; a joker with a mark there is learned by it, and
one whose mark cannot be told from an index is refused."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.conftest import STYLES, deck, faces, starred_deck, starred_faces
from vision.cards import calibrate, card_face, corner_marks, strips
from vision.cards.calibrate import UnusableFaces
from vision.scene import Camera

QUIET_CAMERA = Camera(tilt=0.0, light=(1.0, 1.0), glare=(0, 0.0), blur=(0.5, 0.5),
                      noise=(1.0, 1.0))


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


def test_a_joker_with_a_star_where_the_indices_lie_is_learned_by_that_mark() -> None:
    """A joker with a star printed in its corner, where the other faces print their index,
    is learned by that mark: found by its strip, named only where the star shows
    (``corner_marks.learn_marks``), its two templates (upright, turned) cut in the corner where
    the indices lie, and the star shows there on the joker and on no other face."""
    made = starred_deck()
    assert made.strip_codes == made.marked == ("Jk",)
    assert len(made.marks) == 2 and made.mark_box == corner_marks.mark_box(made.blank)
    assert 0.0 < made.mark_accept < 1.0
    rng = np.random.default_rng(3)
    given = starred_faces()
    for code in ("Jk", "9h", "Ad", "Kc"):
        views = corner_marks._views(card_face(given[code]), rng, QUIET_CAMERA, 4, jitter=False)
        scores = [strips.mark_score(*v, made.mark_box, made.marks[0]) for v in views]
        assert (min(scores) >= made.mark_accept) == (code == "Jk"), (code, scores)


def test_a_joker_whose_corner_mark_another_face_shows_too_is_refused_naming_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A mark that another face shows in its corner too (here a 2h printing the joker's
    star over its index) cannot tell the joker from that card: ``learn_marks`` names the
    joker unusable, and the calibration refuses it by name."""
    given = starred_faces()
    box = deck("2color").blank
    cards = {"Jk": card_face(given["Jk"]), "2h": card_face(given["2h"]).copy()}
    w = cards["2h"].shape[1]
    rows, cols = slice(0, int(0.35 * w)), slice(0, int(0.22 * w))
    cards["2h"][rows, cols] = cards["Jk"][rows, cols]
    _, _, _, unusable = corner_marks.learn_marks(cards, ["Jk"], box, ["2h"],
                                                 np.random.default_rng(0), samples=8)
    assert unusable == ["Jk"]
    _, _, _, unusable = corner_marks.learn_marks({**cards, "2h": card_face(given["2h"])},
                                                 ["Jk"], box, ["2h"], np.random.default_rng(0),
                                                 samples=8)
    assert unusable == []
    learn = corner_marks.learn_marks
    monkeypatch.setattr(corner_marks, "learn_marks",
                        lambda *a, **k: (*learn(*a, **k)[:3], ["Jk"]))
    with pytest.raises(UnusableFaces, match=r"Jk shows no corner index, yet has ink") as err:
        calibrate(given, name="starred", rounds=6)
    assert err.value.faces == ("Jk",)


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
