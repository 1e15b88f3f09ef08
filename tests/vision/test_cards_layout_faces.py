"""Learning a deck from camera frames of it laid face up (``vision.cards.layout_faces`` and
``paigow vision calibrate cards --frame``): cards found, cut, ordered and named; refusals
naming the card."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from controller.commands.vision import faces_beside, main
from tests.vision.conftest import deck, faces
from vision.cards import CODES, CardReader, Deck, load_faces
from vision.cards.evaluate import evaluate
from vision.cards.layout_faces import FACE_SIZE, cut_deck, find_cards, parse_codes
from vision.errors import CalibrationError
from vision.scene import Camera, Pose, Scene

Image = NDArray[np.uint8]
STYLE = "4color"
COLUMNS = 9
CARD_WIDTH = 150.0  # px in a 1920 x 1080 frame: a deck in three rows of nine
# The camera over the laid-out deck: the scene's perspective, uneven light and glare, a
# colour cast, blur and noise, somewhat harsher than the reader's bench camera.
CAMERA = Camera(tilt=0.05, light=(0.55, 1.15), glare=(3, 110.0), blur=(0.3, 1.1),
                noise=(3.0, 7.0), tint=0.07)


def laid_out(codes: Sequence[str], seed: int, skip: Collection[int] = ()) -> Image:
    """A 1920 x 1080 JPEG frame of the test deck's ``codes`` laid face up in rows of
    ``COLUMNS`` (reading order), each card a little turned and moved; the places in ``skip``
    (indices into ``codes``) left empty."""
    rng = np.random.default_rng(seed)
    size = (1920, 1080)
    scene = Scene(size=size)
    rows = -(-len(codes) // COLUMNS)
    step_x, step_y = CARD_WIDTH * 1.27, CARD_WIDTH * 1.4 * 1.22
    for i, code in enumerate(codes):
        if i in skip:
            continue
        r, c = divmod(i, COLUMNS)
        x = size[0] / 2 + (c - (COLUMNS - 1) / 2) * step_x + rng.uniform(-8, 8)
        y = size[1] / 2 + (r - (rows - 1) / 2) * step_y + rng.uniform(-8, 8)
        face = faces(STYLE)[code]
        scene.place(face, Pose(x, y, float(rng.uniform(-4, 4)), CARD_WIDTH / face.shape[1]),
                    code)
    image, _ = scene.render(rng, CAMERA)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)


def write(path: Path, image: Image) -> str:
    assert cv2.imwrite(str(path), image)
    return str(path)


@pytest.fixture(scope="module")
def learned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The test deck learned by the command from two frames of 27 and 26 cards."""
    folder = tmp_path_factory.mktemp("laid")
    first = write(folder / "first.jpg", laid_out(CODES[:27], seed=1))
    second = write(folder / "second.jpg", laid_out(CODES[27:], seed=2))
    out = folder / "deck.npz"
    assert main(["vision", "calibrate", "cards", "--frame", first, "--frame", second,
                 "--codes", " ".join(CODES), "--out", str(out)]) == 0
    return out


def corr(a: NDArray[np.float32], b: NDArray[np.float32]) -> float:
    """The correlation of two images' pixels (1: the same up to brightness and contrast)."""
    a, b = a - a.mean(), b - b.mean()
    return float((a * b).sum() / np.sqrt((a * a).sum() * (b * b).sum()))


def test_cards_are_found_in_reading_order_and_cut_upright() -> None:
    """Each card of a frame is found, in rows top to bottom and left to right, and cut to
    the face size, portrait, like its own clean face (the index at the top left)."""
    codes = CODES[:27]
    places = find_cards(laid_out(codes, seed=3))
    assert [(p.row, p.place) for p in places] == [(r + 1, c + 1) for r in range(3)
                                                  for c in range(COLUMNS)]
    clean = {code: cv2.resize(faces(STYLE)[code][:, :, :3], FACE_SIZE).astype(np.float32)
             for code in codes}
    for place, code in zip(places, codes, strict=True):
        assert place.face is not None and place.face.shape == (FACE_SIZE[1], FACE_SIZE[0], 4)
        cut = place.face[:, :, :3].astype(np.float32)
        # compared as shapes (light and colour cast aside): its own face fits it best, better
        # than any other card's and than its own mirrored (its index at the top right)
        mine = corr(cut, clean[code])
        others = max(corr(cut, face) for other, face in clean.items() if other != code)
        turned = corr(cut, clean[code][:, ::-1].copy())
        assert mine > 0.6 and mine > others and mine > turned, (code, mine, others, turned)


def test_a_frame_with_a_card_missing_is_refused_naming_it() -> None:
    """A card missing from a row leaves a gap: the place and the code it would have had are
    named, and nothing is learned."""
    codes = CODES[:27]
    frame = laid_out(codes, seed=4, skip={12})  # row 2, place 4: codes[12] is 5c
    with pytest.raises(CalibrationError, match=(
            r"1 card\(s\) not cut: 5c at lay.jpg row 2 place 4 \(x \d+, y \d+\): no card there")):
        cut_deck([("lay.jpg", frame)], codes)


def test_a_frame_with_its_last_card_missing_is_refused_naming_the_code() -> None:
    codes = CODES[:27]
    frame = laid_out(codes, seed=5, skip={26})
    with pytest.raises(CalibrationError, match=(
            r"^26 card places in 1 frame\(s\) \(lay.jpg: 26\) for 27 codes; no card for 8h "
            r"\(the last codes\)$")):
        cut_deck([("lay.jpg", frame)], codes)


