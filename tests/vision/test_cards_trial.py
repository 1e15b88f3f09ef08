"""Parting tried on tables of a deck's own faces (``trial.parts_more``): only a deck that
splits its marks and does not part them yet is tried, and it parts them unless that reads
fewer of its cards right or more wrongly (a deck that reads worse parted, Dondorf's:
``test_cards_holdout.py``)."""

from __future__ import annotations

import dataclasses

import pytest

from tests.vision.conftest import deck, faces
from vision.cards.trial import parts_more


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
