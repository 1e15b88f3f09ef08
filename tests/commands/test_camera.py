"""``paigow camera calibrate`` on a rendered table (1280 x 720, one frame): the line it prints,
the calibration it writes where the table file says, ``--json``, ``--frame``, and one line with
exit status 2 for a marker not found or a table file that cannot serve."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.cli_run import run
from tests.table.test_felt_camera import PLAIN, render_table
from vision.camera_calibration import MarkerCalibration
from vision.markers import find_markers
from vision.sources import read_image
from vision.table_video.state import Hand, TableState


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    state = TableState.of("tiles", {"dealer.low": Hand(("1-1", "3-3"))})
    return render_table(tmp_path_factory.mktemp("calibrate"), state, 3, PLAIN, 1)


def frame_path(table: Path) -> Path:
    return table.parent / "camera" / "frames" / "000000.jpg"


def test_calibrate_writes_what_the_table_names(table: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    written = table.parent / "calibration" / "camera.json"
    written.unlink(missing_ok=True)
    code, out, err = run(capsys, "camera", "calibrate", "--table", str(table))
    assert (code, err) == (0, "")
    assert out.count("\n") == 1
    assert out.startswith("paigow-tiles: markers 0, 1, 2, 3 found in 1280 x 720, fit error ")
    calibration = MarkerCalibration.load(written)
    assert calibration.layout == "paigow-tiles" and calibration.image_size == (1280, 720)
    assert f"{calibration.error_px:.2f} px" in out and calibration.error_px < 2.0


def test_calibrate_json_is_one_object(table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "camera", "calibrate", "--table", str(table), "--json")
    report = json.loads(out)
    assert code == 0 and report["markers"] == [0, 1, 2, 3]
    assert report["image_size"] == [1280, 720] and 0 <= report["error_px"] < 2.0
    assert report["calibration"] == str(table.parent / "calibration" / "camera.json")


def test_calibrate_from_a_frame_needs_no_source(table: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "table.toml"
    other.write_text(table.read_text(encoding="utf-8").replace('"camera/frames"', '"gone"')
                     .replace('"calibration/camera.json"', '"mine.json"'), encoding="utf-8")
    code, out, _ = run(capsys, "camera", "calibrate", "--table", str(other), "--frame",
                       str(frame_path(table)), "--json")
    assert code == 0 and json.loads(out)["frame"] == str(frame_path(table))
    assert MarkerCalibration.load(tmp_path / "mine.json").markers


def test_a_marker_not_found_is_one_line_naming_it(table: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    image = read_image(frame_path(table))
    corners = find_markers(image, "DICT_4X4_50", [2])[2]
    # Felt over marker 2 (a glass or a chip stack on it): the colour just beside it.
    x, y = corners.mean(axis=0).astype(int)
    side = int(np.ptp(corners[:, 0]))
    felt = [int(c) for c in image[y, min(x + 2 * side, image.shape[1] - 1)]]
    cv2.fillConvexPoly(image, (np.round((corners - corners.mean(axis=0)) * 1.4
                                        + corners.mean(axis=0))).astype(np.int32), felt)
    hidden = tmp_path / "hidden.png"
    cv2.imwrite(str(hidden), image)
    written = table.parent / "calibration" / "camera.json"
    before = written.read_bytes() if written.exists() else None
    code, out, err = run(capsys, "camera", "calibrate", "--table", str(table), "--frame",
                         str(hidden))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("paigow: error: ")
    assert "marker 2 of DICT_4X4_50 not found" in err
    assert (written.read_bytes() if written.exists() else None) == before


@pytest.mark.parametrize(("camera", "named"), [
    ('source = "0"\nlayout = "paigow-tiles"\ncalibration = "c.json"\nzoom = 2\n',
     "unknown key 'zoom' in [camera]"),
    ('source = "0"\nlayout = "paigow-tiles"\n', "[camera] calibration is missing"),
    (None, "no [camera] section"),
])
def test_a_table_file_that_cannot_serve_is_one_line(tmp_path: Path, camera: str | None,
                                                    named: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "table.toml"
    table.write_text('name = "t"\n' + ("" if camera is None else f"[camera]\n{camera}"),
                     encoding="utf-8")
    code, out, err = run(capsys, "camera", "calibrate", "--table", str(table))
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert f"{table}: {named}" in err


def test_the_sheet_is_written_at_true_scale_with_the_layout_markers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sheet.svg"
    code, printed, _ = run(capsys, "camera", "sheet", "--layout", "paigow-tiles", "--out",
                           str(out))
    assert code == 0 and "paigow-tiles: sheet written" in printed
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<svg") and 'width="1830mm"' in text


def test_a_sheet_of_an_unknown_layout_is_one_line(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "camera", "sheet", "--layout", "nosuch", "--out",
                       str(tmp_path / "x.svg"))
    assert code == 2 and err.count("\n") == 1 and "'nosuch'" in err
    assert not (tmp_path / "x.svg").exists()
