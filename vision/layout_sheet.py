"""The printable sheet of a layout: its felt, regions and ArUco markers at true scale.

``sheet_svg(layout)`` is an SVG in millimetres (print it at 100 %): the felt's edge, every
region outlined and labelled, and the layout's four markers drawn cell by cell as black
polygons on a white quiet zone one cell wide (a marker is found by its black border against
white), so the print is sharp at any size. ``sheet_image`` draws the sheet's felt, outlines
and markers (not its labels) with OpenCV from the same geometry and the same ``cv2.aruco``
marker bits, for tests and for a simulated table that needs the felt as pixels.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape

import cv2
import numpy as np
from numpy.typing import NDArray

from .errors import LayoutError
from .layout import Layout
from .layout_markers import MarkerPlace, Markers
from .shapes import Box, Circle

F64 = NDArray[np.float64]
Image = NDArray[np.uint8]
LINE_MM = 1.5  # outline width: visible to the camera, thin beside a card's edge
LABEL_MM = 16.0  # label height: legible from a player's seat
SCALE_MM = 100.0  # the length of the bar that checks the print's scale
SUPER = 16  # pixels a marker cell in the image warped onto a drawn sheet


@dataclass(frozen=True)
class MarkerDrawing:
    """One marker as felt polygons: its white quiet zone and its black cells."""

    id: int
    quiet: F64
    black: tuple[F64, ...]


def marker_drawings(markers: Markers) -> tuple[MarkerDrawing, ...]:
    """Every marker of ``markers`` as polygons on the felt, from ``cv2.aruco``'s own image
    of it (one pixel per cell)."""
    dictionary = markers.aruco_dictionary()
    return tuple(_drawing(place, dictionary) for place in markers.places)


def _drawing(place: MarkerPlace, dictionary: cv2.aruco.Dictionary) -> MarkerDrawing:
    cells = int(dictionary.markerSize) + 2  # the data bits and the black border round them
    bits = cv2.aruco.generateImageMarker(dictionary, place.id, cells, borderBits=1)
    c0, c1, _, c3 = (np.array(c, np.float64) for c in place.corners)
    across, down = (c1 - c0) / cells, (c3 - c0) / cells

    def quad(col0: float, row0: float, col1: float, row1: float) -> F64:
        return np.array([c0 + col0 * across + row0 * down, c0 + col1 * across + row0 * down,
                         c0 + col1 * across + row1 * down, c0 + col0 * across + row1 * down])

    black: list[F64] = []
    for row in range(cells):
        col = 0
        while col < cells:  # one polygon per run of black cells in a row
            if bits[row, col] == 0:
                end = col
                while end < cells and bits[row, end] == 0:
                    end += 1
                black.append(quad(col, row, end, row + 1))
                col = end
            else:
                col += 1
    return MarkerDrawing(place.id, quad(-1, -1, cells + 1, cells + 1), tuple(black))


def labels(layout: Layout) -> list[tuple[str, tuple[float, float], float]]:
    """Each region's label, where it is written (its centre) and its turn (degrees)."""
    out = []
    for name, shape in layout.regions:
        owner, _, part = name.partition(".")
        text = (owner.removeprefix("seat") + " " + part if owner.startswith("seat")
                else f"{owner} {part}".strip()).upper()
        angle = shape.angle if isinstance(shape, Box) else 0.0
        out.append((text, shape.center, angle))
    return out


