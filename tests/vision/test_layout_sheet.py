"""The printable sheet: SVG at true scale, rendered back by rsvg-convert and read by ArUco."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.errors import LayoutError
from vision.layout import Layout
from vision.layout_sheet import labels, sheet_image, sheet_svg
from vision.markers import calibrate, find_markers

ROOT = Path(__file__).resolve().parents[2]
LAYOUTS = ROOT / "config" / "layouts"
NAMES = ("paigow-poker", "paigow-tiles")
SVG = "{http://www.w3.org/2000/svg}"


def load(name: str) -> Layout:
    return Layout.load(LAYOUTS / f"{name}.toml")


def rendered(svg: str, width: int, height: int) -> NDArray[np.uint8]:
    """The SVG drawn to a BGR image by rsvg-convert (skips where there is none)."""
    tool = shutil.which("rsvg-convert")
    if tool is None:
        pytest.skip("rsvg-convert is not installed (apt-get install librsvg2-bin)")
    png = subprocess.run([tool, "-w", str(width), "-h", str(height), "-b", "white"],
                         input=svg.encode(), capture_output=True, check=True).stdout
    return np.asarray(cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR), np.uint8)


@pytest.mark.parametrize("name", NAMES)
def test_the_svg_is_true_scale_and_names_every_region(name: str) -> None:
    layout = load(name)
    root = ET.fromstring(sheet_svg(layout))
    w, h = layout.felt
    assert root.get("width") == f"{w:g}mm" and root.get("height") == f"{h:g}mm"
    assert root.get("viewBox") == f"0 0 {w:g} {h:g}"
    ids = {e.get("id") for e in root.iter()} - {None}
    assert {n for n, _ in layout.regions} | {"felt"} <= ids
    assert {f"marker{i}" for i in range(4)} <= ids
    texts = {e.text for e in root.iter(f"{SVG}text")}
    assert {"2 HIGH", "2 LOW", "2 BET", "DEALER LOW", "DEALER HIGH", "DICE"} <= texts
    assert texts - {f"{name}: 100 mm"} == {t for t, _, _ in labels(layout)}
    assert len(labels(layout)) == len(layout.regions)
    bar = next(e for e in root.iter(f"{SVG}line") if e.get("id") == "scale")
    assert float(bar.get("x2", 0)) - float(bar.get("x1", 0)) == 100


@pytest.mark.parametrize("name", NAMES)
def test_the_rendered_svg_shows_the_markers_where_the_layout_says(name: str) -> None:
    layout = load(name)
    assert layout.markers is not None
    scale = 0.8  # pixels per mm of the rendering: a sheet seen smaller than it is printed
    w, h = layout.felt
    image = rendered(sheet_svg(layout), round(w * scale), round(h * scale))
    found = find_markers(image, layout.markers.dictionary, layout.markers.ids)
    assert sorted(found) == sorted(layout.markers.ids)
    for place in layout.markers.places:
        want = np.array(place.corners) * scale - 0.5  # OpenCV counts from pixel centres
        assert np.abs(found[place.id] - want).max() < 0.6, place.id
    # The OpenCV drawing of the sheet puts them at the same pixels.
    drawn = find_markers(sheet_image(layout, scale), layout.markers.dictionary,
                         layout.markers.ids)
    for ident, corners in found.items():
        assert np.abs(drawn[ident] - corners).max() < 0.8, ident


@pytest.mark.parametrize("name", NAMES)
def test_the_rendered_svg_outlines_each_region(name: str) -> None:
    layout = load(name)
    w, h = layout.felt
    grey = cv2.cvtColor(rendered(sheet_svg(layout), round(w), round(h)), cv2.COLOR_BGR2GRAY)
    for region, shape in layout.regions:
        poly = shape.polygon()
        edge = np.concatenate([np.linspace(a, b, 20, endpoint=False)
                               for a, b in zip(poly, np.roll(poly, -1, axis=0), strict=True)])
        # On the outline: dark; 8 mm inside it, towards the centre, and away from the label:
        # paper white.
        on = grey[np.round(edge[:, 1] - 0.5).astype(int), np.round(edge[:, 0] - 0.5).astype(int)]
        centre = np.array(shape.center)
        inside = edge + 8 * (centre - edge) / np.linalg.norm(centre - edge, axis=1)[:, None]
        off = grey[np.round(inside[:, 1] - 0.5).astype(int),
                   np.round(inside[:, 0] - 0.5).astype(int)]
        assert on.mean() < 128 < off.mean(), region


def test_the_rendered_sheet_calibrates_a_camera() -> None:
    layout = load("paigow-poker")
    w, h = layout.felt
    image = rendered(sheet_svg(layout), round(w * 0.6), round(h * 0.6))
    calibration = calibrate(image, layout)
    # Seen at 0.6 px/mm from straight above: the felt point p is at pixel 0.6 p - 0.5.
    for _, shape in layout.regions:
        felt = shape.polygon()
        assert np.abs(calibration.to_felt(felt * 0.6 - 0.5) - felt).max() < 1.5


def test_a_layout_without_markers_has_no_sheet() -> None:
    with pytest.raises(LayoutError, match="'sim-table' names no markers"):
        sheet_svg(load("sim-table"))
