"""Reading tried on tables of a deck's own faces (``trial``). Parting (``parts_more``): only
a deck that splits its marks and does not part them yet is tried, and it parts them unless
that reads fewer of its cards right or more wrongly (a deck that reads worse parted,
Dondorf's: ``test_cards_holdout.py``). Sharpening more (``sharpens_more``): only a deck not
read so sharpened yet is tried; more cards right outweigh more wrong reads only at
``WRONG_WORTH`` to one (``outweighs``)."""

from __future__ import annotations

import dataclasses

import pytest

from tests.vision.conftest import deck, faces
from vision.cards.trial import (
    MORE_SHARPEN,
    SHARPEN_GAIN,
    WRONG_WORTH,
    outweighs,
    parts_more,
    sharpens_more,
)


@pytest.mark.parametrize(("split", "pips"), [(False, False), (True, True)])
def test_a_deck_that_cannot_or_already_parts_is_not_tried(split: bool, pips: bool) -> None:
    made = dataclasses.replace(deck("2color"), split=split, pips=pips)
    assert parts_more(made, faces("2color")) is made


def test_too_few_faces_for_a_table_are_not_tried() -> None:
    made = dataclasses.replace(deck("2color"), split=True, pips=False)
    assert parts_more(made, dict(list(faces("2color").items())[:6])) is made


def test_a_deck_whose_tables_read_alike_either_way_is_parted() -> None:
    """The test deck prints its index apart from its pips: parting them changes no read of
    its tables, so it is taken (real print and light join glyphs the renders keep apart)."""
    made = dataclasses.replace(deck("2color"), split=True, pips=False)
    tried = parts_more(made, faces("2color"))
    assert tried.pips is True and tried.split and tried.codes == made.codes


def test_a_deck_read_as_sharpened_already_is_not_tried() -> None:
    made = dataclasses.replace(deck("2color"), read_sharpen=MORE_SHARPEN)
    assert sharpens_more(made, faces("2color")) is made
    learned = dataclasses.replace(deck("2color"), sharpen=MORE_SHARPEN, read_sharpen=0.0)
    assert sharpens_more(learned, faces("2color")) is learned


def test_too_few_faces_for_a_table_are_not_sharpened() -> None:
    made = dataclasses.replace(deck("2color"), read_sharpen=0.0)
    assert sharpens_more(made, dict(list(faces("2color").items())[:6])) is made


def test_a_bold_deck_whose_camera_lit_tables_read_no_more_sharpened_is_not_sharpened() -> None:
    """The bold style's strokes stay whole in the camera's blur: its camera-lit tables read
    no more cards right sharpened by ``MORE_SHARPEN`` (``SHARPEN_GAIN``), so it is read as
    sharpened as any deck (a deck that is: ``test_cards_holdout.py``)."""
    made = dataclasses.replace(deck("2color-bf"), read_sharpen=0.0)
    assert sharpens_more(made, faces("2color-bf")) is made


@pytest.mark.parametrize(("gained", "added", "cards", "taken"), [
    (4, 0, 784, True),  # SHARPEN_GAIN of 784 is 3.92 cards
    (3, 0, 784, False),
    (-2, -1, 784, False),  # fewer right, however fewer wrong
    (18, 3, 784, False),  # Bellot's first tables: 18 cards more right, 3 more wrongly
    (253, 1, 7845, True),  # ... and with the tables after them
    (3, 1, 336, False),  # the single-card photographs' deck: fewer than fifty to one
    (100, 2, 784, True),
    (99, 2, 784, False),
])
def test_right_reads_outweigh_wrong_ones_fifty_to_one(gained: int, added: int, cards: int,
                                                       taken: bool) -> None:
    assert WRONG_WORTH == 50 and SHARPEN_GAIN == 0.005
    assert outweighs(gained, added, cards) is taken
