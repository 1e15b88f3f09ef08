"""Whole frames: cards placed in layout regions, black frames and empty tables, the hooks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.vision.conftest import deck, faces
from vision.cards import CardReader
from vision.errors import ImageError
from vision.frame import FrameReader, item_readers
from vision.items import Item, box_corners
from vision.layout import Layout
from vision.scene import Camera, Scene
from vision.scene.hands import table_scene

ROOT = Path(__file__).resolve().parents[2]
LEVEL = Camera(tilt=0.0)  # the sim-table layout's marks assume a camera straight above
# table_scene(cells=range(14)): spread i (high, low, high, ...) goes to cell i of the grid.
POSITIONS = [f"seat{s}" for s in range(1, 7)] + ["dealer"]


def test_cards_land_in_their_boxes() -> None:
    layout = Layout.load(ROOT / "config" / "layouts" / "sim-table.toml")
    image, truth = table_scene(faces("2color"), np.random.default_rng(8), camera=LEVEL,
                               cells=range(14))
    want = {}
    # Truth cards in placement order: hand 0 (5 cards), hand 1 (2 cards), hand 2 (5), ...
    sizes = [5, 2] * 7
    k = 0
    for hand, size in enumerate(sizes):
        box = f"{POSITIONS[hand // 2]}.{'high' if hand % 2 == 0 else 'low'}"
        for placed in truth[k:k + size]:
            want[placed.label] = box
        k += size
    result = FrameReader(CardReader(deck("2color")), layout=layout).read(image)
    read = [i for i in result.items if i.code is not None]
    assert len(read) >= 40
    assert all(i.region == want[i.code] for i in read if i.code in want)


def test_black_frame_and_empty_table_are_clear_results() -> None:
    reader = FrameReader(CardReader(deck("2color")))
    assert reader.read(np.zeros((720, 1280, 3), np.uint8)).note == "black frame"
    felt, _ = Scene().render(np.random.default_rng(0), Camera())
    result = reader.read(felt)
    assert result.note == "empty table" and result.items == ()
    assert result.to_json("felt.png")["counts"] == {"card": 0, "tile": 0, "die": 0}


def test_other_readers_are_included() -> None:
    item = Item("die", "5", 0.99, (5.0, 5.0), box_corners(5, 5, 4, 4))
    felt, _ = Scene(size=(64, 48)).render(np.random.default_rng(0), Camera())
    result = FrameReader(others=[lambda image: [item]]).read(felt)
    assert result.items == (item,) and result.note is None


def test_hooks_find_installed_readers() -> None:
    readers = item_readers()
    assert all(callable(r) for r in readers)


def test_not_an_image() -> None:
    with pytest.raises(ImageError, match="8-bit BGR"):
        FrameReader().read(np.zeros((4, 4), np.uint8))
