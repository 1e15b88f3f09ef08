"""Parting tried on tables of a deck's own faces (``trial.parts_more``): only a deck that
splits its marks and does not part them yet is tried, and it parts them only where that
reads more of its cards (the hold-out decks that gain: ``test_cards_holdout.py``)."""

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


def test_a_deck_whose_indices_stand_clear_of_its_pips_keeps_its_way() -> None:
    """The test deck prints its index apart from its pips: parting them finds nothing more
    on its tables, so it is not chosen."""
    made = dataclasses.replace(deck("2color"), split=True, pips=False)
    assert parts_more(made, faces("2color")).pips is False
