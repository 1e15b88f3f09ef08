"""The ArUco markers a layout prints on its felt, by which the camera is calibrated.

The ``[markers]`` table of a layout file names a predefined ``cv2.aruco`` dictionary and four
markers, each by its id and its outer corners on the felt, clockwise from its top-left as
``cv2.aruco`` reports them (``vision.layout`` documents the whole file).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from . import layout_checks as check
from .errors import LayoutError
from .layout_checks import Point
from .shapes import Box, Felt

MARKER_COUNT = 4  # one per corner of the view: four spread markers fix the homography well


def aruco_dictionary(name: str) -> cv2.aruco.Dictionary:
    """The predefined ``cv2.aruco`` dictionary called ``name`` (``DICT_4X4_50``); a
    ``LayoutError`` naming it if OpenCV has none of that name."""
    if not name.startswith("DICT_") or not hasattr(cv2.aruco, name):
        raise LayoutError(f"{name!r} is not a cv2.aruco dictionary such as 'DICT_4X4_50'")
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))


@dataclass(frozen=True)
class MarkerPlace:
    """One ArUco marker on the felt: its id and its four outer corners (felt units),
    clockwise from its top-left as ``cv2.aruco`` reports them."""

    id: int
    corners: tuple[Point, Point, Point, Point]

    @property
    def center(self) -> Point:
        """The middle of its corners."""
        xs, ys = zip(*self.corners, strict=True)
        return (sum(xs) / 4, sum(ys) / 4)

    @property
    def side(self) -> float:
        """The length of its sides."""
        (ax, ay), (bx, by) = self.corners[0], self.corners[1]
        return math.hypot(bx - ax, by - ay)


@dataclass(frozen=True)
class Markers:
    """The layout's ArUco markers and the predefined ``cv2.aruco`` dictionary they are from."""

    dictionary: str
    places: tuple[MarkerPlace, ...]

    @property
    def ids(self) -> tuple[int, ...]:
        """The markers' ids, in the file's order."""
        return tuple(p.id for p in self.places)

    def aruco_dictionary(self) -> cv2.aruco.Dictionary:
        """The OpenCV dictionary by its name."""
        return aruco_dictionary(self.dictionary)


def parse_markers(value: Any, felt: Felt, source: str) -> Markers:
    """The ``[markers]`` table of layout ``source`` checked: each on ``felt``, square."""
    if not isinstance(value, dict):
        raise LayoutError(f"layout {source!r}: 'markers' must be a table, got {value!r}")
    check.only(value, ("dictionary", "marker"), "markers.", source)
    dictionary = value.get("dictionary")
    if not isinstance(dictionary, str):
        raise LayoutError(f"layout {source!r}: 'markers.dictionary' must name a cv2.aruco "
                          f"dictionary such as 'DICT_4X4_50', got {dictionary!r}")
    try:
        size = int(aruco_dictionary(dictionary).bytesList.shape[0])  # how many ids it holds
    except LayoutError as err:
        raise LayoutError(f"layout {source!r}: 'markers.dictionary': {err}") from None
    places = value.get("marker")
    if not isinstance(places, list) or len(places) != MARKER_COUNT:
        raise LayoutError(f"layout {source!r}: 'markers.marker' must list {MARKER_COUNT} "
                          f"markers, got {places!r}")
    out: list[MarkerPlace] = []
    for i, place in enumerate(places):
        key = f"markers.marker[{i}]."
        if not isinstance(place, dict):
            raise LayoutError(f"layout {source!r}: 'markers.marker[{i}]' must be a table")
        check.only(place, ("id", "corners"), key, source)
        ident = place.get("id")
        if isinstance(ident, bool) or not isinstance(ident, int) or not 0 <= ident < size \
                or ident in {p.id for p in out}:
            raise LayoutError(f"layout {source!r}: {key + 'id'!r} must be a new id 0..{size - 1} "
                              f"of {dictionary}, got {ident!r}")
        corners = check.points(place.get("corners"), key + "corners", source)
        marker = MarkerPlace(ident, (corners[0], corners[1], corners[2], corners[3]))
        _square(marker, key + "corners", source)
        if not felt.holds(Box(marker.center, marker.side, marker.side)):
            raise LayoutError(f"layout {source!r}: {key + 'corners'!r} = "
                              f"{[list(c) for c in corners]!r} lie off the felt")
        out.append(marker)
    return Markers(dictionary, tuple(out))


def _square(marker: MarkerPlace, key: str, source: str) -> None:
    # A marker is printed square and upright-or-turned, never mirrored: a mirrored one would
    # not decode, so corners listed anticlockwise are a mistake in the file.
    pts = np.array(marker.corners)
    sides = [float(np.hypot(*(pts[(i + 1) % 4] - pts[i]))) for i in range(4)]
    diagonals = [float(np.hypot(*(pts[2] - pts[0]))), float(np.hypot(*(pts[3] - pts[1])))]
    (ax, ay), (bx, by) = pts[1] - pts[0], pts[2] - pts[1]
    square = max(sides) - min(sides) <= 5e-3 * max(sides) and \
        abs(diagonals[0] - diagonals[1]) <= 5e-3 * max(diagonals)
    if not square or ax * by - ay * bx <= 0:
        raise LayoutError(f"layout {source!r}: {key!r} must be a square's corners clockwise "
                          f"from its top-left, got {[list(c) for c in marker.corners]!r}")
