"""A table layout: named regions on the felt, seen through the camera by a homography.

The TOML form (``config/layouts/NAME.toml``)::

    name = "sim-table"
    [felt]                  # the felt's size, in the layout's units (mm)
    width = 1600
    height = 900
    [marks]                 # four marked points: on the felt, and where the camera sees them
    felt = [[0, 0], [1600, 0], [1600, 900], [0, 900]]
    image = [[0, 0], [1280, 0], [1280, 720], [0, 720]]
    [seats.1]               # rectangles [x, y, width, height] on the felt
    bet = [...]
    low = [...]
    high = [...]
    [dealer]
    low = [...]
    high = [...]
    [dice]
    area = [...]

Regions are named ``seat1.bet``, ``seat1.low``, ``seat1.high``, ``dealer.low``,
``dealer.high`` and ``dice``. Unknown keys, missing keys, bad numbers and a degenerate set
of marks are ``LayoutError``s naming the key. A point lies in the smallest region holding it.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from .config_check import check_keys
from .errors import LayoutError
from .items import Item

F64 = NDArray[np.float64]
Rect = tuple[float, float, float, float]
SEAT_KEYS = ("bet", "low", "high")
DEALER_KEYS = ("low", "high")
DICE = "dice"  # the dice area's region


@dataclass(frozen=True)
class Layout:
    """A validated layout: felt size, the four marks and the named regions (felt units)."""

    name: str
    felt: tuple[float, float]
    marks_felt: tuple[tuple[float, float], ...]
    marks_image: tuple[tuple[float, float], ...]
    regions: tuple[tuple[str, Rect], ...]

    @property
    def homography(self) -> F64:
        """The 3x3 map from felt to image coordinates."""
        src = np.array(self.marks_felt, np.float32)
        dst = np.array(self.marks_image, np.float32)
        return cv2.getPerspectiveTransform(src, dst).astype(np.float64)

    def to_image(self, points: Iterable[tuple[float, float]]) -> F64:
        """Felt points (N x 2) in image pixels."""
        pts = np.array(list(points), np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, self.homography), np.float64).reshape(-1, 2)

    def to_felt(self, points: Iterable[tuple[float, float]]) -> F64:
        """Image points (N x 2) on the felt."""
        pts = np.array(list(points), np.float64).reshape(-1, 1, 2)
        inverse = np.linalg.inv(self.homography)
        return np.asarray(cv2.perspectiveTransform(pts, inverse), np.float64).reshape(-1, 2)

    def region_at(self, point: tuple[float, float]) -> str | None:
        """The smallest region holding an image point, or ``None``."""
        x, y = self.to_felt([point])[0]
        best: tuple[float, str] | None = None
        for name, (rx, ry, rw, rh) in self.regions:
            if rx <= x <= rx + rw and ry <= y <= ry + rh and (best is None or rw * rh < best[0]):
                best = (rw * rh, name)
        return None if best is None else best[1]

    def outline(self, name: str) -> F64:
        """Region ``name``'s corners in image pixels (4 x 2: its felt rectangle's top-left,
        top-right, bottom-right and bottom-left); a ``LayoutError`` naming it if there is none."""
        rects = dict(self.regions)
        if name not in rects:
            raise LayoutError(f"layout {self.name!r} has no region {name!r}; it has "
                              f"{', '.join(rects)}")
        x, y, w, h = rects[name]
        return self.to_image([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])

    def assign(self, items: Sequence[Item]) -> list[Item]:
        """The items with ``region`` set from their centres."""
        return [item.in_region(self.region_at(item.center)) for item in items]

    def seen_at(self, image_marks: Sequence[tuple[float, float]]) -> Layout:
        """The same layout with the camera's view of the four marks re-measured."""
        return dataclasses.replace(self, marks_image=_points(
            [list(p) for p in image_marks], "marks.image", self.name))

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
        _only(data, ("name", "felt", "marks", "seats", "dealer", "dice"), "", source)
        name = data.get("name", source)
        if not isinstance(name, str) or not name:
            raise LayoutError(f"layout {source!r}: 'name' must be a non-empty string")
        felt = _table(data, "felt", source)
        _only(felt, ("width", "height"), "felt.", source)
        size = (_number(felt, "width", "felt.", source), _number(felt, "height", "felt.", source))
        marks = _table(data, "marks", source)
        _only(marks, ("felt", "image"), "marks.", source)
        marks_felt = _points(marks.get("felt"), "marks.felt", source)
        marks_image = _points(marks.get("image"), "marks.image", source)
        regions = _regions(data, size, source)
        return cls(name, size, marks_felt, marks_image, regions)


