"""Table layouts: the homography from four marks, regions, and errors naming the key."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.errors import LayoutError
from vision.items import Item, box_corners
from vision.layout import Layout

ROOT = Path(__file__).resolve().parents[2]
SIM = ROOT / "config" / "layouts" / "sim-table.toml"

MINIMAL = """
name = "t"
[felt]
width = 100
height = 50
[marks]
felt = [[0, 0], [100, 0], [100, 50], [0, 50]]
image = [[10, 20], [210, 30], [200, 140], [15, 120]]
[seats.1]
bet = [1, 1, 5, 5]
low = [0, 0, 50, 25]
high = [50, 0, 50, 25]
[dealer]
low = [0, 25, 50, 25]
high = [50, 25, 30, 25]
[dice]
area = [80, 25, 20, 25]
"""


def test_homography_maps_the_marks_and_back() -> None:
    layout = Layout.parse(MINIMAL)
    got = layout.to_image(layout.marks_felt)
    assert np.allclose(got, layout.marks_image, atol=1e-6)
    pts = [(12.5, 7.5), (90.0, 40.0)]
    assert np.allclose(layout.to_felt(layout.to_image(pts)), pts, atol=1e-6)


def test_regions_smallest_first_and_outside() -> None:
    layout = Layout.parse(MINIMAL)
    at = layout.to_image([(3, 3), (20, 10), (70, 10), (90, 40), (60, 40)])
    names = [layout.region_at((float(x), float(y))) for x, y in at]
    assert names == ["seat1.bet", "seat1.low", "seat1.high", "dice", "dealer.high"]
    assert layout.region_at((0.0, 0.0)) is None


def test_assign_sets_regions_of_items() -> None:
    layout = Layout.parse(MINIMAL)
    x, y = layout.to_image([(70, 10)])[0]
    item = Item("card", "As", 1.0, (float(x), float(y)), box_corners(x, y, 5, 7))
    assert layout.assign([item])[0].region == "seat1.high"


def test_outline_of_a_region_in_the_image() -> None:
    layout = Layout.parse(MINIMAL)
    outline = layout.outline("dice")
    assert np.allclose(outline, layout.to_image([(80, 25), (100, 25), (100, 50), (80, 50)]))
    assert layout.region_at(tuple(outline.mean(axis=0))) == "dice"
    with pytest.raises(LayoutError, match=r"'seat7\.low'"):
        layout.outline("seat7.low")


def test_camera_moved_marks() -> None:
    layout = Layout.parse(MINIMAL).seen_at([(0, 0), (100, 0), (100, 50), (0, 50)])
    assert layout.region_at((70.0, 10.0)) == "seat1.high"


def test_shipped_sim_table_layout() -> None:
    layout = Layout.load(SIM)
    assert layout.name == "sim-table"
    assert {n for n, _ in layout.regions} >= {"seat1.bet", "seat6.low", "dealer.high", "dice"}
    assert layout.region_at((100.0, 90.0)) == "seat1.high"


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (("[dice]", "[dice]\ncolour = 'red'"), "'dice.colour'"),
        (('name = "t"', 'name = "t"\ntable = 1'), "'table'"),
        (("bet = [1, 1, 5, 5]", "bet = [1, 1, 0, 5]"), "'seats.1.bet'"),
        (("high = [50, 0, 50, 25]", "high = [60, 0, 50, 25]"), "'seats.1.high'"),
        (("low = [0, 0, 50, 25]", "low = 'left'"), "'seats.1.low'"),
        (("[seats.1]", "[seats.9]"), "'seats.9'"),
        (("width = 100", "width = -1"), "'felt.width'"),
        (("image = [[10, 20], [210, 30], [200, 140], [15, 120]]",
          "image = [[0, 0], [10, 10], [20, 20], [30, 30]]"), "'marks.image'"),
        (("felt = [[0, 0], [100, 0], [100, 50], [0, 50]]", "felt = [[0, 0], [1, 1]]"),
         "'marks.felt'"),
        (("[dealer]\nlow = [0, 25, 50, 25]\n", "[dealer]\n"), "'dealer.low'"),
    ],
)
def test_errors_name_the_key(change: tuple[str, str], key: str) -> None:
    text = MINIMAL.replace(*change, 1)
    assert text != MINIMAL
    with pytest.raises(LayoutError, match=key):
        Layout.parse(text)


def test_missing_file_and_bad_toml(tmp_path: Path) -> None:
    with pytest.raises(LayoutError, match="cannot read layout"):
        Layout.load(tmp_path / "none.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("name = [")
    with pytest.raises(LayoutError, match="not valid TOML"):
        Layout.load(bad)
