"""Learning a deck from one image per face: folders, errors naming the face, saved files."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.conftest import (
    STYLES,
    deck,
    faces,
    faces_dir,
    outlined_face,
    starred_deck,
)
from vision.cards import CODES, Deck, blank_corner, calibrate, card_face, load_faces, normalize
from vision.cards import deck as deck_module
from vision.cards.calibrate import (
    SHARPEN,
    THIN,
    choose_bays,
    choose_sharpen,
    stroke,
)
from vision.cards.codes import TEN_ONE, TEN_PART
from vision.cards.face_index import references
from vision.cards.ink import Limits
from vision.errors import CalibrationError


def test_calibration_from_files_reads_a_clean_card() -> None:
    made = calibrate(faces("4color"), name="quick", rounds=6)
    assert made.name == "quick"
    assert len(made.codes) == 52 and made.strip_codes == ("Jk",)
    # a ten's "0" with its suit is learned apart, as a rank that names no card
    assert set(made.ranks.names) == set("23456789TJQKA") | {TEN_PART, TEN_ONE}
    assert set(made.suits.names) == set("cdhs")


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    original = deck("2color")
    path = tmp_path / "deck.npz"
    original.save(path)
    back = Deck.load(path)
    assert back.codes == original.codes and back.link == original.link
    assert back.sharpen == original.sharpen == SHARPEN
    assert np.array_equal(back.ranks.projection, original.ranks.projection)
    assert back.strip_accept == original.strip_accept
    assert back.fine_ranks is not None and original.fine_ranks is not None
    assert np.array_equal(back.fine_ranks.means, original.fine_ranks.means)
    assert back.fine_suits is not None and original.fine_suits is not None
    assert back.fine_suits.typical == original.fine_suits.typical
    assert not back.bays  # a deck cutting glyphs from its outline says so (``choose_bays``)
    assert back.fine_rank_fit is None  # held at the fine cut as any deck
    dataclasses.replace(original, bays=True, pips=True, courts=True,
                        read_sharpen=2.0, fine_rank_fit=0.3).save(path)
    assert Deck.load(path).bays and Deck.load(path).pips and Deck.load(path).courts
    assert Deck.load(path).read_sharpen == 2.0 and Deck.load(path).fine_rank_fit == 0.3
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    # a deck saved before: it parted none, and was read as sharpened as any deck
    # and held its ranks at the fine cut as any deck
    del meta["bays"], meta["pips"], meta["courts"], meta["read_sharpen"], meta["fine_rank_fit"]
    np.savez(path, **{**arrays, "meta": np.array(json.dumps(meta))})
    assert not Deck.load(path).bays and not Deck.load(path).pips
    assert not Deck.load(path).courts and Deck.load(path).read_sharpen == 0.0
    assert Deck.load(path).fine_rank_fit is None


def test_a_deck_without_the_fine_cut_loads_and_older_versions_are_refused(
        tmp_path: Path) -> None:
    """A deck saved without the fine discriminants loads, and reads without. Decks of
    versions 1 and 2 were learned from patches cut whole, which the reader no longer cuts:
    they are refused, naming the file and asking for a new calibration; so is a version to
    come."""
    path = tmp_path / "old.npz"
    dataclasses.replace(deck("2color"), fine_ranks=None, fine_suits=None).save(path)
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    assert "fine_rank_typical" not in meta and not any(k.startswith("fine") for k in arrays)
    back = Deck.load(path)
    assert back.fine_ranks is None and back.fine_suits is None
    assert back.codes == deck("2color").codes
    for version in (1, 2):
        meta["version"] = version
        np.savez(path, **{**arrays, "meta": np.array(json.dumps(meta))})
        with pytest.raises(CalibrationError, match=(
                rf"old.npz'.*version {version}, expected 'paigow-deck' version 3 "
                r"\(an older calibration: make it again with `paigow vision calibrate cards`\)")):
            Deck.load(path)
    meta["version"] = 4
    np.savez(path, **{**arrays, "meta": np.array(json.dumps(meta))})
    with pytest.raises(CalibrationError, match=r"version 4, expected 'paigow-deck' version 3$"):
        Deck.load(path)


def test_a_save_that_fails_leaves_the_old_calibration_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A deck is written beside its path and renamed over it: another process loading the
    path meanwhile, or after a save that failed, finds the old calibration whole, and no
    staging file stays."""
    path = tmp_path / "deck.npz"
    deck("2color").save(path)
    before = path.read_bytes()

    def refused(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(deck_module.os, "replace", refused)
    with pytest.raises(CalibrationError, match="disk full"):
        deck("4color").save(path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["deck.npz"]


def test_a_save_that_cannot_write_names_the_path_and_leaves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "missing" / "deck.npz"
    with pytest.raises(CalibrationError, match=r"cannot write deck calibration .*missing"):
        deck("2color").save(path)
    assert list(tmp_path.iterdir()) == []


def test_a_deck_saved_before_sharpening_reads_unsharpened(tmp_path: Path) -> None:
    """A deck file without ``sharpen`` was learned from unsharpened ink: it loads with none."""
    path = tmp_path / "before.npz"
    deck("2color").save(path)
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    assert meta.pop("sharpen") == SHARPEN
    np.savez(path, **{**arrays, "meta": np.array(json.dumps(meta))})
    assert Deck.load(path).sharpen == 0.0


def test_the_blank_index_box_is_saved_and_a_deck_saved_before_it_uses_the_old_one(
        tmp_path: Path) -> None:
    """``Deck.blank`` is written and read back; a deck file without one was read with the
    box set on the tuning artwork (``blank_corner.CORNER``) and loads with it; a malformed box
    is refused naming it."""
    path = tmp_path / "deck.npz"
    deck("2color").save(path)
    assert Deck.load(path).blank == deck("2color").blank != blank_corner.CORNER
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    meta.pop("blank")
    np.savez(path, **{**arrays, "meta": np.array(json.dumps(meta))})
    assert Deck.load(path).blank == blank_corner.CORNER
    meta["blank"] = [0.1, 0.2]
    np.savez(path, **{**arrays, "meta": np.array(json.dumps(meta))})
    with pytest.raises(CalibrationError, match=r"blank box \[0.1, 0.2\]"):
        Deck.load(path)


def test_a_jokers_corner_mark_is_saved_and_a_deck_saved_before_it_has_none(
        tmp_path: Path) -> None:
    """A joker learned by its corner mark (``Deck.marked``, ``marks``, ``mark_box``,
    ``mark_accept``, ``mark_both``) is written and read back; a deck file from before marks
    were learned loads with none (its strip faces named by a blank corner, as before), one
    from before ``mark_both`` names by the mark alone; a malformed mark box or pair is
    refused naming it."""
    path = tmp_path / "deck.npz"
    made = starred_deck()
    made.save(path)
    back = Deck.load(path)
    assert back.marked == made.marked == ("Jk",)
    assert np.array_equal(back.marks, made.marks) and back.marks.shape[0] == 2
    assert back.mark_box == made.mark_box and back.mark_accept == made.mark_accept
    assert back.mark_both == made.mark_both
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    good = dict(meta)
    meta["mark_box"] = [0.1]
    np.savez(path, **{**arrays, "meta": np.array(json.dumps(meta))})
    with pytest.raises(CalibrationError, match=r"mark box \[0.1\]"):
        Deck.load(path)
    meta = {**good, "mark_both": [0.8]}
    np.savez(path, **{**arrays, "meta": np.array(json.dumps(meta))})
    with pytest.raises(CalibrationError, match=r"mark_both \[0.8\] is not two numbers"):
        Deck.load(path)
    meta = dict(good)
    meta.pop("mark_both")
    np.savez(path, **{**arrays, "meta": np.array(json.dumps(meta))})
    assert Deck.load(path).mark_both == (1.0, 1.0)  # before it was learned: the mark alone
    for key in ("marked", "mark_box", "mark_accept"):
        meta.pop(key)
    del arrays["marks"]
    np.savez(path, **{**arrays, "meta": np.array(json.dumps(meta))})
    old = Deck.load(path)
    assert old.marked == () and old.marks.shape[0] == 0 and old.strip_codes == ("Jk",)
    with pytest.raises(CalibrationError, match=r"marks do not match"):
        dataclasses.replace(made, marks=made.marks[:1])


def test_load_refuses_other_files(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="no deck calibration"):
        Deck.load(tmp_path / "missing.npz")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    with pytest.raises(CalibrationError, match=r"not a deck calibration \(not an .npz archive\)"):
        Deck.load(junk)
    np.savez(tmp_path / "other.npz", meta=np.array('{"format": "x", "version": 1}'))
    with pytest.raises(CalibrationError, match="format 'x'"):
        Deck.load(tmp_path / "other.npz")


def test_folder_errors_name_the_face(tmp_path: Path) -> None:
    src = faces_dir("2color")
    for path in src.glob("*.png"):
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "Qh.png").unlink()
    with pytest.raises(CalibrationError, match="Qh"):
        load_faces(tmp_path)
    shutil.copy(src / "Qh.png", tmp_path / "Qh.png")
    shutil.copy(src / "As.png", tmp_path / "AS.jpg")  # the same card twice
    with pytest.raises(CalibrationError, match=r"second image of 'As'"):
        load_faces(tmp_path)
    (tmp_path / "AS.jpg").unlink()
    (tmp_path / "Zz.png").write_bytes(b"")
    with pytest.raises(CalibrationError, match="Zz"):
        load_faces(tmp_path)
    (tmp_path / "Zz.png").unlink()
    (tmp_path / "Kd.png").write_bytes(b"garbage")
    with pytest.raises(ValueError, match=r"Kd\.png"):
        load_faces(tmp_path)
    with pytest.raises(CalibrationError, match=r"not a folder"):
        load_faces(tmp_path / "nothing")


def test_card_face_cuts_a_photographed_card() -> None:
    face = faces("2color")["As"]
    photo = np.full((500, 420, 3), 40, np.uint8)
    opaque = cv2.cvtColor(face, cv2.COLOR_BGRA2BGR)
    photo[70:70 + face.shape[0], 80:80 + face.shape[1]] = opaque
    cut = card_face(photo)
    assert cut.shape[2] == 4
    assert abs(cut.shape[0] - face.shape[0]) <= 3 and abs(cut.shape[1] - face.shape[1]) <= 3


@pytest.mark.parametrize(("text", "code"), [("as", "As"), ("10h", "Th"), ("JK", "Jk")])
def test_codes(text: str, code: str) -> None:
    assert normalize(text) == code and code in CODES
    assert len(CODES) == 53


def test_bad_code() -> None:
    with pytest.raises(ValueError, match="'1x'"):
        normalize("1x")


@pytest.mark.parametrize("style", STYLES)
def test_a_deck_of_thin_strokes_is_sharpened_and_a_bold_one_not(style: str) -> None:
    """The plain styles draw their ranks with strokes under ``THIN`` card widths on every
    face, the bold ("-bf") styles over it: the first are sharpened before the ink threshold,
    the second not, and the calibration says so."""
    cards = {code: card_face(face) for code, face in faces(style).items()}
    renders = references(cards)
    link = deck(style).link
    widths = [w for (image, pose), face in zip(renders, cards.values(), strict=True)
              if (w := stroke(image, pose, face, Limits(link=link))) is not None]
    assert len(widths) == len(CODES) - 1  # the joker shows no index
    bold = style.endswith("-bf")
    assert all((w > THIN) == bold for w in widths)
    chosen = choose_sharpen(cards, link, renders)
    assert chosen == deck(style).sharpen == (0.0 if bold else SHARPEN)


def test_a_deck_parts_glyphs_from_its_pips_as_its_own_tables_read_best() -> None:
    """Whether a deck that splits its marks parts glyphs from its pips is decided by reading
    tables of its own faces both ways (``trial.parts_more``), not by single faces' renders.
    The test deck's styles print their index clear of their pips: those that split their
    marks part them, their own tables reading alike either way; the others do not split."""
    for style in STYLES:
        assert deck(style).pips == deck(style).split


def test_a_deck_whose_index_joins_its_printed_outline_cuts_it_free() -> None:
    """Faces whose rank lies 2 pixels inside a thick printed outline (``outlined_face``)
    show their index in small blurred renders only where glyphs are cut from the outline:
    such a deck cuts them (``choose_bays``); the same faces without the outline, and the
    test deck's styles, whose indices lie clear of their edge, do not."""
    assert choose_bays({str(k): outlined_face(4, k) for k in range(8)})
    assert not choose_bays({str(k): outlined_face(0, k) for k in range(8)})
    for style in STYLES:
        assert not deck(style).bays
