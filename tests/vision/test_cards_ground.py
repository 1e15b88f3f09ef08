"""Where a read lies (``vision.cards.ground``): an index is printed in ink (``inked``)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cards.ground import FAINT_DEPTH, INK_DEPTH, inked
from vision.cards.reads import SURE, Read

PAPER = 200


def _read(odds: float) -> Read:
    """A read of As, its index's suit centroid at (100, 100), 100 pixels a card width."""
    centre = np.array([100.0, 100.0])
    right, down = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    return Read(code="As", score=1.0, center=centre + np.array([40.0, 60.0]), right=right,
                down=down, width=100.0, note=None, odds=odds, indices=((centre, right, down),))


def _frame(depth: float) -> np.ndarray:
    """Paper with a glyph across the index whose ink is ``depth`` of the paper."""
    frame = np.full((200, 200, 3), PAPER, np.uint8)
    frame[85:100, 95:105] = round(depth * PAPER)
    return frame


@pytest.mark.parametrize("odds", [SURE - 1, SURE + 1])
def test_an_index_in_dark_ink_is_inked_however_surely_read(odds: float) -> None:
    assert inked(_frame(INK_DEPTH - 0.05), [_read(odds)]).tolist() == [True]


def test_a_faint_index_is_inked_only_where_it_is_read_surely() -> None:
    """A real deck in warm light through a real camera prints fainter than ``INK_DEPTH``:
    such an index is named still where it is read surely, never where it is not, and an
    index fainter than ``FAINT_DEPTH`` (a wooden table's grain) never."""
    between = (INK_DEPTH + FAINT_DEPTH) / 2
    assert inked(_frame(between), [_read(SURE + 1), _read(SURE - 1)]).tolist() == [True, False]
    assert inked(_frame(FAINT_DEPTH + 0.05), [_read(SURE + 50)]).tolist() == [False]
