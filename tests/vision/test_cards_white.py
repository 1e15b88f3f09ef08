"""A frame taken in tinted light (a camera that does not balance its colours under warm lamps)
is read as the same frame in white light: its paper is made white first (``white``)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.conftest import deck, faces
from vision.cards import CardReader
from vision.cards.felt import GREY
from vision.cards.white import LEAST_GREY, NEAR_GREY, balanced, white
from vision.scene.hands import table_scene

# Gains (B, G, R) of a warm lamp's light on white paper: its darkest channel about 0.7 of its
# brightest, below the reader's test of paper (``felt.GREY``), as household lamps without
# white balance measure; and of a cold one.
WARM = np.array([0.72, 0.86, 1.0], np.float32)
COLD = np.array([1.0, 0.9, 0.7], np.float32)


def tinted(image: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """``image`` as seen in light of ``gains`` per channel."""
    out: np.ndarray = np.clip(image.astype(np.float32) * gains, 0, 255).astype(np.uint8)
    return out


def test_a_frame_whose_white_is_grey_is_read_as_it_is() -> None:
    """Paper on a green felt, in white light: the very frame comes back (nothing rescaled)."""
    frame = np.zeros((80, 120, 3), np.uint8)
    frame[:] = (40, 120, 30)
    frame[20:60, 30:90] = (235, 238, 240)
    assert balanced(frame) is frame


def test_a_tinted_frame_is_balanced_so_its_paper_is_grey() -> None:
    """Paper on a green felt in warm light: balanced, the paper's channels are alike again
    and the brightest channel keeps its level."""
    frame = np.zeros((80, 120, 3), np.uint8)
    frame[:] = (40, 120, 30)
    frame[20:60, 30:90] = (240, 240, 240)
    warm = tinted(frame, WARM)
    w = white(warm)
    assert LEAST_GREY <= w.min() / w.max() < NEAR_GREY
    paper = balanced(warm)[40, 60].astype(np.float64)
    assert paper.min() / paper.max() > 0.97
    assert abs(paper.max() - float(warm[40, 60].max())) <= 1.0


def test_a_frame_whose_brightest_is_no_paper_is_read_as_it_is() -> None:
    """A frame of a saturated felt alone (no card): its brightest is no tinted paper, so it is
    not rescaled into grey (which would make the felt paper)."""
    frame = np.zeros((80, 120, 3), np.uint8)
    frame[:] = (60, 170, 40)
    assert balanced(frame) is frame


def test_a_pale_wooden_table_brighter_than_the_cards_is_not_made_grey() -> None:
    """A pale wooden table, larger than the cards and as bright, is the frame's brightest; its
    colour is no paper's in any light, so the frame is read as it is (balanced, the table
    would turn grey and the cards' paper blue)."""
    frame = np.zeros((80, 120, 3), np.uint8)
    frame[:] = (110, 172, 211)  # pale wood (BGR)
    frame[30:50, 50:70] = (200, 200, 200)  # a card's paper, a little darker
    assert balanced(frame) is frame


@pytest.mark.parametrize("gains", [WARM, COLD], ids=["warm", "cold"])
def test_cards_in_tinted_light_are_read_as_in_white_light(gains: np.ndarray) -> None:
    """Seven spread hands of a rendered deck in warm or cold light: as many cards read right
    as in white light, and none named wrongly (unbalanced, the paper was taken for felt and
    hardly a card was found)."""
    reader = CardReader(deck("2color"))
    rng = np.random.default_rng(7)
    image, truth = table_scene(faces("2color"), rng, hands=7)
    labels = sorted(t.label for t in truth if t.kind == "card")
    plain = sorted(i.code for i in reader.read(image) if i.code is not None)
    read = sorted(i.code for i in reader.read(tinted(image, gains)) if i.code is not None)
    assert set(read) <= set(labels)
    assert len(read) >= len(plain) - 1
    assert len(read) >= 0.95 * len(labels)


def test_cards_in_unevenly_tinted_light_are_balanced_by_the_least_tinted() -> None:
    """Warm light falling unevenly: the cards on the left third brighter and a little less
    tinted (their paper's darkest channel 0.78 of its brightest, which passes the tests of
    paper alone), the rest more (0.7, which fails them). The frame's white is the left
    cards' paper, whiter than the rest: balanced by it all the same, every card's paper is
    near grey, and the cards read as in white light (read as it is, those on the right
    were lost)."""
    reader = CardReader(deck("2color"))
    image, truth = table_scene(faces("2color"), np.random.default_rng(7), hands=7)
    labels = sorted(t.label for t in truth if t.kind == "card")
    uneven = tinted(image, np.array([0.67, 0.82, 0.96], np.float32))
    third = image.shape[1] // 3
    uneven[:, :third] = tinted(image[:, :third], np.array([0.78, 0.9, 1.0], np.float32))
    w = white(uneven)
    assert GREY <= w.min() / w.max() < NEAR_GREY  # passes the tests alone; balanced
    read = sorted(i.code for i in reader.read(uneven) if i.code is not None)
    assert set(read) <= set(labels)
    assert len(read) >= 0.95 * len(labels)
