"""A read that is surely one of two cards is named the one not read elsewhere (one deck holds
each card once): ``verdict.runner_up`` finds the pair, ``reads.eliminate`` names it, and a
crop of a bench frame shows it on real artwork."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tests.vision.conftest import deck, golden
from vision.cards import CardReader
from vision.cards import reader as reader_module
from vision.cards.reads import CLASH, Read, eliminate
from vision.cards.verdict import runner_up

WIDTH = 100.0


def _read(code: str | None, x: float, y: float = 100.0, *, pair: tuple[str, str] | None = None,
          in_step: bool = False, note: str | None = None) -> Read:
    """A read of a card whose index (its suit's centroid) lies at (x, y), upright; unnamed
    reads are "unsure" unless ``note`` says otherwise."""
    right, down = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    anchor = np.array([x, y])
    centre = anchor + WIDTH * (0.4 * right + 0.55 * down)
    return Read(code, 1.0, centre, right, down, WIDTH,
                note if note is not None or code is not None else "unsure", 40.0, 0.05,
                in_step=in_step, pair=pair, indices=((anchor, right, down),))


def _unsure(x: float = 100.0, y: float = 100.0) -> Read:
    """A covered 6d cut by the card on top: surely a 6d or an 8d."""
    return _read(None, x, y, pair=("6d", "8d"))


NEXT = _read("As", 130.0)  # the card on top of it, named plainly, its index a step across
ELSEWHERE = _read("8d", 600.0, 400.0)  # the other card of the pair, on another hand


def test_the_card_left_is_named_weakly() -> None:
    out = eliminate([_unsure(), NEXT, ELSEWHERE])
    assert [r.code for r in out] == ["6d", "As", "8d"]
    assert out[0].weak and out[0].note is None and out[0].pair is None
    assert out[1] is NEXT and out[2] is ELSEWHERE


@pytest.mark.parametrize(("others", "why"), [
    ([NEXT], "the other card is read nowhere: either may be here"),
    ([NEXT, ELSEWHERE, _read("6d", 900.0, 400.0)], "both cards are read elsewhere"),
    ([NEXT, dataclasses.replace(ELSEWHERE, in_step=True)], "the other is named only weakly"),
    ([_read("As", 160.0), ELSEWHERE], "no card is named a spread's step from it"),
    ([_read("As", 130.0, 112.0), ELSEWHERE], "the card beside it lies lower: a pip"),
    ([NEXT, ELSEWHERE, _read("Kc", 105.0)], "a named card lies at its place"),
])
def test_the_read_stays_unknown(others: list[Read], why: str) -> None:
    out = eliminate([_unsure(), *others])
    assert out[0].code is None and out[0].note == "unsure", why


def test_a_read_withdrawn_for_another_reason_stays_so() -> None:
    conflict = dataclasses.replace(_unsure(), note="conflict")
    assert eliminate([conflict, NEXT, ELSEWHERE])[0] is conflict


def test_each_name_is_given_once() -> None:
    """Two reads that are each surely a 6d or an 8d cannot both be the 6d."""
    second_next = _read("Qc", 130.0, 300.0)
    out = eliminate([_unsure(), NEXT, _unsure(100.0, 300.0), second_next, ELSEWHERE])
    assert [r.code for r in out] == ["6d", "As", None, "Qc", "8d"]


def test_two_reads_at_one_place_are_not_both_named() -> None:
    """Two unsure reads within ``CLASH`` of each other lie at one card: once the first is
    named, the second, of another pair, is left unknown."""
    second = dataclasses.replace(_read(None, 100.0, pair=("5c", "3c")),
                                 center=_unsure().center + np.array([0.0, 0.15 * WIDTH]))
    out = eliminate([_unsure(), second, NEXT, ELSEWHERE, _read("3c", 900.0, 400.0)])
    assert [r.code for r in out[:2]] == ["6d", None]
    alone = eliminate([second, NEXT, ELSEWHERE, _read("3c", 900.0, 400.0)])
    assert alone[0].code == "5c"  # by itself it would be named


def test_a_read_near_a_named_card_is_left_alone() -> None:
    """A read within ``CLASH`` of a named card lies at that card's place, as the second
    look's finds must not (``reads.placed``): it is that card's index read again, or a card
    that conflicts with it."""
    near = _read("As", 130.0)
    unsure = dataclasses.replace(_unsure(), center=near.center - np.array([0.9 * CLASH * WIDTH,
                                                                           0.0]))
    assert eliminate([unsure, near, ELSEWHERE])[0].code is None


def test_the_runner_up_counts_only_when_both_lead_the_rest() -> None:
    d = np.array([
        [0.0, 2.0, 30.0, 40.0],  # the second leads the third by 14 (log-likelihood ratio)
        [0.0, 2.0, 10.0, 40.0],  # by 4 only: a third class is in play
        [5.0, 0.0, 60.0, 1.0],  # unordered: first class 1, second class 3, third class 0 by 2
    ])
    assert runner_up(d, 9.0).tolist() == [1, -1, -1]
    assert runner_up(d, 2.0).tolist() == [1, 1, 3]
    assert runner_up(np.array([[0.0, 1.0]]), 1.0).tolist() == [-1]


def test_a_covered_seven_cut_by_the_card_on_top_is_named(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A crop of bench frame 5 of 2color-bf (seed 2026, stored in tests/golden/vision): the
    covered 7h's heart is cut in half by the card on top, and the 7d lies on top of it. It
    is named 7h, and nothing in the crop is misread. It was named only by elimination
    (heart or diamond) until patches kept only their own marks' ink; now it is read plainly,
    and elimination changes nothing here."""
    image = golden("2color-bf-frame5-one-of-two.png")
    cards = {"7d", "7h", "9s", "Ac", "Qh"}  # the cards whose indices show in the crop
    reader = CardReader(deck("2color-bf"))
    assert {i.code for i in reader.read(image) if i.code} == cards
    monkeypatch.setattr(reader_module, "eliminate", lambda reads: reads)
    assert {i.code for i in reader.read(image) if i.code} == cards
