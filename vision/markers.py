"""The camera calibrated by the layout's ArUco markers, and the check that it has not moved.

``calibrate(image, layout)`` finds the layout's four markers (``cv2.aruco.ArucoDetector``)
and fits the homography from image pixels to the felt through their sixteen corners; it
names the markers it could not find. ``check_still_calibrated(image, calibration)`` finds
them again and raises ``CameraMoved`` when one is hidden or has shifted: a fault that stops
reading until the camera is calibrated again.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

import cv2
import numpy as np
from numpy.typing import NDArray

from .camera_calibration import Corners, MarkerCalibration
from .errors import CameraMoved, ImageError, LayoutError, MarkerError
from .layout import Layout
from .layout_markers import aruco_dictionary

F64 = NDArray[np.float64]
Image = NDArray[np.uint8]

# Marker corners refined to sub-pixel move by under 0.7 px between frames of a still camera
# under noise, blur, a light gradient and JPEG (tests/vision/test_markers.py checks it), and
# a 1280-pixel camera sees a 1830 mm table at about 0.65 px/mm: 3 px is under 5 mm on the
# felt, well inside the margin a card or tile leaves in its box, yet over 4 times the jitter,
# so a still camera is not called moved and a nudged one is.
MOVED_PX = 3.0
# The markers' corners, mapped back into the frame by the fitted homography, lie within this
# of where they were found (RMS, pixels). Still frames fit within a third of it, steep views
# within a half; beyond it a marker sits tens of millimetres from where the layout says (stuck
# on by hand, another sheet's), which four markers' one homography cannot absorb. A nearer miss
# bends the fit unseen: the markers' places in the file are the installer's to get right. A
# whole sheet printed at another scale fits, and rightly: its regions scaled with it.
FIT_PX = 2.0


def find_markers(image: Image, dictionary: str, ids: Iterable[int]) -> dict[int, F64]:
    """The markers ``ids`` of the ``cv2.aruco`` dictionary named ``dictionary`` seen in a BGR
    or grey ``image``: id to its corners (4 x 2 pixels, clockwise from its top-left). Other
    ids are ignored; a ``MarkerError`` names an id seen twice."""
    if image.dtype != np.uint8 or image.ndim not in (2, 3):
        raise ImageError(f"expected an 8-bit image, got {image.dtype} {image.shape}")
    params = cv2.aruco.DetectorParameters()
    # Sub-pixel corners: the homography and the moved-camera check rest on their precision.
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(aruco_dictionary(dictionary), params)
    corners, seen, _ = detector.detectMarkers(image)
    found: dict[int, F64] = {}
    wanted = set(ids)
    for quad, ident in zip(corners, [] if seen is None else seen.ravel().tolist(), strict=True):
        if ident not in wanted:
            continue
        if ident in found:
            raise MarkerError(f"marker {ident} of {dictionary} is seen twice; the layout "
                              f"prints it once", (int(ident),))
        found[int(ident)] = np.asarray(quad, np.float64).reshape(4, 2)
    return found


def calibrate(image: Image, layout: Layout, taken: datetime | None = None) -> MarkerCalibration:
    """The camera calibrated to ``layout`` from one frame in which all its markers show;
    a ``MarkerError`` naming the markers not found, or those seen out of place."""
    if layout.markers is None:
        raise LayoutError(f"layout {layout.name!r} names no markers to calibrate by")
    markers = layout.markers
    seen = find_markers(image, markers.dictionary, markers.ids)
    missing = tuple(i for i in markers.ids if i not in seen)
    if missing:
        raise MarkerError(f"layout {layout.name!r}: marker{'s' * (len(missing) > 1)} "
                          f"{', '.join(map(str, missing))} of {markers.dictionary} not found "
                          f"in the frame (found {sorted(seen) or 'none'})", missing)
    felt = np.array([c for p in markers.places for c in p.corners], np.float64)
    pixels = np.concatenate([seen[p.id] for p in markers.places])
    # All sixteen corners by least squares: each is found to a fraction of a pixel, so none
    # is an outlier to vote away, and using every one averages their noise.
    hom, _ = cv2.findHomography(pixels, felt, 0)
    if hom is None:
        raise MarkerError(f"layout {layout.name!r}: the markers seen give no homography "
                          f"(corners {pixels.round(1).tolist()})")
    misfit = _misfit_px(np.asarray(hom, np.float64), pixels, felt)
    per_marker = misfit.reshape(len(markers.places), 4).max(axis=1)
    rms = float(np.sqrt(np.mean(misfit**2)))
    if rms > FIT_PX:
        worst = markers.places[int(per_marker.argmax())].id
        raise MarkerError(f"layout {layout.name!r}: the markers do not lie where the layout "
                          f"says (RMS {rms:.1f} px; marker {worst} off by "
                          f"{per_marker.max():.1f} px): is each printed where the layout "
                          f"file puts it?", (worst,))
    h, w = image.shape[:2]
    when = (taken or datetime.now(UTC)).astimezone(UTC).isoformat(timespec="seconds")
    rows = tuple((float(r[0]), float(r[1]), float(r[2])) for r in hom / hom[2, 2])
    seen_corners = tuple((p.id, _corners(seen[p.id])) for p in markers.places)
    return MarkerCalibration(layout.name, markers.dictionary, (w, h), rows, seen_corners,
                             when, rms)


def check_still_calibrated(image: Image, calibration: MarkerCalibration,
                           tolerance_px: float = MOVED_PX) -> dict[int, float]:
    """Each marker's largest corner shift (pixels) since ``calibration``, when all are within
    ``tolerance_px``; else ``CameraMoved`` naming the markers hidden or moved."""
    h, w = image.shape[:2]
    if (w, h) != calibration.image_size:
        raise CameraMoved(f"the camera's frames are {w} x {h}, calibrated at "
                          f"{calibration.image_size[0]} x {calibration.image_size[1]}")
    ids = [i for i, _ in calibration.markers]
    seen = find_markers(image, calibration.dictionary, ids)
    missing = tuple(i for i in ids if i not in seen)
    shifts = {i: float(np.linalg.norm(seen[i] - calibration.corners(i), axis=1).max())
              for i in ids if i in seen}
    moved = {i: s for i, s in shifts.items() if s > tolerance_px}
    if missing or moved:
        parts = []
        if missing:
            parts.append(f"marker{'s' * (len(missing) > 1)} {', '.join(map(str, missing))} "
                         f"not seen")
        if moved:
            parts.append(", ".join(f"marker {i} moved {s:.1f} px" for i, s in moved.items()))
        raise CameraMoved(f"camera no longer calibrated to layout {calibration.layout!r}: "
                          f"{'; '.join(parts)} (tolerance {tolerance_px:g} px)", missing, shifts)
    return shifts


def _misfit_px(image_to_felt: F64, pixels: F64, felt: F64) -> F64:
    """How far each felt corner, mapped into the image, lies from where it was found."""
    back = cv2.perspectiveTransform(felt.reshape(-1, 1, 2), np.linalg.inv(image_to_felt))
    return np.asarray(np.linalg.norm(back.reshape(-1, 2) - pixels, axis=1), np.float64)


def _corners(arr: F64) -> Corners:
    p = [(float(x), float(y)) for x, y in arr]
    return (p[0], p[1], p[2], p[3])