def sheet_svg(layout: Layout) -> str:
    """The layout's printable sheet as SVG text, in millimetres; a ``LayoutError`` for a
    layout without markers (nothing on it would let the camera find the felt)."""
    markers = _markers_of(layout)
    w, h = layout.felt
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}mm" height="{h:g}mm" '
           f'viewBox="0 0 {w:g} {h:g}">',
           f"<title>{escape(layout.name)}: print at 100 % ({w:g} x {h:g} mm)</title>",
           f'<rect x="0" y="0" width="{w:g}" height="{h:g}" fill="white"/>',
           f'<g fill="none" stroke="black" stroke-width="{LINE_MM:g}">',
           f'<polygon id="felt" points="{_points(layout.surface.outline())}"/>',
           # A bar of known length along the top edge: measured on the print, it shows the
           # sheet came out at 100 %.
           f'<line id="scale" x1="{w / 2 - SCALE_MM / 2:g}" y1="8" x2="{w / 2 + SCALE_MM / 2:g}" '
           f'y2="8"/>']
    for name, shape in layout.regions:
        if isinstance(shape, Circle):
            out.append(f'<circle id="{name}" cx="{shape.center[0]:.2f}" '
                       f'cy="{shape.center[1]:.2f}" r="{shape.radius:.2f}"/>')
        else:
            out.append(f'<polygon id="{name}" points="{_points(shape.corners())}"/>')
    out.append("</g>")
    out.append(f'<g font-family="sans-serif" font-size="{LABEL_MM:g}" text-anchor="middle" '
               f'dominant-baseline="central" fill="black">')
    for text, (x, y), angle in labels(layout):
        out.append(f'<text x="{x:.2f}" y="{y:.2f}" '
                   f'transform="rotate({angle:g} {x:.2f} {y:.2f})">{escape(text)}</text>')
    out.append(f'<text x="{w / 2:g}" y="24" font-size="10">{escape(layout.name)}: '
               f'{SCALE_MM:g} mm</text>')
    out.append("</g>")
    for drawing in marker_drawings(markers):
        out.append(f'<g id="marker{drawing.id}" stroke="none">')
        out.append(f'<polygon fill="white" points="{_points(drawing.quiet)}"/>')
        out += [f'<polygon fill="black" points="{_points(cell)}"/>' for cell in drawing.black]
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def sheet_image(layout: Layout, px_per_mm: float = 1.0,
                felt: tuple[int, int, int] = (255, 255, 255)) -> Image:
    """The same sheet drawn by OpenCV (BGR), ``px_per_mm`` pixels to the millimetre, the felt
    in colour ``felt`` (the sheet's paper is white; a table's cloth is not)."""
    markers = _markers_of(layout)
    w, h = layout.felt
    image = np.full((round(h * px_per_mm), round(w * px_per_mm), 3), 255, np.uint8)
    shift = 4  # OpenCV draws to 1/16 pixel with fixed-point coordinates

    def pix(points: F64) -> NDArray[np.int32]:
        # Felt mm to pixel corners: a cell [0, 1] mm spans pixels 0..px_per_mm, less the half
        # pixel between a pixel's corner and its centre, which OpenCV's coordinates name.
        return np.round((points * px_per_mm - 0.5) * (1 << shift)).astype(np.int32)

    cv2.fillPoly(image, [pix(layout.surface.outline())], felt, cv2.LINE_AA, shift)
    thick = max(1, round(LINE_MM * px_per_mm))
    cv2.polylines(image, [pix(s.polygon()) for _, s in layout.regions], True, (0, 0, 0), thick,
                  cv2.LINE_AA, shift)
    dictionary = markers.aruco_dictionary()
    for place in markers.places:
        _paste_marker(image, place, dictionary, px_per_mm)
    return image


def _paste_marker(image: Image, place: MarkerPlace, dictionary: cv2.aruco.Dictionary,
                  px_per_mm: float) -> None:
    """Warp ``cv2.aruco``'s image of the marker (``SUPER`` pixels a cell, with its quiet
    zone) onto ``image`` at its corners. Filled polygons would not do: OpenCV fills the pixels
    on a polygon's edge too, so each drawn cell would grow by up to a pixel."""
    cells = int(dictionary.markerSize) + 2
    bits = cv2.aruco.generateImageMarker(dictionary, place.id, cells * SUPER, borderBits=1)
    source = cv2.copyMakeBorder(bits, SUPER, SUPER, SUPER, SUPER, cv2.BORDER_CONSTANT,
                                value=255)
    c0, c1, _, c3 = (np.array(c, np.float64) for c in place.corners)
    across, down = (c1 - c0) / cells, (c3 - c0) / cells
    # A source pixel centre u sits at cell (u + 0.5) / SUPER - 1 (the quiet zone is cell -1);
    # a felt point p at image pixel centre p * px_per_mm - 0.5.
    linear = np.stack([across, down], axis=1) * px_per_mm / SUPER
    offset = (c0 + (0.5 / SUPER - 1) * (across + down)) * px_per_mm - 0.5
    matrix = np.hstack([linear, offset.reshape(2, 1)])
    h, w = image.shape[:2]
    colour = cv2.cvtColor(source, cv2.COLOR_GRAY2BGR)
    cv2.warpAffine(colour, matrix, (w, h), dst=image, flags=cv2.INTER_AREA,
                   borderMode=cv2.BORDER_TRANSPARENT)


def _markers_of(layout: Layout) -> Markers:
    if layout.markers is None:
        raise LayoutError(f"layout {layout.name!r} names no markers: its sheet would give "
                          f"the camera nothing to calibrate by")
    return layout.markers


def _points(polygon: F64) -> str:
    return " ".join(f"{x:.2f},{y:.2f}" for x, y in polygon)
