"""Calibration by the layout's ArUco markers on synthetic camera views of the printed sheet.

A view is the sheet drawn by ``vision.layout_sheet`` on a green felt, warped by a known
homography into a 1280 x 720 frame, lit unevenly, blurred, noised and sent through JPEG: the
calibration must recover the known homography, a still camera must pass the check and a moved
or covered one must not.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.camera_calibration import MarkerCalibration
from vision.errors import CalibrationError, CameraMoved, LayoutError, MarkerError
from vision.layout import Layout
from vision.layout_sheet import sheet_image
from vision.markers import MOVED_PX, calibrate, check_still_calibrated, find_markers
from vision.scene.augment import noise, uneven_light

ROOT = Path(__file__).resolve().parents[2]
LAYOUTS = ROOT / "config" / "layouts"
FRAME = (1280, 720)
PPM = 1.0  # the sheet drawn at 1 px/mm, then warped down to the camera's ~0.65 px/mm
FELT_BGR = (40, 110, 30)
RAIL_BGR = (30, 45, 70)
F64 = NDArray[np.float64]
Image = NDArray[np.uint8]


def load(name: str) -> Layout:
    return Layout.load(LAYOUTS / f"{name}.toml")


def view_homography(layout: Layout, rng: np.random.Generator, tilt: float = 0.05) -> F64:
    """A camera above the table: felt mm to frame pixels, its corners jittered by ``tilt``."""
    w, h = layout.felt
    scale = 0.65
    x0, y0 = (FRAME[0] - w * scale) / 2, (FRAME[1] - h * scale) / 2
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = np.array([[x0, y0], [x0 + w * scale, y0], [x0 + w * scale, y0 + h * scale],
                    [x0, y0 + h * scale]], np.float32)
    dst += (rng.uniform(-tilt, tilt, size=(4, 2)) * np.array(FRAME)).astype(np.float32)
    return cv2.getPerspectiveTransform(src, dst).astype(np.float64)


def shoot(layout: Layout, felt_to_image: F64, rng: np.random.Generator,
          sheet: Image | None = None, jpeg: int = 75) -> Image:
    """The frame a camera with ``felt_to_image`` takes of the sheet: warped, lit unevenly,
    blurred, noised and JPEG-compressed."""
    sheet = sheet_image(layout, PPM, FELT_BGR) if sheet is None else sheet
    # The sheet's pixel centres sit at felt mm * PPM - 0.5 (OpenCV counts from pixel centres).
    sheet_to_felt = np.linalg.inv(np.array([[PPM, 0, -0.5], [0, PPM, -0.5], [0, 0, 1]]))
    image = cv2.warpPerspective(sheet, felt_to_image @ sheet_to_felt, FRAME,
                                flags=cv2.INTER_LINEAR, borderValue=RAIL_BGR)
    work = uneven_light(image.astype(np.float32), (0.55, 1.1), 0.05, rng)
    work = np.asarray(cv2.GaussianBlur(work, (0, 0), float(rng.uniform(0.4, 1.0))), np.float32)
    work = noise(work, float(rng.uniform(2.0, 5.0)), rng)
    frame = np.clip(work, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
    assert ok
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)


def project(hom: F64, points: F64) -> F64:
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return np.asarray(cv2.perspectiveTransform(pts, hom), np.float64).reshape(-1, 2)


@pytest.mark.parametrize(("name", "seed"), [("paigow-poker", 1), ("paigow-poker", 2),
                                            ("paigow-tiles", 3), ("paigow-tiles", 4)])
def test_calibration_recovers_the_homography(name: str, seed: int) -> None:
    layout = load(name)
    rng = np.random.default_rng(seed)
    truth = view_homography(layout, rng)
    calibration = calibrate(shoot(layout, truth, rng), layout)
    assert calibration.layout == name and calibration.image_size == FRAME
    assert calibration.error_px < 1.0  # pixels
    # Every region's outline, seen where the true camera puts it, maps back within 2 mm.
    for region, shape in layout.regions:
        felt = shape.polygon()
        back = calibration.to_felt(project(truth, felt))
        assert np.abs(back - felt).max() < 2.0, region
    seen = calibration.apply(layout)
    for region, shape in layout.regions:
        assert seen.region_at(tuple(project(truth, np.array([shape.center]))[0])) == region


@pytest.mark.parametrize("turn", [180.0, 90.0])
def test_calibration_from_any_side(turn: float) -> None:
    layout = load("paigow-tiles")
    rng = np.random.default_rng(13)
    # A camera mounted the other way round (or across), the felt still in view.
    spin = np.vstack([cv2.getRotationMatrix2D((FRAME[0] / 2, FRAME[1] / 2), turn,
                                              1.0 if turn % 180 == 0 else 0.55), [0, 0, 1]])
    truth = spin @ view_homography(layout, rng, 0.03)
    calibration = calibrate(shoot(layout, truth, rng), layout)
    for region, shape in layout.regions:
        felt = shape.polygon()
        assert np.abs(calibration.to_felt(project(truth, felt)) - felt).max() < 2.0, region


def test_calibration_from_a_steep_view() -> None:
    # A camera low over the players' side looking across at the dealer: the far edge (the
    # straight one) seen at under half the width of the near one.
    layout = load("paigow-poker")
    w, h = layout.felt
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = np.array([[360, 110], [920, 110], [1250, 690], [30, 690]], np.float32)
    truth = cv2.getPerspectiveTransform(src, dst).astype(np.float64)
    rng = np.random.default_rng(14)
    calibration = calibrate(shoot(layout, truth, rng), layout)
    for region, shape in layout.regions:
        felt = shape.polygon()
        assert np.abs(calibration.to_felt(project(truth, felt)) - felt).max() < 3.0, region


def test_a_calibration_saves_and_loads(tmp_path: Path) -> None:
    layout = load("paigow-poker")
    rng = np.random.default_rng(5)
    taken = datetime(2026, 11, 28, 7, 30, tzinfo=UTC)
    calibration = calibrate(shoot(layout, view_homography(layout, rng), rng), layout, taken)
    path = tmp_path / "camera.json"
    calibration.save(path)
    again = MarkerCalibration.load(path)
    assert again == calibration
    assert again.taken == "2026-11-28T07:30:00+00:00"
    assert sorted(json.loads(path.read_text())["markers"]) == ["0", "1", "2", "3"]


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda d: d.update(colour="red"), "unknown key 'colour'"),
        (lambda d: d.pop("homography"), "missing key 'homography'"),
        (lambda d: d.update(homography=[[1, 0], [0, 1]]), "'homography'"),
        (lambda d: d.update(homography=[[0, 0, 0]] * 3), "'homography' is singular"),
        (lambda d: d.update(image_size=[1280, 0]), "'image_size'"),
        (lambda d: d.update(image_size=[1280, True]), "'image_size'"),
        (lambda d: d["markers"].update({"2": [[0, 0]]}), "'markers.2'"),
        (lambda d: d.update(markers={"x": []}), "'markers'"),
        (lambda d: d.update(dictionary="DICT_9X9"), "'dictionary'"),
        (lambda d: d.update(version=2), "'format'/'version'"),
        (lambda d: d.update(error_px=-1), "'error_px'"),
    ],
)
def test_bad_calibration_files_name_the_key(tmp_path: Path, change: object, key: str) -> None:
    layout = load("paigow-poker")
    rng = np.random.default_rng(6)
    data = calibrate(shoot(layout, view_homography(layout, rng), rng), layout).to_json()
    assert callable(change)
    change(data)
    path = tmp_path / "camera.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match=key):
        MarkerCalibration.load(path)


def test_unreadable_calibration_files(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="cannot read camera calibration"):
        MarkerCalibration.load(tmp_path / "none.json")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(CalibrationError, match="is not JSON"):
        MarkerCalibration.load(tmp_path / "bad.json")


def test_a_still_camera_stays_calibrated() -> None:
    layout = load("paigow-poker")
    rng = np.random.default_rng(7)
    truth = view_homography(layout, rng)
    sheet = sheet_image(layout, PPM, FELT_BGR)
    calibration = calibrate(shoot(layout, truth, rng, sheet), layout)
    worst = 0.0
    for _ in range(4):  # other light, blur, noise and compression; the same camera
        shifts = check_still_calibrated(shoot(layout, truth, rng, sheet, jpeg=60), calibration)
        assert sorted(shifts) == [0, 1, 2, 3]
        worst = max(worst, *shifts.values())
    assert worst < MOVED_PX / 3  # the tolerance stands well clear of the jitter


@pytest.mark.parametrize(("dx", "turn"), [(8.0, 0.0), (0.0, 0.6)])
def test_a_moved_camera_is_a_fault(dx: float, turn: float) -> None:
    layout = load("paigow-tiles")
    rng = np.random.default_rng(8)
    truth = view_homography(layout, rng)
    calibration = calibrate(shoot(layout, truth, rng), layout)
    # The camera nudged: the whole view slides by dx pixels or turns by `turn` degrees.
    nudge = np.vstack([cv2.getRotationMatrix2D((FRAME[0] / 2, FRAME[1] / 2), turn, 1.0),
                       [0, 0, 1]])
    nudge[0, 2] += dx
    with pytest.raises(CameraMoved, match=r"marker \d moved") as caught:
        check_still_calibrated(shoot(layout, nudge @ truth, rng), calibration)
    assert caught.value.missing == ()
    assert max(caught.value.shifts.values()) > MOVED_PX
    # Calibrated again, the moved camera is still.
    again = calibrate(shoot(layout, nudge @ truth, rng), layout)
    check_still_calibrated(shoot(layout, nudge @ truth, rng), again)


def test_a_covered_marker_is_named() -> None:
    layout = load("paigow-poker")
    rng = np.random.default_rng(9)
    truth = view_homography(layout, rng)
    sheet = sheet_image(layout, PPM, FELT_BGR)
    calibration = calibrate(shoot(layout, truth, rng, sheet), layout)
    assert layout.markers is not None
    place = layout.markers.places[2]
    covered = sheet.copy()  # a stack of chips left on marker 2
    cx, cy = (round(c * PPM) for c in place.center)
    cv2.circle(covered, (cx, cy), round(0.45 * place.side * PPM), (20, 20, 180), -1)
    frame = shoot(layout, truth, rng, covered)
    with pytest.raises(MarkerError, match=r"marker 2 of DICT_4X4_50 not found") as found:
        calibrate(frame, layout)
    assert found.value.missing == (2,)
    with pytest.raises(CameraMoved, match="marker 2 not seen") as moved:
        check_still_calibrated(frame, calibration)
    assert moved.value.missing == (2,) and sorted(moved.value.shifts) == [0, 1, 3]


def test_no_markers_at_all() -> None:
    layout = load("paigow-poker")
    blank = np.full((FRAME[1], FRAME[0], 3), 90, np.uint8)
    with pytest.raises(MarkerError, match=r"markers 0, 1, 2, 3 of DICT_4X4_50 not found"):
        calibrate(blank, layout)


def test_markers_elsewhere_than_the_layout_says() -> None:
    layout = load("paigow-poker")
    rng = np.random.default_rng(10)
    frame = shoot(layout, view_homography(layout, rng), rng)
    # The same sheet, but its file claims marker 3 sits a marker's width further right.
    text = (LAYOUTS / "paigow-poker.toml").read_text()
    assert layout.markers is not None
    old = layout.markers.places[3].corners
    moved = ", ".join(f"[{x + 80:g}, {y:g}]" for x, y in old)
    wrong = Layout.parse(text.replace(", ".join(f"[{x:g}, {y:g}]" for x, y in old), moved, 1))
    assert wrong.markers is not None and wrong.markers.places[3].corners != old
    with pytest.raises(MarkerError, match=r"marker 3 off by [\d.]+ px\): is each") as caught:
        calibrate(frame, wrong)
    assert caught.value.missing == (3,)


def test_a_frame_of_another_size_is_a_moved_camera() -> None:
    layout = load("paigow-poker")
    rng = np.random.default_rng(11)
    calibration = calibrate(shoot(layout, view_homography(layout, rng), rng), layout)
    with pytest.raises(CameraMoved, match="640 x 360, calibrated at 1280 x 720"):
        check_still_calibrated(np.zeros((360, 640, 3), np.uint8), calibration)


def test_a_calibration_fits_its_own_layout_only() -> None:
    poker, tiles = load("paigow-poker"), load("paigow-tiles")
    rng = np.random.default_rng(12)
    calibration = calibrate(shoot(poker, view_homography(poker, rng), rng), poker)
    with pytest.raises(LayoutError, match="does not fit layout 'paigow-tiles'"):
        calibration.apply(tiles)
    with pytest.raises(LayoutError, match="names no markers"):
        calibrate(np.zeros((10, 10, 3), np.uint8), load("sim-table"))


def test_other_ids_are_ignored_and_a_twin_is_named() -> None:
    layout = load("paigow-poker")
    sheet = sheet_image(layout, PPM, FELT_BGR)
    assert layout.markers is not None
    found = find_markers(sheet, "DICT_4X4_50", [0, 1])
    assert sorted(found) == [0, 1]
    # A second copy of marker 0 pasted elsewhere (another table's sheet in view).
    twin = sheet.copy()
    twin[300:420, 700:820] = sheet[35:155, 35:155]
    with pytest.raises(MarkerError, match="marker 0 of DICT_4X4_50 is seen twice"):
        find_markers(twin, "DICT_4X4_50", layout.markers.ids)
