"""Card face images: reading image files, a folder of faces named by code, cutting a card out."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from ..errors import CalibrationError, ImageError
from ..image_size import check_size
from .codes import CODES, JOKER, normalize

Image = NDArray[np.uint8]
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


def read_image(path: str | Path, unchanged: bool = False) -> Image:
    """An image file as BGR (or as stored, alpha kept); ImageError naming a bad file."""
    where = str(path)
    try:
        data = np.fromfile(where, np.uint8)
    except OSError as err:
        raise ImageError(f"cannot read image {where!r}: {err.strerror or err}") from err
    check_size(data.tobytes(), where)  # a header claiming billions of pixels: refused unread
    flag = cv2.IMREAD_UNCHANGED if unchanged else cv2.IMREAD_COLOR
    try:
        image = cv2.imdecode(data, flag) if data.size else None
    except cv2.error as err:  # OpenCV's own checks (its pixel limit, a format it refuses)
        message = str(err).strip().splitlines()[-1] if str(err).strip() else "refused"
        raise ImageError(f"{where!r} is not a readable image: {message}") from None
    if image is None:
        raise ImageError(f"{where!r} is not a readable image (corrupt or unknown format)")
    if image.dtype != np.uint8:
        image = cv2.convertScaleAbs(image, alpha=255.0 / max(float(image.max()), 1.0))
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    return np.asarray(image, np.uint8)


def load_faces(folder: str | Path) -> dict[str, Image]:
    """The face images in ``folder``, named by code (``As.png``, ``Td.jpg``, ``Jk.png``): the
    52 faces of a standard deck, and the joker's where the deck has one (a deck without a
    joker calibrates without it, and its reader never names one)."""
    root = Path(folder)
    if not root.is_dir():
        raise CalibrationError(f"{str(folder)!r} is not a folder of card faces")
    faces: dict[str, Image] = {}
    for path in sorted(root.iterdir()):
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        try:
            code = normalize(path.stem)
        except ValueError as err:
            raise CalibrationError(f"{str(path)!r}: {err}") from err
        if code in faces:
            raise CalibrationError(f"{str(path)!r}: a second image of {code!r}")
        faces[code] = card_face(read_image(path, unchanged=True))
    missing = [c for c in CODES if c not in faces and c != JOKER]
    if missing:
        raise CalibrationError(
            f"{str(folder)!r}: no image of {', '.join(missing[:6])}"
            f"{' ...' if len(missing) > 6 else ''} ({len(missing)} of the 52 standard faces "
            f"missing; {JOKER!r} is optional)"
        )
    return faces


def card_face(image: Image) -> Image:
    """The card cut out of an image, upright, as BGRA (transparent outside a rounded card).

    An image with transparent corners, or a card filling the image, is kept as it is; a
    photograph of a card on a darker background is cut along the card's outline.
    """
    if image.shape[2] == 4:
        return image
    low = cv2.min(cv2.min(image[:, :, 0], image[:, :, 1]), image[:, :, 2])
    _, bright = cv2.threshold(low, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    contours = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[-2]
    h, w = low.shape
    if contours:
        big = max(contours, key=cv2.contourArea)
        if cv2.contourArea(big) < 0.85 * h * w:
            (cx, cy), (rw, rh), angle = cv2.minAreaRect(big)
            if rw > rh:
                rw, rh, angle = rh, rw, angle - 90
            box = cv2.boxPoints(((cx, cy), (rw, rh), angle))
            order = box[np.argsort(np.arctan2(box[:, 1] - cy, box[:, 0] - cx))]
            dst = np.array([[0, 0], [rw - 1, 0], [rw - 1, rh - 1], [0, rh - 1]], np.float32)
            # arctan2 order from -pi: top-left, top-right, bottom-right, bottom-left.
            m = cv2.getPerspectiveTransform(order.astype(np.float32), dst)
            image = np.asarray(cv2.warpPerspective(image, m, (int(rw), int(rh))), np.uint8)
    alpha = np.full((*image.shape[:2], 1), 255, np.uint8)
    return np.concatenate([image, alpha], axis=2)
