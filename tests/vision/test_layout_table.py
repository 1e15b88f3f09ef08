"""The shipped semicircle layouts, turned boxes and circles, and markers named in a layout."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vision.errors import LayoutError
from vision.layout import Layout
from vision.shapes import Box, Circle, Felt

ROOT = Path(__file__).resolve().parents[2]
LAYOUTS = ROOT / "config" / "layouts"
CORNERS_3 = r"'markers\.marker\[3\]\.corners'"
TABLES = {"paigow-poker": 6, "paigow-tiles": 7}  # seats; the dealer makes the last position

ARC = """
name = "arc"
[felt]
width = 200
height = 100
shape = "semicircle"
[markers]
dictionary = "DICT_4X4_50"
[[markers.marker]]
id = 0
corners = [[10, 5], [20, 5], [20, 15], [10, 15]]
[[markers.marker]]
id = 1
corners = [[180, 5], [190, 5], [190, 15], [180, 15]]
[[markers.marker]]
id = 2
corners = [[130, 70], [140, 70], [140, 80], [130, 80]]
[[markers.marker]]
id = 3
corners = [[60, 70], [70, 70], [70, 80], [60, 80]]
[seats.1]
bet = { center = [100, 85], radius = 5 }
low = { center = [100, 50], size = [40, 10], angle = 30 }
high = [80, 60, 40, 15]
[dealer]
low = [60, 0, 30, 10]
high = [110, 0, 30, 10]
[dice]
area = { center = [100, 25], radius = 8 }
"""


def seat_of(region: str) -> str:
    return region.split(".")[0]


@pytest.mark.parametrize("name", sorted(TABLES))
def test_shipped_table_layouts_load(name: str) -> None:
    layout = Layout.load(LAYOUTS / f"{name}.toml")
    assert layout.name == name and layout.felt_shape == "semicircle"
    seats = {seat_of(n) for n, _ in layout.regions if n.startswith("seat")}
    assert seats == {f"seat{k}" for k in range(2, TABLES[name] + 2)}  # numbered by position
    names = {n for n, _ in layout.regions}
    assert {"dealer.low", "dealer.high", "dice"} <= names
    assert layout.markers is not None and len(set(layout.markers.ids)) == 4
    with pytest.raises(LayoutError, match="calibrate"):
        layout.to_image([(0.0, 0.0)])


@pytest.mark.parametrize("name", sorted(TABLES))
def test_shipped_regions_lie_on_the_felt_apart(name: str) -> None:
    layout = Layout.load(LAYOUTS / f"{name}.toml")
    felt = layout.surface
    assert all(felt.holds(shape) for _, shape in layout.regions)
    assert layout.markers is not None
    parts = [(n, s.polygon()) for n, s in layout.regions]
    # A marker needs one cell of white round it to be found: its quiet zone is kept clear too.
    for place in layout.markers.places:
        quiet = Box(place.center, place.side * 8 / 6, place.side * 8 / 6,
                    math.degrees(math.atan2(place.corners[1][1] - place.corners[0][1],
                                            place.corners[1][0] - place.corners[0][0])))
        assert felt.holds(quiet)
        parts.append((f"marker{place.id}", quiet.polygon()))
    for (a, pa), (b, pb) in itertools.combinations(parts, 2):
        if seat_of(a) == seat_of(b):
            continue  # a seat's own bet and boxes, or the dealer's two boxes, may touch
        area, _ = cv2.intersectConvexConvex(pa.astype(np.float32), pb.astype(np.float32))
        assert area == 0, (a, b, area)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_shipped_seats_run_counter_clockwise_from_the_dealers_right(name: str) -> None:
    layout = Layout.load(LAYOUTS / f"{name}.toml")
    angles = []
    for k in range(2, TABLES[name] + 2):
        cx, cy = layout.region(f"seat{k}.high").polygon().mean(axis=0)
        angles.append(math.degrees(math.atan2(cy, cx - layout.felt[0] / 2)))
    assert angles == sorted(angles, reverse=True) and angles[0] > 90 > angles[-1]


def test_turned_boxes_and_circles_hold_their_points() -> None:
    layout = Layout.parse(ARC)
    layout = layout.seen_at(layout.marks_felt)  # the camera sees the felt 1 px per mm
    low = layout.region("seat1.low")
    assert isinstance(low, Box) and low.angle == 30
    assert layout.region_at((100.0, 50.0)) == "seat1.low"
    # Along the turned box's long side, 18 mm out: inside; as far straight across: outside.
    along = (100 + 18 * math.cos(math.radians(30)), 50 + 18 * math.sin(math.radians(30)))
    assert layout.region_at(along) == "seat1.low"
    assert layout.region_at((118.0, 50.0)) is None
    assert layout.region_at((100.0, 81.0)) == "seat1.bet"
    assert layout.region_at((100.0, 25.0)) == "dice"
    assert layout.outline("dice").shape == (64, 2)


@given(st.floats(-180, 180), st.floats(-1, 1), st.floats(-1, 1))
def test_a_turned_box_holds_what_its_corners_span(angle: float, s: float, t: float) -> None:
    box = Box((50.0, 40.0), 30.0, 12.0, angle)
    tl, tr, _, bl = box.corners()
    inside = tl + (s + 1) / 2 * 0.999 * (tr - tl) + (t + 1) / 2 * 0.999 * (bl - tl)
    assert box.contains(float(inside[0]), float(inside[1]))
    outside = np.array(box.center) + 1.01 * (tr - np.array(box.center))
    assert not box.contains(float(outside[0]), float(outside[1]))


def test_a_semicircle_holds_its_half_disc_only() -> None:
    felt = Felt(200, 100, "semicircle")
    assert felt.holds(Circle((100, 50), 50)) and not felt.holds(Circle((100, 49), 50))
    assert felt.holds(Box.from_rect(5, 0, 10, 1)) and not felt.holds(Box.from_rect(0, 0, 10, 1))
    assert not felt.holds(Box((100, 95), 20, 10, 0))


def test_the_sim_table_stays_a_plain_rectangle() -> None:
    layout = Layout.load(LAYOUTS / "sim-table.toml")
    assert layout.felt_shape == "rectangle" and layout.markers is None
    assert layout.region_at((100.0, 90.0)) == "seat1.high"


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (('shape = "semicircle"', 'shape = "oval"'), "'felt.shape'"),
        (("width = 200", "width = 300"), "'felt.width'"),
        (("radius = 5 }", "radius = -5 }"), r"'seats\.1\.bet\.radius'"),
        (("radius = 5 }", "radius = 5, colour = 1 }"), r"'seats\.1\.bet\.colour'"),
        (("angle = 30", "angle = 'steep'"), r"'seats\.1\.low\.angle'"),
        (("size = [40, 10]", "size = [40]"), r"'seats\.1\.low\.size'"),
        (("size = [40, 10]", "size = [40, -1]"), r"'seats\.1\.low\.size'"),
        (("center = [100, 85]", "center = [100, 97]"), r"'seats\.1\.bet'"),
        (("high = [80, 60, 40, 15]", "high = [0, 60, 40, 15]"), r"'seats\.1\.high'"),
        (("area = { center = [100, 25], radius = 8 }", "area = 'middle'"), r"'dice\.area'"),
        (('dictionary = "DICT_4X4_50"', 'dictionary = "DICT_9X9"'), r"'markers\.dictionary'"),
        (("id = 3", "id = 0"), r"'markers\.marker\[3\]\.id'"),
        (("id = 3", "id = 50"), r"'markers\.marker\[3\]\.id'"),
        (("corners = [[60, 70], [70, 70], [70, 80], [60, 80]]",
          "corners = [[60, 70], [60, 80], [70, 80], [70, 70]]"), CORNERS_3),
        (("corners = [[60, 70], [70, 70], [70, 80], [60, 80]]",
          "corners = [[60, 70], [75, 70], [75, 80], [60, 80]]"), CORNERS_3),
        (("corners = [[10, 5], [20, 5], [20, 15], [10, 15]]",
          "corners = [[0, 0], [10, 0], [10, 10], [0, 10]]"), r"'markers\.marker\[0\]\.corners'"),
        (("[[markers.marker]]\nid = 3", "[[markers.marker]]\nid = 3\nsize = 1"),
         r"'markers\.marker\[3\]\.size'"),
        (("[markers]", "[markers]\nsize = 80"), r"'markers\.size'"),
    ],
)
def test_errors_name_the_key(change: tuple[str, str], key: str) -> None:
    text = ARC.replace(*change, 1)
    assert text != ARC
    Layout.parse(ARC)
    with pytest.raises(LayoutError, match=key):
        Layout.parse(text)


def test_four_markers_or_marks_are_needed() -> None:
    three = ARC[:ARC.index("[[markers.marker]]\nid = 3")] + ARC[ARC.index("[seats.1]"):]
    with pytest.raises(LayoutError, match=r"'markers\.marker' must list 4"):
        Layout.parse(three)
    no_markers = ARC[:ARC.index("[markers]")] + ARC[ARC.index("[seats.1]"):]
    with pytest.raises(LayoutError, match="missing table 'marks'"):
        Layout.parse(no_markers)
