"""A deck without a joker, and faces a calibration cannot use (issue 33).

A deck whose profile has no joker is learned from its 52 standard faces, and its reader
never names a joker; a face whose corner index the calibration's renders do not show is
refused by name (``calibrate.UnusableFaces``), not learned as an edge strip.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.vision.conftest import ASSETS, faces, faces_dir
from vision.cards import CardReader, Deck, calibrate, load_faces
from vision.cards.cache import cached_deck
from vision.cards.calibrate import UnusableFaces
from vision.cards.evaluate import evaluate
from vision.errors import CalibrationError
from vision.scene.hands import table_scene


def no_joker() -> tuple[dict[str, np.ndarray], Deck]:
    """The 2color test deck's faces without the joker, and their calibration (kept)."""
    plain = {code: face for code, face in faces("2color").items() if code != "Jk"}
    return plain, cached_deck("2color-nojoker", plain, ASSETS / "decks")


def test_a_folder_without_a_joker_image_loads_its_52_faces(tmp_path: Path) -> None:
    shutil.copytree(faces_dir("2color"), tmp_path / "deck")
    (tmp_path / "deck" / "Jk.png").unlink()
    assert sorted(load_faces(tmp_path / "deck")) == sorted(c for c in faces("2color") if c != "Jk")
    (tmp_path / "deck" / "Qh.png").unlink()
    with pytest.raises(CalibrationError, match=r"no image of Qh .*'Jk' is optional"):
        load_faces(tmp_path / "deck")


def test_a_deck_without_a_joker_calibrates_and_reads_rendered_frames() -> None:
    plain, deck = no_joker()
    assert len(deck.codes) == 52 and deck.strip_codes == () and "Jk" not in deck.faces
    tally = evaluate(CardReader(deck), plain, 4, seed=33)
    assert tally.wrong == 0, tally.mistakes
    assert tally.right >= 0.97 * tally.cards


def test_a_deck_without_a_joker_never_names_one() -> None:
    """Frames holding the joker, read against the deck learned without it: no item is named
    the joker, and the joker is no other card either."""
    _, deck = no_joker()
    reader = CardReader(deck)
    rng = np.random.default_rng(5)
    shown = 0
    for _ in range(6):
        image, truth = table_scene(faces("2color"), rng)
        items = reader.read(image)
        assert all(i.code != "Jk" for i in items)
        named = {i.code for i in items if i.code is not None}
        assert named <= {t.label for t in truth}
        shown += any(t.label == "Jk" for t in truth)
    assert shown >= 1  # the joker was on the table in some frame


def test_a_face_whose_index_does_not_show_is_refused_naming_it() -> None:
    """A blank card given as the five of clubs: its index is never found, so the deck is
    refused naming that face, rather than learning it as an edge strip."""
    given = dict(faces("2color"))
    blank = np.full_like(given["5c"], 250)
    blank[..., 3] = given["5c"][..., 3]
    given["5c"] = blank
    with pytest.raises(UnusableFaces, match=r"corner index of 5c was found fewer") as err:
        calibrate(given, name="blank", rounds=6)
    assert err.value.faces == ("5c",)


def test_faces_left_out_are_never_named() -> None:
    """A deck learned ``without`` some faces (as the bench measures a deck whose images it
    refused) knows none of them, and refuses codes that name no card."""
    given = {code: face for code, face in faces("2color").items() if code not in ("Jk", "5c")}
    deck = calibrate(given, name="less", rounds=6, without=("5c",))
    assert "5c" not in deck.faces and len(deck.codes) == 51
    with pytest.raises(CalibrationError, match=r"no face for 5c"):
        calibrate(given, name="less", rounds=6)
    with pytest.raises(CalibrationError, match=r"\['Xy'\] are no card codes"):
        calibrate(given, name="less", rounds=6, without=("5c", "Xy"))