def _regions(data: dict[str, Any], size: tuple[float, float], source: str
             ) -> tuple[tuple[str, Rect], ...]:
    out: list[tuple[str, Rect]] = []
    seats = _table(data, "seats", source)
    if not seats:
        raise LayoutError(f"layout {source!r}: 'seats' names no seat")
    for seat, boxes in seats.items():
        if not seat.isdigit() or not 1 <= int(seat) <= 8:
            raise LayoutError(f"layout {source!r}: seat key 'seats.{seat}' must be 1..8")
        key = f"seats.{seat}."
        if not isinstance(boxes, dict):
            raise LayoutError(f"layout {source!r}: 'seats.{seat}' must be a table")
        _only(boxes, SEAT_KEYS, key, source)
        out += [(f"seat{seat}.{k}", _rect(boxes, k, key, size, source)) for k in SEAT_KEYS]
    dealer = _table(data, "dealer", source)
    _only(dealer, DEALER_KEYS, "dealer.", source)
    out += [(f"dealer.{k}", _rect(dealer, k, "dealer.", size, source)) for k in DEALER_KEYS]
    dice = _table(data, "dice", source)
    _only(dice, ("area",), "dice.", source)
    out.append((DICE, _rect(dice, "area", "dice.", size, source)))
    return tuple(out)


def _only(table: dict[str, Any], allowed: Sequence[str], prefix: str, source: str) -> None:
    # Keys named from the layout's top (``felt.width``), as the file's reader would look.
    check_keys({prefix + key: value for key, value in table.items()},
               [prefix + key for key in allowed], LayoutError, f"layout {source!r}", listed="")


def _table(data: dict[str, Any], key: str, source: str) -> dict[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise LayoutError(f"layout {source!r}: missing table {key!r}")
    return value


def _number(table: dict[str, Any], key: str, prefix: str, source: str) -> float:
    value = table.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise LayoutError(f"layout {source!r}: {prefix + key!r} must be a number > 0, "
                          f"got {value!r}")
    return float(value)


def _points(value: Any, key: str, source: str) -> tuple[tuple[float, float], ...]:
    ok = isinstance(value, list) and len(value) == 4 and all(
        isinstance(p, list) and len(p) == 2
        and all(isinstance(c, int | float) and not isinstance(c, bool) for c in p)
        for p in value)
    if not ok:
        raise LayoutError(f"layout {source!r}: {key!r} must be four [x, y] points, "
                          f"got {value!r}")
    pts = tuple((float(p[0]), float(p[1])) for p in value)
    arr = np.array(pts)
    # Each corner must turn the same way: a convex quadrilateral, no three points in line.
    turns = []
    for i in range(4):
        (ax, ay), (bx, by) = arr[(i + 1) % 4] - arr[i], arr[(i + 2) % 4] - arr[(i + 1) % 4]
        turns.append(float(ax * by - ay * bx))
    span = max(float(np.ptp(arr[:, 0])), float(np.ptp(arr[:, 1])), 1e-9)
    if not (all(t > 1e-3 * span**2 for t in turns) or all(t < -1e-3 * span**2 for t in turns)):
        raise LayoutError(f"layout {source!r}: {key!r} must be the corners of a convex "
                          f"quadrilateral in order, got {value!r}")
    return pts


def _rect(table: dict[str, Any], key: str, prefix: str, size: tuple[float, float],
          source: str) -> Rect:
    value = table.get(key)
    name = prefix + key
    ok = isinstance(value, list) and len(value) == 4 and all(
        isinstance(c, int | float) and not isinstance(c, bool) for c in value)
    if not ok:
        raise LayoutError(f"layout {source!r}: {name!r} must be [x, y, width, height], "
                          f"got {value!r}")
    assert isinstance(value, list)
    x, y, w, h = (float(c) for c in value)
    if w <= 0 or h <= 0 or x < 0 or y < 0 or x + w > size[0] or y + h > size[1]:
        raise LayoutError(f"layout {source!r}: {name!r} = {value!r} is empty or off the "
                          f"felt ({size[0]:g} x {size[1]:g})")
    return (x, y, w, h)
