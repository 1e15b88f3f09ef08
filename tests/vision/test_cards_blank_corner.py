"""The blank index corner (``vision.cards.blank_corner``): the box a face found by its strip
must show blank is where the deck's indices print ink, and narrows to stay clear of ink on
the joker."""

from __future__ import annotations

import cv2
import pytest

from tests.vision.conftest import STYLES, deck, faces
from vision.cards import blank_corner, card_face


@pytest.mark.parametrize("style", STYLES)
def test_every_indexed_face_has_ink_in_the_blank_box_and_the_joker_none(style: str) -> None:
    """The learned box (``index_box``), where a face found by its strip must be blank: every
    face printing an index shows ink there, so a card whose index went unread is not taken
    for the joker, and the joker, placed a band pixel off either way, shows none."""
    box = deck(style).blank
    assert box != blank_corner.CORNER
    given = faces(style)
    inked = [code for code, face in given.items() if code != "Jk"
             and not blank_corner.blank_face(card_face(face), box)]
    assert len(inked) == 52
    assert blank_corner.blank_face(card_face(given["Jk"]), box)


def test_a_joker_with_ink_right_of_the_index_column_narrows_the_box() -> None:
    """Ink on the joker right of where the indices lie (a picture reaching near the corner)
    narrows the blank box so that it stays clear of it, placed a band pixel off, and the
    joker is kept; a clean joker gets the widest box."""
    made = deck("2color")
    joker = card_face(faces("2color")["Jk"])
    widest, inked = blank_corner.index_box(made.offsets, made.lengths, made.aspect, [joker])
    assert inked == []
    _, x1, y0, y1 = widest
    w = joker.shape[1]
    dotted = joker.copy()
    at = x1  # on the widest box's edge, well right of the narrowest one
    cv2.circle(dotted, (round(at * w), round((y0 + y1) / 2 * w)), round(0.02 * w),
               (0, 0, 0, 255), -1)
    box, inked = blank_corner.index_box(made.offsets, made.lengths, made.aspect, [dotted])
    assert inked == [] and box[1] < x1
    assert blank_corner.blank_face(dotted, box) and not blank_corner.blank_face(dotted, widest)