def test_overlapping_cards_are_refused_naming_the_place() -> None:
    """Two cards laid one on the other are no card's outline: refused, named."""
    rng = np.random.default_rng(6)
    scene = Scene(size=(1280, 720))
    face = faces(STYLE)["As"]
    scale = 120 / face.shape[1]
    for x in (200, 400, 600):
        scene.place(face, Pose(x, 300, 0.0, scale), "As")
    scene.place(faces(STYLE)["Kd"], Pose(660, 330, 10.0, scale), "Kd")  # on the third
    image, _ = scene.render(rng, Camera(tilt=0.0))
    with pytest.raises(CalibrationError, match=(
            r"not cut: Qh at f row 1 place 3 \(x \d+, y \d+\): (no card's outline|a pale "
            r"patch the size of \d\.\d cards: cards touching or overlapping)")):
        cut_deck([("f", image)], ["2c", "3c", "Qh"])


def test_parse_codes() -> None:
    assert parse_codes("As 10h, td\nJk  jkKs") == ["As", "Th", "Td", "Jk", "Jk", "Ks"]
    assert parse_codes("2c3d4hJK") == ["2c", "3d", "4h", "Jk"]
    with pytest.raises(ValueError, match=r"unknown card code '1s' in 'As1s'"):
        parse_codes("As1s")


def test_learned_from_frames_reads_hands_as_well_as_from_clean_faces(
        learned: Path) -> None:
    """The deck learned from two camera frames reads rendered seven-hand tables as well as
    the deck learned from the artwork's clean faces (the same frames scored for both)."""
    from_frames, clean = Deck.load(learned), deck(STYLE)
    assert from_frames.codes == clean.codes and from_frames.strip_codes == clean.strip_codes
    ours = evaluate(CardReader(from_frames), faces(STYLE), frames=4, seed=11)
    theirs = evaluate(CardReader(clean), faces(STYLE), frames=4, seed=11)
    assert ours.cards == theirs.cards == 4 * 7 * 7
    assert ours.wrong <= theirs.wrong, ours.mistakes
    assert ours.right >= theirs.right - 0.02 * theirs.cards, (ours.losses, theirs.losses)


def test_the_cut_faces_are_written_beside_the_calibration(learned: Path) -> None:
    """The faces cut are kept in CALIB.faces/ as CODE.png, a folder the DIR form reads."""
    folder = faces_beside(learned)
    assert folder == learned.with_name("deck.npz.faces")
    cut = load_faces(folder)
    assert sorted(cut) == sorted(CODES)
    assert all(f.shape == (FACE_SIZE[1], FACE_SIZE[0], 4) for f in cut.values())


@pytest.mark.parametrize(("codes", "said"), [
    (" ".join((*CODES[:26], "5c")), r"--codes: '5c' given twice \(code 13 and code 27\)"),
    ("As Ks Zz", r"--codes: unknown card code 'Zz' in 'Zz'"),
    (" ".join(CODES[:27]), r"the codes name 27 cards: 8s, 9c, 9d, 9h, 9s, Tc \.\.\. missing "
                           r"\(25 of the 52 standard cards"),
])
def test_codes_that_cannot_name_the_deck_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], codes: str, said: str) -> None:
    frame = write(tmp_path / "f.png", np.zeros((64, 64, 3), np.uint8))
    assert main(["vision", "calibrate", "cards", "--frame", frame, "--codes", codes,
                 "--out", str(tmp_path / "d.npz")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("paigow: error: ")
    assert re.search(said, err), err


def test_a_code_file_names_the_cards_and_a_bad_frame_is_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--codes-file`` reads the codes (one a line, or spaced); an unreadable frame, or counts
    that do not match, stop the command with one line naming them."""
    listing = tmp_path / "codes.txt"
    listing.write_text("\n".join(CODES[:40]) + "\n" + " ".join(CODES[40:]) + "\n")
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a picture")
    assert main(["vision", "calibrate", "cards", "--frame", str(broken), "--codes-file",
                 str(listing), "--out", str(tmp_path / "d.npz")]) == 2
    assert "broken.jpg' is not a readable image" in capsys.readouterr().err
    frame = write(tmp_path / "few.jpg", laid_out(CODES[:9], seed=7))
    assert main(["vision", "calibrate", "cards", "--frame", frame, "--codes-file",
                 str(listing), "--out", str(tmp_path / "d.npz")]) == 2
    err = capsys.readouterr().err
    assert "9 card places in 1 frame(s) (few.jpg: 9) for 53 codes; no card for 4d" in err
    assert err.count("\n") == 1 and not (tmp_path / "d.npz").exists()


@pytest.mark.parametrize(("argv", "said"), [
    ([], "give either DIR (a folder of face images) or --frame IMG"),
    (["DIR", "--frame", "x.jpg"], "not both"),
    (["DIR", "--codes", "As"], "--codes and --codes-file name the cards of --frame images"),
    (["--frame", "x.jpg"], "give --codes or --codes-file, one of them"),
    (["--frame", "x.jpg", "--codes", "As", "--codes-file", "f"], "not both"),
    (["--frame", "x.jpg", "--frame", "x.jpg", "--codes", " ".join(CODES)],
     "--frame 'x.jpg' given twice"),
])
def test_one_form_at_a_time(capsys: pytest.CaptureFixture[str], argv: list[str],
                            said: str) -> None:
    assert main(["vision", "calibrate", "cards", *argv, "--out", "x.npz"]) == 2
    assert said in capsys.readouterr().err
