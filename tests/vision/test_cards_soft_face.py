"""A face whose image is too blurred for its index to be found (issue 33).

A face cut from a blurred photograph loses its thin rank strokes: its index is too seldom
found in the calibration's renders (``calibrate.SEEN_LEAST``). Where its image is softer
than its deck's faces spread to (``soft.softness``, ``SOFT_FENCE``), it is learned
again sharpened back to its deck's median (``soft.soft_faces``); a face refused for
another cause is not sharpened. The faces here are the 2color test deck's, blurred in the
test itself.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.conftest import faces
from vision.cards.calibrate import UnusableFaces, _learn, calibrate
from vision.cards.faces import card_face
from vision.cards.soft import sharpened, soft_faces, softness

Image = np.ndarray


def blurred(face: Image, sigma: float, fade: float = 1.0) -> Image:
    """``face`` blurred by a Gaussian of ``sigma`` pixels, its ink faded to ``fade`` of its
    depth below white (a blurred, washed-out photograph of it); alpha kept."""
    out = face.copy()
    colour = cv2.GaussianBlur(face[..., :3], (0, 0), sigma).astype(np.float32)
    out[..., :3] = np.clip(255.0 - fade * (255.0 - colour), 0, 255).astype(np.uint8)
    return out


def photographed() -> dict[str, Image]:
    """The 2color faces as a deck photographed slightly soft (a pixel's blur), but the 7d cut
    from a blurred, washed-out photo: its thin "7" too faint to be found."""
    crisp = {code: card_face(face) for code, face in faces("2color").items()}
    given = {code: blurred(face, 1.0) for code, face in crisp.items()}
    given["7d"] = blurred(crisp["7d"], 1.5, fade=0.3)
    return given


def test_a_blurred_face_is_softer_than_its_deck_and_sharpening_restores_it() -> None:
    given = photographed()
    width = given["7d"].shape[1]
    soft = soft_faces(given, list(given))
    assert list(soft) == ["7d"]  # no other face lies beyond the deck's fence
    deck = float(np.median([softness(face, width) for face in given.values()]))
    assert softness(given["7d"], width) > deck >= softness(sharpened(given["7d"], soft["7d"]),
                                                           width)
    # A crisp deck's faces: none beyond the fence, whichever were refused.
    crisp = {code: card_face(face) for code, face in faces("2color").items()}
    assert soft_faces(crisp, list(crisp)) == {}


def test_a_blurred_face_refused_as_it_is_is_learned_sharpened() -> None:
    """Before: the 7d refused (``SEEN_LEAST``). Now: learned from its image sharpened."""
    given = photographed()
    with pytest.raises(UnusableFaces, match=r"corner index of 7d was found fewer") as err:
        _learn(given, "soft", 8, 0)  # as calibration learned before
    assert err.value.faces == ("7d",)
    deck = calibrate(given, name="soft", rounds=8)
    assert "7d" in deck.codes
