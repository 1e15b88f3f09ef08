"""``paigow vision calibrate cards`` and ``paigow vision read`` (controller.commands.vision)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.commands.vision import main
from tests.vision.conftest import ASSETS, deck, faces, faces_dir
from vision.cards import Deck
from vision.scene import Camera
from vision.scene.hands import table_scene
from vision.tiles import tile_scene


@pytest.fixture
def calib(tmp_path: Path) -> Path:
    path = tmp_path / "deck.npz"
    deck("2color").save(path)
    return path


def test_calibrate_cards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "4color.npz"
    assert main(["vision", "calibrate", "cards", str(faces_dir("4color")), "--out", str(out),
                 "--rounds", "6"]) == 0
    said = capsys.readouterr().out
    assert "52 faces by corner index, 1 by edge strip (Jk), thin strokes: ink sharpened" in said
    assert Deck.load(out).name == "4color" and Deck.load(out).sharpen > 0


def test_calibrate_names_a_bad_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "As.png").write_bytes(b"")
    assert main(["vision", "calibrate", "cards", str(tmp_path), "--out", "x.npz"]) == 2
    err = capsys.readouterr().err
    assert "paigow: error:" in err and "As.png" in err and err.count("\n") == 1


def test_read_json_lines(tmp_path: Path, calib: Path, capsys: pytest.CaptureFixture[str]) -> None:
    image, truth = table_scene(faces("2color"), np.random.default_rng(4),
                               camera=Camera(tilt=0.0), cells=range(14))
    table = tmp_path / "table.png"
    cv2.imwrite(str(table), image)
    black = tmp_path / "black.png"
    cv2.imwrite(str(black), np.zeros((720, 1280, 3), np.uint8))
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG\r\n\x1a\n but not really")
    args = ["vision", "read", str(table), str(black), str(broken), "--deck", str(calib),
            "--layout", "sim-table", "--json"]
    assert main(args) == 2  # one image could not be read: bad input, the others read
    out, err = capsys.readouterr()
    said = json.loads(out.splitlines()[2])["error"]
    assert err.splitlines() == [f"paigow: error: {said}"] and str(broken) in said
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["image"] for line in lines] == [str(table), str(black), str(broken)]
    cards = lines[0]["items"]
    labels = {t.label for t in truth}
    named = [c for c in cards if c["code"] is not None]
    assert len(named) >= 40 and {c["code"] for c in named} <= labels
    assert all(c["region"] for c in named)
    assert lines[0]["counts"]["tile"] == 0 and lines[0]["counts"]["die"] == 0  # a poker table
    assert set(cards[0]) >= {"kind", "code", "confidence", "center", "corners", "region"}
    assert lines[1]["note"] == "black frame" and lines[1]["items"] == []
    assert "broken.png" in lines[2]["error"] and lines[2]["items"] == []


def test_read_text(tmp_path: Path, calib: Path, capsys: pytest.CaptureFixture[str]) -> None:
    image, _ = table_scene(faces("2color"), np.random.default_rng(5), hands=1)
    path = tmp_path / "one.png"
    cv2.imwrite(str(path), image)
    assert main(["vision", "read", str(path), "--deck", str(calib)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{path}: ") and "card" in out[0]
    assert len(out) >= 6


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--deck", "/no/deck.npz"], "no deck calibration"),
        (["--layout", "no-such-layout"], "no-such-layout"),
        (["--game", "poker"], "--deck"),
    ],
)
def test_read_bad_options(extra: list[str], message: str, tmp_path: Path,
                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "x.png"
    cv2.imwrite(str(path), np.zeros((8, 8, 3), np.uint8))
    assert main(["vision", "read", str(path), *extra]) == 2
    assert message in capsys.readouterr().err


def test_read_without_a_deck_reads_tiles(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    scene = tile_scene(np.random.default_rng(2), count=4)
    path = tmp_path / "tiles.png"
    cv2.imwrite(str(path), scene.image)
    assert main(["vision", "read", str(path), "--json"]) == 0
    said = capsys.readouterr()
    line = json.loads(said.out)
    assert line["counts"]["card"] == 0 and line["counts"]["tile"] == 4
    assert "tiles table" in said.err


def test_assets_are_there() -> None:
    assert (ASSETS / "cards" / "2color" / "As.png").is_file() or faces_dir("2color")
