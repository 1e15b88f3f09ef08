"""Reading tried on tables of a deck's own faces (``trial``). Parting (``parts_more``): only
a deck that splits its marks and does not part them yet is tried, and it parts them unless
that reads fewer of its cards right or more wrongly (a deck that reads worse parted,
Dondorf's: ``test_cards_holdout.py``). In the camera's light (``in_light``): a deck whose
tables read no card wrongly keeps any deck's limit on the fine cut's rank fit; sharpening
more is tried only on a deck not read so sharpened yet; a way of reading is worth its right
reads less ``WRONG_WORTH`` for each wrong one (``worth``, ``holds_closer``, ``sharpens``)."""

from __future__ import annotations

import dataclasses

import pytest

from tests.vision.conftest import deck, faces
from vision.cards import trial
from vision.cards.evaluate import Tally
from vision.cards.trial import (
    MORE_SHARPEN,
    SHARPEN_CLEAR,
    SHARPEN_GAIN,
    SHARPEN_MORE_FRAMES,
    WRONG_WORTH,
    holds_closer,
    in_light,
    parts_more,
    settles,
    sharpens,
    worth,
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
    assert in_light(made, faces("2color")) is made
    learned = dataclasses.replace(deck("2color"), sharpen=MORE_SHARPEN, read_sharpen=0.0)
    assert in_light(learned, faces("2color")) is learned


def test_too_few_faces_for_a_table_are_not_sharpened() -> None:
    made = dataclasses.replace(deck("2color"), read_sharpen=0.0)
    assert in_light(made, dict(list(faces("2color").items())[:6])) is made


def test_a_bold_deck_whose_camera_lit_tables_read_no_more_sharpened_is_not_sharpened() -> None:
    """The bold style's strokes stay whole in the camera's blur: its camera-lit tables read
    no more cards right sharpened by ``MORE_SHARPEN`` (``SHARPEN_GAIN``), so it is read as
    sharpened as any deck (a deck that is: ``test_cards_holdout.py``); they read no card
    wrongly, so its ranks are held at the fine cut as any deck's (``Deck.fine_rank_fit``
    None)."""
    made = dataclasses.replace(deck("2color-bf"), read_sharpen=0.0)
    assert in_light(made, faces("2color-bf")) is made


def tally(right: int, wrong: int, cards: int) -> Tally:
    return Tally(right=right, wrong=wrong, unknown=cards - right - wrong)


def test_a_way_of_reading_is_worth_its_right_reads_less_fifty_for_each_wrong_one() -> None:
    assert WRONG_WORTH == 50
    assert worth(tally(700, 0, 784)) == 700
    assert worth(tally(700, 3, 784)) == 550
    assert worth(tally(10, 1, 784)) == -40


@pytest.mark.parametrize(("loose", "close", "held"), [
    # Bellot's first 16 tables, read as any deck and sharpened: fewer wrong at a card's cost.
    ([(558, 4), (585, 5)], [(557, 1), (583, 3)], True),
    ([(700, 0), (720, 0)], [(700, 0), (720, 0)], False),  # alike: any deck's limit
    ([(700, 1), (720, 0)], [(660, 0), (720, 0)], True),  # one wrong read for 40 right ones
    ([(700, 1), (720, 0)], [(650, 0), (720, 0)], False),  # ... and for 50: not more
    ([(700, 0), (720, 0)], [(701, 0), (720, 1)], False),  # more wrongly: never
])
def test_ranks_are_held_closer_where_that_is_worth_more(
        loose: list[tuple[int, int]], close: list[tuple[int, int]], held: bool) -> None:
    assert holds_closer([tally(r, w, 784) for r, w in loose],
                        [tally(r, w, 784) for r, w in close]) is held


@pytest.mark.parametrize(("before", "after", "cards", "taken"), [
    ((700, 0), (704, 0), 784, True),  # SHARPEN_GAIN of 784 is 3.92 cards
    ((700, 0), (703, 0), 784, False),
    ((700, 2), (698, 1), 784, False),  # fewer right, however fewer wrong
    ((557, 1), (583, 3), 784, False),  # Bellot's first 16 tables, its ranks held closer
    ((1681, 4), (1745, 6), 2352, False),  # ... and the 32 after them
    ((3, 0), (6, 1), 336, False),  # the single-card photographs' deck: not fifty to one
    ((600, 0), (700, 2), 784, True),
    ((600, 0), (699, 2), 784, False),
])
def test_sharpening_is_taken_where_it_gains_and_is_worth_as_much(
        before: tuple[int, int], after: tuple[int, int], cards: int, taken: bool) -> None:
    assert SHARPEN_GAIN == 0.005
    assert sharpens(tally(*before, cards), tally(*after, cards)) is taken


@pytest.mark.parametrize(("before", "after", "settled"), [
    ((700, 0), (708, 0), True),  # SHARPEN_CLEAR of 784 is 7.84 cards
    ((700, 0), (707, 0), False),  # gains SHARPEN_GAIN, but as a set of 16 may by chance
    ((700, 0), (690, 0), False),  # fewer right: more tables may show otherwise too
    ((700, 0), (750, 1), True),  # 50 right for a wrong one
    ((700, 0), (749, 1), False),
    ((557, 1), (583, 3), False),  # Bellot's first 16 tables, its ranks held closer
])
def test_the_first_tables_settle_sharpening_only_where_it_gains_clearly(
        before: tuple[int, int], after: tuple[int, int], settled: bool) -> None:
    """Bonded's gain from sharpening ran from none to 12 of 784 cards from one set of 16
    tables to the next: a set settles it only where it gains twice ``SHARPEN_GAIN`` and is
    worth as much; else ``in_light`` reads more tables."""
    assert SHARPEN_CLEAR == 2 * SHARPEN_GAIN
    assert settles(tally(*before, 784), tally(*after, 784)) is settled


@pytest.mark.parametrize(("first_gain", "more_gain", "read_more", "sharpened"), [
    (10, 0, False, True),  # the first set settles it: no more tables
    (5, 20, True, True),  # a doubtful first set, and the 48 tables gain 25 of 2,352
    (5, 0, True, False),  # ... gain 5 of 2,352: under SHARPEN_GAIN
    (-3, 30, True, True),  # a first set that loses is weighed too
])
def test_a_first_set_that_does_not_settle_sharpening_is_weighed_on_more_tables(
        monkeypatch: pytest.MonkeyPatch, first_gain: int, more_gain: int, read_more: bool,
        sharpened: bool) -> None:
    """``in_light`` reads its first ``SHARPEN_FRAMES`` tables four ways (held as any deck or
    closer, unsharpened or sharpened), then, where they do not settle sharpening
    (``settles``), ``SHARPEN_MORE_FRAMES`` tables more the two ways its first tables chose,
    counted into the same tallies. The tables' reads are given here: what is tested is what
    the trial does with them."""
    calls: list[tuple[int, int]] = []

    def tables(decks: object, faces: object, seed: int, frames: int, render: object,
               tallies: list[Tally] | None = None) -> list[Tally]:
        calls.append((seed, frames))
        if tallies is None:
            return [tally(700, 0, 784), tally(700, 0, 784),
                    tally(700 + first_gain, 0, 784), tally(700 + first_gain, 0, 784)]
        before, after = tallies
        before.right, before.unknown = before.right + 1400, before.unknown + 168
        after.right, after.unknown = after.right + 1400 + more_gain, after.unknown + 168 - more_gain
        return [before, after]

    made = dataclasses.replace(deck("2color"), read_sharpen=0.0)  # calibrated before
    monkeypatch.setattr(trial, "_tables", tables)
    chosen = in_light(made, faces("2color"))
    assert len(calls) == (2 if read_more else 1)
    if read_more:
        assert calls[1] == (calls[0][0] + calls[0][1], SHARPEN_MORE_FRAMES)
    assert chosen.read_sharpen == (MORE_SHARPEN if sharpened else 0.0)
    assert chosen.fine_rank_fit is None  # no wrong read: held as any deck
