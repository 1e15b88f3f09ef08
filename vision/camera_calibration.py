"""A camera's calibration to a layout by its markers: what it saw and the homography it gave.

``vision.markers.calibrate`` makes one from a frame; it is kept as a small JSON file so that
the table starts with the camera as it was last calibrated, and ``check_still_calibrated``
compares each frame's markers with the corners recorded here. ``apply`` gives the layout
seen through this camera, for the frame reader to place what it reads.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from .errors import CalibrationError, LayoutError
from .layout import Layout
from .layout_markers import aruco_dictionary

F64 = NDArray[np.float64]
Point = tuple[float, float]
Corners = tuple[Point, Point, Point, Point]
FORMAT = "paigow-camera-calibration"
VERSION = 1
KEYS = ("format", "version", "layout", "dictionary", "image_size", "homography", "markers",
        "taken", "error_px")


@dataclass(frozen=True)
class MarkerCalibration:
    """A camera calibrated to layout ``layout``: the frame size (width, height), the
    homography from image pixels to the felt (mm), each marker's corners as seen (pixels,
    clockwise from its top-left), when (ISO 8601, UTC) and the RMS distance between the
    markers' corners as found and as the homography puts them back (pixels)."""

    layout: str
    dictionary: str
    image_size: tuple[int, int]
    homography: tuple[tuple[float, float, float], ...]
    markers: tuple[tuple[int, Corners], ...]
    taken: str
    error_px: float

    @property
    def image_to_felt(self) -> F64:
        """The 3x3 homography from image pixels to felt mm."""
        return np.array(self.homography, np.float64)

    def to_felt(self, points: Iterable[Point] | F64) -> F64:
        """Image points (N x 2) on the felt."""
        pts = np.array(list(points), np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, self.image_to_felt),
                          np.float64).reshape(-1, 2)

    def to_image(self, points: Iterable[Point] | F64) -> F64:
        """Felt points (N x 2) in image pixels."""
        pts = np.array(list(points), np.float64).reshape(-1, 1, 2)
        inverse = np.linalg.inv(self.image_to_felt)
        return np.asarray(cv2.perspectiveTransform(pts, inverse), np.float64).reshape(-1, 2)

    def corners(self, marker: int) -> F64:
        """Marker ``marker``'s corners as seen at calibration (4 x 2 pixels)."""
        return np.array(dict(self.markers)[marker], np.float64)

    def apply(self, layout: Layout) -> Layout:
        """``layout`` seen through this camera; a ``LayoutError`` if it is another layout or
        has other markers."""
        ids = sorted(i for i, _ in self.markers)
        if layout.name != self.layout or layout.markers is None \
                or sorted(layout.markers.ids) != ids:
            raise LayoutError(f"calibration of layout {self.layout!r} (markers {ids}) does not "
                              f"fit layout {layout.name!r}")
        return layout.seen_at(self.to_image(layout.marks_felt))

    def to_json(self) -> dict[str, Any]:
        """The calibration as a JSON object."""
        return {"format": FORMAT, "version": VERSION, "layout": self.layout,
                "dictionary": self.dictionary, "image_size": list(self.image_size),
                "homography": [list(row) for row in self.homography],
                "markers": {str(i): [list(c) for c in corners] for i, corners in self.markers},
                "taken": self.taken, "error_px": self.error_px}

    @classmethod
    def from_json(cls, data: Any, source: str = "calibration") -> MarkerCalibration:
        """Validate a JSON object; a ``CalibrationError`` naming ``source`` and the key."""
        if not isinstance(data, dict):
            raise CalibrationError(f"camera calibration {source!r} must be a JSON object")
        unknown = sorted(set(data) - set(KEYS))
        missing = [k for k in KEYS if k not in data]
        if unknown or missing:
            raise CalibrationError(f"camera calibration {source!r}: "
                                   f"{'unknown' if unknown else 'missing'} key "
                                   f"{(unknown or missing)[0]!r}")
        if data["format"] != FORMAT or data["version"] != VERSION:
            raise CalibrationError(f"camera calibration {source!r}: 'format'/'version' must be "
                                   f"{FORMAT!r} {VERSION}, got {data['format']!r} "
                                   f"{data['version']!r}")
        for key in ("layout", "dictionary", "taken"):
            if not isinstance(data[key], str) or not data[key]:
                raise CalibrationError(f"camera calibration {source!r}: {key!r} must be a "
                                       f"non-empty string, got {data[key]!r}")
        try:
            aruco_dictionary(data["dictionary"])
        except LayoutError as err:
            raise CalibrationError(f"camera calibration {source!r}: 'dictionary': {err}") from None
        size = _numbers(data["image_size"], (2,), "image_size", source)
        if any(s < 1 or s != int(s) for s in size.ravel()):
            raise CalibrationError(f"camera calibration {source!r}: 'image_size' must be two "
                                   f"whole numbers >= 1, got {data['image_size']!r}")
        hom = _numbers(data["homography"], (3, 3), "homography", source)
        if abs(np.linalg.det(hom)) < 1e-12:
            raise CalibrationError(f"camera calibration {source!r}: 'homography' is singular")
        marks = data["markers"]
        if not isinstance(marks, dict) or not marks \
                or not all(k.isdigit() and str(int(k)) == k for k in marks):
            raise CalibrationError(f"camera calibration {source!r}: 'markers' must map marker "
                                   f"ids to corners, got {marks!r}")
        markers = tuple(
            (int(k), _corners(_numbers(v, (4, 2), f"markers.{k}", source)))
            for k, v in sorted(marks.items(), key=lambda kv: int(kv[0])))
        error = data["error_px"]
        if isinstance(error, bool) or not isinstance(error, int | float) \
                or not math.isfinite(error) or error < 0:
            raise CalibrationError(f"camera calibration {source!r}: 'error_px' must be a "
                                   f"number >= 0, got {error!r}")
        return cls(data["layout"], data["dictionary"], (int(size[0]), int(size[1])),
                   _rows(hom), markers, data["taken"], float(error))

    def save(self, path: str | Path) -> None:
        """Write the calibration as JSON to ``path``."""
        try:
            Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        except OSError as err:
            raise CalibrationError(f"cannot write camera calibration {str(path)!r}: "
                                   f"{err.strerror or err}") from err

    @classmethod
    def load(cls, path: str | Path) -> MarkerCalibration:
        """Read and validate a calibration file; a ``CalibrationError`` naming it."""
        where = str(path)
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as err:
            raise CalibrationError(f"cannot read camera calibration {where!r}: "
                                   f"{err.strerror or err}") from err
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            raise CalibrationError(f"camera calibration {where!r} is not JSON: {err}") from None
        return cls.from_json(data, where)


def _numbers(value: Any, shape: tuple[int, ...], key: str, source: str) -> F64:
    try:
        arr = np.array(value, np.float64)
        ok = arr.shape == shape and bool(np.all(np.isfinite(arr)))
        ok = ok and not _has_bool(value)
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise CalibrationError(f"camera calibration {source!r}: {key!r} must be "
                               f"{' x '.join(map(str, shape))} numbers, got {value!r}")
    return arr


def _has_bool(value: Any) -> bool:
    if isinstance(value, list):
        return any(_has_bool(v) for v in value)
    return isinstance(value, bool) or not isinstance(value, int | float)


def _rows(matrix: F64) -> tuple[tuple[float, float, float], ...]:
    return tuple((float(r[0]), float(r[1]), float(r[2])) for r in matrix)


def _corners(arr: F64) -> Corners:
    p = [(float(x), float(y)) for x, y in arr]
    return (p[0], p[1], p[2], p[3])
