"""A table layout: named regions on the felt, seen through the camera by a homography.

The TOML form (``config/layouts/NAME.toml``)::

    name = "sim-table"
    [felt]                  # the felt's size, in the layout's units (mm)
    width = 1600
    height = 900
    shape = "rectangle"     # or "semicircle": the straight edge on top, width = 2 * height
    [marks]                 # four marked points: on the felt, and where the camera sees them
    felt = [[0, 0], [1600, 0], [1600, 900], [0, 900]]
    image = [[0, 0], [1280, 0], [1280, 720], [0, 720]]
    [markers]               # or, instead of marks: four ArUco markers printed on the felt
    dictionary = "DICT_4X4_50"
    [[markers.marker]]      # one per marker: its id and its outer corners on the felt,
    id = 0                  # clockwise from its top-left (as the camera reports them)
    corners = [[20, 20], [100, 20], [100, 100], [20, 100]]
    [seats.1]               # regions, each one of
    bet = {...}             #   [x, y, width, height]: an upright rectangle
    low = {...}             #   { center = [x, y], size = [w, h], angle = deg }: a turned box
    high = {...}            #   { center = [x, y], radius = r }: a circle
    [dealer]
    low = [...]
    high = [...]
    [dice]
    area = [...]

Regions are named ``seat1.bet``, ``seat1.low``, ``seat1.high``, ``dealer.low``,
``dealer.high`` and ``dice``. Unknown keys, missing keys, bad numbers, a region or marker off
the felt and a degenerate set of marks are ``LayoutError``s naming the key. A point lies in
the smallest region holding it. A layout with markers and no marks has no camera view until
it is calibrated (``vision.markers.calibrate``, then ``MarkerCalibration.apply``).
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from . import layout_checks as check
from .errors import LayoutError
from .items import Item
from .layout_checks import Point
from .layout_markers import Markers, parse_markers
from .shapes import FELT_SHAPES, Box, Circle, Felt, Shape

F64 = NDArray[np.float64]
SEAT_KEYS = ("bet", "low", "high")
DEALER_KEYS = ("low", "high")
DICE = "dice"  # the dice area's region


@dataclass(frozen=True)
class Layout:
    """A validated layout: felt size, the four marks, the named regions (felt units), the
    felt's shape and its markers (when it has them)."""

    name: str
    felt: tuple[float, float]
    marks_felt: tuple[Point, ...]
    marks_image: tuple[Point, ...] | None
    regions: tuple[tuple[str, Shape], ...]
    felt_shape: str = "rectangle"
    markers: Markers | None = None

    @property
    def surface(self) -> Felt:
        """The felt as a shape: what every region and marker lies on."""
        return Felt(self.felt[0], self.felt[1], self.felt_shape)

    @property
    def homography(self) -> F64:
        """The 3x3 map from felt to image coordinates; a ``LayoutError`` while the camera's
        view of the marks is not known (a layout with markers, not yet calibrated)."""
        if self.marks_image is None:
            ids = list(self.markers.ids) if self.markers else []
            raise LayoutError(f"layout {self.name!r} has no camera view yet: calibrate the "
                              f"camera by its markers {ids}")
        src = np.array(self.marks_felt, np.float32)
        dst = np.array(self.marks_image, np.float32)
        return cv2.getPerspectiveTransform(src, dst).astype(np.float64)

    def to_image(self, points: Iterable[Point] | F64) -> F64:
        """Felt points (N x 2) in image pixels."""
        pts = np.array(list(points), np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, self.homography), np.float64).reshape(-1, 2)

    def to_felt(self, points: Iterable[Point] | F64) -> F64:
        """Image points (N x 2) on the felt."""
        pts = np.array(list(points), np.float64).reshape(-1, 1, 2)
        inverse = np.linalg.inv(self.homography)
        return np.asarray(cv2.perspectiveTransform(pts, inverse), np.float64).reshape(-1, 2)

    def region(self, name: str) -> Shape:
        """Region ``name``'s shape on the felt; a ``LayoutError`` naming it if there is none."""
        shapes = dict(self.regions)
        if name not in shapes:
            raise LayoutError(f"layout {self.name!r} has no region {name!r}; it has "
                              f"{', '.join(shapes)}")
        return shapes[name]

    def region_at(self, point: Point) -> str | None:
        """The smallest region holding an image point, or ``None``."""
        x, y = (float(c) for c in self.to_felt([point])[0])
        best: tuple[float, str] | None = None
        for name, shape in self.regions:
            if shape.contains(x, y) and (best is None or shape.area < best[0]):
                best = (shape.area, name)
        return None if best is None else best[1]

    def outline(self, name: str) -> F64:
        """Region ``name``'s outline in image pixels (a box's four corners: its upright
        top-left, top-right, bottom-right and bottom-left; a circle's polygon); a
        ``LayoutError`` naming it if there is none."""
        return self.to_image(self.region(name).polygon())

    def assign(self, items: Sequence[Item]) -> list[Item]:
        """The items with ``region`` set from their centres."""
        return [item.in_region(self.region_at(item.center)) for item in items]

    def seen_at(self, image_marks: Sequence[Point] | F64) -> Layout:
        """The same layout with the camera's view of the four marks re-measured."""
        return dataclasses.replace(self, marks_image=check.points(
            [[float(c) for c in p] for p in image_marks], "marks.image", self.name))

    @classmethod
    def load(cls, path: str | Path) -> Layout:
        """Read and validate a layout file; ``LayoutError`` naming the file or key."""
        where = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as err:
            raise LayoutError(f"cannot read layout {where!r}: {err.strerror or err}") from err
        except UnicodeDecodeError as err:
            raise LayoutError(f"layout {where!r} is not UTF-8 text (offset {err.start})") from None
        return cls.parse(text, Path(path).stem)

    @classmethod
    def parse(cls, text: str, source: str = "layout") -> Layout:
        """Validate layout TOML text (``source`` names it in errors)."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise LayoutError(f"layout {source!r}: not valid TOML: {err}") from err
        except RecursionError:  # tomllib recurses per nested array or table
            raise LayoutError(f"layout {source!r}: TOML nested too deeply to read") from None
        check.only(data, ("name", "felt", "marks", "markers", "seats", "dealer", "dice"), "",
                   source)
        name = data.get("name", source)
        if not isinstance(name, str) or not name:
            raise LayoutError(f"layout {source!r}: 'name' must be a non-empty string")
        felt = _felt(check.table(data, "felt", source), source)
        markers = parse_markers(data["markers"], felt, source) if "markers" in data else None
        if "marks" in data or markers is None:
            marks = check.table(data, "marks", source)
            check.only(marks, ("felt", "image"), "marks.", source)
            marks_felt = check.points(marks.get("felt"), "marks.felt", source)
            marks_image: tuple[Point, ...] | None = check.points(
                marks.get("image"), "marks.image", source)
        else:
            # The marker centres stand for the marks; the camera's view of them is measured.
            centres = _around([p.center for p in markers.places])
            marks_felt = check.points([list(c) for c in centres],
                                      "markers.marker (their centres)", source)
            marks_image = None
        regions = _regions(data, felt, source)
        return cls(name, (felt.width, felt.height), marks_felt, marks_image, regions,
                   felt.shape, markers)


def _felt(table: dict[str, Any], source: str) -> Felt:
    check.only(table, ("width", "height", "shape"), "felt.", source)
    width = check.number(table, "width", "felt.", source)
    height = check.number(table, "height", "felt.", source)
    shape = table.get("shape", "rectangle")
    if shape not in FELT_SHAPES:
        raise LayoutError(f"layout {source!r}: 'felt.shape' must be one of "
                          f"{', '.join(FELT_SHAPES)}, got {shape!r}")
    if shape == "semicircle" and not math.isclose(width, 2 * height, rel_tol=1e-9):
        raise LayoutError(f"layout {source!r}: 'felt.width' = {width:g} of a semicircle must "
                          f"be twice 'felt.height' = {height:g}")
    return Felt(width, height, shape)


def _regions(data: dict[str, Any], felt: Felt, source: str) -> tuple[tuple[str, Shape], ...]:
    out: list[tuple[str, Shape]] = []
    seats = check.table(data, "seats", source)
    if not seats:
        raise LayoutError(f"layout {source!r}: 'seats' names no seat")
    for seat, boxes in seats.items():
        if not seat.isdigit() or not 1 <= int(seat) <= 8:
            raise LayoutError(f"layout {source!r}: seat key 'seats.{seat}' must be 1..8")
        key = f"seats.{seat}."
        if not isinstance(boxes, dict):
            raise LayoutError(f"layout {source!r}: 'seats.{seat}' must be a table")
        check.only(boxes, SEAT_KEYS, key, source)
        out += [(f"seat{seat}.{k}", _shape(boxes, k, key, felt, source)) for k in SEAT_KEYS]
    dealer = check.table(data, "dealer", source)
    check.only(dealer, DEALER_KEYS, "dealer.", source)
    out += [(f"dealer.{k}", _shape(dealer, k, "dealer.", felt, source)) for k in DEALER_KEYS]
    dice = check.table(data, "dice", source)
    check.only(dice, ("area",), "dice.", source)
    out.append((DICE, _shape(dice, "area", "dice.", felt, source)))
    return tuple(out)


def _around(points: Sequence[Point]) -> tuple[Point, ...]:
    """The points in order around their middle (clockwise on the felt)."""
    cx = sum(p[0] for p in points) / len(points)
    cy = sum(p[1] for p in points) / len(points)
    return tuple(sorted(points, key=lambda p: math.atan2(p[1] - cy, p[0] - cx)))


def _shape(table: dict[str, Any], key: str, prefix: str, felt: Felt, source: str) -> Shape:
    value = table.get(key)
    name = prefix + key
    shape: Shape
    if isinstance(value, dict) and "radius" in value:
        check.only(value, ("center", "radius"), name + ".", source)
        center = check.pair(value.get("center"), name + ".center", source)
        shape = Circle(center, check.number(value, "radius", name + ".", source))
    elif isinstance(value, dict):
        check.only(value, ("center", "size", "angle"), name + ".", source)
        center = check.pair(value.get("center"), name + ".center", source)
        w, h = check.pair(value.get("size"), name + ".size", source)
        angle = value.get("angle", 0)
        if not check.is_number(angle):
            raise LayoutError(f"layout {source!r}: {name + '.angle'!r} must be a number "
                              f"(degrees), got {angle!r}")
        if w <= 0 or h <= 0:
            raise LayoutError(f"layout {source!r}: {name + '.size'!r} must be > 0, "
                              f"got {value.get('size')!r}")
        shape = Box(center, w, h, float(angle))
    elif isinstance(value, list) and len(value) == 4 and all(check.is_number(c) for c in value):
        x, y, w, h = (float(c) for c in value)
        if w <= 0 or h <= 0:
            raise LayoutError(f"layout {source!r}: {name!r} = {value!r} is empty")
        shape = Box.from_rect(x, y, w, h)
    else:
        raise LayoutError(f"layout {source!r}: {name!r} must be [x, y, width, height], "
                          f"{{ center, size, angle }} or {{ center, radius }}, got {value!r}")
    if not felt.holds(shape):
        raise LayoutError(f"layout {source!r}: {name!r} = {value!r} is off the felt "
                          f"({felt.shape} {felt.width:g} x {felt.height:g})")
    return shape
